//! When a thing was lost or found, as its reporter knows it: a moment, or a window of at most
//! [`MAX_SPAN_MS`] ("on Tuesday", "between 2 and 4 pm"). Matching measures how far apart in
//! time two reports are by it, and by the moment a report was made when it says nothing.

use super::{Fields, ValidationError, days_ms, listing::parse_time};

/// The longest window a report may give.
pub const MAX_SPAN_MS: i64 = 31 * 24 * 60 * 60 * 1000;
/// How far past the moment it is told a report may say it happened: clocks and time zones
/// differ, and a date picked at 1 am may be read as tomorrow.
const SLACK_MS: i64 = 24 * 60 * 60 * 1000;

/// Between `from` and `until` (epoch ms, `from <= until`), it was lost or found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Happened {
    pub from: i64,
    pub until: i64,
}

impl Happened {
    /// `happenedFrom` and `happenedUntil` of a body (RFC 3339 times, since 1970; without an
    /// end, a moment): `None` when neither is sent. An end alone, an end before the start or a
    /// window longer than [`MAX_SPAN_MS`] is refused.
    pub fn parse(f: &Fields<'_>) -> Result<Option<Self>, ValidationError> {
        let moment = |key: &'static str| -> Result<Option<i64>, ValidationError> {
            f.string(key)?
                .map(|value| {
                    parse_time(value)
                        .ok()
                        .filter(|ms| *ms >= 0)
                        .ok_or_else(|| ValidationError::new(key, format!("Invalid {key}")))
                })
                .transpose()
        };
        let (from, until) = (moment("happenedFrom")?, moment("happenedUntil")?);
        let Some(from) = from else {
            return match until {
                Some(_) => Err(ValidationError::new("happenedFrom", "happenedUntil needs happenedFrom")),
                None => Ok(None),
            };
        };
        let until = until.unwrap_or(from);
        if until < from {
            return Err(ValidationError::new(
                "happenedUntil",
                "happenedUntil is before happenedFrom",
            ));
        }
        if until - from > MAX_SPAN_MS {
            return Err(ValidationError::new(
                "happenedUntil",
                format!("The time it happened spans at most {} days", MAX_SPAN_MS / days_ms(1)),
            ));
        }
        Ok(Some(Self { from, until }))
    }

    /// Refuses a window that starts after `now` (with a day's slack): nobody reports what has
    /// not happened yet.
    pub fn not_after(self, now: i64) -> Result<Self, ValidationError> {
        if self.from > now + SLACK_MS {
            return Err(ValidationError::new("happenedFrom", "happenedFrom is in the future"));
        }
        Ok(self)
    }

    /// The window of a report that gives `own`, made at `reported_at`: its own, else that moment.
    pub fn or_reported(own: Option<Self>, reported_at: i64) -> Self {
        own.unwrap_or(Self {
            from: reported_at,
            until: reported_at,
        })
    }

    /// How far apart the two windows are, in milliseconds: 0 when they meet.
    pub fn gap(self, other: Self) -> i64 {
        (self.from - other.until).max(other.from - self.until).max(0)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn parse(body: Value) -> Result<Option<Happened>, ValidationError> {
        Happened::parse(&Fields(body.as_object().unwrap()))
    }

    #[test]
    fn a_moment_a_window_or_nothing() {
        assert_eq!(parse(json!({})).unwrap(), None);
        assert_eq!(parse(json!({ "happenedFrom": null })).unwrap(), None);
        assert_eq!(
            parse(json!({ "happenedFrom": "1970-01-01T00:00:01Z" })).unwrap(),
            Some(Happened {
                from: 1000,
                until: 1000
            })
        );
        // An offset is the reporter's own time zone.
        assert_eq!(
            parse(json!({ "happenedFrom": "1970-01-01T09:00:01+09:00", "happenedUntil": "1970-01-01T00:00:05.5Z" }))
                .unwrap(),
            Some(Happened {
                from: 1000,
                until: 5500
            })
        );
        let longest = json!({ "happenedFrom": "2026-01-01T00:00:00Z", "happenedUntil": "2026-02-01T00:00:00Z" });
        assert!(parse(longest).unwrap().is_some());
    }

    #[test]
    fn bad_windows_name_their_field() {
        for (body, field) in [
            (json!({ "happenedUntil": "2026-01-01T00:00:00Z" }), "happenedFrom"),
            (
                json!({ "happenedFrom": "2026-01-02T00:00:00Z", "happenedUntil": "2026-01-01T23:59:59Z" }),
                "happenedUntil",
            ),
            (
                json!({ "happenedFrom": "2026-01-01T00:00:00Z", "happenedUntil": "2026-02-01T00:00:00.001Z" }),
                "happenedUntil",
            ),
            (json!({ "happenedFrom": "1969-12-31T23:59:59Z" }), "happenedFrom"),
            (json!({ "happenedFrom": 1000 }), "happenedFrom"),
            (json!({ "happenedFrom": "yesterday" }), "happenedFrom"),
            (json!({ "happenedFrom": "2026-01-01" }), "happenedFrom"),
            (
                json!({ "happenedFrom": "2026-01-01T00:00:00Z", "happenedUntil": "soon" }),
                "happenedUntil",
            ),
        ] {
            assert_eq!(parse(body.clone()).unwrap_err().field, Some(field), "{body}");
        }
        let tomorrow = Happened {
            from: 10 + SLACK_MS + 1,
            until: 10 + SLACK_MS + 1,
        };
        assert_eq!(tomorrow.not_after(10).unwrap_err().field, Some("happenedFrom"));
        assert!(
            Happened {
                from: 10 + SLACK_MS,
                until: 20 + SLACK_MS
            }
            .not_after(10)
            .is_ok()
        );
    }

    #[test]
    fn windows_that_meet_are_no_time_apart() {
        let at = |from, until| Happened { from, until };
        assert_eq!(at(0, 10).gap(at(5, 20)), 0);
        assert_eq!(at(0, 10).gap(at(10, 20)), 0);
        assert_eq!(at(0, 10).gap(at(15, 20)), 5);
        assert_eq!(at(15, 20).gap(at(0, 10)), 5);
        assert_eq!(Happened::or_reported(None, 7), at(7, 7));
        assert_eq!(Happened::or_reported(Some(at(1, 2)), 7), at(1, 2));
    }
}
