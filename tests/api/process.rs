//! `lostfound serve` as a real process: demo data, crashes, SIGTERM and its log output.

use std::{
    os::unix::process::ExitStatusExt,
    sync::{Arc, Mutex},
    time::Duration,
};

use lostfound::demo::DEMO_ACCOUNTS;
use reqwest::StatusCode;
use rust_socketio::TransportType;
use serde_json::{Value, json};

use crate::{
    helpers::*,
    node::{Server, WAIT, add_account},
    sio::Sio,
    smtp_sink::{Mode, SmtpSink},
};

#[tokio::test]
async fn demo_mode_seeds_an_empty_database_once() {
    let db = TestDb::new().await;
    let server = Server::start(&db, &["--demo"]).await;
    for (id, _, _, password) in DEMO_ACCOUNTS {
        // Each account is shown with its password (waits, bounded, until it is).
        server
            .wait_for(&server.stdout, |out| {
                out.lines()
                    .any(|l| l.contains(id) && l.contains(password))
                    .then_some(())
            })
            .await;
        let (status, body) = server.client().login(id, password).await;
        assert_eq!(status, StatusCode::OK, "{id}: {body}");
    }
    let (status, items) = server.client().get("/api/items").await;
    assert_eq!(status, StatusCode::OK);
    let items = items.as_array().unwrap().clone();
    assert_eq!(items.len(), 12);
    for state in ["pending", "approved", "rejected"] {
        assert!(items.iter().any(|i| i["status"] == state), "no {state} demo item");
    }
    let (status, ..) = server.signal("-TERM").await;
    assert!(status.success());

    let again = Server::start(&db, &["--demo"]).await;
    assert_eq!(
        again.client().get("/api/items").await.1.as_array().map(Vec::len),
        Some(12)
    );
    let (status, stdout, _) = again.signal("-TERM").await;
    assert!(status.success());
    for (_, _, _, password) in DEMO_ACCOUNTS {
        assert!(
            !stdout.contains(password),
            "credentials printed for accounts not created: {stdout}"
        );
    }
    assert_eq!(db.count("users").await, 3);
}

/// What a server acknowledged, as the clients flooding it heard it: the test waits for enough
/// of it, woken by each, before it kills the server.
struct Acknowledged<T> {
    heard: Mutex<Vec<T>>,
    grew: tokio::sync::Notify,
}

impl<T> Default for Acknowledged<T> {
    fn default() -> Self {
        Self {
            heard: Mutex::default(),
            grew: tokio::sync::Notify::new(),
        }
    }
}

impl<T: Clone> Acknowledged<T> {
    fn push(&self, value: T) {
        self.heard.lock().unwrap().push(value);
        self.grew.notify_waiters();
    }

    /// Waits (at most `WAIT`) until `count` have been heard from the `clients`.
    async fn wait_for(&self, count: usize, clients: &str) {
        let enough = async {
            loop {
                // Made before the check: a push between the two still wakes it.
                let grew = self.grew.notified();
                if self.heard.lock().unwrap().len() >= count {
                    return;
                }
                grew.await;
            }
        };
        tokio::time::timeout(WAIT, enough)
            .await
            .unwrap_or_else(|_| panic!("{clients} too slow"));
    }

    fn all(&self) -> Vec<T> {
        self.heard.lock().unwrap().clone()
    }
}

#[tokio::test]
async fn acknowledged_items_survive_kill_9() {
    let db = TestDb::new().await;
    add_account(&db, "writer", "writer-password").await;
    let server = Server::start(&db, &[]).await;
    let writer = server.client();
    assert_eq!(writer.login("writer", "writer-password").await.0, StatusCode::OK);

    // Writers keep going until the process dies under them; what was answered 200 must stay.
    let acknowledged: Arc<Acknowledged<Value>> = Arc::default();
    let mut writers = Vec::new();
    for w in 0..4 {
        let (writer, acknowledged) = (writer.clone(), Arc::clone(&acknowledged));
        writers.push(tokio::spawn(async move {
            for n in 0.. {
                let body = item_body(&format!("item {w}-{n}"));
                let Ok(response) = writer
                    .request(reqwest::Method::POST, "/api/items")
                    .json(&body)
                    .send()
                    .await
                else {
                    return;
                };
                if response.status() != StatusCode::OK {
                    return;
                }
                let Ok(item) = response.json::<Value>().await else {
                    return;
                };
                acknowledged.push(item);
            }
        }));
    }
    acknowledged.wait_for(40, "writers").await;
    let (status, ..) = server.signal("-KILL").await;
    assert_eq!(status.signal(), Some(9));
    for writer in writers {
        writer.await.unwrap();
    }

    let server = Server::start(&db, &[]).await;
    let anyone = server.client();
    let acknowledged = acknowledged.all();
    for item in &acknowledged {
        assert_eq!(
            anyone.get(&item_path(item)).await,
            (StatusCode::OK, in_public_view(item))
        );
    }
    let (_, list) = anyone.get("/api/items").await;
    assert!(list.as_array().unwrap().len() >= acknowledged.len());
    server.signal("-TERM").await;
}

