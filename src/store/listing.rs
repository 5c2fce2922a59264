//! Lists of items: filters, keyset pages and counts, as one SQL text built from the request
//! and run on either backend. Pages are read newest first through the
//! `(created_at DESC, id DESC)` indexes, so a page costs what it holds, not the table.

use std::sync::atomic::Ordering;

use super::{
    Db, Store, StoreError,
    items::{ItemRow, item_columns, open_item},
    statement::{Arg, bind_all},
    with_pool,
};
use crate::domain::{
    Cursor, HoldPolicy, Item, ItemFilter, ItemId, Near, days_ms,
    geo::{HalfAngle, UnitVector, degrees_spanned},
};

/// Neither returned, disposed nor closed (the predicate of the `items_in_custody` index, but
/// for the kind).
const OPEN: &str = open_item!();

/// Matches counted exactly at most: past them a count would cost what the matches do, not
/// what the page does, and it is estimated instead.
pub const EXACT_COUNT_UP_TO: u64 = 10_000;
/// The newest items an estimate looks at.
const ESTIMATE_SAMPLE: i64 = 1_000;
/// A search whose words find more items than this is paged by walking the newest-first
/// index (SQLite; see `items_paged_for`).
const MANY_WORD_MATCHES: i64 = 1_000;

/// Where an item is in a list, as the drivers decode it.
#[derive(sqlx::FromRow)]
struct KeyRow {
    created_at: i64,
    #[sqlx(try_from = "i64")]
    id: ItemId,
}

/// How many items match a filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    Exact(u64),
    /// More than [`EXACT_COUNT_UP_TO`]: about this many, to two significant digits.
    Estimated(u64),
}

/// An SQL text and the values of its parameters, in order.
struct Sql {
    text: String,
    args: Vec<Arg<'static>>,
}

