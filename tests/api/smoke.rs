use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn report_review_and_read_an_item() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let admin = app.logged_in("admin", true).await;

    let (status, item) = alice.post("/api/items", item_body("Blue umbrella")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(item["status"], "pending");
    assert_eq!(item["createdBy"], "alice");
    let path = format!("/api/items/{}", item["id"]);

    let (status, updated) = admin
        .patch(&path, json!({ "status": "approved", "storagePlace": "Desk" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (updated["status"].as_str(), updated["storagePlace"].as_str()),
        (Some("approved"), Some("Desk"))
    );

    // Its reporter reads it whole; anyone else without where it is kept and who reported it.
    assert_eq!(alice.get(&path).await, (StatusCode::OK, updated.clone()));
    let (status, read) = app.client().get(&path).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read, in_public_view(&updated));
}

#[tokio::test]
async fn the_server_describes_its_api() {
    let app = spawn_app().await;
    let (status, document) = app.client().get("/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(document["openapi"], "3.1.0");
    for path in [
        "/api/items",
        "/api/items/{id}/claims",
        "/api/notifications/read",
        "/readyz",
    ] {
        assert!(document["paths"][path].is_object(), "{path} is not documented");
    }
    assert!(document["components"]["schemas"]["Item"].is_object());
}
