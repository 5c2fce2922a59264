//! A visitor without an account: staff take their lost report at the desk with their email
//! address; an account is made for the address (no password), the visitor is mailed a link
//! that logs them in to follow the report, and its notices reach them by mail. An address
//! with an account already keeps it; only staff may name a visitor.

use lostfound::config::SignupPolicy;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{
    signup::{link_token, nth_mail_to, signed_up, signup_app},
    smtp_sink::body,
};

const ADDRESS: &str = "minjun@example.org";

/// A lost report body taken for the visitor `visitor`.
fn for_visitor(title: &str, visitor: Value) -> Value {
    json!({ "title": title, "desc": "Navy, with a silver zip", "kind": "lost", "status": "approved",
            "lat": 51.5, "lng": -0.12, "radius": 50, "visitor": visitor })
}

#[tokio::test]
async fn staff_take_a_visitors_report_who_follows_it_by_the_mailed_link_and_hears_of_matches_by_mail() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    let office = app.logged_in("office", true).await;
    let visitor = json!({ "name": "Min-jun Lee", "email": ADDRESS, "phone": "+44 20 7946 0000" });
    let (status, item) = office
        .post(
            "/api/items?fields=id,createdBy,status",
            for_visitor("Navy backpack", visitor.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{item}");
    let account = item["createdBy"].as_str().unwrap().to_owned();
    assert!(account.starts_with("visitor-") && account.len() == 18, "{account}");
    assert_eq!(item["status"], "approved");
    // The account: the visitor's name and address, the phone for the desk; no password.
    let (_, accounts) = office.get(&format!("/api/users?q={account}")).await;
    assert_eq!(accounts[0]["name"], "Min-jun Lee");
    assert_eq!(accounts[0]["email"], ADDRESS);
    assert_eq!(
        (&accounts[0]["visitor"], &accounts[0]["phone"]),
        (&json!(true), &json!("+44 20 7946 0000"))
    );
    let (_, office_account) = office.get("/api/users?q=office").await;
    assert!(office_account[0].get("visitor").is_none() && office_account[0].get("phone").is_none());
    let (status, _) = app
        .client()
        .post("/api/login", json!({ "id": account, "pw": "!" }))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // The link logs the visitor in, as often as it is opened: their report is theirs.
    let mail = nth_mail_to(&sink, ADDRESS, 1).await;
    assert!(body(&mail).contains("Min-jun Lee"), "{mail}");
    let token = link_token(&mail, "follow");
    for _ in 0..2 {
        let visitor = app.client();
        let (status, me) = visitor.post("/api/follow", json!({ "token": token })).await;
        assert_eq!(status, StatusCode::OK, "{me}");
        assert_eq!(me["user"]["id"], account.as_str());
        let (_, mine) = visitor
            .get(&format!("/api/items?createdBy={account}&fields=id,title"))
            .await;
        assert_eq!(mine, json!([{ "id": item["id"], "title": "Navy backpack" }]));
    }
    let bad = "A".repeat(43);
    let (status, answer) = app.client().post("/api/follow", json!({ "token": bad })).await;
    assert_eq!(
        (status, &answer["error"]),
        (StatusCode::BAD_REQUEST, &json!("Invalid or expired link"))
    );

    // A found backpack handed in: the visitor hears of it by mail.
    let (status, _) = office
        .post(
            "/api/items",
            json!({ "title": "Navy backpack", "desc": "Silver zip", "kind": "found", "status": "approved",
                    "lat": 51.5, "lng": -0.12, "radius": 10 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let notice = nth_mail_to(&sink, ADDRESS, 2).await;
    assert!(body(&notice).contains("Navy backpack"), "{notice}");
    // With a new link of its own: the first may have run out by the time a notice comes.
    let renewed = link_token(&notice, "follow");
    assert_ne!(renewed, token);
    let (status, _) = app.client().post("/api/follow", json!({ "token": renewed })).await;
    assert_eq!(status, StatusCode::OK);

    // A second report for the same address: the same account, and a new link.
    let (_, again) = office
        .post("/api/items?fields=createdBy", for_visitor("Umbrella", visitor))
        .await;
    assert_eq!(again["createdBy"], account.as_str());
    let second = nth_mail_to(&sink, ADDRESS, 3).await;
    assert_ne!(link_token(&second, "follow"), token);

    // Given a desk's work, or disabled, the account's links no longer log in: a link is no
    // way into staff's rights.
    let follows = || async { app.client().post("/api/follow", json!({ "token": token })).await.0 };
    for (grant, back) in [
        (json!({ "sites": [1] }), json!({ "sites": [] })),
        (json!({ "isAdmin": true }), json!({ "isAdmin": false })),
        (json!({ "disabled": true }), json!({ "disabled": false })),
    ] {
        let (status, answer) = office.patch(&format!("/api/users/{account}"), grant.clone()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(follows().await, StatusCode::BAD_REQUEST, "{grant}");
        office.patch(&format!("/api/users/{account}"), back).await;
        assert_eq!(follows().await, StatusCode::OK, "{grant} taken back");
    }
}

#[tokio::test]
async fn an_address_with_an_account_keeps_it_and_only_staff_name_a_visitor() {
    let (app, sink) = signup_app(SignupPolicy::Open).await;
    let office = app.logged_in("office", true).await;
    let ann = signed_up(&app, &sink, "ann", "ann@example.org").await;
    let (status, item) = office
        .post(
            "/api/items?fields=createdBy",
            for_visitor(
                "Scarf",
                json!({ "name": "Ann", "email": "ANN@example.org", "phone": "555 0100" }),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{item}");
    assert_eq!(item["createdBy"], "ann", "the report is the account's");
    let (_, accounts) = office.get("/api/users?q=ann").await;
    assert!(
        accounts[0].get("phone").is_none() && accounts[0].get("visitor").is_none(),
        "her account is hers: {accounts}"
    );
    // Ann logs in as ever: she is not sent a link (her only mail is the sign-up's).
    let (_, mine) = ann.get("/api/items?createdBy=ann&fields=title").await;
    assert_eq!(mine, json!([{ "title": "Scarf" }]));
    assert_eq!(sink.messages().len(), 1);
    // Her notices carry no link to log in with either.
    let (status, _) = office
        .post(
            "/api/items",
            json!({ "title": "Scarf", "desc": "Navy, with a silver zip", "kind": "found", "status": "approved",
                    "lat": 51.5, "lng": -0.12, "radius": 10 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let notice = nth_mail_to(&sink, "ann@example.org", 2).await;
    assert!(
        body(&notice).contains("Scarf") && !body(&notice).contains("#/follow/"),
        "{notice}"
    );

    // From anyone but staff, `visitor` is ignored: the report is the sender's own.
    let (status, own) = ann
        .post(
            "/api/items?fields=createdBy,status",
            for_visitor("Gloves", json!({ "name": "Bo", "email": "bo@example.org" })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{own}");
    assert_eq!(own, json!({ "createdBy": "ann", "status": "pending" }));
}

#[tokio::test]
async fn a_bad_visitor_is_refused_naming_the_field_and_nothing_is_made() {
    let (app, sink) = signup_app(SignupPolicy::Off).await;
    let office = app.logged_in("office", true).await;
    let (items, users) = (app.item_count().await, app.db.count("users").await);
    for (visitor, kind, error) in [
        (json!("Min-jun"), "lost", "Invalid visitor"),
        (json!({ "name": "Min-jun" }), "lost", "Invalid visitor"),
        (
            json!({ "name": "Min-jun", "email": "minjun at example" }),
            "lost",
            "Invalid email",
        ),
        (
            json!({ "name": "Min-jun", "email": ADDRESS, "phone": "ring me" }),
            "lost",
            "Invalid phone",
        ),
        (
            json!({ "name": "Min-jun", "email": ADDRESS }),
            "found",
            "Only a lost report is taken for a visitor",
        ),
    ] {
        let mut body = for_visitor("Keys", visitor.clone());
        body["kind"] = json!(kind);
        let (status, answer) = office.post("/api/items", body).await;
        assert_eq!(
            (status, &answer["error"]),
            (StatusCode::BAD_REQUEST, &json!(error)),
            "{visitor}"
        );
    }
    assert_eq!((app.item_count().await, app.db.count("users").await), (items, users));
    assert!(sink.messages().is_empty());
}
