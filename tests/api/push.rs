//! Web Push, received and decrypted by a real receiver (tests/clients/push_receiver.mjs: a
//! push service and its devices, which checks the VAPID signature and decrypts each message
//! with the reference implementation of RFC 8188): the notices that go by email go to each of
//! a person's devices, in their words and with where the app shows them; a device its push
//! service says is gone is forgotten; a kind unsubscribed is not pushed either; a device
//! removed gets nothing; bad subscriptions are refused and change nothing.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::{process::Child, sync::mpsc};

use crate::{helpers::*, node::NodeScript};

/// The receiver as a child process: its devices' subscriptions, and what it printed since.
struct Receiver {
    devices: Vec<Value>,
    lines: mpsc::UnboundedReceiver<(String, Value)>,
    stderr: Arc<Mutex<String>>,
    _child: Child,
}

impl Receiver {
    /// Starts one with `devices` devices, those in `gone` answering 410.
    async fn start(devices: usize, gone: &[usize]) -> Self {
        let gone: Vec<String> = gone.iter().map(ToString::to_string).collect();
        let NodeScript {
            child,
            mut stdout,
            stderr,
        } = NodeScript::start(
            "tests/clients",
            "push_receiver.mjs",
            "http_ece",
            &[("DEVICES", &devices.to_string()), ("GONE", &gone.join(","))],
        );
        let (tx, lines) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok(Some(line)) = stdout.next_line().await {
                let (what, rest) = line.split_once(' ').expect("`what JSON`");
                let _ = tx.send((what.to_owned(), serde_json::from_str(rest).expect("JSON")));
            }
        });
        let mut receiver = Self {
            devices: Vec::new(),
            lines,
            stderr,
            _child: child,
        };
        let (what, devices) = receiver.next().await;
        assert_eq!(what, "devices");
        receiver.devices = devices.as_array().unwrap().clone();
        receiver
    }

    /// The next thing it printed: `push`, `gone` or `refused`, and what it says.
    async fn next(&mut self) -> (String, Value) {
        let line = tokio::time::timeout(Duration::from_secs(20), self.lines.recv()).await;
        match line {
            Ok(Some(line)) => line,
            _ => panic!("the receiver printed nothing more: {}", self.stderr.lock().unwrap()),
        }
    }

    /// The next message pushed, which must have been received whole: `(device, message)`.
    async fn next_push(&mut self) -> (u64, Value) {
        let (what, line) = self.next().await;
        assert_eq!(what, "push", "{line}");
        assert!(line["ttl"].as_u64().unwrap() >= 3600, "{line}");
        (line["device"].as_u64().unwrap(), line["message"].clone())
    }

    fn endpoint(&self, device: usize) -> &str {
        self.devices[device]["endpoint"].as_str().unwrap()
    }
}

/// Who the push services may write to, as the operator set it.
const CONTACT: &str = "mailto:lost@example.edu";

/// A server that lets devices name the receiver's plain-HTTP endpoints on loopback.
async fn app_pushing() -> TestApp {
    TestApp::start_with(TestDb::new().await, |config| {
        config.push.push_any_endpoint = true;
        config.push.push_contact = Some(CONTACT.into());
    })
    .await
}

/// The endpoints of `client`'s devices, as their copy of their data lists them.
async fn devices_of(client: &TestClient) -> Vec<String> {
    let (status, data) = client.get("/api/me/export").await;
    assert_eq!(status, StatusCode::OK, "{data}");
    data["pushDevices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|device| device["endpoint"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_notice_goes_to_each_device_encrypted_and_signed_and_a_gone_device_is_forgotten() {
    let mut receiver = Receiver::start(4, &[2]).await;
    let app = app_pushing().await;
    let (status, key) = app.client().get("/api/push/key").await;
    assert_eq!(status, StatusCode::OK, "{key}");
    assert_eq!(
        key["publicKey"].as_str().unwrap().len(),
        87,
        "65 bytes, base64url: {key}"
    );

    let office = app.logged_in("office", true).await;
    let ann = app.logged_in("ann", false).await;
    let bob = app.logged_in("bob", false).await;
    for (client, device) in [(&ann, 0), (&bob, 1), (&ann, 2), (&office, 3)] {
        let answer = client.post("/api/me/push", receiver.devices[device].clone()).await;
        assert_eq!(answer.0, StatusCode::CREATED, "{}", answer.1);
        assert_eq!(answer.1, json!({ "endpoint": receiver.endpoint(device) }));
    }
    assert_eq!(devices_of(&ann).await, [receiver.endpoint(0), receiver.endpoint(2)]);

    // Ann's report arrives: the desk is told it waits for review (a notice written with the
    // report, in place on SQLite).
    let item = ann.create_item(item_body("Blue umbrella")).await;
    let id = item["id"].as_i64().unwrap();
    let (device, message) = receiver.next_push().await;
    assert_eq!(device, 3);
    assert_eq!(message["url"], format!("#/items/{id}"), "{message}");

    // Approved: her notice, to each of her devices (no email is set up: push does not need
    // it); the gone one answers 410 and is forgotten.
    office.patch(&item_path(&item), json!({ "status": "approved" })).await;
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let (what, line) = receiver.next().await;
        seen.push(line["device"].as_u64().unwrap());
        match what.as_str() {
            "push" => {
                assert_eq!(line["device"], 0);
                let message = &line["message"];
                assert_eq!(message["title"], "Lost & Found");
                assert_eq!(
                    message["body"],
                    "Your report “Blue umbrella” is approved and visible to everyone."
                );
                assert_eq!(message["url"], format!("#/items/{id}"));
                assert_eq!(line["claims"]["sub"], CONTACT, "{line}");
            }
            "gone" => assert_eq!(line["device"], 2),
            _ => panic!("{what} {line}"),
        }
    }
    seen.sort_unstable();
    assert_eq!(seen, [0, 2]);
    let only_first = [receiver.endpoint(0)];
    eventually("the gone device is forgotten", Duration::from_secs(10), async || {
        devices_of(&ann).await == only_first
    })
    .await;

    // Bob's device got nothing of Ann's: the first it gets is his own notice.
    let his = bob.create_item(item_body("Red scarf")).await;
    office.patch(&item_path(&his), json!({ "status": "approved" })).await;
    let (device, message) = receiver.next_push().await;
    assert_eq!(device, 1);
    assert!(message["body"].as_str().unwrap().contains("Red scarf"), "{message}");
}

