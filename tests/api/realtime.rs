//! The events of interface §6 and their delivery rules, on every transport.

use serde_json::{Value, json};

use crate::{
    helpers::*,
    sio::{Sio, TRANSPORTS, Transport},
};

/// An item to hang threads on, reported by a fresh account.
async fn an_item(app: &TestApp) -> i64 {
    let reporter = app.logged_in("reporter", false).await;
    let (_, item) = reporter.post("/api/items", item_body("Lost scarf")).await;
    item["id"].as_i64().unwrap()
}

fn assert_message(msg: &Value, nick: &str, text: &str) {
    assert_eq!(
        (msg["nick"].as_str(), msg["text"].as_str()),
        (Some(nick), Some(text)),
        "{msg}"
    );
    let ts = msg["ts"].as_str().expect("ts is a string");
    assert!(is_rfc3339_millis(ts), "ts {ts}");
}

fn is_rfc3339_millis(ts: &str) -> bool {
    let b = ts.as_bytes();
    ts.len() == 24
        && ts.ends_with('Z')
        && [4, 7].iter().all(|&i| b[i] == b'-')
        && b[10] == b'T'
        && b[19] == b'.'
        && [13, 16].iter().all(|&i| b[i] == b':')
}

#[tokio::test]
async fn chat_history_then_new_messages_reach_every_client_on_every_transport() {
    let app = spawn_app().await;
    for (name, transport) in TRANSPORTS {
        let sender = Sio::connect(&app, transport.clone()).await;
        let listener = Sio::connect(&app, transport.clone()).await;
        sender.emit("chat:join", json!({ "nick": "Ann" })).await;
        let history = sender.next("chat:history").await;
        assert!(history.is_array(), "{history}");

        let text = format!("hello over {name}");
        assert_eq!(
            sender.call("chat:send", json!({ "nick": "Ann", "text": text })).await,
            json!({ "ok": true })
        );
        // chat:new goes to everyone, the sender included, whether or not they joined.
        assert_message(&sender.next("chat:new").await, "Ann", &text);
        assert_message(&listener.next("chat:new").await, "Ann", &text);
        sender.disconnect().await;
        listener.disconnect().await;
    }
    let reader = Sio::connect(&app, Transport::Websocket).await;
    reader.emit("chat:join", json!({ "nick": "Bea" })).await;
    let history = reader.next("chat:history").await;
    let texts: Vec<_> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "hello over polling",
            "hello over websocket",
            "hello over polling+upgrade"
        ],
        "oldest first"
    );
}

#[tokio::test]
async fn blank_or_missing_nick_is_anonymous() {
    let app = spawn_app().await;
    let client = Sio::connect(&app, Transport::Websocket).await;
    client.emit("chat:send", json!({ "text": "who am I" })).await;
    assert_message(&client.next("chat:new").await, "Anonymous", "who am I");
    client
        .emit("chat:send", json!({ "nick": "   ", "text": "still nobody" }))
        .await;
    assert_message(&client.next("chat:new").await, "Anonymous", "still nobody");
}

#[tokio::test]
async fn thread_messages_reach_members_and_the_sender_only() {
    let app = spawn_app().await;
    let item_id = an_item(&app).await;
    for (_, transport) in TRANSPORTS {
        let member = Sio::connect(&app, transport.clone()).await;
        let sender = Sio::connect(&app, transport.clone()).await;
        let outsider = Sio::connect(&app, transport.clone()).await;

        assert_eq!(
            member
                .call("thread:join", json!({ "itemId": item_id, "nick": "M" }))
                .await,
            json!({ "ok": true })
        );
        let history = member.next("thread:history").await;
        assert_eq!(history["itemId"], item_id);
        assert!(history["msgs"].is_array());

        // The sender has not joined: it still gets its own message back, once.
        let ack = sender
            .call(
                "thread:send",
                json!({ "itemId": item_id, "nick": "S", "text": "is it mine?" }),
            )
            .await;
        assert_eq!(ack, json!({ "ok": true }));
        for client in [&member, &sender] {
            let news = client.next("thread:new").await;
            assert_eq!(news["itemId"], item_id);
            assert_message(&news["msg"], "S", "is it mine?");
        }
        // A chat message sent after the thread message reaches the outsider after anything
        // sent to it before; so once it is there, a thread:new would have been too.
        sender.call("chat:send", json!({ "text": "barrier" })).await;
        outsider.next("chat:new").await;
        sender.next("chat:new").await;
        assert!(
            outsider.take_all("thread:new").await.is_empty(),
            "outsider got thread:new"
        );
        assert!(
            sender.take_all("thread:new").await.is_empty(),
            "sender got its message twice"
        );

        // After leaving, the member no longer receives the thread.
        assert_eq!(
            member.call("thread:leave", json!({ "itemId": item_id })).await,
            json!({ "ok": true })
        );
        sender
            .call("thread:send", json!({ "itemId": item_id, "text": "anyone?" }))
            .await;
        sender.call("chat:send", json!({ "text": "barrier 2" })).await;
        member.next("chat:new").await;
        member.next("chat:new").await;
        assert!(
            member.take_all("thread:new").await.is_empty(),
            "left member got thread:new"
        );
        for client in [member, sender, outsider] {
            client.disconnect().await;
        }
    }
}

