//! Who said it: sockets that ask get each message's id and its sender as the server knows
//! the sender; nobody takes a staff member's name; staff delete messages.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{
    helpers::*,
    sio::{Sio, Transport},
};

/// The keys of a JSON object, sorted.
fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

/// The next `chat:new` on `socket` whose text is `text`.
async fn chat_message(socket: &Sio, text: &str) -> Value {
    loop {
        let message = socket.next("chat:new").await;
        if message["text"] == text {
            return message;
        }
    }
}

#[tokio::test]
async fn sockets_that_ask_get_message_ids_and_senders_as_the_server_knows_them() {
    let app = spawn_app().await;
    app.add_user("office", true).await;
    app.add_user("alice", false).await;
    let staff = Sio::connect_asking_ids(
        &app.url("/"),
        Transport::Websocket,
        &[("Cookie", &session_cookie(&app, "office").await)],
    )
    .await;
    let alice = Sio::connect_asking_ids(
        &app.url("/"),
        Transport::Polling,
        &[("Cookie", &session_cookie(&app, "alice").await)],
    )
    .await;
    let plain = Sio::connect(&app, Transport::Websocket).await;
    let by_query = Sio::connect_to(&app.url("/?fields=id,user"), Transport::Polling, &[]).await;
    let visitor = Sio::connect_asking_ids(&app.url("/"), Transport::Websocket, &[]).await;

    // Staff may use any nick; the sender is still who the session says.
    let ack = staff
        .call(
            "chat:send",
            json!({ "nick": "Front Desk", "text": "Lost keys are at the desk" }),
        )
        .await;
    assert_eq!(ack, json!({ "ok": true }));
    let contract = chat_message(&plain, "Lost keys are at the desk").await;
    assert_eq!(
        keys(&contract),
        ["nick", "text", "ts"],
        "a socket that did not ask sees the contract"
    );
    for socket in [&alice, &by_query, &visitor] {
        let message = chat_message(socket, "Lost keys are at the desk").await;
        assert_eq!(keys(&message), ["id", "nick", "text", "ts", "user"]);
        assert!(message["id"].as_i64().unwrap() > 0);
        assert_eq!(
            message["user"],
            json!({ "id": "office", "name": "Name of office", "isAdmin": true })
        );
    }
    // A visitor's message carries no account, whatever nick it claims.
    visitor
        .call("chat:send", json!({ "nick": "alice", "text": "I am alice" }))
        .await;
    assert_eq!(chat_message(&alice, "I am alice").await["user"], Value::Null);

    // Nobody else takes a staff member's name, in any case or spacing; its owner may.
    for (socket, nick) in [(&visitor, "name of OFFICE"), (&alice, " Name  of office ")] {
        let ack = socket
            .call("chat:send", json!({ "nick": nick, "text": "Send me your PIN" }))
            .await;
        assert_eq!(
            ack,
            json!({ "ok": false, "error": "That name belongs to staff: choose another" })
        );
        assert_eq!(
            socket.next("error").await,
            json!({ "message": "That name belongs to staff: choose another" })
        );
        let ack = socket.call("thread:join", json!({ "itemId": 1, "nick": nick })).await;
        assert_eq!(ack["ok"], false);
    }
    let ack = staff
        .call("chat:send", json!({ "nick": "Name of Office", "text": "It is me" }))
        .await;
    assert_eq!(ack, json!({ "ok": true }));
    chat_message(&plain, "It is me").await;
    plain.emit("chat:join", json!({ "nick": "reader" })).await;
    let history = plain.next("chat:history").await;
    assert!(
        history
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["text"] != "Send me your PIN"),
        "a refused message is not kept: {history}"
    );
}