#[tokio::test]
async fn a_kind_chosen_not_to_be_emailed_is_not_pushed_and_a_removed_device_gets_nothing() {
    let mut receiver = Receiver::start(1, &[]).await;
    let app = app_pushing().await;
    let office = app.logged_in("office", true).await;
    let ann = app.logged_in("ann", false).await;
    ann.post("/api/me/push", receiver.devices[0].clone()).await;
    let item = ann.create_item(item_body("Blue umbrella")).await;
    let path = item_path(&item);

    // Not wanted: no push of that kind (the next push is of the kind she took back).
    ann.patch("/api/me/mail", json!({ "itemStatus": false })).await;
    office.patch(&path, json!({ "status": "rejected" })).await;
    ann.patch("/api/me/mail", json!({ "itemStatus": true })).await;
    office.patch(&path, json!({ "status": "approved" })).await;
    let (_, message) = receiver.next_push().await;
    assert!(message["body"].as_str().unwrap().contains("approved"), "{message}");

    // Removed: nothing while it is away; added again, the next notice is the first it gets.
    let answer = ann
        .delete_with("/api/me/push", json!({ "endpoint": receiver.endpoint(0) }))
        .await;
    assert_eq!(answer, (StatusCode::OK, json!({ "ok": true })));
    assert!(devices_of(&ann).await.is_empty());
    office.patch(&path, json!({ "status": "rejected" })).await;
    ann.post("/api/me/push", receiver.devices[0].clone()).await;
    office.patch(&path, json!({ "status": "approved" })).await;
    let (_, message) = receiver.next_push().await;
    assert!(message["body"].as_str().unwrap().contains("approved"), "{message}");
    // The bell had them all.
    let (_, notifications) = ann.get("/api/notifications").await;
    assert_eq!(notifications.as_array().unwrap().len(), 4, "{notifications}");
}

#[tokio::test]
async fn bad_subscriptions_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let ann = app.logged_in("ann", false).await;
    let key = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    let auth = "BTBZMqHH6r4Tts7J_aSIgg";
    let device = |endpoint: &str, p256dh: &str, auth: &str| json!({ "endpoint": endpoint, "keys": { "p256dh": p256dh, "auth": auth } });

    // Without a session.
    let answer = app
        .client()
        .post("/api/me/push", device("https://push.example.net/a", key, auth))
        .await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "Login required");
    // Endpoints the service must not be pointed at (loopback, this network's names, plain
    // HTTP), and keys that are not a point and a 16-byte secret.
    for endpoint in [
        "http://push.example.net/a",
        "https://127.0.0.1/a",
        "https://localhost/a",
        "https://[::1]:8443/a",
        "not a url",
    ] {
        let answer = ann.post("/api/me/push", device(endpoint, key, auth)).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid push endpoint");
    }
    for (p256dh, secret) in [(&key[..40], auth), (key, "AAAA"), (key, "")] {
        let answer = ann
            .post("/api/me/push", device("https://push.example.net/a", p256dh, secret))
            .await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid push keys");
    }
    let answer = ann.post("/api/me/push", json!({ "endpoint": 5 })).await;
    assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid push endpoint");
    assert!(devices_of(&ann).await.is_empty());

    // A good one; an account keeps its ten latest devices; a device subscribed from another
    // account moves there.
    for n in 0..12 {
        let answer = ann
            .post(
                "/api/me/push",
                device(&format!("https://push.example.net/{n}"), key, auth),
            )
            .await;
        assert_eq!(answer.0, StatusCode::CREATED, "{}", answer.1);
    }
    let kept = devices_of(&ann).await;
    assert_eq!(kept.len(), 10);
    assert_eq!(kept[0], "https://push.example.net/2");
    let bob = app.logged_in("bob", false).await;
    bob.post("/api/me/push", device("https://push.example.net/11", key, auth))
        .await;
    assert_eq!(devices_of(&bob).await, ["https://push.example.net/11"]);
    assert!(
        !devices_of(&ann)
            .await
            .contains(&"https://push.example.net/11".to_owned())
    );
    // Bob cannot remove Ann's device.
    bob.delete_with("/api/me/push", json!({ "endpoint": "https://push.example.net/5" }))
        .await;
    assert_eq!(devices_of(&ann).await.len(), 9);
}

#[tokio::test]
async fn with_push_off_there_is_no_key_and_no_device_is_taken() {
    let app = TestApp::start_with(TestDb::new().await, |config| config.push.push = false).await;
    let answer = app.client().get("/api/push/key").await;
    assert_error(&answer, StatusCode::NOT_FOUND, "Push messages are off on this service");
    let ann = app.logged_in("ann", false).await;
    let answer = ann
        .post(
            "/api/me/push",
            json!({ "endpoint": "https://push.example.net/a", "keys": { "p256dh": "x", "auth": "y" } }),
        )
        .await;
    assert_error(&answer, StatusCode::NOT_FOUND, "Push messages are off on this service");
}
