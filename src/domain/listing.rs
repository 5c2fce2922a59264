//! What `GET /api/items` asks for: filters, a page size and where the page starts, checked
//! with the exact texts of a bad value.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};

use super::{
    HoldPolicy, Item, ItemId, ItemKind, ItemStatus, ValidationError, query_flag, query_record_id, search::folded_words,
};

/// Words a search may have.
pub const MAX_WORDS: usize = 16;

/// Largest page.
pub const MAX_LIMIT: u32 = 200;
/// Largest `within`, in meters.
const MAX_WITHIN_M: f64 = 100_000.0;
/// Most ids one `ids` filter names.
const MAX_IDS: usize = 200;

/// Which items: every filter given must hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemFilter {
    pub status: Option<ItemStatus>,
    pub kind: Option<ItemKind>,
    /// The category folded to lower case.
    pub cat: Option<String>,
    /// With `cat`: items without a category too.
    pub uncategorized_too: bool,
    /// Each query word must be met by the item's text: one of its forms (the word as typed,
    /// its stem, words of the items one or two letters off) is the prefix of a word of it
    /// (folded, see `search`).
    pub words: Vec<Vec<String>>,
    /// With `words`: the items these name match too (close in meaning to the search).
    pub or_ids: Vec<ItemId>,
    pub near: Option<Near>,
    /// `created_at` bounds in epoch milliseconds: `since` inclusive, `until` exclusive.
    pub since: Option<i64>,
    pub until: Option<i64>,
    /// Only the items one user reported.
    pub created_by: Option<String>,
    /// Only the items one site holds.
    pub site: Option<i64>,
    /// Only the items in one bin (staff only: who may not read all is refused).
    pub bin: Option<i64>,
    /// Only these items (empty: any).
    pub ids: Vec<ItemId>,
    /// Not the items one user reported (a user's own reports never match each other).
    pub not_created_by: Option<String>,
    /// Only items neither returned, disposed nor closed.
    pub open: bool,
    /// Only found items in custody (not rejected, neither returned, disposed nor closed)
    /// whose holding period ended.
    pub due: Option<Due>,
    /// What the caller may see; `None`: everything.
    pub visible: Option<Visibility>,
}

/// When and under which holding periods found items are due for disposal.
#[derive(Debug, Clone, PartialEq)]
pub struct Due {
    /// Epoch ms.
    pub at: i64,
    pub hold: HoldPolicy,
}

impl ItemFilter {
    /// Whether the database must find every match of this filter before it can order them:
    /// words (through the full-text index) or a place (the box around it). Such a filter
    /// costs its matches, not the items it returns.
    pub fn searches(&self) -> bool {
        !self.words.is_empty() || self.near.is_some()
    }
}

/// The items someone may read when not every state is public: those in a public state, and
/// their own reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Visibility {
    pub states: Vec<ItemStatus>,
    pub reporter: Option<String>,
}

/// Items whose circle comes within `within` meters of a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Near {
    pub lat: f64,
    pub lng: f64,
    pub within: f64,
}

impl Visibility {
    pub fn admits(&self, item: &Item) -> bool {
        self.states.contains(&item.status) || self.reporter.as_deref() == Some(item.created_by.as_str())
    }
}

/// Where a page starts: after the item last shown (newest first, by `created_at` then `id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub created_at: i64,
    pub id: ItemId,
}

impl Cursor {
    /// Where a list goes on after `item`.
    pub fn after(item: &Item) -> Self {
        Self {
            created_at: item.created_at,
            id: item.id,
        }
    }

    /// An opaque token for a URL.
    pub fn encode(self) -> String {
        encode_cursor("", self.created_at, self.id)
    }

    pub fn decode(token: &str) -> Result<Self, ValidationError> {
        let (created_at, id) = decode_cursor("", token)?;
        Ok(Self { created_at, id })
    }
}

/// A cursor as a URL carries it: `PREFIXKEY.ID` in URL-safe base64 (the prefix tells one
/// order's cursors from another's).
fn encode_cursor(prefix: &str, key: i64, id: ItemId) -> String {
    URL_SAFE_NO_PAD.encode(format!("{prefix}{key}.{id}"))
}

