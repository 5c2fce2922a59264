//! Messages of the global chat and of item threads.

use super::{Store, StoreError, with_pool};
use crate::domain::{ItemId, Message};

/// How many messages a history holds: the latest ones, oldest first.
const HISTORY_LEN: i64 = 200;

/// A message row as the drivers decode it.
#[derive(sqlx::FromRow)]
struct MessageRow {
    nick: String,
    body: String,
    created_at: i64,
}

impl From<MessageRow> for Message {
    fn from(row: MessageRow) -> Self {
        Self {
            nick: row.nick,
            text: row.body,
            at: row.created_at,
        }
    }
}

const INSERT_CHAT_MESSAGE: &str = "INSERT INTO chat_messages (nick, body, user_id, created_at) \
     VALUES ($1, $2, $3, $4) RETURNING nick, body, created_at";
const CHAT_HISTORY: &str = "SELECT nick, body, created_at FROM \
     (SELECT id, nick, body, created_at FROM chat_messages ORDER BY id DESC LIMIT $1) latest ORDER BY id";
/// Inserts nothing when the item does not exist (and fails on the foreign key if it is
/// deleted meanwhile).
const INSERT_THREAD_MESSAGE: &str = "INSERT INTO thread_messages (item_id, nick, body, user_id, created_at) \
     SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM items WHERE id = $1) \
     RETURNING nick, body, created_at";
const ITEM_EXISTS: &str = "SELECT EXISTS (SELECT 1 FROM items WHERE id = $1)";
const THREAD_HISTORY: &str = "SELECT nick, body, created_at FROM \
     (SELECT id, nick, body, created_at FROM thread_messages WHERE item_id = $1 ORDER BY id DESC LIMIT $2) latest \
     ORDER BY id";

impl Store {
    pub async fn insert_chat_message(
        &self,
        nick: &str,
        text: &str,
        user_id: Option<&str>,
        now: i64,
    ) -> Result<Message, StoreError> {
        let row: MessageRow = with_pool!(self, write, pool => {
            sqlx::query_as(INSERT_CHAT_MESSAGE)
                .bind(nick)
                .bind(text)
                .bind(user_id)
                .bind(now)
                .fetch_one(&mut *pool)
                .await
        })?;
        Ok(row.into())
    }

    pub async fn chat_history(&self) -> Result<Vec<Message>, StoreError> {
        let rows: Vec<MessageRow> = with_pool!(self, read, pool => {
            sqlx::query_as(CHAT_HISTORY).bind(HISTORY_LEN).fetch_all(pool).await
        })?;
        Ok(rows.into_iter().map(Message::from).collect())
    }

    /// Stores a message in the item's thread; `None` if there is no such item.
    pub async fn insert_thread_message(
        &self,
        item_id: ItemId,
        nick: &str,
        text: &str,
        user_id: Option<&str>,
        now: i64,
    ) -> Result<Option<Message>, StoreError> {
        let inserted: Result<Option<MessageRow>, _> = with_pool!(self, write, pool => {
            sqlx::query_as(INSERT_THREAD_MESSAGE)
                .bind(item_id.get())
                .bind(nick)
                .bind(text)
                .bind(user_id)
                .bind(now)
                .fetch_optional(&mut *pool)
                .await
        });
        match inserted {
            Ok(row) => Ok(row.map(Message::from)),
            // The item was deleted between the check and the insert.
            Err(StoreError::Conflict(_)) => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// The item's latest messages, oldest first; `None` if there is no such item.
    pub async fn thread_history(&self, item_id: ItemId) -> Result<Option<Vec<Message>>, StoreError> {
        let rows: Option<Vec<MessageRow>> = with_pool!(self, read, pool => {
            let exists: bool = sqlx::query_scalar(ITEM_EXISTS).bind(item_id.get()).fetch_one(pool).await?;
            if !exists {
                return Ok(None);
            }
            sqlx::query_as(THREAD_HISTORY)
                .bind(item_id.get())
                .bind(HISTORY_LEN)
                .fetch_all(pool)
                .await
                .map(Some)
        })?;
        Ok(rows.map(|rows| rows.into_iter().map(Message::from).collect()))
    }
}
