//! `GET /api/items` at scale: pages through `Link`, `X-Total-Count`, every filter, `fields`,
//! the texts of bad values, conditional requests, and plans that use the indexes.

use lostfound::domain::{ImportedItem, ItemFilter, ItemId, ItemKind, ItemStatus, Near, Visibility};
use reqwest::{Method, StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::*;

/// One answer of a list: the items, the total, the next page's path.
struct Page {
    items: Vec<Value>,
    total: usize,
    next: Option<String>,
}

async fn page(client: &TestClient, path: &str) -> Page {
    let answer = client.send(client.request(Method::GET, path)).await;
    assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.body);
    let total = answer.headers["x-total-count"].to_str().unwrap().parse().unwrap();
    let next = answer.headers.get(header::LINK).map(|link| {
        let link = link.to_str().unwrap();
        assert!(link.ends_with(">; rel=\"next\""), "{link}");
        link[1..link.find('>').unwrap()].to_owned()
    });
    Page {
        items: answer.body.as_array().expect("an array").clone(),
        total,
        next,
    }
}

fn ids(items: &[Value]) -> Vec<i64> {
    items.iter().map(|i| i["id"].as_i64().unwrap()).collect()
}

/// The ids a list query answers, whole.
async fn listed(client: &TestClient, query: &str) -> Vec<i64> {
    let page = page(client, &format!("/api/items?{query}")).await;
    assert_eq!(page.total, page.items.len(), "{query}");
    assert!(page.next.is_none());
    ids(&page.items)
}

#[tokio::test]
async fn pages_never_skip_or_repeat_while_items_come_and_go() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let admin = app.logged_in("admin", true).await;
    let mut created = Vec::new();
    for n in 0..23 {
        created.push(
            alice.create_item(item_body(&format!("item {n}"))).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let newest_first: Vec<i64> = created.iter().rev().copied().collect();
    let first = page(&alice, "/api/items?limit=5").await;
    assert_eq!(ids(&first.items), newest_first[..5]);
    assert_eq!(first.total, 23);

    // Between pages: a newer item arrives, and (twice) a seen and an unseen item are deleted.
    let mut seen = ids(&first.items);
    let mut next = first.next.clone();
    let mut deleted_unseen = Vec::new();
    let mut round = 0;
    while let Some(path) = next {
        alice.create_item(item_body(&format!("newer {round}"))).await;
        if round < 2 {
            let unseen = newest_first[seen.len() + 2];
            for gone in [unseen, seen[round]] {
                assert_eq!(admin.delete(&format!("/api/items/{gone}")).await.0, StatusCode::OK);
            }
            deleted_unseen.push(unseen);
        }
        let page = page(&alice, &path).await;
        assert!(page.items.len() <= 5);
        seen.extend(ids(&page.items));
        next = page.next;
        round += 1;
    }
    // Every item there throughout came once, in order; nothing deleted unseen, nothing newer.
    let expected: Vec<i64> = newest_first
        .iter()
        .filter(|id| !deleted_unseen.contains(id))
        .copied()
        .collect();
    assert_eq!(seen, expected);
    assert_eq!(deleted_unseen.len(), 2);
}

#[tokio::test]
async fn a_page_boundary_falls_between_items_made_in_the_same_millisecond() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    for n in 0..6 {
        alice.create_item(item_body(&format!("item {n}"))).await;
    }
    // Every item at the same instant: only the id orders them.
    app.db
        .sql("UPDATE items SET created_at = 1700000000000 RETURNING 'x'")
        .await;
    let mut path = Some("/api/items?limit=4".to_owned());
    let mut seen = Vec::new();
    while let Some(p) = path {
        let page = page(&alice, &p).await;
        seen.extend(ids(&page.items));
        path = page.next;
    }
    assert_eq!(seen, [6, 5, 4, 3, 2, 1]);
}

