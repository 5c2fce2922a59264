//! The API document the server serves (`GET /api/openapi.json`): valid by an independent
//! validator (`openapi-spec-validator`, which generated clients rely on), and equal to the
//! snapshot in docs/openapi.json, so that every change to the API shows as a reviewed diff.

use std::{path::Path, process::Stdio};

use reqwest::StatusCode;
use tokio::io::AsyncWriteExt;

use crate::helpers::*;

/// Set to `1` to write what the server serves into the snapshot instead of comparing.
const UPDATE: &str = "UPDATE_OPENAPI_SNAPSHOT";

/// The document as served, as text.
async fn served() -> String {
    let app = spawn_app().await;
    let response = reqwest::get(app.url("/api/openapi.json")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.unwrap()
}

#[tokio::test]
async fn the_served_document_is_valid_openapi() {
    let validator = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/.venv/bin/openapi-spec-validator");
    assert!(
        validator.exists(),
        "{} is missing: run scripts/test, which installs tests/clients/requirements.txt",
        validator.display()
    );
    let mut child = tokio::process::Command::new(&validator)
        .args(["--validation-errors", "all", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(served().await.as_bytes()).await.unwrap();
    drop(stdin);
    let output = child.wait_with_output().await.unwrap();
    assert!(
        output.status.success(),
        "openapi-spec-validator refuses the document:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test]
async fn the_served_document_is_the_snapshot_in_docs() {
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/openapi.json");
    let document: serde_json::Value = serde_json::from_str(&served().await).unwrap();
    // Pretty, one key a line, so that a change reads as a small diff.
    let expected = serde_json::to_string_pretty(&document).unwrap() + "\n";
    if std::env::var(UPDATE).is_ok_and(|v| v == "1") {
        std::fs::write(&snapshot, &expected).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&snapshot).unwrap_or_else(|err| format!("({err})"));
    if committed != expected {
        let (line, (was, is)) = committed
            .lines()
            .chain(std::iter::repeat(""))
            .zip(expected.lines().chain(std::iter::repeat("")))
            .enumerate()
            .find(|(_, (was, is))| was != is)
            .unwrap();
        panic!(
            "the API document the server serves differs from docs/openapi.json, first at line {}:\n\
             \x20 snapshot: {was}\n\
             \x20 served:   {is}\n\
             If the change to the API is meant, update the snapshot and commit it with the change:\n\
             \x20 {UPDATE}=1 cargo test --test api -- openapi::the_served_document_is_the_snapshot_in_docs\n\
             then review `git diff docs/openapi.json`.",
            line + 1
        );
    }
}