/// Chat messages are stored before they are acknowledged: what a sender heard `ok` for is in
/// the history after a kill -9 in the middle of a flood of them.
#[tokio::test]
async fn acknowledged_chat_messages_survive_kill_9() {
    let db = TestDb::new().await;
    // A flood from one address, let through.
    let unlimited = [
        ("LOSTFOUND_CONNECTION_MESSAGE_RATE", "0"),
        ("LOSTFOUND_ADDRESS_MESSAGE_RATE", "0"),
    ];
    let server = Server::start_with(db.url(), &unlimited, &[]).await;
    let acknowledged: Arc<Acknowledged<String>> = Arc::default();
    let mut senders = Vec::new();
    for s in 0..4 {
        let client = Sio::connect_to(&server.url, TransportType::Websocket, &[]).await;
        let acknowledged = Arc::clone(&acknowledged);
        // At most 40 each, so that all of them fit in the history (200) however late the kill.
        senders.push(tokio::spawn(async move {
            for n in 0..40 {
                let text = format!("message {s}-{n}");
                let ack = client.call("chat:send", json!({ "text": text })).await;
                assert_eq!(ack["ok"], true, "{ack}");
                acknowledged.push(text);
            }
        }));
    }
    acknowledged.wait_for(40, "senders").await;
    let (status, ..) = server.signal("-KILL").await;
    assert_eq!(status.signal(), Some(9));
    // A sender cut off mid-call fails; what it was told before stays counted.
    for sender in senders {
        sender.abort();
    }

    let server = Server::start(&db, &[]).await;
    let reader = Sio::connect_to(&server.url, TransportType::Websocket, &[]).await;
    reader.emit("chat:join", json!({ "nick": "Reader" })).await;
    let history = reader.next("chat:history").await;
    let stored: Vec<&str> = history
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|message| message["text"].as_str())
        .collect();
    for text in &acknowledged.all() {
        assert!(stored.contains(&text.as_str()), "{text} was acknowledged, then lost");
    }
    server.signal("-TERM").await;
}

/// Mail queued at SIGTERM stays queued for the next start: the sender stops within the
/// shutdown timeout, even while the SMTP server hangs on the message being sent.
#[tokio::test]
async fn queued_mail_does_not_hold_the_shutdown() {
    let db = TestDb::new().await;
    add_account(&db, "vic", "vic-password").await;
    db.sql("UPDATE users SET email = 'vic@uni.example' WHERE id = 'vic'")
        .await;
    let now = lostfound::time::now_ms();
    db.sql(&format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) \
         INSERT INTO account_mail (user_id, purpose, address, created_at, next_attempt_at) \
         SELECT 'vic', 'registered', 'vic@uni.example', {now}, {now} FROM n"
    ))
    .await;
    let sink = SmtpSink::start(Mode::Hold).await;
    let env = [
        ("LOSTFOUND_SMTP_URL", sink.url()),
        ("LOSTFOUND_MAIL_FROM", "Lost and found <lost@example.edu>".to_owned()),
        ("LOSTFOUND_PUBLIC_URL", "http://127.0.0.1:9".to_owned()),
        ("LOSTFOUND_SHUTDOWN_TIMEOUT", "2".to_owned()),
    ];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let server = Server::start_with(db.url(), &env, &[]).await;
    sink.wait_until(WAIT, |sink| sink.held() > 0).await;

    let asked = tokio::time::Instant::now();
    let (status, ..) = server.signal("-TERM").await;
    let took = asked.elapsed();
    assert_eq!(status.code(), Some(0), "{status:?}");
    // The shutdown timeout, and far less than the SMTP timeout (15 s) the held message has.
    assert!(took < Duration::from_secs(6), "the server took {took:?} to stop");
    let unsent = db
        .sql("SELECT CAST(COUNT(*) AS TEXT) FROM account_mail WHERE sent_at IS NULL")
        .await;
    assert_eq!(unsent, ["300"], "every message still queued");
    sink.set_mode(Mode::Up);
}

