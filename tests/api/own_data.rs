//! `GET /api/me/export`: a person's copy of their own data — everything the service holds
//! about them, and nothing of anyone else's.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{helpers::*, sio::write_message};

#[tokio::test]
async fn the_copy_holds_everything_of_the_callers_and_nothing_of_anyone_elses() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let ann = app.logged_in("ann", false).await;
    let bob = app.logged_in("bob", false).await;

    // Ann: a lost report with a photo, another one rejected; the office: a found umbrella; Bob:
    // a report.
    let mut scarf = item_body("Ann's blue scarf");
    scarf["imgData"] = json!(data_url("image/png", &png(40, 30, true)));
    let scarf = ann.create_item(scarf).await;
    let gloves = ann.create_item(item_body("Ann's gloves")).await;
    office.patch(&item_path(&gloves), json!({ "status": "rejected" })).await;
    let umbrella = office
        .create_item(json!({ "title": "Black umbrella", "kind": "found", "lat": 51.5, "lng": -0.12 }))
        .await;
    office
        .patch(&item_path(&umbrella), json!({ "status": "approved" }))
        .await;
    let bobs = bob.create_item(item_body("Bob's wallet")).await;
    let umbrella_id = umbrella["id"].as_i64().unwrap();

    // Ann claims the umbrella; the office asks her a question, she answers. Bob claims it too.
    let (status, claim) = ann
        .post(
            &format!("/api/items/{umbrella_id}/claims"),
            json!({ "message": "A bent spoke, a red tag" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{claim}");
    let messages = format!("/api/claims/{}/messages", claim["id"]);
    assert_eq!(
        office.post(&messages, json!({ "text": "Which spoke?" })).await.0,
        StatusCode::OK
    );
    assert_eq!(
        ann.post(&messages, json!({ "text": "The third from the handle" }))
            .await
            .0,
        StatusCode::OK
    );
    let (_, bobs_claim) = bob
        .post(
            &format!("/api/items/{umbrella_id}/claims"),
            json!({ "message": "Bob's secret" }),
        )
        .await;
    assert!(bobs_claim["id"].is_i64(), "{bobs_claim}");

    // Messages: Ann's in the chat and in the umbrella's thread; Bob's too.
    write_message(&app, Some("ann"), None, "Ann", "Ann in the chat").await;
    write_message(&app, Some("ann"), Some(umbrella_id), "Ann", "Ann in the thread").await;
    write_message(&app, Some("bob"), None, "Bob", "Bob in the chat").await;
    assert_eq!(
        ann.post(&format!("/api/items/{}/not-mine", bobs["id"]), json!({}))
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(ann.patch("/api/me", json!({ "lang": "es" })).await.0, StatusCode::OK);
    assert_eq!(
        ann.patch("/api/me/mail", json!({ "match": false })).await.0,
        StatusCode::OK
    );

    let (status, headers, body) = ann.send_raw(ann.request(reqwest::Method::GET, "/api/me/export")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        headers["content-disposition"],
        "attachment; filename=\"lostfound-ann.json\""
    );
    let copy: Value = serde_json::from_str(&body).unwrap();

    assert_eq!(copy["account"]["id"], "ann");
    assert_eq!(copy["lang"], "es");
    assert!(
        copy["account"].get("password").is_none() && !body.contains("argon2"),
        "{body}"
    );
    // Her reports, newest first, in every state, the photo by its address.
    assert_eq!(
        ids(&copy["reports"]),
        [gloves["id"].as_i64().unwrap(), scarf["id"].as_i64().unwrap()]
    );
    assert_eq!(copy["reports"][0]["status"], "rejected");
    assert!(copy["reports"][1]["photoUrl"].is_string(), "{}", copy["reports"][1]);
    assert!(copy["reports"][1].get("imgData").is_none());
    // Her claim, with its conversation; not Bob's.
    assert_eq!(ids(&copy["claims"]), [claim["id"].as_i64().unwrap()]);
    assert_eq!(copy["claims"][0]["message"], "A bent spoke, a red tag");
    let said: Vec<&str> = copy["claims"][0]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(said, ["Which spoke?", "The third from the handle"]);
    // What she wrote, where; not Bob's.
    let written: Vec<(Value, &str)> = copy["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["itemId"].clone(), m["text"].as_str().unwrap()))
        .collect();
    assert_eq!(
        written,
        [
            (Value::Null, "Ann in the chat"),
            (json!(umbrella_id), "Ann in the thread")
        ]
    );
    // Her notifications (the rejection, the office's question), in her language.
    let notices = copy["notifications"].as_array().unwrap();
    assert!(notices.len() >= 2, "{notices:?}");
    assert!(
        notices
            .iter()
            .any(|n| n["text"].as_str().unwrap().contains("Ann's gloves")),
        "{notices:?}"
    );
    assert_eq!(copy["notMine"], json!([bobs["id"]]));
    assert_eq!(
        (&copy["mail"]["match"], &copy["mail"]["itemStatus"]),
        (&json!(false), &json!(true))
    );
    // Nothing of Bob's anywhere in it.
    for theirs in ["Bob's wallet", "Bob's secret", "Bob in the chat", "\"bob\""] {
        assert!(!body.contains(theirs), "{theirs} in Ann's copy: {body}");
    }

    // Bob's copy is his own.
    let (_, bobs_copy) = bob.get("/api/me/export").await;
    assert_eq!(ids(&bobs_copy["claims"]), [bobs_claim["id"].as_i64().unwrap()]);
    assert_eq!(bobs_copy["messages"].as_array().unwrap().len(), 1);
    // Only for who is logged in.
    assert_error(
        &app.client().get("/api/me/export").await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
}
