//! Paths to an account that is not yours, closed: a link to a new address that logs its
//! holder in, a sign-up still waiting that captures a later one, answers that tell which
//! addresses have accounts, a removed account's id taken with its reports, links to set a
//! password that outlive a new one, and mail that floods one inbox or says what its requester
//! chose. (Accounts linked to single sign-on are tested with the provider, in the browser.)

use lostfound::config::SignupPolicy;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{
    cli::command_with_env,
    helpers::*,
    signup::{link_token, nth_mail_to, signed_up, signup_app, signup_body},
    smtp_sink::{body, header},
};

/// Asks `client` to verify with `token`; the answer, and whether it set a session cookie.
async fn verify(client: &TestClient, token: &str) -> (StatusCode, Value, bool) {
    let answer = client
        .send(
            client
                .request(reqwest::Method::POST, "/api/signup/verify")
                .json(&json!({ "token": token })),
        )
        .await;
    let sets_session = answer
        .headers
        .get_all("set-cookie")
        .iter()
        .any(|cookie| cookie.to_str().unwrap().starts_with("sid="));
    (answer.status, answer.body, sets_session)
}

#[tokio::test]
async fn a_link_to_a_new_address_confirms_it_for_its_account_only_and_logs_nobody_in() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    let staff = app.logged_in("office", true).await;
    let (status, answer) = staff.patch("/api/me", json!({ "email": "ofice@uni.example" })).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let token = link_token(&nth_mail_to(&sink, "ofice@uni.example", 1).await, "verify");

    // The owner of the mistyped address, with no cookie, and someone else logged in: refused,
    // no session, nothing changes, and the link stays good for its account.
    let stranger = app.client();
    let other = app.logged_in("mallory", false).await;
    for (who, client) in [("a stranger", &stranger), ("another account", &other)] {
        let (status, answer, sets_session) = verify(client, &token).await;
        assert_eq!(
            (status, answer),
            (
                StatusCode::FORBIDDEN,
                json!({ "error": "Log in to confirm this address" })
            ),
            "{who}"
        );
        assert!(!sets_session, "{who} got no session");
    }
    assert_eq!(stranger.get("/api/me").await.1, json!({ "user": null }));
    assert_eq!(other.get("/api/me").await.1["user"]["id"], "mallory");
    assert_eq!(
        staff.get("/api/me/email").await.1,
        json!({ "email": null, "pending": "ofice@uni.example" })
    );

    let (status, answer, sets_session) = verify(&staff, &token).await;
    assert_eq!(
        (status, answer),
        (StatusCode::OK, json!({ "ok": true, "email": "ofice@uni.example" }))
    );
    assert!(!sets_session, "the session in use stays");
    assert_eq!(
        staff.get("/api/me/email").await.1,
        json!({ "email": "ofice@uni.example", "pending": null })
    );
}

#[tokio::test]
async fn a_newer_sign_up_for_an_address_replaces_the_one_waiting_for_it() {
    let (app, sink) = signup_app(SignupPolicy::Open).await;
    let attacker = app.client();
    let answer = attacker
        .post("/api/signup", signup_body("alice", "alice@uni.example"))
        .await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    let attackers_link = link_token(&nth_mail_to(&sink, "alice@uni.example", 1).await, "verify");

    // The real Alice signs up with her address and another id, and opens the mail she gets.
    let alice = app.client();
    let answer = alice
        .post("/api/signup", signup_body("alice.w", "Alice@uni.example"))
        .await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    let her_link = link_token(&nth_mail_to(&sink, "Alice@uni.example", 1).await, "verify");
    let (status, answer, sets_session) = verify(&alice, &her_link).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(sets_session);
    assert_eq!(answer["user"]["id"], "alice.w", "the account she created");
    assert_eq!(
        app.client().login("alice.w", "password-alice.w").await.0,
        StatusCode::OK,
        "with her password"
    );

    // The sign-up she replaced is gone, its link with it, and its id is free again.
    let (status, answer, _) = verify(&app.client(), &attackers_link).await;
    assert_eq!(
        (status, answer),
        (StatusCode::BAD_REQUEST, json!({ "error": "Invalid or expired link" }))
    );
    assert_error(
        &app.client().login("alice", "password-alice").await,
        StatusCode::UNAUTHORIZED,
        "Invalid password",
    );
    let answer = app
        .client()
        .post("/api/signup", signup_body("alice", "a2@uni.example"))
        .await;
    assert_eq!(answer.0, StatusCode::OK, "{answer:?}");
}