#[tokio::test]
async fn every_filter_narrows_the_list_and_the_total() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let bob = app.logged_in("bob", false).await;
    let admin = app.logged_in("admin", true).await;
    let near_desk = (51.5246, -0.1340);
    let umbrella = alice
        .create_item(json!({
            "title": "Blue Umbrella", "desc": "Folding, wooden handle", "cat": "Accessories",
            "lat": near_desk.0, "lng": near_desk.1, "radius": 30, "kind": "found",
        }))
        .await;
    let cafe = alice
        .create_item(json!({
            "title": "Crème brûlée recipe", "desc": "Left at the Café Noir", "cat": "documents",
            "lat": 51.5300, "lng": -0.1340, "radius": 0,
        }))
        .await;
    let keys = bob
        .create_item(json!({
            "title": "House keys", "cat": "keys", "lat": 48.8566, "lng": 2.3522, "radius": 5000,
        }))
        .await;
    let [umbrella, cafe, keys] = [&umbrella, &cafe, &keys].map(|i| i["id"].as_i64().unwrap());
    admin
        .patch(
            &format!("/api/items/{keys}"),
            json!({ "status": "approved", "storagePlace": "Porter's Lodge" }),
        )
        .await;
    // Searches find by meaning too: what they find is settled once every item has one.
    app.db.meanings_written().await;

    for (query, expected) in [
        ("q=umbr", vec![umbrella]),
        ("q=UMBRELLA%20blue", vec![umbrella]),
        ("q=wood%20fold", vec![umbrella]),
        // Every word must be met ("wood" is on its way to "wooden": not searched by meaning).
        ("q=wood%20keys", vec![]),
        ("q=creme", vec![cafe]),
        ("q=CAF", vec![cafe]),
        ("q=br%C3%BBl%C3%A9e", vec![cafe]),
        ("q=accessor", vec![umbrella]),
        ("q=porter", vec![keys]),
        ("q=lodge%20house", vec![keys]),
        // A letter missing: the umbrella all the same.
        ("q=mbrella", vec![umbrella]),
        ("q=mbrella&limit=5", vec![umbrella]),
        ("q=%21%21", vec![keys, cafe, umbrella]),
        ("cat=ACCESSORIES", vec![umbrella]),
        ("cat=access", vec![]),
        ("kind=found", vec![umbrella]),
        ("kind=lost", vec![keys, cafe]),
        ("status=approved", vec![keys]),
        ("createdBy=alice", vec![cafe, umbrella]),
        ("createdBy=nobody", vec![]),
        // The umbrella's circle (30 m) is 0 m from the desk; the recipe is ~600 m north.
        ("near=51.5246,-0.1340", vec![umbrella]),
        ("near=51.5246,-0.1340&within=550", vec![umbrella]),
        ("near=51.5246,-0.1340&within=650", vec![cafe, umbrella]),
        // 40 m east of the desk: only the umbrella's 30 m circle reaches within 15 m.
        ("near=51.5246,-0.13342&within=15", vec![umbrella]),
        ("near=51.5246,-0.13342&within=5", vec![]),
        // Paris: the keys' 5 km circle holds a point 3 km away.
        ("near=48.8836,2.3522&within=0", vec![keys]),
        ("kind=lost&near=51.5246,-0.1340&within=650", vec![cafe]),
        ("q=keys&status=approved&cat=keys&kind=lost", vec![keys]),
    ] {
        assert_eq!(listed(&alice, query).await, expected, "{query}");
    }

    // Time bounds: `since` inclusive, `until` exclusive.
    app.db
        .sql(&format!(
            "UPDATE items SET created_at = 1737109800000 WHERE id = {cafe} RETURNING 'x'"
        ))
        .await;
    for (query, expected) in [
        ("since=2025-01-17T10:30:00.000Z", vec![keys, umbrella, cafe]),
        ("since=2025-01-17T10:30:00.001Z", vec![keys, umbrella]),
        ("until=2025-01-17T10:30:00.000Z", vec![]),
        ("until=2025-01-17T11:30:00.001%2B01:00", vec![cafe]),
        ("since=2025-01-01T00:00:00Z&until=2025-02-01T00:00:00Z", vec![cafe]),
    ] {
        let mut got = listed(&alice, query).await;
        got.sort_unstable();
        let mut expected = expected;
        expected.sort_unstable();
        assert_eq!(got, expected, "{query}");
    }

    // Clearing the storage place takes its words out of search.
    admin
        .patch(&format!("/api/items/{keys}"), json!({ "storagePlace": null }))
        .await;
    assert_eq!(listed(&alice, "q=porter").await, Vec::<i64>::new());
}

