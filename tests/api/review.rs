//! PATCH and DELETE `/api/items/:id`: who may review, what a review may change, and its record.

use lostfound::{domain::ItemId, time::now_ms};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const STATES: [&str; 3] = ["pending", "approved", "rejected"];

#[tokio::test]
async fn review_needs_a_session_then_an_administrator() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Umbrella")).await;
    let path = item_path(&item);
    let change = json!({ "status": "approved" });

    let nobody = app.client();
    assert_error(
        &nobody.patch(&path, change.clone()).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(&nobody.delete(&path).await, StatusCode::UNAUTHORIZED, "Login required");
    let forbidden = StatusCode::FORBIDDEN;
    assert_error(
        &alice.patch(&path, change).await,
        forbidden,
        "Admin privileges required",
    );
    assert_error(&alice.delete(&path).await, forbidden, "Admin privileges required");

    assert_eq!(app.client().get(&path).await, (StatusCode::OK, in_public_view(&item)));
    assert!(
        app.store
            .item_changes(ItemId::new(item["id"].as_i64().unwrap()).unwrap())
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn reviewing_an_unknown_item_is_404() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let item = admin.create_item(item_body("Umbrella")).await;
    let path = format!("/api/items/{}", item["id"].as_i64().unwrap() + 1);
    let answer = admin.patch(&path, json!({ "status": "approved" })).await;
    assert_error(&answer, StatusCode::NOT_FOUND, "Item not found");
    assert_error(&admin.delete(&path).await, StatusCode::NOT_FOUND, "Item not found");
    assert_eq!(app.client().get(&item_path(&item)).await.1, in_public_view(&item));
}

#[tokio::test]
async fn a_patch_needs_a_valid_status_or_a_storage_place() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let item = admin.create_item(item_body("Umbrella")).await;
    let path = item_path(&item);
    for status in [
        json!("lost"),
        json!("APPROVED"),
        json!(""),
        json!(3),
        json!(true),
        json!(["approved"]),
    ] {
        let answer = admin.patch(&path, json!({ "status": status })).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid status");
    }
    for body in [json!({}), json!({ "title": "New title" }), json!({ "status": null })] {
        let answer = admin.patch(&path, body).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "No fields to update");
    }
    for place in [json!("s".repeat(201)), json!("Shelf\0B"), json!(["Shelf B"])] {
        let (status, body) = admin
            .patch(&path, json!({ "status": "approved", "storagePlace": place }))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["error"].as_str().unwrap().contains("storagePlace"), "{body}");
    }
    assert_eq!(
        app.client().get(&path).await.1,
        in_public_view(&item),
        "a refused patch changed the item"
    );
}

#[tokio::test]
async fn the_storage_place_is_set_and_cleared() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let item = admin.create_item(item_body("Umbrella")).await;
    let path = item_path(&item);
    for clear in [json!(null), json!("")] {
        let (status, set) = admin.patch(&path, json!({ "storagePlace": "Front desk" })).await;
        assert_eq!((status, &set["storagePlace"]), (StatusCode::OK, &json!("Front desk")));
        assert_eq!(set["status"], "pending", "setting the place changed the status");

        let (status, cleared) = admin.patch(&path, json!({ "storagePlace": clear })).await;
        assert_eq!(
            (status, &cleared["storagePlace"]),
            (StatusCode::OK, &Value::Null),
            "{clear}"
        );
        assert_eq!(admin.get(&path).await.1, cleared);
    }
    let answer = admin.patch(&path, json!({ "storagePlace": 12 })).await;
    assert_eq!(answer.0, StatusCode::BAD_REQUEST);
    assert!(
        answer.1["error"].as_str().unwrap().contains("storagePlace"),
        "{}",
        answer.1
    );
}

#[tokio::test]
async fn any_state_moves_to_any_state() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let path = item_path(&admin.create_item(item_body("Umbrella")).await);
    for from in STATES {
        for to in STATES {
            assert_eq!(admin.patch(&path, json!({ "status": from })).await.1["status"], from);
            let (status, item) = admin.patch(&path, json!({ "status": to })).await;
            assert_eq!(
                (status, item["status"].as_str()),
                (StatusCode::OK, Some(to)),
                "{from} -> {to}"
            );
            assert_eq!(app.client().get(&path).await.1["status"], to);
        }
    }
}

