//! Correcting a report after it was made (`PATCH /api/items/:id/report`): its reporter while
//! it is open, its site's staff always; what changed in its history; an approved report its
//! reporter corrects back in review when the office says so; every refusal changing nothing.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

fn report_path(item: &Value) -> String {
    format!("{}/report", item_path(item))
}

const FIELDS: &str = "?fields=id,title,desc,cat,place,lat,lng,radius,status,thumbUrl,closedAt";

#[tokio::test]
async fn a_reporter_corrects_an_open_report_which_goes_back_to_review() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let item = alice
        .create_item(json!({ "title": "Umbrela", "desc": "Black", "cat": "Other", "lat": 51.5, "lng": -0.12 }))
        .await;
    let (status, _) = office.patch(&item_path(&item), json!({ "status": "approved" })).await;
    assert_eq!(status, StatusCode::OK);
    let review_notice = async || {
        let (_, all) = office.get("/api/notifications").await;
        all.as_array().unwrap().iter().find(|n| n["type"] == "review").unwrap()["text"].clone()
    };
    let waiting = review_notice().await;

    let (status, edited) = alice
        .patch(
            &format!("{}{FIELDS}", report_path(&item)),
            json!({ "title": " Blue umbrella ", "desc": null, "cat": "Bags", "place": "Library, 2nd floor",
                    "lat": 51.51, "lng": -0.13, "radius": 40, "imgData": PNG_DATA_URL }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!(
        (&edited["title"], &edited["desc"], &edited["cat"], &edited["place"]),
        (
            &json!("Blue umbrella"),
            &Value::Null,
            &json!("Bags"),
            &json!("Library, 2nd floor")
        )
    );
    assert_eq!(
        (&edited["lat"], &edited["lng"], &edited["radius"]),
        (&json!(51.51), &json!(-0.13), &json!(40.0))
    );
    assert_eq!(
        edited["status"], "pending",
        "the office reviews what its reporter changed"
    );
    assert!(edited["thumbUrl"].is_string(), "{edited}");
    // Its staff are told it waits for review again (their recent notice counts it once
    // more); searches find its new words.
    assert_ne!(review_notice().await, waiting);
    let (_, found) = office.get("/api/items?q=blue%20umbrella&fields=id").await;
    assert_eq!(found, json!([{ "id": item["id"] }]));
    let (_, history) = office.get(&format!("{}/history", item_path(&item))).await;
    let last = history.as_array().unwrap().last().unwrap();
    assert_eq!(last["by"], "alice");
    assert_eq!(
        last["change"],
        json!({ "edited": { "title": "Blue umbrella", "desc": null, "cat": "Bags", "place": "Library, 2nd floor",
                            "lat": 51.51, "lng": -0.13, "radius": 40.0, "photo": true } })
    );

    // The photo goes with `null`.
    let (status, edited) = alice
        .patch(&format!("{}{FIELDS}", report_path(&item)), json!({ "imgData": null }))
        .await;
    assert_eq!((status, &edited["thumbUrl"]), (StatusCode::OK, &Value::Null));
}

#[tokio::test]
async fn staff_correct_their_sites_reports_which_stay_as_reviewed() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Wallet")).await;
    office.patch(&item_path(&item), json!({ "status": "approved" })).await;
    let (status, edited) = office
        .patch(
            &format!("{}{FIELDS}", report_path(&item)),
            json!({ "title": "Brown leather wallet" }),
        )
        .await;
    assert_eq!(
        (status, &edited["status"]),
        (StatusCode::OK, &json!("approved")),
        "{edited}"
    );
    // Closed: its reporter may no longer change it; staff still may.
    let (status, _) = alice.post(&format!("{}/close", item_path(&item)), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_error(
        &alice.patch(&report_path(&item), json!({ "title": "Mine" })).await,
        StatusCode::BAD_REQUEST,
        "Item cannot be edited",
    );
    let (status, _) = office
        .patch(&report_path(&item), json!({ "desc": "Returned to the library" }))
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn an_office_that_does_not_review_corrections_keeps_them_approved() {
    let app = TestApp::start_with(TestDb::new().await, |config| config.custody.review_edits = false).await;
    let office = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Scarf")).await;
    office.patch(&item_path(&item), json!({ "status": "approved" })).await;
    let (status, edited) = alice
        .patch(
            &format!("{}{FIELDS}", report_path(&item)),
            json!({ "title": "Green scarf" }),
        )
        .await;
    assert_eq!(
        (status, &edited["status"]),
        (StatusCode::OK, &json!("approved")),
        "{edited}"
    );
}

#[tokio::test]
async fn a_correction_by_anyone_else_or_a_bad_one_changes_nothing() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let bob = app.logged_in("bob", false).await;
    let item = alice.create_item(item_body("Keys")).await;
    // Staff of another desk: the report is the first desk's.
    let (status, _) = office.post("/api/sites", json!({ "name": "Sports centre" })).await;
    assert_eq!(status, StatusCode::CREATED);
    let gym = app.logged_in("gym", false).await;
    office.patch("/api/users/gym", json!({ "sites": [2] })).await;
    let (_, before) = office.get(&format!("{}{FIELDS}", item_path(&item))).await;

    let path = report_path(&item);
    assert_error(
        &bob.patch(&path, json!({ "title": "Mine" })).await,
        StatusCode::FORBIDDEN,
        "Not your report",
    );
    assert_error(
        &gym.patch(&path, json!({ "title": "Ours" })).await,
        StatusCode::FORBIDDEN,
        "This item belongs to another site: only its staff may do that",
    );
    assert_error(
        &app.client().patch(&path, json!({ "title": "Anyone's" })).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    for (body, message) in [
        (json!({}), "No fields to update"),
        (json!({ "title": "   " }), "title is required"),
        (json!({ "lat": 10 }), "lat and lng go together"),
        (json!({ "radius": -5 }), "radius must be between 0 and 100000"),
        (
            json!({ "desc": "x".repeat(5_001) }),
            "desc must be at most 5000 characters",
        ),
    ] {
        assert_error(&alice.patch(&path, body).await, StatusCode::BAD_REQUEST, message);
    }
    assert_error(
        &alice.patch("/api/items/999/report", json!({ "title": "x" })).await,
        StatusCode::NOT_FOUND,
        "Item not found",
    );
    let (_, after) = office.get(&format!("{}{FIELDS}", item_path(&item))).await;
    assert_eq!(before, after);
    let (_, history) = office.get(&format!("{}/history", item_path(&item))).await;
    assert_eq!(history, json!([]));
}
