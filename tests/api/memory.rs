//! Memory stays bounded while many clients stream a big list: the server's resident memory
//! is sampled from /proc while they read.

use std::time::Duration;

use lostfound::{
    domain::NewItem,
    store::{Create, Store},
};
use serde_json::json;

use crate::{helpers::*, node::Server};

#[tokio::test]
async fn thirty_clients_streaming_a_23_mb_list_grow_memory_by_under_150_mb() {
    const ITEMS: usize = 70;
    const CLIENTS: usize = 30;
    let db = TestDb::new().await;
    let store = Store::connect(db.url(), Create::IfMissing).await.unwrap();
    for n in 0..ITEMS {
        // Noise does not compress: each photo is about 235 KB, 315 KB as base64.
        let body = json!({ "title": format!("item {n}"), "lat": 51.5, "lng": -0.1, "imgData": data_url("image/png", &png(280, 280, true)) });
        let item = NewItem::parse(body.as_object().unwrap()).unwrap();
        let _ = store.insert_item(item, "alice", n as i64).await.unwrap().unheard();
    }
    store.close().await;

    let server = Server::start(&db, &[]).await;
    let client = server.client();
    let whole = client
        .http
        .get(format!("{}/api/items", server.url))
        .send()
        .await
        .unwrap();
    let size = whole.bytes().await.unwrap().len();
    assert!(size > 21_000_000, "the list is only {size} bytes");
    let before = server.rss();

    let mut readers = tokio::task::JoinSet::new();
    for _ in 0..CLIENTS {
        let (http, url) = (reqwest::Client::new(), format!("{}/api/items", server.url));
        readers.spawn(async move {
            let body = http.get(url).send().await.unwrap().bytes().await.unwrap();
            serde_json::from_slice::<Vec<serde_json::Value>>(&body).unwrap().len()
        });
    }
    let mut peak = before;
    let mut done = 0;
    while done < CLIENTS {
        tokio::select! {
            finished = readers.join_next() => {
                assert_eq!(finished.unwrap().unwrap(), ITEMS, "a client got a partial list");
                done += 1;
            }
            () = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
        peak = peak.max(server.rss());
    }
    let growth = peak.saturating_sub(before);
    eprintln!(
        "list of {size} bytes, {CLIENTS} clients: RSS {} MB before, peak {} MB, growth {} MB",
        before >> 20,
        peak >> 20,
        growth >> 20
    );
    assert!(growth < 150 << 20, "RSS grew by {} MB", growth >> 20);
    server.signal("-TERM").await;
}
