//! A Socket.IO client spoken by hand over one WebSocket on a TCP connection of the test's own,
//! for what rust_socketio cannot do: stop reading, send without an event loop, connect from a
//! chosen source address with small buffers.

use std::{
    collections::BTreeMap,
    net::{IpAddr, SocketAddr},
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::{WebSocketStream, tungstenite::Message as WsMessage};

use crate::helpers::TestApp;

/// A Socket.IO client spoken by hand over one WebSocket on a TCP connection of the test's
/// own, for what rust_socketio cannot do: stop reading, or send without an event loop.
pub struct RawSio {
    ws: WebSocketStream<TcpStream>,
    /// The Engine.IO session id, by which the server knows this connection.
    pub sid: String,
    /// How often the server pings (from the open packet).
    pub ping_interval: Duration,
}

const RAW_WAIT: Duration = Duration::from_secs(10);

impl RawSio {
    pub async fn connect(app: &TestApp) -> Self {
        Self::connect_on(app.addr, TcpSocket::new_v4().unwrap(), None).await
    }

    /// Connects to the server at `server` and sends `packet` the moment the server
    /// acknowledges the connection, before anything else is read: as a client with events
    /// waiting to go does.
    pub async fn connect_sending(server: SocketAddr, packet: String) -> Self {
        Self::connect_on(server, TcpSocket::new_v4().unwrap(), Some(packet)).await
    }

    /// Connects with small buffers on the client's side: a receive buffer of 4 KiB (the
    /// kernel doubles it to 8 KiB) and segments of at most 536 bytes. The segment size matters
    /// as much: the server's kernel sizes its send buffer by the segment size, and over
    /// loopback (64 KiB segments) that buffer grows to 4 MiB, enough to swallow the whole
    /// flood below (measured: the client that stopped reading still got every message); with
    /// 536-byte segments it stays near 170 KiB.
    pub async fn connect_small(app: &TestApp) -> Self {
        Self::connect_small_from(app.addr, None).await
    }

    /// The same to a server at `server`, from the source address `from` (127.0.0.x) if given.
    pub async fn connect_small_from(server: SocketAddr, from: Option<IpAddr>) -> Self {
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4_096).unwrap();
        socket2::SockRef::from(&socket).set_tcp_mss(536).unwrap();
        if let Some(from) = from {
            socket.bind(SocketAddr::new(from, 0)).unwrap();
        }
        Self::connect_on(server, socket, None).await
    }

    /// The WebSocket handshake, the Engine.IO open packet, the Socket.IO CONNECT, and the
    /// answer to the server's first ping (sent as soon as the session opens); or, with
    /// `first`, that packet as soon as the CONNECT is answered.
    async fn connect_on(server: SocketAddr, socket: TcpSocket, mut first: Option<String>) -> Self {
        let stream = socket.connect(server).await.unwrap();
        let url = format!("ws://{server}/socket.io/?EIO=4&transport=websocket");
        let (ws, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
        let mut raw = Self {
            ws,
            sid: String::new(),
            ping_interval: Duration::ZERO,
        };
        let open = raw.next_packet().await.expect("the open packet");
        let open: Value = serde_json::from_str(open.strip_prefix('0').expect("an open packet")).unwrap();
        raw.sid = open["sid"].as_str().unwrap().to_owned();
        raw.ping_interval = Duration::from_millis(open["pingInterval"].as_u64().unwrap());
        raw.send("40".into()).await;
        // With a packet to send, the ping may come after its answer: `acks` answers it.
        let (mut connected, mut pinged) = (false, first.is_some());
        while !(connected && pinged) {
            let packet = raw.next_packet().await.expect("the connection stays open");
            if packet == "2" {
                raw.send("3".into()).await;
                pinged = true;
            } else {
                assert!(packet.starts_with("40"), "expected CONNECT or ping, got {packet}");
                connected = true;
                if let Some(packet) = first.take() {
                    raw.send(packet).await;
                }
            }
        }
        raw
    }

    pub async fn send(&mut self, packet: String) {
        self.ws.send(WsMessage::text(packet)).await.unwrap();
    }

    /// Sends a packet without reading anything; false once the connection is closed.
    pub async fn try_send(&mut self, packet: String) -> bool {
        tokio::time::timeout(RAW_WAIT, self.ws.send(WsMessage::text(packet)))
            .await
            .is_ok_and(|sent| sent.is_ok())
    }

    /// The next Engine.IO packet, or `None` once the connection is closed.
    pub async fn next_packet(&mut self) -> Option<String> {
        self.next_packet_within(RAW_WAIT)
            .await
            .unwrap_or_else(|_| panic!("no packet within {RAW_WAIT:?}"))
    }

    pub async fn next_packet_within(&mut self, wait: Duration) -> Result<Option<String>, tokio::time::error::Elapsed> {
        tokio::time::timeout(wait, async {
            loop {
                match self.ws.next().await {
                    None | Some(Err(_)) | Some(Ok(WsMessage::Close(_))) => return None,
                    Some(Ok(WsMessage::Text(text))) => return Some(text.to_string()),
                    Some(Ok(_)) => {} // WebSocket-level pings and pongs
                }
            }
        })
        .await
    }

    /// Sends `event` with an acknowledgement id, without waiting for anything.
    pub async fn emit(&mut self, ack_id: u32, event: &str, data: Value) {
        self.send(format!("42{ack_id}{}", json!([event, data]))).await;
    }

    /// Reads until `count` acknowledgements have come, answering pings; returns them by id,
    /// and the events that came meanwhile as `(name, data)`.
    pub async fn acks(&mut self, count: usize) -> (BTreeMap<u32, Value>, Vec<(String, Value)>) {
        let (mut acks, mut events) = (BTreeMap::new(), Vec::new());
        while acks.len() < count {
            let packet = self.next_packet().await.expect("the connection stays open");
            if packet == "2" {
                self.send("3".into()).await;
            } else if let Some(ack) = packet.strip_prefix("43") {
                let at = ack.find('[').expect("an ack's arguments");
                let args: Value = serde_json::from_str(&ack[at..]).unwrap();
                let previous = acks.insert(ack[..at].parse().unwrap(), args[0].clone());
                assert!(previous.is_none(), "acknowledged twice: {packet}");
            } else if let Some(event) = packet.strip_prefix("42") {
                let args: Value = serde_json::from_str(event).unwrap();
                events.push((args[0].as_str().unwrap().to_owned(), args[1].clone()));
            } else {
                panic!("unexpected packet {packet}");
            }
        }
        (acks, events)
    }

    /// Sends `chat:send` and returns its acknowledgement.
    pub async fn chat_send(&mut self, ack_id: u32, text: &str) -> Value {
        self.emit(ack_id, "chat:send", json!({ "text": text })).await;
        self.acks(1).await.0.remove(&ack_id).expect("the ack of that message")
    }
}