#[tokio::test]
async fn thread_history_is_the_latest_200_oldest_first_and_per_item() {
    let app = spawn_app().await;
    let item_id = an_item(&app).await;
    let other_id = an_item_of(&app, "other").await;
    for n in 1..=205 {
        app.store
            .insert_thread_message(item_id, "N", &format!("m{n}"), None, n)
            .await
            .unwrap();
    }
    app.store
        .insert_thread_message(other_id, "N", "elsewhere", None, 1)
        .await
        .unwrap();
    let client = Sio::connect(&app, Transport::Websocket).await;
    client
        .emit("thread:join", json!({ "itemId": item_id, "nick": "R" }))
        .await;
    let history = client.next("thread:history").await;
    let texts: Vec<_> = history["msgs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), 200);
    assert_eq!((texts[0], texts[199]), ("m6", "m205"));
    assert!(!texts.contains(&"elsewhere"));
}

async fn an_item_of(app: &TestApp, reporter: &str) -> i64 {
    let client = app.logged_in(reporter, false).await;
    let (_, item) = client.post("/api/items", item_body("Another thing")).await;
    item["id"].as_i64().unwrap()
}

#[tokio::test]
async fn chat_history_is_the_latest_200() {
    let app = spawn_app().await;
    for n in 1..=203 {
        app.store
            .insert_chat_message("N", &format!("c{n}"), None, n)
            .await
            .unwrap();
    }
    // WebSocket: rust_socketio's polling client fails on responses this large (the official
    // clients read them; see tests/clients).
    let client = Sio::connect(&app, Transport::Websocket).await;
    client.emit("chat:join", json!({ "nick": "R" })).await;
    let history = client.next("chat:history").await;
    let msgs = history.as_array().unwrap();
    assert_eq!(msgs.len(), 200);
    assert_eq!(
        (msgs[0]["text"].as_str(), msgs[199]["text"].as_str()),
        (Some("c4"), Some("c203"))
    );
    assert_eq!(msgs[0]["ts"], "1970-01-01T00:00:00.004Z");
}

#[tokio::test]
async fn history_survives_a_restart() {
    let app = spawn_app().await;
    let item_id = an_item(&app).await;
    let client = Sio::connect(&app, Transport::Websocket).await;
    client
        .call("chat:send", json!({ "nick": "Ann", "text": "before restart" }))
        .await;
    client
        .call(
            "thread:send",
            json!({ "itemId": item_id, "nick": "Ann", "text": "thread before restart" }),
        )
        .await;
    client.disconnect().await;

    let app = app.restart().await;
    let client = Sio::connect(&app, Transport::Websocket).await;
    client.emit("chat:join", json!({})).await;
    assert_message(&client.next("chat:history").await[0], "Ann", "before restart");
    client.emit("thread:join", json!({ "itemId": item_id })).await;
    assert_message(
        &client.next("thread:history").await["msgs"][0],
        "Ann",
        "thread before restart",
    );
}

#[tokio::test]
async fn deleting_an_item_deletes_its_thread() {
    let app = spawn_app().await;
    let item_id = an_item(&app).await;
    let client = Sio::connect(&app, Transport::Websocket).await;
    client
        .call("thread:send", json!({ "itemId": item_id, "text": "soon gone" }))
        .await;
    assert_eq!(app.db.count("thread_messages").await, 1);

    let admin = app.logged_in("admin", true).await;
    admin.delete(&format!("/api/items/{item_id}")).await;
    assert_eq!(app.db.count("thread_messages").await, 0);
    let ack = client.call("thread:join", json!({ "itemId": item_id })).await;
    assert_eq!(ack, json!({ "ok": false, "error": "Item not found" }));
}

#[tokio::test]
async fn a_logged_in_sender_is_recorded_with_the_message() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let sid = session_cookie(&app, "alice").await;
    let known = Sio::connect_with(&app, Transport::Websocket, &[("Cookie", &sid)]).await;
    let anonymous = Sio::connect(&app, Transport::Websocket).await;
    known
        .call("chat:send", json!({ "nick": "Not Alice", "text": "signed" }))
        .await;
    anonymous
        .call("chat:send", json!({ "nick": "Alice", "text": "unsigned" }))
        .await;

    let senders = app
        .db
        .sql("SELECT body || ':' || COALESCE(user_id, '-') FROM chat_messages ORDER BY id")
        .await;
    assert_eq!(senders, ["signed:alice", "unsigned:-"]);
}

/// The value for a `Cookie` header of a fresh session of `id`.
async fn session_cookie(app: &TestApp, id: &str) -> String {
    let response = reqwest::Client::new()
        .post(app.url("/api/login"))
        .json(&json!({ "id": id, "pw": password_of(id) }))
        .send()
        .await
        .unwrap();
    let set_cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
    set_cookie.split(';').next().unwrap().to_owned()
}
