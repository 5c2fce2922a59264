//! Hostile clients against the real binary, each attack with its bound asserted: memory
//! sampled from /proc, connections the server closes, deadlines met, other clients served.
//! Clients that need addresses of their own bind to 127.0.x.y; loops are bounded.

use std::{
    net::{IpAddr, SocketAddr},
    time::Duration,
};

use lostfound::{
    domain::NewItem,
    store::{Create, Store},
};
use reqwest::StatusCode;
use serde_json::json;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
    task::JoinSet,
    time::Instant,
};

use crate::{helpers::*, node::Server, raw_sio::RawSio};

/// A TCP connection to `server` from the source address `from`, with a small receive buffer
/// (so that a client that does not read really stops the server's writes).
async fn connect_from(server: SocketAddr, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4_096).unwrap();
    socket2::SockRef::from(&socket).set_tcp_mss(536).unwrap();
    socket.bind(SocketAddr::new(from.parse().unwrap(), 0)).unwrap();
    socket.connect(server).await.unwrap()
}

/// Whether the server closes `stream` (EOF or reset) within `deadline`, reading (and
/// discarding) whatever it sends until then; `Some(bytes read)` if it did.
async fn closed_within(stream: &mut TcpStream, deadline: Duration) -> Option<usize> {
    let mut total = 0;
    let mut buffer = vec![0u8; 64 * 1024];
    let ends = Instant::now() + deadline;
    loop {
        match tokio::time::timeout_at(ends, stream.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(total),
            Ok(Ok(n)) => total += n,
        }
    }
}

/// Samples the server's resident memory every 20 ms while `work` runs; returns the peak.
async fn peak_rss_during<T>(server: &Server, work: impl Future<Output = T>) -> (u64, T) {
    tokio::pin!(work);
    let mut peak = server.rss();
    loop {
        tokio::select! {
            done = &mut work => return (peak.max(server.rss()), done),
            () = tokio::time::sleep(Duration::from_millis(20)) => peak = peak.max(server.rss()),
        }
    }
}

fn mb(bytes: u64) -> u64 {
    bytes >> 20
}