#[tokio::test]
async fn bad_values_are_400_with_their_own_texts() {
    let app = spawn_app().await;
    let client = app.client();
    for (query, text) in [
        ("limit=0", "Invalid limit"),
        ("limit=201", "Invalid limit"),
        ("limit=2.5", "Invalid limit"),
        ("cursor=!!", "Invalid cursor"),
        ("cursor=bm9wZQ", "Invalid cursor"),
        ("near=91,0", "Invalid near"),
        ("near=here", "Invalid near"),
        ("within=10", "Invalid near"),
        ("near=0,0&within=100001", "Invalid within"),
        ("near=0,0&within=-5", "Invalid within"),
        ("since=yesterday", "Invalid since"),
        ("until=2025-13-01T00:00:00Z", "Invalid until"),
        ("kind=stolen", "Invalid kind"),
        ("status=lost", "Invalid status"),
        ("fields=", "Invalid fields"),
        ("fields=id,secret", "Invalid fields"),
        ("fields=id,,title", "Invalid fields"),
        ("limit=1&limit=2", "Invalid query string"),
    ] {
        let answer = client.get(&format!("/api/items?{query}")).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, text);
    }
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Umbrella")).await;
    let answer = alice.get(&format!("{}?fields=nope", item_path(&item))).await;
    assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid fields");
    let answer = alice.post("/api/items?fields=", item_body("x")).await;
    assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid fields");
    let answer = alice
        .post(
            "/api/items",
            json!({ "title": "x", "lat": 1, "lng": 1, "kind": "stolen" }),
        )
        .await;
    assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid kind");
    assert_eq!(app.item_count().await, 1, "a refused item was stored");
}

#[tokio::test]
async fn fields_choose_the_keys_of_every_item_answer() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let admin = app.logged_in("admin", true).await;
    let body = json!({ "title": "Scarf", "lat": 1, "lng": 2, "kind": "found", "imgData": PNG_DATA_URL });
    let (status, created) = alice
        .post("/api/items?fields=id,kind,photoUrl,thumbUrl,returnedAt", body)
        .await;
    assert_eq!(status, StatusCode::OK);
    let id = created["id"].as_i64().unwrap();
    let version = created["photoUrl"]
        .as_str()
        .unwrap()
        .split("?v=")
        .nth(1)
        .unwrap()
        .to_owned();
    assert_eq!(
        created,
        json!({
            "id": id, "kind": "found",
            "photoUrl": format!("/api/items/{id}/photo?v={version}"),
            "thumbUrl": format!("/api/items/{id}/thumb?v={version}"),
            "returnedAt": null,
        })
    );
    let plain = alice.create_item(item_body("No photo")).await;
    let plain_path = item_path(&plain);
    assert_eq!(
        alice.get(&format!("{plain_path}?fields=title,photoUrl,kind")).await.1,
        json!({ "title": "No photo", "photoUrl": null, "kind": "lost" })
    );
    let (_, patched) = admin
        .patch(
            &format!("/api/items/{id}?fields=status,storagePlace"),
            json!({ "status": "approved" }),
        )
        .await;
    assert_eq!(patched, json!({ "status": "approved", "storagePlace": null }));
    let list = page(&alice, "/api/items?fields=title,imgData&limit=10").await;
    assert_eq!(
        list.items,
        [
            json!({ "title": "No photo", "imgData": null }),
            json!({ "title": "Scarf", "imgData": PNG_DATA_URL })
        ]
    );
    // Without `fields`, the contract's twelve keys and nothing else.
    let (_, whole) = alice.get("/api/items").await;
    for item in whole.as_array().unwrap() {
        assert_eq!(item.as_object().unwrap().len(), 12, "{item}");
    }
}

