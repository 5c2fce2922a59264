//! Bad payloads, unknown items, flooding, foreign origins, many clients and slow ones.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{Message as WsMessage, client::IntoClientRequest};

use crate::{
    helpers::*,
    sio::{Sio, Transport},
};

#[tokio::test]
async fn bad_payloads_get_an_error_event_and_an_ack_and_change_nothing() {
    let app = spawn_app().await;
    let client = Sio::connect(&app, Transport::Websocket).await;
    let bystander = Sio::connect(&app, Transport::Websocket).await;
    let long_text = "x".repeat(2_001);
    let long_nick = "n".repeat(51);
    let cases: [(&str, Value); 12] = [
        ("chat:send", json!("just a string")),
        ("chat:send", json!([1, 2])),
        ("chat:send", json!({ "nick": "A" })),
        ("chat:send", json!({ "nick": "A", "text": "   " })),
        ("chat:send", json!({ "nick": "A", "text": 42 })),
        ("chat:send", json!({ "nick": "A", "text": long_text })),
        ("chat:send", json!({ "nick": long_nick, "text": "hi" })),
        ("thread:send", json!({ "itemId": "1", "text": "hi" })),
        ("thread:send", json!({ "itemId": 0, "text": "hi" })),
        ("thread:send", json!({ "itemId": -3, "text": "hi" })),
        ("thread:join", json!({ "itemId": 1.5 })),
        ("thread:leave", json!({})),
    ];
    for (event, payload) in cases {
        let ack = client.call(event, payload.clone()).await;
        assert_eq!(ack["ok"], false, "{event} {payload}: {ack}");
        let message = ack["error"].as_str().expect("error text");
        assert_eq!(
            client.next("error").await,
            json!({ "message": message }),
            "{event} {payload}"
        );
    }
    // Without an acknowledgement callback, the error event alone.
    client.emit("chat:send", json!({ "nick": "A" })).await;
    assert_eq!(client.next("error").await, json!({ "message": "text is required" }));

    // Nothing stored or broadcast, and the connection still works.
    assert_eq!(app.db.count("chat_messages").await, 0);
    assert_eq!(
        client.call("chat:send", json!({ "text": "fine" })).await,
        json!({ "ok": true })
    );
    let delivered = bystander.next("chat:new").await;
    assert_eq!(delivered["text"], "fine");
    assert!(
        bystander.take_all("error").await.is_empty(),
        "errors go to the sender only"
    );
    assert!(
        bystander.take_all("chat:new").await.is_empty(),
        "a bad payload was broadcast"
    );
}

#[tokio::test]
async fn unknown_items_are_refused_and_nothing_is_joined_or_stored() {
    let app = spawn_app().await;
    let client = Sio::connect(&app, Transport::Polling).await;
    for event in ["thread:join", "thread:send"] {
        let ack = client
            .call(event, json!({ "itemId": 999, "nick": "A", "text": "hello?" }))
            .await;
        assert_eq!(ack, json!({ "ok": false, "error": "Item not found" }));
        assert_eq!(client.next("error").await, json!({ "message": "Item not found" }));
    }
    assert!(client.take_all("thread:history").await.is_empty());
    assert_eq!(app.db.count("thread_messages").await, 0);
}

#[tokio::test]
async fn a_flooding_client_is_throttled_without_slowing_anyone_else() {
    let app = spawn_app().await;
    let flooder = Sio::connect(&app, Transport::Websocket).await;
    let calm = Sio::connect(&app, Transport::Websocket).await;
    let mut refused = 0;
    for n in 0..60 {
        let ack = flooder.call("chat:send", json!({ "text": format!("spam {n}") })).await;
        if ack == json!({ "ok": false, "error": "Too many messages, slow down" }) {
            refused += 1;
        }
    }
    assert!(refused >= 30, "only {refused} of 60 refused");
    assert_eq!(
        flooder.next("error").await,
        json!({ "message": "Too many messages, slow down" })
    );
    assert_eq!(app.db.count("chat_messages").await, 60 - refused);
    // Another client is not affected.
    assert_eq!(
        calm.call("chat:send", json!({ "text": "calm" })).await,
        json!({ "ok": true })
    );
}

#[tokio::test]
async fn foreign_origins_are_refused_and_own_or_listed_ones_accepted() {
    let db = TestDb::new().await;
    let app = TestApp::start_with(db, |c| c.allowed_origins = vec!["https://app.example.edu".into()]).await;
    let own = format!("http://{}", app.addr);
    for (origin, accepted) in [
        (Some("http://evil.example"), false),
        (Some("null"), false),
        (Some(own.as_str()), true),
        (Some("https://app.example.edu"), true),
        (None, true),
    ] {
        assert_eq!(
            polling_connect(&app, origin).await,
            accepted,
            "polling, origin {origin:?}"
        );
        assert_eq!(
            websocket_connect(&app, origin).await,
            accepted,
            "websocket, origin {origin:?}"
        );
    }

    // HTTP CORS answers for allowed origins only.
    let http = reqwest::Client::new();
    for (origin, allowed) in [("https://app.example.edu", true), ("http://evil.example", false)] {
        let response = http
            .request(reqwest::Method::OPTIONS, app.url("/api/items"))
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "content-type")
            .send()
            .await
            .unwrap();
        let acao = response
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(acao.as_deref(), allowed.then_some(origin), "{origin}");
    }
}

