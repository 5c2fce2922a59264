//! `GET /api/stats`: the office's figures over a period (staff only).

use axum::{
    Json, Router,
    extract::{RawQuery, State},
    routing::get,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    current_user::{May, ReadAll},
    extract::Params,
};
use crate::{
    domain::{DisposalMethod, Stats, StatsWindow},
    error::Result,
    state::AppState,
    time::{format_day, format_ms},
};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/stats", get(stats))
}

/// Counts over the reports created in the period, and what became of them.
#[derive(Serialize, ToSchema)]
#[schema(as = Stats)]
pub struct StatsJson {
    #[schema(format = DateTime)]
    since: Option<String>,
    #[schema(format = DateTime)]
    until: Option<String>,
    /// The site counted; `null`: every site.
    site: Option<i64>,
    reports: KindCounts,
    states: StateCounts,
    /// Most reports first; `cat` folded to lower case, `null` for reports without one.
    categories: Vec<CategoryCounts>,
    /// Weeks with reports, oldest first; `week` is its Monday (UTC), `YYYY-MM-DD`.
    weeks: Vec<WeekCounts>,
    /// Reports returned to their owner through a claim.
    returned: i64,
    /// `total` and one count per method.
    #[schema(value_type = Object)]
    disposed: serde_json::Map<String, serde_json::Value>,
    closed: i64,
    /// Found items returned, of the found items approved (0–1); `null` without any.
    #[serde(rename = "returnRate")]
    return_rate: Option<f64>,
    /// Days from report to return, the median over returned items; `null` when none.
    #[serde(rename = "medianDaysToReturn")]
    median_days_to_return: Option<f64>,
}

#[derive(Serialize, ToSchema)]
struct KindCounts {
    total: i64,
    lost: i64,
    found: i64,
}

#[derive(Serialize, ToSchema)]
struct StateCounts {
    pending: i64,
    approved: i64,
    rejected: i64,
}

#[derive(Serialize, ToSchema)]
struct CategoryCounts {
    cat: Option<String>,
    lost: i64,
    found: i64,
}

#[derive(Serialize, ToSchema)]
struct WeekCounts {
    #[schema(format = Date)]
    week: String,
    lost: i64,
    found: i64,
}

impl StatsJson {
    fn new(window: StatsWindow, stats: Stats) -> Self {
        let mut disposed = serde_json::Map::new();
        disposed.insert("total".into(), stats.disposed_total().into());
        for method in DisposalMethod::ALL {
            let count = stats.disposed.iter().find(|(m, _)| *m == method).map_or(0, |(_, n)| *n);
            disposed.insert(method.as_str().into(), count.into());
        }
        Self {
            since: window.since.map(format_ms),
            until: window.until.map(format_ms),
            site: window.site,
            reports: KindCounts {
                total: stats.lost + stats.found,
                lost: stats.lost,
                found: stats.found,
            },
            states: StateCounts {
                pending: stats.pending,
                approved: stats.approved,
                rejected: stats.rejected,
            },
            return_rate: stats.return_rate(),
            categories: stats
                .categories
                .into_iter()
                .map(|(cat, [lost, found])| CategoryCounts { cat, lost, found })
                .collect(),
            weeks: stats
                .weeks
                .into_iter()
                .map(|(monday, [lost, found])| WeekCounts {
                    week: format_day(monday),
                    lost,
                    found,
                })
                .collect(),
            returned: stats.returned,
            disposed,
            closed: stats.closed,
            median_days_to_return: stats.median_days_to_return,
        }
    }
}

/// The office's figures: reports by kind, state, category and week; returned, disposed (by
/// method) and closed; the return rate of found items and the median days to a return.
#[utoipa::path(get, path = "/api/stats", operation_id = "getStats", tag = "items", security(("session" = [])), params(super::schemas::StatsQuery),
    responses(
        (status = 200, description = "The figures", body = StatsJson),
        (status = 400, description = "Invalid since, Invalid until, Invalid site, Invalid query string", body = super::schemas::ErrorBody),
        (status = 401, response = super::schemas::LoginRequired), (status = 403, response = super::schemas::AdminOnly),
    ))]
async fn stats(State(state): State<AppState>, _: May<ReadAll>, RawQuery(raw): RawQuery) -> Result<Json<StatsJson>> {
    let params = Params::parse(raw.as_deref(), &["since", "until", "site"])?;
    let window = StatsWindow::parse(|name| params.get(name))?;
    let stats = state.store.stats(window).await?;
    Ok(Json(StatsJson::new(window, stats)))
}
