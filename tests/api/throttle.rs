//! Throttling of failed logins, per account id and per client address.

use reqwest::{
    StatusCode,
    header::{HeaderMap, HeaderValue, RETRY_AFTER},
};

use tokio::task::JoinSet;

use crate::helpers::*;

/// Failed logins allowed per account id in the window.
const PER_ACCOUNT: usize = 5;
/// Failed logins allowed per client address in the window.
const PER_ADDRESS: usize = 50;

#[tokio::test]
async fn the_sixth_attempt_after_five_failures_is_refused_even_with_the_right_password() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    app.add_user("bob", false).await;
    let client = app.client();
    fail_logins(&client, "alice", PER_ACCOUNT).await;

    assert_throttled(&client.login_answer("alice", &password_of("alice")).await);
    assert_eq!(client.get("/api/me").await.1["user"], serde_json::Value::Null);
    // Another account from the same client is not affected.
    assert_eq!(client.login("bob", &password_of("bob")).await.0, StatusCode::OK);
}

#[tokio::test]
async fn the_account_throttle_survives_a_restart() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    fail_logins(&app.client(), "alice", PER_ACCOUNT).await;

    let app = app.restart().await;
    assert_throttled(&app.client().login_answer("alice", &password_of("alice")).await);
}

#[tokio::test]
async fn a_successful_login_clears_the_account_count() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let client = app.client();
    fail_logins(&client, "alice", PER_ACCOUNT - 1).await;
    assert_eq!(client.login("alice", &password_of("alice")).await.0, StatusCode::OK);

    // A fresh allowance of failures, then the limit applies again.
    fail_logins(&client, "alice", PER_ACCOUNT).await;
    assert_throttled(&client.login_answer("alice", &password_of("alice")).await);
}

#[tokio::test]
async fn concurrent_failures_all_count() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let mut attempts = JoinSet::new();
    for _ in 0..3 * PER_ACCOUNT {
        let client = app.client();
        attempts.spawn(async move { client.login("alice", "wrong-password").await.0 });
    }
    let mut refused_with_401 = 0;
    while let Some(status) = attempts.join_next().await {
        match status.unwrap() {
            StatusCode::UNAUTHORIZED => refused_with_401 += 1,
            StatusCode::TOO_MANY_REQUESTS => {}
            other => panic!("unexpected {other}"),
        }
    }
    assert!(refused_with_401 <= PER_ACCOUNT, "{refused_with_401} passwords checked");
    assert_throttled(&app.client().login_answer("alice", &password_of("alice")).await);
}

#[tokio::test]
async fn one_address_is_throttled_across_different_ids() {
    let app = TestApp::start_with(TestDb::new().await, |config| config.trust_proxy = true).await;
    app.add_user("alice", false).await;
    let attacker = client_from(&app, "203.0.113.7");
    for n in 0..PER_ADDRESS {
        let answer = attacker.login(&format!("guess{n}"), "wrong-password").await;
        assert_error(&answer, StatusCode::UNAUTHORIZED, "Invalid password");
    }
    assert_throttled(&attacker.login_answer("alice", &password_of("alice")).await);

    // Someone at another address is not affected.
    let neighbour = client_from(&app, "203.0.113.8");
    assert_eq!(neighbour.login("alice", &password_of("alice")).await.0, StatusCode::OK);
}

#[tokio::test]
async fn forwarded_addresses_are_ignored_unless_the_proxy_is_trusted() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    // Every attempt claims another address; without trust_proxy they all count as 127.0.0.1.
    for n in 0..PER_ADDRESS {
        let spoofer = client_from(&app, &format!("198.51.100.{n}"));
        let answer = spoofer.login(&format!("guess{n}"), "wrong-password").await;
        assert_error(&answer, StatusCode::UNAUTHORIZED, "Invalid password");
    }
    let answer = client_from(&app, "198.51.100.200")
        .login_answer("alice", &password_of("alice"))
        .await;
    assert_throttled(&answer);
}

/// `count` logins with a wrong password, each answered 401.
async fn fail_logins(client: &TestClient, id: &str, count: usize) {
    for _ in 0..count {
        let answer = client.login(id, "wrong-password").await;
        assert_error(&answer, StatusCode::UNAUTHORIZED, "Invalid password");
    }
}

#[track_caller]
fn assert_throttled(answer: &Answer) {
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{}", answer.body);
    let keys: Vec<&String> = answer.body.as_object().expect("a JSON object").keys().collect();
    assert_eq!(keys, ["error"]);
    assert!(!answer.body["error"].as_str().unwrap().is_empty());
    let retry_after: u64 = answer
        .headers
        .get(RETRY_AFTER)
        .expect("a Retry-After header")
        .to_str()
        .unwrap()
        .parse()
        .expect("Retry-After in whole seconds");
    assert!((1..=15 * 60).contains(&retry_after), "Retry-After {retry_after}");
    assert!(!answer.headers.contains_key(reqwest::header::SET_COOKIE));
}

/// A client whose requests arrive through a proxy that reports `addr` as the client.
fn client_from(app: &TestApp, addr: &str) -> TestClient {
    let mut headers = HeaderMap::new();
    headers.insert("x-forwarded-for", HeaderValue::from_str(addr).unwrap());
    TestClient {
        http: reqwest::Client::builder()
            .cookie_store(true)
            .default_headers(headers)
            .build()
            .unwrap(),
        base: app.url(""),
    }
}
