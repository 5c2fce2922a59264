//! Gives every item its meaning, in the background: at start it loads this node's index and
//! lexicon and encodes the items that have no meaning from this model (a database written by
//! an earlier release, or by another model), logging its progress; then each item created,
//! when [`Meanings::item_changed`] rings or, for other nodes' items, every few seconds.

use std::time::{Duration, Instant};

use super::Meanings;
use crate::{domain::matching::text_of_parts, store::Store};

/// Items encoded per round: enough to keep every core busy, few enough that a round's
/// write is short.
const ROUND: u32 = 256;
/// How often other nodes' items and meanings are looked for.
const TICK: Duration = Duration::from_secs(2);
/// How far below the last item encoded each round looks again: an item whose id was taken
/// earlier may commit later (PostgreSQL, other nodes).
const LOOKBACK: i64 = 1_000;
/// How often a long fill says how far it is.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

impl Meanings {
    /// Runs until the process ends (the task is dropped with the runtime).
    pub async fn fill(self, store: Store) {
        self.refresh(&store, true).await;
        let mut after = 0;
        let mut first = true;
        loop {
            match self.encode_waiting(&store, &mut after, first).await {
                Ok(()) => first = false,
                Err(err) => tracing::warn!(error = %err, "items could not be given their meanings; retrying"),
            }
            let _ = tokio::time::timeout(TICK, self.wanted.notified()).await;
            self.refresh(&store, false).await;
        }
    }

    /// Brings the index and the lexicon up to what the database holds.
    async fn refresh(&self, store: &Store, first: bool) {
        match self.lexicon.catch_up(store).await {
            Ok(read) if first => tracing::info!(items = read, "lexicon of the items' words loaded"),
            Ok(_) => {}
            Err(err) => tracing::warn!(error = %err, "the lexicon of the items' words could not catch up"),
        }
        match self.index.catch_up(store, self.model()).await {
            Ok(read) if first => tracing::info!(meanings = read, model = self.model(), "index of meanings loaded"),
            Ok(_) => {}
            Err(err) => tracing::warn!(error = %err, "the index of meanings could not catch up"),
        }
    }

    /// Encodes every item after `after` (less the look-back) without a meaning from this
    /// model, round by round; `after` ends at the last item seen.
    async fn encode_waiting(&self, store: &Store, after: &mut i64, first: bool) -> anyhow::Result<()> {
        let started = Instant::now();
        let mut said = started;
        let mut done = 0usize;
        let mut from = if first { 0 } else { (*after - LOOKBACK).max(0) };
        loop {
            let items = store.unencoded(self.model(), from, ROUND).await?;
            let Some(last) = items.last() else { break };
            from = last.id;
            *after = (*after).max(last.id);
            let texts = items
                .iter()
                .map(|item| text_of_parts(&item.title, item.desc.as_deref()))
                .collect();
            let meanings = self.encode(texts).await?;
            let written: Vec<(i64, _)> = items.iter().map(|item| item.id).zip(meanings).collect();
            store.write_meanings(self.model(), &written).await?;
            self.index.put(&written);
            done += written.len();
            if first && said.elapsed() >= PROGRESS_EVERY {
                said = Instant::now();
                tracing::info!(items = done, last_id = from, "giving items their meanings");
            }
            if items.len() < ROUND as usize {
                break;
            }
        }
        if first && done > 0 {
            let seconds = started.elapsed().as_secs_f64();
            tracing::info!(items = done, seconds, "every item has its meaning");
        }
        Ok(())
    }
}
