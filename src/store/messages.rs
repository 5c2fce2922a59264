//! Messages of the global chat and of item threads.

use serde::Serialize;

use super::{Store, with_pool};

/// How many messages a history holds: the latest ones, oldest first.
const HISTORY_LEN: i64 = 200;

/// `{ nick, text, ts }` as the events carry it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Message {
    pub nick: String,
    #[sqlx(rename = "body")]
    pub text: String,
    #[serde(rename = "ts", serialize_with = "super::items::serialize_ms")]
    #[sqlx(rename = "created_at")]
    pub at: i64,
}

impl Store {
    pub async fn insert_chat_message(
        &self,
        nick: &str,
        text: &str,
        user_id: Option<&str>,
        now: i64,
    ) -> Result<Message, sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query_as("INSERT INTO chat_messages (nick, body, user_id, created_at) VALUES ($1, $2, $3, $4) RETURNING nick, body, created_at")
                .bind(nick)
                .bind(text)
                .bind(user_id)
                .bind(now)
                .fetch_one(pool)
                .await
        })
    }

    pub async fn chat_history(&self) -> Result<Vec<Message>, sqlx::Error> {
        with_pool!(self, read, |pool| {
            sqlx::query_as(
                "SELECT nick, body, created_at FROM \
                 (SELECT id, nick, body, created_at FROM chat_messages ORDER BY id DESC LIMIT $1) latest ORDER BY id",
            )
            .bind(HISTORY_LEN)
            .fetch_all(pool)
            .await
        })
    }

    /// Stores a message in the item's thread; `None` if there is no such item.
    pub async fn insert_thread_message(
        &self,
        item_id: i64,
        nick: &str,
        text: &str,
        user_id: Option<&str>,
        now: i64,
    ) -> Result<Option<Message>, sqlx::Error> {
        let inserted = with_pool!(self, write, |pool| {
            sqlx::query_as(
                "INSERT INTO thread_messages (item_id, nick, body, user_id, created_at) \
                 SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM items WHERE id = $1) \
                 RETURNING nick, body, created_at",
            )
            .bind(item_id)
            .bind(nick)
            .bind(text)
            .bind(user_id)
            .bind(now)
            .fetch_optional(pool)
            .await
        });
        match inserted {
            // The item was deleted between the check and the insert.
            Err(sqlx::Error::Database(e)) if e.is_foreign_key_violation() => Ok(None),
            other => other,
        }
    }

    /// The item's latest messages, oldest first; `None` if there is no such item.
    pub async fn thread_history(&self, item_id: i64) -> Result<Option<Vec<Message>>, sqlx::Error> {
        with_pool!(self, read, |pool| {
            let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM items WHERE id = $1)")
                .bind(item_id)
                .fetch_one(pool)
                .await?;
            if !exists {
                return Ok(None);
            }
            sqlx::query_as(
                "SELECT nick, body, created_at FROM \
                 (SELECT id, nick, body, created_at FROM thread_messages WHERE item_id = $1 ORDER BY id DESC LIMIT $2) latest \
                 ORDER BY id",
            )
            .bind(item_id)
            .bind(HISTORY_LEN)
            .fetch_all(pool)
            .await
            .map(Some)
        })
    }
}
