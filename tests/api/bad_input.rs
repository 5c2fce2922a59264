//! Bad requests to the write endpoints: each is refused with a JSON error and stores nothing.

use base64::{Engine, engine::general_purpose::STANDARD};
use lostfound::config::Mode;
use reqwest::{
    Method, RequestBuilder, StatusCode,
    header::{CONTENT_TYPE, HeaderValue},
};
use serde_json::{Value, json};

use crate::helpers::*;

const MIB: usize = 1024 * 1024;

/// Sends a request that must be refused with `status` and a JSON `{error}`, and checks that
/// no item and no session was stored because of it.
async fn refused(app: &TestApp, client: &TestClient, request: RequestBuilder, status: StatusCode) -> Answer {
    let before = (app.item_count().await, app.session_count().await);
    let answer = client.send(request).await;
    assert_eq!(answer.status, status, "{}", answer.body);
    assert!(
        answer.body["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{}",
        answer.body
    );
    if app.mode == Mode::Production {
        assert_eq!(answer.body.as_object().unwrap().len(), 1, "{}", answer.body);
    }
    assert_eq!(
        (app.item_count().await, app.session_count().await),
        before,
        "something was stored"
    );
    answer
}

/// POSTs a JSON item that must be refused with 400; returns the error body.
async fn refused_item(app: &TestApp, client: &TestClient, body: Value) -> Value {
    let request = client.request(Method::POST, "/api/items").json(&body);
    refused(app, client, request, StatusCode::BAD_REQUEST).await.body
}

/// A valid item body with `key` set to `value`.
fn item_with(key: &str, value: Value) -> Value {
    let mut body = item_body("Blue umbrella");
    body[key] = value;
    body
}

/// A body that is not a JSON object, or not declared as JSON, sent as `(content type, bytes)`.
fn non_object_bodies() -> Vec<(Option<&'static str>, &'static str)> {
    let valid = r#"{"id":"alice","pw":"password-alice","title":"Umbrella","lat":1,"lng":2}"#;
    vec![
        (Some("application/json"), r#"{"title": "Umbrella", "lat": 1,"#),
        (Some("application/json"), "{'title': 'Umbrella'}"),
        (Some("application/json"), ""),
        (
            Some("application/json"),
            r#"[{"title": "Umbrella", "lat": 1, "lng": 2}]"#,
        ),
        (Some("application/json"), r#""Umbrella""#),
        (Some("application/json"), "null"),
        (Some("text/plain"), valid),
        (
            Some("application/x-www-form-urlencoded"),
            "id=alice&pw=password-alice&title=Umbrella&lat=1&lng=2",
        ),
        (Some("multipart/form-data; boundary=x"), valid),
        (None, valid),
    ]
}

#[tokio::test]
async fn bodies_that_are_not_json_objects_are_400() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let stranger = app.client();
    let item = admin.create_item(item_body("Umbrella")).await;
    let item_path = item_path(&item);
    for (client, method, path) in [
        (&admin, Method::POST, "/api/items"),
        (&stranger, Method::POST, "/api/login"),
        (&admin, Method::PATCH, item_path.as_str()),
    ] {
        for (content_type, body) in non_object_bodies() {
            let mut request = client.request(method.clone(), path).body(body);
            if let Some(content_type) = content_type {
                request = request.header(CONTENT_TYPE, HeaderValue::from_static(content_type));
            }
            refused(&app, client, request, StatusCode::BAD_REQUEST).await;
        }
    }
    assert_eq!(stranger.get("/api/me").await.1, json!({ "user": null }));
    assert_eq!(app.client().get(&item_path).await.1, in_public_view(&item));
}

#[tokio::test]
async fn a_value_of_the_wrong_type_is_a_400_naming_the_field() {
    let app = spawn_app_in(Mode::Development).await;
    let alice = app.logged_in("alice", false).await;
    let cases = [
        ("title", json!(5)),
        ("title", json!(["Umbrella"])),
        ("lat", json!("51.5")),
        ("lat", json!(true)),
        ("lng", json!({ "deg": 1 })),
        ("radius", json!("10")),
        ("desc", json!([])),
        ("cat", json!({})),
        ("cat", json!(7)),
        ("imgData", json!(5)),
        ("imgData", json!({ "data": PNG_DATA_URL })),
        ("storagePlace", json!(12)),
    ];
    for (field, value) in cases {
        let body = refused_item(&app, &alice, item_with(field, value.clone())).await;
        assert_eq!(body["details"]["field"], field, "{field} = {value}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(field),
            "{field} = {value}: {body}"
        );
    }
    let stranger = app.client();
    for (field, body) in [
        ("id", json!({ "id": 7, "pw": "password-alice" })),
        ("pw", json!({ "id": "alice", "pw": ["password-alice"] })),
    ] {
        let request = stranger.request(Method::POST, "/api/login").json(&body);
        let answer = refused(&app, &stranger, request, StatusCode::BAD_REQUEST).await;
        assert_eq!(answer.body["error"], "ID and password required");
        assert_eq!(answer.body["details"]["field"], field, "{}", answer.body);
    }
}

#[tokio::test]
async fn numbers_out_of_range_are_400() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let cases = [
        ("lat", json!(90.0001)),
        ("lat", json!(-90.5)),
        ("lat", json!(1000)),
        ("lng", json!(180.01)),
        ("lng", json!(-181)),
        ("radius", json!(-1)),
        ("radius", json!(-0.001)),
        ("radius", json!(100_000.5)),
        ("radius", json!(1e300)),
    ];
    for (field, value) in cases {
        let body = refused_item(&app, &alice, item_with(field, value.clone())).await;
        assert!(
            body["error"].as_str().unwrap().contains(field),
            "{field} = {value}: {body}"
        );
    }
    // Not even JSON: non-finite numbers do not parse.
    for raw in [
        r#"{"title":"x","lat":NaN,"lng":1}"#,
        r#"{"title":"x","lat":1,"lng":Infinity}"#,
    ] {
        let request = alice
            .request(Method::POST, "/api/items")
            .header(CONTENT_TYPE, "application/json")
            .body(raw);
        refused(&app, &alice, request, StatusCode::BAD_REQUEST).await;
    }
}

#[tokio::test]
async fn over_long_text_is_400() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    for (field, max) in [("title", 200), ("desc", 5_000), ("cat", 100), ("storagePlace", 200)] {
        for text in ["x".repeat(max + 1), "é".repeat(max + 1)] {
            let body = refused_item(&app, &alice, item_with(field, json!(text))).await;
            assert!(body["error"].as_str().unwrap().contains(field), "{field}: {body}");
        }
    }
}