fn decode_cursor(prefix: &str, token: &str) -> Result<(i64, ItemId), ValidationError> {
    let invalid = || ValidationError::new("cursor", "Invalid cursor");
    let text = URL_SAFE_NO_PAD
        .decode(token)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or_else(invalid)?;
    let (key, id) = text
        .strip_prefix(prefix)
        .and_then(|t| t.split_once('.'))
        .ok_or_else(invalid)?;
    Ok((
        key.parse().map_err(|_| invalid())?,
        ItemId::parse(id).map_err(|_| invalid())?,
    ))
}

/// A checked listing request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListRequest {
    pub filter: ItemFilter,
    /// `due=true`: the found items due for disposal (staff only; the caller sets
    /// `filter.due` once allowed).
    pub due: bool,
    /// At most this many items, or all of them.
    pub limit: Option<u32>,
    pub after: Option<Cursor>,
    /// How a search is ordered (`sort`); lists without `q` are always newest first.
    pub sort: Sort,
    /// Where a best-first page starts.
    pub after_best: Option<BestCursor>,
}

/// The order of a search's answer: best match first (the default with `q`), or newest first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Sort {
    #[default]
    Newest,
    Best,
}

/// Where a best-first page starts: after the item last shown, by its relevance (in
/// millionths) then its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BestCursor {
    pub relevance: i64,
    pub id: ItemId,
}

impl BestCursor {
    pub fn encode(self) -> String {
        encode_cursor("b", self.relevance, self.id)
    }

    pub fn decode(token: &str) -> Result<Self, ValidationError> {
        let (relevance, id) = decode_cursor("b", token)?;
        Ok(Self { relevance, id })
    }
}

/// A page size, `limit`: 1 to [`MAX_LIMIT`].
pub fn parse_limit(raw: &str) -> Result<u32, ValidationError> {
    raw.parse::<u32>()
        .ok()
        .filter(|n| (1..=MAX_LIMIT).contains(n))
        .ok_or_else(|| ValidationError::new("limit", "Invalid limit"))
}

impl ListRequest {
    /// Checks the query parameters, given by name; an empty value counts as none.
    pub fn parse<'a>(param: impl Fn(&str) -> Option<&'a str>) -> Result<Self, ValidationError> {
        let given = |name: &str| param(name).filter(|v| !v.is_empty());
        let invalid = |name: &'static str, message: &'static str| move |_| ValidationError::new(name, message);
        let limit = given("limit").map(parse_limit).transpose()?;
        let words = given("q").map(parse_words).transpose()?.unwrap_or_default();
        // Best first is for searches; a list without words has nothing to rank by.
        let sort = match given("sort") {
            None | Some("best") if !words.is_empty() => Sort::Best,
            None | Some("best" | "newest") => Sort::Newest,
            Some(_) => return Err(ValidationError::new("sort", "Invalid sort")),
        };
        let within = given("within")
            .map(|v| {
                v.parse::<f64>()
                    .ok()
                    .filter(|m| (0.0..=MAX_WITHIN_M).contains(m))
                    .ok_or(())
            })
            .transpose()
            .map_err(invalid("within", "Invalid within"))?;
        let near = match given("near") {
            Some(point) => Some(parse_point(point).ok_or(()).map_err(invalid("near", "Invalid near"))?),
            // A distance from nowhere is a mistake worth telling.
            None if within.is_some() => return Err(ValidationError::new("near", "Invalid near")),
            None => None,
        };
        Ok(Self {
            filter: ItemFilter {
                status: given("status").map(str::parse).transpose()?,
                kind: given("kind").map(str::parse).transpose()?,
                cat: given("cat").map(str::to_lowercase),
                uncategorized_too: false,
                words: words.iter().map(|word| vec![word.clone()]).collect(),
                near: near.map(|(lat, lng)| Near {
                    lat,
                    lng,
                    within: within.unwrap_or(0.0),
                }),
                since: given("since")
                    .map(parse_time)
                    .transpose()
                    .map_err(invalid("since", "Invalid since"))?,
                until: given("until")
                    .map(parse_time)
                    .transpose()
                    .map_err(invalid("until", "Invalid until"))?,
                created_by: given("createdBy").map(str::to_owned),
                site: query_record_id(given("site"), "site", "Invalid site")?,
                bin: query_record_id(given("bin"), "bin", "Invalid bin")?,
                ids: given("ids").map(parse_ids).transpose()?.unwrap_or_default(),
                open: given("open")
                    .map(|v| query_flag("open", v))
                    .transpose()?
                    .unwrap_or(false),
                ..ItemFilter::default()
            },
            due: given("due").map(|v| query_flag("due", v)).transpose()?.unwrap_or(false),
            limit,
            after: given("cursor")
                .filter(|_| sort == Sort::Newest)
                .map(Cursor::decode)
                .transpose()?,
            sort,
            after_best: given("cursor")
                .filter(|_| sort == Sort::Best)
                .map(BestCursor::decode)
                .transpose()?,
        })
    }
}

