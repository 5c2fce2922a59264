//! When a thing was lost or found: a report says it (a moment or a window), its reporter or
//! staff correct it, bad windows are refused and change nothing, and matching measures
//! closeness in time by it.

use reqwest::StatusCode;
use serde_json::{Value, json};

use lostfound::time::format_ms;

use crate::helpers::*;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Epoch milliseconds as the API writes times.
fn rfc3339(ms: i64) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).unwrap();
    at.format(&time::format_description::well_known::Rfc3339).unwrap()
}

/// A time `days` days ago, at a whole second (so that it reads back as written).
fn days_ago(days: i64) -> i64 {
    let now = time::OffsetDateTime::now_utc().unix_timestamp() * 1000;
    now - days * DAY_MS
}

/// The keys `happenedFrom` and `happenedUntil` of item `id`, as `reader` reads them.
async fn happened(reader: &TestClient, id: &Value) -> Value {
    let (status, item) = reader
        .get(&format!("/api/items/{id}?fields=happenedFrom,happenedUntil"))
        .await;
    assert_eq!(status, StatusCode::OK, "{item}");
    item
}

#[tokio::test]
async fn a_report_says_when_its_reporter_corrects_it_and_the_history_keeps_it() {
    // (The history records the times in epoch milliseconds.)
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let (from, until) = (days_ago(3), days_ago(3) + 2 * 60 * 60 * 1000);
    let (status, item) = alice
        .post(
            "/api/items",
            json!({ "title": "Grey scarf", "kind": "lost", "lat": 51.5, "lng": -0.12,
                    "happenedFrom": rfc3339(from), "happenedUntil": rfc3339(until) }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{item}");
    // Not among the contract's keys; asked for, in the API's own time format.
    assert!(item.get("happenedFrom").is_none(), "{item}");
    let window = json!({ "happenedFrom": format_ms(from), "happenedUntil": format_ms(until) });
    assert_eq!(happened(&alice, &item["id"]).await, window);
    assert_eq!(
        happened(&app.client(), &item["id"]).await,
        window,
        "public, as where it was lost"
    );

    // A moment: until is from. A correction of the time alone changes nothing else.
    let path = format!(
        "/api/items/{}/report?fields=title,happenedFrom,happenedUntil",
        item["id"]
    );
    let (status, edited) = alice.patch(&path, json!({ "happenedFrom": rfc3339(from) })).await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!(
        edited,
        json!({ "title": "Grey scarf", "happenedFrom": format_ms(from), "happenedUntil": format_ms(from) })
    );
    // Forgotten: both go.
    let (_, cleared) = alice.patch(&path, json!({ "happenedFrom": null })).await;
    assert_eq!(
        cleared,
        json!({ "title": "Grey scarf", "happenedFrom": null, "happenedUntil": null })
    );

    let office = app.logged_in("office", true).await;
    let (_, history) = office.get(&format!("/api/items/{}/history", item["id"])).await;
    let changes: Vec<&Value> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| &entry["change"])
        .collect();
    assert_eq!(
        changes[changes.len() - 2..],
        [
            &json!({ "edited": { "happenedFrom": from, "happenedUntil": from } }),
            &json!({ "edited": { "happenedFrom": null, "happenedUntil": null } }),
        ]
    );
}

#[tokio::test]
async fn bad_windows_are_refused_naming_the_field_and_change_nothing() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let base = json!({ "title": "Keys", "kind": "lost", "lat": 51.5, "lng": -0.12 });
    let with = |extra: Value| {
        let mut body = base.clone();
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let week = days_ago(7);
    let cases = [
        (
            json!({ "happenedUntil": rfc3339(week) }),
            "happenedUntil needs happenedFrom",
        ),
        (
            json!({ "happenedFrom": rfc3339(week), "happenedUntil": rfc3339(week - 1000) }),
            "happenedUntil is before happenedFrom",
        ),
        (
            json!({ "happenedFrom": rfc3339(week - 32 * DAY_MS), "happenedUntil": rfc3339(week) }),
            "The time it happened spans at most 31 days",
        ),
        (
            json!({ "happenedFrom": rfc3339(days_ago(-3)) }),
            "happenedFrom is in the future",
        ),
        (json!({ "happenedFrom": "last Tuesday" }), "Invalid happenedFrom"),
        (
            json!({ "happenedFrom": "1969-12-31T23:59:59Z" }),
            "Invalid happenedFrom",
        ),
        (json!({ "happenedFrom": week }), "happenedFrom must be a string"),
        (
            json!({ "happenedFrom": rfc3339(week), "happenedUntil": "later" }),
            "Invalid happenedUntil",
        ),
    ];
    let before = app.item_count().await;
    for (extra, error) in &cases {
        let (status, body) = alice.post("/api/items", with(extra.clone())).await;
        assert_eq!(
            (status, &body["error"]),
            (StatusCode::BAD_REQUEST, &json!(error)),
            "{extra}"
        );
    }
    assert_eq!(app.item_count().await, before);

    // The same refusals for a correction, which leaves the report as it was.
    let (_, item) = alice
        .post("/api/items", with(json!({ "happenedFrom": rfc3339(week) })))
        .await;
    for (extra, error) in &cases {
        let (status, body) = alice
            .patch(&format!("/api/items/{}/report", item["id"]), extra.clone())
            .await;
        assert_eq!(
            (status, &body["error"]),
            (StatusCode::BAD_REQUEST, &json!(error)),
            "{extra}"
        );
    }
    assert_eq!(
        happened(&alice, &item["id"]).await,
        json!({ "happenedFrom": format_ms(week), "happenedUntil": format_ms(week) })
    );
}

#[tokio::test]
async fn matching_measures_closeness_in_time_by_when_they_were_lost_and_found() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let office = app.logged_in("office", true).await;
    let lost_on = days_ago(60);
    let (_, lost) = alice
        .post(
            "/api/items",
            json!({ "title": "Black leather wallet", "kind": "lost", "lat": 51.5, "lng": -0.12, "radius": 50,
                    "happenedFrom": rfc3339(lost_on), "happenedUntil": rfc3339(lost_on + DAY_MS - 1000) }),
        )
        .await;
    let (status, _) = office
        .patch(&format!("/api/items/{}", lost["id"]), json!({ "status": "approved" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, found) = office
        .post(
            "/api/items",
            json!({ "title": "Black leather wallet", "kind": "found", "status": "approved",
                    "lat": 51.5, "lng": -0.12, "radius": 10 }),
        )
        .await;
    let time_score = || async {
        let (status, matches) = alice.get(&format!("/api/items/{}/matches", lost["id"])).await;
        assert_eq!(status, StatusCode::OK, "{matches}");
        let matches = matches.as_array().unwrap();
        assert_eq!(matches[0]["item"]["id"], found["id"], "{matches:?}");
        matches[0]["why"]["time"].as_f64().unwrap()
    };
    // Found today, said lost two months ago: a third of the window's closeness is left.
    let apart = time_score().await;
    assert!((0.01..0.025).contains(&apart), "{apart}");
    // The desk says it was found that very day, long before it was handed in: they meet.
    let (status, _) = office
        .patch(
            &format!("/api/items/{}/report", found["id"]),
            json!({ "happenedFrom": rfc3339(lost_on + 3 * 60 * 60 * 1000) }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(time_score().await, 0.05);
}
