//! Notifications by email, through an SMTP server the test runs: who gets one and what it
//! says, an outage with a restart in the middle, and two nodes sharing the outbox — every
//! message delivered exactly once.

use std::{
    collections::BTreeMap,
    time::{Duration, Instant},
};

use lostfound::config::{Config, SmtpUrl};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{
    helpers::*,
    smtp_sink::{Mode, SmtpSink, body, header, text_of},
};

pub const PUBLIC_URL: &str = "https://lost.example.edu";

/// Email through `sink`, from the office's address, with links to `PUBLIC_URL`.
pub fn mailing_to(sink: &SmtpSink) -> impl FnOnce(&mut Config) + use<> {
    let url = sink.url();
    move |config| {
        config.mail.smtp_url = Some(SmtpUrl(url));
        config.mail.mail_from = Some("Lost and found <lost@example.edu>".into());
        config.public_url = Some(PUBLIC_URL.into());
    }
}

/// A new account with `email` (if any, set as staff set it: in use at once), and a lost
/// report of theirs.
async fn reporter(app: &TestApp, id: &str, email: Option<&str>) -> (TestClient, Value) {
    let client = app.logged_in(id, false).await;
    if let Some(email) = email {
        assert!(app.store.set_email(id, Some(email)).await.unwrap());
    }
    let item = client.create_item(item_body(&format!("Umbrella of {id}"))).await;
    (client, item)
}

