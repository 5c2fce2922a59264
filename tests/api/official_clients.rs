//! The official JavaScript client (default transports: long-polling, then the upgrade) and
//! python-socketio (each transport) through every event. The drivers in tests/clients
//! print what they saw; the assertions are here. `scripts/test` installs both clients.
//! The transport a driver reports is only what its client believes: each test also puts a
//! relay in front of the server that records the HTTP requests really sent.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream, tcp::OwnedReadHalf, tcp::OwnedWriteHalf},
    task::JoinHandle,
};

use crate::helpers::*;

fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

fn installed(path: PathBuf) -> PathBuf {
    assert!(
        path.exists(),
        "{} is missing: run scripts/test, which installs the test clients",
        path.display()
    );
    path
}

/// A server with an item to talk about and a full chat history of the longest messages,
/// so the history is far larger than one polling packet.
async fn seeded_app() -> (TestApp, i64) {
    let app = spawn_app().await;
    let reporter = app.logged_in("reporter", false).await;
    let (_, item) = reporter.post("/api/items", item_body("Red bicycle")).await;
    let long = "y".repeat(2_000);
    for n in 0..200 {
        app.store.insert_message(None, "Seed", &long, None, n).await.unwrap();
    }
    (app, item["id"].as_i64().unwrap())
}

async fn run_driver(program: &Path, args: &[String]) -> Value {
    let output = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::process::Command::new(program)
            .args(args)
            .current_dir(clients_dir())
            .output(),
    )
    .await
    .expect("client finished within 60 s")
    .expect("client started");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "client failed:\n{stdout}\n{stderr}");
    serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("client printed JSON")
}

fn assert_saw_every_event(seen: &Value, item_id: i64) {
    let history = seen["chatHistory"].as_array().expect("chat:history is an array");
    assert_eq!(history.len(), 200);
    assert_eq!(history[199]["text"].as_str().map(str::len), Some(2_000));

    let ok = json!({ "ok": true });
    assert_eq!(seen["chatSendAck"], ok);
    let chat_new = &seen["chatNew"];
    assert_eq!(
        chat_new[0], chat_new[1],
        "sender and other client got the same chat:new"
    );
    assert_eq!(
        (chat_new[0]["nick"].as_str(), chat_new[0]["text"].as_str()),
        (Some("Ann"), Some("hello from the official client"))
    );
    assert!(
        chat_new[0]["ts"]
            .as_str()
            .is_some_and(|ts| ts.len() == 24 && ts.ends_with('Z'))
    );

    assert_eq!(seen["threadJoinAck"], ok);
    assert_eq!(seen["threadHistory"], json!({ "itemId": item_id, "msgs": [] }));
    assert_eq!(seen["threadSendAck"], ok);
    let thread_new = &seen["threadNew"];
    assert_eq!(thread_new[0], thread_new[1]);
    assert_eq!(thread_new[0]["itemId"], item_id);
    assert_eq!(thread_new[0]["msg"]["text"], "is this mine?");

    assert_eq!(seen["badAck"], json!({ "ok": false, "error": "text is required" }));
    assert_eq!(seen["badError"], json!({ "message": "text is required" }));
    assert_eq!(
        seen["unknownItemAck"],
        json!({ "ok": false, "error": "Item not found" })
    );
    assert_eq!(seen["threadLeaveAck"], ok);
}

#[tokio::test]
async fn the_official_javascript_client_with_default_transports() {
    installed(clients_dir().join("node_modules/socket.io-client"));
    let (app, item_id) = seeded_app().await;
    let relay = HttpRecorder::start(app.addr).await;
    let seen = run_driver(
        Path::new("node"),
        &["js_client.mjs".into(), relay.url(), item_id.to_string()],
    )
    .await;
    assert_saw_every_event(&seen, item_id);
    assert_eq!(
        (seen["firstTransport"].as_str(), seen["finalTransport"].as_str()),
        (Some("polling"), Some("websocket"))
    );

    // What the server was really asked: both clients opened with a long-polling handshake,
    // polled, and upgraded that same session to WebSocket. (A client polls and probes the
    // WebSocket at once, so the two may reach the server in either order.)
    let requests = relay.requests();
    let handshakes: Vec<&Request> = requests
        .iter()
        .filter(|r| r.is_polling() && r.sid().is_none())
        .collect();
    let upgrades: Vec<&Request> = requests.iter().filter(|r| r.upgrade).collect();
    assert_eq!((handshakes.len(), upgrades.len()), (2, 2), "{requests:#?}");
    assert!(requests[0].is_polling() && requests[0].sid().is_none(), "{requests:#?}");
    for (n, upgrade) in requests.iter().enumerate().filter(|(_, r)| r.upgrade) {
        assert_eq!(upgrade.transport(), Some("websocket"), "{upgrade:?}");
        let sid = upgrade.sid().expect("the upgrade names the polling session");
        let opened = requests[..n]
            .iter()
            .filter(|r| r.is_polling() && r.sid().is_none())
            .count();
        let upgraded = requests[..n].iter().filter(|r| r.upgrade).count();
        assert!(opened > upgraded, "an upgrade before its handshake: {requests:#?}");
        assert!(
            requests.iter().any(|r| r.is_polling() && r.sid() == Some(sid)),
            "the session {sid} was never polled: {requests:#?}"
        );
    }
}

