//! Items' meanings (see `domain::meaning`) and owners' answers to suggested matches. The
//! meanings are written in the background (`meaning::fill`) and read by matching, search and
//! each node's index of them.

use std::collections::{HashMap, HashSet};

use super::{
    Store, StoreError,
    statement::{id_in, id_list},
    with_pool,
};
use crate::domain::{ItemId, Meaning};

/// An item whose meaning is still to be made from its text.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Unencoded {
    pub id: i64,
    pub title: String,
    #[sqlx(rename = "descr")]
    pub desc: Option<String>,
}

/// A stored meaning as an index reads it, in the order they were written (`seq`).
#[derive(Debug, Clone)]
pub struct Written {
    pub seq: i64,
    pub item: ItemId,
    pub meaning: Option<Meaning>,
}

const UNENCODED: &str = "SELECT id, title, descr FROM items i WHERE id > $1 \
     AND NOT EXISTS (SELECT 1 FROM item_meanings m WHERE m.item_id = i.id AND m.model = $2) \
     ORDER BY id LIMIT $3";
/// Forgets an item's meaning: written again, or (its text changed) made again by the fill.
pub(super) const FORGET: &str = "DELETE FROM item_meanings WHERE item_id = $1";
// The item may have been deleted while its text was encoded: then nothing is written. Another
// node may have encoded it meanwhile: then its meaning stands.
const WRITE: &str = "INSERT INTO item_meanings (item_id, model, meaning) \
     SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM items WHERE id = $1) \
     ON CONFLICT (item_id) DO NOTHING";
/// [`FORGET`] and [`WRITE`] for many items in one statement each, on PostgreSQL: the ids
/// (`$1`) and meanings (`$3`) as arrays of the same length.
const FORGET_ALL: &str = "DELETE FROM item_meanings WHERE item_id = ANY($1)";
const WRITE_ALL: &str = "INSERT INTO item_meanings (item_id, model, meaning) \
     SELECT m.id, $2, m.meaning FROM unnest($1::bigint[], $3::bytea[]) AS m (id, meaning) \
     WHERE EXISTS (SELECT 1 FROM items WHERE id = m.id) \
     ON CONFLICT (item_id) DO NOTHING RETURNING seq";
const WRITTEN_SINCE: &str =
    "SELECT seq, item_id, meaning FROM item_meanings WHERE seq > $1 AND model = $2 ORDER BY seq LIMIT $3";
const WORDS_AFTER: &str = "SELECT id, search_words FROM items WHERE id > $1 ORDER BY id LIMIT $2";
const ANSWER: &str = "INSERT INTO match_answers (user_id, item_id, answer, answered_at) VALUES ($1, $2, 'not-mine', $3) \
     ON CONFLICT (user_id, item_id) DO UPDATE SET answered_at = $3";

impl Store {
    /// Reads the meanings `model` made (matching within the store: reports settled by a
    /// hand-over).
    pub fn with_meaning_model(mut self, model: &'static str) -> Self {
        self.meaning_model = Some(model);
        self
    }

    /// Up to `limit` items after id `after`, by id, without a meaning made by `model`.
    pub async fn unencoded(&self, model: &str, after: i64, limit: u32) -> Result<Vec<Unencoded>, StoreError> {
        with_pool!(self, read, |pool| {
            sqlx::query_as(UNENCODED)
                .bind(after)
                .bind(model)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await
        })
    }