async fn approve(admin: &TestClient, item: &Value) {
    let (status, answer) = admin.patch(&item_path(item), json!({ "status": "approved" })).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

/// How many times each recipient and each `Message-ID` occur in `messages`.
fn tally(messages: &[String]) -> (BTreeMap<String, usize>, BTreeMap<String, usize>) {
    let (mut to, mut ids) = (BTreeMap::new(), BTreeMap::new());
    for message in messages {
        *to.entry(header(message, "To").unwrap()).or_default() += 1;
        *ids.entry(header(message, "Message-ID").unwrap()).or_default() += 1;
    }
    (to, ids)
}

async fn wait_for_empty_outbox(app: &TestApp) {
    let start = Instant::now();
    while app.db.count("mail_outbox").await > 0 {
        assert!(start.elapsed() < Duration::from_secs(10), "the outbox stays full");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The mail this node queues goes at once, woken by the change that queued it: with the
/// outbox looked at only once an hour otherwise, a notification's email and a reset link
/// arrive within seconds.
#[tokio::test]
async fn mail_queued_here_is_sent_without_waiting_for_the_next_look() {
    let sink = SmtpSink::start(Mode::Up).await;
    let app = TestApp::start_with(TestDb::new().await, |config| {
        mailing_to(&sink)(config);
        config.mail.mail_poll_seconds = 3600;
    })
    .await;
    let admin = app.logged_in("office", true).await;
    let (_alice, lost) = reporter(&app, "alice", Some("alice@example.edu")).await;
    // The sender's first look is over: from now on only a wake-up sends anything soon.
    let mut progress = app.mail_progress.clone();
    tokio::time::timeout(Duration::from_secs(20), progress.wait_for(|p| p.passes_finished > 0))
        .await
        .expect("the mail sender looks once at start")
        .unwrap();
    approve(&admin, &lost).await;
    sink.wait_until(Duration::from_secs(10), |sink| sink.messages().len() == 1)
        .await;

    let answer = app
        .client()
        .post("/api/password-reset", json!({ "email": "alice@example.edu" }))
        .await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    sink.wait_until(Duration::from_secs(10), |sink| sink.messages().len() == 2)
        .await;
    assert_eq!(header(&sink.messages()[1], "Subject").unwrap(), "Set a new password");
}

#[tokio::test]
async fn users_with_an_address_are_emailed_their_notifications() {
    let sink = SmtpSink::start(Mode::Up).await;
    let app = TestApp::start_with(TestDb::new().await, mailing_to(&sink)).await;
    let admin = app.logged_in("office", true).await;
    let (alice, lost) = reporter(&app, "alice", Some("alice@example.edu")).await;
    let (_bob, other) = reporter(&app, "bob", None).await;
    approve(&admin, &lost).await;
    approve(&admin, &other).await;

    sink.wait_until(Duration::from_secs(10), |sink| !sink.messages().is_empty())
        .await;
    wait_for_empty_outbox(&app).await;
    let messages = sink.messages();
    assert_eq!(messages.len(), 1, "bob has no address: {messages:?}");
    let mail = &messages[0];
    assert_eq!(header(mail, "To").unwrap(), "\"Name of alice\" <alice@example.edu>");
    assert_eq!(header(mail, "From").unwrap(), "\"Lost and found\" <lost@example.edu>");
    let notification = alice.get("/api/notifications").await.1[0].clone();
    let message_id = header(mail, "Message-ID").unwrap();
    assert!(
        message_id.starts_with(&format!("<notification.{}.", notification["id"]))
            && message_id.ends_with("@example.edu>"),
        "{message_id}"
    );
    assert!(header(mail, "Subject").is_some());
    assert!(header(mail, "Date").is_some());
    let text = body(mail);
    assert!(text.contains(&format!("{PUBLIC_URL}/#/items/{}", lost["id"])), "{text}");
    assert!(text.contains("Umbrella of alice"), "{text}");

    // Without an address, nothing more is queued or sent.
    assert_eq!(
        alice.patch("/api/me", json!({ "email": null })).await,
        (
            StatusCode::OK,
            json!({ "ok": true, "email": null, "pending": null, "lang": null })
        )
    );
    let (status, _) = admin
        .patch(&item_path(&lost), json!({ "storagePlace": "Desk 4" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(alice.get("/api/notifications").await.1.as_array().unwrap().len(), 2);
    assert_eq!(app.db.count("mail_outbox").await, 0);
    app.mail_sender_ran_again().await;
    assert_eq!(sink.messages().len(), 1);
    assert_eq!(app.mail_progress.borrow().sent, 1);
}

/// A new report's review notice is emailed to whoever reviews it, written with the report (in
/// place on SQLite, in the report's one statement on PostgreSQL); the reports after it within
/// the window count in the same notification and send nothing more.
#[tokio::test]
async fn a_new_reports_review_notice_is_emailed_to_its_reviewer_once() {
    let sink = SmtpSink::start(Mode::Up).await;
    let app = TestApp::start_with(TestDb::new().await, mailing_to(&sink)).await;
    let admin = app.logged_in("office", true).await;
    assert!(app.store.set_email("office", Some("office@example.edu")).await.unwrap());
    let (_alice, first) = reporter(&app, "alice", None).await;

    sink.wait_until(Duration::from_secs(10), |sink| !sink.messages().is_empty())
        .await;
    wait_for_empty_outbox(&app).await;
    let messages = sink.messages();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert_eq!(
        header(&messages[0], "To").unwrap(),
        "\"Name of office\" <office@example.edu>"
    );
    let text = body(&messages[0]);
    assert!(text.contains("1 new report waits for review."), "{text}");
    assert!(
        text.contains(&format!("{PUBLIC_URL}/#/items/{}", first["id"])),
        "{text}"
    );

    let (_bob, _) = reporter(&app, "bob", None).await;
    let told = admin.get("/api/notifications").await.1;
    let texts: Vec<_> = told.as_array().unwrap().iter().map(|n| n["text"].clone()).collect();
    assert_eq!(texts, [json!("2 new reports wait for review.")]);
    assert_eq!(app.db.count("mail_outbox").await, 0);
    app.mail_sender_ran_again().await;
    assert_eq!(sink.messages().len(), 1);
}

#[tokio::test]
async fn without_an_smtp_server_nothing_is_queued() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let (alice, lost) = reporter(&app, "alice", Some("alice@example.edu")).await;
    approve(&admin, &lost).await;
    assert_eq!(alice.get("/api/notifications").await.1.as_array().unwrap().len(), 1);
    assert_eq!(app.db.count("mail_outbox").await, 0);
}

#[tokio::test]
async fn an_smtp_outage_and_a_restart_lose_and_duplicate_nothing() {
    const USERS: usize = 8;
    let sink = SmtpSink::start(Mode::Busy).await;
    let app = TestApp::start_with(TestDb::new().await, mailing_to(&sink)).await;
    let admin = app.logged_in("office", true).await;
    let start = Instant::now();
    for n in 0..USERS {
        let (_, item) = reporter(&app, &format!("user{n}"), Some(&format!("user{n}@example.edu"))).await;
        approve(&admin, &item).await;
    }

    // The server refuses each message for now; all stay queued.
    sink.wait_until(Duration::from_secs(20), |sink| sink.refused() >= USERS)
        .await;
    assert_eq!(sink.messages().len(), 0);
    assert_eq!(app.db.count("mail_outbox").await, USERS);

    // A restart in the middle of the outage, which goes on: the server now hangs up.
    sink.set_mode(Mode::Down);
    let refused_before_restart = sink.refused();
    let app = app.restart_with(mailing_to(&sink)).await;
    sink.wait_until(Duration::from_secs(20), |sink| sink.refused() > refused_before_restart)
        .await;
    assert_eq!(app.db.count("mail_outbox").await, USERS);
    let outage = start.elapsed();

    sink.set_mode(Mode::Up);
    let recovered = Instant::now();
    sink.wait_until(Duration::from_secs(60), |sink| sink.messages().len() >= USERS)
        .await;
    let delivered_in = recovered.elapsed();
    wait_for_empty_outbox(&app).await;
    // Nothing taken before the outbox emptied is still on its way.
    app.mail_sender_ran_again().await;

    let messages = sink.messages();
    let (to, ids) = tally(&messages);
    assert_eq!(messages.len(), USERS, "{to:?}");
    assert_eq!(to.len(), USERS, "one message for each: {to:?}");
    assert_eq!(ids.len(), USERS, "{ids:?}");
    eprintln!(
        "email outage: {USERS} messages, {} refusals over {:.1} s with a restart, all {} delivered {:.1} s after the SMTP server came back, none twice",
        sink.refused(),
        outage.as_secs_f64(),
        messages.len(),
        delivered_in.as_secs_f64()
    );
}

#[tokio::test]
async fn two_nodes_share_the_outbox_and_send_each_message_once() {
    const USERS: usize = 12;
    // The SMTP server keeps every connection waiting: each node's sender takes a message
    // and waits on it, so both are seen sending at the same time.
    let sink = SmtpSink::start(Mode::Hold).await;
    let first = TestApp::start_with(TestDb::new().await, mailing_to(&sink)).await;
    let second = first.another_node_with(mailing_to(&sink)).await;
    let admin = first.logged_in("office", true).await;
    for n in 0..USERS {
        // Half the reports are approved on each node.
        let node = if n % 2 == 0 { &first } else { &second };
        let (_, item) = reporter(node, &format!("user{n}"), Some(&format!("user{n}@example.edu"))).await;
        approve(&admin.at(node), &item).await;
    }
    sink.wait_until(Duration::from_secs(20), |sink| sink.held() >= 2).await;

    sink.set_mode(Mode::Up);
    sink.wait_until(Duration::from_secs(60), |sink| sink.messages().len() >= USERS)
        .await;
    wait_for_empty_outbox(&first).await;
    // Nothing either node took before the outbox emptied is still on its way.
    first.mail_sender_ran_again().await;
    second.mail_sender_ran_again().await;
    let messages = sink.messages();
    let (to, ids) = tally(&messages);
    assert_eq!((messages.len(), to.len(), ids.len()), (USERS, USERS, USERS), "{to:?}");
    let sent = [first.mail_progress.borrow().sent, second.mail_progress.borrow().sent];
    assert!(sent.iter().all(|n| *n > 0), "both nodes sent: {sent:?}");
    assert_eq!(sent.iter().sum::<u64>(), USERS as u64);
}

/// A disabled account gets no mail: a disabled administrator is not told of claims, not
/// even by mail queued before it was disabled; the others are.
#[tokio::test]
async fn a_disabled_administrator_gets_no_mail() {
    let sink = SmtpSink::start(Mode::Hold).await;
    let app = TestApp::start_with(TestDb::new().await, mailing_to(&sink)).await;
    let office = app.logged_in("office", true).await;
    app.add_user("gone", true).await;
    for (id, address) in [("office", "office@uni.example"), ("gone", "gone@uni.example")] {
        assert!(app.store.set_email(id, Some(address)).await.unwrap());
    }
    let owner = app.logged_in("owner", false).await;
    // Logged at the desk: no report waits for review, so only the claims are told.
    let claim_on = async |title: &str| {
        let item = office
            .create_item(json!({ "title": title, "kind": "found", "status": "approved", "lat": 51.5, "lng": -0.12 }))
            .await;
        let (status, claim) = owner
            .post(
                &format!("{}/claims", item_path(&item)),
                json!({ "message": "It is mine" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{claim}");
    };
    // A claim told to both administrators, queued while the SMTP server holds it back; then
    // one of them is disabled before it is sent.
    claim_on("Grey backpack").await;
    assert_eq!(app.db.count("mail_outbox").await, 2);
    let (status, _) = office.patch("/api/users/gone", json!({ "disabled": true })).await;
    assert_eq!(status, StatusCode::OK);
    claim_on("Black umbrella").await;
    sink.set_mode(Mode::Up);
    wait_for_empty_outbox(&app).await;
    let (to, _) = tally(&sink.messages());
    assert!(to.keys().all(|to| !to.contains("gone@uni.example")), "{to:?}");
    assert_eq!(
        to.values().sum::<usize>(),
        2,
        "one mail to office for each claim: {to:?}"
    );
}

/// Mail goes out in the language its reader chose (`PATCH /api/me { lang }`).
#[tokio::test]
async fn mail_is_written_in_the_readers_language() {
    let sink = SmtpSink::start(Mode::Up).await;
    let app = TestApp::start_with(TestDb::new().await, mailing_to(&sink)).await;
    let admin = app.logged_in("office", true).await;
    let (alice, lost) = reporter(&app, "alice", Some("alice@example.edu")).await;
    let (status, saved) = alice.patch("/api/me", json!({ "lang": "ko" })).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["lang"], "ko");
    assert_eq!(saved["email"], "alice@example.edu");
    for bad in [json!("KO"), json!("fr"), json!(3), json!(null)] {
        assert_error(
            &alice.patch("/api/me", json!({ "lang": bad })).await,
            StatusCode::BAD_REQUEST,
            "Invalid lang",
        );
    }
    approve(&admin, &lost).await;
    sink.wait_until(Duration::from_secs(10), |sink| !sink.messages().is_empty())
        .await;
    let text = text_of(&sink.messages()[0]);
    assert!(
        text.contains("신고하신 “Umbrella of alice”가 승인되어 모두에게 공개되었습니다."),
        "{text}"
    );
    assert!(text.contains("분실물 센터 계정에"), "{text}");
    // The list says the words in English, or in the language it is asked for.
    let (_, listed) = alice.get("/api/notifications").await;
    assert_eq!(
        listed[0]["text"],
        "Your report “Umbrella of alice” is approved and visible to everyone."
    );
    let (_, korean) = alice.get("/api/notifications?lang=ko").await;
    assert_eq!(
        korean[0]["text"],
        "신고하신 “Umbrella of alice”가 승인되어 모두에게 공개되었습니다."
    );
    let (_, spanish) = alice.get("/api/notifications?lang=es").await;
    assert_eq!(
        spanish[0]["text"],
        "Tu aviso «Umbrella of alice» ha sido aprobado y es visible para todos."
    );
    assert_error(
        &alice.get("/api/notifications?lang=fr").await,
        StatusCode::BAD_REQUEST,
        "Invalid lang",
    );
}

/// A reply in an item's thread is emailed to its reporter at most once an hour per thread;
/// the bell has every one.
#[tokio::test]
async fn thread_replies_are_emailed_at_most_once_an_hour_per_thread() {
    let sink = SmtpSink::start(Mode::Up).await;
    let app = TestApp::start_with(TestDb::new().await, mailing_to(&sink)).await;
    let admin = app.logged_in("office", true).await;
    let (alice, lost) = reporter(&app, "alice", Some("alice@example.edu")).await;
    approve(&admin, &lost).await;
    sink.wait_until(Duration::from_secs(10), |sink| sink.messages().len() == 1)
        .await;
    let item = lost["id"].as_i64().unwrap();
    let cookie = session_cookie(&app, "office").await;
    let socket = crate::sio::Sio::connect_with(&app, crate::sio::Transport::Websocket, &[("Cookie", &cookie)]).await;
    let write = async |text: &str| {
        let ack = socket
            .call(
                "thread:send",
                json!({ "itemId": item, "nick": "Front desk", "text": text }),
            )
            .await;
        assert_eq!(ack, json!({ "ok": true }));
    };

    write("Is it black?").await;
    write("It has a wooden handle?").await;
    wait_for_empty_outbox(&app).await;
    let replies = |list: &Value| {
        list.as_array()
            .unwrap()
            .iter()
            .filter(|n| n["type"] == "threadReply")
            .count()
    };
    assert_eq!(replies(&alice.get("/api/notifications").await.1), 2);
    let messages = sink.messages();
    assert_eq!(messages.len(), 2, "one email for two replies");
    let text = text_of(&messages[1]);
    assert!(
        text.contains("Front desk wrote in the thread of “Umbrella of alice”."),
        "{text}"
    );

    // An hour later, the next reply is emailed again.
    app.db
        .sql("UPDATE thread_mail SET mailed_at = mailed_at - 3600000 RETURNING user_id")
        .await;
    write("We have it at the desk.").await;
    sink.wait_until(Duration::from_secs(10), |sink| sink.messages().len() == 3)
        .await;
    assert_eq!(replies(&alice.get("/api/notifications").await.1), 3);
    socket.disconnect().await;
}
