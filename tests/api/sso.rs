//! Single sign-on at a real OpenID provider (tests/oidc/provider.mjs), driven over HTTP: an
//! account linked to it signs in there only, with the role its groups give at each sign-on;
//! ID tokens signed with keys the service does not know make it fetch the keys again, but
//! not often. (Sign-ons after the provider rotated its keys: `multinode`.)

use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::json;

use crate::{
    helpers::*,
    mail::mailing_to,
    oidc::{Provider, STAFF_GROUP, browser, sign_on},
    smtp_sink::{Mode, SmtpSink, header},
};

/// The user `GET /api/me` answers `client` with.
async fn me(client: &TestClient) -> serde_json::Value {
    let (status, me) = client.get("/api/me").await;
    assert_eq!(status, StatusCode::OK);
    me["user"].clone()
}

#[tokio::test]
async fn an_account_linked_to_the_provider_has_no_password_and_its_role_follows_the_provider() {
    let provider = Provider::start(None).await;
    let sink = SmtpSink::start(Mode::Up).await;
    let mailing = mailing_to(&sink);
    let app = TestApp::start_with(TestDb::new().await, |config| {
        mailing(config);
        provider.configure(config);
    })
    .await;
    let olivia = browser(&app.url(""));
    assert_eq!(sign_on(&olivia, "olivia").await, "/");
    assert_eq!(
        me(&olivia).await,
        json!({ "id": "olivia", "name": "Olivia Officer", "isAdmin": true })
    );

    // "Forgot password?" for her address mails her nothing: there is no password to reset.
    let answer = app
        .client()
        .post("/api/password-reset", json!({ "email": "olivia@uni.example" }))
        .await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    app.mail_sender_ran_again().await;
    let to_olivia = sink
        .messages()
        .into_iter()
        .filter(|message| header(message, "To").is_some_and(|to| to.contains("olivia@uni.example")));
    assert_eq!(to_olivia.count(), 0, "no reset link");

    // Nor can staff give her one.
    let office = app.logged_in("office", true).await;
    assert_error(
        &office
            .post("/api/users/olivia/password", json!({ "password": "chosen-by-staff" }))
            .await,
        StatusCode::CONFLICT,
        "This account signs in with single sign-on",
    );

    // The provider drops her from the staff group. No password logs in to her account, not
    // even one stored for it before (as a reset link once could).
    provider.set_groups("sub-olivia", &["students"]).await;
    app.db
        .sql("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = 'office') WHERE id = 'olivia'")
        .await;
    for password in [password_of("office"), "chosen-by-staff".into()] {
        assert_error(
            &app.client().login("olivia", &password).await,
            StatusCode::UNAUTHORIZED,
            "Invalid password",
        );
    }
    // Signing on again, she is not staff any more; back in the group, she is again.
    let again = browser(&app.url(""));
    assert_eq!(sign_on(&again, "olivia").await, "/");
    assert_eq!(me(&again).await["isAdmin"], false);
    provider.set_groups("sub-olivia", &[STAFF_GROUP]).await;
    let staff_again = browser(&app.url(""));
    assert_eq!(sign_on(&staff_again, "olivia").await, "/");
    assert_eq!(me(&staff_again).await["isAdmin"], true);
}

#[tokio::test]
async fn tokens_signed_with_unknown_keys_fetch_the_keys_again_at_most_once_a_minute() {
    let provider = Provider::start(Some("unknown-key")).await;
    let app = TestApp::start_with(TestDb::new().await, |config| provider.configure(config)).await;
    // Sign-ons at once, then one after another, each with an ID token signed by a key the
    // provider never published.
    let signing_on = || async { sign_on(&browser(&app.url("")), "olivia").await };
    let mut landed = join_all((0..4).map(|_| signing_on())).await;
    for _ in 0..4 {
        landed.push(signing_on().await);
    }
    assert!(landed.iter().all(|page| page == "/#/sso-failed"), "{landed:?}");
    // Discovery fetched the keys; the first unknown key had them fetched once more, the
    // others not.
    assert_eq!(provider.jwks_requests().await, 2);
}

/// Where `GET /api/oidc/login` sends a browser at `from` (127.0.0.x).
async fn start_sign_on(app: &TestApp, from: &str) -> String {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .local_address(from.parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap();
    let response = browser.get(app.url("/api/oidc/login")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    response.headers()[reqwest::header::LOCATION]
        .to_str()
        .unwrap()
        .to_owned()
}

/// Each sign-on started keeps a row until the provider sends the browser back: one address
/// starting them without end is refused once past its limit (sent to the page that says
/// sign-on failed, as a browser is), and the rows stop growing; another address still signs on.
#[tokio::test]
async fn starting_sign_ons_is_limited_per_address() {
    let provider = Provider::start(None).await;
    let app = TestApp::start_with(TestDb::new().await, |config| provider.configure(config)).await;
    // 50 an address in 15 minutes (docs/api.md).
    let started = 50;
    for n in 0..started {
        let location = start_sign_on(&app, "127.0.0.1").await;
        assert!(location.starts_with(&provider.issuer), "sign-on {n}: {location}");
    }
    assert_eq!(start_sign_on(&app, "127.0.0.1").await, "/#/sso-failed");
    assert_eq!(app.db.count("oidc_logins").await, started);
    for _ in 0..20 {
        assert_eq!(start_sign_on(&app, "127.0.0.1").await, "/#/sso-failed");
    }
    assert_eq!(app.db.count("oidc_logins").await, started);

    assert!(start_sign_on(&app, "127.0.0.2").await.starts_with(&provider.issuer));
    assert_eq!(app.db.count("oidc_logins").await, started + 1);
}
