//! `GET /api/items/:id/matches`: approved items of the other kind, near, within 90 days;
//! best first, by meaning across words and languages, the category only a signal; why each
//! scored what it did; "not mine"; `fields`; the errors.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

/// Degrees of latitude for `meters` north.
fn north(meters: f64) -> f64 {
    meters / 111_195.0
}

/// Reports an item as the admin and approves it (unless `approve` is false); its id.
async fn report(admin: &TestClient, body: Value, approve: bool) -> i64 {
    let item = admin.create_item(body).await;
    if approve {
        let (status, answer) = admin.patch(&item_path(&item), json!({ "status": "approved" })).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    item["id"].as_i64().unwrap()
}

fn place(kind: &str, title: &str, cat: Option<&str>, meters_north: f64, radius: f64) -> Value {
    json!({
        "kind": kind,
        "title": title,
        "cat": cat,
        "lat": 51.5 + north(meters_north),
        "lng": -0.12,
        "radius": radius,
    })
}

#[tokio::test]
async fn a_lost_item_is_matched_by_found_items_nearby_within_ninety_days_best_first_and_says_why() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    // Found items come from another desk: a user's own reports never match each other.
    let desk = app.logged_in("desk", true).await;
    let lost = report(
        &admin,
        place("lost", "Black leather wallet", Some("Wallets"), 0.0, 50.0),
        true,
    )
    .await;

    let words_far = report(
        &desk,
        place("found", "Wallet, black", Some("wallets"), 180.0, 20.0),
        true,
    )
    .await;
    let words_near = report(&desk, place("found", "Black wallet", Some("Wallets"), 30.0, 20.0), true).await;
    let no_cat = report(&desk, place("found", "Umbrella", None, 60.0, 20.0), true).await;
    let old_enough = report(&desk, place("found", "Wallet", Some("Wallets"), 0.0, 20.0), true).await;
    moved_back(&app, old_enough, 89).await;
    // Another category only weighs in the score.
    let other_cat = report(&desk, place("found", "Black wallet", Some("Bags"), 30.0, 20.0), true).await;
    // None of these: the same kind, not approved, too far, too old.
    report(&admin, place("lost", "Black wallet", Some("Wallets"), 0.0, 20.0), true).await;
    report(&desk, place("found", "Black wallet", Some("Wallets"), 0.0, 20.0), false).await;
    report(
        &desk,
        place("found", "Black wallet", Some("Wallets"), 50.0 + 20.0 + 215.0, 20.0),
        true,
    )
    .await;
    let too_old = report(&desk, place("found", "Black wallet", Some("Wallets"), 0.0, 20.0), true).await;
    moved_back(&app, too_old, 91).await;

    // Anyone may ask.
    let (status, matches) = app.client().get(&format!("/api/items/{lost}/matches")).await;
    assert_eq!(status, StatusCode::OK, "{matches}");
    let matches = matches.as_array().unwrap();
    let ids: Vec<i64> = matches.iter().map(|m| m["item"]["id"].as_i64().unwrap()).collect();
    let score = |id: i64| {
        matches[ids.iter().position(|i| *i == id).unwrap()]["score"]
            .as_f64()
            .unwrap()
    };
    let mut listed = ids.clone();
    listed.sort_unstable();
    assert_eq!(listed, [words_far, words_near, no_cat, old_enough, other_cat]);
    // A wallet first, the umbrella last; the same words in another category below.
    assert_eq!(ids[0], words_near, "{matches:?}");
    assert_eq!(ids[4], no_cat, "{matches:?}");
    assert!(score(words_near) > score(other_cat), "{matches:?}");
    let scores: Vec<f64> = matches.iter().map(|m| m["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)), "{scores:?}");
    let distance = matches[0]["distance"].as_f64().unwrap();
    assert!((distance - 30.0).abs() <= 1.0, "{distance}");
    // The item as the contract shows it: the 12 keys; beside it why, and whether likely.
    let item = matches[0]["item"].as_object().unwrap();
    assert_eq!(item.len(), 12, "{item:?}");
    assert_eq!(matches[0].as_object().unwrap().len(), 5);
    assert_eq!(matches[0]["likely"], true);
    assert_eq!(matches[4]["likely"], false);
    let why = &matches[0]["why"];
    assert_eq!(why["words"], json!(["black", "wallet"]), "{why}");
    assert_eq!(why["category"], 0.1, "{why}");
    assert_eq!(why["colour"], 0.12, "both black: {why}");
    assert!(why["meaning"].as_f64().unwrap() > 0.3, "{why}");
    assert!(
        why["place"].as_f64().unwrap() > 0.0 && why["time"].as_f64().unwrap() > 0.0,
        "{why}"
    );
    assert_eq!(matches[4]["why"]["words"], json!([]));

    // And the other way: the lost item is among the found item's matches.
    let (_, back) = app.client().get(&format!("/api/items/{words_near}/matches")).await;
    assert_eq!(back[0]["item"]["id"], lost);
}

#[tokio::test]
async fn matches_honour_fields_and_refuse_what_is_wrong() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    // Found items come from another desk: a user's own reports never match each other.
    let desk = app.logged_in("desk", true).await;
    let lost = report(&admin, place("lost", "Red scarf", None, 0.0, 10.0), true).await;
    report(&desk, place("found", "Scarf", None, 5.0, 10.0), true).await;
    let client = app.client();

    let (status, matches) = client
        .get(&format!("/api/items/{lost}/matches?fields=id,kind,returnedAt"))
        .await;
    assert_eq!(status, StatusCode::OK, "{matches}");
    assert_eq!(
        matches[0]["item"],
        json!({ "id": lost + 1, "kind": "found", "returnedAt": null })
    );

    assert_error(
        &client.get(&format!("/api/items/{lost}/matches?fields=nope")).await,
        StatusCode::BAD_REQUEST,
        "Invalid fields",
    );
    assert_error(
        &client.get(&format!("/api/items/{}/matches", lost + 100)).await,
        StatusCode::NOT_FOUND,
        "Item not found",
    );
    // A bad id is answered as for the item itself.
    let (status, body) = client.get("/api/items/abc/matches").await;
    assert_eq!((status, body), client.get("/api/items/abc").await);
    // Nothing near: an empty list.
    let alone = report(&admin, place("lost", "Kite", None, 5_000.0, 10.0), true).await;
    assert_eq!(
        client.get(&format!("/api/items/{alone}/matches")).await,
        (StatusCode::OK, json!([]))
    );
}

/// The match notifications `client` has, as (item, items) pairs, newest first.
async fn match_notices(client: &TestClient) -> Vec<(i64, Value)> {
    let (status, told) = client.get("/api/notifications").await;
    assert_eq!(status, StatusCode::OK, "{told}");
    told.as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == "match")
        .map(|n| {
            (
                n["itemId"].as_i64().unwrap(),
                n.get("items").cloned().unwrap_or(Value::Null),
            )
        })
        .collect()
}

