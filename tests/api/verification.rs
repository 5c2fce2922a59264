//! Judging a claim: verification details recorded at intake, read by staff only; the claim's
//! own conversation between its claimant and the item's desk, private to the two; the
//! claimant's contact beside the claim.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{
    helpers::*,
    node::{Server, add_accounts},
};

const SECRET: &str = "Student card of J. Kim inside; red thread on the zip";

/// A found wallet `office` took in at the desk with its verification details: its id.
async fn taken_in(office: &TestClient) -> i64 {
    let (status, item) = office
        .post(
            "/api/items",
            json!({ "title": "Black wallet", "kind": "found", "status": "approved", "lat": 51.5, "lng": -0.12,
                "verification": format!("  {SECRET} ") }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{item}");
    item["id"].as_i64().unwrap()
}

/// Staff of site 1 (not an administrator), logged in.
async fn desk_staff(app: &TestApp, office: &TestClient, id: &str, site: i64) -> TestClient {
    let staff = app.logged_in(id, false).await;
    let (status, account) = office
        .patch(&format!("/api/users/{id}"), json!({ "sites": [site] }))
        .await;
    assert_eq!(status, StatusCode::OK, "{account}");
    staff
}

#[tokio::test]
async fn verification_details_are_recorded_at_intake_and_read_by_staff_only() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let lib = desk_staff(&app, &office, "lib", 1).await;
    let member = app.logged_in("member", false).await;
    let item = taken_in(&office).await;
    let asked = format!("/api/items/{item}?fields=id,verification");

    for staff in [&office, &lib] {
        assert_eq!(staff.get(&asked).await.1, json!({ "id": item, "verification": SECRET }));
    }
    // Anyone else: left out even when named, in one item and in lists; never in the contract's keys.
    for reader in [&member, &app.client()] {
        assert_eq!(reader.get(&asked).await.1, json!({ "id": item }));
        let (_, list) = reader.get("/api/items?fields=id,verification").await;
        assert!(!list.to_string().contains("Kim"), "{list}");
    }
    let (_, plain) = office.get(&format!("/api/items/{item}")).await;
    assert!(plain.get("verification").is_none(), "{plain}");
    // Not in the CSV either, not even the desk's.
    let (_, _, csv) = office
        .send_raw(office.request(reqwest::Method::GET, "/api/items.csv"))
        .await;
    assert!(csv.contains("Black wallet") && !csv.contains("Kim"), "{csv}");

    // From anyone but staff, a new report's details are not read.
    let report = member
        .create_item(json!({ "title": "Keys", "kind": "found", "lat": 51.5, "lng": -0.12, "verification": "x" }))
        .await;
    let (_, stored) = office
        .get(&format!("/api/items/{}?fields=verification", report["id"]))
        .await;
    assert_eq!(stored, json!({ "verification": null }));

    // Bounded, and named when too long.
    let long =
        json!({ "title": "Umbrella", "lat": 0, "lng": 0, "status": "approved", "verification": "v".repeat(1001) });
    let (status, error) = office.post("/api/items", long).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(error["error"].as_str().unwrap().contains("verification"), "{error}");

    // Staff correct them; the history says only that they changed.
    let edit = format!("/api/items/{item}/report");
    let (status, _) = lib
        .patch(&edit, json!({ "verification": "A red thread on the zip" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(lib.get(&asked).await.1["verification"], "A red thread on the zip");
    let (_, history) = lib.get(&format!("/api/items/{item}/history")).await;
    assert!(!history.to_string().contains("red thread"), "{history}");
    assert!(history.to_string().contains(r#""verification":true"#), "{history}");
    let (status, _) = lib.patch(&edit, json!({ "verification": null })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(lib.get(&asked).await.1["verification"], Value::Null);

    // A reporter who is not staff may not record them, and nothing changes.
    let own = format!("/api/items/{}/report", report["id"]);
    assert_error(
        &member
            .patch(&own, json!({ "title": "Car keys", "verification": "A blue fob" }))
            .await,
        StatusCode::FORBIDDEN,
        "Only staff record verification details",
    );
    let (_, unchanged) = member.get(&format!("/api/items/{}", report["id"])).await;
    assert_eq!(unchanged["title"], "Keys");
}

#[tokio::test]
async fn a_claim_has_a_private_conversation_between_its_claimant_and_the_desk() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let (status, _) = office.post("/api/sites", json!({ "name": "Sports centre" })).await;
    assert_eq!(status, StatusCode::CREATED);
    let lib = desk_staff(&app, &office, "lib", 1).await;
    let gym = desk_staff(&app, &office, "gym", 2).await;
    let owner = app.logged_in("owner", false).await;
    let other = app.logged_in("other", false).await;
    app.db
        .sql("UPDATE users SET email = 'owner@example.edu' WHERE id = 'owner'")
        .await;
    let item = taken_in(&office).await;
    let (status, claim) = owner
        .post(
            &format!("/api/items/{item}/claims"),
            json!({ "message": "Black leather, my student card is inside" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{claim}");
    let talk = format!("/api/claims/{}/messages", claim["id"]);

    // The desk sees the claim with how to reach its claimant, when it asks.
    let (_, queue) = lib.get("/api/claims?status=open&contact=true").await;
    let contact = &queue[0]["contact"];
    assert_eq!(contact["email"], "owner@example.edu", "{queue}");
    assert!(contact["name"].is_string(), "{queue}");
    let (_, of_item) = lib.get(&format!("/api/items/{item}/claims?contact=true")).await;
    assert_eq!(of_item[0]["contact"], *contact);
    assert!(
        lib.get("/api/claims").await.1[0].get("contact").is_none(),
        "only when asked"
    );
    assert_error(
        &lib.get("/api/claims?contact=yes").await,
        StatusCode::BAD_REQUEST,
        "Invalid contact",
    );
    // The claimant never gets it: it is for the desk.
    let (_, own) = owner.get("/api/claims?contact=true").await;
    assert!(own[0].get("contact").is_none(), "{own}");

    // Nobody has written yet; only the two sides may read or write.
    assert_eq!(owner.get(&talk).await, (StatusCode::OK, json!([])));
    for outsider in [&other, &gym] {
        assert_error(&outsider.get(&talk).await, StatusCode::FORBIDDEN, "Not your claim");
        assert_error(
            &outsider.post(&talk, json!({ "text": "Hello" })).await,
            StatusCode::FORBIDDEN,
            "Not your claim",
        );
    }
    assert_eq!(app.client().get(&talk).await.0, StatusCode::UNAUTHORIZED);

    // The desk asks; the claimant is told, without the words.
    let question = "What colour is the keyring on it?";
    let (status, asked) = lib.post(&talk, json!({ "text": question })).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert_eq!(
        (&asked["author"], &asked["fromDesk"], &asked["text"]),
        (&json!("lib"), &json!(true), &json!(question))
    );
    let (_, told) = owner.get("/api/notifications").await;
    assert_eq!(
        told[0]["text"],
        "The desk wrote to you about your claim on “Black wallet”. Read and answer it in My reports."
    );
    // The claimant answers; the desk is told.
    let answer = "A green one, shaped like a frog";
    let (status, answered) = owner.post(&talk, json!({ "text": answer })).await;
    assert_eq!((status, &answered["fromDesk"]), (StatusCode::OK, &json!(false)));
    let (_, told) = lib.get("/api/notifications").await;
    assert_eq!(
        told[0]["text"],
        "The claimant of “Black wallet” wrote to the desk about their claim."
    );
    for side in [&owner, &lib, &office] {
        let (_, conversation) = side.get(&talk).await;
        let texts: Vec<&Value> = conversation.as_array().unwrap().iter().map(|m| &m["text"]).collect();
        assert_eq!(texts, [question, answer], "oldest first");
    }
    // Never in the item's public thread.
    let thread = app
        .db
        .sql(&format!(
            "SELECT CAST(COUNT(*) AS TEXT) FROM messages WHERE body LIKE '%frog%' OR item_id = {item}"
        ))
        .await;
    assert_eq!(thread, ["0"]);

    // Bad input changes nothing.
    for (body, error) in [
        (json!({}), "text is required"),
        (json!({ "text": "   " }), "text is required"),
        (json!({ "text": 7 }), "text must be a string"),
    ] {
        assert_error(&owner.post(&talk, body).await, StatusCode::BAD_REQUEST, error);
    }
    let (status, _) = owner.post(&talk, json!({ "text": "x".repeat(2001) })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(
        &owner.get("/api/claims/999/messages").await,
        StatusCode::NOT_FOUND,
        "Claim not found",
    );
    assert_eq!(app.db.count("claim_messages").await, 2);

    // A conversation is bounded: 200 messages, then the next is refused.
    app.db
        .sql(&format!(
            "INSERT INTO claim_messages (claim_id, author, body, created_at) \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 198) \
             SELECT {}, 'owner', 'again', 1 FROM n",
            claim["id"]
        ))
        .await;
    assert_error(
        &owner.post(&talk, json!({ "text": "One more" })).await,
        StatusCode::CONFLICT,
        "Conversation is full",
    );

    // Once decided against, what was written stays readable and nothing more is written.
    let (status, _) = lib
        .patch(&format!("/api/claims/{}", claim["id"]), json!({ "status": "rejected" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_error(
        &lib.post(&talk, json!({ "text": "Sorry" })).await,
        StatusCode::CONFLICT,
        "Claim is closed",
    );
    assert_eq!(owner.get(&talk).await.1.as_array().unwrap().len(), 200);
}

#[tokio::test]
async fn verification_details_and_claim_messages_stay_out_of_the_log() {
    let db = TestDb::new().await;
    add_accounts(
        &db,
        &[("desk", "Desk-pw-123456", true), ("owner", "Owner-pw-123456", false)],
    )
    .await;
    let server = Server::start(&db, &[]).await;
    let (desk, owner) = (server.client(), server.client());
    desk.login("desk", "Desk-pw-123456").await;
    owner.login("owner", "Owner-pw-123456").await;
    let item = taken_in(&desk).await;
    let (_, claim) = owner
        .post(
            &format!("/api/items/{item}/claims"),
            json!({ "message": "Mine, Kestrelword inside" }),
        )
        .await;
    let talk = format!("/api/claims/{}/messages", claim["id"]);
    let (status, _) = desk.post(&talk, json!({ "text": "Say the Falconword" })).await;
    assert_eq!(status, StatusCode::OK);
    server
        .wait_for(&server.stderr, |log| log.contains(&talk).then_some(()))
        .await;
    let (status, _, log) = server.signal("-TERM").await;
    assert!(status.success());
    for secret in ["Kim", "Kestrelword", "Falconword"] {
        assert!(!log.contains(secret), "the log contains {secret:?}:\n{log}");
    }
}
