//! Whole lists (no `limit`), streamed a batch at a time: what a search costs them, and what
//! they send when items change while they are read.

use futures_util::{StreamExt, TryStreamExt};
use lostfound::{
    domain::{ImportedItem, ItemFilter, ItemId, ItemStatus, Near, Visibility},
    store::Store,
};
use serde_json::json;

use crate::helpers::*;

/// Imports `count` approved items a second apart, oldest first (ids 1, 2, …): "Black
/// umbrella" at the desk, then after `umbrellas` of them, "Red scarf" far away.
async fn import(app: &TestApp, count: i64, umbrellas: i64) {
    let now = lostfound::time::now_ms();
    let items: Vec<ImportedItem> = (0..count)
        .map(|n| {
            let (title, lat, lng) = if n < umbrellas {
                ("Black umbrella", 51.52, -0.13)
            } else {
                ("Red scarf", 10.0, 10.0)
            };
            let body = json!({
                "title": title, "status": "approved", "lat": lat, "lng": lng,
                "createdBy": "alice", "createdAt": now - 10_000_000 + n * 1_000,
            });
            ImportedItem::parse(body.as_object().unwrap(), now).unwrap()
        })
        .collect();
    import_into(&app.store, "whole-list", items).await;
}

/// The ids of every item of `filter`, streamed in batches of `batch`.
async fn whole(store: &Store, filter: &ItemFilter, batch: u32) -> Vec<i64> {
    let batches: Vec<_> = store
        .stream_items(filter.clone(), None, batch)
        .try_collect()
        .await
        .unwrap();
    batches.concat().iter().map(|item| item.id.get()).collect()
}

fn words(words: &[&str]) -> ItemFilter {
    ItemFilter {
        words: words.iter().map(|w| vec![(*w).to_owned()]).collect(),
        ..ItemFilter::default()
    }
}

/// A search finds every match before it can order them (the words through the full-text
/// index, a place through the box around it): a whole list that searched again for each batch
/// cost its matches times its batches (a 16-word search of 100,000 items took 73 s). The
/// searches a whole list runs do not grow with its batches.
#[tokio::test]
async fn a_whole_list_searches_the_same_whatever_its_batches() {
    let app = spawn_app().await;
    import(&app, 3_000, 2_500).await;
    let newest_first: Vec<i64> = (1..=2_500).rev().collect();
    let near = ItemFilter {
        near: Some(Near {
            lat: 51.52,
            lng: -0.13,
            within: 100.0,
        }),
        ..ItemFilter::default()
    };
    for filter in [words(&["black"]), words(&["b"; 16]), near] {
        let mut searches = Vec::new();
        // 250, 25 and 5 batches.
        for batch in [10, 100, 500] {
            let before = app.store.searches();
            assert_eq!(
                whole(&app.store, &filter, batch).await,
                newest_first,
                "{filter:?} in batches of {batch}"
            );
            searches.push(app.store.searches() - before);
        }
        assert!(
            searches.iter().all(|&n| n == searches[0] && n <= 3),
            "{filter:?}: {searches:?} searches in batches of 10, 100 and 500"
        );
    }
}

/// The matches are found once, but each batch is read as it is then: an item deleted, or no
/// longer visible to the reader, after the list began is not sent.
#[tokio::test]
async fn a_whole_list_leaves_out_what_changes_while_it_is_read() {
    let app = spawn_app().await;
    import(&app, 300, 300).await;
    let filter = ItemFilter {
        visible: Some(Visibility {
            states: vec![ItemStatus::Approved],
            reporter: None,
        }),
        ..words(&["umbrella"])
    };
    let mut batches = std::pin::pin!(app.store.stream_items(filter, None, 10));
    let first = batches.next().await.unwrap().unwrap();
    assert_eq!(
        first.iter().map(|item| item.id.get()).collect::<Vec<_>>(),
        (291..=300).rev().collect::<Vec<_>>()
    );
    let now = lostfound::time::now_ms();
    app.store
        .delete_item(ItemId::new(200).unwrap(), "staff", now)
        .await
        .unwrap();
    app.db
        .sql("UPDATE items SET status = 'rejected' WHERE id = 150 RETURNING 'x'")
        .await;
    let rest: Vec<_> = batches.try_collect().await.unwrap();
    let rest: Vec<i64> = rest.concat().iter().map(|item| item.id.get()).collect();
    let expected: Vec<i64> = (1..=290).rev().filter(|id| ![200, 150].contains(id)).collect();
    assert_eq!(rest, expected);
}
