//! Getting in without staff: sign-up with a verified address, the link that verifies it,
//! forgotten passwords, a user's own change of address, and answers that never tell who has
//! an account. Mail goes to the tests' own SMTP server; links are read from it.

use std::{
    net::Ipv4Addr,
    time::{Duration, Instant},
};

use lostfound::{auth::Token, config::SignupPolicy, time::now_ms};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{
    cli::command_with_env,
    helpers::*,
    mail::{PUBLIC_URL, mailing_to},
    smtp_sink::{Mode, SmtpSink, body, header, text_of},
};

/// A server whose sign-up follows `policy`, mailing through a sink of its own.
pub(crate) async fn signup_app(policy: SignupPolicy) -> (TestApp, SmtpSink) {
    let sink = SmtpSink::start(Mode::Up).await;
    let mailing = mailing_to(&sink);
    let app = TestApp::start_with(TestDb::new().await, |config| {
        mailing(config);
        config.accounts.signup = policy;
    })
    .await;
    (app, sink)
}

/// The messages sent to `address` so far.
fn mail_to(sink: &SmtpSink, address: &str) -> Vec<String> {
    sink.messages()
        .into_iter()
        .filter(|message| header(message, "To").is_some_and(|to| to.contains(address)))
        .collect()
}

/// Waits for the `n`th message to `address` (1 is the first) and returns it.
pub(crate) async fn nth_mail_to(sink: &SmtpSink, address: &str, n: usize) -> String {
    sink.wait_until(Duration::from_secs(10), |sink| mail_to(sink, address).len() >= n)
        .await;
    mail_to(sink, address).swap_remove(n - 1)
}

/// The token of the `PUBLIC_URL/#/<purpose>/TOKEN` link in `message`.
pub(crate) fn link_token(message: &str, purpose: &str) -> String {
    let text = body(message);
    let start = format!("{PUBLIC_URL}/#/{purpose}/");
    let at = text.find(&start).unwrap_or_else(|| panic!("no {start} link in {text}")) + start.len();
    let token: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    assert_eq!(token.len(), 43, "a 256-bit token in {text}");
    token
}

pub(crate) fn signup_body(id: &str, email: &str) -> Value {
    json!({ "id": id, "name": format!("Name of {id}"), "email": email, "password": format!("password-{id}") })
}

/// Signs `id` up with `email`, verifies the address with the mailed link (the `n`th message
/// to it), and returns the client the verification logged in.
pub(crate) async fn signed_up(app: &TestApp, sink: &SmtpSink, id: &str, email: &str) -> TestClient {
    let client = app.client();
    let answer = client.post("/api/signup", signup_body(id, email)).await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    let token = link_token(&nth_mail_to(sink, email, 1).await, "verify");
    let (status, answer) = client.post("/api/signup/verify", json!({ "token": token })).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    client
}

#[tokio::test]
async fn signing_up_mails_a_link_that_verifies_the_address_and_logs_in() {
    let (app, sink) = signup_app(SignupPolicy::Open).await;
    let (_, config) = app.client().get("/api/config").await;
    assert_eq!(
        config,
        json!({ "signup": true, "signupDomains": [], "oidc": null, "passwordReset": true, "office": null })
    );

    let nina = app.client();
    let answer = nina.post("/api/signup", signup_body("Nina", "nina@uni.example")).await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    // Not before the address is verified, with the right password or not.
    assert_error(
        &nina.login("nina", "password-Nina").await,
        StatusCode::FORBIDDEN,
        "Email not verified",
    );
    assert_error(
        &nina.login("nina", "wrong-password").await,
        StatusCode::UNAUTHORIZED,
        "Invalid password",
    );

    let message = nth_mail_to(&sink, "nina@uni.example", 1).await;
    assert_eq!(header(&message, "Subject").unwrap(), "Confirm your email address");
    let token = link_token(&message, "verify");
    let verified = nina
        .send(
            nina.request(reqwest::Method::POST, "/api/signup/verify")
                .json(&json!({ "token": token })),
        )
        .await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.body);
    assert_eq!(
        verified.body,
        json!({ "ok": true, "user": { "id": "Nina", "name": "Name of Nina", "isAdmin": false } })
    );
    assert!(verified.sid_cookie().contains("HttpOnly"));
    let (_, me) = nina.get("/api/me").await;
    assert_eq!(me["user"]["id"], "Nina");
    let (_, email) = nina.get("/api/me/email").await;
    assert_eq!(email, json!({ "email": "nina@uni.example", "pending": null }));

    // The link works once; ids are one account in any case, logged in by their stored spelling.
    assert_error(
        &app.client().post("/api/signup/verify", json!({ "token": token })).await,
        StatusCode::BAD_REQUEST,
        "Invalid or expired link",
    );
    let (status, login) = app.client().login("NINA", "password-Nina").await;
    assert_eq!(status, StatusCode::OK, "{login}");
    assert_eq!(login["user"]["id"], "Nina");
    assert_error(
        &app.client()
            .post("/api/signup", signup_body("nINA", "other@uni.example"))
            .await,
        StatusCode::CONFLICT,
        "Id already taken",
    );
}