/// Drives the Engine.IO polling handshake and the Socket.IO CONNECT by hand; true when the
/// namespace accepted the connection.
async fn polling_connect(app: &TestApp, origin: Option<&str>) -> bool {
    let http = reqwest::Client::new();
    let with_origin = |request: reqwest::RequestBuilder| match origin {
        Some(o) => request.header("Origin", o),
        None => request,
    };
    let open = with_origin(http.get(app.url("/socket.io/?EIO=4&transport=polling")))
        .send()
        .await
        .unwrap();
    let open = open.text().await.unwrap();
    let handshake: Value = serde_json::from_str(open.strip_prefix('0').expect("open packet")).unwrap();
    let url = app.url(&format!(
        "/socket.io/?EIO=4&transport=polling&sid={}",
        handshake["sid"].as_str().unwrap()
    ));
    with_origin(http.post(&url)).body("40").send().await.unwrap();
    // A polling payload holds packets separated by U+001E; pings may come first.
    for _ in 0..5 {
        let payload = with_origin(http.get(&url)).send().await.unwrap().text().await.unwrap();
        if let Some(reply) = payload.split('\u{1e}').find(|p| p.starts_with('4')) {
            return connect_reply_accepted(reply);
        }
    }
    panic!("no reply to CONNECT");
}

/// The same over WebSocket, where CORS does not apply and only the handshake check stands.
async fn websocket_connect(app: &TestApp, origin: Option<&str>) -> bool {
    let mut request = format!("ws://{}/socket.io/?EIO=4&transport=websocket", app.addr)
        .into_client_request()
        .unwrap();
    if let Some(o) = origin {
        request.headers_mut().insert("Origin", o.parse().unwrap());
    }
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    ws.next().await.unwrap().unwrap(); // the open packet
    ws.send(WsMessage::text("40")).await.unwrap();
    loop {
        let frame = ws
            .next()
            .await
            .expect("a reply to CONNECT")
            .unwrap()
            .into_text()
            .unwrap();
        if frame.starts_with('4') {
            return connect_reply_accepted(&frame);
        }
    }
}

fn connect_reply_accepted(reply: &str) -> bool {
    match reply.get(..2) {
        Some("40") => true,
        Some("44") => {
            assert!(reply.contains("Origin not allowed"), "{reply}");
            false
        }
        _ => panic!("unexpected reply {reply}"),
    }
}

#[tokio::test]
async fn chat_fans_out_to_a_hundred_clients() {
    let app = spawn_app().await;
    let mut clients = Vec::new();
    for n in 0..100 {
        let transport = if n % 4 == 0 {
            Transport::Polling
        } else {
            Transport::Websocket
        };
        clients.push(Sio::connect(&app, transport).await);
    }
    clients[7]
        .call("chat:send", json!({ "nick": "Host", "text": "to everyone" }))
        .await;
    for client in &clients {
        assert_eq!(client.next("chat:new").await["text"], "to everyone");
    }
    for client in clients {
        client.disconnect().await;
    }
}

#[tokio::test]
async fn a_client_that_stops_reading_does_not_stall_the_others() {
    let app = spawn_app().await;
    // A WebSocket client that completes the handshake and then never reads again.
    let url = format!("ws://{}/socket.io/?EIO=4&transport=websocket", app.addr);
    let (mut stalled, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    stalled.next().await.unwrap().unwrap(); // the open packet
    stalled.send(WsMessage::text("40")).await.unwrap();
    stalled.next().await.unwrap().unwrap(); // the connect acknowledgement

    let receiver = Sio::connect(&app, Transport::Websocket).await;
    // Enough senders to stay under each one's flood limit; far more than a socket buffers.
    let senders: Vec<Sio> =
        futures_util::future::join_all((0..15).map(|_| Sio::connect(&app, Transport::Websocket))).await;
    let mut sent = 0;
    for (s, sender) in senders.iter().enumerate() {
        for n in 0..20 {
            let ack = sender.call("chat:send", json!({ "text": format!("{s}-{n}") })).await;
            assert_eq!(ack, json!({ "ok": true }));
            sent += 1;
        }
    }
    for _ in 0..sent {
        receiver.next("chat:new").await;
    }
    assert_eq!(app.db.count("chat_messages").await, sent);
    drop(stalled);
}

#[tokio::test]
async fn oversized_packets_close_only_that_connection() {
    let app = spawn_app().await;
    let url = format!("ws://{}/socket.io/?EIO=4&transport=websocket", app.addr);
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    ws.next().await.unwrap().unwrap();
    ws.send(WsMessage::text("40")).await.unwrap();
    ws.next().await.unwrap().unwrap();
    let huge = format!(r#"42["chat:send",{{"text":"{}"}}]"#, "x".repeat(200_000));
    let _ = ws.send(WsMessage::text(huge)).await;
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match ws.next().await {
                None | Some(Err(_)) | Some(Ok(WsMessage::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "an oversized packet did not close the connection");
    assert_eq!(app.db.count("chat_messages").await, 0);
    let healthy = Sio::connect(&app, Transport::Websocket).await;
    assert_eq!(
        healthy.call("chat:send", json!({ "text": "still up" })).await,
        json!({ "ok": true })
    );
}
