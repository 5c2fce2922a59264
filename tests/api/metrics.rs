//! Prometheus metrics on their own listener: each family the operator is promised, fed by
//! real requests, sockets, messages and refusals. The server is a process of its own (the
//! recorder is one per process), so every value is exactly what this test's traffic made.

use reqwest::StatusCode;
use serde_json::json;

use crate::{
    helpers::*,
    node::{Server, add_accounts},
    sio::{Sio, Transport},
    smtp_sink::{Mode, SmtpSink},
};

async fn scrape(url: &str) -> String {
    let response = reqwest::get(url).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.unwrap()
}

/// The value of the sample of `name` whose labels are exactly `labels` (in any order).
fn sample(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(name)?;
        let (found, value) = match rest.strip_prefix('{') {
            Some(rest) => {
                let (found, value) = rest.split_once("} ")?;
                (found.split(',').collect::<Vec<_>>(), value)
            }
            None => (Vec::new(), rest.strip_prefix(' ')?),
        };
        let exact = found.len() == labels.len() && labels.iter().all(|label| found.contains(label));
        exact.then(|| value.parse().ok()).flatten()
    })
}

#[tokio::test]
async fn metrics_count_requests_connections_messages_and_refusals() {
    let sink = SmtpSink::start(Mode::Busy).await;
    let db = TestDb::new().await;
    add_accounts(
        &db,
        &[("office", "office-password", true), ("alice", "alice-password", false)],
    )
    .await;
    let env = [
        ("LOSTFOUND_METRICS_BIND", "127.0.0.1:0"),
        ("LOSTFOUND_SMTP_URL", &sink.url()),
        ("LOSTFOUND_MAIL_FROM", "lost@example.edu"),
    ];
    let server = Server::start_with(db.url(), &env, &[]).await;
    let metrics = server
        .wait_for(&server.stderr, |log| {
            let at = log.find("metrics on http://")? + "metrics on ".len();
            log[at..].split_whitespace().next().map(str::to_owned)
        })
        .await;

    let admin = server.client();
    assert_eq!(admin.login("office", "office-password").await.0, StatusCode::OK);
    let alice = server.client();
    assert_eq!(alice.login("alice", "alice-password").await.0, StatusCode::OK);
    assert_eq!(
        admin
            .patch("/api/users/alice", json!({ "email": "alice@example.edu" }))
            .await
            .0,
        StatusCode::OK
    );
    let item = alice.create_item(item_body("Red kite")).await;
    admin.patch(&item_path(&item), json!({ "status": "approved" })).await;
    for _ in 0..3 {
        assert_eq!(server.client().get(&item_path(&item)).await.0, StatusCode::OK);
    }
    // Wrong passwords from one address until it is refused: 5 tries of an account are free.
    let stranger = server.client();
    let mut wrong = 0;
    while stranger.login("alice", "wrong-password").await.0 == StatusCode::UNAUTHORIZED {
        wrong += 1;
    }
    assert_eq!(wrong, 5);
    let socket = Sio::connect_to(&server.url, Transport::Websocket, &[]).await;
    socket
        .call("chat:send", json!({ "nick": "Ann", "text": "hello" }))
        .await;

    let text = scrape(&metrics).await;
    let requests = |route: &str, method: &str, status: &str| {
        let labels = [
            format!("route=\"{route}\""),
            format!("method=\"{method}\""),
            format!("status=\"{status}\""),
        ];
        sample(
            &text,
            "lostfound_http_requests_total",
            &labels.each_ref().map(String::as_str),
        )
    };
    assert_eq!(requests("/api/items/{id}", "GET", "200"), Some(3.0), "{text}");
    assert_eq!(requests("/api/login", "POST", "200"), Some(2.0));
    assert_eq!(requests("/api/login", "POST", "401"), Some(5.0));
    assert_eq!(requests("/api/login", "POST", "429"), Some(1.0));
    assert_eq!(requests("/api/items", "POST", "200"), Some(1.0));
    assert_eq!(requests("/api/users/{uid}", "PATCH", "200"), Some(1.0));
    assert_eq!(
        sample(
            &text,
            "lostfound_http_request_duration_seconds_count",
            &["route=\"/api/items/{id}\"", "method=\"GET\""]
        ),
        Some(3.0),
        "the three reads"
    );
    assert_eq!(sample(&text, "lostfound_socketio_connections", &[]), Some(1.0));
    assert_eq!(sample(&text, "lostfound_messages_total", &["room=\"chat\""]), Some(1.0));
    assert_eq!(
        sample(&text, "lostfound_refusals_total", &["limit=\"login\""]),
        Some(1.0)
    );
    assert!(sample(&text, "lostfound_http_connections", &[]).unwrap() >= 1.0);
    // SQLite's pool of readers, or PostgreSQL's one pool.
    let pool = if on_postgres() {
        "pool=\"postgres\""
    } else {
        "pool=\"read\""
    };
    assert!(
        sample(&text, "lostfound_db_connections", &[pool, "state=\"idle\""]).is_some(),
        "{text}"
    );
    // Alice's approval notice waits: the SMTP server refuses everything.
    assert_eq!(sample(&text, "lostfound_mail_outbox", &[]), Some(1.0));
    // No route carries a raw path: ids are in patterns only.
    assert!(!text.contains(&format!("/api/items/{}\"", item["id"])));

    // The service's own port does not serve them.
    assert_eq!(server.client().get("/metrics").await.0, StatusCode::NOT_FOUND);
    socket.disconnect().await;
    server.signal("-TERM").await;
}

/// Whatever methods and paths clients send, every label has a bounded set of values: after
/// 10,000 requests with random methods and paths, `/metrics` stays under 1 MB.
#[tokio::test]
async fn random_methods_and_paths_leave_the_metrics_small() {
    use futures_util::StreamExt;
    use rand::{Rng, distr::Alphanumeric};

    let db = TestDb::new().await;
    let server = Server::start_with(db.url(), &[("LOSTFOUND_METRICS_BIND", "127.0.0.1:0")], &[]).await;
    let metrics = server
        .wait_for(&server.stderr, |log| {
            let at = log.find("metrics on http://")? + "metrics on ".len();
            log[at..].split_whitespace().next().map(str::to_owned)
        })
        .await;
    let http = reqwest::Client::new();
    let random = |len: usize| -> String {
        rand::rng()
            .sample_iter(&Alphanumeric)
            .take(len)
            .map(char::from)
            .collect()
    };
    let requests = futures_util::stream::iter(0..10_000).map(|n| {
        let method = reqwest::Method::from_bytes(random(1 + n % 40).to_uppercase().as_bytes()).unwrap();
        let path = match n % 3 {
            0 => format!("/api/{}", random(1 + n % 60)),
            1 => format!("/api/items/{}", random(8)),
            _ => format!("/{}/{}", random(12), random(30)),
        };
        let request = http.request(method, format!("{}{path}", server.url));
        async move { request.send().await.map(|r| r.status()) }
    });
    let answered = requests
        .buffer_unordered(16)
        .filter(|status| std::future::ready(status.is_ok()))
        .count()
        .await;
    assert_eq!(answered, 10_000, "every request answered");
    let text = scrape(&metrics).await;
    println!("/metrics after 10,000 random requests: {} bytes", text.len());
    assert!(text.len() < 1 << 20, "/metrics grew to {} bytes", text.len());
    assert!(
        text.contains("method=\"other\""),
        "unknown methods are counted as other"
    );
}