#[tokio::test]
async fn an_address_that_has_an_account_gets_the_same_answer_and_a_mail_saying_so() {
    let (app, sink) = signup_app(SignupPolicy::Open).await;
    signed_up(&app, &sink, "omar", "omar@uni.example").await;
    let users = app.db.count("users").await;

    let answer = app
        .client()
        .post("/api/signup", signup_body("omar2", "OMAR@uni.example"))
        .await;
    assert_eq!(
        answer,
        (StatusCode::OK, json!({ "ok": true })),
        "the answer a new address gets"
    );
    // To the address as the account has it, not as typed.
    let notice = nth_mail_to(&sink, "omar@uni.example", 2).await;
    assert_eq!(header(&notice, "Subject").unwrap(), "You already have an account");
    assert!(body(&notice).contains("log in with that account"), "{notice}");
    assert!(!body(&notice).contains("/#/verify/"), "no link that verifies anything");
    // The id is taken as for a new address, and its account can never be verified.
    assert_eq!(app.db.count("users").await, users + 1);
    assert_error(
        &app.client().login("omar2", "password-omar2").await,
        StatusCode::FORBIDDEN,
        "Email not verified",
    );
}

#[tokio::test]
async fn sign_up_is_off_unless_configured_and_can_be_kept_to_email_domains() {
    let app = spawn_app().await;
    let (_, config) = app.client().get("/api/config").await;
    assert_eq!(config["signup"], false);
    assert_eq!(config["passwordReset"], false, "no email, no links");
    assert_error(
        &app.client()
            .post("/api/signup", signup_body("pia", "pia@uni.example"))
            .await,
        StatusCode::FORBIDDEN,
        "Sign-up is closed",
    );
    assert_eq!(app.db.count("users").await, 0);

    let policy = SignupPolicy::Domains(vec!["uni.example".into()]);
    let (app, sink) = signup_app(policy).await;
    let (_, config) = app.client().get("/api/config").await;
    assert_eq!(config["signupDomains"], json!(["uni.example"]));
    for refused in ["pia@mail.example", "pia@notuni.example", "pia@uni.example.evil.example"] {
        assert_error(
            &app.client().post("/api/signup", signup_body("pia", refused)).await,
            StatusCode::BAD_REQUEST,
            "Email domain not allowed",
        );
    }
    // A subdomain counts, in any case.
    signed_up(&app, &sink, "pia", "pia@Staff.UNI.example").await;

    // The rules of accounts, each with its own text, and nothing stored.
    let users = app.db.count("users").await;
    for (body, message) in [
        (
            json!({ "id": "quin", "name": "Quin", "email": "q@uni.example" }),
            "Required fields missing",
        ),
        (
            json!({ "id": "q u", "name": "Q", "email": "q@uni.example", "password": "long-enough" }),
            "User id must be 1-64 characters of letters, digits, '.', '_', '@' or '-'",
        ),
        (
            json!({ "id": "quin", "name": "Quin", "email": "q@uni.example", "password": "short" }),
            "Password must be at least 8 characters",
        ),
        (
            json!({ "id": "quin", "name": "Quin", "email": "not-an-address", "password": "long-enough" }),
            "Invalid email",
        ),
    ] {
        assert_error(
            &app.client().post("/api/signup", body).await,
            StatusCode::BAD_REQUEST,
            message,
        );
    }
    assert_eq!(app.db.count("users").await, users);
}