impl Sql {
    fn new(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            args: Vec::new(),
        }
    }

    /// A parameter for `value`, as `$n`.
    fn param(&mut self, value: impl Into<Arg<'static>>) -> String {
        self.args.push(value.into());
        format!("${}", self.args.len())
    }

    /// A parameter for each of `ids`, as `$n, $m, …`. (Not one list parameter: beside other
    /// conditions SQLite's planner would then walk another index, testing each of its rows.)
    fn ids(&mut self, ids: &[ItemId]) -> String {
        ids.iter().map(|id| self.param(id.get())).collect::<Vec<_>>().join(", ")
    }

    /// Appends the order of lists, newest first, and at most `limit` rows.
    fn newest_first(&mut self, limit: i64) {
        let limit = self.param(limit);
        self.text
            .push_str(&format!(" ORDER BY created_at DESC, id DESC LIMIT {limit}"));
    }

    /// Appends ` WHERE …` for `filter` (and `after`).
    fn filter(&mut self, db: &Db, filter: &ItemFilter, after: Option<Cursor>, max_radius: f64) {
        let mut conditions = Vec::new();
        if let Some(status) = filter.status {
            conditions.push(format!("status = {}", self.param(status.as_str())));
        }
        if let Some(kind) = filter.kind {
            conditions.push(format!("kind = {}", self.param(kind.as_str())));
        }
        if let Some(cat) = &filter.cat {
            let cat = self.param(cat.clone());
            conditions.push(if filter.uncategorized_too {
                format!("(cat_key = {cat} OR cat_key IS NULL)")
            } else {
                format!("cat_key = {cat}")
            });
        }
        if !filter.ids.is_empty() {
            conditions.push(format!("id IN ({})", self.ids(&filter.ids)));
        }
        if let Some(site) = filter.site {
            conditions.push(format!("site_id = {}", self.param(site)));
        }
        if let Some(bin) = filter.bin {
            conditions.push(format!("bin_id = {}", self.param(bin)));
        }
        if let Some(user) = &filter.created_by {
            conditions.push(format!("created_by = {}", self.param(user.clone())));
        }
        if let Some(user) = &filter.not_created_by {
            conditions.push(format!("created_by <> {}", self.param(user.clone())));
        }
        if filter.open || filter.due.is_some() {
            conditions.push(OPEN.to_owned());
        }
        if let Some(due) = &filter.due {
            conditions.push("kind = 'found' AND status <> 'rejected'".to_owned());
            conditions.push(format!(
                "created_at + {} <= {}",
                self.hold_ms(&due.hold),
                self.param(due.at)
            ));
        }
        if let Some(visible) = &filter.visible {
            let states: Vec<String> = visible.states.iter().map(|s| self.param(s.as_str())).collect();
            let mut either = vec![format!("status IN ({})", states.join(", "))];
            if let Some(user) = &visible.reporter {
                either.push(format!("created_by = {}", self.param(user.clone())));
            }
            conditions.push(format!("({})", either.join(" OR ")));
        }
        if let Some(since) = filter.since {
            conditions.push(format!("created_at >= {}", self.param(since)));
        }
        if let Some(until) = filter.until {
            conditions.push(format!("created_at < {}", self.param(until)));
        }
        if !filter.words.is_empty() {
            let words = self.words(db, &filter.words);
            conditions.push(if filter.or_ids.is_empty() {
                words
            } else {
                format!("({words} OR id IN ({}))", self.ids(&filter.or_ids))
            });
        }
        if let Some(near) = filter.near {
            conditions.extend(self.near(near, max_radius));
        }
        if let Some(after) = after {
            let (at, id) = (self.param(after.created_at), self.param(after.id.get()));
            conditions.push(format!("(created_at, id) < ({at}, {id})"));
        }
        if !conditions.is_empty() {
            self.text.push_str(" WHERE ");
            self.text.push_str(&conditions.join(" AND "));
        }
    }

    /// How long an item is kept, in milliseconds, by its category, else by its site, else
    /// the service's period (`HoldPolicy::days`).
    fn hold_ms(&mut self, hold: &HoldPolicy) -> String {
        format!(
            "COALESCE(COALESCE((SELECT hold_days FROM categories WHERE categories.key = items.cat_key), \
             (SELECT hold_days FROM sites WHERE sites.id = items.site_id)) * {}, {})",
            self.param(days_ms(1)),
            self.param(days_ms(hold.default_days))
        )
    }

    /// Every query word met: one of its forms the prefix of a word of the item's text. The
    /// forms are folded letters and digits only (`domain::search`), so quoting them is all the
    /// escaping either syntax needs.
    fn words(&mut self, db: &Db, words: &[Vec<String>]) -> String {
        match db {
            Db::Sqlite { .. } => format!(
                "id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH {})",
                self.param(fts5_query(words))
            ),
            Db::Postgres(_) => {
                let query = words
                    .iter()
                    .map(|forms| {
                        let forms: Vec<String> = forms.iter().map(|w| format!("'{w}':*")).collect();
                        format!("({})", forms.join(" | "))
                    })
                    .collect::<Vec<_>>()
                    .join(" & ");
                format!(
                    "to_tsvector('simple', coalesce(search_words, '') || ' ' || coalesce(place_words, '')) \
                     @@ to_tsquery('simple', {})",
                    self.param(query)
                )
            }
        }
    }

    /// The circle comes within `near.within` of the point: a box on the indexed latitude
    /// (and longitude) first, then the exact great-circle test (`domain::geo`).
    fn near(&mut self, near: Near, max_radius: f64) -> Vec<String> {
        let (dlat, dlng) = degrees_spanned(near.lat, near.within + max_radius);
        let mut conditions = vec![format!(
            "lat BETWEEN {} AND {}",
            self.param(near.lat - dlat),
            self.param(near.lat + dlat)
        )];
        if let Some(dlng) = dlng.filter(|d| near.lng - d >= -180.0 && near.lng + d <= 180.0) {
            conditions.push(format!(
                "lng BETWEEN {} AND {}",
                self.param(near.lng - dlng),
                self.param(near.lng + dlng)
            ));
        }
        let point = UnitVector::new(near.lat, near.lng);
        let within = HalfAngle::of_meters(near.within);
        let (x, y, z) = (self.param(point.x), self.param(point.y), self.param(point.z));
        let (ws, wc) = (self.param(within.sin), self.param(within.cos));
        let reach = format!("({ws} * radius_cos + {wc} * radius_sin)");
        conditions.push(format!(
            "(geo_x - {x}) * (geo_x - {x}) + (geo_y - {y}) * (geo_y - {y}) + (geo_z - {z}) * (geo_z - {z}) \
             <= 4 * {reach} * {reach}"
        ));
        conditions
    }
}

