//! Throttling of failed logins: per account and address, turns per address and per account,
//! shared networks, and trusted devices — and never a lockout of the right person from
//! another address, nor of a campus behind one address.

use std::time::{Duration, Instant};

use reqwest::{
    StatusCode,
    header::{HeaderMap, HeaderValue, RETRY_AFTER},
};
use tokio::task::JoinSet;

use crate::helpers::*;

/// Failed logins allowed per account from one address in the window.
const PER_PAIR: usize = 5;
/// Failed logins per client address in the window before its attempts take turns.
const PER_ADDRESS: usize = 50;
/// Sign-ups or reset requests allowed per client address in the window.
const REQUESTS_PER_ADDRESS: usize = 20;
/// Attempts on one account before they take turns.
const FREE_PER_ACCOUNT: usize = 5;

#[tokio::test]
async fn failures_from_one_address_never_refuse_the_right_password_from_another() {
    let app = spawn_app().await;
    app.add_user("desk", true).await;
    app.add_user("bob", false).await;
    let attacker = client_at(&app, "127.0.0.2");
    fail_logins(&attacker, "desk", PER_PAIR).await;
    assert_throttled(&attacker.login_answer("desk", &password_of("desk")).await);
    // The same address may still try other accounts.
    assert_eq!(attacker.login("bob", &password_of("bob")).await.0, StatusCode::OK);

    // The front desk, at another address, logs in at once.
    let desk = client_at(&app, "127.0.0.3");
    assert_eq!(desk.login("desk", &password_of("desk")).await.0, StatusCode::OK);
    // And its success does not lift the attacker's lock.
    assert_throttled(
        &client_at(&app, "127.0.0.2")
            .login_answer("desk", &password_of("desk"))
            .await,
    );
}

#[tokio::test]
async fn the_throttle_survives_a_restart() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    fail_logins(&app.client(), "alice", PER_PAIR).await;

    let app = app.restart().await;
    assert_throttled(&app.client().login_answer("alice", &password_of("alice")).await);
}

#[tokio::test]
async fn a_successful_login_clears_the_count() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    fail_logins(&app.client(), "alice", PER_PAIR - 1).await;
    assert_eq!(
        app.client().login("alice", &password_of("alice")).await.0,
        StatusCode::OK
    );

    // A fresh allowance of failures for a browser that has not logged in, then the limit.
    let stranger = app.client();
    fail_logins(&stranger, "alice", PER_PAIR).await;
    assert_throttled(&stranger.login_answer("alice", &password_of("alice")).await);
}

#[tokio::test]
async fn concurrent_failures_all_count() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let mut attempts = JoinSet::new();
    for _ in 0..3 * PER_PAIR {
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
    assert!(refused_with_401 <= PER_PAIR, "{refused_with_401} passwords checked");
    assert_throttled(&app.client().login_answer("alice", &password_of("alice")).await);
}

/// A campus behind one NAT address: someone there guessing passwords across many ids is
/// slowed down, one turn at a time, and the people beside them still log in — at once, or
/// within seconds.
#[tokio::test]
async fn a_guesser_behind_a_shared_address_is_slowed_and_the_people_beside_them_get_in() {
    let app = spawn_app().await;
    app.add_user("student", false).await;
    let campus = "127.0.0.6";
    let guesser = client_at(&app, campus);
    for n in 0..=PER_ADDRESS {
        let answer = guesser.login(&format!("guess{n}"), "wrong-password").await;
        assert_error(&answer, StatusCode::UNAUTHORIZED, "Invalid password");
    }
    // A 52nd person there, in a browser that never logged in (no device cookie).
    let started = Instant::now();
    let answer = client_at(&app, campus).login("student", &password_of("student")).await;
    let took = started.elapsed();
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    eprintln!(
        "after {} failures from the address, a person there logged in in {took:?}",
        PER_ADDRESS + 1
    );
    assert!(took < Duration::from_secs(5), "the person waited {took:?}");

    // The guesser's next tries take turns, further apart each time: the second begins 500 ms
    // after the first, the third 1 s after the second.
    let started = Instant::now();
    fail_logins(&guesser, "guess-again", 3).await;
    assert!(
        started.elapsed() >= Duration::from_millis(1_450),
        "{:?}",
        started.elapsed()
    );
}

/// A network listed as shared gets its per-address limits multiplied by the factor; other
/// addresses keep theirs.
#[tokio::test]
async fn a_shared_network_gets_its_per_address_limits_multiplied() {
    let app = TestApp::start_with(TestDb::new().await, |config| {
        config.trust_proxy = true;
        config.limits.shared_networks = vec![lostfound::net::parse_network("203.0.113.0/24").unwrap()];
        config.limits.shared_network_factor = 2;
    })
    .await;
    let reset = |client: TestClient| async move {
        let body = serde_json::json!({ "email": "someone@uni.example" });
        client.post("/api/password-reset", body).await.0
    };
    for (address, allowed) in [
        ("203.0.113.9", 2 * REQUESTS_PER_ADDRESS),
        ("198.51.100.9", REQUESTS_PER_ADDRESS),
    ] {
        for _ in 0..allowed {
            assert_eq!(reset(client_from(&app, address)).await, StatusCode::OK, "{address}");
        }
        assert_eq!(
            reset(client_from(&app, address)).await,
            StatusCode::TOO_MANY_REQUESTS,
            "{address}"
        );
    }
}