#[tokio::test]
async fn a_reset_link_sets_a_new_password_once_and_ends_every_session() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    let elsewhere = app.logged_in("rosa", false).await;
    assert!(app.store.set_email("rosa", Some("rosa@uni.example")).await.unwrap());

    let answer = app
        .client()
        .post("/api/password-reset", json!({ "email": "ROSA@uni.example" }))
        .await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    let message = nth_mail_to(&sink, "rosa@uni.example", 1).await;
    assert_eq!(header(&message, "Subject").unwrap(), "Set a new password");
    let token = link_token(&message, "reset");

    // A bad password leaves the link good.
    assert_error(
        &app.client()
            .post(
                "/api/password-reset/confirm",
                json!({ "token": token, "password": "short" }),
            )
            .await,
        StatusCode::BAD_REQUEST,
        "Password must be at least 8 characters",
    );
    let answer = app
        .client()
        .post(
            "/api/password-reset/confirm",
            json!({ "token": token, "password": "rosa-new-pass" }),
        )
        .await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    assert_eq!(
        elsewhere.get("/api/me").await.1,
        json!({ "user": null }),
        "her other sessions ended"
    );
    assert_error(
        &app.client().login("rosa", &password_of("rosa")).await,
        StatusCode::UNAUTHORIZED,
        "Invalid password",
    );
    assert_eq!(app.client().login("rosa", "rosa-new-pass").await.0, StatusCode::OK);

    // Used once, the link is spent; an expired one and a made-up one are refused alike.
    app.client()
        .post("/api/password-reset", json!({ "email": "rosa@uni.example" }))
        .await;
    let expired = link_token(&nth_mail_to(&sink, "rosa@uni.example", 2).await, "reset");
    app.db
        .sql(&format!(
            "UPDATE account_tokens SET expires_at = {} WHERE user_id = 'rosa'",
            now_ms() - 1
        ))
        .await;
    let made_up = Token::generate();
    for spent in [token.as_str(), expired.as_str(), made_up.value()] {
        assert_error(
            &app.client()
                .post(
                    "/api/password-reset/confirm",
                    json!({ "token": spent, "password": "rosa-third-pass" }),
                )
                .await,
            StatusCode::BAD_REQUEST,
            "Invalid or expired link",
        );
    }
    assert_eq!(app.client().login("rosa", "rosa-new-pass").await.0, StatusCode::OK);
}

#[tokio::test]
async fn no_mail_goes_to_an_address_nobody_verified() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    let sam = app.logged_in("sam", false).await;
    // A reset for an address no account has, and one for an address only waiting to be
    // verified: the same answer, and nothing sent.
    for address in ["nobody@uni.example", "sam@uni.example"] {
        if address == "sam@uni.example" {
            let (status, answer) = sam.patch("/api/me", json!({ "email": address })).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            assert_eq!(answer["pending"], address);
            nth_mail_to(&sink, address, 1).await; // the verification link, and only that
        }
        let answer = app
            .client()
            .post("/api/password-reset", json!({ "email": address }))
            .await;
        assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    }
    // Notifications wait for a verified address too: the approval of sam's report is not mailed.
    let item = sam.create_item(item_body("Blue scarf")).await;
    let admin = app.logged_in("office", true).await;
    let (status, _) = admin.patch(&item_path(&item), json!({ "status": "approved" })).await;
    assert_eq!(status, StatusCode::OK);
    app.mail_sender_ran_again().await;
    assert_eq!(mail_to(&sink, "nobody@uni.example").len(), 0);
    assert_eq!(mail_to(&sink, "sam@uni.example").len(), 1, "only the verification link");
}

#[tokio::test]
async fn a_new_address_is_used_only_once_verified_and_the_old_one_until_then() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    let tess = app.logged_in("tess", false).await;
    assert!(app.store.set_email("tess", Some("tess@old.example")).await.unwrap());

    let (status, answer) = tess.patch("/api/me", json!({ "email": "tess@new.example" })).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer,
        json!({ "ok": true, "email": "tess@old.example", "pending": "tess@new.example", "lang": null })
    );
    assert_eq!(
        tess.get("/api/me/email").await.1,
        json!({ "email": "tess@old.example", "pending": "tess@new.example" })
    );
    let token = link_token(&nth_mail_to(&sink, "tess@new.example", 1).await, "verify");
    // Reset links go to the address in use.
    app.client()
        .post("/api/password-reset", json!({ "email": "tess@new.example" }))
        .await;
    app.client()
        .post("/api/password-reset", json!({ "email": "tess@old.example" }))
        .await;
    nth_mail_to(&sink, "tess@old.example", 1).await;

    let (status, _) = tess.post("/api/signup/verify", json!({ "token": token })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        tess.get("/api/me/email").await.1,
        json!({ "email": "tess@new.example", "pending": null })
    );
    app.mail_sender_ran_again().await;
    assert_eq!(
        mail_to(&sink, "tess@new.example").len(),
        1,
        "no reset link went to the unverified address"
    );
}

