//! The office's custody of found items: who handed an item in, how long it is kept, what
//! became of it when nobody claimed it, and reports closed by their reporter.

use std::{collections::BTreeMap, fmt, str::FromStr};

use serde_json::{Map, Value};

use super::{Fields, ItemKind, ValidationError};

/// Characters a finder's name or contact may have.
const MAX_FINDER_TEXT: usize = 200;
/// Characters a disposal's note or a closing reason may have.
const MAX_NOTE: usize = 500;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Who handed a found item in at the desk: private, for staff only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finder {
    pub name: Option<String>,
    pub contact: Option<String>,
}

impl Finder {
    /// The `finder` of a new item: `{ name, contact }`, each optional; `null` or an object
    /// with neither is no finder.
    pub fn parse(value: Option<&Value>) -> Result<Option<Self>, ValidationError> {
        let invalid = || ValidationError::new("finder", "Invalid finder");
        let fields = match value {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Object(fields)) => fields,
            Some(_) => return Err(invalid()),
        };
        if fields.keys().any(|key| key != "name" && key != "contact") {
            return Err(invalid());
        }
        let f = Fields(fields);
        let text = |key| f.text(key, MAX_FINDER_TEXT).map_err(|_| invalid());
        let finder = Self {
            name: text("name")?,
            contact: text("contact")?,
        };
        Ok((finder.name.is_some() || finder.contact.is_some()).then_some(finder))
    }
}

/// What became of a found item nobody claimed in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DisposalMethod {
    Donated,
    Auctioned,
    Destroyed,
    ReturnedToFinder,
    Transferred,
}

impl DisposalMethod {
    pub const ALL: [Self; 5] = [
        Self::Donated,
        Self::Auctioned,
        Self::Destroyed,
        Self::ReturnedToFinder,
        Self::Transferred,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Donated => "donated",
            Self::Auctioned => "auctioned",
            Self::Destroyed => "destroyed",
            Self::ReturnedToFinder => "returned-to-finder",
            Self::Transferred => "transferred",
        }
    }
}

impl FromStr for DisposalMethod {
    type Err = ValidationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|method| method.as_str() == s)
            .ok_or_else(|| ValidationError::new("method", "Invalid method"))
    }
}

impl TryFrom<String> for DisposalMethod {
    type Error = ValidationError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl fmt::Display for DisposalMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A recorded disposal: when, how, and the office's note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disposal {
    /// Epoch milliseconds.
    pub at: i64,
    pub method: DisposalMethod,
    pub note: Option<String>,
}

/// A checked `POST /api/items/:id/disposal` body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDisposal {
    pub method: DisposalMethod,
    pub note: Option<String>,
}

impl NewDisposal {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        Ok(Self {
            method: f
                .parsed("method")?
                .ok_or_else(|| ValidationError::new("method", "Invalid method"))?,
            note: f.text("note", MAX_NOTE)?,
        })
    }
}

/// The reason given with `POST /api/items/:id/close` ("found it myself"), if any.
pub fn parse_close_reason(body: &Map<String, Value>) -> Result<Option<String>, ValidationError> {
    Fields(body).text("reason", MAX_NOTE)
}

/// Why a disposal or a closing changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CustodyRefusal {
    NoItem,
    /// Only the reporter (or staff) may close a report.
    NotReporter,
    /// A lost report, or a found item already returned, disposed or closed.
    CannotDispose,
    /// Returned, disposed or closed already; or, for anyone but staff, a found item the
    /// office keeps (approved, with a storage place).
    CannotClose,
    /// The claimant of an accepted claim is to collect it.
    AwaitingPickup,
}

/// How long found items are kept before they are due for disposal, in days from their
/// report: the service's period, unless the item's category or site has one of its own
/// (0: due at once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoldPolicy {
    pub default_days: u32,
}

impl Default for HoldPolicy {
    fn default() -> Self {
        Self { default_days: 90 }
    }
}

impl HoldPolicy {
    /// Days an item is kept whose category keeps items `category_days` and whose site keeps
    /// them `site_days`, when each has a period of its own: the category's first (what spoils,
    /// spoils anywhere), then the site's, then the service's.
    pub fn days(&self, category_days: Option<u32>, site_days: Option<u32>) -> u32 {
        category_days.or(site_days).unwrap_or(self.default_days)
    }