#[tokio::test]
async fn lists_items_and_photos_answer_304_while_unchanged() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let admin = app.logged_in("admin", true).await;
    let item = alice
        .create_item(
            json!({ "title": "Scarf", "lat": 1, "lng": 2, "imgData": data_url("image/png", &png(400, 300, false)) }),
        )
        .await;
    let path = item_path(&item);
    let etag_of = |answer: &(StatusCode, HeaderMap, String)| answer.1[header::ETAG].to_str().unwrap().to_owned();
    use reqwest::header::HeaderMap;
    for target in [
        "/api/items".to_owned(),
        "/api/items?limit=5&fields=id,title".to_owned(),
        path.clone(),
        format!("{path}/photo"),
        format!("{path}/thumb"),
    ] {
        let first = alice.send_raw(alice.request(Method::GET, &target)).await;
        assert_eq!(first.0, StatusCode::OK, "{target}");
        let etag = etag_of(&first);
        let again = alice
            .send_raw(alice.request(Method::GET, &target).header(header::IF_NONE_MATCH, &etag))
            .await;
        assert_eq!((again.0, again.2.as_str()), (StatusCode::NOT_MODIFIED, ""), "{target}");
        assert_eq!(etag_of(&again), etag);
        let other = alice
            .send_raw(
                alice
                    .request(Method::GET, &target)
                    .header(header::IF_NONE_MATCH, "\"stale\""),
            )
            .await;
        assert_eq!(other.0, StatusCode::OK, "{target}");
    }
    // A change to the item gives the lists and the item new tags.
    let tags = |target: &'static str| {
        let alice = alice.clone();
        async move { etag_of(&alice.send_raw(alice.request(Method::GET, target)).await) }
    };
    let list_before = tags("/api/items").await;
    let item_before = etag_of(&alice.send_raw(alice.request(Method::GET, &path)).await);
    admin.patch(&path, json!({ "storagePlace": "Desk" })).await;
    assert_ne!(tags("/api/items").await, list_before);
    let after = alice
        .send_raw(
            alice
                .request(Method::GET, &path)
                .header(header::IF_NONE_MATCH, &item_before),
        )
        .await;
    assert_eq!(after.0, StatusCode::OK, "a changed item answered 304");
    // Other fields are another representation.
    let narrow = etag_of(
        &alice
            .send_raw(alice.request(Method::GET, &format!("{path}?fields=id")))
            .await,
    );
    assert_ne!(narrow, etag_of(&after));
}

