//! `/api/items`: the item representation, listing, reading and creating.

use std::collections::BTreeSet;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::task::JoinSet;

use crate::helpers::*;

const ITEM_KEYS: [&str; 12] = [
    "id",
    "title",
    "desc",
    "cat",
    "imgData",
    "lat",
    "lng",
    "radius",
    "status",
    "storagePlace",
    "created_at",
    "createdBy",
];

#[tokio::test]
async fn a_minimal_item_has_all_twelve_keys_with_defaults() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Blue umbrella")).await;

    assert_item_shape(&item);
    assert!(item["id"].as_i64().unwrap() > 0);
    for key in ["desc", "cat", "imgData", "storagePlace"] {
        assert_eq!(item[key], Value::Null, "{key}");
    }
    assert_eq!(item["radius"].as_f64(), Some(0.0));
    assert_eq!((item["lat"].as_f64(), item["lng"].as_f64()), (Some(51.5), Some(-0.12)));
    assert_eq!(
        (&item["title"], &item["status"], &item["createdBy"]),
        (&json!("Blue umbrella"), &json!("pending"), &json!("alice"))
    );
}

/// UniLost's page sends every field of its form, empty ones as `""`: an empty optional field
/// is one not given, a photo included.
#[tokio::test]
async fn a_report_from_unilosts_page_without_a_photo() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let body = json!({
        "title": "Black wallet", "desc": "", "cat": "", "imgData": "", "storagePlace": "",
        "lat": 37.55, "lng": 127.07, "radius": 50,
    });
    let item = alice.create_item(body).await;
    assert_item_shape(&item);
    for key in ["desc", "cat", "imgData", "storagePlace"] {
        assert_eq!(item[key], Value::Null, "{key}");
    }
    let (_, extended) = alice
        .get(&format!("{}?fields=photoUrl,thumbUrl", item_path(&item)))
        .await;
    assert_eq!(extended, json!({ "photoUrl": null, "thumbUrl": null }));
}

#[tokio::test]
async fn a_full_item_returns_every_field_given() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let body = json!({
        "title": "Black backpack", "desc": "Laptop sleeve", "cat": "bags", "imgData": PNG_DATA_URL,
        "lat": -33.86, "lng": 151.2, "radius": 250.5, "storagePlace": "Front desk",
    });
    let item = alice.create_item(body.clone()).await;
    assert_item_shape(&item);
    for key in ["title", "desc", "cat", "imgData", "storagePlace"] {
        assert_eq!(item[key], body[key], "{key}");
    }
    for key in ["lat", "lng", "radius"] {
        assert_eq!(item[key].as_f64(), body[key].as_f64(), "{key}");
    }
    // The photo comes back byte for byte on a read too.
    assert_eq!(app.client().get(&item_path(&item)).await.1["imgData"], PNG_DATA_URL);
}

/// A 1×1 GIF89a and a 1×1 lossless WebP, both decoded as such by Chromium.
const GIF_BASE64: &str = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";
const WEBP_BASE64: &str = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==";

#[tokio::test]
async fn gif_and_webp_photos_are_accepted_and_kept_as_sent() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    for (kind, payload) in [("gif", GIF_BASE64), ("webp", WEBP_BASE64)] {
        let url = format!("data:image/{kind};base64,{payload}");
        let mut body = item_body(&format!("Photo as {kind}"));
        body["imgData"] = json!(url);
        let item = alice.create_item(body).await;
        assert_eq!(item["imgData"], url, "{kind}");
        assert_eq!(app.client().get(&item_path(&item)).await.1["imgData"], url, "{kind}");
    }

    // The bytes decide, not the declared type: each image declared as the other is refused.
    for (declared, payload) in [("webp", GIF_BASE64), ("gif", WEBP_BASE64)] {
        let mut body = item_body("Mislabelled photo");
        body["imgData"] = json!(format!("data:image/{declared};base64,{payload}"));
        let (status, error) = alice.post("/api/items", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{declared}: {error}");
        assert!(
            error["error"].as_str().is_some_and(|e| e.contains("imgData")),
            "{declared}: {error}"
        );
    }
    assert_eq!(app.db.count("items").await, 2);
}

