//! Retention: a set number of days after an item leaves custody, its finder's contact and
//! verification details go, and so do its claims' descriptions, postal addresses and
//! conversations — the custody record stays; chat and thread messages go at an age of their
//! own. Exactly what is due goes, and only when it is due (0 keeps: `config::tests`).

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{helpers::*, sio::write_message};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// A found item `office` took in with its finder and verification details, claimed by
/// `owner` (who asked for it by post, and wrote to the desk), the pickup called off and the
/// item disposed of `days_ago`: its id and its claim's path.
async fn left_custody(
    app: &TestApp,
    office: &TestClient,
    owner: &TestClient,
    title: &str,
    days_ago: i64,
) -> (i64, String) {
    let (status, item) = office
        .post(
            "/api/items",
            json!({ "title": title, "kind": "found", "status": "approved", "lat": 51.5, "lng": -0.12,
                    "finder": { "name": "Ada Finder", "contact": "ada@example.org" },
                    "verification": "A duck sticker on the lid" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{item}");
    let id = item["id"].as_i64().unwrap();
    let claim = accepted_claim(office, owner, id).await;
    owner
        .post(&format!("{claim}/post"), json!({ "address": "12 Elm Road" }))
        .await;
    owner
        .post(&format!("{claim}/messages"), json!({ "text": "Call me on 0770" }))
        .await;
    office
        .post(&format!("{claim}/cancel"), json!({ "reason": "Not collected" }))
        .await;
    let (status, _) = office
        .post(&format!("/api/items/{id}/disposal"), json!({ "method": "donated" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    app.db
        .sql(&format!(
            "UPDATE items SET disposed_at = disposed_at - {}, created_at = created_at - {} WHERE id = {id}",
            days_ago * DAY_MS,
            (days_ago + 1) * DAY_MS
        ))
        .await;
    (id, claim)
}

/// What staff see of item `id`'s personal details, and of its claim's.
async fn details(office: &TestClient, id: i64) -> (Value, Value) {
    let (_, item) = office
        .get(&format!("/api/items/{id}?fields=finder,verification,disposal"))
        .await;
    let (_, claims) = office.get(&format!("/api/items/{id}/claims")).await;
    let claim = &claims[0];
    let (_, conversation) = office.get(&format!("/api/claims/{}/messages", claim["id"])).await;
    let texts: Vec<Value> = conversation
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].clone())
        .collect();
    (
        item,
        json!({ "status": claim["status"], "message": claim["message"], "address": claim["post"]["address"],
                "cancelled": claim["cancellation"]["reason"], "conversation": texts }),
    )
}

#[tokio::test]
async fn details_go_a_set_time_after_the_item_leaves_custody_and_messages_at_their_age() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let owner = app.logged_in("owner", false).await;
    let (due, _) = left_custody(&app, &office, &owner, "Blue thermos", 31).await;
    let (recent, _) = left_custody(&app, &office, &owner, "Red thermos", 29).await;
    // Still in custody, a year after it was handed in.
    let (_, kept) = office
        .post(
            "/api/items",
            json!({ "title": "Green thermos", "kind": "found", "status": "approved", "lat": 51.5, "lng": -0.12,
                    "finder": { "name": "Ben Finder", "contact": "ben@example.org" } }),
        )
        .await;
    moved_back(&app, kept["id"].as_i64().unwrap(), 365).await;
    write_message(&app, Some("owner"), None, "Owner", "An old word").await;
    write_message(&app, Some("owner"), Some(recent), "Owner", "A recent word").await;
    app.db
        .sql(&format!(
            "UPDATE messages SET created_at = created_at - {} WHERE body = 'An old word'",
            11 * DAY_MS
        ))
        .await;
    let whole = details(&office, recent).await;
    assert_eq!(
        whole.1,
        json!({ "status": "cancelled", "message": "Mine: a keyring inside", "address": "12 Elm Road",
                "cancelled": "Not collected", "conversation": ["Call me on 0770"] })
    );

    // Details kept 30 days, messages 10: the maintenance run at start removes what is due.
    let app = app
        .restart_with(|config| {
            config.retention.keep_custody_details_days = 30;
            config.retention.keep_messages_days = 10;
        })
        .await;
    let office = app.logged_in_again("office").await;
    eventually(
        "the due details are removed",
        std::time::Duration::from_secs(10),
        async || details(&office, due).await.0["finder"].is_null(),
    )
    .await;
    let (item, claim) = details(&office, due).await;
    assert_eq!(
        (&item["finder"], &item["verification"], &item["disposal"]["method"]),
        (&Value::Null, &Value::Null, &json!("donated")),
        "the custody record stays"
    );
    assert_eq!(
        claim,
        json!({ "status": "cancelled", "message": "", "address": "", "cancelled": "Not collected", "conversation": [] })
    );
    // Not yet due, or still in custody: untouched.
    assert_eq!(details(&office, recent).await, whole);
    let (_, shelved) = office.get(&format!("{}?fields=finder", item_path(&kept))).await;
    assert_eq!(shelved["finder"]["contact"], "ben@example.org");
    assert_eq!(
        app.db.sql("SELECT body FROM messages ORDER BY id").await,
        ["A recent word"]
    );
}
