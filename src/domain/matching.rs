//! Matching lost and found: which approved items of the other kind may be the same object as
//! a given one, how likely, and why. The store narrows the candidates by place and time
//! ([`candidates`]); [`rank`] weighs each by meaning, words, place, time, category, colour
//! and maker and orders them; [`worth_telling`] picks the few an owner is told of.

use std::collections::HashMap;

use super::{
    Item, ItemFilter, ItemId, ItemKind, ItemStatus, Meaning, Near,
    brands::Brands,
    colours::Colours,
    geo::distance_m,
    things::Things,
    words::{composed_words, is_telling, overlap, shared},
};

/// How far apart two circles may be and still match.
pub const MARGIN_M: f64 = 200.0;
/// How far apart in time two reports may be and still match: the store narrows candidates by
/// when they were reported; closeness in time is measured by when they were lost and found
/// (`Item::happened_or_reported`), as near as their reporters said.
pub const WINDOW_MS: i64 = 90 * 24 * 60 * 60 * 1000;
/// Matches answered at most.
pub const MAX_MATCHES: usize = 20;
/// Candidates read at most, newest first: on a small campus every item is near every
/// other, so the place alone does not bound them.
pub const MAX_CANDIDATES: u32 = 500;

/// What each signal weighs in a score (they add up to 1). Meaning carries most: it is what
/// finds other words, other languages and the owner's own way of putting it; colour and
/// maker tell apart what the encoder finds alike. Chosen on the project's evaluation set
/// (docs/matching.md).
const MEANING_WEIGHT: f64 = 0.46;
const WORDS_WEIGHT: f64 = 0.12;
const PLACE_WEIGHT: f64 = 0.15;
const TIME_WEIGHT: f64 = 0.05;
const CATEGORY_WEIGHT: f64 = 0.10;
const COLOUR_WEIGHT: f64 = 0.12;
/// The share of a score that two reports naming different makers lose: a Jabra and a Sony
/// pair of black earbuds found in the same room are two objects, however alike their words.
/// A share, not a weight: the look-alikes that flood owners score high on everything else.
pub const BRANDS_DIFFER: f64 = 0.25;
/// Cosines the encoder gives unrelated reports (below) and the same object described twice
/// (above): meaning counts from nothing to everything between them.
const UNRELATED_COSINE: f64 = 0.1;
const SAME_COSINE: f64 = 0.8;

/// A score from which a match is likely the owner's: owners are told of it, and staff see
/// it flagged in Review. Chosen on the evaluation sets (docs/matching.md).
pub const LIKELY: f64 = 0.6;
/// How far below the best likely match another may be and still be told of: a report that
/// clearly matches one item is told of that one, not of its look-alikes.
pub const TELL_MARGIN: f64 = 0.03;
/// Matches told of at most for one report at one approval.
pub const TELL_AT_MOST: usize = 3;

/// An item that may be the same object, with how likely (0–1), how far (meters between
/// the centres), and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub item: Item,
    pub score: f64,
    pub distance: f64,
    pub why: Why,
}

/// What each signal added to a score (with the shared words' part, they add up to it), and
/// the words the two share.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Why {
    pub meaning: f64,
    pub words: Vec<String>,
    pub place: f64,
    pub time: f64,
    pub category: f64,
    pub colour: f64,
    /// What the two naming different makers took away ([`BRANDS_DIFFER`] of the rest), as a
    /// negative number; 0 otherwise.
    pub brand: f64,
}

/// An item as matching compares it: its telling words, the colours and makers it names, the
/// kind of thing its title names and, when it has one, its meaning.
pub struct Report<'a> {
    item: &'a Item,
    words: Vec<String>,
    colours: Colours,
    brands: Brands,
    things: Things,
    meaning: Option<&'a Meaning>,
}

