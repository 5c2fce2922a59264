//! Matching with meanings: the items that may be an item's object, ranked by
//! `domain::matching` on their stored meanings (or ones made now for items the fill has not
//! reached), and who is to be told when an item is approved.

use std::collections::HashMap;

use super::Meanings;
use crate::{
    domain::{
        Item, ItemFilter, ItemId, ItemKind, Meaning, Notice,
        matching::{self, LIKELY, Match, text_of, worth_telling},
    },
    store::Store,
};

/// Items encoded on the spot at most for one ranking (the fill encodes the rest soon): a
/// ranking never waits for many.
const ENCODE_NOW: usize = 32;
/// Lost reports an approved found item is checked against at most, likeliest first.
const REPORTS_CHECKED: usize = 3;

/// The items that may be `item`'s object, best first. For its reporter, without those they
/// said are not theirs.
pub async fn of(store: &Store, meanings: &Meanings, item: &Item, viewer: Option<&str>) -> anyhow::Result<Vec<Match>> {
    let mut candidates = store
        .list_items(&matching::candidates(item), None, matching::MAX_CANDIDATES)
        .await?;
    if viewer == Some(item.created_by.as_str()) {
        let not_mine = store.not_mine(&item.created_by).await?;
        candidates.retain(|other| !not_mine.contains(&other.id));
    }
    ranked(store, meanings, item, candidates).await
}

/// The items `reporter` reported that may be `item`'s object, best first.
pub async fn reported_by(
    store: &Store,
    meanings: &Meanings,
    item: &Item,
    reporter: &str,
) -> anyhow::Result<Vec<Match>> {
    let filter = ItemFilter {
        created_by: Some(reporter.to_owned()),
        ..matching::candidates(item)
    };
    let candidates = store.list_items(&filter, None, matching::MAX_CANDIDATES).await?;
    ranked(store, meanings, item, candidates).await
}

/// `matches` without the items `owner` was told of already: an owner hears of an item once,
/// and a look-alike they heard of first does not stand in the way of their own arriving later.
async fn untold(store: &Store, owner: &str, mut matches: Vec<Match>) -> anyhow::Result<Vec<Match>> {
    let told = store.told_matches(owner).await?;
    matches.retain(|m| !told.contains(&m.item.id));
    Ok(matches)
}

async fn ranked(store: &Store, meanings: &Meanings, item: &Item, candidates: Vec<Item>) -> anyhow::Result<Vec<Match>> {
    let known = meanings_for(store, meanings, item, &candidates).await?;
    Ok(matching::rank_known(item, candidates, known))
}

/// The meanings of `item` and `others`: as stored, or made now for those without one yet
/// (at most [`ENCODE_NOW`] besides `item`).
async fn meanings_for(
    store: &Store,
    meanings: &Meanings,
    item: &Item,
    others: &[Item],
) -> anyhow::Result<HashMap<ItemId, Meaning>> {
    let ids: Vec<ItemId> = std::iter::once(item.id).chain(others.iter().map(|o| o.id)).collect();
    let mut known = store.meanings_of(meanings.model(), &ids).await?;
    let missing: Vec<&Item> = std::iter::once(item)
        .chain(others)
        .filter(|i| !known.contains_key(&i.id))
        .take(ENCODE_NOW + 1)
        .collect();
    let made = meanings.encode(missing.iter().map(|i| text_of(i)).collect()).await?;
    for (i, meaning) in missing.iter().zip(made) {
        if let Some(meaning) = meaning {
            known.insert(i.id, meaning);
        }
    }
    Ok(known)
}

/// What the owners of what an item just approved likely is are told, and who: for a lost
/// report, its owner of the few found items likely theirs, in one notice, and those items'
/// finders; for a found item, the owner of each lost report it is likely to be — when it is
/// among that report's own best matches of which the owner was not told yet.
pub async fn notices_after_approval(
    store: &Store,
    meanings: &Meanings,
    item: &Item,
) -> anyhow::Result<Vec<(String, Notice)>> {
    if !item.is_open() {
        return Ok(Vec::new());
    }
    let mut notices: Vec<(String, Notice)> = Vec::new();
    match item.kind {
        ItemKind::Lost => {
            let matches = of(store, meanings, item, Some(&item.created_by)).await?;
            let matches = untold(store, &item.created_by, matches).await?;
            let told = worth_telling(&matches);
            let found: Vec<(ItemId, &str)> = told.iter().map(|m| (m.item.id, m.item.title.as_str())).collect();
            if let Some(notice) = Notice::found_matches(&found, &item.title) {
                notices.push((item.created_by.clone(), notice));
            }
            for finder in told.iter().map(|m| &m.item.created_by) {
                if !notices.iter().any(|(user, _)| user == finder) {
                    notices.push((finder.clone(), Notice::may_match(item.id, &item.title)));
                }
            }
        }
        ItemKind::Found => {
            let matches = of(store, meanings, item, None).await?;
            for report in matches.iter().filter(|m| m.score >= LIKELY).take(REPORTS_CHECKED) {
                let report = &report.item;
                let theirs = of(store, meanings, report, Some(&report.created_by)).await?;
                let theirs = untold(store, &report.created_by, theirs).await?;
                if worth_telling(&theirs).iter().any(|m| m.item.id == item.id)
                    && let Some(notice) = Notice::found_matches(&[(item.id, &item.title)], &report.title)
                {
                    notices.push((report.created_by.clone(), notice));
                }
            }
        }
    }
    Ok(notices)
}