/// SQLite's full-text query for `words`: each met by one of its forms, the prefix of a word
/// of the item's text.
fn fts5_query(words: &[Vec<String>]) -> String {
    words
        .iter()
        .map(|forms| {
            let forms: Vec<String> = forms.iter().map(|w| format!("\"{w}\"*")).collect();
            format!("({})", forms.join(" OR "))
        })
        .collect::<Vec<_>>()
        .join(" AND ")
}

impl Store {
    /// At most `limit` items matching `filter`, newest first, after `after`.
    pub async fn list_items(
        &self,
        filter: &ItemFilter,
        after: Option<Cursor>,
        limit: u32,
    ) -> Result<Vec<Item>, StoreError> {
        let mut sql = self.page_sql(item_columns!(), filter, after).await?;
        sql.newest_first(i64::from(limit));
        self.items(&sql).await
    }

    /// The items matching `filter`, whose `ids` name them, newest first: a whole list's
    /// batch. Read by id and put in order here, not by the statement: PostgreSQL may plan one
    /// that orders and limits (its generic plan, the limit unknown) as a walk of the
    /// newest-first index looking for them, which costs more the further down they are.
    pub(super) async fn items_by_id(&self, filter: &ItemFilter) -> Result<Vec<Item>, StoreError> {
        let sql = self.page_sql(item_columns!(), filter, None).await?;
        let mut items = self.items(&sql).await?;
        items.sort_unstable_by_key(|item| std::cmp::Reverse((item.created_at, item.id)));
        Ok(items)
    }

    /// Runs `sql`, a `SELECT` of item columns.
    async fn items(&self, sql: &Sql) -> Result<Vec<Item>, StoreError> {
        // The text is made of fixed fragments and `$n` parameters only.
        let text = sqlx::AssertSqlSafe(sql.text.clone());
        let rows: Vec<ItemRow> = with_pool!(self, read, |pool| {
            bind_all!(sqlx::query_as(text), &sql.args).fetch_all(pool).await
        })?;
        Ok(rows.into_iter().map(|row| row.into_item()).collect())
    }

    /// Where each of at most `limit` items matching `filter` is in the list, newest first,
    /// after `after`: what [`Store::list_items`] would read, without the items themselves.
    pub(super) async fn item_keys(
        &self,
        filter: &ItemFilter,
        after: Option<Cursor>,
        limit: u32,
    ) -> Result<Vec<Cursor>, StoreError> {
        let mut sql = self.page_sql("created_at, id", filter, after).await?;
        sql.newest_first(i64::from(limit));
        let text = sqlx::AssertSqlSafe(sql.text.clone());
        let rows: Vec<KeyRow> = with_pool!(self, read, |pool| {
            bind_all!(sqlx::query_as(text), &sql.args).fetch_all(pool).await
        })?;
        Ok(rows
            .into_iter()
            .map(|row| Cursor {
                created_at: row.created_at,
                id: row.id,
            })
            .collect())
    }