#[tokio::test]
async fn the_sign_up_answer_and_its_id_say_nothing_of_the_address() {
    let (app, sink) = signup_app(SignupPolicy::Open).await;
    signed_up(&app, &sink, "kim", "kim@uni.example").await;
    // The same id, after a sign-up with a known address and with an unknown one: taken alike.
    for (id, address) in [("probe1", "kim@uni.example"), ("probe2", "nobody@uni.example")] {
        let answer = app.client().post("/api/signup", signup_body(id, address)).await;
        assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })), "{address}");
        assert_error(
            &app.client()
                .post("/api/signup", signup_body(id, "fresh@other.example"))
                .await,
            StatusCode::CONFLICT,
            "Id already taken",
        );
        assert_error(
            &app.client().login(id, &format!("password-{id}")).await,
            StatusCode::FORBIDDEN,
            "Email not verified",
        );
    }
}

#[tokio::test]
async fn an_erased_accounts_id_is_never_taken_again() {
    let (app, _sink) = signup_app(SignupPolicy::Open).await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Green scarf")).await;
    let staff = app.logged_in("office", true).await;
    app.store.erase_account("alice", 0).await.unwrap();

    // Nobody takes the id again, in any case, by signing up or being made an account.
    for id in ["alice", "ALICE"] {
        assert_error(
            &app.client()
                .post("/api/signup", signup_body(id, "new@uni.example"))
                .await,
            StatusCode::CONFLICT,
            "Id already taken",
        );
    }
    let (status, _) = staff
        .post(
            "/api/users",
            json!({ "id": "alice", "name": "New Alice", "password": "new-alice-pass" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Nor would it hold her reports: they are the anonymous account's.
    let reporter = staff.get(&item_path(&item)).await.1["createdBy"].clone();
    assert!(reporter.as_str().unwrap().starts_with("erased-"), "{reporter}");
}

#[tokio::test]
async fn an_import_retires_the_ids_its_reports_name_without_an_account() {
    let (app, _sink) = signup_app(SignupPolicy::Open).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("items.jsonl");
    std::fs::write(
        &file,
        r#"{"title":"Red umbrella","lat":51.52,"lng":-0.13,"createdBy":"ghost","createdAt":1700000000000}"#,
    )
    .unwrap();
    let output = command_with_env(app.db.url(), "items", &["import", file.to_str().unwrap()], &[], None).await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("1 ids that reports are filed under have no account: retired"),
        "{stdout}"
    );
    assert_error(
        &app.client()
            .post("/api/signup", signup_body("Ghost", "g@uni.example"))
            .await,
        StatusCode::CONFLICT,
        "Id already taken",
    );
}

#[tokio::test]
async fn a_new_password_or_a_new_address_ends_every_link_to_set_one() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    let rosa = app.logged_in("rosa", false).await;
    assert!(app.store.set_email("rosa", Some("rosa@uni.example")).await.unwrap());
    let reset = |n| {
        let (app, sink) = (&app, &sink);
        async move {
            let answer = app
                .client()
                .post("/api/password-reset", json!({ "email": "rosa@uni.example" }))
                .await;
            assert_eq!(answer.0, StatusCode::OK);
            link_token(&nth_mail_to(sink, "rosa@uni.example", n).await, "reset")
        }
    };
    let refused = async |token: &str| {
        assert_error(
            &app.client()
                .post(
                    "/api/password-reset/confirm",
                    json!({ "token": token, "password": "taken-over-pass" }),
                )
                .await,
            StatusCode::BAD_REQUEST,
            "Invalid or expired link",
        );
    };

    // Her own change of password.
    let before_password = reset(1).await;
    let (status, answer) = rosa
        .post(
            "/api/me/password",
            json!({ "current": password_of("rosa"), "password": "rosa-second-pass" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    refused(&before_password).await;

    // A new address, verified.
    let before_address = reset(2).await;
    let (status, _) = rosa.patch("/api/me", json!({ "email": "rosa@new.example" })).await;
    assert_eq!(status, StatusCode::OK);
    let confirm = link_token(&nth_mail_to(&sink, "rosa@new.example", 1).await, "verify");
    assert_eq!(verify(&rosa, &confirm).await.0, StatusCode::OK);
    refused(&before_address).await;

    // A new address set by staff.
    let staff = app.logged_in("office", true).await;
    let answer = app
        .client()
        .post("/api/password-reset", json!({ "email": "rosa@new.example" }))
        .await;
    assert_eq!(answer.0, StatusCode::OK);
    let before_staff = link_token(&nth_mail_to(&sink, "rosa@new.example", 2).await, "reset");
    let (status, _) = staff
        .patch("/api/users/rosa", json!({ "email": "rosa@third.example" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    refused(&before_staff).await;
    assert_eq!(app.client().login("rosa", "rosa-second-pass").await.0, StatusCode::OK);
}

#[tokio::test]
async fn spellings_of_one_mailbox_share_its_limit_of_mail() {
    let (app, sink) = signup_app(SignupPolicy::Open).await;
    let spellings = [
        "victim@uni.example",
        "\"victim\"@uni.example",
        "\"\\v\\ictim\"@uni.example",
        "VICTIM@uni.example",
        "Victim@UNI.EXAMPLE",
        "\"VICTIM\"@uni.example",
        "\"\\V\\I\\C\\T\\I\\M\"@uni.example",
        "victim+1@uni.example",
        "\"victim+2\"@uni.example",
        "ViCtIm@uni.example",
    ];
    for (n, spelling) in spellings.iter().enumerate() {
        let answer = app
            .client()
            .post("/api/signup", signup_body(&format!("bomb{n}"), spelling))
            .await;
        assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })), "{spelling}");
    }
    // Every one of them lands in the same inbox.
    sink.wait_until(std::time::Duration::from_secs(10), |sink| sink.messages().len() >= 5)
        .await;
    app.mail_sender_ran_again().await;
    assert_eq!(
        sink.messages().len(),
        5,
        "five an hour reach the mailbox, however it is spelt"
    );
}

#[tokio::test]
async fn changes_of_address_are_limited_and_mail_to_them_says_nothing_the_requester_chose() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    let staff = app.logged_in("office", true).await;
    let (status, _) = staff
        .post(
            "/api/users",
            json!({ "id": "prize", "name": "Prize desk: claim at http://evil.example", "password": "prize-desk-pass" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let prize = app.client();
    assert_eq!(prize.login("prize", "prize-desk-pass").await.0, StatusCode::OK);
    for n in 1..=5 {
        let (status, answer) = prize
            .patch("/api/me", json!({ "email": format!("target{n}@outside.example") }))
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let refused = prize
        .send(
            prize
                .request(reqwest::Method::PATCH, "/api/me")
                .json(&json!({ "email": "target6@outside.example" })),
        )
        .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.body, json!({ "error": "Too many requests, try again later" }));
    assert!(refused.headers.contains_key("retry-after"));
    // The language can still be changed.
    assert_eq!(prize.patch("/api/me", json!({ "lang": "es" })).await.0, StatusCode::OK);

    let message = nth_mail_to(&sink, "target1@outside.example", 1).await;
    for text in [header(&message, "To").unwrap(), body(&message)] {
        assert!(!text.contains("Prize") && !text.contains("evil"), "{text}");
        assert!(!text.contains("prize"), "not even the id: {text}");
    }
    app.mail_sender_ran_again().await;
    assert_eq!(sink.messages().len(), 5, "no mail for the refused change");
}
