//! The events of interface §6 and their delivery rules, on every transport.

use lostfound::domain::ItemId;
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
            "hello over polling+upgrade",
            "hello over websocket",
            "hello over polling"
        ],
        "newest first"
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
        let stayer = Sio::connect(&app, transport.clone()).await;
        let sender = Sio::connect(&app, transport.clone()).await;
        let outsider = Sio::connect(&app, transport.clone()).await;

        for (joiner, nick) in [(&member, "M"), (&stayer, "T")] {
            assert_eq!(
                joiner
                    .call("thread:join", json!({ "itemId": item_id, "nick": nick }))
                    .await,
                json!({ "ok": true })
            );
            let history = joiner.next("thread:history").await;
            assert_eq!(history["itemId"], item_id);
            assert!(history["msgs"].is_array());
        }

        // The sender has not joined: it still gets its own message back, once.
        let ack = sender
            .call(
                "thread:send",
                json!({ "itemId": item_id, "nick": "S", "text": "is it mine?" }),
            )
            .await;
        assert_eq!(ack, json!({ "ok": true }));
        for client in [&member, &stayer, &sender] {
            let news = client.next("thread:new").await;
            assert_eq!(news["itemId"], item_id);
            assert_message(&news["msg"], "S", "is it mine?");
        }
        // A chat message sent after the thread message reaches the outsider after anything
        // sent to it before; so once it is there, a thread:new would have been too.
        sender.call("chat:send", json!({ "text": "barrier" })).await;
        assert_eq!(outsider.next("chat:new").await["text"], "barrier");
        assert_eq!(sender.next("chat:new").await["text"], "barrier");
        assert!(
            outsider.take_all("thread:new").await.is_empty(),
            "outsider got thread:new"
        );
        assert!(
            sender.take_all("thread:new").await.is_empty(),
            "sender got its message twice"
        );

        // After leaving, the member no longer receives the thread, which goes on without it:
        // the message is stored and reaches the member that stayed.
        assert_eq!(
            member.call("thread:leave", json!({ "itemId": item_id })).await,
            json!({ "ok": true })
        );
        assert_eq!(
            sender
                .call("thread:send", json!({ "itemId": item_id, "text": "anyone?" }))
                .await,
            json!({ "ok": true })
        );
        for client in [&stayer, &sender] {
            assert_message(&client.next("thread:new").await["msg"], "Anonymous", "anyone?");
        }
        // The barrier: sent once the thread message was acknowledged, so after it on every
        // connection; the member has it only when anything sent to it before is there too.
        sender.call("chat:send", json!({ "text": "barrier 2" })).await;
        assert_eq!(member.next("chat:new").await["text"], "barrier");
        assert_eq!(member.next("chat:new").await["text"], "barrier 2");
        assert!(
            member.take_all("thread:new").await.is_empty(),
            "left member got thread:new"
        );
        for client in [member, stayer, sender, outsider] {
            client.disconnect().await;
        }
    }
}

#[tokio::test]
async fn thread_history_is_the_latest_200_newest_first_and_per_item() {
    let app = spawn_app().await;
    let item_id = an_item(&app).await;
    let other_id = an_item_of(&app, "other").await;
    for n in 1..=205 {
        app.store
            .insert_message(ItemId::new(item_id), "N", &format!("m{n}"), None, n)
            .await
            .unwrap();
    }
    app.store
        .insert_message(ItemId::new(other_id), "N", "elsewhere", None, 1)
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
    assert_eq!((texts[0], texts[199]), ("m205", "m6"));
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
    // Written lately: older messages would be past their retention.
    let start = lostfound::time::now_ms() - 1_000;
    for n in 1..=203 {
        app.store
            .insert_message(None, "N", &format!("c{n}"), None, start + n)
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
        (Some("c203"), Some("c4"))
    );
    assert_eq!(msgs[199]["ts"], lostfound::time::format_ms(start + 4));
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
    assert_eq!(app.db.count("messages WHERE item_id IS NOT NULL").await, 1);

    let admin = app.logged_in("admin", true).await;
    admin.delete(&format!("/api/items/{item_id}")).await;
    assert_eq!(app.db.count("messages WHERE item_id IS NOT NULL").await, 0);
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
        .sql("SELECT body || ':' || COALESCE(user_id, '-') FROM messages WHERE item_id IS NULL ORDER BY id")
        .await;
    assert_eq!(senders, ["signed:alice", "unsigned:-"]);
}

/// Makes every insert into `table` fail, on either backend, until [`accept_inserts`].
async fn refuse_inserts(app: &TestApp, table: &str) {
    if app.db.url().starts_with("postgres") {
        app.db
            .sql(
                "CREATE OR REPLACE FUNCTION refuse_insert() RETURNS trigger LANGUAGE plpgsql \
                 AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$",
            )
            .await;
        app.db
            .sql(&format!(
                "CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} \
                 FOR EACH ROW EXECUTE FUNCTION refuse_insert()"
            ))
            .await;
    } else {
        app.db
            .sql(&format!(
                "CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} \
                 BEGIN SELECT RAISE(ABORT, 'refused'); END"
            ))
            .await;
    }
}

