//! Items and the log of review actions on them.

use serde::Serialize;
use serde_json::json;

use super::{Store, with_pool};
use crate::domain::{ItemPatch, ItemStatus, NewItem};

/// The one representation of an item, in every response: all 12 keys, absent values `null`.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
pub struct Item {
    pub id: i64,
    pub title: String,
    #[sqlx(rename = "descr")]
    pub desc: Option<String>,
    pub cat: Option<String>,
    #[serde(rename = "imgData")]
    pub img_data: Option<String>,
    pub lat: f64,
    pub lng: f64,
    pub radius: f64,
    pub status: String,
    #[serde(rename = "storagePlace")]
    pub storage_place: Option<String>,
    #[serde(serialize_with = "serialize_ms")]
    pub created_at: i64,
    #[serde(rename = "createdBy")]
    pub created_by: String,
}

pub(super) fn serialize_ms<S: serde::Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::time::format_ms(*ms))
}

macro_rules! item_columns {
    () => {
        "id, title, descr, cat, img_data, lat, lng, radius, status, storage_place, created_at, created_by"
    };
}

impl Store {
    pub async fn insert_item(&self, item: &NewItem, created_by: &str, now: i64) -> Result<Item, sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query_as(concat!(
                "INSERT INTO items (title, descr, cat, img_data, lat, lng, radius, status, storage_place, created_at, created_by) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $10) RETURNING ",
                item_columns!()
            ))
            .bind(&item.title)
            .bind(&item.desc)
            .bind(&item.cat)
            .bind(&item.img_data)
            .bind(item.lat)
            .bind(item.lng)
            .bind(item.radius)
            .bind(&item.storage_place)
            .bind(now)
            .bind(created_by)
            .fetch_one(pool)
            .await
        })
    }

    pub async fn item(&self, id: i64) -> Result<Option<Item>, sqlx::Error> {
        with_pool!(self, read, |pool| {
            sqlx::query_as(concat!("SELECT ", item_columns!(), " FROM items WHERE id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await
        })
    }

    /// Items newest first, optionally only those in one state.
    pub async fn list_items(&self, status: Option<ItemStatus>) -> Result<Vec<Item>, sqlx::Error> {
        with_pool!(self, read, |pool| match status {
            None => {
                sqlx::query_as(concat!(
                    "SELECT ",
                    item_columns!(),
                    " FROM items ORDER BY created_at DESC, id DESC"
                ))
                .fetch_all(pool)
                .await
            }
            Some(status) => {
                sqlx::query_as(concat!(
                    "SELECT ",
                    item_columns!(),
                    " FROM items WHERE status = $1 ORDER BY created_at DESC, id DESC"
                ))
                .bind(status.as_str())
                .fetch_all(pool)
                .await
            }
        })
    }

    /// Applies an administrator's update and records it; `None` if no such item.
    pub async fn update_item(
        &self,
        id: i64,
        patch: &ItemPatch,
        actor: &str,
        now: i64,
    ) -> Result<Option<Item>, sqlx::Error> {
        let mut change = serde_json::Map::new();
        if let Some(status) = patch.status {
            change.insert("status".into(), json!(status.as_str()));
        }
        if let Some(place) = &patch.storage_place {
            change.insert("storagePlace".into(), json!(place));
        }
        let change = serde_json::Value::Object(change).to_string();
        with_pool!(self, write, |pool| {
            let mut tx = pool.begin().await?;
            let item: Option<Item> = sqlx::query_as(concat!(
                "UPDATE items SET status = COALESCE($2, status), \
                 storage_place = CASE WHEN $3 THEN $4 ELSE storage_place END \
                 WHERE id = $1 RETURNING ",
                item_columns!()
            ))
            .bind(id)
            .bind(patch.status.map(ItemStatus::as_str))
            .bind(patch.storage_place.is_some())
            .bind(patch.storage_place.clone().flatten())
            .fetch_optional(&mut *tx)
            .await?;
            if item.is_some() {
                record_change(&mut tx, id, actor, now, &change).await?;
            }
            tx.commit().await?;
            Ok(item)
        })
    }

    /// Deletes an item (and, by cascade, its thread) and records it; false if no such item.
    pub async fn delete_item(&self, id: i64, actor: &str, now: i64) -> Result<bool, sqlx::Error> {
        with_pool!(self, write, |pool| {
            let mut tx = pool.begin().await?;
            let found = sqlx::query("DELETE FROM items WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                > 0;
            if found {
                record_change(&mut tx, id, actor, now, r#"{"deleted":true}"#).await?;
            }
            tx.commit().await?;
            Ok(found)
        })
    }

    /// The recorded review actions on an item, oldest first: `(changed_by, changed_at, change)`.
    pub async fn item_changes(&self, id: i64) -> Result<Vec<(String, i64, String)>, sqlx::Error> {
        with_pool!(self, read, |pool| {
            sqlx::query_as("SELECT changed_by, changed_at, change FROM item_changes WHERE item_id = $1 ORDER BY id")
                .bind(id)
                .fetch_all(pool)
                .await
        })
    }
}

/// Appends to the change log inside the caller's transaction, on either backend.
async fn record_change<'c, DB>(
    tx: &mut sqlx::Transaction<'c, DB>,
    item_id: i64,
    actor: &str,
    now: i64,
    change: &str,
) -> Result<(), sqlx::Error>
where
    DB: sqlx::Database,
    for<'e> &'e mut DB::Connection: sqlx::Executor<'e, Database = DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> &'q str: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> DB::Arguments: sqlx::IntoArguments<DB>,
{
    sqlx::query("INSERT INTO item_changes (item_id, changed_by, changed_at, change) VALUES ($1, $2, $3, $4)")
        .bind(item_id)
        .bind(actor)
        .bind(now)
        .bind(change)
        .execute(&mut **tx)
        .await
        .map(drop)
}