#[tokio::test]
async fn the_bounds_themselves_are_accepted() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let mut accepted = 0;
    for (field, max) in [("title", 200), ("desc", 5_000), ("cat", 100), ("storagePlace", 200)] {
        // Characters, not bytes: "é" is two bytes in UTF-8.
        let item = alice.create_item(item_with(field, json!("é".repeat(max)))).await;
        assert_eq!(item[field].as_str().unwrap().chars().count(), max);
        accepted += 1;
    }
    for (field, value) in [
        ("lat", 90.0),
        ("lat", -90.0),
        ("lng", 180.0),
        ("lng", -180.0),
        ("radius", 0.0),
        ("radius", 100_000.0),
    ] {
        let item = alice.create_item(item_with(field, json!(value))).await;
        assert_eq!(item[field].as_f64(), Some(value));
        accepted += 1;
    }
    assert_eq!(app.item_count().await, accepted);
}

#[tokio::test]
async fn a_missing_or_blank_title_or_position_is_required_fields_missing() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let bodies = [
        json!({ "lat": 1, "lng": 2 }),
        json!({ "title": "", "lat": 1, "lng": 2 }),
        json!({ "title": "   ", "lat": 1, "lng": 2 }),
        json!({ "title": "\t\n ", "lat": 1, "lng": 2 }),
        // Characters that render as nothing (the blank Braille pattern, Hangul fillers).
        json!({ "title": "\u{2800}\u{2800}", "lat": 1, "lng": 2 }),
        json!({ "title": "\u{3164} \u{FFA0}", "lat": 1, "lng": 2 }),
        json!({ "title": null, "lat": 1, "lng": 2 }),
        json!({ "title": "Umbrella", "lng": 2 }),
        json!({ "title": "Umbrella", "lat": 1 }),
        json!({ "title": "Umbrella", "lat": null, "lng": 2 }),
        json!({}),
    ];
    for body in bodies {
        let error = refused_item(&app, &alice, body.clone()).await;
        assert_eq!(error, json!({ "error": "Required fields missing" }), "{body}");
    }
}

#[tokio::test]
async fn nul_characters_in_text_are_400() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    for field in ["title", "desc", "cat", "storagePlace"] {
        let body = refused_item(&app, &alice, item_with(field, json!("Blue\0umbrella"))).await;
        assert!(body["error"].as_str().unwrap().contains(field), "{field}: {body}");
    }
}

#[tokio::test]
async fn photos_that_are_not_valid_images_are_400() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let jpeg_bytes = STANDARD.encode(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00");
    let png_payload = PNG_DATA_URL.split_once(',').unwrap().1;
    let mut oversized = b"\x89PNG\r\n\x1a\n".to_vec();
    oversized.resize(5 * MIB + 1, 0);
    let cases = [
        "data:text/plain;base64,aGVsbG8gd29ybGQ=".to_owned(),
        format!(
            "data:image/svg+xml;base64,{}",
            STANDARD.encode("<svg onload=\"alert(1)\"/>")
        ),
        "https://example.com/photo.png".to_owned(),
        format!("data:image/png,{png_payload}"),
        format!("image/png;base64,{png_payload}"),
        "data:image/png;base64,!!!not base64!!!".to_owned(),
        format!("data:image/png;base64,{}", &png_payload[..png_payload.len() - 3]),
        format!("data:image/png;base64,{jpeg_bytes}"),
        format!("data:image/jpeg;base64,{png_payload}"),
        "data:image/png;base64,".to_owned(),
        format!("data:image/png;base64,{}", STANDARD.encode(&oversized)),
    ];
    for url in cases {
        let body = refused_item(&app, &alice, item_with("imgData", json!(url))).await;
        assert!(
            body["error"].as_str().unwrap().contains("imgData"),
            "{}: {body}",
            &url[..url.len().min(60)]
        );
    }
}

