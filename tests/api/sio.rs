//! A real Socket.IO client (rust_socketio) for the tests: every event it receives goes into
//! a buffer that tests read by name.

use std::{sync::Arc, time::Duration};

use futures_util::FutureExt;
use rust_socketio::{
    Event, Payload, TransportType,
    asynchronous::{Client, ClientBuilder},
};
use serde_json::{Value, json};
use tokio::sync::{Mutex, Notify, oneshot};

use crate::helpers::{TestApp, session_cookie};

/// How long an answer or an event may take. Generous: on CI's two cores, with another test's
/// server encoding beside it, an acknowledgement once took more than 10 s.
const WAIT: Duration = Duration::from_secs(30);

pub use rust_socketio::TransportType as Transport;

/// The transports every delivery test runs on: long-polling only, WebSocket only, and the
/// default (polling, then upgrade).
pub const TRANSPORTS: [(&str, TransportType); 3] = [
    ("polling", TransportType::Polling),
    ("websocket", TransportType::Websocket),
    ("polling+upgrade", TransportType::Any),
];

pub struct Sio {
    client: Client,
    inbox: Arc<Inbox>,
}

#[derive(Default)]
struct Inbox {
    events: Mutex<Vec<(String, Value)>>,
    arrived: Notify,
}

impl Inbox {
    async fn push(&self, name: String, payload: Payload) {
        let value = match payload {
            #[allow(deprecated)]
            Payload::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
            Payload::Text(mut values) if values.len() == 1 => values.remove(0),
            Payload::Text(values) => Value::Array(values),
            Payload::Binary(_) => Value::Null,
        };
        self.events.lock().await.push((name, value));
        self.arrived.notify_waiters();
    }
}

impl Sio {
    pub async fn connect(app: &TestApp, transport: TransportType) -> Self {
        Self::connect_with(app, transport, &[]).await
    }

    /// Connects with extra handshake headers (`Cookie`, `Origin`).
    pub async fn connect_with(app: &TestApp, transport: TransportType, headers: &[(&str, &str)]) -> Self {
        Self::connect_to(&app.url("/"), transport, headers).await
    }

    /// Connects to the server at `url`.
    pub async fn connect_to(url: &str, transport: TransportType, headers: &[(&str, &str)]) -> Self {
        Self::connect_with_auth(url, transport, headers, None).await
    }

    /// Connects asking for each message's `id` and `user` (`auth: { fields: ["id", "user"] }`).
    pub async fn connect_asking_ids(url: &str, transport: TransportType, headers: &[(&str, &str)]) -> Self {
        let auth = serde_json::json!({ "fields": ["id", "user"] });
        Self::connect_with_auth(url, transport, headers, Some(auth)).await
    }

    async fn connect_with_auth(
        url: &str,
        transport: TransportType,
        headers: &[(&str, &str)],
        auth: Option<Value>,
    ) -> Self {
        let inbox = Arc::new(Inbox::default());
        let (on_any, on_error, on_connect) = (inbox.clone(), inbox.clone(), inbox.clone());
        let mut builder = ClientBuilder::new(url)
            .transport_type(transport)
            .reconnect(false)
            .on_any(move |event, payload, _| {
                let inbox = on_any.clone();
                async move { inbox.push(String::from(event), payload).await }.boxed()
            })
            .on(Event::Connect, move |payload, _| {
                let inbox = on_connect.clone();
                async move { inbox.push("connect".into(), payload).await }.boxed()
            })
            // The connection closed, by either side: recorded as `disconnect`.
            .on(Event::Close, {
                let inbox = inbox.clone();
                move |payload, _| {
                    let inbox = inbox.clone();
                    async move { inbox.push("disconnect".into(), payload).await }.boxed()
                }
            })
            // rust_socketio gives the `error` event its own slot; server events come as Text.
            .on(Event::Error, move |payload, _| {
                let inbox = on_error.clone();
                async move { inbox.push("error".into(), payload).await }.boxed()
            });
        for (name, value) in headers {
            builder = builder.opening_header(*name, *value);
        }
        if let Some(auth) = auth {
            builder = builder.auth(auth);
        }
        let client = builder.connect().await.expect("socket connects");
        let sio = Self { client, inbox };
        // Like the official clients, send nothing before the server acknowledged the connection.
        sio.next("connect").await;
        sio
    }

