//! `GET /api/items.csv`: staff only, the list's filters, every selected item once across
//! batches, text a spreadsheet shows as text.

use lostfound::domain::NewItem;
use reqwest::{StatusCode, header};
use serde_json::json;

use crate::helpers::*;

/// The export's rows (header first), read by a CSV parser.
async fn export(client: &TestClient, query: &str) -> Vec<Vec<String>> {
    let (status, headers, body) = client
        .send_raw(client.request(reqwest::Method::GET, &format!("/api/items.csv{query}")))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(headers[header::CONTENT_TYPE], "text/csv; charset=utf-8");
    assert!(
        headers[header::CONTENT_DISPOSITION]
            .to_str()
            .unwrap()
            .starts_with("attachment")
    );
    csv::Reader::from_reader(body.as_bytes())
        .into_records()
        .map(|record| record.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

#[tokio::test]
async fn staff_export_the_items_a_filter_selects() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    assert_error(
        &app.client().get("/api/items.csv").await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(
        &alice.get("/api/items.csv").await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );

    let tricky = alice
        .create_item(json!({ "title": "=HYPERLINK(\"http://evil\")", "desc": "a, \"quoted\"\nsecond line", "lat": 51.5, "lng": -0.1 }))
        .await;
    let found = alice
        .create_item(json!({ "title": "Blue umbrella", "kind": "found", "lat": 51.5, "lng": -0.1 }))
        .await;
    admin
        .patch(
            &item_path(&found),
            json!({ "status": "approved", "storagePlace": "Desk 2" }),
        )
        .await;

    let rows = export(&admin, "").await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    let id = tricky["id"].as_i64().unwrap().to_string();
    let row = rows.iter().find(|row| row[0] == id).unwrap();
    assert_eq!(row[3], "'=HYPERLINK(\"http://evil\")", "a formula stays text");
    assert_eq!(row[4], "a, \"quoted\"\nsecond line");
    assert_eq!((row[1].as_str(), row[2].as_str()), ("lost", "pending"));

    let rows = export(&admin, "?kind=found&status=approved&limit=1&fields=id").await;
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0][3].as_str(), rows[0][9].as_str()), ("Blue umbrella", "Desk 2"));
    assert_error(
        &admin.get("/api/items.csv?status=lost").await,
        StatusCode::BAD_REQUEST,
        "Invalid status",
    );
}

#[tokio::test]
async fn a_long_export_has_every_item_once_and_a_header() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    const ITEMS: i64 = 1_234;
    for n in 0..ITEMS {
        let body = json!({ "title": format!("Item {n}"), "lat": 51.5, "lng": -0.1 });
        let item = NewItem::parse(body.as_object().unwrap()).unwrap();
        let _ = app.store.insert_item(item, "office", n).await.unwrap().unheard();
    }
    let (status, _, body) = admin
        .send_raw(admin.request(reqwest::Method::GET, "/api/items.csv"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    assert_eq!(reader.headers().unwrap().get(0), Some("id"));
    let mut ids: Vec<i64> = reader.records().map(|r| r.unwrap()[0].parse().unwrap()).collect();
    assert_eq!(ids.len(), ITEMS as usize);
    ids.dedup();
    assert_eq!(ids.len(), ITEMS as usize, "newest first, none twice");
}
