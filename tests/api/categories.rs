//! Categories: anyone lists them with their names in each language; administrators add,
//! rename and remove them and set how long found items of each are kept, which every found
//! item of the category then answers (`holdUntil`) and the due list follows.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

fn found(title: &str, cat: &str) -> Value {
    json!({ "kind": "found", "status": "approved", "title": title, "cat": cat,
        "lat": 51.5, "lng": -0.12, "radius": 20 })
}

fn keys(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap())
        .collect()
}

/// Days from an item's report to its `holdUntil`.
fn held_days(item: &Value) -> i64 {
    let at = |key: &str| {
        time::OffsetDateTime::parse(
            item[key].as_str().unwrap(),
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap()
    };
    (at("holdUntil") - at("created_at")).whole_days()
}

#[tokio::test]
async fn administrators_keep_the_categories_and_everyone_reads_them() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let member = app.logged_in("ann", false).await;

    // A new installation offers what the app offered before, named in every language.
    let (status, list) = app.client().get("/api/categories").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(
        keys(&list),
        [
            "accessories",
            "bags",
            "clothing",
            "documents",
            "electronics",
            "keys",
            "other"
        ]
    );
    assert_eq!(
        list[1],
        json!({ "key": "bags", "names": { "en": "bags", "ko": "가방", "es": "bolsos" }, "holdDays": null, "sensitive": false })
    );

    let umbrellas = json!({ "names": { "en": "Umbrellas", "ko": "우산", "es": "Paraguas" }, "holdDays": 30 });
    // Members and visitors may not; nothing changes.
    assert_error(
        &member.post("/api/categories", umbrellas.clone()).await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );
    assert_eq!(
        app.client().post("/api/categories", umbrellas.clone()).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        member.patch("/api/categories/bags", json!({ "holdDays": 1 })).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(member.delete("/api/categories/bags").await.0, StatusCode::FORBIDDEN);

    // Bad input names its field and changes nothing.
    let names_error = "names must be an object of en (required), ko and es, each 1-100 characters";
    for (body, message) in [
        (json!({ "holdDays": 3 }), "Names required"),
        (json!({ "names": "Umbrellas" }), names_error),
        (json!({ "names": { "ko": "우산" } }), names_error),
        (
            json!({ "names": { "en": "Umbrellas", "fr": "Parapluies" } }),
            names_error,
        ),
        (json!({ "names": { "en": "u".repeat(101) } }), names_error),
        (
            json!({ "names": { "en": "Umbrellas" }, "holdDays": 3651 }),
            "holdDays must be 0 to 3650 days",
        ),
        (
            json!({ "names": { "en": "Umbrellas" }, "holdDays": "30" }),
            "holdDays must be 0 to 3650 days",
        ),
        (
            json!({ "names": { "en": "Umbrellas" }, "key": 7 }),
            "key must be a string",
        ),
    ] {
        assert_error(
            &office.post("/api/categories", body.clone()).await,
            StatusCode::BAD_REQUEST,
            message,
        );
    }
    assert_eq!(app.db.count("categories").await, 7);

    // Added: keyed by its English name in lower case.
    let (status, made) = office.post("/api/categories", umbrellas.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!(made["key"], "umbrellas");
    assert_eq!(made["names"], umbrellas["names"]);
    assert_eq!(made["holdDays"], 30);
    // A key is a key in any case.
    assert_error(
        &office
            .post(
                "/api/categories",
                json!({ "key": "UMBRELLAS", "names": { "en": "Brollies" } }),
            )
            .await,
        StatusCode::CONFLICT,
        "A category has that key",
    );

    // Changed: the names replaced (a language left out falls back to English), the period
    // cleared; the key stays.
    let (status, changed) = office
        .patch(
            "/api/categories/Umbrellas",
            json!({ "names": { "en": "Umbrellas and parasols", "ko": "우산" }, "holdDays": null }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    assert_eq!(
        changed,
        json!({ "key": "umbrellas", "names": { "en": "Umbrellas and parasols", "ko": "우산" }, "holdDays": null, "sensitive": false })
    );
    for (body, status, message) in [
        (json!({}), StatusCode::BAD_REQUEST, "No fields to update"),
        (
            json!({ "key": "brollies" }),
            StatusCode::BAD_REQUEST,
            "A category's key cannot change",
        ),
        (json!({ "names": { "en": "" } }), StatusCode::BAD_REQUEST, names_error),
    ] {
        assert_error(&office.patch("/api/categories/umbrellas", body).await, status, message);
    }
    assert_error(
        &office.patch("/api/categories/hats", json!({ "holdDays": 3 })).await,
        StatusCode::NOT_FOUND,
        "Category not found",
    );
    let (_, list) = app.client().get("/api/categories").await;
    assert_eq!(list[7], changed, "{list}");

    // Removed; a second time there is nothing to remove.
    let (status, removed) = office.delete("/api/categories/umbrellas").await;
    assert_eq!((status, removed), (StatusCode::OK, json!({ "ok": true })));
    assert_error(
        &office.delete("/api/categories/umbrellas").await,
        StatusCode::NOT_FOUND,
        "Category not found",
    );
    assert_eq!(app.db.count("categories").await, 7);
}

#[tokio::test]
async fn a_categorys_period_holds_its_found_items_at_every_site() {
    // The configured periods: one for a category the service keeps, one for a new one.
    let configure = |config: &mut lostfound::config::Config| {
        config.custody.hold_days = 60;
        config.custody.hold_days_by_category = [("electronics".to_owned(), 180), ("food".to_owned(), 0)].into();
    };
    let app = TestApp::start_with(TestDb::new().await, configure).await;
    let office = app.logged_in("office", true).await;

    // The configuration gave electronics its period and added food, named by its key.
    let (_, list) = app.client().get("/api/categories").await;
    let category = |key: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|c| c["key"] == key)
            .unwrap()
            .clone()
    };
    assert_eq!(category("electronics")["holdDays"], 180);
    assert_eq!(category("electronics")["names"]["ko"], "전자기기");
    assert_eq!(
        category("food"),
        json!({ "key": "food", "names": { "en": "food" }, "holdDays": 0, "sensitive": false })
    );

    let fields = "?fields=id,created_at,holdUntil";
    let (_, phone) = office
        .post(&format!("/api/items{fields}"), found("Phone", "Electronics"))
        .await;
    let (_, umbrella) = office
        .post(&format!("/api/items{fields}"), found("Umbrella", "umbrellas"))
        .await;
    let path = |item: &Value| format!("/api/items/{}{fields}", item["id"]);
    assert_eq!((held_days(&phone), held_days(&umbrella)), (180, 60));

    // A category made with a period holds what was reported in it before.
    let umbrellas = json!({ "names": { "en": "Umbrellas" }, "holdDays": 0 });
    assert_eq!(office.post("/api/categories", umbrellas).await.0, StatusCode::CREATED);
    let (_, umbrella) = office.get(&path(&umbrella)).await;
    assert_eq!(held_days(&umbrella), 0, "{umbrella}");
    let (_, due) = office.get("/api/items?due=true&fields=id").await;
    assert_eq!(due, json!([{ "id": umbrella["id"] }]));

    // A changed period holds at once, over the site's own.
    let (status, site) = office.patch("/api/sites/1", json!({ "holdDays": 20 })).await;
    assert_eq!(status, StatusCode::OK, "{site}");
    let read = office.send(office.request(reqwest::Method::GET, &path(&phone))).await;
    assert_eq!(held_days(&read.body), 180, "{}", read.body);
    let tag = read.headers[reqwest::header::ETAG].clone();
    assert_eq!(
        office
            .patch("/api/categories/electronics", json!({ "holdDays": 7 }))
            .await
            .0,
        StatusCode::OK
    );
    // The item did not change, its representation did: a copy kept before is not current.
    let again = office
        .request(reqwest::Method::GET, &path(&phone))
        .header(reqwest::header::IF_NONE_MATCH, tag);
    let phone = office.send(again).await.body;
    assert_eq!(held_days(&phone), 7, "{phone}");

    // A category removed: its reports keep it as text, and take the site's period.
    assert_eq!(office.delete("/api/categories/umbrellas").await.0, StatusCode::OK);
    let (_, umbrella) = office
        .get(&format!(
            "/api/items/{}?fields=cat,created_at,holdUntil",
            umbrella["id"]
        ))
        .await;
    assert_eq!(
        (umbrella["cat"].as_str(), held_days(&umbrella)),
        (Some("umbrellas"), 20)
    );
    let (_, due) = office.get("/api/items?due=true&fields=id").await;
    assert_eq!(due, json!([]));

    // At the next start, the configured period fills a category without one and leaves the
    // administrators' alone.
    assert_eq!(
        office
            .patch("/api/categories/food", json!({ "holdDays": null }))
            .await
            .0,
        StatusCode::OK
    );
    let app = app.restart_with(configure).await;
    let (_, list) = app.client().get("/api/categories").await;
    let period = |key: &str| list.as_array().unwrap().iter().find(|c| c["key"] == key).unwrap()["holdDays"].clone();
    assert_eq!((period("electronics"), period("food")), (json!(7), json!(0)));
}
