//! `DELETE /api/me`: a person erases their account. Their sessions end on every device, they
//! cannot log in, and nobody can take their id; what the office keeps — reports, claims with
//! the handover that ended them, messages — stays, under an anonymous account, and nothing
//! stored names them any more.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{helpers::*, sio::write_message};

#[tokio::test]
async fn an_erased_account_is_gone_and_what_the_office_keeps_names_nobody() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let ann = app.logged_in("ann", false).await;
    let anns_phone = app.logged_in_again("ann").await;
    let bob = app.logged_in("bob", false).await;

    // Ann: an open lost report; an umbrella handed over to her; an open claim on a scarf,
    // with a word from the desk; messages in the chat and a thread; a "Not mine".
    let scarf_report = ann.create_item(item_body("Ann's red scarf")).await;
    office
        .patch(&item_path(&scarf_report), json!({ "status": "approved" }))
        .await;
    let umbrella = shelved_item(&office, &bob, "Black umbrella").await;
    let pickup = accepted_claim(&office, &ann, umbrella).await;
    let (status, _) = office
        .post(
            &format!("{pickup}/handover"),
            json!({ "idChecked": "Student card 2024-118" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let scarf = shelved_item(&office, &bob, "Red scarf").await;
    let (_, open_claim) = ann
        .post(
            &format!("/api/items/{scarf}/claims"),
            json!({ "message": "Mine: a moth hole" }),
        )
        .await;
    let conversation = format!("/api/claims/{}/messages", open_claim["id"]);
    ann.post(&conversation, json!({ "text": "Ann Lee, room 4" })).await;
    write_message(&app, Some("ann"), None, "Ann Lee", "Ann in the chat").await;
    write_message(&app, Some("ann"), Some(umbrella), "Ann Lee", "Ann in the thread").await;
    ann.post(&format!("/api/items/{scarf}/not-mine"), json!({})).await;

    // Refused without the password, or with a wrong one: nothing changes.
    let answer = ann.delete_with("/api/me", json!({})).await;
    assert_error(&answer, StatusCode::BAD_REQUEST, "Current password required");
    let answer = ann.delete_with("/api/me", json!({ "current": "not-it" })).await;
    assert_error(&answer, StatusCode::FORBIDDEN, "Wrong password");
    assert_eq!(ann.get("/api/me").await.1["user"]["id"], "ann");

    let (status, body) = ann
        .delete_with("/api/me", json!({ "current": password_of("ann") }))
        .await;
    assert_eq!((status, body), (StatusCode::OK, json!({ "ok": true })));

    // Gone: both devices are logged out, the password logs no one in, the id is not free.
    for device in [&ann, &anns_phone] {
        assert_eq!(device.get("/api/me").await.1, json!({ "user": null }));
    }
    assert_eq!(
        app.client().login("ann", &password_of("ann")).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = office
        .post(
            "/api/users",
            json!({ "id": "Ann", "name": "Another Ann", "password": "another-ann-pass" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);

    // The office keeps its records, under an anonymous account that is recorded as erased.
    let (_, anonymous) = office.get("/api/users?q=erased-").await;
    let anonymous = &anonymous[0];
    let erased = anonymous["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (&anonymous["name"], &anonymous["email"], &anonymous["disabled"]),
        (&json!("Deleted account"), &Value::Null, &json!(true))
    );
    assert_eq!(
        app.db
            .sql(&format!(
                "SELECT CAST(erased_at IS NOT NULL AS TEXT) FROM users WHERE id = '{erased}'"
            ))
            .await,
        [if on_postgres() { "true" } else { "1" }]
    );
    // Nobody can make it an account again: no enabling it, no password for it.
    let path = format!("/api/users/{erased}");
    assert_error(
        &office.patch(&path, json!({ "disabled": false })).await,
        StatusCode::NOT_FOUND,
        "User not found",
    );
    let password = json!({ "password": "a-new-password" });
    assert_error(
        &office.post(&format!("{path}/password"), password).await,
        StatusCode::NOT_FOUND,
        "User not found",
    );
    let handed_over = claim_of(&office, umbrella, &pickup).await;
    assert_eq!(
        (&handed_over["claimant"], &handed_over["status"]),
        (&json!(erased), &json!("collected"))
    );
    assert_eq!(handed_over["handover"]["idChecked"], "Student card 2024-118");
    let withdrawn = claim_of(&office, scarf, &format!("/api/claims/{}", open_claim["id"])).await;
    assert_eq!(withdrawn["status"], "withdrawn", "nobody is left to give it to");
    let (_, report) = office
        .get(&format!("{}?fields=createdBy,closedAt,title", item_path(&scarf_report)))
        .await;
    assert_eq!(report["createdBy"], json!(erased));
    assert!(report["closedAt"].is_string(), "{report}");

    // Nothing stored names her: not her id, not the name she wrote under.
    for (table, columns) in [
        ("users", "id, name"),
        ("items", "created_by"),
        ("claims", "claimant"),
        ("claim_messages", "author"),
        ("messages", "user_id, nick"),
        ("match_answers", "user_id"),
        ("sessions", "user_id"),
        ("notifications", "user_id"),
    ] {
        // The anonymous id is random letters: it may hold "ann" by chance.
        let text: Vec<String> = columns.split(", ").map(|c| format!("COALESCE({c}, '')")).collect();
        let named = app
            .db
            .sql(&format!(
                "SELECT CAST(count(*) AS TEXT) FROM {table} WHERE replace(lower({}), '{erased}', '') LIKE '%ann%'",
                text.join(" || ' ' || ")
            ))
            .await;
        assert_eq!(named, ["0"], "{table}");
    }
    // What she wrote stays, without her name.
    let kept = app
        .db
        .sql(&format!("SELECT nick FROM messages WHERE user_id = '{erased}'"))
        .await;
    assert_eq!(kept, ["Deleted account", "Deleted account"]);
    // Bob's reports and account are untouched.
    assert_eq!(bob.get("/api/me").await.1["user"]["id"], "bob");
}

#[tokio::test]
async fn the_last_administrator_cannot_erase_their_account() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let answer = office
        .delete_with("/api/me", json!({ "current": password_of("office") }))
        .await;
    assert_error(
        &answer,
        StatusCode::BAD_REQUEST,
        "At least one administrator must remain",
    );
    assert_eq!(office.get("/api/me").await.1["user"]["id"], "office");
    assert_error(
        &app.client().delete_with("/api/me", json!({})).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
}

/// The claim at `path` (`/api/claims/N`) of `item`, as staff see it.
async fn claim_of(staff: &TestClient, item: i64, path: &str) -> Value {
    let (_, claims) = staff.get(&format!("/api/items/{item}/claims")).await;
    let id: i64 = path.rsplit('/').next().unwrap().parse().unwrap();
    claims
        .as_array()
        .unwrap()
        .iter()
        .find(|claim| claim["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("claim {id} of item {item}: {claims}"))
}