    /// Until when a found item reported at `created_at` is kept (epoch ms); lost reports are
    /// not in custody.
    pub fn hold_until(
        &self,
        kind: ItemKind,
        category_days: Option<u32>,
        site_days: Option<u32>,
        created_at: i64,
    ) -> Option<i64> {
        (kind == ItemKind::Found).then(|| created_at + i64::from(self.days(category_days, site_days)) * DAY_MS)
    }
}

/// `food=0,phone=180`: days by category, keyed by the category folded to lower case.
pub fn parse_hold_days_by_category(value: &str) -> Result<BTreeMap<String, u32>, String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (cat, days) = part
                .split_once('=')
                .ok_or_else(|| format!("{part:?}: expected CATEGORY=DAYS"))?;
            let days: u32 = days
                .trim()
                .parse()
                .ok()
                .filter(|d| *d <= MAX_HOLD_DAYS)
                .ok_or_else(|| format!("{part:?}: days must be 0 to {MAX_HOLD_DAYS}"))?;
            let cat = cat.trim().to_lowercase();
            if cat.is_empty() {
                return Err(format!("{part:?}: the category is missing"));
            }
            Ok((cat, days))
        })
        .collect()
}

/// A body's `holdDays`, a site's or a category's own period: absent (`None`), `null` (no
/// period of its own) or 0 to [`MAX_HOLD_DAYS`].
pub(super) fn parse_hold_days(body: &Map<String, Value>) -> Result<Option<Option<u32>>, ValidationError> {
    Ok(match body.get("holdDays") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(days) => Some(Some(
            days.as_u64()
                .filter(|days| *days <= u64::from(MAX_HOLD_DAYS))
                .and_then(|days| u32::try_from(days).ok())
                .ok_or_else(|| {
                    ValidationError::new("holdDays", format!("holdDays must be 0 to {MAX_HOLD_DAYS} days"))
                })?,
        )),
    })
}

/// Longest holding period, in days (ten years).
pub const MAX_HOLD_DAYS: u32 = 3_650;

/// Days as milliseconds.
pub fn days_ms(days: u32) -> i64 {
    i64::from(days) * DAY_MS
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn finders() {
        let parse = |v: Value| Finder::parse(Some(&v));
        assert_eq!(parse(json!(null)).unwrap(), None);
        assert_eq!(parse(json!({})).unwrap(), None);
        assert_eq!(
            parse(json!({"name": " Ann ", "contact": null})).unwrap(),
            Some(Finder {
                name: Some("Ann".into()),
                contact: None
            })
        );
        for bad in [
            json!("Ann"),
            json!({"name": 5}),
            json!({"name": "x".repeat(201)}),
            json!({"phone": "1"}),
        ] {
            assert_eq!(parse(bad).unwrap_err().message, "Invalid finder");
        }
    }

    #[test]
    fn disposals() {
        let parse = |v: Value| NewDisposal::parse(v.as_object().unwrap());
        for method in DisposalMethod::ALL {
            assert_eq!(parse(json!({"method": method.as_str()})).unwrap().method, method);
        }
        for bad in [json!({}), json!({"method": "sold"}), json!({"method": 1})] {
            assert_eq!(parse(bad).unwrap_err().message, "Invalid method");
        }
        assert!(parse(json!({"method": "donated", "note": "n".repeat(501)})).is_err());
    }

    #[test]
    fn holding_periods() {
        let policy = HoldPolicy { default_days: 90 };
        assert_eq!(policy.days(Some(0), None), 0);
        assert_eq!(policy.days(None, None), 90);
        // A site's own period stands for the service's, not for a category's.
        assert_eq!(policy.days(None, Some(30)), 30);
        assert_eq!(policy.days(Some(0), Some(30)), 0);
        assert_eq!(policy.hold_until(ItemKind::Found, Some(0), None, 5), Some(5));
        assert_eq!(policy.hold_until(ItemKind::Found, None, None, 0), Some(days_ms(90)));
        assert_eq!(policy.hold_until(ItemKind::Found, None, Some(7), 0), Some(days_ms(7)));
        assert_eq!(policy.hold_until(ItemKind::Lost, None, Some(7), 0), None);
        let by_category = parse_hold_days_by_category("Food=0, phone=180,").unwrap();
        assert_eq!(
            by_category,
            BTreeMap::from([("food".to_owned(), 0), ("phone".to_owned(), 180)])
        );
        for bad in ["food", "food=-1", "=3", "food=99999"] {
            assert!(parse_hold_days_by_category(bad).is_err(), "{bad}");
        }
    }
}
