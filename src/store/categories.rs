//! Categories: what the app offers as a report's category, each name in every language, and
//! the holding period that its found items take (read with each item, see
//! `items::item_columns`, and by the due list, see `listing`).

use std::collections::BTreeMap;

use super::{
    Store, StoreError,
    items::NEXT_VERSION,
    statement::{Arg, Tx},
    with_pool,
};
use crate::domain::{Category, CategoryNames};

#[derive(sqlx::FromRow)]
struct CategoryRow {
    key: String,
    /// `{"en": …, "ko": …, "es": …}`.
    names: String,
    hold_days: Option<i64>,
    sensitive: bool,
}

impl From<CategoryRow> for Category {
    fn from(row: CategoryRow) -> Self {
        Self {
            // Written by `category_args` or the migration: a row that would not read keeps
            // its key as its name rather than fail every list.
            names: serde_json::from_str(&row.names).unwrap_or_else(|_| CategoryNames::only(&row.key)),
            key: row.key,
            hold_days: row.hold_days.and_then(|days| u32::try_from(days).ok()),
            sensitive: row.sensitive,
        }
    }
}

/// Why a category was not added, changed or removed.
#[derive(Debug, PartialEq, Eq)]
pub enum CategoryRefusal {
    NotFound,
    /// Another category has the key.
    KeyTaken,
}

const LIST: &str = "SELECT key, names, hold_days, sensitive FROM categories ORDER BY key";
const SELECT: &str = "SELECT key, names, hold_days, sensitive FROM categories WHERE key = $1";
const INSERT: &str = "INSERT INTO categories (key, names, hold_days, sensitive, created_at) VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT DO NOTHING RETURNING key, names, hold_days, sensitive";
const UPDATE: &str = "UPDATE categories SET names = $2, hold_days = $3, sensitive = $4 WHERE key = $1 \
     RETURNING key, names, hold_days, sensitive";
const DELETE: &str = "DELETE FROM categories WHERE key = $1 RETURNING key, names, hold_days, sensitive";
/// A category the configuration names: added when missing, given the period when it has none.
const SEED: &str = "INSERT INTO categories (key, names, hold_days, sensitive, created_at) VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT (key) DO UPDATE SET hold_days = excluded.hold_days WHERE categories.hold_days IS NULL";

/// A category's columns as bound: key, names, hold days, sensitive.
fn category_args(category: &Category) -> [Arg<'static>; 4] {
    [
        category.key.clone().into(),
        serde_json::to_string(&category.names)
            .expect("names are strings")
            .into(),
        category.hold_days.map(i64::from).into(),
        category.sensitive.into(),
    ]
}

impl Store {
    /// Every category, by key.
    pub async fn categories(&self) -> Result<Vec<Category>, StoreError> {
        let rows: Vec<CategoryRow> = self.read_rows(LIST, &[]).await?;
        Ok(rows.into_iter().map(Category::from).collect())
    }

    /// Stores a new category; refused when its key is taken.
    pub async fn add_category(
        &self,
        category: &Category,
        now: i64,
    ) -> Result<Result<Category, CategoryRefusal>, StoreError> {
        let mut args = category_args(category).to_vec();
        args.push(now.into());
        with_pool!(self, write, |pool| {
            let Some(row) = pool.rows::<CategoryRow>(INSERT, &args).await?.pop() else {
                return Ok(Err(CategoryRefusal::KeyTaken));
            };
            // Reports may carry its key already: their answers change with its period or mark.
            if category.hold_days.is_some() || category.sensitive {
                pool.run(NEXT_VERSION, &[]).await?;
            }
            Ok(Ok(Category::from(row)))
        })
    }

    /// Changes category `key` to `change(category)`, read and written in one transaction.
    pub async fn change_category(
        &self,
        key: &str,
        change: impl Fn(&Category) -> Category + Send + Sync,
    ) -> Result<Result<Category, CategoryRefusal>, StoreError> {
        with_pool!(self, write, |pool| {
            let Some(old) = pool.rows::<CategoryRow>(SELECT, &[key.into()]).await?.pop() else {
                return Ok(Err(CategoryRefusal::NotFound));
            };
            let old = Category::from(old);
            let category = change(&old);
            let row: CategoryRow = pool.row(UPDATE, &category_args(&category)).await?;
            // Its items' `holdUntil`, or what the public sees of them, changed with it:
            // answers kept for the items' version go.
            if category.hold_days != old.hold_days || category.sensitive != old.sensitive {
                pool.run(NEXT_VERSION, &[]).await?;
            }
            Ok(Ok(Category::from(row)))
        })
    }

    /// Removes category `key`. Its reports keep their category as text, and the site's or the
    /// service's period.
    pub async fn remove_category(&self, key: &str) -> Result<Result<(), CategoryRefusal>, StoreError> {
        with_pool!(self, write, |pool| {
            let Some(old) = pool.rows::<CategoryRow>(DELETE, &[key.into()]).await?.pop() else {
                return Ok(Err(CategoryRefusal::NotFound));
            };
            if old.hold_days.is_some() || old.sensitive {
                pool.run(NEXT_VERSION, &[]).await?;
            }
            Ok(Ok(()))
        })
    }

    /// Adds each category of `periods` (configured, keyed folded) that is missing, and gives
    /// the period to each kept without one of its own; how many were added or given one.
    pub async fn seed_category_periods(&self, periods: &BTreeMap<String, u32>, now: i64) -> Result<u64, StoreError> {
        if periods.is_empty() {
            return Ok(0);
        }
        with_pool!(self, write, |pool| {
            let mut changed = 0;
            for (key, days) in periods {
                let category = Category {
                    key: key.clone(),
                    names: CategoryNames::only(key),
                    hold_days: Some(*days),
                    sensitive: false,
                };
                let mut args = category_args(&category).to_vec();
                args.push(now.into());
                changed += pool.run(SEED, &args).await?;
            }
            if changed > 0 {
                pool.run(NEXT_VERSION, &[]).await?;
            }
            Ok(changed)
        })
    }
}