/// The words of a search: at most [`MAX_WORDS`] (each costs a pass over the items; more
/// are refused before any is folded past the limit).
fn parse_words(q: &str) -> Result<Vec<String>, ValidationError> {
    let words: Vec<String> = folded_words(q).take(MAX_WORDS + 1).collect();
    if words.len() > MAX_WORDS {
        return Err(ValidationError::new("q", "Invalid q"));
    }
    Ok(words)
}

/// `ids=3,17,42`: 1 to [`MAX_IDS`] item ids.
fn parse_ids(value: &str) -> Result<Vec<ItemId>, ValidationError> {
    let ids: Option<Vec<ItemId>> = value.split(',').map(|id| ItemId::parse(id.trim()).ok()).collect();
    ids.filter(|ids| ids.len() <= MAX_IDS)
        .ok_or_else(|| ValidationError::new("ids", "Invalid ids"))
}

fn parse_point(value: &str) -> Option<(f64, f64)> {
    let (lat, lng) = value.split_once(',')?;
    let (lat, lng) = (lat.trim().parse::<f64>().ok()?, lng.trim().parse::<f64>().ok()?);
    ((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lng)).then_some((lat, lng))
}

pub(super) fn parse_time(value: &str) -> Result<i64, ()> {
    let time = OffsetDateTime::parse(value, &Rfc3339).map_err(drop)?;
    i64::try_from(time.unix_timestamp_nanos() / 1_000_000).map_err(drop)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn parse(query: &[(&str, &str)]) -> Result<ListRequest, ValidationError> {
        let params: HashMap<&str, &str> = query.iter().copied().collect();
        ListRequest::parse(|name| params.get(name).copied())
    }

    fn error(query: &[(&str, &str)]) -> String {
        parse(query).unwrap_err().message.into_owned()
    }

    #[test]
    fn nothing_asked_is_everything() {
        assert_eq!(parse(&[]).unwrap(), ListRequest::default());
        assert_eq!(parse(&[("status", ""), ("limit", "")]).unwrap(), ListRequest::default());
        assert_eq!(error(&[("status", "approved ")]), "Invalid status");
    }

    #[test]
    fn every_parameter_is_read() {
        let cursor = Cursor {
            created_at: 1_700_000_000_000,
            id: ItemId::new(42).unwrap(),
        };
        let token = cursor.encode();
        let request = parse(&[
            ("status", "approved"),
            ("kind", "found"),
            ("cat", "Électronique"),
            ("q", "Blue umbr"),
            ("near", "51.5,-0.12"),
            ("within", "250.5"),
            ("since", "2025-01-17T10:30:00.000Z"),
            ("until", "2025-01-18T00:00:00+01:00"),
            ("createdBy", "alice"),
            ("ids", "4, 2"),
            ("open", "true"),
            ("due", "true"),
            ("limit", "20"),
            ("cursor", &token),
            ("sort", "newest"),
        ])
        .unwrap();
        let f = &request.filter;
        assert_eq!((f.status, f.kind), (Some(ItemStatus::Approved), Some(ItemKind::Found)));
        assert_eq!(
            (f.cat.as_deref(), f.words.clone()),
            (
                Some("électronique"),
                vec![vec!["blue".to_owned()], vec!["umbr".to_owned()]]
            )
        );
        assert_eq!(
            f.near,
            Some(Near {
                lat: 51.5,
                lng: -0.12,
                within: 250.5
            })
        );
        assert_eq!((f.since, f.until), (Some(1_737_109_800_000), Some(1_737_154_800_000)));
        assert_eq!(f.created_by.as_deref(), Some("alice"));
        assert_eq!(f.ids, [ItemId::new(4).unwrap(), ItemId::new(2).unwrap()]);
        assert!(f.open && request.due);
        assert_eq!((request.limit, request.after), (Some(20), Some(cursor)));
        assert_eq!(request.sort, Sort::Newest);
    }

    #[test]
    fn a_search_is_best_first_unless_asked_newest_and_its_cursor_says_where() {
        let best = BestCursor {
            relevance: 734_000,
            id: ItemId::new(9).unwrap(),
        };
        let request = parse(&[("q", "wallet"), ("cursor", &best.encode())]).unwrap();
        assert_eq!(
            (request.sort, request.after_best, request.after),
            (Sort::Best, Some(best), None)
        );
        assert_eq!(
            parse(&[("sort", "best")]).unwrap().sort,
            Sort::Newest,
            "nothing to rank by"
        );
        assert_eq!(
            parse(&[("q", "wallet"), ("sort", "newest")]).unwrap().sort,
            Sort::Newest
        );
        assert_eq!(error(&[("q", "wallet"), ("sort", "oldest")]), "Invalid sort");
        // A cursor of the other order is not one of this order's.
        let newest = Cursor {
            created_at: 5,
            id: ItemId::new(7).unwrap(),
        };
        assert_eq!(
            error(&[("q", "wallet"), ("cursor", &newest.encode())]),
            "Invalid cursor"
        );
        assert_eq!(BestCursor::decode(&best.encode()), Ok(best));
    }

    #[test]
    fn bad_values_have_their_own_texts() {
        for (query, text) in [
            (&[("limit", "0")][..], "Invalid limit"),
            (&[("q", "a b c d e f g h i j k l m n o p q")], "Invalid q"),
            (&[("limit", "201")], "Invalid limit"),
            (&[("limit", "ten")], "Invalid limit"),
            (&[("limit", "-1")], "Invalid limit"),
            (&[("cursor", "%%%")], "Invalid cursor"),
            (&[("cursor", "bm90LWEtY3Vyc29y")], "Invalid cursor"),
            (&[("near", "91,0")], "Invalid near"),
            (&[("near", "51.5")], "Invalid near"),
            (&[("near", "a,b")], "Invalid near"),
            (&[("within", "10")], "Invalid near"),
            (&[("near", "0,0"), ("within", "100001")], "Invalid within"),
            (&[("near", "0,0"), ("within", "-1")], "Invalid within"),
            (&[("near", "0,0"), ("within", "far")], "Invalid within"),
            (&[("since", "yesterday")], "Invalid since"),
            (&[("until", "2025-01-17")], "Invalid until"),
            (&[("kind", "stolen")], "Invalid kind"),
            (&[("status", "lost")], "Invalid status"),
            (&[("ids", "1,x")], "Invalid ids"),
            (&[("ids", "0")], "Invalid ids"),
            (&[("ids", "1,,2")], "Invalid ids"),
            (&[("open", "yes")], "Invalid open"),
            (&[("due", "1")], "Invalid due"),
        ] {
            assert_eq!(error(query), text, "{query:?}");
        }
    }

    #[test]
    fn cursors_round_trip() {
        let cursor = Cursor {
            created_at: 5,
            id: ItemId::new(7).unwrap(),
        };
        assert_eq!(Cursor::decode(&cursor.encode()), Ok(cursor));
    }
}
