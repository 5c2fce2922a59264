//! `GET /api/items?q=`: search by meaning and forgiving words — other languages, plurals,
//! typos, Korean with or without spaces — best first unless asked newest first; paging and
//! counts kept.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;

/// The titles `q` finds, in the order answered.
async fn found(client: &TestClient, query: &str) -> Vec<String> {
    let (status, items) = client.get(&format!("/api/items?{query}")).await;
    assert_eq!(status, StatusCode::OK, "{query}: {items}");
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["title"].as_str().unwrap().to_owned())
        .collect()
}

async fn shelf(app: &TestApp) -> TestClient {
    let office = app.logged_in("office", true).await;
    for (title, desc, cat, place) in [
        (
            "Black wallet",
            "Leather, a student card inside",
            "accessories",
            "Main library",
        ),
        ("Blue umbrella", "Folding, wooden handle", "other", "Sports hall"),
        ("Water bottle", "Steel, dented", "other", "Sports hall"),
        ("Phone charger", "USB-C cable", "electronics", "Lecture hall 2"),
        (
            "Calculator",
            "Scientific, initials on the back",
            "electronics",
            "Maths building",
        ),
        ("Grey scarf", "Wool, very long", "clothing", "Cafeteria"),
        ("검은색 우산", "손잡이가 나무", "other", "학생회관"),
    ] {
        let (status, item) = office
            .post(
                "/api/items",
                json!({ "kind": "found", "title": title, "desc": desc, "cat": cat, "place": place,
                    "lat": 51.5, "lng": -0.12, "radius": 10 }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{item}");
    }
    app.db.meanings_written().await;
    office
}

#[tokio::test]
async fn a_search_finds_what_the_words_mean_in_any_language_form_or_spelling() {
    let app = spawn_app().await;
    let client = shelf(&app).await;
    for (q, first) in [
        ("%EC%A7%80%EA%B0%91", "Black wallet"), // 지갑
        ("cartera", "Black wallet"),
        ("wallets", "Black wallet"),
        ("walet", "Black wallet"),
        ("black%20wallet%20library", "Black wallet"),
        ("calculater", "Calculator"),
        ("%EA%B2%80%EC%9D%80%EC%83%89%EC%9A%B0%EC%82%B0", "검은색 우산"), // 검은색우산
        ("%EC%9A%B0%EC%82%B0", "검은색 우산"),                            // 우산
    ] {
        let titles = found(&client, &format!("q={q}")).await;
        assert_eq!(titles.first().map(String::as_str), Some(first), "q={q}: {titles:?}");
    }
    // What it does not mean stays out.
    let titles = found(&client, "q=walet").await;
    assert!(!titles.contains(&"Grey scarf".to_owned()), "{titles:?}");
    // Staff export what they searched: the same items, newest first.
    for q in ["%EC%A7%80%EA%B0%91", "walet", "black%20wallet%20library"] {
        let mut searched = found(&client, &format!("q={q}")).await;
        let (status, _, csv) = client
            .send_raw(client.request(Method::GET, &format!("/api/items.csv?q={q}")))
            .await;
        assert_eq!(status, StatusCode::OK, "{csv}");
        let mut exported: Vec<String> = csv::Reader::from_reader(csv.as_bytes())
            .into_records()
            .map(|row| row.unwrap()[3].to_owned())
            .collect();
        assert!(exported.contains(&"Black wallet".to_owned()), "q={q}: {exported:?}");
        searched.sort();
        exported.sort();
        assert_eq!(exported, searched, "q={q}");
    }
}

#[tokio::test]
async fn best_first_pages_and_counts_like_any_list_and_newest_first_on_request() {
    let app = spawn_app().await;
    let client = shelf(&app).await;
    let (status, all) = client.get("/api/items?q=umbrella").await;
    assert_eq!(status, StatusCode::OK);
    let all: Vec<Value> = all.as_array().unwrap().clone();
    assert!(all.len() >= 2, "{all:?}");
    // Page by page, one at a time: the same items in the same order, none twice.
    let mut paged = Vec::new();
    let mut next = Some("/api/items?q=umbrella&limit=1".to_owned());
    while let Some(path) = next {
        let (status, headers, page) = client.send_raw(client.request(Method::GET, &path)).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert_eq!(headers["x-total-count"], all.len().to_string().as_str());
        let page: Value = serde_json::from_str(&page).unwrap();
        paged.extend(page.as_array().unwrap().iter().cloned());
        next = headers.get("link").map(|link| {
            link.to_str()
                .unwrap()
                .trim_start_matches('<')
                .split('>')
                .next()
                .unwrap()
                .to_owned()
        });
    }
    assert_eq!(paged, all);
    // Newest first: the same items, by when they were reported.
    let (_, newest) = client.get("/api/items?q=umbrella&sort=newest").await;
    let mut by_time = all.clone();
    by_time.sort_by(|a, b| {
        (b["created_at"].as_str(), b["id"].as_i64()).cmp(&(a["created_at"].as_str(), a["id"].as_i64()))
    });
    assert_eq!(newest.as_array().unwrap(), &by_time);
    assert_error(
        &client.get("/api/items?q=umbrella&sort=oldest").await,
        StatusCode::BAD_REQUEST,
        "Invalid sort",
    );
}

/// Meanings arrive a moment after their item (the encoder runs in the background): a search
/// made in that moment is not kept past it, although no item changed since.
#[tokio::test]
async fn a_search_kept_before_an_items_meaning_arrived_is_not_answered_again() {
    let app = spawn_app().await;
    // Written by the store, as an import writes: nothing wakes the encoder, whose next round
    // is a tick away.
    let now = lostfound::time::now_ms();
    let body = json!({ "title": "Black wallet", "kind": "found", "status": "approved",
        "lat": 51.5, "lng": -0.12, "createdBy": "office", "createdAt": now - 1_000 });
    let item = lostfound::domain::ImportedItem::parse(body.as_object().unwrap(), now).unwrap();
    import_into(&app.store, "one", vec![item]).await;
    let client = app.client();
    // 지갑 (wallet): only its meaning finds it, and it has none yet.
    let before = found(&client, "q=%EC%A7%80%EA%B0%91").await;
    app.db.meanings_written().await;
    eventually(
        "the search finds the wallet by its meaning",
        Duration::from_secs(10),
        async || found(&client, "q=%EC%A7%80%EA%B0%91").await == ["Black wallet"],
    )
    .await;
    // Found at the first try, the encoder came first and this run proved nothing: rare (the
    // search takes milliseconds, the encoder's next round comes within two seconds).
    if !before.is_empty() {
        eprintln!("the encoder gave the wallet its meaning before the first search");
    }
}
