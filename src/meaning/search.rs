//! Search by meaning and by forgiving words (`GET /api/items?q=`): each query word is
//! searched by its forms (the lexicon's), the items close in meaning to the whole query are
//! found too (the index's candidates, measured again on their stored meanings), and a search
//! best first ranks what it found by both.

use std::collections::HashMap;

use super::Meanings;
use crate::{
    domain::{
        BestCursor, Item, ItemFilter, ItemId, Meaning,
        words::{coverage, telling_words},
    },
    store::{Store, StoreError},
};

/// Cosine from which an item's meaning matches a search, and how far below the closest item
/// it may be: a query sits about 0.1 from unrelated reports and 0.3 to 0.6 from what it
/// names, depending on how much else the report says (docs/matching.md).
const SEARCH_COSINE: f64 = 0.28;
const SEARCH_MARGIN: f64 = 0.2;
/// A query whose closest item is further than this means nothing the items hold: short
/// texts sit 0.3 from one another whatever they say.
const CLOSEST_AT_LEAST: f64 = 0.36;
/// Candidates in meaning the index proposes for one search.
const MEANING_CANDIDATES: usize = 300;
/// Items a best-first search ranks at most: the newest that match (each is read whole, with
/// its meaning).
pub const RANKED_AT_MOST: u32 = 200;
/// What meaning and words weigh in a search's relevance.
const MEANING_WEIGHT: f64 = 0.5;

/// What a search looks for, beside its filter: its telling words and its meaning, with the
/// cosines already measured (the index's candidates), which ranking need not read again.
pub struct Query {
    words: Vec<String>,
    meaning: Option<Meaning>,
    cosines: HashMap<ItemId, f64>,
}

impl Meanings {
    /// Widens `filter`'s words to their forms and adds the items close in meaning to `q`;
    /// the query, for ranking.
    pub async fn widen(&self, store: &Store, filter: &mut ItemFilter, q: &str) -> anyhow::Result<Query> {
        for forms in &mut filter.words {
            let word = forms[0].clone();
            *forms = self.lexicon.forms(&word);
        }
        // A word still being typed: its words' prefixes find what it will be. A number (a
        // code, a room, a model): meaning reads past numbers, so only words find it.
        let words_only = filter
            .words
            .iter()
            .any(|forms| self.lexicon.is_fragment(&forms[0]) || forms[0].chars().any(|c| c.is_ascii_digit()));
        let meaning = if words_only {
            None
        } else {
            self.encode_one(q.to_owned()).await?
        };
        let mut measured = HashMap::new();
        if let Some(meaning) = &meaning {
            let candidates = self.index.closest(meaning, MEANING_CANDIDATES);
            let stored = store.meanings_of(self.model(), &candidates).await?;
            let cosines: Vec<(ItemId, f64)> = candidates
                .into_iter()
                .filter_map(|id| Some((id, stored.get(&id)?.cosine(meaning))))
                .collect();
            let best = cosines.iter().map(|(_, c)| *c).fold(f64::MIN, f64::max);
            let least = if best >= CLOSEST_AT_LEAST {
                SEARCH_COSINE.max(best - SEARCH_MARGIN)
            } else {
                f64::INFINITY
            };
            filter.or_ids = cosines.iter().filter(|(_, c)| *c >= least).map(|(id, _)| *id).collect();
            measured = cosines.into_iter().collect();
        }
        Ok(Query {
            words: telling_words(q).collect(),
            meaning,
            cosines: measured,
        })
    }

    /// The items `filter` finds (the newest [`RANKED_AT_MOST`], and every one close in
    /// meaning), best first: by relevance (in millionths), then by id, newest first.
    pub async fn best_first(
        &self,
        store: &Store,
        filter: &ItemFilter,
        query: &Query,
    ) -> Result<Vec<(Item, i64)>, StoreError> {
        let mut items = store.list_items(filter, None, RANKED_AT_MOST).await?;
        // Those close in meaning, however old: what words miss is what meaning is for.
        if !filter.or_ids.is_empty() {
            let close = ItemFilter {
                ids: filter.or_ids.clone(),
                ..filter.clone()
            };
            let older = store.list_items(&close, None, filter.or_ids.len() as u32).await?;
            for item in older {
                if !items.iter().any(|known| known.id == item.id) {
                    items.push(item);
                }
            }
        }
        // The cosines not measured yet: the newest found by their words.
        let unmeasured: Vec<_> = items
            .iter()
            .map(|item| item.id)
            .filter(|id| !query.cosines.contains_key(id))
            .collect();
        let meanings = match &query.meaning {
            Some(_) => store.meanings_of(self.model(), &unmeasured).await?,
            None => Default::default(),
        };
        let mut ranked: Vec<(Item, i64)> = items
            .into_iter()
            .map(|item| {
                let meaning = match (&query.meaning, query.cosines.get(&item.id), meanings.get(&item.id)) {
                    (Some(_), Some(cosine), _) => cosine.max(0.0),
                    (Some(ours), None, Some(theirs)) => ours.cosine(theirs).max(0.0),
                    _ => 0.0,
                };
                let theirs: Vec<String> = item.searched_texts().flat_map(telling_words).collect();
                let relevance = MEANING_WEIGHT * meaning + (1.0 - MEANING_WEIGHT) * coverage(&query.words, &theirs);
                (item, (relevance * 1e6).round() as i64)
            })
            .collect();
        ranked.sort_by_key(|(item, relevance)| std::cmp::Reverse((*relevance, item.id)));
        Ok(ranked)
    }
}

/// The ranked items after `after`, in order.
pub fn after(ranked: Vec<(Item, i64)>, after: Option<BestCursor>) -> impl Iterator<Item = (Item, i64)> {
    ranked.into_iter().filter(move |(item, relevance)| {
        after.is_none_or(|cursor| (*relevance, item.id) < (cursor.relevance, cursor.id))
    })
}
