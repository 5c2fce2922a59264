//! Lists of items: filters, keyset pages and counts, as one SQL text built from the request
//! and run on either backend. Pages are read newest first through the
//! `(created_at DESC, id DESC)` indexes, so a page costs what it holds, not the table.

use futures_util::{Stream, stream};

use super::{
    Db, Store, StoreError,
    items::{ItemRow, item_columns, open_item},
    statement::{Arg, bind_all},
    with_pool,
};
use crate::domain::{
    Cursor, HoldPolicy, Item, ItemFilter, Near, days_ms,
    geo::{HalfAngle, UnitVector, degrees_spanned},
};

/// Neither returned, disposed nor closed (the predicate of the `items_in_custody` index, but
/// for the kind).
const OPEN: &str = open_item!();

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

    /// Appends ` WHERE …` for `filter` (and `after`).
    fn filter(&mut self, db: &Db, hold: &HoldPolicy, filter: &ItemFilter, after: Option<Cursor>, max_radius: f64) {
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
            let ids: Vec<String> = filter.ids.iter().map(|id| self.param(id.get())).collect();
            conditions.push(format!("id IN ({})", ids.join(", ")));
        }
        if let Some(user) = &filter.created_by {
            conditions.push(format!("created_by = {}", self.param(user.clone())));
        }
        if let Some(user) = &filter.not_created_by {
            conditions.push(format!("created_by <> {}", self.param(user.clone())));
        }
        if filter.open || filter.due_at.is_some() {
            conditions.push(OPEN.to_owned());
        }
        if let Some(now) = filter.due_at {
            conditions.push("kind = 'found' AND status <> 'rejected'".to_owned());
            conditions.push(format!("created_at + {} <= {}", self.hold_ms(hold), self.param(now)));
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
            conditions.push(self.words(db, &filter.words));
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

    /// How long an item is kept, in milliseconds, by its category: `CASE cat_key WHEN … END`.
    fn hold_ms(&mut self, hold: &HoldPolicy) -> String {
        let default = self.param(days_ms(hold.default_days));
        if hold.by_category.is_empty() {
            return default;
        }
        let mut text = String::from("CASE");
        // In the map's order: the same policy makes the same statement text.
        for (cat, days) in &hold.by_category {
            let (cat, ms) = (self.param(cat.clone()), self.param(days_ms(*days)));
            text.push_str(&format!(" WHEN cat_key = {cat} THEN {ms}"));
        }
        text.push_str(&format!(" ELSE {default} END"));
        text
    }

    /// Every word a prefix of a word of the item's text. The words are folded letters and
    /// digits only (`domain::search`), so quoting them is all the escaping either syntax needs.
    fn words(&mut self, db: &Db, words: &[String]) -> String {
        match db {
            Db::Sqlite { .. } => {
                let query = words.iter().map(|w| format!("\"{w}\"*")).collect::<Vec<_>>().join(" ");
                format!(
                    "id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH {})",
                    self.param(query)
                )
            }
            Db::Postgres(_) => {
                let query = words.iter().map(|w| format!("'{w}':*")).collect::<Vec<_>>().join(" & ");
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

impl Store {
    /// At most `limit` items matching `filter`, newest first, after `after`.
    pub async fn list_items(
        &self,
        filter: &ItemFilter,
        after: Option<Cursor>,
        limit: u32,
    ) -> Result<Vec<Item>, StoreError> {
        let mut sql = Sql::new(concat!("SELECT ", item_columns!(), " FROM items"));
        let max_radius = self.max_radius(filter).await?;
        sql.filter(&self.db, &self.hold, filter, after, max_radius);
        let limit = sql.param(i64::from(limit));
        sql.text
            .push_str(&format!(" ORDER BY created_at DESC, id DESC LIMIT {limit}"));
        // The text is made of fixed fragments and `$n` parameters only.
        let text = sqlx::AssertSqlSafe(sql.text.clone());
        let rows: Vec<ItemRow> = with_pool!(self, read, |pool| {
            bind_all!(sqlx::query_as(text), &sql.args).fetch_all(pool).await
        })?;
        Ok(rows.into_iter().map(|row| row.into_item(&self.hold)).collect())
    }

    /// How many items match `filter`.
    pub async fn count_items(&self, filter: &ItemFilter) -> Result<u64, StoreError> {
        let mut sql = Sql::new("SELECT COUNT(*) FROM items");
        let max_radius = self.max_radius(filter).await?;
        sql.filter(&self.db, &self.hold, filter, None, max_radius);
        let text = sqlx::AssertSqlSafe(sql.text.clone());
        let count: i64 = with_pool!(self, read, |pool| {
            bind_all!(sqlx::query_scalar(text), &sql.args).fetch_one(pool).await
        })?;
        Ok(count.unsigned_abs())
    }

    /// Every item matching `filter`, newest first, read `batch` at a time: no connection is
    /// held between batches, however slowly the stream is consumed.
    pub fn stream_items(
        &self,
        filter: ItemFilter,
        after: Option<Cursor>,
        batch: u32,
    ) -> impl Stream<Item = Result<Vec<Item>, StoreError>> + Send + 'static {
        let store = self.clone();
        stream::unfold(Some(after), move |state| {
            let (store, filter) = (store.clone(), filter.clone());
            async move {
                let after = state?;
                match store.list_items(&filter, after, batch).await {
                    Ok(items) if items.is_empty() => None,
                    Ok(items) => {
                        let next = (items.len() == batch as usize).then(|| {
                            let last = &items[items.len() - 1];
                            Some(Cursor {
                                created_at: last.created_at,
                                id: last.id,
                            })
                        });
                        Some((Ok(items), next))
                    }
                    Err(err) => Some((Err(err), None)),
                }
            }
        })
    }

    /// How the database would run a page of `filter` (its `EXPLAIN`), one line per step.
    pub async fn explain_list(&self, filter: &ItemFilter, after: Option<Cursor>) -> Result<Vec<String>, StoreError> {
        let mut sql = Sql::new(concat!("SELECT ", item_columns!(), " FROM items"));
        let max_radius = self.max_radius(filter).await?;
        sql.filter(&self.db, &self.hold, filter, after, max_radius);
        sql.text.push_str(" ORDER BY created_at DESC, id DESC LIMIT 20");
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
