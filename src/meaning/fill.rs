//! Gives every item its meaning, in the background: at start it loads this node's index and
//! lexicon and encodes the items that have no meaning from this model (a database written by
//! an earlier release, or by another model), logging its progress; then each item created,
//! when [`Meanings::item_changed`] rings or, for other nodes' items, every few seconds.
//!
//! Each round reads only what came after the last one; once every [`TICK`] it also reads the
//! last [`super::LOOKBACK`] items and meanings again, for those that committed after later ones
//! (PostgreSQL). Looking back every round, as it did, made each create in a flood read a
//! few thousand rows again: a sixth of the runtime's CPU a create.

use std::time::{Duration, Instant};

use super::{Meanings, read_from};
use crate::{domain::matching::text_of_parts, store::Store};

/// Items encoded per round: enough to keep every core busy, few enough that a round's
/// write is short.
const ROUND: u32 = 256;
/// How often other nodes' items and meanings are looked for.
const TICK: Duration = Duration::from_secs(2);
/// The least time from one round's start to the next: each call of the encoder costs about
/// the same whatever it encodes (it reads its weights through), so rounds that took each
/// item as it came encoded one or two a call, and at ten clients creating reports a create's
/// encoding cost half as much again. A new item waits at most this for its meaning.
const ROUND_GAP: Duration = Duration::from_millis(20);
/// How often a long fill says how far it is.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

impl Meanings {
    /// Runs until the process ends (the task is dropped with the runtime).
    pub async fn fill(self, store: Store) {
        self.refresh(&store, true, true).await;
        let mut after = 0;
        let mut first = true;
        let mut looked_back = Instant::now();
        loop {
            let round = tokio::time::Instant::now();
            let look_back = looked_back.elapsed() >= TICK;
            if look_back {
                looked_back = Instant::now();
            }
            match self.encode_waiting(&store, &mut after, first, look_back).await {
                Ok(()) => first = false,
                Err(err) => tracing::warn!(error = %err, "items could not be given their meanings; retrying"),
            }
            let _ = tokio::time::timeout(TICK, self.wanted.notified()).await;
            tokio::time::sleep_until(round + ROUND_GAP).await;
            self.refresh(&store, false, look_back).await;
        }
    }

    /// Brings the index and the lexicon up to what the database holds.
    async fn refresh(&self, store: &Store, first: bool, look_back: bool) {
        match self.lexicon.catch_up(store, look_back).await {
            Ok(read) if first => tracing::info!(items = read, "lexicon of the items' words loaded"),
            Ok(_) => {}
            Err(err) => tracing::warn!(error = %err, "the lexicon of the items' words could not catch up"),
        }
        match self.index.catch_up(store, self.model(), look_back).await {
            Ok(read) if first => tracing::info!(meanings = read, model = self.model(), "index of meanings loaded"),
            Ok(_) => {}
            Err(err) => tracing::warn!(error = %err, "the index of meanings could not catch up"),
        }
    }

    /// Encodes every item after `after` (less [`super::LOOKBACK`], to `look_back`) without a meaning
    /// from this model, round by round; `after` ends at the last item seen.
    async fn encode_waiting(&self, store: &Store, after: &mut i64, first: bool, look_back: bool) -> anyhow::Result<()> {
        let started = Instant::now();
        let mut said = started;
        let mut done = 0usize;
        let mut from = if first { 0 } else { read_from(*after, look_back) };
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
            let seqs = store.write_meanings(self.model(), &written).await?;
            self.index.put(&written, seqs);
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