#[tokio::test]
async fn forwarded_addresses_are_ignored_unless_the_proxy_is_trusted() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    // Every attempt claims another address; without trust_proxy they all count as 127.0.0.1,
    // so its attempts on alice reach the limit of one address.
    for n in 0..PER_PAIR {
        let spoofer = client_from(&app, &format!("198.51.100.{n}"));
        let answer = spoofer.login("alice", "wrong-password").await;
        assert_error(&answer, StatusCode::UNAUTHORIZED, "Invalid password");
    }
    let answer = client_from(&app, "198.51.100.200")
        .login_answer("alice", &password_of("alice"))
        .await;
    assert_throttled(&answer);
}

#[tokio::test]
async fn a_browser_that_logged_in_before_gets_in_while_its_address_and_account_are_attacked() {
    let app = spawn_app().await;
    app.add_user("desk", true).await;
    // The front desk's browser logged in before: it carries a device cookie.
    let desk = client_at(&app, "127.0.0.4");
    let first = desk.login_answer("desk", &password_of("desk")).await;
    let device = first
        .headers
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap())
        .find(|c| c.starts_with("lf_device="))
        .expect("a device cookie")
        .to_owned();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/api/login", "Max-Age="] {
        assert!(device.contains(attribute), "{device}");
    }
    assert_eq!(desk.post("/api/logout", serde_json::json!({})).await.0, StatusCode::OK);

    // Someone behind the same address locks the account there, and the address itself.
    let attacker = client_at(&app, "127.0.0.4");
    fail_logins(&attacker, "desk", PER_PAIR).await;
    for n in PER_PAIR..PER_ADDRESS {
        attacker.login(&format!("guess{n}"), "wrong-password").await;
    }
    assert_throttled(&attacker.login_answer("desk", &password_of("desk")).await);

    // The desk's browser still logs in; its own failures are bounded per device.
    assert_eq!(desk.login("desk", &password_of("desk")).await.0, StatusCode::OK);
    let mut device_refused = false;
    for _ in 0..12 {
        let answer = desk.login_answer("desk", "wrong-password").await;
        if answer.status == StatusCode::TOO_MANY_REQUESTS {
            device_refused = true;
            break;
        }
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    assert!(device_refused, "a trusted device may guess without end");
}

#[tokio::test]
async fn guessing_one_account_from_many_addresses_takes_turns_and_the_owner_still_gets_in() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    // Ten addresses guess at once: past the first five, attempts take turns.
    let mut guesses = JoinSet::new();
    for n in 0..10 {
        let guesser = client_at(&app, &format!("127.0.1.{}", n + 1));
        guesses.spawn(async move { guesser.login_answer("alice", "wrong-password").await.status });
    }
    while let Some(status) = guesses.join_next().await {
        let status = status.unwrap();
        assert!(
            status == StatusCode::UNAUTHORIZED || status == StatusCode::TOO_MANY_REQUESTS,
            "{status}"
        );
    }
    // The turns were spaced: 250 ms, then doubling, for each attempt past the free five.
    let turns = app
        .db
        .sql("SELECT CAST(not_before - window_start AS TEXT) FROM login_attempts WHERE throttle_key LIKE 'acct:%'")
        .await;
    let spread: i64 = turns[0].parse().unwrap();
    let least: i64 = (0..10 - FREE_PER_ACCOUNT as i64).map(|n| 250 << n).sum();
    // Each attempt reads the clock as it arrives, and the one that opens the window may
    // have read it a few milliseconds after another took the first turn.
    let skew = 50;
    assert!(
        spread >= least - skew,
        "turns {spread} ms apart in all, at least {least} expected"
    );

    // The owner, from an address of her own, is let in (after her turn).
    let owner = client_at(&app, "127.0.2.1");
    assert_eq!(owner.login("alice", &password_of("alice")).await.0, StatusCode::OK);
}

#[tokio::test]
async fn unlock_and_a_new_password_forget_the_failures() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let attacker = client_at(&app, "127.0.0.5");
    fail_logins(&attacker, "alice", PER_PAIR).await;
    assert_throttled(&attacker.login_answer("alice", &password_of("alice")).await);
    assert!(app.db.count("login_attempts").await > 0);
    lostfound::auth::unlock(&app.store, "alice").await.unwrap();
    assert_eq!(attacker.login("alice", &password_of("alice")).await.0, StatusCode::OK);

    fail_logins(&client_at(&app, "127.0.0.5"), "alice", PER_PAIR).await;
    lostfound::auth::set_password(&app.store, &app.passwords, "alice", &new_password("a-new-password"))
        .await
        .unwrap();
    assert_eq!(
        client_at(&app, "127.0.0.5").login("alice", "a-new-password").await.0,
        StatusCode::OK
    );
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
