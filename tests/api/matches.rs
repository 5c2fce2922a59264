//! `GET /api/items/:id/matches`: approved items of the other kind, near, of a compatible
//! category, within 90 days; best first; `fields`; the errors.

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
async fn a_lost_item_is_matched_by_found_items_nearby_of_its_category_within_ninety_days() {
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
    // None of these: another category, the same kind, not approved, too far, too old.
    report(&desk, place("found", "Black wallet", Some("Bags"), 0.0, 20.0), true).await;
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
    // Every word shared and close first; the umbrella shares no word.
    assert_eq!(ids, [old_enough, words_near, words_far, no_cat]);
    let scores: Vec<f64> = matches.iter().map(|m| m["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)), "{scores:?}");
    let distance = matches[1]["distance"].as_f64().unwrap();
    assert!((distance - 30.0).abs() <= 1.0, "{distance}");
    // The item as the contract shows it: the 12 keys.
    let item = matches[1]["item"].as_object().unwrap();
    assert_eq!(item.len(), 12, "{item:?}");
    assert_eq!(matches[1].as_object().unwrap().len(), 3);

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