#[tokio::test]
async fn python_socketio_on_each_transport() {
    let python = std::env::var_os("LOSTFOUND_TEST_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| installed(clients_dir().join(".venv/bin/python")));
    for transport in ["polling", "websocket"] {
        let (app, item_id) = seeded_app().await;
        let relay = HttpRecorder::start(app.addr).await;
        let args = [
            "python_client.py".into(),
            relay.url(),
            item_id.to_string(),
            transport.into(),
        ];
        let seen = run_driver(&python, &args).await;
        assert_saw_every_event(&seen, item_id);
        assert_eq!(
            (seen["firstTransport"].as_str(), seen["finalTransport"].as_str()),
            (Some(transport), Some(transport))
        );

        // What the server was really asked.
        let requests = relay.requests();
        let polls = requests.iter().filter(|r| r.is_polling()).count();
        let upgrades = requests.iter().filter(|r| r.upgrade).count();
        match transport {
            // Everything over long-polling: requests for packets (GET) and with them (POST).
            "polling" => {
                assert_eq!((requests.len(), upgrades), (polls, 0), "{requests:#?}");
                for method in ["GET", "POST"] {
                    assert!(requests.iter().any(|r| r.method == method), "{requests:#?}");
                }
            }
            // One WebSocket per client from the start, and not one polling request.
            _ => {
                assert_eq!((polls, upgrades, requests.len()), (0, 2, 2), "{requests:#?}");
                assert!(
                    requests
                        .iter()
                        .all(|r| r.transport() == Some("websocket") && r.sid().is_none()),
                    "{requests:#?}"
                );
            }
        }
    }
}

/// One HTTP request as it passed through the [`HttpRecorder`].
#[derive(Debug)]
struct Request {
    method: String,
    target: String,
    /// Whether it asked to switch to WebSocket (`Upgrade: websocket`).
    upgrade: bool,
}

impl Request {
    fn query(&self, key: &str) -> Option<&str> {
        let (_, query) = self.target.split_once('?')?;
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
    }

    fn transport(&self) -> Option<&str> {
        self.query("transport")
    }

    fn sid(&self) -> Option<&str> {
        self.query("sid")
    }

    fn is_polling(&self) -> bool {
        self.target.starts_with("/socket.io/") && self.transport() == Some("polling") && !self.upgrade
    }
}

/// A TCP relay in front of the server that records every HTTP request passing through it, in
/// the order they arrive, so a test sees which transport a client really used. After an
/// upgrade the connection carries WebSocket frames, relayed as they are.
struct HttpRecorder {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<Request>>>,
    accepting: JoinHandle<()>,
}

impl HttpRecorder {
    async fn start(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let requests: Arc<Mutex<Vec<Request>>> = Arc::default();
        let accepting = tokio::spawn({
            let requests = requests.clone();
            async move {
                while let Ok((inbound, _)) = listener.accept().await {
                    let outbound = TcpStream::connect(target).await.unwrap();
                    let (from_client, to_client) = inbound.into_split();
                    let (from_server, to_server) = outbound.into_split();
                    tokio::spawn(relay_bytes(from_server, to_client));
                    tokio::spawn(relay_requests(from_client, to_server, requests.clone()));
                }
            }
        });
        Self {
            addr,
            requests,
            accepting,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The requests so far, oldest first.
    fn requests(&self) -> Vec<Request> {
        std::mem::take(&mut *self.requests.lock().unwrap())
    }
}

impl Drop for HttpRecorder {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

async fn relay_bytes(mut from: OwnedReadHalf, mut to: OwnedWriteHalf) {
    let _ = tokio::io::copy(&mut from, &mut to).await;
    let _ = to.shutdown().await;
}

/// Relays HTTP/1.1 requests one by one (head, then a `Content-Length` body), recording each
/// head; once a request asks for an upgrade, relays the rest as it comes.
async fn relay_requests(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, requests: Arc<Mutex<Vec<Request>>>) {
    let mut buf = Vec::new();
    loop {
        let head_end = loop {
            if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            let mut chunk = [0; 8192];
            match from.read(&mut chunk).await {
                Ok(0) | Err(_) => {
                    let _ = to.shutdown().await;
                    return;
                }
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
        let mut lines = head.split("\r\n");
        let mut request_line = lines.next().unwrap().split(' ');
        let (method, target) = (request_line.next().unwrap(), request_line.next().unwrap());
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        let upgrade = header("upgrade").is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
        assert!(
            header("transfer-encoding").is_none(),
            "this relay reads Content-Length bodies only: {head}"
        );
        let body_len: usize = header("content-length").map_or(0, |v| v.parse().unwrap());
        requests.lock().unwrap().push(Request {
            method: method.to_owned(),
            target: target.to_owned(),
            upgrade,
        });
        if upgrade {
            if to.write_all(&buf).await.is_ok() {
                relay_bytes(from, to).await;
            }
            return;
        }
        // The head and its body, once all of it is here.
        while buf.len() < head_end + body_len {
            let mut chunk = [0; 8192];
            match from.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        let rest = buf.split_off(head_end + body_len);
        if to.write_all(&buf).await.is_err() {
            return;
        }
        buf = rest;
    }
}
