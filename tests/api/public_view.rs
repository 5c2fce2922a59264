//! What everyone sees of the reports of others: not where an item is kept nor who reported it
//! and, for a category the office marks sensitive, neither its description nor its photo —
//! what a false claimant would need. Reporters and staff see their items whole; an operator
//! may keep the contract's full view (`LOSTFOUND_PUBLIC_VIEW=full`).

use lostfound::config::PublicView;
use reqwest::{StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::*;

const KEPT_AT: &str = "Safe, drawer 2";

/// A found item reported by `reporter` in `cat`, with a description and a photo, approved by
/// `office` with where it is kept.
async fn found_and_shelved(reporter: &TestClient, office: &TestClient, title: &str, cat: &str) -> Value {
    let item = reporter
        .create_item(json!({
            "title": title, "desc": "Name on it: Kim Minsu, 2023-10451", "cat": cat, "kind": "found",
            "imgData": data_url("image/png", &png(40, 30, true)), "lat": 51.5, "lng": -0.12,
        }))
        .await;
    let (status, item) = office
        .patch(
            &item_path(&item),
            json!({ "status": "approved", "storagePlace": KEPT_AT }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{item}");
    item
}

/// The item at `path` as `reader` gets it, with its ETag.
async fn read(reader: &TestClient, path: &str) -> (Value, String) {
    let answer = reader.send(reader.request(reqwest::Method::GET, path)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let tag = answer.headers[header::ETAG].to_str().unwrap().to_owned();
    (answer.body, tag)
}

/// The item `id` in the list `reader` gets.
async fn listed(reader: &TestClient, id: &Value) -> Value {
    let (status, list) = reader.get("/api/items").await;
    assert_eq!(status, StatusCode::OK);
    list.as_array()
        .unwrap()
        .iter()
        .find(|item| item["id"] == *id)
        .cloned()
        .expect("listed")
}

#[tokio::test]
async fn others_see_a_report_without_where_it_is_kept_or_who_reported_it() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let bob = app.logged_in("bob", false).await;
    let visitor = app.client();
    let item = found_and_shelved(&alice, &office, "Black umbrella", "bags").await;
    let path = item_path(&item);

    // The visitor's answers first, so that a kept one would be what the others got.
    let (public, public_tag) = read(&visitor, &path).await;
    let public_listed = listed(&visitor, &item["id"]).await;
    for seen in [
        &public,
        &public_listed,
        &read(&bob, &path).await.0,
        &listed(&bob, &item["id"]).await,
    ] {
        assert_eq!(
            (&seen["storagePlace"], &seen["createdBy"]),
            (&Value::Null, &Value::Null),
            "{seen}"
        );
        // Not a sensitive category: its description and photo are for everyone.
        assert_eq!(seen["desc"], item["desc"]);
        assert!(seen["imgData"].as_str().unwrap().starts_with("data:image/png;base64,"));
        assert_eq!(
            seen.as_object().unwrap().len(),
            12,
            "the contract's keys, all of them: {seen}"
        );
    }
    for whole in [&alice, &office] {
        let (seen, tag) = read(whole, &path).await;
        assert_eq!(
            (seen["storagePlace"].as_str(), seen["createdBy"].as_str()),
            (Some(KEPT_AT), Some("alice"))
        );
        assert_ne!(tag, public_tag, "another representation, another ETag");
        let seen = listed(whole, &item["id"]).await;
        assert_eq!(
            (seen["storagePlace"].as_str(), seen["createdBy"].as_str()),
            (Some(KEPT_AT), Some("alice"))
        );
    }
    // Nor does a visitor get what the others were shown, now kept.
    assert_eq!(read(&visitor, &path).await, (public, public_tag));
    assert_eq!(listed(&visitor, &item["id"]).await, public_listed);
}

#[tokio::test]
async fn a_sensitive_categorys_description_and_photo_are_its_reporters_and_staffs_only() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let bob = app.logged_in("bob", false).await;
    let visitor = app.client();
    let (_, categories) = visitor.get("/api/categories").await;
    let sensitive: Vec<&str> = categories
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["sensitive"] == json!(true))
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    assert_eq!(sensitive, ["documents"], "documents start marked");

    let card = found_and_shelved(&alice, &office, "Student ID card", "documents").await;
    let path = format!(
        "{}?fields=id,title,cat,desc,imgData,photoUrl,thumbUrl",
        item_path(&card)
    );
    let photo = format!("{}/photo", item_path(&card));
    for reader in [&visitor, &bob] {
        let (seen, _) = read(reader, &path).await;
        assert_eq!(
            seen,
            json!({ "id": card["id"], "title": "Student ID card", "cat": "documents", "desc": null,
                    "imgData": null, "photoUrl": null, "thumbUrl": null })
        );
        let (status, _) = reader.get(&photo).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = reader.get(&format!("{}/thumb", item_path(&card))).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    // A lost report's matches do not show it either: reporting "an ID card" is no way in.
    let lost = bob
        .create_item(
            json!({ "title": "Student ID card", "cat": "documents", "kind": "lost", "lat": 51.5, "lng": -0.12 }),
        )
        .await;
    office.patch(&item_path(&lost), json!({ "status": "approved" })).await;
    let (_, matches) = bob
        .get(&format!("{}/matches?fields=id,desc,photoUrl", item_path(&lost)))
        .await;
    assert_eq!(
        matches[0]["item"],
        json!({ "id": card["id"], "desc": null, "photoUrl": null }),
        "{matches}"
    );

    for whole in [&alice, &office] {
        let (seen, _) = read(whole, &path).await;
        assert_eq!(seen["desc"], card["desc"]);
        assert!(seen["imgData"].as_str().unwrap().starts_with("data:image/png;base64,"));
        // Its versioned address is never kept by a shared cache: others may not have it.
        let versioned = seen["photoUrl"].as_str().unwrap();
        let (status, headers, _) = whole.send_raw(whole.request(reqwest::Method::GET, versioned)).await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            headers[header::CACHE_CONTROL].to_str().unwrap().contains("private"),
            "{headers:?}"
        );
    }

    // The office marks another category sensitive: what the public is shown changes at once,
    // kept answers or not; a bad mark changes nothing.
    let umbrella = found_and_shelved(&alice, &office, "Black umbrella", "bags").await;
    let umbrella_path = format!("{}?fields=desc,photoUrl", item_path(&umbrella));
    let (before, _) = read(&visitor, &umbrella_path).await;
    assert_eq!(before["desc"], umbrella["desc"]);
    let answer = office
        .patch("/api/categories/bags", json!({ "sensitive": "yes" }))
        .await;
    assert_error(&answer, StatusCode::BAD_REQUEST, "sensitive must be true or false");
    let (_, before_tag) = read(&visitor, &umbrella_path).await;
    let (status, bags) = office.patch("/api/categories/bags", json!({ "sensitive": true })).await;
    assert_eq!((status, &bags["sensitive"]), (StatusCode::OK, &json!(true)), "{bags}");
    // Nor does a copy the client kept pass for current.
    let again = visitor
        .request(reqwest::Method::GET, &umbrella_path)
        .header(header::IF_NONE_MATCH, &before_tag);
    assert_eq!(
        visitor.send(again).await.body,
        json!({ "desc": null, "photoUrl": null })
    );
    assert_eq!(
        read(&visitor, &umbrella_path).await.0,
        json!({ "desc": null, "photoUrl": null })
    );
    office
        .patch("/api/categories/bags", json!({ "sensitive": false }))
        .await;
    assert_eq!(read(&visitor, &umbrella_path).await.0, before);
    // Only administrators mark.
    let answer = bob.patch("/api/categories/bags", json!({ "sensitive": true })).await;
    assert_eq!(answer.0, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_operator_may_keep_the_full_view_for_clients_of_the_original_service() {
    let app = TestApp::start_with(TestDb::new().await, |config| {
        config.custody.public_view = PublicView::Full;
    })
    .await;
    let office = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let card = found_and_shelved(&alice, &office, "Student ID card", "documents").await;
    let (seen, _) = read(&app.client(), &item_path(&card)).await;
    assert_eq!(seen, card);
    let visitor = app.client();
    let photo = visitor.request(reqwest::Method::GET, &format!("{}/photo", item_path(&card)));
    assert_eq!(visitor.send_raw(photo).await.0, StatusCode::OK);
}