#[tokio::test]
async fn a_photo_of_exactly_5_mib_is_accepted() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    // A real image, padded after its end to exactly 5 MiB (decoders stop at the end).
    let mut bytes = png(1_290, 1_290, true);
    assert!(bytes.len() < 5 * MIB);
    bytes.resize(5 * MIB, 0);
    let url = data_url("image/png", &bytes);
    let item = alice.create_item(item_with("imgData", json!(url))).await;
    assert_eq!(item["imgData"].as_str().map(str::len), Some(url.len()));
}

#[tokio::test]
async fn bodies_over_8_mib_are_413() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let stranger = app.client();
    let item = admin.create_item(item_body("Umbrella")).await;
    let item_path = item_path(&item);
    let filler = "x".repeat(8 * MIB + 1);
    for (client, method, path, body) in [
        (&admin, Method::POST, "/api/items", item_with("desc", json!(filler))),
        (
            &stranger,
            Method::POST,
            "/api/login",
            json!({ "id": "admin", "pw": filler }),
        ),
        (
            &admin,
            Method::PATCH,
            item_path.as_str(),
            json!({ "storagePlace": filler }),
        ),
    ] {
        let request = client.request(method, path).json(&body);
        refused(&app, client, request, StatusCode::PAYLOAD_TOO_LARGE).await;
    }
    assert_eq!(app.client().get(&item_path).await.1, in_public_view(&item));
}

#[tokio::test]
async fn unknown_keys_are_ignored() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let mut body = item_body("Umbrella");
    for (key, value) in [
        ("colour", json!("blue")),
        ("status", json!("approved")),
        ("createdBy", json!("mallory")),
        ("created_at", json!("2000-01-01T00:00:00.000Z")),
        ("id", json!(999)),
    ] {
        body[key] = value;
    }
    let item = alice.create_item(body).await;
    assert_eq!(item.as_object().unwrap().len(), 12, "{item}");
    assert_eq!(
        (&item["status"], &item["createdBy"]),
        (&json!("pending"), &json!("alice"))
    );
    assert_ne!(item["id"], 999);
    assert_ne!(item["created_at"], "2000-01-01T00:00:00.000Z");

    let (status, _) = app
        .client()
        .post(
            "/api/login",
            json!({ "id": "alice", "pw": password_of("alice"), "remember": true }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn unknown_api_routes_are_json_404() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    for (method, path) in [
        (Method::GET, "/api/nothing-here"),
        (Method::POST, "/api/nothing-here"),
        (Method::GET, "/api/items/1/extra"),
        (Method::GET, "/api"),
        (Method::GET, "/api/"),
        (Method::DELETE, "/api/accounts/alice"),
        (Method::GET, "/no-such-page"),
    ] {
        let request = alice.request(method.clone(), path).json(&json!({}));
        let answer = refused(&app, &alice, request, StatusCode::NOT_FOUND).await;
        assert_json_content_type(&answer);
        assert_eq!(
            answer.body.as_object().unwrap().len(),
            1,
            "{method} {path}: {}",
            answer.body
        );
    }
}

#[tokio::test]
async fn unsupported_methods_are_json_405() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let item = admin.create_item(item_body("Umbrella")).await;
    let item_path = item_path(&item);
    for (method, path) in [
        (Method::PUT, "/api/items"),
        (Method::DELETE, "/api/items"),
        (Method::PATCH, "/api/items"),
        (Method::PUT, item_path.as_str()),
        (Method::POST, item_path.as_str()),
        (Method::GET, "/api/login"),
        (Method::GET, "/api/logout"),
        (Method::POST, "/api/me"),
        (Method::PUT, "/api/me"),
    ] {
        let request = admin.request(method.clone(), path).json(&item_body("Replaced"));
        let answer = refused(&app, &admin, request, StatusCode::METHOD_NOT_ALLOWED).await;
        assert_json_content_type(&answer);
    }
    assert_eq!(app.client().get(&item_path).await.1, in_public_view(&item));
}

#[track_caller]
fn assert_json_content_type(answer: &Answer) {
    let content_type = answer.headers.get(CONTENT_TYPE).map(|v| v.to_str().unwrap());
    assert!(
        content_type.is_some_and(|c| c.starts_with("application/json")),
        "{content_type:?}"
    );
}
