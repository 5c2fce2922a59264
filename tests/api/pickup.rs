//! From claim to hands: an accepted claim's item waits at its desk, whose details the
//! claimant is told (never the shelf); staff hand it over with the ID checked, or call the
//! pickup off with a reason; the receipt; what waits for a claimant stays where it is.

use reqwest::{StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::*;

async fn returned_at(app: &TestApp, item: i64) -> Value {
    app.client()
        .get(&format!("/api/items/{item}?fields=returnedAt"))
        .await
        .1["returnedAt"]
        .clone()
}

async fn last_change(app: &TestApp, item: i64) -> String {
    let log = app
        .db
        .sql(&format!(
            "SELECT changed_by || ' ' || change FROM item_changes WHERE item_id = {item} ORDER BY id"
        ))
        .await;
    log.last().unwrap().clone()
}

async fn texts(client: &TestClient) -> Vec<String> {
    let (_, list) = client.get("/api/notifications").await;
    list.as_array()
        .unwrap()
        .iter()
        .map(|n| n["text"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn accepted_it_waits_at_the_desk_then_is_handed_over_on_an_id_check() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let other = app.logged_in("other", false).await;
    let desk = json!({ "name": "Main desk", "place": "Student Union, room 12", "hours": "Mon–Fri 9–17",
        "contact": "lost@example.edu", "collect": "Your student card" });
    assert_eq!(admin.patch("/api/sites/1", desk).await.0, StatusCode::OK);
    let item = shelved_item(&admin, &finder, "Grey backpack").await;
    let claim = accepted_claim(&admin, &owner, item).await;

    // Ready for pickup: told where, when and what to bring — the desk, never the shelf.
    assert_eq!(
        texts(&owner).await[0],
        "Your claim on “Grey backpack” is accepted: it is ready for pickup at Main desk. Where: Student Union, \
         room 12. Open: Mon–Fri 9–17. Contact: lost@example.edu. Bring: Your student card."
    );
    assert_eq!(
        returned_at(&app, item).await,
        Value::Null,
        "not returned before anyone came"
    );
    assert_eq!(
        last_change(&app, item).await,
        format!(r#"office {{"promised":{{"claim":{},"to":"owner"}}}}"#, &claim[12..])
    );
    assert_error(
        &other
            .post(&format!("/api/items/{item}/claims"), json!({ "message": "Mine" }))
            .await,
        StatusCode::BAD_REQUEST,
        "Item cannot be claimed",
    );
    let (_, stats) = admin.get("/api/stats").await;
    assert_eq!(stats["returned"], 0, "{stats}");

    // The handover: staff only, the ID required.
    let handover = format!("{claim}/handover");
    assert_error(
        &owner.post(&handover, json!({ "idChecked": "Student card" })).await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );
    for bad in [
        json!({}),
        json!({ "idChecked": " " }),
        json!({ "idChecked": "x".repeat(201) }),
        json!({ "idChecked": "Passport", "collectedBy": 3 }),
    ] {
        let answer = admin.post(&handover, bad.clone()).await;
        assert_eq!(answer.0, StatusCode::BAD_REQUEST, "{bad}: {}", answer.1);
    }
    assert_eq!(
        returned_at(&app, item).await,
        Value::Null,
        "a refused handover changes nothing"
    );
    let (status, collected) = admin
        .post(
            &handover,
            json!({ "idChecked": "Student card 2024-118", "collectedBy": "Ana Ruiz" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{collected}");
    assert_eq!(collected["status"], "collected");
    assert_eq!(collected["handover"]["by"], "office");
    assert_eq!(collected["handover"]["idChecked"], "Student card 2024-118");
    assert_eq!(collected["handover"]["collectedBy"], "Ana Ruiz");
    assert!(collected["handover"]["at"].is_string());
    assert!(returned_at(&app, item).await.is_string());
    assert_eq!(
        last_change(&app, item).await,
        format!(
            r#"office {{"handedOver":{{"claim":{},"collectedBy":"Ana Ruiz","to":"owner"}}}}"#,
            &claim[12..]
        )
    );
    assert_eq!(
        texts(&owner).await[0],
        "“Grey backpack” was handed over. Your receipt is in My reports."
    );
    assert_eq!(
        texts(&finder).await[0],
        "“Grey backpack”, which you reported found, went back to its owner. Thank you!"
    );
    assert_eq!(admin.get("/api/stats").await.1["returned"], 1);
    assert_error(
        &admin.post(&handover, json!({ "idChecked": "Passport" })).await,
        StatusCode::CONFLICT,
        "Claim is not waiting for pickup",
    );
    assert_error(
        &admin
            .post(&format!("{claim}/cancel"), json!({ "reason": "Too late" }))
            .await,
        StatusCode::CONFLICT,
        "Claim is not waiting for pickup",
    );
}

#[tokio::test]
async fn only_an_accepted_claim_is_handed_over_or_cancelled() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let item = shelved_item(&admin, &finder, "Blue umbrella").await;
    let (_, open) = owner
        .post(&format!("/api/items/{item}/claims"), json!({ "message": "Mine" }))
        .await;
    let open = format!("/api/claims/{}", open["id"]);
    assert_error(
        &admin
            .post(&format!("{open}/handover"), json!({ "idChecked": "Passport" }))
            .await,
        StatusCode::CONFLICT,
        "Claim is not waiting for pickup",
    );
    assert_error(
        &admin.post(&format!("{open}/cancel"), json!({ "reason": "No" })).await,
        StatusCode::CONFLICT,
        "Claim is not waiting for pickup",
    );
    for path in ["/api/claims/999/handover", "/api/claims/abc/handover"] {
        assert_error(
            &admin.post(path, json!({ "idChecked": "Passport" })).await,
            StatusCode::NOT_FOUND,
            "Claim not found",
        );
    }
    assert_error(
        &app.client()
            .post(&format!("{open}/cancel"), json!({ "reason": "No" }))
            .await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_eq!(returned_at(&app, item).await, Value::Null);
}

#[tokio::test]
async fn a_pickup_called_off_tells_the_claimant_why_and_frees_the_item() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let other = app.logged_in("other", false).await;
    let item = shelved_item(&admin, &finder, "Black wallet").await;
    let claim = accepted_claim(&admin, &owner, item).await;
    let cancel = format!("{claim}/cancel");
    for bad in [json!({}), json!({ "reason": "" }), json!({ "reason": "x".repeat(201) })] {
        let answer = admin.post(&cancel, bad.clone()).await;
        assert_eq!(answer.0, StatusCode::BAD_REQUEST, "{bad}: {}", answer.1);
    }
    let reason = "The card inside names someone else";
    let (status, cancelled) = admin.post(&cancel, json!({ "reason": reason })).await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["status"], "cancelled");
    assert_eq!(cancelled["cancellation"]["reason"], reason);
    assert_eq!(cancelled["cancellation"]["by"], "office");
    assert_eq!(
        texts(&owner).await[0],
        format!("The pickup of “Black wallet” was called off: {reason}")
    );
    assert_eq!(
        last_change(&app, item).await,
        format!(
            r#"office {{"pickupCancelled":{{"claim":{},"reason":"{reason}"}}}}"#,
            &claim[12..]
        )
    );
    assert_eq!(returned_at(&app, item).await, Value::Null);
    // Claimable again, by someone else.
    accepted_claim(&admin, &other, item).await;
}

#[tokio::test]
async fn what_waits_for_its_claimant_is_neither_disposed_of_closed_nor_sent_away() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let (status, _) = admin.post("/api/sites", json!({ "name": "Sports centre" })).await;
    assert_eq!(status, StatusCode::CREATED);
    let item = shelved_item(&admin, &finder, "Red scarf").await;
    let claim = accepted_claim(&admin, &owner, item).await;
    const WAITING: &str = "Item is awaiting pickup: cancel the pickup first";
    assert_error(
        &admin
            .post(&format!("/api/items/{item}/disposal"), json!({ "method": "donated" }))
            .await,
        StatusCode::CONFLICT,
        WAITING,
    );
    assert_error(
        &admin.post(&format!("/api/items/{item}/close"), json!({})).await,
        StatusCode::CONFLICT,
        WAITING,
    );
    assert_error(
        &admin
            .post(&format!("/api/items/{item}/transfer"), json!({ "to": 2 }))
            .await,
        StatusCode::CONFLICT,
        WAITING,
    );
    let (_, now) = app
        .client()
        .get(&format!("/api/items/{item}?fields=disposedAt,closedAt,transitTo"))
        .await;
    assert_eq!(now, json!({ "disposedAt": null, "closedAt": null, "transitTo": null }));
    admin
        .post(&format!("{claim}/cancel"), json!({ "reason": "Never came" }))
        .await;
    let (status, _) = admin
        .post(&format!("/api/items/{item}/disposal"), json!({ "method": "donated" }))
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_receipt_is_the_claimants_and_the_desks_and_names_who_what_and_when() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let other = app.logged_in("other", false).await;
    let item = shelved_item(&admin, &finder, "<b>Keys</b> & fob").await;
    let claim = accepted_claim(&admin, &owner, item).await;
    let receipt = format!("{claim}/receipt");
    assert_error(
        &owner.get(&receipt).await,
        StatusCode::CONFLICT,
        "No receipt: the item is not handed over",
    );
    admin
        .post(
            &format!("{claim}/handover"),
            json!({ "idChecked": "Passport ending 4821" }),
        )
        .await;

    for reader in [&owner, &admin] {
        let (status, headers, page) = reader.send_raw(reader.request(reqwest::Method::GET, &receipt)).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
        assert!(
            headers[header::CONTENT_SECURITY_POLICY]
                .to_str()
                .unwrap()
                .starts_with("default-src 'none'")
        );
        for part in [
            &format!("#{item} — &lt;b&gt;Keys&lt;/b&gt; &amp; fob"),
            "owner (owner)",
            "Passport ending 4821",
            "office (office)",
            "Lost and found office",
            "Signature of the person collecting",
        ] {
            assert!(page.contains(part), "{part} in {page}");
        }
        assert!(!page.contains("<b>Keys"), "user text is never markup");
        assert!(!page.contains("Safe, drawer 2"), "the shelf is not on it");
    }
    let (_, _, korean) = owner
        .send_raw(owner.request(reqwest::Method::GET, &format!("{receipt}?lang=ko")))
        .await;
    assert!(
        korean.contains("<html lang=\"ko\">") && korean.contains("확인한 신분증"),
        "{korean}"
    );
    assert_error(
        &owner.get(&format!("{receipt}?lang=xx")).await,
        StatusCode::BAD_REQUEST,
        "Invalid lang",
    );
    assert_error(&other.get(&receipt).await, StatusCode::FORBIDDEN, "Not your claim");
    assert_error(
        &app.client().get(&receipt).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(
        &owner.get("/api/claims/999/receipt").await,
        StatusCode::NOT_FOUND,
        "Claim not found",
    );
}

/// What the release before pickups accepted was handed over at once: after the upgrade it is
/// `collected`, by whom and when it was accepted, with no ID recorded, and has its receipt.
#[tokio::test]
async fn an_earlier_releases_accepted_claim_becomes_a_handover() {
    let mut app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let item = shelved_item(&admin, &finder, "Green scarf").await;
    let (_, claim) = owner
        .post(&format!("/api/items/{item}/claims"), json!({ "message": "Mine" }))
        .await;
    let at = 1_700_000_000_000_i64;
    app.stop().await;
    // As that release left it: accepted and returned at once, no migration 21.
    let undo: &[&str] = if on_postgres() {
        &[
            "DROP INDEX claims_accepted_once",
            "ALTER TABLE claims DROP COLUMN settled_at, DROP COLUMN settled_by, DROP COLUMN collected_by, \
             DROP COLUMN id_checked, DROP COLUMN cancel_reason, DROP COLUMN post_address, \
             DROP COLUMN post_requested_at, DROP COLUMN post_fee, DROP COLUMN post_fee_at, DROP COLUMN post_paid, \
             DROP COLUMN post_paid_at, DROP COLUMN post_paid_by, DROP COLUMN post_carrier, \
             DROP COLUMN post_tracking, DROP CONSTRAINT claims_status_check",
            "ALTER TABLE claims ADD CONSTRAINT claims_status_check \
             CHECK (status IN ('open', 'accepted', 'rejected', 'withdrawn'))",
        ]
    } else {
        &["DROP INDEX claims_accepted_once"]
    };
    for statement in undo {
        app.db.sql(statement).await;
    }
    for statement in [
        format!("UPDATE claims SET status = 'accepted', decided_at = {at}, decided_by = 'office'"),
        format!("UPDATE items SET returned_at = {at} WHERE id = {item}"),
        "DELETE FROM _sqlx_migrations WHERE version = 21".to_owned(),
    ] {
        app.db.sql(&statement).await;
    }
    let app = app.restart().await;
    let owner = owner.at(&app);
    let (_, claims) = owner.get("/api/claims").await;
    assert_eq!(claims[0]["status"], "collected", "{claims}");
    assert_eq!(
        claims[0]["handover"],
        json!({ "at": "2023-11-14T22:13:20.000Z", "by": "office", "collectedBy": null, "idChecked": null })
    );
    let receipt = format!("/api/claims/{}/receipt", claim["id"]);
    let (status, _, page) = owner.send_raw(owner.request(reqwest::Method::GET, &receipt)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("2023-11-14 22:13 UTC") && !page.contains("Identity document"),
        "{page}"
    );
    // One claim may wait for pickup per item from now on.
    assert_eq!(app.db.count("claims WHERE status = 'accepted'").await, 0);
}

#[tokio::test]
async fn by_post_the_owner_gives_an_address_staff_price_it_record_payment_and_send_it_with_tracking() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let other = app.logged_in("other", false).await;
    let item = shelved_item(&admin, &finder, "Silver watch").await;
    let claim = accepted_claim(&admin, &owner, item).await;
    let (post, fee, payment, sent) = (
        format!("{claim}/post"),
        format!("{claim}/post/fee"),
        format!("{claim}/post/payment"),
        format!("{claim}/post/sent"),
    );
    const ADDRESS: &str = "Calle Mayor 5, 3ºB\n28013 Madrid";

    // Only the claimant asks, with an address.
    assert_error(
        &other.post(&post, json!({ "address": ADDRESS })).await,
        StatusCode::FORBIDDEN,
        "Not your claim",
    );
    for bad in [
        json!({}),
        json!({ "address": " " }),
        json!({ "address": "x".repeat(501) }),
    ] {
        let answer = owner.post(&post, bad.clone()).await;
        assert_eq!(answer.0, StatusCode::BAD_REQUEST, "{bad}: {}", answer.1);
    }
    assert_error(
        &admin
            .post(&sent, json!({ "carrier": "DHL", "tracking": "JD0146" }))
            .await,
        StatusCode::CONFLICT,
        "No posting requested",
    );
    let (status, asked) = owner.post(&post, json!({ "address": format!("  {ADDRESS} ") })).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert_eq!(asked["post"]["address"], ADDRESS);
    assert_eq!(
        (&asked["post"]["fee"], &asked["post"]["sent"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(
        texts(&admin).await[0],
        "The claimant of “Silver watch” asks for it to be posted."
    );
    assert_error(
        &owner.post(&post, json!({ "address": "Elsewhere" })).await,
        StatusCode::CONFLICT,
        "Posting already requested",
    );

    // The address is the claimant's and the desk's: in no public answer, no one else's.
    for reader in [&app.client(), &finder, &other] {
        for path in [
            format!("/api/items/{item}"),
            "/api/items".into(),
            "/api/claims".into(),
            "/api/notifications".into(),
        ] {
            let (_, _, body) = reader.send_raw(reader.request(reqwest::Method::GET, &path)).await;
            assert!(!body.contains("Calle Mayor"), "{path}: {body}");
        }
    }
    let (_, _, staff_told) = admin
        .send_raw(admin.request(reqwest::Method::GET, "/api/notifications"))
        .await;
    assert!(!staff_told.contains("Calle Mayor"), "{staff_told}");

    // Priced, paid, then sent; each in its turn.
    assert_error(
        &admin.post(&payment, json!({ "note": "Cash" })).await,
        StatusCode::CONFLICT,
        "Set the postage first",
    );
    assert_error(
        &admin
            .post(&sent, json!({ "carrier": "DHL", "tracking": "JD0146" }))
            .await,
        StatusCode::CONFLICT,
        "Set the postage first",
    );
    assert_error(
        &owner.post(&fee, json!({ "fee": "0" })).await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );
    assert_eq!(admin.post(&fee, json!({})).await.0, StatusCode::BAD_REQUEST);
    let (status, priced) = admin.post(&fee, json!({ "fee": "4.50 EUR" })).await;
    assert_eq!(status, StatusCode::OK, "{priced}");
    assert_eq!(priced["post"]["fee"]["amount"], "4.50 EUR");
    assert_eq!(
        texts(&owner).await[0],
        "Posting “Silver watch” costs 4.50 EUR. Pay the desk as it tells you; it is sent once paid."
    );
    assert_error(
        &admin
            .post(&sent, json!({ "carrier": "DHL", "tracking": "JD0146" }))
            .await,
        StatusCode::CONFLICT,
        "Postage not paid",
    );
    let (status, paid) = admin.post(&payment, json!({ "note": "Bank transfer ref 2211" })).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    assert_eq!(paid["post"]["payment"]["note"], "Bank transfer ref 2211");
    assert_eq!(paid["post"]["payment"]["by"], "office");
    assert_eq!(
        texts(&owner).await[0],
        "Your payment for posting “Silver watch” is recorded."
    );
    assert_error(
        &admin.post(&fee, json!({ "fee": "9 EUR" })).await,
        StatusCode::CONFLICT,
        "Postage already paid",
    );
    assert_eq!(
        returned_at(&app, item).await,
        Value::Null,
        "not returned before it leaves"
    );
    for bad in [
        json!({ "carrier": "DHL" }),
        json!({ "tracking": "JD0146" }),
        json!({ "carrier": "DHL", "tracking": "x".repeat(101) }),
    ] {
        let answer = admin.post(&sent, bad.clone()).await;
        assert_eq!(answer.0, StatusCode::BAD_REQUEST, "{bad}: {}", answer.1);
    }
    let (status, posted) = admin
        .post(&sent, json!({ "carrier": "DHL", "tracking": "JD014600003" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{posted}");
    assert_eq!(posted["status"], "posted");
    assert_eq!(posted["post"]["sent"]["carrier"], "DHL");
    assert_eq!(posted["post"]["sent"]["tracking"], "JD014600003");
    assert_eq!(posted["post"]["sent"]["by"], "office");
    assert!(returned_at(&app, item).await.is_string());
    assert_eq!(
        texts(&owner).await[0],
        "“Silver watch” is on its way: DHL, tracking number JD014600003."
    );
    assert_eq!(
        texts(&finder).await[0],
        "“Silver watch”, which you reported found, went back to its owner. Thank you!"
    );
    assert_eq!(
        last_change(&app, item).await,
        format!(
            r#"office {{"posted":{{"carrier":"DHL","claim":{},"to":"owner","tracking":"JD014600003"}}}}"#,
            &claim[12..]
        )
    );
    // The owner sees the tracking with the claim; nothing moves twice.
    assert_eq!(
        owner.get("/api/claims").await.1[0]["post"]["sent"]["tracking"],
        "JD014600003"
    );
    assert_error(
        &admin.post(&sent, json!({ "carrier": "DHL", "tracking": "JD1" })).await,
        StatusCode::CONFLICT,
        "Claim is not waiting for pickup",
    );
}

#[tokio::test]
async fn a_free_posting_is_sent_without_a_payment() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let finder = app.logged_in("finder", false).await;
    let owner = app.logged_in("owner", false).await;
    let item = shelved_item(&admin, &finder, "Library card").await;
    let claim = accepted_claim(&admin, &owner, item).await;
    owner
        .post(&format!("{claim}/post"), json!({ "address": "12 Elm Road" }))
        .await;
    let (status, free) = admin.post(&format!("{claim}/post/fee"), json!({ "fee": null })).await;
    assert_eq!(status, StatusCode::OK, "{free}");
    assert_eq!(free["post"]["fee"]["amount"], Value::Null);
    assert_eq!(
        texts(&owner).await[0],
        "“Library card” will be posted to you at no cost."
    );
    assert_error(
        &admin
            .post(&format!("{claim}/post/payment"), json!({ "note": "Cash" }))
            .await,
        StatusCode::CONFLICT,
        "Posting costs nothing",
    );
    let (status, posted) = admin
        .post(
            &format!("{claim}/post/sent"),
            json!({ "carrier": "Royal Mail", "tracking": "RM1" }),
        )
        .await;
    assert_eq!(
        (status, &posted["status"]),
        (StatusCode::OK, &json!("posted")),
        "{posted}"
    );
}
