//! Claims on found items: who may open, see, decide and withdraw one, the exact answers and
//! texts, and the privacy of the message. What follows an acceptance is in `pickup.rs`.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const SECRET: &str = "Mine: the inside pocket has a ticket to Lisbon, 3 March";

/// An approved found item reported by `finder`; its id.
async fn found_item(admin: &TestClient, finder: &TestClient) -> i64 {
    let item = finder
        .create_item(json!({ "title": "Grey backpack", "kind": "found", "lat": 51.5, "lng": -0.12 }))
        .await;
    let (status, _) = admin.patch(&item_path(&item), json!({ "status": "approved" })).await;
    assert_eq!(status, StatusCode::OK);
    item["id"].as_i64().unwrap()
}

async fn claim(client: &TestClient, item: i64, message: &str) -> (StatusCode, Value) {
    client
        .post(&format!("/api/items/{item}/claims"), json!({ "message": message }))
        .await
}

#[tokio::test]
async fn a_claim_is_opened_seen_by_its_claimant_and_staff_only_and_accepted_for_pickup() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let other = app.logged_in("other", false).await;
    let item = found_item(&admin, &finder).await;

    let (status, mine) = claim(&owner, item, &format!("  {SECRET}  ")).await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    let keys: Vec<&str> = mine.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys.iter().copied().collect::<std::collections::BTreeSet<_>>(),
        [
            "claimant",
            "created_at",
            "decidedBy",
            "decided_at",
            "id",
            "itemId",
            "message",
            "status"
        ]
        .into()
    );
    assert_eq!(mine["itemId"], item);
    assert_eq!(mine["claimant"], "owner");
    assert_eq!(mine["message"], SECRET);
    assert_eq!(mine["status"], "open");
    assert_eq!(mine["decided_at"], Value::Null);
    assert_eq!(mine["decidedBy"], Value::Null);
    let (_, theirs) = claim(&other, item, "It is mine too").await;

    // Who sees what.
    let path = format!("/api/items/{item}/claims");
    assert_eq!(ids(&owner.get(&path).await.1), [mine["id"].as_i64().unwrap()]);
    assert_eq!(ids(&finder.get(&path).await.1), Vec::<i64>::new());
    assert_eq!(ids(&admin.get(&path).await.1).len(), 2);
    assert_error(
        &app.client().get(&path).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(
        &app.client().get("/api/claims").await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_eq!(ids(&owner.get("/api/claims").await.1), [mine["id"].as_i64().unwrap()]);
    let queue = admin.get("/api/claims?status=open").await.1;
    assert_eq!(
        ids(&queue),
        [theirs["id"].as_i64().unwrap(), mine["id"].as_i64().unwrap()]
    );

    // The message is in no public answer.
    for path in [
        format!("/api/items/{item}"),
        "/api/items".into(),
        format!("/api/items/{item}/matches"),
    ] {
        let (_, _, body) = app
            .client()
            .send_raw(app.client().request(reqwest::Method::GET, &path))
            .await;
        assert!(!body.contains("Lisbon"), "{path}: {body}");
    }

    // Only an administrator decides.
    let decide = format!("/api/claims/{}", mine["id"]);
    assert_error(
        &owner.patch(&decide, json!({ "status": "accepted" })).await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );
    assert_error(
        &admin.patch(&decide, json!({ "status": "withdrawn" })).await,
        StatusCode::BAD_REQUEST,
        "Invalid status",
    );
    let (status, accepted) = admin.patch(&decide, json!({ "status": "accepted" })).await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    assert_eq!(accepted["status"], "accepted");
    assert_eq!(accepted["decidedBy"], "office");
    assert!(accepted["decided_at"].is_string());
    assert_error(
        &admin.patch(&decide, json!({ "status": "rejected" })).await,
        StatusCode::CONFLICT,
        "Claim already decided",
    );

    // The other open claim is rejected; the item waits for its claimant, promised to them.
    let (_, theirs_now) = other.get("/api/claims").await;
    assert_eq!(theirs_now[0]["status"], "rejected");
    assert_eq!(theirs_now[0]["decidedBy"], "office");
    let (_, waiting) = app
        .client()
        .get(&format!("/api/items/{item}?fields=id,returnedAt"))
        .await;
    assert_eq!(waiting["returnedAt"], Value::Null, "{waiting}");
    let log = app
        .db
        .sql(&format!(
            "SELECT changed_by || ' ' || change FROM item_changes WHERE item_id = {item} ORDER BY id"
        ))
        .await;
    assert_eq!(
        log.last().unwrap(),
        &format!(r#"office {{"promised":{{"claim":{},"to":"owner"}}}}"#, mine["id"])
    );
    // An item promised to someone cannot be claimed by another.
    assert_error(
        &claim(&other, item, "Still mine").await,
        StatusCode::BAD_REQUEST,
        "Item cannot be claimed",
    );
}

#[tokio::test]
async fn what_cannot_be_claimed_and_what_is_refused() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let item = found_item(&admin, &finder).await;

    assert_error(
        &claim(&app.client(), item, SECRET).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(
        &claim(&finder, item, SECRET).await,
        StatusCode::FORBIDDEN,
        "You reported this item",
    );
    assert_error(
        &claim(&owner, item + 100, SECRET).await,
        StatusCode::NOT_FOUND,
        "Item not found",
    );
    for message in [json!(""), json!("   "), json!(7), json!("x".repeat(2_001))] {
        let answer = owner
            .post(&format!("/api/items/{item}/claims"), json!({ "message": message }))
            .await;
        assert_eq!(answer.0, StatusCode::BAD_REQUEST, "{message}: {}", answer.1);
    }
    assert_eq!(claim(&owner, item, &"é".repeat(2_000)).await.0, StatusCode::OK);
    assert_error(
        &claim(&owner, item, SECRET).await,
        StatusCode::CONFLICT,
        "Claim already open",
    );

    // A lost item, a pending found item.
    let lost = owner
        .create_item(json!({ "title": "Lost keys", "kind": "lost", "lat": 51.5, "lng": -0.12 }))
        .await;
    admin.patch(&item_path(&lost), json!({ "status": "approved" })).await;
    let pending = finder
        .create_item(json!({ "title": "Found keys", "kind": "found", "lat": 51.5, "lng": -0.12 }))
        .await;
    for id in [&lost["id"], &pending["id"]] {
        let other = app.logged_in(&format!("someone{id}"), false).await;
        assert_error(
            &claim(&other, id.as_i64().unwrap(), SECRET).await,
            StatusCode::BAD_REQUEST,
            "Item cannot be claimed",
        );
    }
    assert_error(
        &admin.get("/api/claims?status=lost").await,
        StatusCode::BAD_REQUEST,
        "Invalid status",
    );
    assert_error(
        &admin.patch("/api/claims/999", json!({ "status": "accepted" })).await,
        StatusCode::NOT_FOUND,
        "Claim not found",
    );
    assert_error(
        &admin.patch("/api/claims/abc", json!({ "status": "accepted" })).await,
        StatusCode::NOT_FOUND,
        "Claim not found",
    );
}

#[tokio::test]
async fn a_claimant_withdraws_an_open_claim_and_only_their_own() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let item = found_item(&admin, &finder).await;
    let (_, mine) = claim(&owner, item, SECRET).await;
    let path = format!("/api/claims/{}", mine["id"]);

    assert_error(&finder.delete(&path).await, StatusCode::FORBIDDEN, "Not your claim");
    assert_error(
        &app.client().delete(&path).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(
        &owner.delete("/api/claims/999").await,
        StatusCode::NOT_FOUND,
        "Claim not found",
    );
    let (status, withdrawn) = owner.delete(&path).await;
    assert_eq!(status, StatusCode::OK, "{withdrawn}");
    assert_eq!(withdrawn["status"], "withdrawn");
    assert_eq!(withdrawn["decidedBy"], "owner");
    assert_error(
        &owner.delete(&path).await,
        StatusCode::CONFLICT,
        "Claim already decided",
    );
    assert_error(
        &admin.patch(&path, json!({ "status": "accepted" })).await,
        StatusCode::CONFLICT,
        "Claim already decided",
    );
    // Withdrawn, it no longer blocks a new claim; the item is not returned.
    assert_eq!(claim(&owner, item, SECRET).await.0, StatusCode::OK);
    let (_, item) = app.client().get(&format!("/api/items/{item}?fields=returnedAt")).await;
    assert_eq!(item, json!({ "returnedAt": null }));
}

/// The races this guards against exist on PostgreSQL only, where the requests run side by
/// side: there it proves the open-claim index and the item's row lock. On SQLite, which runs
/// one write at a time, it checks the outcome and proves nothing about concurrency.
#[tokio::test]
async fn at_once_one_claim_opens_and_one_acceptance_wins() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let other = app.logged_in("other", false).await;
    let item = found_item(&admin, &finder).await;

    let opened = futures_util::future::join_all((0..8).map(|_| claim(&owner, item, SECRET))).await;
    let statuses: Vec<StatusCode> = opened.iter().map(|(status, _)| *status).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::OK).count(),
        1,
        "{opened:?}"
    );
    for answer in opened.iter().filter(|(status, _)| *status != StatusCode::OK) {
        assert_error(answer, StatusCode::CONFLICT, "Claim already open");
    }

    let (_, theirs) = claim(&other, item, "Mine").await;
    let mine = opened
        .iter()
        .find(|(status, _)| *status == StatusCode::OK)
        .unwrap()
        .1
        .clone();
    let (mine, theirs) = (
        format!("/api/claims/{}", mine["id"]),
        format!("/api/claims/{}", theirs["id"]),
    );
    let accepted = json!({ "status": "accepted" });
    let (first, second) = tokio::join!(
        admin.patch(&mine, accepted.clone()),
        admin.patch(&theirs, accepted.clone())
    );
    let mut answers = [first, second];
    answers.sort_by_key(|(status, _)| *status);
    assert_eq!(answers[0].0, StatusCode::OK, "{answers:?}");
    assert_error(&answers[1], StatusCode::CONFLICT, "Claim already decided");
    let accepted = app
        .db
        .sql("SELECT claimant FROM claims WHERE status = 'accepted'")
        .await;
    assert_eq!(accepted.len(), 1, "{accepted:?}");
}

