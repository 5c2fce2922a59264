//! Timestamps: stored as milliseconds since the Unix epoch (UTC), formatted at the edge.

use std::time::Duration;

use time::{OffsetDateTime, format_description::FormatItem, macros::format_description};

/// RFC 3339 in UTC with exactly three fractional digits, e.g. `2025-01-17T10:30:00.000Z`.
const RFC3339_MILLIS: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");

/// How long to wait before attempt `attempts + 1`, after `attempts` failed: `first`, doubled
/// for each further attempt, up to `max`.
pub fn backoff(attempts: u32, first: Duration, max: Duration) -> Duration {
    first.saturating_mul(1 << attempts.saturating_sub(1).min(20)).min(max)
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    (OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// Formats epoch milliseconds as RFC 3339 UTC with milliseconds.
pub fn format_ms(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .map(|t| t.format(RFC3339_MILLIS).expect("UTC timestamps always format"))
        .unwrap_or_else(|_| "1970-01-01T00:00:00.000Z".to_owned())
}

/// Epoch milliseconds to the minute, for people: `YYYY-MM-DD hh:mm UTC`.
pub fn format_minute(ms: i64) -> String {
    let at = format_ms(ms);
    format!("{} {} UTC", &at[..10], &at[11..16])
}

/// The UTC day of epoch milliseconds, `YYYY-MM-DD`.
pub fn format_day(ms: i64) -> String {
    format_ms(ms)[..10].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_with_milliseconds_in_utc() {
        assert_eq!(format_ms(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_ms(1_737_109_800_007), "2025-01-17T10:30:00.007Z");
        assert_eq!(format_day(1_737_109_800_007), "2025-01-17");
    }

    #[test]
    fn times_beyond_the_calendar_fall_back_to_the_epoch() {
        assert_eq!(format_ms(i64::MAX), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_ms(-1), "1969-12-31T23:59:59.999Z");
    }
}
