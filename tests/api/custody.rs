//! The office's custody work: intake with the finder, holding periods and the due list,
//! disposal, closing reports, the review-waiting notice, `LOSTFOUND_PUBLIC_STATES`, the
//! tighter matching rules and the statistics.

use reqwest::StatusCode;
use rust_socketio::TransportType;
use serde_json::{Value, json};

use crate::{helpers::*, sio::Sio};

/// An item handed in at the desk: found, approved, with its finder.
fn intake(title: &str, cat: Option<&str>) -> Value {
    json!({
        "kind": "found", "status": "approved", "title": title, "cat": cat,
        "lat": 51.5, "lng": -0.12, "radius": 20,
        "finder": { "name": "Ann Finder", "contact": "ann@example.edu" },
    })
}

async fn texts_of(client: &TestClient, kind: &str) -> Vec<String> {
    let (status, list) = client.get("/api/notifications").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == kind)
        .map(|n| n["text"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn intake_records_the_finder_for_staff_only() {
    let app = spawn_app().await;
    let admin = app.logged_in("desk", true).await;
    let user = app.logged_in("carol", false).await;
    let (status, item) = admin
        .post("/api/items?fields=id,kind,status,finder", intake("Blue scarf", None))
        .await;
    assert_eq!(status, StatusCode::OK, "{item}");
    assert_eq!(item["status"], "approved");
    assert_eq!(item["kind"], "found");
    assert_eq!(
        item["finder"],
        json!({ "name": "Ann Finder", "contact": "ann@example.edu" })
    );
    let path = item_path(&item);

    // Without `fields`: the contract's twelve keys, even for staff.
    let (_, plain) = admin.get(&path).await;
    assert_eq!(plain.as_object().unwrap().len(), 12);
    assert!(plain.get("finder").is_none());
    // Others never see it, even when they name it.
    for other in [app.client(), user.clone()] {
        let (status, seen) = other.get(&format!("{path}?fields=id,finder")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(seen, json!({ "id": item["id"] }));
        let (_, list) = other.get("/api/items?fields=finder,title").await;
        assert_eq!(list, json!([{ "title": "Blue scarf" }]));
    }

    // Only staff log items at the desk: from anyone else `status` and `finder` are the
    // contract's assigned keys, ignored.
    let (status, report) = user.post("/api/items?fields=status,finder", intake("Mine", None)).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report, json!({ "status": "pending" }));
    let (_, report) = admin.get("/api/items?createdBy=carol&fields=status,finder").await;
    assert_eq!(report, json!([{ "status": "pending", "finder": null }]));
    for bad in [json!("Ann"), json!({ "name": 3 }), json!({ "phone": "1" })] {
        let mut body = intake("Bad finder", None);
        body["finder"] = bad;
        assert_error(
            &admin.post("/api/items", body).await,
            StatusCode::BAD_REQUEST,
            "Invalid finder",
        );
    }
    let mut body = intake("Bad status", None);
    body["status"] = json!("lost");
    assert_error(
        &admin.post("/api/items", body).await,
        StatusCode::BAD_REQUEST,
        "Invalid status",
    );
    assert_eq!(app.item_count().await, 2);
}

#[tokio::test]
async fn holding_periods_follow_the_category_and_the_due_list_shows_what_is_past_them() {
    let app = TestApp::start_with(TestDb::new().await, |config| {
        config.custody.hold_days = 30;
        config.custody.hold_days_by_category = [("food".to_owned(), 0), ("phone".to_owned(), 180)].into();
    })
    .await;
    let admin = app.logged_in("desk", true).await;
    let user = app.logged_in("carol", false).await;
    let fields = "?fields=id,created_at,holdUntil";
    let (_, food) = admin
        .post(&format!("/api/items{fields}"), intake("Sandwich", Some("Food")))
        .await;
    let (_, phone) = admin
        .post(&format!("/api/items{fields}"), intake("Phone", Some("phone")))
        .await;
    let (_, plain) = admin.post(&format!("/api/items{fields}"), intake("Scarf", None)).await;
    let (_, lost) = user.post(&format!("/api/items{fields}"), item_body("Lost scarf")).await;
    let held = |item: &Value| {
        let created = time::OffsetDateTime::parse(
            item["created_at"].as_str().unwrap(),
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap();
        let until = time::OffsetDateTime::parse(
            item["holdUntil"].as_str().unwrap(),
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap();
        (until - created).whole_days()
    };
    assert_eq!((held(&food), held(&phone), held(&plain)), (0, 180, 30));
    assert_eq!(lost["holdUntil"], Value::Null);
    let [food, phone, plain] = [&food, &phone, &plain].map(|i| i["id"].as_i64().unwrap());

    let due = async || {
        let (status, list) = admin.get("/api/items?due=true&fields=id").await;
        assert_eq!(status, StatusCode::OK, "{list}");
        ids(&list)
    };
    assert_eq!(due().await, [food]);
    for id in [phone, plain] {
        moved_back(&app, id, 31).await;
    }
    assert_eq!(due().await, [food, plain]);
    // What is disposed of leaves the list.
    let (status, _) = admin
        .post(&format!("/api/items/{food}/disposal"), json!({ "method": "destroyed" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(due().await, [plain]);

    assert_error(
        &app.client().get("/api/items?due=true").await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_eq!(user.get("/api/items?due=true").await.0, StatusCode::FORBIDDEN);
    assert_error(
        &admin.get("/api/items?due=yes").await,
        StatusCode::BAD_REQUEST,
        "Invalid due",
    );
    // `due=false` asks for nothing special.
    assert_eq!(ids(&admin.get("/api/items?due=false&fields=id").await.1).len(), 4);
}

#[tokio::test]
async fn each_disposal_method_is_recorded_and_leaves_open_lists() {
    let app = spawn_app().await;
    let admin = app.logged_in("desk", true).await;
    let owner = app.logged_in("owner", false).await;
    let methods = ["donated", "auctioned", "destroyed", "returned-to-finder", "transferred"];
    let mut disposed = Vec::new();
    for method in methods {
        let item = admin.create_item(intake(&format!("Umbrella {method}"), None)).await;
        let path = item_path(&item);
        let body = json!({ "method": method, "note": format!("note {method}") });
        let (status, answer) = admin
            .post(&format!("{path}/disposal?fields=id,disposedAt,disposal"), body)
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert!(answer["disposedAt"].is_string());
        assert_eq!(
            answer["disposal"],
            json!({ "method": method, "note": format!("note {method}") })
        );
        let (_, history) = admin.get(&format!("{path}/history")).await;
        assert_eq!(
            history.as_array().unwrap().last().unwrap()["change"],
            json!({ "disposal": { "method": method, "note": format!("note {method}") } })
        );
        disposed.push(item["id"].as_i64().unwrap());
    }
    // With no holding period by category, too.
    assert_eq!(admin.get("/api/items?due=true").await.0, StatusCode::OK);
    let kept = admin.create_item(intake("Kept umbrella", None)).await;
    let kept_id = kept["id"].as_i64().unwrap();
    let (_, open) = app.client().get("/api/items?open=true&fields=id").await;
    assert_eq!(ids(&open), [kept_id]);
    // Without `open` the contract's whole list.
    assert_eq!(ids(&app.client().get("/api/items").await.1).len(), 6);
    assert_error(
        &app.client().get("/api/items?open=1").await,
        StatusCode::BAD_REQUEST,
        "Invalid open",
    );

    // A claim open on an item disposed of is rejected, and its claimant told.
    let (status, claim) = owner
        .post(&format!("{}/claims", item_path(&kept)), json!({ "message": "Mine" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{claim}");
    let dispose = |id: i64, body: Value| {
        let admin = admin.clone();
        async move { admin.post(&format!("/api/items/{id}/disposal"), body).await }
    };
    assert_eq!(dispose(kept_id, json!({ "method": "donated" })).await.0, StatusCode::OK);
    let (_, claims) = owner.get("/api/claims").await;
    assert_eq!(claims[0]["status"], "rejected");
    assert_eq!(
        texts_of(&owner, "claimDecided").await,
        ["Your claim on “Kept umbrella” was not accepted."]
    );

    // Refusals change nothing.
    let cannot = "Item cannot be disposed";
    assert_error(
        &dispose(kept_id, json!({ "method": "donated" })).await,
        StatusCode::BAD_REQUEST,
        cannot,
    );
    let lost = owner.create_item(item_body("Lost hat")).await["id"].as_i64().unwrap();
    assert_error(
        &dispose(lost, json!({ "method": "donated" })).await,
        StatusCode::BAD_REQUEST,
        cannot,
    );
    let fresh = admin.create_item(intake("Fresh", None)).await["id"].as_i64().unwrap();
    for bad in [json!({}), json!({ "method": "sold" }), json!({ "method": 3 })] {
        assert_error(&dispose(fresh, bad).await, StatusCode::BAD_REQUEST, "Invalid method");
    }
    assert_error(
        &dispose(999_999, json!({ "method": "donated" })).await,
        StatusCode::NOT_FOUND,
        "Item not found",
    );
    let not_staff = owner
        .post(&format!("/api/items/{fresh}/disposal"), json!({ "method": "donated" }))
        .await;
    assert_eq!(not_staff.0, StatusCode::FORBIDDEN);
    let (_, fresh_now) = admin.get(&format!("/api/items/{fresh}?fields=disposedAt")).await;
    assert_eq!(fresh_now["disposedAt"], Value::Null);
}

#[tokio::test]
async fn a_report_is_closed_by_its_reporter_or_staff_and_nobody_else() {
    let app = spawn_app().await;
    let admin = app.logged_in("desk", true).await;
    let reporter = app.logged_in("rita", false).await;
    let other = app.logged_in("otto", false).await;
    let item = reporter.create_item(item_body("Green bottle")).await;
    let path = item_path(&item);
    let close = format!("{path}/close?fields=id,closedAt");

    assert_error(
        &app.client().post(&close, json!({})).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(
        &other.post(&close, json!({})).await,
        StatusCode::FORBIDDEN,
        "Not your report",
    );
    let (status, closed) = reporter.post(&close, json!({ "reason": "Found it myself" })).await;
    assert_eq!(status, StatusCode::OK, "{closed}");
    assert!(closed["closedAt"].is_string());
    let (_, history) = admin.get(&format!("{path}/history")).await;
    assert_eq!(
        history[0]["change"],
        json!({ "closed": { "reason": "Found it myself" } })
    );
    assert_error(
        &reporter.post(&close, json!({})).await,
        StatusCode::BAD_REQUEST,
        "Item cannot be closed",
    );
    assert_error(
        &reporter.post(&close, json!({ "reason": "x".repeat(501) })).await,
        StatusCode::BAD_REQUEST,
        "reason must be at most 500 characters",
    );

    // A found item the office keeps is closed by staff only.
    let shelved = reporter
        .create_item(json!({ "kind": "found", "title": "Keys", "lat": 51.5, "lng": -0.12 }))
        .await;
    let (status, _) = admin
        .patch(
            &item_path(&shelved),
            json!({ "status": "approved", "storagePlace": "Shelf 2" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let shelved_close = format!("{}/close", item_path(&shelved));
    assert_error(
        &reporter.post(&shelved_close, json!({})).await,
        StatusCode::BAD_REQUEST,
        "Item cannot be closed",
    );
    assert_eq!(admin.post(&shelved_close, json!({})).await.0, StatusCode::OK);

    // Staff close anyone's; a closed found item cannot be claimed.
    let found = admin.create_item(intake("Red mug", None)).await;
    let (status, _) = admin.post(&format!("{}/close", item_path(&found)), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_error(
        &other
            .post(&format!("{}/claims", item_path(&found)), json!({ "message": "Mine" }))
            .await,
        StatusCode::BAD_REQUEST,
        "Item cannot be claimed",
    );
    let (_, open) = app.client().get("/api/items?open=true").await;
    assert_eq!(open, json!([]));
}

#[tokio::test]
async fn staff_hear_of_waiting_reports_at_most_once_in_ten_minutes() {
    let app = spawn_app().await;
    let anna = app.logged_in("anna", true).await;
    let ben = app.logged_in("ben", true).await;
    let user = app.logged_in("carol", false).await;
    for n in 0..3 {
        user.create_item(item_body(&format!("Report {n}"))).await;
    }
    // Staff's own reports wait too; their author is not told of them.
    anna.create_item(item_body("Anna's report")).await;
    assert_eq!(texts_of(&anna, "review").await, ["3 new reports wait for review."]);
    assert_eq!(texts_of(&ben, "review").await, ["4 new reports wait for review."]);
    // An intake waits for nothing.
    anna.create_item(intake("Desk item", None)).await;
    assert_eq!(texts_of(&ben, "review").await, ["4 new reports wait for review."]);

    // Ten minutes on, the next report starts another notification.
    app.db
        .sql(&format!(
            "UPDATE notifications SET created_at = created_at - {} WHERE type = 'review'",
            11 * 60 * 1000
        ))
        .await;
    user.create_item(item_body("Later report")).await;
    assert_eq!(
        texts_of(&ben, "review").await,
        ["1 new report waits for review.", "4 new reports wait for review."]
    );
}

#[tokio::test]
async fn with_only_approved_public_others_never_see_pending_or_rejected_reports() {
    let app = TestApp::start_with(TestDb::new().await, |config| {
        config.custody.public_states = vec![lostfound::domain::ItemStatus::Approved];
    })
    .await;
    let admin = app.logged_in("desk", true).await;
    let reporter = app.logged_in("rita", false).await;
    let other = app.logged_in("otto", false).await;
    let mut body = item_body("Hidden wallet");
    body["imgData"] = json!(PNG_DATA_URL);
    let hidden = reporter.create_item(body).await;
    let rejected = reporter.create_item(item_body("Spam")).await;
    admin
        .patch(&item_path(&rejected), json!({ "status": "rejected" }))
        .await;
    let shown = reporter.create_item(item_body("Shown wallet")).await;
    admin.patch(&item_path(&shown), json!({ "status": "approved" })).await;
    let [hidden, rejected, shown] = [&hidden, &rejected, &shown].map(|i| i["id"].as_i64().unwrap());

    for viewer in [app.client(), other.clone()] {
        let answer = viewer.get(&format!("/api/items/{hidden}")).await;
        assert_error(&answer, StatusCode::NOT_FOUND, "Item not found");
        for picture in ["photo", "thumb", "matches"] {
            let answer = viewer.get(&format!("/api/items/{hidden}/{picture}")).await;
            assert_error(&answer, StatusCode::NOT_FOUND, "Item not found");
        }
        let (status, headers, list) = viewer
            .send_raw(viewer.request(reqwest::Method::GET, "/api/items"))
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(ids(&serde_json::from_str(&list).unwrap()), [shown]);
        assert_eq!(headers["x-total-count"], "1");
    }
    // The reporter sees their own; staff see everything.
    assert_eq!(ids(&reporter.get("/api/items").await.1), [shown, rejected, hidden]);
    assert_eq!(ids(&admin.get("/api/items").await.1), [shown, rejected, hidden]);
    // Its photo is hers to keep, not a shared cache's.
    let (_, own) = reporter.get(&format!("/api/items/{hidden}?fields=photoUrl")).await;
    let photo = reporter.request(reqwest::Method::GET, own["photoUrl"].as_str().unwrap());
    let (status, headers, _) = reporter.send_raw(photo).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        headers["cache-control"].to_str().unwrap().starts_with("private"),
        "{headers:?}"
    );
    // Nor can anyone else learn of it through claims.
    let claims = other.get(&format!("/api/items/{hidden}/claims")).await;
    assert_error(&claims, StatusCode::NOT_FOUND, "Item not found");
    let claim = other
        .post(&format!("/api/items/{hidden}/claims"), json!({ "message": "Mine" }))
        .await;
    assert_error(&claim, StatusCode::NOT_FOUND, "Item not found");
    // A hidden item's thread is as if there were none.
    let sio = Sio::connect(&app, TransportType::Websocket).await;
    sio.emit("thread:join", json!({ "itemId": hidden, "nick": "x" })).await;
    assert_eq!(sio.next("error").await, json!({ "message": "Item not found" }));
    sio.emit("thread:join", json!({ "itemId": shown, "nick": "x" })).await;
    assert_eq!(sio.next("thread:history").await["itemId"], shown);

    // Approved, it is everyone's.
    admin
        .patch(&format!("/api/items/{hidden}"), json!({ "status": "approved" }))
        .await;
    assert_eq!(
        app.client().get(&format!("/api/items/{hidden}")).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_owner_hears_of_a_match_whichever_was_approved_first_and_own_or_closed_reports_never_match() {
    let app = spawn_app().await;
    let admin = app.logged_in("desk", true).await;
    let owner = app.logged_in("olga", false).await;
    let finder = app.logged_in("fred", false).await;
    let approve = async |item: &Value| {
        let (status, answer) = admin.patch(&item_path(item), json!({ "status": "approved" })).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    };
    let report = |kind: &str, title: &str, cat: &str| json!({ "kind": kind, "title": title, "cat": cat, "lat": 51.5, "lng": -0.12, "radius": 30 });

    // Found first, then the lost report.
    let found = finder.create_item(report("found", "Black umbrella", "Umbrellas")).await;
    approve(&found).await;
    let lost = owner.create_item(report("lost", "Umbrella", "umbrellas")).await;
    approve(&lost).await;
    let told = "A found item “Black umbrella” may be your “Umbrella”.";
    assert_eq!(texts_of(&owner, "match").await, [told]);

    // Lost first, then the found item.
    let lost2 = owner.create_item(report("lost", "Reading glasses", "Glasses")).await;
    approve(&lost2).await;
    let found2 = finder
        .create_item(report("found", "Glasses in a case", "glasses"))
        .await;
    approve(&found2).await;
    assert_eq!(
        texts_of(&owner, "match").await,
        ["A found item “Glasses in a case” may be your “Reading glasses”.", told]
    );

    // A user's own reports never match; closed items never match. (The glasses, of another
    // category, only score lower.)
    let matches = async |item: &Value| {
        let (_, list) = app.client().get(&format!("{}/matches", item_path(item))).await;
        list.as_array()
            .unwrap()
            .iter()
            .map(|m| m["item"]["id"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    let (found, found2) = (found["id"].as_i64().unwrap(), found2["id"].as_i64().unwrap());
    assert_eq!(matches(&lost).await, [found, found2]);
    let own = owner.create_item(report("found", "Black umbrella", "Umbrellas")).await;
    approve(&own).await;
    assert_eq!(matches(&lost).await, [found, found2]);
    let (status, _) = finder.post(&format!("/api/items/{found}/close"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(matches(&lost).await, [found2]);
    assert_eq!(matches(&json!({ "id": found })).await, Vec::<i64>::new());
}

#[tokio::test]
async fn a_handover_closes_the_owners_matching_lost_report() {
    let app = spawn_app().await;
    let admin = app.logged_in("desk", true).await;
    let owner = app.logged_in("olga", false).await;
    let lost = owner
        .create_item(json!({ "kind": "lost", "title": "Blue backpack", "lat": 51.5, "lng": -0.12 }))
        .await;
    admin.patch(&item_path(&lost), json!({ "status": "approved" })).await;
    let unrelated = owner
        .create_item(json!({ "kind": "lost", "title": "Keys", "cat": "keys", "lat": 51.5, "lng": -0.12 }))
        .await;
    admin
        .patch(&item_path(&unrelated), json!({ "status": "approved" }))
        .await;
    let found = admin.create_item(intake("Backpack, blue", Some("bags"))).await;
    let (_, claim) = owner
        .post(&format!("{}/claims", item_path(&found)), json!({ "message": "Mine" }))
        .await;
    let (status, _) = admin
        .patch(&format!("/api/claims/{}", claim["id"]), json!({ "status": "accepted" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    let closed_at =
        async |item: &Value| owner.get(&format!("{}?fields=closedAt", item_path(item))).await.1["closedAt"].clone();
    assert_eq!(closed_at(&lost).await, Value::Null, "open until the owner has it");
    let (status, _) = admin
        .post(
            &format!("/api/claims/{}/handover", claim["id"]),
            json!({ "idChecked": "Student card" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(closed_at(&lost).await.is_string());
    assert_eq!(closed_at(&unrelated).await, Value::Null);
    let (_, history) = admin.get(&format!("{}/history", item_path(&lost))).await;
    let last = history.as_array().unwrap().last().unwrap();
    assert_eq!(
        last["change"],
        json!({ "closed": { "reason": format!("Returned through claim {}", claim["id"]) } })
    );
    // Done by the handover: by the administrator who handed the item over.
    assert_eq!(last["by"], "desk");
}

#[tokio::test]
async fn statistics_count_a_known_set_of_reports() {
    let app = spawn_app().await;
    let admin = app.logged_in("desk", true).await;
    let user = app.logged_in("carol", false).await;
    let owner = app.logged_in("olga", false).await;
    // Monday 2026-03-02 10:00 UTC, and a day in each of the two weeks after.
    let monday = 1_772_445_600_000_i64;
    let at = |id: i64, ms: i64| {
        let app = &app;
        async move {
            app.db
                .sql(&format!("UPDATE items SET created_at = {ms} WHERE id = {id}"))
                .await
        }
    };
    let id = |item: Value| item["id"].as_i64().unwrap();
    let phone1 = id(admin.create_item(intake("Phone", Some("Phone"))).await);
    let phone2 = id(admin.create_item(intake("Phone 2", Some("phone"))).await);
    let bag = id(admin.create_item(intake("Bag", Some("Bags"))).await);
    let lost1 = id(user
        .create_item(json!({"title": "Lost phone", "cat": "phone", "lat": 0, "lng": 0}))
        .await);
    let lost2 = id(user
        .create_item(json!({"title": "Lost thing", "lat": 0, "lng": 0}))
        .await);
    admin
        .patch(&format!("/api/items/{lost2}"), json!({ "status": "rejected" }))
        .await;
    let outside = id(user.create_item(item_body("Before the period")).await);
    for (item, ms) in [
        (phone1, monday),
        (phone2, monday + DAY_MS),
        (bag, monday + 7 * DAY_MS),
        (lost1, monday + 8 * DAY_MS),
        (lost2, monday + 15 * DAY_MS),
        (outside, monday - 30 * DAY_MS),
    ] {
        at(item, ms).await;
    }
    // phone1 returned 2 days after its report, phone2 donated, lost1 closed.
    let (_, claim) = owner
        .post(&format!("/api/items/{phone1}/claims"), json!({ "message": "Mine" }))
        .await;
    admin
        .patch(&format!("/api/claims/{}", claim["id"]), json!({ "status": "accepted" }))
        .await;
    admin
        .post(
            &format!("/api/claims/{}/handover", claim["id"]),
            json!({ "idChecked": "Passport" }),
        )
        .await;
    app.db
        .sql(&format!(
            "UPDATE items SET returned_at = {} WHERE id = {phone1}",
            monday + 2 * DAY_MS
        ))
        .await;
    admin
        .post(&format!("/api/items/{phone2}/disposal"), json!({ "method": "donated" }))
        .await;
    user.post(&format!("/api/items/{lost1}/close"), json!({})).await;

    let (status, stats) = admin
        .get("/api/stats?since=2026-03-01T00:00:00Z&until=2026-04-01T00:00:00Z")
        .await;
    assert_eq!(status, StatusCode::OK, "{stats}");
    assert_eq!(
        stats,
        json!({
            "since": "2026-03-01T00:00:00.000Z", "until": "2026-04-01T00:00:00.000Z", "site": null,
            "reports": { "total": 5, "lost": 2, "found": 3 },
            "states": { "pending": 1, "approved": 3, "rejected": 1 },
            "categories": [
                { "cat": "phone", "lost": 1, "found": 2 },
                { "cat": "bags", "lost": 0, "found": 1 },
                { "cat": null, "lost": 1, "found": 0 },
            ],
            "weeks": [
                { "week": "2026-03-02", "lost": 0, "found": 2 },
                { "week": "2026-03-09", "lost": 1, "found": 1 },
                { "week": "2026-03-16", "lost": 1, "found": 0 },
            ],
            "returned": 1,
            "disposed": { "total": 1, "donated": 1, "auctioned": 0, "destroyed": 0, "returned-to-finder": 0, "transferred": 0 },
            "closed": 1,
            "returnRate": 0.333,
            "medianDaysToReturn": 2.0,
        })
    );
    // Unbounded: the report before the period counts too.
    assert_eq!(admin.get("/api/stats").await.1["reports"]["total"], 6);
    assert_error(
        &app.client().get("/api/stats").await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_eq!(user.get("/api/stats").await.0, StatusCode::FORBIDDEN);
    assert_error(
        &admin.get("/api/stats?since=March").await,
        StatusCode::BAD_REQUEST,
        "Invalid since",
    );
}