#[tokio::test]
async fn the_list_is_newest_first() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let mut ids = Vec::new();
    for title in ["first", "second", "third", "fourth"] {
        ids.push(alice.create_item(item_body(title)).await["id"].as_i64().unwrap());
    }
    let (status, list) = app.client().get("/api/items").await;
    assert_eq!(status, StatusCode::OK);
    let listed: Vec<i64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect();
    ids.reverse();
    assert_eq!(listed, ids);
    let times: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["created_at"].as_str().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");
}

#[tokio::test]
async fn the_list_filters_by_status() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let admin = app.logged_in("admin", true).await;
    let pending = alice.create_item(item_body("pending one")).await;
    let approved = alice.create_item(item_body("approved one")).await;
    let rejected = alice.create_item(item_body("rejected one")).await;
    for (item, status) in [(&approved, "approved"), (&rejected, "rejected")] {
        assert_eq!(
            admin.patch(&item_path(item), json!({ "status": status })).await.0,
            StatusCode::OK
        );
    }
    let anyone = app.client();
    for (query, expected) in [
        ("?status=pending", vec![&pending]),
        ("?status=approved", vec![&approved]),
        ("?status=rejected", vec![&rejected]),
        ("?status=", vec![&rejected, &approved, &pending]),
        ("", vec![&rejected, &approved, &pending]),
    ] {
        let (status, list) = anyone.get(&format!("/api/items{query}")).await;
        assert_eq!(status, StatusCode::OK, "{query}");
        let ids: Vec<&Value> = list.as_array().unwrap().iter().map(|i| &i["id"]).collect();
        let expected: Vec<&Value> = expected.iter().map(|i| &i["id"]).collect();
        assert_eq!(ids, expected, "{query}");
    }
    for bad in ["lost", "PENDING", "approved%20", "pending,approved", "0"] {
        let answer = anyone.get(&format!("/api/items?status={bad}")).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid status");
    }
}

#[tokio::test]
async fn the_representation_is_the_same_everywhere() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let admin = app.logged_in("admin", true).await;
    let mut body = item_body("Grey scarf");
    body["desc"] = json!("Wool");
    let created = alice.create_item(body).await;
    let path = item_path(&created);
    // To each reader: its reporter and staff have it whole, anyone else in the public view.
    let visitor = app.client();
    let readers = |item: &Value| {
        [
            (&alice, item.clone()),
            (&admin, item.clone()),
            (&visitor, in_public_view(item)),
        ]
    };
    for (reader, expected) in readers(&created) {
        assert_eq!(reader.get(&path).await, (StatusCode::OK, expected.clone()));
        assert_eq!(reader.get("/api/items").await.1, json!([expected]));
    }

    let (status, updated) = admin.patch(&path, json!({ "status": "approved" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_item_shape(&updated);
    let mut expected = created.clone();
    expected["status"] = json!("approved");
    assert_eq!(updated, expected);
    for (reader, expected) in readers(&updated) {
        assert_eq!(reader.get(&path).await.1, expected);
        assert_eq!(reader.get("/api/items?status=approved").await.1, json!([expected]));
    }
}

#[tokio::test]
async fn reading_an_unknown_item_is_404() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Wallet")).await;
    let unknown = item["id"].as_i64().unwrap() + 1000;
    let answer = app.client().get(&format!("/api/items/{unknown}")).await;
    assert_error(&answer, StatusCode::NOT_FOUND, "Item not found");
    let answer = app.client().get("/api/items/9223372036854775807").await;
    assert_error(&answer, StatusCode::NOT_FOUND, "Item not found");
}

#[tokio::test]
async fn an_id_that_is_not_a_positive_integer_is_400() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    admin.create_item(item_body("Keys")).await;
    for bad in ["0", "-1", "abc", "1.5", "99999999999999999999", "1e3", "%201", "0x10"] {
        let path = format!("/api/items/{bad}");
        assert_error(&admin.get(&path).await, StatusCode::BAD_REQUEST, "Invalid item ID");
        let answer = admin.patch(&path, json!({ "status": "approved" })).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid item ID");
        assert_error(&admin.delete(&path).await, StatusCode::BAD_REQUEST, "Invalid item ID");
    }
    assert_eq!(app.item_count().await, 1);
}

