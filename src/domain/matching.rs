//! Matching lost and found: which approved items of the other kind may be the same object as
//! a given one, and how likely. The store narrows the candidates with its indexes
//! ([`candidates`]); [`rank`] checks each exactly and orders them.

use std::collections::HashSet;

use super::{Item, ItemFilter, ItemKind, ItemStatus, Near, geo::distance_m, search::folded_words};

/// How far apart two circles may be and still match.
pub const MARGIN_M: f64 = 200.0;
/// How far apart in time two reports may be and still match.
pub const WINDOW_MS: i64 = 90 * 24 * 60 * 60 * 1000;
/// Matches answered at most.
pub const MAX_MATCHES: usize = 20;
/// Candidates read at most, newest first: on a small campus every item is near every
/// other, so the place alone does not bound them.
pub const MAX_CANDIDATES: u32 = 500;
/// Shared words count for this much of a score, closeness for the rest.
const WORDS_WEIGHT: f64 = 0.7;

/// An item that may be the same object, with how likely (0–1) and how far (meters between
/// the centres).
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub item: Item,
    pub score: f64,
    pub distance: f64,
}

/// The items that may match `item`, as a list filter: approved, open (neither returned,
/// disposed nor closed), of the other kind, not reported by the same user, their circle
/// within [`MARGIN_M`] of its circle, created within [`WINDOW_MS`] of it, of the same
/// category or none. (The store's `near` finds circles whose centre is within `within` plus
/// their own radius.)
pub fn candidates(item: &Item) -> ItemFilter {
    ItemFilter {
        status: Some(ItemStatus::Approved),
        kind: Some(match item.kind {
            ItemKind::Lost => ItemKind::Found,
            ItemKind::Found => ItemKind::Lost,
        }),
        cat: item.cat.as_deref().map(str::to_lowercase),
        uncategorized_too: true,
        near: Some(Near {
            lat: item.lat,
            lng: item.lng,
            within: item.radius + MARGIN_M,
        }),
        since: Some(item.created_at - WINDOW_MS),
        until: Some(item.created_at + WINDOW_MS + 1),
        not_created_by: Some(item.created_by.clone()),
        open: true,
        ..ItemFilter::default()
    }
}

/// The candidates that match `item`, best first (then nearest, then newest), at most
/// [`MAX_MATCHES`]. The score is the share of the shorter text's words the two texts (title
/// and description) have in common, weighed with how close the centres are within the
/// distance allowed.
pub fn rank(item: &Item, candidates: Vec<Item>) -> Vec<Match> {
    let words = words_of(item);
    let mut matches: Vec<Match> = candidates
        .into_iter()
        .filter(|other| {
            other.id != item.id
                && other.created_by != item.created_by
                && other.is_open()
                && categories_agree(item, other)
        })
        .filter_map(|other| {
            let distance = distance_m((item.lat, item.lng), (other.lat, other.lng));
            let allowed = item.radius + other.radius + MARGIN_M;
            if distance > allowed {
                return None;
            }
            let theirs = words_of(&other);
            let shorter = words.len().min(theirs.len());
            let shared = if shorter == 0 {
                0.0
            } else {
                words.intersection(&theirs).count() as f64 / shorter as f64
            };
            let closeness = 1.0 - distance / allowed;
            let score = WORDS_WEIGHT * shared + (1.0 - WORDS_WEIGHT) * closeness;
            Some(Match {
                item: other,
                score: (score * 1000.0).round() / 1000.0,
                distance: distance.round(),
            })
        })
        .collect();
    matches.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.distance.total_cmp(&b.distance))
            .then(b.item.created_at.cmp(&a.item.created_at))
    });
    matches.truncate(MAX_MATCHES);
    matches
}

/// The same category, ignoring case, or one of the two has none.
fn categories_agree(a: &Item, b: &Item) -> bool {
    match (&a.cat, &b.cat) {
        (Some(x), Some(y)) => x.to_lowercase() == y.to_lowercase(),
        _ => true,
    }
}

