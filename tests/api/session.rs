//! `/api/me`, `/api/login`, `/api/logout`: answers, the `sid` cookie and the session lifecycle.

use lostfound::auth::set_password;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

#[tokio::test]
async fn me_is_null_without_a_session_and_the_user_with_one() {
    let app = spawn_app().await;
    assert_eq!(
        app.client().get("/api/me").await,
        (StatusCode::OK, json!({ "user": null }))
    );

    app.add_user("alice", false).await;
    app.add_user("boss", true).await;
    for (id, admin) in [("alice", false), ("boss", true)] {
        let client = app.client();
        let user = json!({ "id": id, "name": format!("Name of {id}"), "isAdmin": admin });
        let (status, body) = client.login(id, &password_of(id)).await;
        assert_eq!((status, body), (StatusCode::OK, json!({ "ok": true, "user": user })));
        assert_eq!(client.get("/api/me").await, (StatusCode::OK, json!({ "user": user })));
    }
}

#[tokio::test]
async fn login_without_a_usable_id_or_password_is_400() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let pw = password_of("alice");
    let bodies = [
        json!({}),
        json!({ "pw": pw }),
        json!({ "id": "alice" }),
        json!({ "id": "", "pw": pw }),
        json!({ "id": "alice", "pw": "" }),
        json!({ "id": null, "pw": pw }),
        json!({ "id": "alice", "pw": null }),
        json!({ "id": 42, "pw": pw }),
        json!({ "id": "alice", "pw": 12345678 }),
        json!({ "id": ["alice"], "pw": pw }),
        json!({ "id": "alice", "pw": { "value": pw } }),
        json!({ "id": true, "pw": false }),
    ];
    let client = app.client();
    for body in bodies {
        let answer = client.post("/api/login", body.clone()).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "ID and password required");
    }
    assert_eq!(client.get("/api/me").await.1, json!({ "user": null }));
    assert_eq!(app.session_count().await, 0);
}

#[tokio::test]
async fn wrong_password_and_unknown_id_get_the_same_401() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let client = app.client();
    let mut answers = Vec::new();
    for (id, pw) in [
        ("alice", "not-her-password"),
        ("nobody", "not-her-password"),
        ("no such id!", "x"),
    ] {
        let body = json!({ "id": id, "pw": pw });
        let (status, headers, text) = client
            .send_raw(client.request(reqwest::Method::POST, "/api/login").json(&body))
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(headers.get(reqwest::header::SET_COOKIE).is_none());
        answers.push(text);
    }
    assert_eq!(
        serde_json::from_str::<Value>(&answers[0]).unwrap(),
        json!({ "error": "Invalid password" })
    );
    assert_eq!(answers[0], answers[1], "unknown id must be indistinguishable");
    assert_eq!(answers[0], answers[2]);
    assert_eq!(app.session_count().await, 0);
}

#[tokio::test]
async fn the_session_cookie_is_http_only_lax_and_site_wide() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let answer = app.client().login_answer("alice", &password_of("alice")).await;
    assert_eq!(answer.status, StatusCode::OK);
    let attributes = cookie_attributes(&answer.sid_cookie());
    for expected in ["httponly", "samesite=lax", "path=/"] {
        assert!(attributes.iter().any(|a| a == expected), "{expected} in {attributes:?}");
    }
    assert!(!attributes.iter().any(|a| a == "secure"), "{attributes:?}");
    // At least 128 bits of randomness: base64 of 16 bytes is 22 characters.
    assert!(answer.sid().len() >= 22, "{}", answer.sid());
}

#[tokio::test]
async fn the_session_cookie_is_secure_behind_https() {
    let app = TestApp::start_with(TestDb::new().await, |config| {
        config.public_url = Some("https://lost.example.edu".into());
    })
    .await;
    app.add_user("alice", false).await;
    let answer = app.client().login_answer("alice", &password_of("alice")).await;
    assert_eq!(answer.status, StatusCode::OK);
    let attributes = cookie_attributes(&answer.sid_cookie());
    for expected in ["secure", "httponly", "samesite=lax", "path=/"] {
        assert!(attributes.iter().any(|a| a == expected), "{expected} in {attributes:?}");
    }
}

#[tokio::test]
async fn every_login_issues_a_new_sid_and_ends_the_old_one() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let client = app.client();
    let first = client.login_answer("alice", &password_of("alice")).await.sid();
    assert_eq!(app.user_for_sid(&first).await["id"], "alice");

    let second = client.login_answer("alice", &password_of("alice")).await.sid();
    assert_ne!(first, second);
    assert_eq!(app.user_for_sid(&second).await["id"], "alice");
    assert_eq!(
        app.user_for_sid(&first).await,
        Value::Null,
        "the replaced sid still works"
    );
    assert_eq!(client.get("/api/me").await.1["user"]["id"], "alice");
}