    /// How many items match `filter`: exactly up to [`EXACT_COUNT_UP_TO`], reading no more
    /// matches than that; past it, estimated from the share of the newest
    /// [`ESTIMATE_SAMPLE`] items that match, times every item (by the highest id).
    pub async fn count_items(&self, filter: &ItemFilter) -> Result<Count, StoreError> {
        let max_radius = self.max_radius(filter).await?;
        let mut sql = Sql::new("SELECT COUNT(*) FROM (SELECT 1 FROM ");
        sql.text.push_str(self.items_counted_for(filter));
        sql.filter(&self.db, filter, None, max_radius);
        let cap = sql.param(EXACT_COUNT_UP_TO as i64 + 1);
        sql.text.push_str(&format!(" LIMIT {cap}) AS matching"));
        let counted = self.count(&sql).await?;
        if counted <= EXACT_COUNT_UP_TO {
            return Ok(Count::Exact(counted));
        }
        // The sample is read through the newest-first index whatever the filter, as a table
        // of its own named like the one the filter's conditions are written for.
        let mut sql = Sql::new("SELECT COUNT(*) FROM (SELECT * FROM items ORDER BY created_at DESC, id DESC LIMIT ");
        let sample = sql.param(ESTIMATE_SAMPLE);
        sql.text.push_str(&format!("{sample}) AS items"));
        sql.filter(&self.db, filter, None, max_radius);
        let in_sample = self.count(&sql).await?;
        let all: Option<i64> = with_pool!(self, read, |pool| {
            sqlx::query_scalar("SELECT MAX(id) FROM items").fetch_one(pool).await
        })?;
        let estimate = in_sample as f64 / ESTIMATE_SAMPLE as f64 * all.unwrap_or(0) as f64;
        Ok(Count::Estimated(two_digits(estimate).max(EXACT_COUNT_UP_TO + 1)))
    }

    /// Runs `sql`, a `SELECT COUNT(*)`.
    async fn count(&self, sql: &Sql) -> Result<u64, StoreError> {
        let text = sqlx::AssertSqlSafe(sql.text.clone());
        let count: i64 = with_pool!(self, read, |pool| {
            bind_all!(sqlx::query_scalar(text), &sql.args).fetch_one(pool).await
        })?;
        Ok(count.unsigned_abs())
    }

    /// How the database would run a page of `filter` (its `EXPLAIN`), one line per step.
    pub async fn explain_list(&self, filter: &ItemFilter, after: Option<Cursor>) -> Result<Vec<String>, StoreError> {
        let mut sql = self.page_sql(item_columns!(), filter, after).await?;
        sql.newest_first(20);
        let lines = match &self.db {
            Db::Sqlite { read, .. } => {
                let text = sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {}", sql.text));
                let rows: Vec<(i64, i64, i64, String)> =
                    bind_all!(sqlx::query_as(text), &sql.args).fetch_all(read).await?;
                rows.into_iter().map(|row| row.3).collect()
            }
            Db::Postgres(pool) => {
                let text = sqlx::AssertSqlSafe(format!("EXPLAIN {}", sql.text));
                bind_all!(sqlx::query_scalar(text), &sql.args).fetch_all(pool).await?
            }
        };
        Ok(lines)
    }

    /// How many statements that search (words, a place: [`ItemFilter::searches`]) lists have
    /// run, counts aside: each costs the filter's matches, whatever it returns.
    pub fn searches(&self) -> u64 {
        self.searches.load(Ordering::Relaxed)
    }

    /// `SELECT columns` of the items matching `filter` after `after`, to be ordered and
    /// limited: a page, its keys, or its plan.
    async fn page_sql(&self, columns: &str, filter: &ItemFilter, after: Option<Cursor>) -> Result<Sql, StoreError> {
        if filter.searches() {
            self.searches.fetch_add(1, Ordering::Relaxed);
        }
        let mut sql = Sql::new(&format!("SELECT {columns} FROM "));
        sql.text.push_str(self.items_paged_for(filter).await?);
        let max_radius = self.max_radius(filter).await?;
        sql.filter(&self.db, filter, after, max_radius);
        Ok(sql)
    }

