//! Prometheus metrics on their own listener: each family the operator is promised, fed by
//! real requests, sockets, messages and refusals. (The recorder is one per process and the
//! tests run side by side, so counts are checked as lower bounds.)

use std::net::SocketAddr;

use reqwest::StatusCode;
use serde_json::json;

use crate::{
    helpers::*,
    sio::{Sio, Transport},
    smtp_sink::{Mode, SmtpSink},
};

async fn scrape(addr: SocketAddr) -> String {
    let response = reqwest::get(format!("http://{addr}/metrics")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.unwrap()
}

/// The value of the first sample of `name` whose labels include each of `labels`.
fn sample(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|line| line.strip_prefix(name).is_some_and(|rest| rest.starts_with(['{', ' '])))
        .find(|line| labels.iter().all(|label| line.contains(label)))
        .and_then(|line| line.rsplit(' ').next()?.parse().ok())
}

#[tokio::test]
async fn metrics_count_requests_connections_messages_and_refusals() {
    let sink = SmtpSink::start(Mode::Busy).await;
    let smtp = sink.url();
    let app = TestApp::start_with(TestDb::new().await, move |config| {
        config.metrics_bind = Some("127.0.0.1:0".parse().unwrap());
        config.mail.smtp_url = Some(lostfound::config::SmtpUrl(smtp));
        config.mail.mail_from = Some("lost@example.edu".into());
    })
    .await;
    let metrics = app.metrics.expect("metrics are served");
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    assert_eq!(
        alice.patch("/api/me", json!({ "email": "alice@example.edu" })).await.0,
        StatusCode::OK
    );
    let item = alice.create_item(item_body("Red kite")).await;
    admin.patch(&item_path(&item), json!({ "status": "approved" })).await;
    for _ in 0..3 {
        assert_eq!(app.client().get(&item_path(&item)).await.0, StatusCode::OK);
    }
    let stranger = app.client();
    let refused = loop {
        let answer = stranger.login_answer("alice", "wrong-password").await;
        if answer.status == StatusCode::TOO_MANY_REQUESTS {
            break true;
        }
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    };
    assert!(refused);
    let socket = Sio::connect(&app, Transport::Websocket).await;
    socket
        .call("chat:send", json!({ "nick": "Ann", "text": "hello" }))
        .await;

    let text = scrape(metrics).await;
    let read = ["route=\"/api/items/{id}\"", "method=\"GET\"", "status=\"200\""];
    assert!(
        sample(&text, "lostfound_http_requests_total", &read).unwrap() >= 3.0,
        "{text}"
    );
    assert!(
        sample(
            &text,
            "lostfound_http_requests_total",
            &["route=\"/api/login\"", "status=\"429\""]
        )
        .is_some()
    );
    assert!(
        sample(
            &text,
            "lostfound_http_request_duration_seconds_bucket",
            &["route=\"/api/items/{id}\"", "method=\"GET\"", "le=\"+Inf\""]
        )
        .unwrap()
            >= 3.0
    );
    assert!(sample(&text, "lostfound_http_connections", &[]).unwrap() >= 1.0);
    assert!(sample(&text, "lostfound_socketio_connections", &[]).unwrap() >= 1.0);
    assert!(sample(&text, "lostfound_messages_total", &["room=\"chat\""]).unwrap() >= 1.0);
    assert!(sample(&text, "lostfound_refusals_total", &["limit=\"login\""]).unwrap() >= 1.0);
    assert!(
        sample(&text, "lostfound_db_connections", &["state=\"idle\""]).is_some(),
        "{text}"
    );
    // Alice's approval notice waits: the SMTP server refuses everything.
    assert!(sample(&text, "lostfound_mail_outbox", &[]).unwrap() >= 1.0);
    // No route carries a raw path: ids are in patterns only.
    assert!(!text.contains(&format!("/api/items/{}\"", item["id"])));

    // The service's own port does not serve them.
    assert_eq!(app.client().get("/metrics").await.0, StatusCode::NOT_FOUND);
    socket.disconnect().await;
}
