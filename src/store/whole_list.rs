//! Whole lists (no `limit`): every item of a filter, newest first, read a batch at a time,
//! with no connection held between batches however slowly the stream is consumed.
//!
//! Most filters are read a page at a time from where the last batch ended, through an index
//! in the list's order: each batch costs what it holds. A search (words, a place) must find
//! every match before it can order them, so a list that searched again for each batch cost
//! its matches times its batches (a 16-word search of 100,000 items took 73 s). A search's
//! list reads where its items are in runs of keys, one search a run, and then each batch by
//! id. Runs double from [`FIRST_RUN`] (1,000 keys, 2,000, 4,000, …): a list of n matches
//! searches about log2(n / 1,000) + 1 times (7 for 100,000), and the ids it holds, 8 bytes
//! each, are never more than those of the items it has sent plus the first run's: 8 KB for a
//! client that reads nothing.

use std::collections::VecDeque;

use futures_util::{Stream, stream};

use super::{Store, StoreError};
use crate::domain::{Cursor, Item, ItemFilter, ItemId};

/// Keys the first run reads; each next run reads twice as many as the one before.
const FIRST_RUN: u32 = 1_000;

/// A whole list on its way.
struct WholeList {
    store: Store,
    filter: ItemFilter,
    batch: u32,
    /// Where the next page or run starts (`Some(None)`: at the top); `None` once one came
    /// back short: there are no more.
    next: Option<Option<Cursor>>,
    /// How a search is read; `None` for other filters.
    search: Option<Search>,
}

/// How a search's list is read: runs of keys, and each batch by id.
struct Search {
    /// Keys the next run reads.
    run: u32,
    /// The ids of the last run not sent yet, newest first.
    ids: VecDeque<ItemId>,
    /// The filter for the items its runs found: what it searched for (words, a place) is not
    /// tested again, the rest is, so an item deleted, or no longer visible to the reader,
    /// since its run is not sent. An item's place never changes, and its words only with its
    /// storage place.
    found: ItemFilter,
}

impl WholeList {
    /// The next batch, or `None` at the end.
    async fn next(&mut self) -> Result<Option<Vec<Item>>, StoreError> {
        let Some(search) = &mut self.search else {
            let Some(after) = self.next else {
                return Ok(None);
            };
            let items = self.store.list_items(&self.filter, after, self.batch).await?;
            self.next = (items.len() == self.batch as usize).then(|| items.last().map(Cursor::after));
            return Ok((!items.is_empty()).then_some(items));
        };
        loop {
            if search.ids.is_empty() {
                let Some(after) = self.next else {
                    return Ok(None);
                };
                let keys = self.store.item_keys(&self.filter, after, search.run).await?;
                self.next = (keys.len() == search.run as usize).then(|| keys.last().copied());
                search.run = search.run.saturating_mul(2);
                search.ids = keys.into_iter().map(|key| key.id).collect();
                continue;
            }
            let batch = search.ids.len().min(self.batch as usize);
            search.found.ids = search.ids.drain(..batch).collect();
            let items = self.store.items_by_id(&search.found).await?;
            // A batch whose items all went meanwhile is not one.
            if !items.is_empty() {
                return Ok(Some(items));
            }
        }
    }
}

impl Store {
    /// Every item matching `filter` after `after`, newest first, `batch` at a time (see the
    /// module's documentation).
    pub fn stream_items(
        &self,
        filter: ItemFilter,
        after: Option<Cursor>,
        batch: u32,
    ) -> impl Stream<Item = Result<Vec<Item>, StoreError>> + Send + 'static {
        let search = filter.searches().then(|| Search {
            run: FIRST_RUN,
            ids: VecDeque::new(),
            found: ItemFilter {
                words: Vec::new(),
                or_ids: Vec::new(),
                near: None,
                ..filter.clone()
            },
        });
        let list = WholeList {
            store: self.clone(),
            filter,
            batch,
            next: Some(after),
            search,
        };
        stream::try_unfold(list, |mut list| async move {
            Ok(list.next().await?.map(|items| (items, list)))
        })
    }
}