    /// The items table as a list of `filter` reads it. Items near a point are read through
    /// an index of places, the box around the point: SQLite, without statistics, would
    /// rather walk a newest-first index and test every item against the box. Matching's
    /// candidates (one status, one kind, a box) have an index of their own, which tests
    /// time and category before an item is read (`domain::matching`).
    fn items_for(&self, filter: &ItemFilter) -> &'static str {
        match (&self.db, filter.near) {
            (Db::Sqlite { .. }, Some(_)) if filter.status.is_some() && filter.kind.is_some() => {
                "items INDEXED BY items_for_matching"
            }
            (Db::Sqlite { .. }, Some(_)) => "items INDEXED BY items_by_place",
            _ => "items",
        }
    }

    /// The items table as a page of `filter` reads it. On SQLite, a search whose words find
    /// many items walks the newest-first index, testing each entry against the set of ids the
    /// words find, and stops at the page's end; left to itself SQLite reads every match by id
    /// and sorts them all, which costs the matches (70,000 at a million items: 240 ms, against
    /// 11 ms walking). Few matches are cheaper read by id than walked to. Filters with a
    /// newest-first index of their own (or a few ids) are left to the planner.
    async fn items_paged_for(&self, filter: &ItemFilter) -> Result<&'static str, StoreError> {
        let walk = matches!(self.db, Db::Sqlite { .. })
            && filter.near.is_none()
            && !filter.words.is_empty()
            && filter.status.is_none()
            && filter.kind.is_none()
            && filter.cat.is_none()
            && filter.created_by.is_none()
            && filter.ids.is_empty();
        if walk && self.words_find_more_than(&filter.words, MANY_WORD_MATCHES).await? {
            return Ok("items INDEXED BY items_newest");
        }
        Ok(self.items_for(filter))
    }

    /// Whether SQLite's full-text index finds more than `many` items for `words`, reading no
    /// more than `many + 1` of them.
    async fn words_find_more_than(&self, words: &[Vec<String>], many: i64) -> Result<bool, StoreError> {
        let mut sql = Sql::new("SELECT COUNT(*) FROM (SELECT 1 FROM items_fts WHERE items_fts MATCH ");
        let query = sql.param(fts5_query(words));
        let cap = sql.param(many + 1);
        sql.text.push_str(&format!("{query} LIMIT {cap}) AS matching"));
        Ok(self.count(&sql).await? > many.unsigned_abs())
    }

    /// The items table as a count of `filter` reads it. A search is counted from the items
    /// its words find, looked up by id: a newest-first index walked to its end (all of it,
    /// when few match) would cost the table, not the matches.
    fn items_counted_for(&self, filter: &ItemFilter) -> &'static str {
        match (&self.db, filter.near, filter.words.is_empty()) {
            (Db::Sqlite { .. }, None, false) => "items NOT INDEXED",
            _ => self.items_for(filter),
        }
    }

    /// The largest radius of any item, when `filter` looks for items near a point (the box
    /// around the point must reach the farthest circle). Read through its index.
    async fn max_radius(&self, filter: &ItemFilter) -> Result<f64, StoreError> {
        if filter.near.is_none() {
            return Ok(0.0);
        }
        let max: Option<f64> = with_pool!(self, read, |pool| {
            sqlx::query_scalar("SELECT MAX(radius) FROM items")
                .fetch_one(pool)
                .await
        })?;
        Ok(max.unwrap_or(0.0))
    }
}

/// `value` rounded to two significant digits (71,234 → 71,000).
fn two_digits(value: f64) -> u64 {
    if value < 100.0 {
        return value.round() as u64;
    }
    let unit = 10f64.powi(value.log10().floor() as i32 - 1);
    ((value / unit).round() * unit) as u64
}

#[cfg(test)]
mod tests {
    use super::two_digits;

    #[test]
    fn estimates_keep_two_significant_digits() {
        for (value, rounded) in [
            (71_234.0, 71_000),
            (10_001.0, 10_000),
            (995_000.0, 1_000_000),
            (42.4, 42),
            (150.0, 150),
        ] {
            assert_eq!(two_digits(value), rounded, "{value}");
        }
    }
}