/// How alike two reports are by each signal, each from 0 to 1 before it is weighed; `cosine`
/// is their meanings' (when both have one), `distance` the meters between their centres.
#[derive(Debug, Clone, PartialEq)]
pub struct Likeness {
    pub cosine: Option<f64>,
    pub words: f64,
    pub place: f64,
    /// 1 when the times they were lost and found meet, falling to 0 at [`WINDOW_MS`] apart.
    pub time: f64,
    /// 1 when their categories are the same, 0 when they differ or the titles name different
    /// kinds of things, ½ when either has none.
    pub category: f64,
    pub colour: f64,
    /// Both name makers, and none the same.
    pub brands_differ: bool,
    pub distance: f64,
}

impl<'a> Report<'a> {
    pub fn new(item: &'a Item, meaning: Option<&'a Meaning>) -> Self {
        // Each text folded once: its telling words, colours and makers are read from it, the
        // kind of thing from the title's.
        let mut folded: Vec<String> = composed_words(&item.title).collect();
        let things = Things::of(&folded);
        folded.extend(item.desc.as_deref().into_iter().flat_map(composed_words));
        Self {
            item,
            words: folded.iter().filter(|word| is_telling(word)).cloned().collect(),
            colours: Colours::of(&folded),
            brands: Brands::of(&folded),
            things,
            meaning,
        }
    }

    /// How alike this report and `other` are; `None` when their circles are too far apart
    /// to match.
    pub fn likeness(&self, other: &Report<'_>) -> Option<Likeness> {
        let (a, b) = (self.item, other.item);
        let distance = distance_m((a.lat, a.lng), (b.lat, b.lng));
        let allowed = a.radius + b.radius + MARGIN_M;
        if distance > allowed {
            return None;
        }
        let apart_ms = a.happened_or_reported().gap(b.happened_or_reported()) as f64;
        Some(Likeness {
            cosine: self.meaning.zip(other.meaning).map(|(x, y)| x.cosine(y)),
            words: overlap(&self.words, &other.words),
            place: 1.0 - distance / allowed,
            time: 1.0 - (apart_ms / WINDOW_MS as f64).min(1.0),
            // Titles naming two kinds of things: one category or not, two objects.
            category: if self.things.differ(other.things) {
                0.0
            } else {
                categories_agree(a, b)
            },
            colour: self.colours.agree(other.colours),
            brands_differ: self.brands.differ(other.brands),
            distance,
        })
    }
}

impl Likeness {
    /// The score (0–1) and why, with `shared` the words the two share.
    pub fn weighed(&self, shared: Vec<String>) -> (f64, Why) {
        // Without a meaning on either side (text that says nothing, or not encoded yet), the
        // words stand in for it.
        let meaning = self.cosine.map_or(self.words, |cosine| {
            ((cosine - UNRELATED_COSINE) / (SAME_COSINE - UNRELATED_COSINE)).clamp(0.0, 1.0)
        });
        let mut why = Why {
            meaning: round(MEANING_WEIGHT * meaning),
            words: shared,
            place: round(PLACE_WEIGHT * self.place),
            time: round(TIME_WEIGHT * self.time),
            category: round(CATEGORY_WEIGHT * self.category),
            colour: round(COLOUR_WEIGHT * self.colour),
            brand: 0.0,
        };
        let mut score =
            round(why.meaning + WORDS_WEIGHT * self.words + why.place + why.time + why.category + why.colour);
        if self.brands_differ {
            why.brand = -round(BRANDS_DIFFER * score);
            score = round(score + why.brand);
        }
        (score.min(1.0), why)
    }
}