#[tokio::test]
async fn pages_are_read_through_the_indexes() {
    let app = spawn_app().await;
    let postgres = app.db.url().starts_with("postgres");
    // Enough rows that a plan reading the whole table would show.
    let many = if postgres {
        "INSERT INTO items (title, lat, lng, radius, status, created_at, created_by, search_words, cat_key) \
         SELECT 'item ' || n, 51.5, -0.1, 0, CASE WHEN n % 3 = 0 THEN 'approved' ELSE 'pending' END, \
         1700000000000 + n, 'alice', 'item ' || n, 'bags' FROM generate_series(1, 5000) AS n RETURNING 'x'"
    } else {
        "WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < 5000) \
         INSERT INTO items (title, lat, lng, radius, status, created_at, created_by, search_words, cat_key) \
         SELECT 'item ' || n, 51.5, -0.1, 0, CASE WHEN n % 3 = 0 THEN 'approved' ELSE 'pending' END, \
         1700000000000 + n, 'alice', 'item ' || n, 'bags' FROM n RETURNING 'x'"
    };
    app.db.sql(many).await;
    // Rows written behind the service's back join SQLite's full-text index at its next commit.
    let alice = app.logged_in("alice", false).await;
    alice.create_item(item_body("Blue umbrella")).await;
    app.db.sql(if postgres { "ANALYZE items" } else { "ANALYZE" }).await;
    let newest = ItemFilter::default();
    let approved = ItemFilter {
        status: Some(ItemStatus::Approved),
        ..ItemFilter::default()
    };
    let words = ItemFilter {
        words: vec![vec!["item".into()], vec!["42".into()]],
        ..ItemFilter::default()
    };
    // One desk's public first page (Browse filtered by desk).
    let desk = ItemFilter {
        site: Some(1),
        visible: Some(Visibility {
            states: vec![ItemStatus::Approved],
            reporter: None,
        }),
        ..ItemFilter::default()
    };
    for (filter, index) in [
        (&newest, "items_newest"),
        (&approved, "items_by_status_newest"),
        (&desk, "items_by_site"),
    ] {
        let plan = app.store.explain_list(filter, None).await.unwrap().join("\n");
        assert!(plan.contains(index), "{filter:?} not through {index}:\n{plan}");
        for whole_table in ["TEMP B-TREE", "Sort", "Seq Scan", "SCAN items\n"] {
            assert!(
                !format!("{plan}\n").contains(whole_table),
                "{filter:?} reads the table:\n{plan}"
            );
        }
    }
    // Near a point: the box around it through the index of places (none of the rows is in it,
    // so PostgreSQL's statistics choose it too).
    let near = ItemFilter {
        near: Some(Near {
            lat: 10.0,
            lng: 10.0,
            within: 500.0,
        }),
        ..ItemFilter::default()
    };
    let plan = app.store.explain_list(&near, None).await.unwrap().join("\n");
    assert!(
        plan.contains("items_by_place"),
        "near without the index of places:\n{plan}"
    );
    // Matching's candidates: on SQLite through their own index, which tests the box, the time
    // and the category on its entries before an item is read.
    if !postgres {
        let candidates = ItemFilter {
            status: Some(ItemStatus::Approved),
            kind: Some(ItemKind::Found),
            cat: Some("bags".into()),
            uncategorized_too: true,
            since: Some(1_700_000_000_000),
            until: Some(1_700_000_001_000),
            ..near.clone()
        };
        let plan = app.store.explain_list(&candidates, None).await.unwrap().join("\n");
        assert!(
            plan.contains("items_for_matching (status=? AND kind=? AND lat>? AND lat<?)"),
            "matching's candidates without their index:\n{plan}"
        );
    }
    let plan = app.store.explain_list(&words, None).await.unwrap().join("\n");
    let search_index = if postgres { "items_search" } else { "items_fts" };
    assert!(plan.contains(search_index), "search without its index:\n{plan}");
    // Words that find many items (all 5,000): on SQLite the page walks the newest-first index
    // to its end, rather than reading every match and sorting them.
    if !postgres {
        let broad = ItemFilter {
            words: vec![vec!["item".into()]],
            ..ItemFilter::default()
        };
        let plan = app.store.explain_list(&broad, None).await.unwrap().join("\n");
        assert!(
            plan.contains("items_newest") && !plan.contains("TEMP B-TREE"),
            "a broad search sorts its matches:\n{plan}"
        );
        let selective = app.store.explain_list(&words, None).await.unwrap().join("\n");
        assert!(
            !selective.contains("items_newest"),
            "a selective search walks the newest-first index:\n{selective}"
        );
    }
}

/// A search has at most 16 words: 16 find what they should, 17 (or 12,000) are refused at
/// once with `Invalid q`, on every listing that takes `q`.
#[tokio::test]
async fn a_search_of_more_than_sixteen_words_is_refused() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(item_body("Wallet brown leather")).await;
    // Short words, so that 12,000 of them still make a valid URI.
    let words = |n: usize| {
        (0..n)
            .map(|i| {
                if i == 0 {
                    "wallet".to_owned()
                } else {
                    format!("w{}", i % 10)
                }
            })
            .collect::<Vec<_>>()
    };
    // Every word must match: 16 words, one of them the title's, find nothing else; just the
    // title's word finds the wallet.
    assert_eq!(listed(&alice, "q=wallet").await, [item["id"].as_i64().unwrap()]);
    let (status, _) = alice.get(&format!("/api/items?q={}", words(16).join("+"))).await;
    assert_eq!(status, StatusCode::OK);
    let admin = app.logged_in("office", true).await;
    for n in [17, 12_000] {
        let q = words(n).join("+");
        assert_error(
            &alice.get(&format!("/api/items?q={q}")).await,
            StatusCode::BAD_REQUEST,
            "Invalid q",
        );
        let (status, _, body) = admin
            .send_raw(admin.request(Method::GET, &format!("/api/items.csv?q={q}")))
            .await;
        assert_eq!(
            (status, body.as_str()),
            (StatusCode::BAD_REQUEST, r#"{"error":"Invalid q"}"#)
        );
    }
}