#[tokio::test]
async fn staff_delete_chat_and_thread_messages_and_sockets_that_asked_are_told() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Black umbrella")).await;
    let watcher = Sio::connect_asking_ids(&app.url("/"), Transport::Websocket, &[]).await;
    let plain = Sio::connect(&app, Transport::Websocket).await;

    watcher
        .call("chat:send", json!({ "nick": "troll", "text": "spam spam" }))
        .await;
    let spam = chat_message(&watcher, "spam spam").await;
    watcher
        .call("thread:join", json!({ "itemId": item["id"], "nick": "troll" }))
        .await;
    watcher.next("thread:history").await;
    watcher
        .call(
            "thread:send",
            json!({ "itemId": item["id"], "nick": "troll", "text": "more spam" }),
        )
        .await;
    let in_thread = watcher.next("thread:new").await["msg"].clone();

    let chat_path = format!("/api/messages/{}", spam["id"]);
    assert_error(
        &alice.delete(&chat_path).await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );
    assert_error(
        &app.client().delete(&chat_path).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_eq!(admin.delete(&chat_path).await, (StatusCode::OK, json!({ "ok": true })));
    assert_eq!(
        watcher.next("message:deleted").await,
        json!({ "id": spam["id"], "room": "chat" })
    );
    assert_error(
        &admin.delete(&chat_path).await,
        StatusCode::NOT_FOUND,
        "Message not found",
    );
    for bad in ["x", "0", "-1", "99999999999999999999"] {
        assert_error(
            &admin.delete(&format!("/api/messages/{bad}")).await,
            StatusCode::NOT_FOUND,
            "Message not found",
        );
    }

    let thread_path = format!("/api/messages/{}", in_thread["id"]);
    assert_eq!(admin.delete(&thread_path).await.0, StatusCode::OK);
    assert_eq!(
        watcher.next("message:deleted").await,
        json!({ "id": in_thread["id"], "room": item["id"] })
    );

    // Gone from the histories; a socket that did not ask for ids was not told.
    plain.emit("chat:join", json!({ "nick": "reader" })).await;
    let history = plain.next("chat:history").await;
    assert!(
        history.as_array().unwrap().iter().all(|m| m["text"] != "spam spam"),
        "{history}"
    );
    plain
        .call("thread:join", json!({ "itemId": item["id"], "nick": "reader" }))
        .await;
    assert_eq!(plain.next("thread:history").await["msgs"], json!([]));
    assert!(plain.take_all("message:deleted").await.is_empty());
}

#[tokio::test]
async fn no_socket_but_staff_speaks_under_a_look_alike_of_a_staff_name() {
    let app = spawn_app().await;
    create_account(
        &app.store,
        &app.passwords,
        "desk",
        "Front Desk",
        true,
        &password_of("desk"),
    )
    .await;
    // An account's own name gives it no right to a staff member's.
    create_account(
        &app.store,
        &app.passwords,
        "mallory",
        "Front Desk",
        false,
        &password_of("mallory"),
    )
    .await;
    let staff_cookie = session_cookie(&app, "desk").await;
    let mallory_cookie = session_cookie(&app, "mallory").await;
    let staff = Sio::connect_with(&app, Transport::Websocket, &[("Cookie", &staff_cookie)]).await;
    let mallory = Sio::connect_with(&app, Transport::Websocket, &[("Cookie", &mallory_cookie)]).await;
    let visitor = Sio::connect(&app, Transport::Polling).await;
    let item = an_item(&app).await;

    let staff_name = "That name belongs to staff: choose another";
    let overrides = "nick must not contain characters that override the text direction";
    for (socket, nick, error) in [
        (&mallory, "Front Desk", staff_name),
        (&mallory, "front-desk", staff_name),
        (&visitor, "Fr\u{043E}nt D\u{0435}sk", staff_name),
        (&visitor, "Fro\u{200B}nt Desk", staff_name),
        (&visitor, "Front De\u{0301}sk", staff_name),
        (&visitor, "Front\u{3164}Desk", staff_name),
        (&visitor, "FrontDesk", staff_name),
        // Shown as "Front Desk": the override reverses "kseD".
        (&visitor, "Front \u{202E}kseD", overrides),
    ] {
        for (event, payload) in [
            ("chat:send", json!({ "nick": nick, "text": "Send me your PIN" })),
            (
                "thread:send",
                json!({ "itemId": item, "nick": nick, "text": "Send me your PIN" }),
            ),
        ] {
            let ack = socket.call(event, payload).await;
            assert_eq!(ack, json!({ "ok": false, "error": error }), "{event} as {nick:?}");
            assert_eq!(socket.next("error").await, json!({ "message": error }));
        }
    }
    assert_eq!(count_messages(&app, "Send me your PIN").await, 0);

    for (event, payload) in [
        (
            "chat:send",
            json!({ "nick": "Front Desk", "text": "Keys are at the desk" }),
        ),
        (
            "thread:send",
            json!({ "itemId": item, "nick": "Front Desk", "text": "Keys are at the desk" }),
        ),
    ] {
        assert_eq!(staff.call(event, payload).await, json!({ "ok": true }), "{event}");
    }
    // A name that only resembles it is someone else's.
    let ack = visitor
        .call("chat:send", json!({ "nick": "Front Desks", "text": "Mine are lost" }))
        .await;
    assert_eq!(ack, json!({ "ok": true }));
    assert_eq!(count_messages(&app, "Keys are at the desk").await, 2);
}

/// An item of a new reporter's, for threads.
async fn an_item(app: &TestApp) -> i64 {
    let reporter = app.logged_in("reporter", false).await;
    reporter.create_item(item_body("Blue umbrella")).await["id"]
        .as_i64()
        .unwrap()
}

/// How many stored messages, chat or thread, have this text.
async fn count_messages(app: &TestApp, text: &str) -> usize {
    let query = format!("SELECT CAST(COUNT(*) AS TEXT) FROM messages WHERE body = '{text}'");
    app.db.sql(&query).await[0].parse().unwrap()
}