    /// Stores what `model` made of each item's text (`None`: it says nothing), replacing
    /// what was there, in one transaction: on SQLite in place (two statements an item, prepared
    /// once, on the writer's thread), on PostgreSQL two statements for them all. Returns the
    /// write sequence numbers the stored meanings took (see [`Written`]), in no set order.
    pub async fn write_meanings(
        &self,
        model: &str,
        meanings: &[(i64, Option<Meaning>)],
    ) -> Result<Vec<i64>, StoreError> {
        if meanings.is_empty() {
            return Ok(Vec::new());
        }
        let (ids, bytes): (Vec<i64>, Vec<Option<Vec<u8>>>) = meanings
            .iter()
            .map(|(id, meaning)| (*id, meaning.as_ref().map(Meaning::to_bytes)))
            .unzip();
        let model_owned = model.to_owned();
        with_pool!(
            self,
            write,
            in_place: move |connection| {
                let mut forget = connection.prepare_cached(FORGET)?;
                let mut write = connection.prepare_cached(WRITE)?;
                let mut seqs = Vec::with_capacity(ids.len());
                for (id, bytes) in ids.iter().zip(&bytes) {
                    forget.execute([id])?;
                    // `seq` is the row's id: the last one inserted, if this one was.
                    if write.execute((id, &model_owned, bytes))? == 1 {
                        seqs.push(connection.last_insert_rowid());
                    }
                }
                Ok(seqs)
            },
            |pool| {
                sqlx::query(FORGET_ALL).bind(&ids).execute(&mut *pool).await?;
                sqlx::query_scalar(WRITE_ALL)
                    .bind(&ids)
                    .bind(model)
                    .bind(&bytes)
                    .fetch_all(&mut *pool)
                    .await
            }
        )
    }

    /// Meanings written by `model` after `seq`, oldest first, at most `limit`.
    pub async fn meanings_written_since(&self, model: &str, seq: i64, limit: u32) -> Result<Vec<Written>, StoreError> {
        let rows: Vec<(i64, i64, Option<Vec<u8>>)> = self
            .point_rows(WRITTEN_SINCE, &[seq.into(), model.into(), i64::from(limit).into()])
            .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(seq, item, bytes)| {
                Some(Written {
                    seq,
                    item: ItemId::new(item)?,
                    meaning: bytes.as_deref().and_then(Meaning::from_bytes),
                })
            })
            .collect())
    }

    /// The searchable words (folded, see `domain::search`) of up to `limit` items after id
    /// `after`, by id: what the words of the items are, for a search's forgiving forms.
    pub async fn words_after(&self, after: i64, limit: u32) -> Result<Vec<(i64, Option<String>)>, StoreError> {
        self.point_rows(WORDS_AFTER, &[after.into(), i64::from(limit).into()])
            .await
    }

    /// The meanings `model` made of those of `ids` that have one.
    pub async fn meanings_of(&self, model: &str, ids: &[ItemId]) -> Result<HashMap<ItemId, Meaning>, StoreError> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT item_id, meaning FROM item_meanings WHERE model = $1 AND meaning IS NOT NULL AND {}",
            id_in(&self.db, "item_id", "$2")
        );
        let ids = id_list(&self.db, ids);
        let rows: Vec<(i64, Vec<u8>)> = with_pool!(self, read, |pool| {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
                .bind(model)
                .bind(&ids)
                .fetch_all(pool)
                .await
        })?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, bytes)| Some((ItemId::new(id)?, Meaning::from_bytes(&bytes)?)))
            .collect())
    }

    /// Records that `user` said `item` is not theirs.
    pub async fn answer_not_mine(&self, user: &str, item: ItemId, now: i64) -> Result<(), StoreError> {
        with_pool!(self, write, |pool| {
            sqlx::query(ANSWER)
                .bind(user)
                .bind(item.get())
                .bind(now)
                .execute(&mut *pool)
                .await
                .map(drop)
        })
    }

    /// Takes back `user`'s "not mine" about `item`.
    pub async fn forget_not_mine(&self, user: &str, item: ItemId) -> Result<(), StoreError> {
        with_pool!(self, write, |pool| {
            sqlx::query("DELETE FROM match_answers WHERE user_id = $1 AND item_id = $2")
                .bind(user)
                .bind(item.get())
                .execute(&mut *pool)
                .await
                .map(drop)
        })
    }

    /// The items `user` said are not theirs.
    pub async fn not_mine(&self, user: &str) -> Result<HashSet<ItemId>, StoreError> {
        let ids: Vec<i64> = with_pool!(self, read, |pool| {
            sqlx::query_scalar("SELECT item_id FROM match_answers WHERE user_id = $1")
                .bind(user)
                .fetch_all(pool)
                .await
        })?;
        Ok(ids.into_iter().filter_map(ItemId::new).collect())
    }
}
