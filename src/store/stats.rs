//! Figures for the office: reports by kind, state, category and week, and what became of them.

use std::collections::BTreeMap;

use super::{Store, StoreError, statement::Arg};
use crate::domain::{DisposalMethod, ItemKind, ItemStatus, Stats, StatsWindow};

/// The reports counted: created in `[$1, $2)`, at site `$3` or any (`NULL`).
macro_rules! window {
    () => {
        " FROM items WHERE created_at >= $1 AND created_at < $2 AND ($3 IS NULL OR site_id = $3)"
    };
}
const BY_STATE: &str = concat!("SELECT kind, status, COUNT(*)", window!(), " GROUP BY kind, status");
const BY_CATEGORY: &str = concat!("SELECT cat_key, kind, COUNT(*)", window!(), " GROUP BY cat_key, kind");
/// Weeks start on Monday, 00:00 UTC: 1969-12-29 is 3 days (259,200,000 ms) before the epoch,
/// and a week is 604,800,000 ms.
const BY_WEEK: &str = concat!(
    "SELECT (created_at + 259200000) / 604800000, kind, COUNT(*)",
    window!(),
    " GROUP BY (created_at + 259200000) / 604800000, kind"
);
const WEEK_MS: i64 = 604_800_000;
const MONDAY_BEFORE_EPOCH_MS: i64 = 259_200_000;
const DISPOSED: &str = concat!(
    "SELECT disposal_method, COUNT(*)",
    window!(),
    " AND disposed_at IS NOT NULL GROUP BY disposal_method"
);
const CLOSED: &str = concat!("SELECT COUNT(*)", window!(), " AND closed_at IS NOT NULL");
const RETURNS: &str = concat!(
    "SELECT kind, returned_at - created_at",
    window!(),
    " AND returned_at IS NOT NULL"
);

impl Store {
    pub async fn stats(&self, window: StatsWindow) -> Result<Stats, StoreError> {
        let args: [Arg<'static>; 3] = [
            window.since.unwrap_or(i64::MIN).into(),
            window.until.unwrap_or(i64::MAX).into(),
            window.site.into(),
        ];
        let by_state: Vec<(String, String, i64)> = self.read_rows(BY_STATE, &args).await?;
        let by_category: Vec<(Option<String>, String, i64)> = self.read_rows(BY_CATEGORY, &args).await?;
        let by_week: Vec<(i64, String, i64)> = self.read_rows(BY_WEEK, &args).await?;
        let disposed: Vec<(String, i64)> = self.read_rows(DISPOSED, &args).await?;
        let (closed,): (i64,) = self.read_row(CLOSED, &args).await?.unwrap_or_default();
        let returns: Vec<(String, i64)> = self.read_rows(RETURNS, &args).await?;

        // The columns' CHECKs admit known kinds, states and methods only.
        let kind = |kind: &str| kind.parse::<ItemKind>().unwrap_or_default();
        let mut stats = Stats {
            closed,
            ..Stats::default()
        };
        for (k, status, count) in by_state {
            if let Ok(status) = status.parse::<ItemStatus>() {
                stats.add_reports(kind(&k), status, count);
            }
        }
        let mut categories: BTreeMap<Option<String>, [i64; 2]> = BTreeMap::new();
        for (cat, k, count) in by_category {
            categories.entry(cat).or_default()[kind(&k) as usize] += count;
        }
        stats.set_categories(categories);
        let mut weeks: BTreeMap<i64, [i64; 2]> = BTreeMap::new();
        for (week, k, count) in by_week {
            weeks.entry(week * WEEK_MS - MONDAY_BEFORE_EPOCH_MS).or_default()[kind(&k) as usize] += count;
        }
        stats.weeks = weeks.into_iter().collect();
        for (method, count) in disposed {
            if let Ok(method) = method.parse::<DisposalMethod>() {
                stats.disposed.push((method, count));
            }
        }
        stats.set_returns(returns.into_iter().map(|(k, took)| (kind(&k), took)).collect());
        Ok(stats)
    }
}