#[tokio::test]
async fn sigterm_stops_the_server_cleanly() {
    let db = TestDb::new().await;
    let server = Server::start(&db, &[]).await;
    assert_eq!(
        server.client().get("/api/me").await,
        (StatusCode::OK, json!({ "user": null }))
    );
    let url = server.url.clone();
    let (status, ..) = server.signal("-TERM").await;
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert!(reqwest::get(format!("{url}/api/me")).await.is_err(), "still answering");
}

#[tokio::test]
async fn the_log_has_one_line_per_request_and_no_secrets() {
    let db = TestDb::new().await;
    let password = "Pr0cess-Secret-pw";
    let wrong = "Wr0ng-Secret-guess";
    add_account(&db, "tester", password).await;
    let server = Server::start(&db, &[]).await;
    let client = server.client();

    // What someone searched for is theirs: the query string is never logged.
    let searched = "Secretword";
    let requests: [(&str, &str, u16); 6] = [
        ("POST", "/api/login", 401),
        ("POST", "/api/login", 200),
        ("GET", "/api/me", 200),
        ("POST", "/api/items", 200),
        ("GET", "/api/items", 200),
        ("GET", "/api/items/424242", 404),
    ];
    assert_eq!(client.login("tester", wrong).await.0, StatusCode::UNAUTHORIZED);
    let sid = client.login_answer("tester", password).await.sid();
    assert_eq!(client.get("/api/me").await.1["user"]["id"], "tester");
    client.create_item(item_body("Umbrella")).await;
    assert_eq!(client.get(&format!("/api/items?q={searched}")).await.0, StatusCode::OK);
    assert_eq!(client.get("/api/items/424242").await.0, StatusCode::NOT_FOUND);
    // Lines are written in order: once the last request's line is there, all are.
    server
        .wait_for(&server.stderr, |log| log.contains("/api/items/424242").then_some(()))
        .await;
    let (status, _, log) = server.signal("-TERM").await;
    assert!(status.success());

    for secret in [password, wrong, sid.as_str(), searched] {
        assert!(!log.contains(secret), "the log contains {secret:?}:\n{log}");
    }
    for (method, path, code) in requests {
        let count = requests.iter().filter(|(m, p, _)| (*m, *p) == (method, path)).count();
        let lines: Vec<&str> = log
            .lines()
            .filter(|l| mentions(l, path) && l.contains(method))
            .collect();
        assert_eq!(lines.len(), count, "{method} {path}:\n{log}");
        let status = format!("status={code}");
        assert!(
            lines.iter().any(|l| l.contains(&status)),
            "{method} {path} {code}:\n{log}"
        );
    }
}

/// Whether `line` names `path` exactly (not as the prefix of a longer path).
fn mentions(line: &str, path: &str) -> bool {
    line.match_indices(path).any(|(at, _)| {
        let after = line[at + path.len()..].chars().next();
        !matches!(after, Some(c) if c == '/' || c.is_alphanumeric())
    })
}

#[tokio::test]
async fn the_environment_is_set_by_variable_or_flag_and_defaults_to_production() {
    let db = TestDb::new().await;
    let development: &[(&str, &str)] = &[("LOSTFOUND_ENV", "development")];
    for (env, args, with_details) in [
        (development, &[][..], true),
        (&[][..], &["--env", "development"][..], true),
        (&[][..], &[][..], false),
    ] {
        let server = Server::start_with(db.url(), env, args).await;
        let (status, body) = server.client().get("/api/nothing-here").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{env:?} {args:?}: {body}");
        if with_details {
            assert_eq!(
                body,
                json!({
                    "error": "Not found",
                    "details": { "name": "NotFoundError", "stack": body["details"]["stack"] },
                }),
                "{env:?} {args:?}"
            );
            assert!(body["details"]["stack"].is_string(), "{body}");
        } else {
            assert_eq!(body, json!({ "error": "Not found" }), "{env:?} {args:?}");
        }
        let (status, ..) = server.signal("-TERM").await;
        assert!(status.success());
    }
}
