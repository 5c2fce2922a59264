//! The error body in each mode: production `{error}` only, development `{error, details}`.

use std::collections::BTreeSet;

use lostfound::config::Mode;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;

/// One kind of error: what provokes it and what each mode must answer.
struct Case {
    what: &'static str,
    status: u16,
    /// The exact text where the contract fixes one.
    error: Option<&'static str>,
    name: &'static str,
    field: Option<&'static str>,
}

const fn case(what: &'static str, status: u16, error: Option<&'static str>, name: &'static str) -> Case {
    Case {
        what,
        status,
        error,
        name,
        field: None,
    }
}

const CASES: [Case; 9] = [
    Case {
        field: Some("pw"),
        ..case(
            "login without pw",
            400,
            Some("ID and password required"),
            "ValidationError",
        )
    },
    Case {
        field: Some("title"),
        ..case(
            "item without title",
            400,
            Some("Required fields missing"),
            "ValidationError",
        )
    },
    Case {
        field: Some("title"),
        ..case("item title a number", 400, None, "ValidationError")
    },
    case("empty patch", 400, Some("No fields to update"), "ValidationError"),
    case("bad item id", 400, Some("Invalid item ID"), "ValidationError"),
    case("wrong password", 401, Some("Invalid password"), "AuthenticationError"),
    case(
        "create while logged out",
        401,
        Some("Login required"),
        "AuthenticationError",
    ),
    case(
        "patch by a user",
        403,
        Some("Admin privileges required"),
        "AuthorizationError",
    ),
    case("unknown item", 404, Some("Item not found"), "NotFoundError"),
];

/// Makes the request of every case on `app` and returns the answers in the order of `CASES`.
async fn provoke_all(app: &TestApp) -> Vec<(StatusCode, Value)> {
    let alice = app.logged_in("alice", false).await;
    let admin = app.logged_in("admin", true).await;
    let nobody = app.client();
    let path = item_path(&admin.create_item(item_body("Umbrella")).await);
    let mut answers = Vec::new();
    for case in &CASES {
        answers.push(match case.what {
            "login without pw" => nobody.post("/api/login", json!({ "id": "alice" })).await,
            "item without title" => alice.post("/api/items", json!({ "lat": 1, "lng": 2 })).await,
            "item title a number" => {
                alice
                    .post("/api/items", json!({ "title": 5, "lat": 1, "lng": 2 }))
                    .await
            }
            "empty patch" => admin.patch(&path, json!({})).await,
            "bad item id" => nobody.get("/api/items/abc").await,
            "wrong password" => nobody.login("alice", "not-the-password").await,
            "create while logged out" => nobody.post("/api/items", item_body("x")).await,
            "patch by a user" => alice.patch(&path, json!({ "status": "approved" })).await,
            "unknown item" => nobody.get("/api/items/424242").await,
            other => unreachable!("{other}"),
        });
    }
    answers
}

#[tokio::test]
async fn production_bodies_are_exactly_one_error_string() {
    let app = spawn_app().await;
    for (case, (status, body)) in CASES.iter().zip(provoke_all(&app).await) {
        assert_eq!(status.as_u16(), case.status, "{}: {body}", case.what);
        assert_eq!(body.as_object().unwrap().len(), 1, "{}: {body}", case.what);
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{}: {body}",
            case.what
        );
        if let Some(error) = case.error {
            assert_eq!(body["error"], error, "{}", case.what);
        }
    }
}

#[tokio::test]
async fn development_bodies_carry_name_stack_and_field() {
    let app = spawn_app_in(Mode::Development).await;
    for (case, (status, body)) in CASES.iter().zip(provoke_all(&app).await) {
        assert_eq!(status.as_u16(), case.status, "{}: {body}", case.what);
        assert_development_body(&body, case.name, case.field);
        if let Some(error) = case.error {
            assert_eq!(body["error"], error, "{}", case.what);
        }
    }
}

#[tokio::test]
async fn errors_outside_handlers_follow_the_mode_too() {
    for mode in [Mode::Production, Mode::Development] {
        let app = spawn_app_in(mode).await;
        let client = app.client();
        for (method, path, status, error, name) in [
            (
                Method::GET,
                "/api/nothing-here",
                StatusCode::NOT_FOUND,
                "Not found",
                "NotFoundError",
            ),
            (
                Method::PUT,
                "/api/items",
                StatusCode::METHOD_NOT_ALLOWED,
                "Method not allowed",
                "MethodNotAllowedError",
            ),
        ] {
            let answer = client.send(client.request(method, path)).await;
            assert_eq!(answer.status, status);
            match mode {
                Mode::Production => assert_eq!(answer.body, json!({ "error": error })),
                Mode::Development => {
                    assert_development_body(&answer.body, name, None);
                    assert_eq!(answer.body["error"], error);
                }
            }
        }
    }
}

#[tokio::test]
async fn a_server_error_is_500_and_leaks_nothing_in_production() {
    for mode in [Mode::Production, Mode::Development] {
        let app = spawn_app_in(mode).await;
        app.db.sql("ALTER TABLE items RENAME TO items_gone").await;
        let (status, body) = app.client().get("/api/items").await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
        assert_eq!(body["error"], "Internal server error");
        match mode {
            Mode::Production => assert_eq!(body, json!({ "error": "Internal server error" })),
            Mode::Development => assert_development_body(&body, "InternalError", None),
        }
    }
}

#[track_caller]
fn assert_development_body(body: &Value, name: &str, field: Option<&str>) {
    let keys: BTreeSet<&str> = body
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, BTreeSet::from(["details", "error"]), "{body}");
    assert!(body["error"].is_string(), "{body}");
    let details = body["details"].as_object().expect("details an object");
    assert!(!name.is_empty() && details["name"] == name, "name {name} in {body}");
    assert!(details["stack"].is_string(), "{body}");
    match field {
        Some(field) => assert_eq!(details.get("field"), Some(&json!(field)), "{body}"),
        None => assert!(!details.contains_key("field"), "{body}"),
    }
    let allowed = ["name", "stack", "field"];
    assert!(details.keys().all(|k| allowed.contains(&k.as_str())), "{body}");
}