#[tokio::test]
async fn clients_that_ask_for_a_big_history_and_never_read_are_cut_off() {
    let db = TestDb::new().await;
    let store = Store::connect(db.url(), Create::IfMissing).await.unwrap();
    // 200 messages of 2,000 emoji: 1.6 MB of history, if it were all sent.
    let text = "😀".repeat(2_000);
    let now = lostfound::time::now_ms();
    for n in 0..200 {
        store.insert_message(None, "Flood", &text, None, now + n).await.unwrap();
    }
    store.close().await;
    let server = Server::start(&db, &[]).await;
    let before = server.rss();

    // 25 clients from 25 addresses join the chat five times a second and never read.
    let attack = async {
        let mut clients = JoinSet::new();
        for n in 1..=25 {
            let addr = server.addr();
            clients.spawn(async move {
                let from: IpAddr = format!("127.0.3.{n}").parse().unwrap();
                let mut client = RawSio::connect_small_from(addr, Some(from)).await;
                // 8 s of joins at most: a client still connected by then was not cut off.
                for _ in 0..40 {
                    if !client.try_send("42[\"chat:join\"]".into()).await {
                        return true;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                false
            });
        }
        clients.join_all().await
    };
    let (peak, cut_off) = peak_rss_during(&server, attack).await;
    let growth = peak.saturating_sub(before);
    eprintln!(
        "history flood: RSS {} MB before, peak {} MB (+{} MB); {} of 25 clients cut off",
        mb(before),
        mb(peak),
        mb(growth),
        cut_off.iter().filter(|c| **c).count()
    );
    assert!(cut_off.iter().all(|c| *c), "a client that never read stayed connected");
    assert!(growth < 100 << 20, "RSS grew by {} MB", mb(growth));
    // Someone who reads gets the latest messages that fit in 512 KiB.
    let reader = crate::sio::Sio::connect_to(&server.url, crate::sio::Transport::Websocket, &[]).await;
    reader.emit("chat:join", json!({})).await;
    let history = reader.next("chat:history").await;
    let size = history.to_string().len();
    assert!((400 << 10..=512 << 10).contains(&size), "a history of {size} bytes");
    server.signal("-TERM").await;
}

#[tokio::test]
async fn readers_that_never_read_a_big_list_hold_no_connection_to_the_database_and_are_cut_off() {
    const ITEMS: usize = 40;
    let db = TestDb::new().await;
    let store = Store::connect(db.url(), Create::IfMissing).await.unwrap();
    for n in 0..ITEMS {
        let body = json!({ "title": format!("item {n}"), "lat": 51.5, "lng": -0.1, "imgData": data_url("image/png", &png(280, 280, true)) });
        let item = NewItem::parse(body.as_object().unwrap()).unwrap();
        let _ = store.insert_item(item, "alice", n as i64).await.unwrap().unheard();
    }
    store.close().await;
    let server = Server::start_with(db.url(), &[("LOSTFOUND_WRITE_TIMEOUT", "3")], &[]).await;
    let before = server.rss();

    // 40 clients ask for the whole list (about 12 MB) and never read.
    let mut stalled = Vec::new();
    for n in 1..=40 {
        let mut stream = connect_from(server.addr(), &format!("127.0.4.{n}")).await;
        stream
            .write_all(b"GET /api/items HTTP/1.1\r\nHost: lostfound\r\n\r\n")
            .await
            .unwrap();
        stalled.push(stream);
    }
    // Meanwhile everyone else is served: the stalled lists hold no database connection
    // (the SQLite readers are four; a held one would make these wait 5 s and answer 503).
    let others = async {
        let mut requests = JoinSet::new();
        for n in 0..60 {
            let url = format!("{}/api/items?limit=3&fields=id,title&n={n}", server.url);
            requests.spawn(async move { reqwest::get(url).await.unwrap().status() });
        }
        requests.join_all().await
    };
    let (peak, statuses) = peak_rss_during(&server, others).await;
    assert!(statuses.iter().all(|s| *s == StatusCode::OK), "{statuses:?}");

    // 3 s without progress, and the server cuts each of them off: reading now gets what
    // was on its way, then the end.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut cut_after = Vec::new();
    for stream in &mut stalled {
        cut_after.push(closed_within(stream, Duration::from_secs(20)).await);
    }
    let growth = peak.saturating_sub(before);
    eprintln!(
        "stalled lists: RSS {} MB before, peak {} MB (+{} MB)",
        mb(before),
        mb(peak),
        mb(growth)
    );
    assert!(growth < 150 << 20, "RSS grew by {} MB", mb(growth));
    let whole = ITEMS * 300_000;
    for got in cut_after {
        let got = got.expect("a stalled reader was not disconnected");
        assert!(got < whole, "a stalled reader got the whole list ({got} bytes)");
    }
    server.signal("-TERM").await;
}

#[tokio::test]
async fn half_requests_time_out_and_the_connection_caps_hold() {
    let db = TestDb::new().await;
    let server = Server::start_with(
        db.url(),
        &[
            ("LOSTFOUND_HEADER_TIMEOUT", "1"),
            ("LOSTFOUND_IDLE_TIMEOUT", "2"),
            ("LOSTFOUND_MAX_CONNECTIONS_PER_ADDRESS", "40"),
            ("LOSTFOUND_MAX_CONNECTIONS", "100"),
        ],
        &[],
    )
    .await;
    // The soft limit on open files was raised to the hard one.
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", server.pid())).unwrap();
    let files: Vec<&str> = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(files[3], files[4], "soft and hard limits: {limits}");
    // Slowloris: 40 connections from one address, each with half a request line.
    let mut slow = Vec::new();
    for _ in 0..40 {
        let mut stream = connect_from(server.addr(), "127.0.5.1").await;
        stream.write_all(b"GET /api/items HTT").await.unwrap();
        slow.push(stream);
    }
    // A 41st from that address is closed at once; another address is served.
    let mut extra = connect_from(server.addr(), "127.0.5.1").await;
    assert_eq!(closed_within(&mut extra, Duration::from_secs(5)).await, Some(0));
    let other = TestClient::new(server.url.clone());
    assert_eq!(other.get("/healthz").await.0, StatusCode::OK);
    // Each half request is closed after the header deadline.
    for stream in &mut slow {
        assert!(
            closed_within(stream, Duration::from_secs(10)).await.is_some(),
            "a half request was kept open"
        );
    }
    // Their places are free again.
    let mut again = connect_from(server.addr(), "127.0.5.1").await;
    again
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: lostfound\r\n\r\n")
        .await
        .unwrap();
    let mut answer = vec![0u8; 1024];
    let n = again.read(&mut answer).await.unwrap();
    assert!(
        answer[..n].starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer[..n])
    );
    // ...and that keep-alive connection, now idle, is closed after the idle deadline.
    assert!(closed_within(&mut again, Duration::from_secs(10)).await.is_some());

    // The total cap: 100 connections from many addresses, then the 101st is closed at once.
    let mut held = Vec::new();
    for n in 0..100 {
        let mut stream = connect_from(server.addr(), &format!("127.0.6.{}", n / 30 + 1)).await;
        stream.write_all(b"GET /he").await.unwrap();
        held.push(stream);
    }
    let mut over = connect_from(server.addr(), "127.0.7.1").await;
    assert_eq!(closed_within(&mut over, Duration::from_secs(5)).await, Some(0));
    drop(held);
    server.signal("-TERM").await;
}

#[tokio::test]
async fn the_connection_cap_fits_the_open_files_limit() {
    let db = TestDb::new().await;
    // 300 files: the default cap of 25,000 connections is lowered to 300 - 256 = 44.
    let server = Server::start_with_open_files(db.url(), &[("LOSTFOUND_HEADER_TIMEOUT", "30")], 300).await;
    // Said as the server starts serving, just after "listening on": waited for, not assumed.
    server
        .wait_for(&server.stderr, |log| {
            log.contains("the cap is lowered to fit").then_some(())
        })
        .await;
    // More half requests than the process has files: had the cap stayed, the server would
    // run out of files and leave the rest unanswered in the listen queue.
    let mut held = Vec::new();
    for n in 0..320 {
        let mut stream = connect_from(server.addr(), &format!("127.0.8.{}", n / 100 + 1)).await;
        let _ = stream.write_all(b"GET /he").await;
        held.push(stream);
    }
    let mut closed = 0;
    for stream in &mut held {
        if closed_within(stream, Duration::from_millis(200)).await.is_some() {
            closed += 1;
        }
    }
    assert_eq!(closed, 320 - 44, "connections over the cap are closed at once");
    drop(held);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(server.client().get("/healthz").await.0, StatusCode::OK);
    server.signal("-TERM").await;
}

#[tokio::test]
async fn sigterm_with_a_half_sent_request_exits_within_the_shutdown_deadline() {
    let db = TestDb::new().await;
    // At debug level the access log says when a request starts: the test waits for that.
    let env = [("LOSTFOUND_SHUTDOWN_TIMEOUT", "2"), ("RUST_LOG", "info,access=debug")];
    let server = Server::start_with(db.url(), &env, &[]).await;
    let mut half = TcpStream::connect(server.addr()).await.unwrap();
    half.write_all(b"POST /api/login HTTP/1.1\r\nHost: lostfound\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\"")
        .await
        .unwrap();
    // The request has reached the handler, which waits for the rest of its body.
    server
        .wait_for(&server.stderr, |log| {
            log.contains("started method=POST path=/api/login").then_some(())
        })
        .await;
    let asked = Instant::now();
    let (status, ..) = server.signal("-TERM").await;
    let took = asked.elapsed();
    eprintln!("SIGTERM with a half request: exited {status:?} after {took:?}");
    assert_eq!(status.code(), Some(0));
    assert!(took < Duration::from_secs(10), "exited after {took:?}");
}

#[tokio::test]
async fn a_declared_body_over_the_limit_is_refused_before_it_is_sent() {
    let db = TestDb::new().await;
    let server = Server::start(&db, &[]).await;
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    stream
        .write_all(b"POST /api/login HTTP/1.1\r\nHost: lostfound\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        let mut buffer = vec![0u8; 4096];
        loop {
            let n = stream.read(&mut buffer).await.unwrap_or(0);
            if n == 0 {
                break;
            }
            answer.extend_from_slice(&buffer[..n]);
            if answer.windows(4).any(|w| w == b"\r\n\r\n") && answer.ends_with(b"}") {
                break;
            }
        }
    })
    .await;
    assert!(read.is_ok(), "no answer within 5 s");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.ends_with(r#"{"error":"Request body too large"}"#), "{answer}");
    server.signal("-TERM").await;
}

#[tokio::test]
async fn many_connections_from_one_address_share_its_message_rate() {
    let app = spawn_app().await;
    // 40 connections from one address, each sending 5 messages a second for 3 s (within its
    // own allowance), reading everything they are sent.
    let started = Instant::now();
    let mut senders = JoinSet::new();
    for _ in 0..40 {
        let addr = app.addr;
        senders.spawn(async move {
            let mut client = RawSio::connect_small_from(addr, Some("127.0.8.1".parse().unwrap())).await;
            let mut accepted = 0;
            for n in 0..15 {
                client
                    .emit(n, "chat:send", json!({ "text": format!("spam {n}") }))
                    .await;
                let (acks, _) = client.acks(1).await;
                if acks[&n] == json!({ "ok": true }) {
                    accepted += 1;
                } else {
                    assert_eq!(
                        acks[&n],
                        json!({ "ok": false, "error": "Too many messages, slow down" })
                    );
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            accepted
        });
    }
    let accepted: usize = senders.join_all().await.into_iter().sum();
    let elapsed = started.elapsed().as_secs_f64();
    // 10 a second per address, bursts of 30: 600 were sent.
    let bound = 30 + (10.0 * elapsed).ceil() as usize;
    eprintln!("one address, 40 connections: {accepted} of 600 messages accepted in {elapsed:.1} s (bound {bound})");
    assert!(accepted <= bound, "{accepted} accepted, at most {bound} allowed");
    assert_eq!(app.db.count("messages WHERE item_id IS NULL").await, accepted);
    // Another address is not held back.
    let mut neighbour = RawSio::connect_small_from(app.addr, Some("127.0.8.2".parse().unwrap())).await;
    assert_eq!(neighbour.chat_send(1, "hello").await, json!({ "ok": true }));
}

#[tokio::test]
async fn pages_of_other_sites_cannot_change_anything() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let item = item_path(&alice.create_item(item_body("Umbrella")).await);
    for (method, path, content_type, body) in [
        (reqwest::Method::POST, "/api/logout", "text/plain", ""),
        (
            reqwest::Method::POST,
            "/api/items",
            "text/plain",
            r#"{"title":"x","lat":1,"lng":1}"#,
        ),
        (reqwest::Method::DELETE, item.as_str(), "text/plain", ""),
    ] {
        for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
            let answer = alice
                .send(
                    alice
                        .request(method.clone(), path)
                        .header("Origin", origin)
                        .header("Content-Type", content_type)
                        .body(body),
                )
                .await;
            assert_error(
                &(answer.status, answer.body),
                StatusCode::FORBIDDEN,
                "Cross-site request refused",
            );
        }
    }
    // Nothing changed: still logged in, one item; the service's own pages and programs
    // that send no Origin go through.
    assert_eq!(alice.get("/api/me").await.1["user"]["id"], "alice");
    assert_eq!(app.item_count().await, 1);
    let own = format!("http://{}", app.addr);
    let answer = alice
        .send(
            alice
                .request(reqwest::Method::POST, "/api/items")
                .header("Origin", own)
                .json(&item_body("Mine")),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(alice.post("/api/logout", json!({})).await.0, StatusCode::OK);
}

/// While the database refuses writes (made so by `refuse`, undone by `undo` before the
/// assertions), `/readyz` says so and a write answers 503.
async fn refused_writes_are_not_ready(app: &TestApp, refuse: impl AsyncFnOnce(), undo: impl AsyncFnOnce()) {
    let alice = app.logged_in("alice", false).await;
    assert_eq!(app.client().get("/readyz").await.0, StatusCode::OK);
    refuse().await;
    // Readiness looks again after a second.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let (status, body) = app.client().get("/readyz").await;
    let (created, _) = alice.post("/api/items", item_body("Refused")).await;
    undo().await;
    assert_eq!(
        (status, &body["database"]),
        (StatusCode::SERVICE_UNAVAILABLE, &json!("down")),
        "{body}"
    );
    assert_eq!(created, StatusCode::SERVICE_UNAVAILABLE);
}

mod sqlite_only {
    use super::*;

    /// Changing a file's immutable flag takes root (CAP_LINUX_IMMUTABLE): scripts/test skips
    /// these without it, and says so.
    mod needs_root {
        use super::*;

        #[tokio::test]
        async fn an_immutable_database_file_is_not_ready_and_answers_503() {
            require_sqlite();
            require_root();
            let app = spawn_app().await;
            // Immutable files refuse even root's writes. (Not the shared-memory index, which
            // SQLite maps into memory: writing to a mapping of an immutable file is a SIGBUS.)
            let path = app.db.url().trim_start_matches("sqlite://").to_owned();
            let files: Vec<String> = ["", "-wal"].iter().map(|s| format!("{path}{s}")).collect();
            let chattr = |flag: &str| {
                let done = std::process::Command::new("chattr").arg(flag).args(&files).status();
                assert!(done.unwrap().success(), "chattr {flag} failed");
            };
            refused_writes_are_not_ready(&app, async || chattr("+i"), async || chattr("-i")).await;
        }
    }
}

mod postgres_only {
    use super::*;

    #[tokio::test]
    async fn a_read_only_database_is_not_ready_and_answers_503() {
        require_postgres();
        let app = spawn_app().await;
        let name = app.db.url().rsplit('/').next().unwrap().to_owned();
        // A standby is read-only; so is every new session after this.
        let refuse = async || {
            app.db
                .sql(&format!(
                    "ALTER DATABASE \"{name}\" SET default_transaction_read_only = on"
                ))
                .await;
            app.db
                .sql(&format!(
                    "SELECT CAST(pg_terminate_backend(pid) AS TEXT) FROM pg_stat_activity \
                     WHERE datname = '{name}' AND pid <> pg_backend_pid()"
                ))
                .await;
        };
        refused_writes_are_not_ready(&app, refuse, async || {}).await;
    }
}

#[tokio::test]
async fn a_session_upgraded_from_long_polling_holds_one_place_under_the_address_cap() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let db = TestDb::new().await;
    let server = Server::start_with(db.url(), &[("LOSTFOUND_MAX_CONNECTIONS_PER_ADDRESS", "2")], &[]).await;
    let from = "127.0.9.1";
    // As a browser's client does: the handshake and CONNECT over long-polling...
    let http = reqwest::Client::builder()
        .local_address(from.parse::<IpAddr>().unwrap())
        .build()
        .unwrap();
    let polling = |sid: &str| format!("{}/socket.io/?EIO=4&transport=polling{sid}", server.url);
    let open = http.get(polling("")).send().await.unwrap().text().await.unwrap();
    let open: serde_json::Value = serde_json::from_str(open.strip_prefix('0').unwrap()).unwrap();
    let sid = format!("&sid={}", open["sid"].as_str().unwrap());
    let posted = http.post(polling(&sid)).body("40").send().await.unwrap();
    assert_eq!(posted.status(), StatusCode::OK);
    // Polls until the CONNECT comes, answering the server's first ping (which may come first).
    let mut connected = false;
    for _ in 0..5 {
        let answer = http.get(polling(&sid)).send().await.unwrap().text().await.unwrap();
        for packet in answer.split('\x1e') {
            match packet {
                "2" => assert!(
                    http.post(polling(&sid))
                        .body("3")
                        .send()
                        .await
                        .unwrap()
                        .status()
                        .is_success()
                ),
                connect if connect.starts_with("40") => connected = true,
                other => panic!("unexpected packet {other}"),
            }
        }
        if connected {
            break;
        }
    }
    assert!(connected, "no CONNECT over long-polling");
    // ...then the upgrade, on a second connection; the first is closed.
    let stream = connect_from(server.addr(), from).await;
    let url = format!("ws://{}/socket.io/?EIO=4&transport=websocket{sid}", server.addr());
    let (mut ws, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    ws.send(Message::text("2probe")).await.unwrap();
    assert_eq!(ws.next().await.unwrap().unwrap(), Message::text("3probe"));
    ws.send(Message::text("5")).await.unwrap();
    drop(http);
    // The polling connection's place is given back once it has closed (waited for, bounded):
    // the address's second place serves its next connection.
    let mut second = None;
    eventually(
        "the closed polling connection gives its place back",
        Duration::from_secs(10),
        async || {
            let mut stream = connect_from(server.addr(), from).await;
            stream
                .write_all(b"GET /healthz HTTP/1.1\r\nHost: lostfound\r\n\r\n")
                .await
                .unwrap();
            let mut answer = vec![0u8; 1024];
            let n = stream.read(&mut answer).await.unwrap_or(0);
            let served = answer[..n].starts_with(b"HTTP/1.1 200");
            // Kept open: it holds the address's second place.
            second = served.then_some(stream);
            served
        },
    )
    .await;
    // The WebSocket still holds the first: a third connection is over the cap.
    let mut third = connect_from(server.addr(), from).await;
    assert_eq!(closed_within(&mut third, Duration::from_secs(5)).await, Some(0));
    drop(ws);
    server.signal("-TERM").await;
}