/// `place`: a building, room or desk in words, searched by `q` like the title.
#[tokio::test]
async fn the_place_in_words_is_kept_and_searched() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let mut body = item_body("Umbrella");
    body["place"] = json!("  Main Library, room 2.14  ");
    let (status, item) = alice.post("/api/items?fields=id,place", body).await;
    assert_eq!(status, StatusCode::OK, "{item}");
    assert_eq!(item["place"], "Main Library, room 2.14");
    alice.create_item(item_body("Scarf")).await;
    app.db.meanings_written().await;
    let (_, found) = app.client().get("/api/items?q=librar&fields=title,place").await;
    assert_eq!(
        found,
        json!([{ "title": "Umbrella", "place": "Main Library, room 2.14" }])
    );
    let (_, plain) = app.client().get("/api/items?q=scarf&fields=place").await;
    assert_eq!(plain, json!([{ "place": null }]));
    // Without `fields`, the contract's twelve keys.
    assert_eq!(
        app.client().get(&item_path(&item)).await.1.as_object().unwrap().len(),
        12
    );
    let mut long = item_body("Too far");
    long["place"] = json!("p".repeat(201));
    assert_error(
        &alice.post("/api/items", long).await,
        StatusCode::BAD_REQUEST,
        "place must be at most 200 characters",
    );
}

/// Past 10,000 matches a count would cost what the matches do: it is an estimate then, and
/// the answer says so; up to 10,000 it is exact.
#[tokio::test]
async fn a_count_past_ten_thousand_matches_is_an_estimate_that_says_so() {
    let app = spawn_app().await;
    // 10,500 lost wallets, then 2,000 found umbrellas, a second apart, all approved.
    let now = lostfound::time::now_ms();
    let reports: Vec<ImportedItem> = (0..12_500_i64)
        .map(|n| {
            let (title, kind) = if n < 10_500 {
                ("Wallet", "lost")
            } else {
                ("Umbrella", "found")
            };
            let body = json!({
                "title": title, "kind": kind, "status": "approved", "lat": 51.52, "lng": -0.13,
                "createdBy": "alice", "createdAt": now - 20_000_000 + n * 1_000,
            });
            ImportedItem::parse(body.as_object().unwrap(), now).unwrap()
        })
        .collect();
    import_into(&app.store, "reports", reports).await;
    let client = app.client();
    let count = async |query: &str| {
        let answer = client
            .send(client.request(Method::GET, &format!("/api/items?limit=1&{query}")))
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{query}: {}", answer.body);
        let total: u64 = answer.headers["x-total-count"].to_str().unwrap().parse().unwrap();
        let estimated = answer
            .headers
            .get("x-total-count-estimated")
            .map(|v| v.to_str().unwrap().to_owned());
        (total, estimated)
    };
    assert_eq!(count("kind=found").await, (2_000, None));
    assert_eq!(count("q=umbrella").await, (2_000, None));
    for (query, truth) in [("", 12_500.0), ("kind=lost", 10_500.0), ("q=wallet", 10_500.0)] {
        let (total, estimated) = count(query).await;
        assert_eq!(estimated.as_deref(), Some("true"), "{query}");
        assert!(
            (total as f64 - truth).abs() / truth < 0.1,
            "{query}: {total} for {truth}"
        );
        assert!(total > 10_000, "{query}: an estimate says more than the exact bound");
    }
    // At the bound itself the count is exact.
    for n in 1..=500 {
        app.store
            .delete_item(ItemId::new(n).unwrap(), "staff", now)
            .await
            .unwrap();
    }
    assert_eq!(count("kind=lost").await, (10_000, None));
}