/// A claim opened while another on its item is accepted is refused, or rejected with the
/// other open claims: never left open on a promised item. The race exists on PostgreSQL, where the two
/// run side by side (the item's row lock settles it); on SQLite writes take turns.
#[tokio::test]
async fn a_claim_opened_during_an_acceptance_is_never_left_open() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let first = app.logged_in("first", false).await;
    let late = app.logged_in("late", false).await;
    for trial in 0..20 {
        let item = found_item(&admin, &finder).await;
        let (status, mine) = claim(&first, item, "The grey one is mine").await;
        assert_eq!(status, StatusCode::OK, "{mine}");
        let decide = format!("/api/claims/{}", mine["id"]);
        let accept = admin.patch(&decide, json!({ "status": "accepted" }));
        let ((accepted, _), (late_status, _)) = tokio::join!(accept, claim(&late, item, "No, mine"));
        assert_eq!(accepted, StatusCode::OK, "trial {trial}");
        assert!(
            late_status.is_success() || late_status.is_client_error(),
            "trial {trial}: {late_status}"
        );
        let open = app
            .db
            .sql(&format!(
                "SELECT CAST(COUNT(*) AS TEXT) FROM claims WHERE item_id = {item} AND status = 'open'"
            ))
            .await;
        assert_eq!(open, ["0"], "trial {trial}: a claim left open on a promised item");
    }
}

/// With `LOSTFOUND_OFFICE` set, the first desk takes it as what to bring, and an accepted
/// claim tells it — never the shelf the item is kept on; the web app reads the office from
/// `/api/config`.
#[tokio::test]
async fn an_accepted_claim_says_where_to_collect_the_item() {
    let office = "Student Union, room 12, Mon–Fri 9–17; bring your student card";
    let app = TestApp::start_with(TestDb::new().await, |config| config.office = Some(office.into())).await;
    assert_eq!(app.client().get("/api/config").await.1["office"], office);
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let item = found_item(&admin, &finder).await;
    let (status, _) = admin
        .patch(&format!("/api/items/{item}"), json!({ "storagePlace": "Shelf B4" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, claim_made) = claim(&owner, item, "Mine: a keyring inside").await;
    let (status, _) = admin
        .patch(
            &format!("/api/claims/{}", claim_made["id"]),
            json!({ "status": "accepted" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, told) = owner.get("/api/notifications").await;
    assert_eq!(
        told[0]["text"],
        format!(
            "Your claim on “Grey backpack” is accepted: it is ready for pickup at Lost and found office. Bring: {office}."
        )
    );
}
