//! Figures for the office: reports by kind, state, category and week, and what became of them.

use std::collections::BTreeMap;

use super::{Db, Store, StoreError, statement::Arg};
use crate::domain::{DisposalMethod, ItemKind, ItemStatus, Stats, StatsWindow};

/// The reports counted: created in `[$1, $2)`, at site `$3` or any (`NULL`).
macro_rules! window {
    () => {
        " FROM items WHERE created_at >= $1 AND created_at < $2 AND ($3 IS NULL OR site_id = $3)"
    };
}
/// Weeks start on Monday, 00:00 UTC: 1969-12-29 is 3 days (259,200,000 ms) before the epoch,
/// and a week is 604,800,000 ms.
const WEEK_MS: i64 = 604_800_000;
const MONDAY_BEFORE_EPOCH_MS: i64 = 259_200_000;
/// Every count but the returns', in one pass over the window (each pass reads every report
/// in it; six of them took 0.4 s at 100,000): a row for each kind, state, category, week,
/// disposal and closure that occur together, `FROM` the table as `$from` names it.
macro_rules! counts {
    ($from:literal) => {
        concat!(
            "SELECT kind, status, cat_key, (created_at + 259200000) / 604800000, \
             CASE WHEN disposed_at IS NOT NULL THEN disposal_method END, closed_at IS NOT NULL, COUNT(*) FROM ",
            $from,
            " WHERE created_at >= $1 AND created_at < $2 AND ($3 IS NULL OR site_id = $3) GROUP BY 1, 2, 3, 4, 5, 6"
        )
    };
}
/// On SQLite through the index made for it, which holds every column the count reads, in the
/// order it groups by: the planner would take the index on `created_at` for the window, then
/// read and sort every row.
const COUNTS_SQLITE: &str = counts!("items INDEXED BY items_stats");
const COUNTS_POSTGRES: &str = counts!("items");
/// A row of [`COUNTS_SQLITE`].
type Counted = (String, String, Option<String>, i64, Option<String>, bool, i64);
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
        let counts_sql = match self.db {
            Db::Sqlite { .. } => COUNTS_SQLITE,
            Db::Postgres(_) => COUNTS_POSTGRES,
        };
        let counts: Vec<Counted> = self.read_rows(counts_sql, &args).await?;
        let returns: Vec<(String, i64)> = self.read_rows(RETURNS, &args).await?;

        // The columns' CHECKs admit known kinds, states and methods only.
        let kind = |kind: &str| kind.parse::<ItemKind>().unwrap_or_default();
        let mut stats = Stats::default();
        let mut categories: BTreeMap<Option<String>, [i64; 2]> = BTreeMap::new();
        let mut weeks: BTreeMap<i64, [i64; 2]> = BTreeMap::new();
        let mut disposed: BTreeMap<String, i64> = BTreeMap::new();
        for (k, status, cat, week, disposal, closed, count) in counts {
            let k = kind(&k);
            if let Ok(status) = status.parse::<ItemStatus>() {
                stats.add_reports(k, status, count);
            }
            categories.entry(cat).or_default()[k as usize] += count;
            weeks.entry(week * WEEK_MS - MONDAY_BEFORE_EPOCH_MS).or_default()[k as usize] += count;
            if let Some(method) = disposal {
                *disposed.entry(method).or_default() += count;
            }
            if closed {
                stats.closed += count;
            }
        }
        stats.set_categories(categories);
        stats.weeks = weeks.into_iter().collect();
        stats.disposed = disposed
            .into_iter()
            .filter_map(|(method, count)| Some((method.parse::<DisposalMethod>().ok()?, count)))
            .collect();
        stats.set_returns(returns.into_iter().map(|(k, took)| (kind(&k), took)).collect());
        Ok(stats)
    }
}