/// The lower quartile of `samples`: what an answer costs when the machine is not busy with
/// something else (the suite runs many servers at once; their load lands on either side at
/// random, and a median of a few dozen samples moved by 30 % with it).
fn lower_quartile(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 4]
}

/// How long `path` takes to answer `body`, from a client at source address `from`.
async fn time_request(app: &TestApp, from: Ipv4Addr, path: &str, body: &Value) -> Duration {
    let client = client_at(app, &from.to_string());
    let started = Instant::now();
    let response = client.http.post(app.url(path)).json(body).send().await.unwrap();
    let elapsed = started.elapsed();
    assert_eq!(response.status(), StatusCode::OK, "{}", response.text().await.unwrap());
    elapsed
}

/// Asks `path` about known and unknown addresses in turn (`body_for(known, n)`), each from
/// a source address of its own so that no throttle is reached, and checks the two lower
/// quartiles are within 20% of each other.
async fn same_time_for_known_and_unknown(app: &TestApp, path: &str, body_for: impl Fn(bool, usize) -> Value) {
    const ROUNDS: usize = 24;
    let (mut known, mut unknown) = (Vec::new(), Vec::new());
    for n in 0..ROUNDS {
        let host = |k: usize| Ipv4Addr::new(127, 0, (n / 100) as u8 + 10, (2 * (n % 100) + k) as u8 + 2);
        // Alternating which goes first keeps warm-up and drift out of the comparison.
        let order = if n % 2 == 0 { [true, false] } else { [false, true] };
        for is_known in order {
            let took = time_request(app, host(usize::from(is_known)), path, &body_for(is_known, n)).await;
            if is_known { known.push(took) } else { unknown.push(took) }
        }
    }
    let (known, unknown) = (lower_quartile(known), lower_quartile(unknown));
    let ratio = known.as_secs_f64() / unknown.as_secs_f64();
    println!("{path}: lower quartile {known:?} for addresses with an account, {unknown:?} without ({ratio:.2})");
    assert!(
        (0.8..=1.25).contains(&ratio),
        "{path} tells addresses apart by time: {known:?} with an account, {unknown:?} without (lower quartiles)"
    );
}

#[tokio::test]
async fn known_and_unknown_addresses_take_the_same_time_to_answer() {
    let (app, _sink) = signup_app(SignupPolicy::Open).await;
    // Each known address its own account, as a prober would try a list of people.
    for n in 0..24 {
        let id = format!("known{n}");
        app.add_user(&id, false).await;
        assert!(
            app.store
                .set_email(&id, Some(&format!("{id}@uni.example")))
                .await
                .unwrap()
        );
    }
    let address = |known: bool, n: usize| {
        if known {
            format!("known{n}@uni.example")
        } else {
            format!("stranger{n}@uni.example")
        }
    };
    same_time_for_known_and_unknown(&app, "/api/signup", |known, n| {
        signup_body(&format!("{}new{n}", if known { "k" } else { "u" }), &address(known, n))
    })
    .await;
    same_time_for_known_and_unknown(
        &app,
        "/api/password-reset",
        |known, n| json!({ "email": address(known, n) }),
    )
    .await;
}

#[tokio::test]
async fn sign_up_and_reset_requests_are_throttled_per_address() {
    let (app, _sink) = signup_app(SignupPolicy::Open).await;
    let client = app.client();
    for n in 0..20 {
        let answer = client
            .post("/api/password-reset", json!({ "email": format!("p{n}@uni.example") }))
            .await;
        assert_eq!(answer.0, StatusCode::OK);
    }
    let refused = client
        .send(
            client
                .request(reqwest::Method::POST, "/api/password-reset")
                .json(&json!({ "email": "p@uni.example" })),
        )
        .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.body, json!({ "error": "Too many requests, try again later" }));
    assert!(refused.headers.contains_key("retry-after"));
    // Another kind of request from the same address has its own count.
    let answer = client
        .post("/api/signup", signup_body("vera", "vera@uni.example"))
        .await;
    assert_eq!(answer.0, StatusCode::OK);
}