#[tokio::test]
async fn delete_removes_the_item() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let item = admin.create_item(item_body("Umbrella")).await;
    let other = admin.create_item(item_body("Wallet")).await;
    let path = item_path(&item);

    assert_eq!(admin.delete(&path).await, (StatusCode::OK, json!({ "ok": true })));
    assert_error(&app.client().get(&path).await, StatusCode::NOT_FOUND, "Item not found");
    assert_error(&admin.delete(&path).await, StatusCode::NOT_FOUND, "Item not found");
    assert_eq!(app.client().get("/api/items").await.1, json!([in_public_view(&other)]));
}

#[tokio::test]
async fn every_change_is_recorded_with_who_when_and_what() {
    let app = spawn_app().await;
    let admin = app.logged_in("admin", true).await;
    let boss = app.logged_in("boss", true).await;
    let item = admin.create_item(item_body("Umbrella")).await;
    let (id, path) = (item["id"].as_i64().unwrap(), item_path(&item));

    // Each review action with who made it, the time span of its request, and the change.
    let mut expected = Vec::new();
    for (client, who, change) in [
        (&admin, "admin", Some(json!({ "status": "approved" }))),
        (&boss, "boss", Some(json!({ "storagePlace": "Shelf B" }))),
        (
            &admin,
            "admin",
            Some(json!({ "status": "rejected", "storagePlace": null })),
        ),
        (&boss, "boss", None),
    ] {
        let before = now_ms();
        let answer = match &change {
            Some(change) => client.patch(&path, change.clone()).await,
            None => client.delete(&path).await,
        };
        let after = now_ms();
        assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
        let recorded = change.unwrap_or_else(|| json!({ "deleted": true }));
        expected.push((who, before..=after, recorded));
    }

    // Read from the table itself, which outlives the item.
    let rows = app
        .db
        .sql(&format!(
            "SELECT changed_by || ' ' || CAST(changed_at AS TEXT) || ' ' || change \
             FROM item_changes WHERE item_id = {id} ORDER BY id"
        ))
        .await;
    assert_eq!(rows.len(), expected.len(), "{rows:?}");
    for (row, (who, during, change)) in rows.iter().zip(expected) {
        let mut parts = row.splitn(3, ' ');
        let (by, at, what) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        assert_eq!(by, who, "{row}");
        assert!(
            during.contains(&at.parse::<i64>().unwrap()),
            "{row} not within {during:?}"
        );
        assert_eq!(serde_json::from_str::<Value>(what).unwrap(), change, "{row}");
    }
}

/// Staff may say why they reject a report: the reporter's notification carries the reason,
/// and the item's history records it. A reason goes with a rejection only.
#[tokio::test]
async fn a_rejection_s_reason_reaches_the_reporter() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Phone charger")).await;
    let path = item_path(&item);

    for (body, message) in [
        (
            json!({ "status": "approved", "reason": "Looks fine" }),
            "Invalid reason",
        ),
        (
            json!({ "storagePlace": "Desk 1", "reason": "Why not" }),
            "Invalid reason",
        ),
        (
            json!({ "status": "rejected", "reason": "x".repeat(501) }),
            "reason must be at most 500 characters",
        ),
        (json!({ "status": "rejected", "reason": 7 }), "reason must be a string"),
    ] {
        let (status, answer) = admin.patch(&path, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["error"], message, "{body}");
    }
    let (_, unchanged) = admin.get(&path).await;
    assert_eq!(unchanged["status"], "pending", "a refused patch changes nothing");

    let reason = "Chargers are not kept: ask at the IT desk.";
    let (status, answer) = admin
        .patch(&path, json!({ "status": "rejected", "reason": reason }))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, told) = alice.get("/api/notifications").await;
    assert_eq!(
        told[0]["text"],
        format!("Your report “Phone charger” was rejected: {reason}")
    );
    let (_, history) = admin.get(&format!("{path}/history")).await;
    let last = history.as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        last["change"],
        json!({ "status": "rejected", "reason": reason }),
        "{history}"
    );

    // Without a reason, as before; a blank one is none.
    admin.patch(&path, json!({ "status": "pending" })).await;
    admin
        .patch(&path, json!({ "status": "rejected", "reason": "  " }))
        .await;
    let (_, told) = alice.get("/api/notifications").await;
    assert_eq!(told[0]["text"], "Your report “Phone charger” was rejected.");
}
