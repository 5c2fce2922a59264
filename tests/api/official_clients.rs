//! The official JavaScript client (default transports: long-polling, then the upgrade) and
//! python-socketio (each transport) through every event. The drivers in tests/clients
//! print what they saw; the assertions are here. `scripts/test` installs both clients.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use serde_json::{Value, json};

use crate::helpers::*;

fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

fn installed(path: PathBuf) -> PathBuf {
    assert!(
        path.exists(),
        "{} is missing: run scripts/test, which installs the test clients",
        path.display()
    );
    path
}

/// A server with an item to talk about and a full chat history of the longest messages,
/// so the history is far larger than one polling packet.
async fn seeded_app() -> (TestApp, i64) {
    let app = spawn_app().await;
    let reporter = app.logged_in("reporter", false).await;
    let (_, item) = reporter.post("/api/items", item_body("Red bicycle")).await;
    let long = "y".repeat(2_000);
    for n in 0..200 {
        app.store.insert_chat_message("Seed", &long, None, n).await.unwrap();
    }
    (app, item["id"].as_i64().unwrap())
}

async fn run_driver(program: &Path, args: &[String]) -> Value {
    let output = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::process::Command::new(program)
            .args(args)
            .current_dir(clients_dir())
            .output(),
    )
    .await
    .expect("client finished within 60 s")
    .expect("client started");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "client failed:\n{stdout}\n{stderr}");
    serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("client printed JSON")
}

fn assert_saw_every_event(seen: &Value, item_id: i64) {
    let history = seen["chatHistory"].as_array().expect("chat:history is an array");
    assert_eq!(history.len(), 200);
    assert_eq!(history[199]["text"].as_str().map(str::len), Some(2_000));

    let ok = json!({ "ok": true });
    assert_eq!(seen["chatSendAck"], ok);
    let chat_new = &seen["chatNew"];
    assert_eq!(
        chat_new[0], chat_new[1],
        "sender and other client got the same chat:new"
    );
    assert_eq!(
        (chat_new[0]["nick"].as_str(), chat_new[0]["text"].as_str()),
        (Some("Ann"), Some("hello from the official client"))
    );
    assert!(
        chat_new[0]["ts"]
            .as_str()
            .is_some_and(|ts| ts.len() == 24 && ts.ends_with('Z'))
    );

    assert_eq!(seen["threadJoinAck"], ok);
    assert_eq!(seen["threadHistory"], json!({ "itemId": item_id, "msgs": [] }));
    assert_eq!(seen["threadSendAck"], ok);
    let thread_new = &seen["threadNew"];
    assert_eq!(thread_new[0], thread_new[1]);
    assert_eq!(thread_new[0]["itemId"], item_id);
    assert_eq!(thread_new[0]["msg"]["text"], "is this mine?");

    assert_eq!(seen["badAck"], json!({ "ok": false, "error": "text is required" }));
    assert_eq!(seen["badError"], json!({ "message": "text is required" }));
    assert_eq!(
        seen["unknownItemAck"],
        json!({ "ok": false, "error": "Item not found" })
    );
    assert_eq!(seen["threadLeaveAck"], ok);
}

#[tokio::test]
async fn the_official_javascript_client_with_default_transports() {
    installed(clients_dir().join("node_modules/socket.io-client"));
    let (app, item_id) = seeded_app().await;
    let seen = run_driver(
        Path::new("node"),
        &["js_client.mjs".into(), app.url("/"), item_id.to_string()],
    )
    .await;
    assert_saw_every_event(&seen, item_id);
    assert_eq!(
        (seen["firstTransport"].as_str(), seen["finalTransport"].as_str()),
        (Some("polling"), Some("websocket"))
    );
}

#[tokio::test]
async fn python_socketio_on_each_transport() {
    let python = std::env::var_os("LOSTFOUND_TEST_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| installed(clients_dir().join(".venv/bin/python")));
    for transport in ["polling", "websocket"] {
        let (app, item_id) = seeded_app().await;
        let args = [
            "python_client.py".into(),
            app.url("/"),
            item_id.to_string(),
            transport.into(),
        ];
        let seen = run_driver(&python, &args).await;
        assert_saw_every_event(&seen, item_id);
        assert_eq!(seen["finalTransport"], transport);
    }
}