async fn accept_inserts(app: &TestApp, table: &str) {
    let on = if app.db.url().starts_with("postgres") {
        format!(" ON {table}")
    } else {
        String::new()
    };
    app.db.sql(&format!("DROP TRIGGER refuse_{table}{on}")).await;
}

#[tokio::test]
async fn a_message_that_cannot_be_stored_is_not_sent_on() {
    let app = spawn_app().await;
    let item_id = an_item(&app).await;
    let sender = Sio::connect(&app, Transport::Websocket).await;
    let bystander = Sio::connect(&app, Transport::Websocket).await;
    assert_eq!(
        bystander.call("thread:join", json!({ "itemId": item_id })).await,
        json!({ "ok": true })
    );
    bystander.next("thread:history").await;
    let failed = json!({ "ok": false, "error": "Internal server error" });

    // The global chat.
    refuse_inserts(&app, "messages").await;
    assert_eq!(sender.call("chat:send", json!({ "text": "lost" })).await, failed);
    assert_eq!(
        sender.next("error").await,
        json!({ "message": "Internal server error" })
    );
    accept_inserts(&app, "messages").await;
    // The barrier: sent after the refusal was answered, so after anything it sent on.
    assert_eq!(
        sender.call("chat:send", json!({ "text": "stored" })).await,
        json!({ "ok": true })
    );
    for client in [&bystander, &sender] {
        assert_eq!(client.next("chat:new").await["text"], "stored");
        assert!(client.take_all("chat:new").await.is_empty());
    }
    assert_eq!(
        app.db.sql("SELECT body FROM messages WHERE item_id IS NULL").await,
        ["stored"]
    );

    // An item's thread.
    refuse_inserts(&app, "messages").await;
    let message = json!({ "itemId": item_id, "text": "lost too" });
    assert_eq!(sender.call("thread:send", message).await, failed);
    assert_eq!(
        sender.next("error").await,
        json!({ "message": "Internal server error" })
    );
    accept_inserts(&app, "messages").await;
    let message = json!({ "itemId": item_id, "text": "stored too" });
    assert_eq!(sender.call("thread:send", message).await, json!({ "ok": true }));
    for client in [&bystander, &sender] {
        assert_eq!(client.next("thread:new").await["msg"]["text"], "stored too");
        assert!(client.take_all("thread:new").await.is_empty());
    }
    assert_eq!(
        app.db.sql("SELECT body FROM messages WHERE item_id IS NOT NULL").await,
        ["stored too"]
    );
}

#[tokio::test]
async fn http_operations_emit_no_events() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let item = admin.create_item(item_body("Watched umbrella")).await;
    let item_id = item["id"].as_i64().unwrap();
    let talker = Sio::connect(&app, Transport::Websocket).await;
    let mut watchers = Vec::new();
    for (_, transport) in TRANSPORTS {
        let watcher = Sio::connect(&app, transport).await;
        watcher.emit("chat:join", json!({ "nick": "W" })).await;
        watcher.next("chat:history").await;
        assert_eq!(
            watcher.call("thread:join", json!({ "itemId": item_id })).await,
            json!({ "ok": true })
        );
        watcher.next("thread:history").await;
        watchers.push(watcher);
    }

    // Every HTTP operation, each answered before the next.
    app.add_user("alice", false).await;
    let alice = app.client();
    assert_eq!(
        alice.login("alice", &password_of("alice")).await.0,
        reqwest::StatusCode::OK
    );
    let other = alice.create_item(item_body("Another umbrella")).await;
    let path = item_path(&item);
    for change in [json!({ "status": "approved" }), json!({ "storagePlace": "Shelf C" })] {
        assert_eq!(admin.patch(&path, change).await.0, reqwest::StatusCode::OK);
    }
    assert_eq!(admin.delete(&item_path(&other)).await.0, reqwest::StatusCode::OK);
    assert_eq!(admin.delete(&path).await.0, reqwest::StatusCode::OK);
    assert_eq!(alice.post("/api/logout", json!({})).await.0, reqwest::StatusCode::OK);
    assert_eq!(admin.post("/api/logout", json!({})).await.0, reqwest::StatusCode::OK);

    // The barrier: a chat message sent after all of them is the first thing each watcher gets.
    assert_eq!(
        talker.call("chat:send", json!({ "text": "barrier" })).await,
        json!({ "ok": true })
    );
    for watcher in &watchers {
        assert_eq!(watcher.next("chat:new").await["text"], "barrier");
        assert_eq!(watcher.take_everything().await, []);
    }
}