/// What `lostfound user import` printed, failing the test unless it succeeded.
async fn import(app: &TestApp, file: &std::path::Path, env: &[(&str, &str)]) -> String {
    let output = command_with_env(app.db.url(), "user", &["import", file.to_str().unwrap()], env, None).await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[tokio::test]
async fn an_accounts_file_is_imported_once_and_each_new_account_is_mailed_a_link() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    app.add_user("alice", false).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("accounts.csv");
    std::fs::write(
        &file,
        "id,name,email,role\n\
         ada,Ada Lovelace,ada@uni.example,user\n\
         grace,\"Hopper, Grace\",grace@uni.example,admin\n\
         ALICE,Alice Again,alice@uni.example,user\n\
         bad id,Someone,,user\n\
         eve,Eve,not-an-address,user\n\
         ,No Id,x@uni.example,user\n",
    )
    .unwrap();
    let smtp = [
        ("LOSTFOUND_SMTP_URL", sink.url()),
        ("LOSTFOUND_MAIL_FROM", "Lost and found <lost@example.edu>".to_owned()),
    ];
    let smtp: Vec<(&str, &str)> = smtp.iter().map(|(k, v)| (*k, v.as_str())).collect();

    let report = import(&app, &file, &smtp).await;
    assert!(report.contains(": 2 created, 1 already there, 3 refused"), "{report}");
    assert!(report.contains("2 new accounts will be mailed a link"), "{report}");
    for refusal in ["line 5: User id must be", "line 6: Invalid email", "line 7: id missing"] {
        assert!(report.contains(refusal), "{refusal:?} missing from {report}");
    }
    // Idempotent: the same file again changes nothing and mails nobody.
    let again = import(&app, &file, &smtp).await;
    assert!(again.contains(": 0 created, 3 already there, 3 refused"), "{again}");

    // The server sends each new account its link; the link sets the password and verifies.
    let welcome = nth_mail_to(&sink, "grace@uni.example", 1).await;
    assert_eq!(header(&welcome, "Subject").unwrap(), "Your lost-and-found account");
    let token = link_token(&welcome, "reset");
    let answer = app
        .client()
        .post(
            "/api/password-reset/confirm",
            json!({ "token": token, "password": "grace-chosen-pass" }),
        )
        .await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    let (status, login) = app.client().login("grace", "grace-chosen-pass").await;
    assert_eq!(status, StatusCode::OK, "{login}");
    assert_eq!(
        login["user"],
        json!({ "id": "grace", "name": "Hopper, Grace", "isAdmin": true })
    );
    nth_mail_to(&sink, "ada@uni.example", 1).await;
    app.mail_sender_ran_again().await;
    assert_eq!(
        sink.messages().len(),
        2,
        "one link for each new account, none for alice"
    );
    assert_eq!(
        app.client().login("alice", &password_of("alice")).await.0,
        StatusCode::OK,
        "alice unchanged"
    );

    // Without email the accounts wait for staff to set a password, and the report says so.
    std::fs::write(&file, "hedy,Hedy Lamarr,hedy@uni.example,user\n").unwrap();
    let report = import(&app, &file, &[]).await;
    assert!(report.contains(": 1 created, 0 already there, 0 refused"), "{report}");
    assert!(report.contains("email is not set up"), "{report}");
}

/// Account mail goes out in the language its reader chose.
#[tokio::test]
async fn account_mail_is_written_in_the_readers_language() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    let rosa = app.logged_in("rosa", false).await;
    assert!(app.store.set_email("rosa", Some("rosa@uni.example")).await.unwrap());
    let (status, _) = rosa.patch("/api/me", json!({ "lang": "es" })).await;
    assert_eq!(status, StatusCode::OK);
    let answer = app
        .client()
        .post("/api/password-reset", json!({ "email": "rosa@uni.example" }))
        .await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    let message = nth_mail_to(&sink, "rosa@uni.example", 1).await;
    let text = text_of(&message);
    assert!(text.starts_with("Hola, Name of rosa:"), "{text}");
    assert!(
        text.contains("alguien ha pedido una contraseña nueva para tu cuenta de objetos perdidos «rosa»"),
        "{text}"
    );
    assert!(text.contains(&format!("{PUBLIC_URL}/#/reset/")), "{text}");
}