/// The items that may match `item`, as a list filter: approved, open (neither returned,
/// disposed nor closed), of the other kind, not reported by the same user, their circle
/// within [`MARGIN_M`] of its circle, created within [`WINDOW_MS`] of it, of any category
/// (a different one only lowers the score). (The store's `near` finds circles whose centre
/// is within `within` plus their own radius.)
pub fn candidates(item: &Item) -> ItemFilter {
    ItemFilter {
        status: Some(ItemStatus::Approved),
        kind: Some(match item.kind {
            ItemKind::Lost => ItemKind::Found,
            ItemKind::Found => ItemKind::Lost,
        }),
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

/// The text whose meaning is an item's: title and description.
pub fn text_of(item: &Item) -> String {
    text_of_parts(&item.title, item.desc.as_deref())
}

pub fn text_of_parts(title: &str, desc: Option<&str>) -> String {
    match desc {
        Some(desc) if !desc.is_empty() => format!("{title}. {desc}"),
        _ => title.to_owned(),
    }
}

/// The candidates that match `report`, best first (then nearest, then newest), at most
/// [`MAX_MATCHES`].
fn rank(report: &Report<'_>, candidates: Vec<(Item, Option<Meaning>)>) -> Vec<Match> {
    let item = report.item;
    let mut matches: Vec<Match> = candidates
        .into_iter()
        .filter(|(other, _)| other.id != item.id && other.created_by != item.created_by && other.is_open())
        .filter_map(|(other, meaning)| {
            let (likeness, shared) = {
                let theirs = Report::new(&other, meaning.as_ref());
                let likeness = report.likeness(&theirs)?;
                let shared = shared(&report.words, &theirs.words);
                (likeness, shared.into_iter().map(|(w, _)| w.to_owned()).collect())
            };
            let (score, why) = likeness.weighed(shared);
            Some(Match {
                item: other,
                score,
                distance: likeness.distance.round(),
                why,
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

/// [`rank`] with the meanings known of `item` and of its candidates, by item (those without
/// one are ranked on their words).
pub fn rank_known(item: &Item, candidates: Vec<Item>, mut known: HashMap<ItemId, Meaning>) -> Vec<Match> {
    let own = known.remove(&item.id);
    let report = Report::new(item, own.as_ref());
    let candidates = candidates
        .into_iter()
        .map(|other| {
            let meaning = known.remove(&other.id);
            (other, meaning)
        })
        .collect();
    rank(&report, candidates)
}

/// The matches an owner is told of, best first: likely ([`LIKELY`]), within
/// [`TELL_MARGIN`] of the best, at most [`TELL_AT_MOST`]. `matches` come best first.
pub fn worth_telling(matches: &[Match]) -> &[Match] {
    let Some(best) = matches.first().filter(|m| m.score >= LIKELY) else {
        return &[];
    };
    let told = matches
        .iter()
        .take(TELL_AT_MOST)
        .take_while(|m| m.score >= LIKELY && m.score >= best.score - TELL_MARGIN)
        .count();
    &matches[..told]
}

/// 1 for the same category (ignoring case), 0.5 when either has none, 0 for two different
/// ones: a signal, never a gate (owners and offices file the same wallet differently).
fn categories_agree(a: &Item, b: &Item) -> f64 {
    match (&a.cat, &b.cat) {
        (Some(x), Some(y)) if x.to_lowercase() == y.to_lowercase() => 1.0,
        (Some(_), Some(_)) => 0.0,
        _ => 0.5,
    }
}

fn round(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Happened, ItemId, MEANING_DIM};

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
            verification: None,
            happened: None,
            category_hold_days: None,
            site_hold_days: None,
            sensitive: false,
            disposal: None,
            closed_at: None,
            site_id: Some(1),
            bin_id: None,
            transit_to: None,
            version: 0,
        }
    }

    /// Meters north of the equator at longitude 0, in degrees of latitude.
    fn north(meters: f64) -> f64 {
        meters / 111_195.0
    }

    /// A unit meaning at `cosine` from the first axis (in the plane of the first two).
    fn meaning(cosine: f32) -> Meaning {
        let mut values = vec![0.0; MEANING_DIM];
        values[0] = cosine;
        values[1] = (1.0 - cosine * cosine).sqrt();
        Meaning::new(&values)
    }

    #[test]
    fn the_filter_asks_for_the_other_kind_near_and_in_the_window_of_any_category() {
        let lost = item(1, ItemKind::Lost, "Blue umbrella", Some("Umbrellas"), 0.0, 50.0);
        let filter = candidates(&lost);
        assert_eq!(filter.kind, Some(ItemKind::Found));
        assert_eq!(filter.status, Some(ItemStatus::Approved));
        assert_eq!(filter.cat, None, "the category is not a gate");
        assert_eq!(filter.near.unwrap().within, 250.0);
        assert_eq!(filter.since, Some(lost.created_at - WINDOW_MS));
        assert_eq!(filter.until, Some(lost.created_at + WINDOW_MS + 1));
    }

    #[test]
    fn closeness_in_time_is_by_when_they_were_lost_and_found_as_near_as_their_reporters_said() {
        const DAY: i64 = 24 * 60 * 60 * 1000;
        let mut lost = item(1, ItemKind::Lost, "Umbrella", None, 0.0, 50.0);
        let mut found = item(2, ItemKind::Found, "Umbrella", None, 0.0, 50.0);
        found.created_at = lost.created_at + 45 * DAY;
        let time = |lost: &Item, found: &Item| {
            Report::new(lost, None)
                .likeness(&Report::new(found, None))
                .unwrap()
                .time
        };
        // Neither says: the days between the reports.
        assert!((time(&lost, &found) - 0.5).abs() < 1e-9);
        // Lost some time in the week before it was reported; found on the week's last day,
        // reported long after: they meet.
        lost.happened = Some(Happened {
            from: lost.created_at - 7 * DAY,
            until: lost.created_at,
        });
        found.happened = Some(Happened {
            from: lost.created_at - DAY,
            until: lost.created_at - DAY,
        });
        assert_eq!(time(&lost, &found), 1.0);
        assert_eq!(time(&found, &lost), 1.0);
        // One says, the other is measured from when it was reported.
        found.happened = None;
        assert!((time(&lost, &found) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn circles_further_apart_than_the_margin_do_not_match() {
        let lost = item(1, ItemKind::Lost, "Umbrella", None, 0.0, 50.0);
        let near = item(2, ItemKind::Found, "Umbrella", None, north(50.0 + 30.0 + 190.0), 30.0);
        let far = item(3, ItemKind::Found, "Umbrella", None, north(50.0 + 30.0 + 215.0), 30.0);
        let report = Report::new(&lost, None);
        let matches = rank(&report, vec![(near.clone(), None), (far, None)]);
        assert_eq!(matches.len(), 1);
        assert_eq!(matches[0].item.id, near.id);
        assert!((matches[0].distance - 270.0).abs() <= 1.0, "{}", matches[0].distance);
    }

    #[test]
    fn meaning_finds_other_words_and_languages_and_the_category_only_weighs() {
        let lost = item(1, ItemKind::Lost, "검은색 지갑", Some("other"), 0.0, 50.0);
        let ours = meaning(1.0);
        // The owner's wallet, in English, filed under another category.
        let wallet = item(
            2,
            ItemKind::Found,
            "Black wallet",
            Some("accessories"),
            north(20.0),
            10.0,
        );
        // Something else of the owner's category, closer.
        let bottle = item(3, ItemKind::Found, "Water bottle", Some("other"), north(5.0), 10.0);
        let report = Report::new(&lost, Some(&ours));
        let matches = rank(
            &report,
            vec![(wallet, Some(meaning(0.75))), (bottle, Some(meaning(0.15)))],
        );
        assert_eq!(matches.iter().map(|m| m.item.id.get()).collect::<Vec<_>>(), [2, 3]);
        let why = &matches[0].why;
        assert_eq!(why.category, 0.0);
        assert!(why.meaning > 0.4, "{why:?}");
        assert_eq!(why.colour, COLOUR_WEIGHT, "black in both languages");
        assert!(matches[0].score >= LIKELY && matches[1].score < LIKELY, "{matches:?}");
        // The same match with the same category scores higher by the category's weight.
        let mut filed_alike = matches[0].item.clone();
        filed_alike.cat = Some("OTHER".into());
        let alike = rank(&report, vec![(filed_alike, Some(meaning(0.75)))]);
        assert!((alike[0].score - matches[0].score - CATEGORY_WEIGHT).abs() < 0.002);
    }

    #[test]
    fn one_category_does_not_agree_when_the_titles_name_two_kinds_of_things() {
        let lost = item(1, ItemKind::Lost, "Black earbuds", Some("electronics"), 0.0, 50.0);
        let phone = item(
            2,
            ItemKind::Found,
            "Black phone",
            Some("electronics"),
            north(10.0),
            10.0,
        );
        let buds = item(
            3,
            ItemKind::Found,
            "Auriculares negros",
            Some("electronics"),
            north(10.0),
            10.0,
        );
        let unnamed = item(4, ItemKind::Found, "Black Sony", Some("electronics"), north(10.0), 10.0);
        let report = Report::new(&lost, None);
        let category = |found: &Item| report.likeness(&Report::new(found, None)).unwrap().category;
        assert_eq!(category(&phone), 0.0, "earbuds and a phone");
        assert_eq!(category(&buds), 1.0, "earbuds in Spanish");
        assert_eq!(category(&unnamed), 1.0, "a title that names no kind of thing");
    }

    #[test]
    fn naming_different_makers_takes_a_share_of_the_score_and_says_how_much() {
        let mut lost = item(1, ItemKind::Lost, "Black earbuds", None, 0.0, 50.0);
        lost.desc = Some("Sony, in a round case".into());
        let mut jabra = item(2, ItemKind::Found, "Black earbuds, Jabra", None, north(10.0), 10.0);
        jabra.desc = Some("Round case".into());
        let mut unnamed = jabra.clone();
        unnamed.id = ItemId::new(3).unwrap();
        unnamed.title = "Black earbuds".into();
        let report = Report::new(&lost, None);
        let matches = rank(&report, vec![(jabra, None), (unnamed, None)]);
        assert_eq!(matches.iter().map(|m| m.item.id.get()).collect::<Vec<_>>(), [3, 2]);
        let (differ, alike) = (&matches[1], &matches[0]);
        assert_eq!(alike.why.brand, 0.0, "one names no maker");
        let rest = differ.score - differ.why.brand;
        assert!((differ.why.brand + BRANDS_DIFFER * rest).abs() < 0.002, "{differ:?}");
    }

    #[test]
    fn without_a_meaning_words_stand_in_and_say_which() {
        let mut lost = item(1, ItemKind::Lost, "Black leather walet", None, 0.0, 20.0);
        lost.desc = Some("With a library card".into());
        let words = item(2, ItemKind::Found, "Wallet, black", None, north(150.0), 20.0);
        let close = item(3, ItemKind::Found, "Phone", None, north(5.0), 20.0);
        let report = Report::new(&lost, None);
        let matches = rank(&report, vec![(close, None), (words, Some(meaning(0.9)))]);
        assert_eq!(matches.iter().map(|m| m.item.id.get()).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(matches[0].why.words, ["wallet", "black"]);
        assert!(matches[1].why.words.is_empty());
        assert!(matches.iter().all(|m| (0.0..=1.0).contains(&m.score)));
    }

    #[test]
    fn owners_are_told_of_the_likely_few_best_first() {
        let lost = item(100, ItemKind::Lost, "Scarf", None, 0.0, 10.0);
        let ours = meaning(1.0);
        let report = Report::new(&lost, Some(&ours));
        let shelf = |cosines: &[f32]| {
            let candidates = cosines
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    (
                        item(i as i64 + 1, ItemKind::Found, "Scarf", None, 0.0, 10.0),
                        Some(meaning(*c)),
                    )
                })
                .collect();
            rank(&report, candidates)
        };
        // One clear match among look-alikes: that one alone.
        assert_eq!(worth_telling(&shelf(&[0.95, 0.6, 0.55])).len(), 1);
        // Several as likely: at most three.
        assert_eq!(worth_telling(&shelf(&[0.95, 0.95, 0.95, 0.95])).len(), TELL_AT_MOST);
        // Nothing likely: nobody is told.
        assert!(worth_telling(&shelf(&[0.2, 0.1])).is_empty());
        assert!(worth_telling(&[]).is_empty());
    }

    #[test]
    fn at_most_twenty() {
        let lost = item(100, ItemKind::Lost, "Scarf", None, 0.0, 10.0);
        let many = (1..=30)
            .map(|id| (item(id, ItemKind::Found, "Scarf", None, 0.0, 10.0), None))
            .collect();
        let report = Report::new(&lost, None);
        assert_eq!(rank(&report, many).len(), MAX_MATCHES);
    }
}
