//! The office's figures over a period: how many reports of each kind, state, category and
//! week, and what became of them.

use std::collections::BTreeMap;

use super::{DisposalMethod, ItemKind, ItemStatus, ValidationError, listing::parse_time, query_record_id};

/// Which reports count: created in `[since, until)`, epoch milliseconds; `None`: unbounded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatsWindow {
    pub since: Option<i64>,
    pub until: Option<i64>,
    /// Only one site's reports (`site`); all without it.
    pub site: Option<i64>,
}

impl StatsWindow {
    /// `since` and `until`, RFC 3339, and `site`, an id, given by name.
    pub fn parse<'a>(param: impl Fn(&str) -> Option<&'a str>) -> Result<Self, ValidationError> {
        let time = |name: &'static str, message: &'static str| {
            param(name)
                .filter(|v| !v.is_empty())
                .map(|v| parse_time(v).map_err(|()| ValidationError::new(name, message)))
                .transpose()
        };
        Ok(Self {
            since: time("since", "Invalid since")?,
            until: time("until", "Invalid until")?,
            site: query_record_id(param("site"), "site", "Invalid site")?,
        })
    }
}

/// Counts are `[lost, found]` pairs where both kinds count (indexed by `ItemKind as usize`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    pub lost: i64,
    pub found: i64,
    pub pending: i64,
    pub approved: i64,
    pub rejected: i64,
    /// Found items approved: what the office took into custody.
    pub found_approved: i64,
    /// By category folded to lower case (`None`: no category), most reports first.
    pub categories: Vec<(Option<String>, [i64; 2])>,
    /// By week: its Monday (epoch ms, 00:00 UTC), oldest first; weeks without reports left out.
    pub weeks: Vec<(i64, [i64; 2])>,
    pub returned: i64,
    /// Found items returned to their owner.
    pub found_returned: i64,
    pub disposed: Vec<(DisposalMethod, i64)>,
    pub closed: i64,
    /// Days from report to return, the median over returned items.
    pub median_days_to_return: Option<f64>,
}

const DAY_MS: f64 = 86_400_000.0;

impl Stats {
    pub fn add_reports(&mut self, kind: ItemKind, status: ItemStatus, count: i64) {
        match kind {
            ItemKind::Lost => self.lost += count,
            ItemKind::Found => self.found += count,
        }
        match status {
            ItemStatus::Pending => self.pending += count,
            ItemStatus::Approved => self.approved += count,
            ItemStatus::Rejected => self.rejected += count,
        }
        if (kind, status) == (ItemKind::Found, ItemStatus::Approved) {
            self.found_approved += count;
        }
    }

    /// Most reports first, then by name (no category last among equals).
    pub fn set_categories(&mut self, categories: BTreeMap<Option<String>, [i64; 2]>) {
        let mut categories: Vec<_> = categories.into_iter().collect();
        categories.sort_by(|(a, x), (b, y)| {
            (y[0] + y[1])
                .cmp(&(x[0] + x[1]))
                .then(b.is_some().cmp(&a.is_some()))
                .then(a.cmp(b))
        });
        self.categories = categories;
    }

    /// The returned items: their kind, and how long (ms) from report to return.
    pub fn set_returns(&mut self, mut returns: Vec<(ItemKind, i64)>) {
        self.returned = returns.len() as i64;
        self.found_returned = returns.iter().filter(|(kind, _)| *kind == ItemKind::Found).count() as i64;
        returns.sort_by_key(|(_, took)| *took);
        let n = returns.len();
        self.median_days_to_return = (n > 0).then(|| {
            let middle = if n % 2 == 1 {
                returns[n / 2].1 as f64
            } else {
                (returns[n / 2 - 1].1 + returns[n / 2].1) as f64 / 2.0
            };
            (middle / DAY_MS * 100.0).round() / 100.0
        });
    }

    /// Found items returned, of the found items approved (pending and rejected reports were
    /// never in custody); `None` without any.
    pub fn return_rate(&self) -> Option<f64> {
        (self.found_approved > 0)
            .then(|| (self.found_returned as f64 / self.found_approved as f64 * 1000.0).round() / 1000.0)
    }

    pub fn disposed_total(&self) -> i64 {
        self.disposed.iter().map(|(_, n)| n).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_rates() {
        let day = DAY_MS as i64;
        let mut stats = Stats::default();
        stats.add_reports(ItemKind::Found, ItemStatus::Approved, 4);
        stats.add_reports(ItemKind::Found, ItemStatus::Rejected, 3);
        stats.set_returns(vec![
            (ItemKind::Found, 3 * day),
            (ItemKind::Found, day),
            (ItemKind::Lost, 2 * day),
        ]);
        assert_eq!(stats.median_days_to_return, Some(2.0));
        assert_eq!(stats.return_rate(), Some(0.5));
        stats.set_returns(vec![(ItemKind::Found, day), (ItemKind::Found, 2 * day)]);
        assert_eq!(stats.median_days_to_return, Some(1.5));
        stats.set_returns(vec![]);
        assert_eq!(stats.median_days_to_return, None);
        assert_eq!(Stats::default().return_rate(), None);
    }

    #[test]
    fn categories_most_first() {
        let mut stats = Stats::default();
        stats.set_categories(BTreeMap::from([
            (None, [1, 0]),
            (Some("bags".into()), [1, 0]),
            (Some("phone".into()), [2, 1]),
        ]));
        let order: Vec<_> = stats.categories.iter().map(|(c, _)| c.as_deref()).collect();
        assert_eq!(order, [Some("phone"), Some("bags"), None]);
    }

    #[test]
    fn windows() {
        let w = StatsWindow::parse(|n| (n == "since").then_some("2026-01-01T00:00:00Z")).unwrap();
        assert_eq!(w.since, Some(1_767_225_600_000));
        assert_eq!(w.until, None);
        let bad = StatsWindow::parse(|n| (n == "until").then_some("soon")).unwrap_err();
        assert_eq!(bad.message, "Invalid until");
    }
}