fn words_of(item: &Item) -> HashSet<String> {
    folded_words(&item.title)
        .chain(item.desc.as_deref().into_iter().flat_map(folded_words))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ItemId;

    fn item(id: i64, kind: ItemKind, title: &str, cat: Option<&str>, lat: f64, radius: f64) -> Item {
        Item {
            id: ItemId::new(id).unwrap(),
            title: title.into(),
            desc: None,
            cat: cat.map(Into::into),
            kind,
            photo_version: None,
            lat,
            lng: 0.0,
            radius,
            status: ItemStatus::Approved,
            storage_place: None,
            place: None,
            created_at: 1_000_000_000_000 + id,
            created_by: format!("reporter{id}"),
            returned_at: None,
            finder: None,
            hold_until: None,
            disposal: None,
            closed_at: None,
            version: 0,
        }
    }

    /// Meters north of the equator at longitude 0, in degrees of latitude.
    fn north(meters: f64) -> f64 {
        meters / 111_195.0
    }

    #[test]
    fn the_filter_asks_for_the_other_kind_near_and_in_the_window() {
        let lost = item(1, ItemKind::Lost, "Blue umbrella", Some("Umbrellas"), 0.0, 50.0);
        let filter = candidates(&lost);
        assert_eq!(filter.kind, Some(ItemKind::Found));
        assert_eq!(filter.status, Some(ItemStatus::Approved));
        assert_eq!(filter.cat.as_deref(), Some("umbrellas"));
        assert!(filter.uncategorized_too);
        assert_eq!(filter.near.unwrap().within, 250.0);
        assert_eq!(filter.since, Some(lost.created_at - WINDOW_MS));
        assert_eq!(filter.until, Some(lost.created_at + WINDOW_MS + 1));
    }

    #[test]
    fn circles_further_apart_than_the_margin_do_not_match() {
        let lost = item(1, ItemKind::Lost, "Umbrella", None, 0.0, 50.0);
        let near = item(2, ItemKind::Found, "Umbrella", None, north(50.0 + 30.0 + 190.0), 30.0);
        let far = item(3, ItemKind::Found, "Umbrella", None, north(50.0 + 30.0 + 215.0), 30.0);
        let matches = rank(&lost, vec![near.clone(), far]);
        assert_eq!(matches.len(), 1);
        assert_eq!(matches[0].item.id, near.id);
        assert!((matches[0].distance - 270.0).abs() <= 1.0, "{}", matches[0].distance);
    }

    #[test]
    fn categories_must_agree_unless_one_has_none() {
        let lost = item(1, ItemKind::Lost, "Keys", Some("Keys"), 0.0, 10.0);
        let same = item(2, ItemKind::Found, "Keys", Some("KEYS"), 0.0, 10.0);
        let none = item(3, ItemKind::Found, "Keys", None, 0.0, 10.0);
        let other = item(4, ItemKind::Found, "Keys", Some("Bags"), 0.0, 10.0);
        let ids: Vec<i64> = rank(&lost, vec![same, none, other])
            .iter()
            .map(|m| m.item.id.get())
            .collect();
        assert_eq!(ids, [3, 2], "equal scores: the newest first");
    }

    #[test]
    fn shared_words_rank_first_then_closeness() {
        let mut lost = item(1, ItemKind::Lost, "Black leather wallet", None, 0.0, 20.0);
        lost.desc = Some("With a library card".into());
        let words = item(2, ItemKind::Found, "Wallet, black", None, north(150.0), 20.0);
        let close = item(3, ItemKind::Found, "Phone", None, north(5.0), 20.0);
        let closer_words = item(4, ItemKind::Found, "Black wallet", None, north(10.0), 20.0);
        let matches = rank(&lost, vec![words, close, closer_words]);
        let ids: Vec<i64> = matches.iter().map(|m| m.item.id.get()).collect();
        assert_eq!(ids, [4, 2, 3]);
        assert!(matches.iter().all(|m| (0.0..=1.0).contains(&m.score)));
        let expected = 0.7 + 0.3 * (1.0 - 10.0 / 240.0);
        assert!((matches[0].score - expected).abs() < 0.002, "{}", matches[0].score);
    }

    #[test]
    fn at_most_twenty() {
        let lost = item(100, ItemKind::Lost, "Scarf", None, 0.0, 10.0);
        let many = (1..=30)
            .map(|id| item(id, ItemKind::Found, "Scarf", None, 0.0, 10.0))
            .collect();
        assert_eq!(rank(&lost, many).len(), MAX_MATCHES);
    }
}