    /// Sends a chat message of its own and returns the `user` the server put on it (the
    /// socket asked for ids): whom the server takes this socket to speak for now.
    pub async fn speaks_for(&self) -> Value {
        let text = format!("who am I {}", rand::random::<u64>());
        let ack = self.call("chat:send", serde_json::json!({ "text": text })).await;
        assert_eq!(ack, serde_json::json!({ "ok": true }));
        loop {
            let message = self.next("chat:new").await;
            if message["text"] == text {
                return message["user"].clone();
            }
        }
    }

    pub async fn emit(&self, event: &str, data: Value) {
        self.client.emit(event, data).await.expect("emit");
    }

    /// Emits with an acknowledgement callback and returns what the server acknowledged.
    pub async fn call(&self, event: &str, data: Value) -> Value {
        let (tx, rx) = oneshot::channel();
        let tx = Arc::new(std::sync::Mutex::new(Some(tx)));
        self.client
            .emit_with_ack(event, data, WAIT, move |payload: Payload, _| {
                let tx = tx.clone();
                async move {
                    // The ack's arguments arrive as one array: `[{ ok, error? }]`.
                    if let (Some(tx), Payload::Text(mut values)) = (tx.lock().unwrap().take(), payload) {
                        let value = match values.swap_remove(0) {
                            Value::Array(mut args) if args.len() == 1 => args.swap_remove(0),
                            other => other,
                        };
                        let _ = tx.send(value);
                    }
                }
                .boxed()
            })
            .await
            .expect("emit with ack");
        tokio::time::timeout(WAIT, rx)
            .await
            .expect("acknowledged in time")
            .expect("ack payload")
    }

    /// Waits for the next event of that name and takes it from the buffer.
    pub async fn next(&self, name: &str) -> Value {
        tokio::time::timeout(WAIT, async {
            loop {
                let arrived = self.inbox.arrived.notified();
                {
                    let mut events = self.inbox.events.lock().await;
                    if let Some(i) = events.iter().position(|(n, _)| n == name) {
                        return events.remove(i).1;
                    }
                }
                arrived.await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("no '{name}' event within {WAIT:?}"))
    }

    /// The events of that name received so far, taken from the buffer.
    pub async fn take_all(&self, name: &str) -> Vec<Value> {
        let mut events = self.inbox.events.lock().await;
        let (taken, kept) = std::mem::take(&mut *events).into_iter().partition(|(n, _)| n == name);
        *events = kept;
        taken.into_iter().map(|(_, v)| v).collect()
    }

    /// Every event received so far and not yet taken, as `(name, payload)`, oldest first.
    pub async fn take_everything(&self) -> Vec<(String, Value)> {
        std::mem::take(&mut *self.inbox.events.lock().await)
    }

    pub async fn disconnect(self) {
        let _ = self.client.disconnect().await;
    }
}

/// Writes `text` as `nick` in the chat (`item` `None`) or in item `item`'s thread, logged in
/// as account `id` (`None`: not logged in), on a connection of its own; fails unless it is
/// acknowledged.
pub async fn write_message(app: &TestApp, id: Option<&str>, item: Option<i64>, nick: &str, text: &str) {
    let cookie = match id {
        Some(id) => session_cookie(app, id).await,
        None => String::new(),
    };
    let headers: Vec<(&str, &str)> = id.map(|_| ("Cookie", cookie.as_str())).into_iter().collect();
    let socket = Sio::connect_with(app, Transport::Websocket, &headers).await;
    let ack = match item {
        None => socket.call("chat:send", json!({ "nick": nick, "text": text })).await,
        Some(item) => {
            socket
                .call("thread:send", json!({ "itemId": item, "nick": nick, "text": text }))
                .await
        }
    };
    assert_eq!(ack, json!({ "ok": true }));
    socket.disconnect().await;
}