#[tokio::test]
async fn logout_destroys_the_session_server_side() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let client = app.client();
    let sid = client.login_answer("alice", &password_of("alice")).await.sid();

    assert_eq!(
        client.post("/api/logout", json!({})).await,
        (StatusCode::OK, json!({ "ok": true }))
    );
    assert_eq!(client.get("/api/me").await.1, json!({ "user": null }));
    assert_eq!(
        app.user_for_sid(&sid).await,
        Value::Null,
        "a replayed sid outlived logout"
    );
    assert_eq!(app.session_count().await, 0);
    // Logging out without a session is harmless.
    assert_eq!(
        app.client().post("/api/logout", json!({})).await,
        (StatusCode::OK, json!({ "ok": true }))
    );
}

#[tokio::test]
async fn the_database_holds_only_a_hash_of_the_sid() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let sid = app.client().login_answer("alice", &password_of("alice")).await.sid();
    let rows = app
        .db
        .sql(
            "SELECT token_hash || '|' || user_id || '|' || CAST(created_at AS TEXT) || '|' \
             || CAST(last_seen_at AS TEXT) FROM sessions",
        )
        .await;
    assert_eq!(rows.len(), 1);
    assert!(rows[0].contains("|alice|"), "{rows:?}");
    assert!(!rows[0].contains(&sid), "the raw sid is stored: {rows:?}");
}

#[tokio::test]
async fn a_session_idle_for_more_than_seven_days_has_expired() {
    let app = spawn_app().await;
    let client = app.logged_in("alice", false).await;
    app.db
        .sql("UPDATE sessions SET last_seen_at = last_seen_at - 6 * 86400000")
        .await;
    assert_eq!(
        client.get("/api/me").await.1["user"]["id"],
        "alice",
        "6 idle days must not expire"
    );

    app.db
        .sql("UPDATE sessions SET last_seen_at = last_seen_at - 8 * 86400000")
        .await;
    assert_eq!(client.get("/api/me").await.1, json!({ "user": null }));
    let answer = client.post("/api/items", item_body("Umbrella")).await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "Login required");
}

#[tokio::test]
async fn changing_the_password_ends_the_sessions() {
    let app = spawn_app().await;
    let laptop = app.logged_in("alice", false).await;
    let phone = app.client();
    assert_eq!(phone.login("alice", &password_of("alice")).await.0, StatusCode::OK);

    set_password(
        &app.store,
        &app.passwords,
        "alice",
        &new_password("a-brand-new-password"),
    )
    .await
    .unwrap();
    for client in [&laptop, &phone] {
        assert_eq!(client.get("/api/me").await.1, json!({ "user": null }));
    }
    let answer = app.client().login("alice", &password_of("alice")).await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "Invalid password");
    assert_eq!(laptop.login("alice", "a-brand-new-password").await.0, StatusCode::OK);
}

/// The attributes after `name=value`, lower-cased and without spaces.
fn cookie_attributes(set_cookie: &str) -> Vec<String> {
    set_cookie
        .split(';')
        .skip(1)
        .map(|a| a.trim().to_ascii_lowercase().replace(' ', ""))
        .collect()
}

#[tokio::test]
async fn a_user_sets_and_removes_their_email_address() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let none = json!({ "email": null, "pending": null });
    assert_eq!(alice.get("/api/me/email").await, (StatusCode::OK, none.clone()));
    // A new address waits for its verification (no email here: it waits, and nothing is sent).
    assert_eq!(
        alice.patch("/api/me", json!({ "email": " alice@uni.example " })).await,
        (
            StatusCode::OK,
            json!({ "ok": true, "email": null, "pending": "alice@uni.example", "lang": null })
        )
    );
    let pending = json!({ "email": null, "pending": "alice@uni.example" });
    assert_eq!(alice.get("/api/me/email").await.1, pending);
    assert_eq!(app.db.count("account_mail").await, 0);
    // The contract's user object is unchanged.
    assert_eq!(
        alice.get("/api/me").await.1,
        json!({ "user": { "id": "alice", "name": "Name of alice", "isAdmin": false } })
    );
    for bad in [
        json!({}),
        json!({ "email": 3 }),
        json!({ "email": "alice" }),
        json!({ "email": "a@b" }),
    ] {
        assert_error(
            &alice.patch("/api/me", bad).await,
            StatusCode::BAD_REQUEST,
            "Invalid email",
        );
    }
    assert_eq!(alice.get("/api/me/email").await.1, pending);
    assert_eq!(
        alice.patch("/api/me", json!({ "email": null })).await,
        (
            StatusCode::OK,
            json!({ "ok": true, "email": null, "pending": null, "lang": null })
        )
    );
    assert_eq!(alice.get("/api/me/email").await.1, none);
    assert_error(
        &app.client().patch("/api/me", json!({ "email": "x@uni.example" })).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(
        &app.client().get("/api/me/email").await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
}