#[tokio::test]
async fn creating_needs_a_login() {
    let app = spawn_app().await;
    let answer = app.client().post("/api/items", item_body("Umbrella")).await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "Login required");
    let answer = app
        .client_with_sid("made-up-session-id")
        .post("/api/items", item_body("x"))
        .await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "Login required");
    assert_eq!(app.item_count().await, 0);
}

#[tokio::test]
async fn items_are_readable_without_a_login() {
    let app = spawn_app().await;
    let item = app
        .logged_in("alice", false)
        .await
        .create_item(item_body("Wallet"))
        .await;
    let anyone = app.client();
    let item = in_public_view(&item);
    assert_eq!(anyone.get(&item_path(&item)).await, (StatusCode::OK, item.clone()));
    assert_eq!(anyone.get("/api/items").await, (StatusCode::OK, json!([item])));
}

#[tokio::test]
async fn concurrent_writers_all_succeed() {
    const CLIENTS: usize = 4;
    const EACH: usize = 10;
    let app = spawn_app().await;
    let mut writers = JoinSet::new();
    for c in 0..CLIENTS {
        let client = app.logged_in(&format!("writer{c}"), false).await;
        for n in 0..EACH {
            let client = client.clone();
            writers.spawn(async move { client.post("/api/items", item_body(&format!("item {c}-{n}"))).await });
        }
    }
    let mut ids = BTreeSet::new();
    while let Some(result) = writers.join_next().await {
        let (status, item) = result.unwrap();
        assert_eq!(status, StatusCode::OK, "{item}");
        assert!(ids.insert(item["id"].as_i64().unwrap()), "duplicate id {}", item["id"]);
    }
    assert_eq!(ids.len(), CLIENTS * EACH);
    let (_, list) = app.client().get("/api/items").await;
    let listed: BTreeSet<i64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect();
    assert_eq!(listed, ids);
}

#[tokio::test]
async fn list_responses_are_json() {
    let app = spawn_app().await;
    let client = app.client();
    let (status, headers, text) = client.send_raw(client.request(Method::GET, "/api/items")).await;
    assert_eq!((status, text.as_str()), (StatusCode::OK, "[]"));
    let content_type = headers[reqwest::header::CONTENT_TYPE].to_str().unwrap();
    assert!(content_type.starts_with("application/json"), "{content_type}");
}

/// Exactly the 12 keys of the interface, with the documented types.
#[track_caller]
fn assert_item_shape(item: &Value) {
    let keys: BTreeSet<&str> = item
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, BTreeSet::from(ITEM_KEYS), "{item}");
    assert!(item["id"].is_i64(), "{item}");
    for key in ["lat", "lng", "radius"] {
        assert!(item[key].is_number(), "{key} in {item}");
    }
    for key in ["title", "status", "createdBy"] {
        assert!(item[key].is_string(), "{key} in {item}");
    }
    let created_at = item["created_at"].as_str().unwrap();
    assert!(is_utc_millis(created_at), "created_at {created_at:?}");
}

/// `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`
fn is_utc_millis(s: &str) -> bool {
    let pattern = b"dddd-dd-ddTdd:dd:dd.dddZ";
    s.len() == pattern.len()
        && s.bytes()
            .zip(pattern)
            .all(|(c, p)| if *p == b'd' { c.is_ascii_digit() } else { c == *p })
}