#[tokio::test]
async fn meaning_matches_across_languages_and_categories_and_only_the_likely_are_told() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let owner = app.logged_in("minji", false).await;
    // The office's shelf: things near, none of them a wallet.
    for (title, cat, north) in [
        ("Blue umbrella", "other", 10.0),
        ("Water bottle", "other", 20.0),
        ("Phone charger", "electronics", 5.0),
    ] {
        report(&office, place("found", title, Some(cat), north, 10.0), true).await;
    }
    // The owner writes in Korean and files it under "other"; the office wrote English and
    // "accessories".
    let lost = owner
        .create_item(
            json!({ "kind": "lost", "title": "검은색 지갑", "desc": "도서관에서 잃어버렸어요",
            "cat": "other", "lat": 51.5, "lng": -0.12, "radius": 50 }),
        )
        .await["id"]
        .as_i64()
        .unwrap();
    let (status, _) = office
        .patch(&format!("/api/items/{lost}"), json!({ "status": "approved" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        match_notices(&owner).await.is_empty(),
        "nothing on the shelf is likely theirs"
    );

    let wallet = report(
        &office,
        json!({ "kind": "found", "title": "Black wallet", "desc": "Leather, found in the library",
            "cat": "accessories", "lat": 51.5 + north(40.0), "lng": -0.12, "radius": 10 }),
        true,
    )
    .await;
    let (_, matches) = owner.get(&format!("/api/items/{lost}/matches")).await;
    assert_eq!(matches[0]["item"]["id"], wallet, "{matches}");
    assert_eq!(matches[0]["likely"], true, "{matches}");
    assert_eq!(matches[0]["why"]["category"], 0.0);
    assert!(matches[1]["likely"] == false, "{matches}");
    // Told once, of the wallet alone.
    assert_eq!(match_notices(&owner).await, [(wallet, Value::Null)]);
}

#[tokio::test]
async fn an_item_of_another_maker_is_not_told_however_alike_and_the_same_maker_in_korean_is() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let owner = app.logged_in("daniel", false).await;
    let jabra = report(
        &office,
        json!({ "kind": "found", "title": "Black earbuds, Jabra", "desc": "Round case. Shuttle bus",
            "lat": 51.5 + north(100.0), "lng": -0.12, "radius": 10 }),
        true,
    )
    .await;
    let lost = owner
        .create_item(json!({ "kind": "lost", "title": "Black earbuds",
            "desc": "black Sony wireless earbuds in a round case",
            "lat": 51.5, "lng": -0.12, "radius": 50 }))
        .await["id"]
        .as_i64()
        .unwrap();
    let (status, _) = office
        .patch(&format!("/api/items/{lost}"), json!({ "status": "approved" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, matches) = owner.get(&format!("/api/items/{lost}/matches")).await;
    assert_eq!(matches[0]["item"]["id"], jabra, "{matches}");
    let why = &matches[0]["why"];
    assert!(why["brand"].as_f64().unwrap() < -0.1, "Jabra is not Sony: {why}");
    assert_eq!(matches[0]["likely"], false, "{matches}");
    assert!(match_notices(&owner).await.is_empty(), "not told of the Jabra pair");

    let sony = report(
        &office,
        json!({ "kind": "found", "title": "검정 소니 무선 이어폰", "desc": "둥근 케이스. 셔틀버스",
            "lat": 51.5 + north(100.0), "lng": -0.12, "radius": 10 }),
        true,
    )
    .await;
    let (_, matches) = owner.get(&format!("/api/items/{lost}/matches")).await;
    assert_eq!(matches[0]["item"]["id"], sony, "{matches}");
    assert_eq!(matches[0]["why"]["brand"], 0.0, "소니 is Sony: {matches}");
    assert_eq!(match_notices(&owner).await, [(sony, Value::Null)]);
}

#[tokio::test]
async fn an_owner_told_of_a_look_alike_first_is_told_of_their_own_when_it_comes_and_of_each_once() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let owner = app.logged_in("rowan", false).await;
    let lost = owner
        .create_item(json!({ "kind": "lost", "title": "Grey hoodie",
            "desc": "Grey hoodie with 'Rowing Club' printed on the back, size M",
            "cat": "clothing", "lat": 51.5, "lng": -0.12, "radius": 50 }))
        .await["id"]
        .as_i64()
        .unwrap();
    let approve = async |id: i64| {
        let (status, answer) = office
            .patch(&format!("/api/items/{id}"), json!({ "status": "approved" }))
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    };
    approve(lost).await;
    let found = |title: &str, desc: &str| {
        json!({ "kind": "found", "title": title, "desc": desc, "cat": "clothing",
            "lat": 51.5 + north(30.0), "lng": -0.12, "radius": 10 })
    };
    // Another club's hoodie comes first: the owner is told of it.
    let look_alike = report(
        &office,
        found(
            "Grey hoodie, 'Debate Club'",
            "Grey hoodie with 'Debate Club' on the back",
        ),
        true,
    )
    .await;
    assert_eq!(match_notices(&owner).await, [(look_alike, Value::Null)]);
    // Their own, written in Korean, scores well below the look-alike, but above the
    // threshold: what the owner has heard of does not stand in its way.
    let theirs = report(&office, found("회색 후드티", "등에 'Rowing Club' 글씨"), true).await;
    let (_, matches) = owner.get(&format!("/api/items/{lost}/matches")).await;
    let scores: Vec<(i64, f64)> = matches
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["item"]["id"].as_i64().unwrap(), m["score"].as_f64().unwrap()))
        .collect();
    assert_eq!(scores[0].0, look_alike, "{matches}");
    assert_eq!(scores[1].0, theirs, "{matches}");
    assert!(
        scores[1].1 >= 0.6 && scores[1].1 < scores[0].1 - 0.1,
        "likely, far below the look-alike: {matches}"
    );
    assert_eq!(
        match_notices(&owner).await,
        [(theirs, Value::Null), (look_alike, Value::Null)]
    );

    // Each once: the look-alike reviewed again is not told again.
    let (status, _) = office
        .patch(&format!("/api/items/{look_alike}"), json!({ "status": "rejected" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    approve(look_alike).await;
    assert_eq!(
        match_notices(&owner).await,
        [(theirs, Value::Null), (look_alike, Value::Null)]
    );
}

#[tokio::test]
async fn not_mine_takes_a_suggestion_away_from_its_owner_alone_until_taken_back() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let owner = app.logged_in("owner", false).await;
    let lost = owner
        .create_item(place("lost", "Red scarf", Some("clothing"), 0.0, 30.0))
        .await["id"]
        .as_i64()
        .unwrap();
    office
        .patch(&format!("/api/items/{lost}"), json!({ "status": "approved" }))
        .await;
    let scarf = report(
        &office,
        place("found", "Red wool scarf", Some("clothing"), 10.0, 10.0),
        true,
    )
    .await;
    let suggested = async |client: &TestClient| -> Vec<i64> {
        let (status, list) = client.get(&format!("/api/items/{lost}/matches")).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        list.as_array()
            .unwrap()
            .iter()
            .map(|m| m["item"]["id"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(suggested(&owner).await, [scarf]);

    assert_eq!(
        owner.post(&format!("/api/items/{scarf}/not-mine"), json!({})).await.0,
        StatusCode::OK
    );
    assert_eq!(suggested(&owner).await, Vec::<i64>::new());
    // Others (the office in Review, visitors) still see it.
    assert_eq!(suggested(&office).await, [scarf]);
    assert_eq!(suggested(&app.client()).await, [scarf]);

    // Taken back: suggested again.
    assert_eq!(
        owner.delete(&format!("/api/items/{scarf}/not-mine")).await.0,
        StatusCode::OK
    );
    assert_eq!(suggested(&owner).await, [scarf]);

    // Only someone logged in, about an item that exists.
    assert_error(
        &app.client()
            .post(&format!("/api/items/{scarf}/not-mine"), json!({}))
            .await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(
        &owner
            .post(&format!("/api/items/{}/not-mine", scarf + 100), json!({}))
            .await,
        StatusCode::NOT_FOUND,
        "Item not found",
    );
}

#[tokio::test]
async fn a_database_of_the_previous_release_gets_its_meanings_in_the_background() {
    let mut app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let owner = app.logged_in("owner", false).await;
    let wallet = report(
        &office,
        place("found", "Black wallet", Some("accessories"), 20.0, 10.0),
        true,
    )
    .await;
    report(
        &office,
        place("found", "Blue umbrella", Some("other"), 10.0, 10.0),
        true,
    )
    .await;
    let lost = owner
        .create_item(json!({ "kind": "lost", "title": "검은색 지갑", "cat": "other",
            "lat": 51.5, "lng": -0.12, "radius": 50 }))
        .await["id"]
        .as_i64()
        .unwrap();
    office
        .patch(&format!("/api/items/{lost}"), json!({ "status": "approved" }))
        .await;
    app.db.meanings_written().await;

    // The database as the previous release left it: no meanings, no answers, no migration 18.
    app.stop().await;
    for statement in [
        "DROP TABLE item_meanings",
        "DROP TABLE match_answers",
        "ALTER TABLE notifications DROP COLUMN items",
        "DELETE FROM _sqlx_migrations WHERE version = 18",
    ] {
        app.db.sql(statement).await;
    }
    let app = app.restart().await;
    app.db.meanings_written().await;
    assert_eq!(app.db.count("item_meanings").await, 3);

    // Matched and found by meaning again.
    let (_, matches) = app.client().get(&format!("/api/items/{lost}/matches")).await;
    assert_eq!(matches[0]["item"]["id"], wallet, "{matches}");
    assert_eq!(matches[0]["likely"], true, "{matches}");
    // 지갑: the owner's own report by its words, the wallet by its meaning.
    let (_, found) = app.client().get("/api/items?q=%EC%A7%80%EA%B0%91&fields=id").await;
    assert_eq!(found, json!([{ "id": lost }, { "id": wallet }]));
}
