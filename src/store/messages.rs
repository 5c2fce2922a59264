//! Messages of the global chat (no item) and of item threads, in one table: each message has
//! an id of its own, by which staff delete it.

use super::{Store, StoreError, in_place, statement::Tx, with_pool};
use crate::domain::{Committed, DeletedMessage, Event, ItemId, Message, MessageId, User, WrittenMessage};

/// How many messages a history holds: the latest ones, newest first.
const HISTORY_LEN: i64 = 200;

/// A message row as the drivers decode it, with its sender's account as it is now.
#[derive(sqlx::FromRow)]
struct MessageRow {
    id: i64,
    nick: String,
    body: String,
    created_at: i64,
    user_id: Option<String>,
    user_name: Option<String>,
    user_is_admin: Option<bool>,
}

impl From<MessageRow> for Message {
    fn from(row: MessageRow) -> Self {
        let sender = match (row.user_id, row.user_name, row.user_is_admin) {
            // Who sent it; what they may do is asked of their session, never of a message.
            (Some(id), Some(name), Some(admin)) => Some(User::new(id, name, admin, Vec::new())),
            // Sent without a login, or by an account removed since.
            _ => None,
        };
        Self {
            id: MessageId::new(row.id).expect("message ids in the database are positive"),
            nick: row.nick,
            text: row.body,
            at: row.created_at,
            sender,
        }
    }
}

macro_rules! message_columns {
    () => {
        "m.id, m.nick, m.body, m.created_at, m.user_id, u.name AS user_name, u.is_admin AS user_is_admin \
         FROM messages m LEFT JOIN users u ON u.id = m.user_id"
    };
}

/// Inserts nothing when the item does not exist (and fails on the foreign key if it is
/// deleted meanwhile); `$1` NULL is the chat.
const INSERT_MESSAGE: &str = "INSERT INTO messages (item_id, nick, body, user_id, created_at) \
     SELECT $1, $2, $3, $4, $5 WHERE $1 IS NULL OR EXISTS (SELECT 1 FROM items WHERE id = $1) \
     RETURNING id";
const SELECT_MESSAGE: &str = concat!("SELECT ", message_columns!(), " WHERE m.id = $1");
const CHAT_HISTORY: &str = concat!(
    "SELECT ",
    message_columns!(),
    " WHERE m.item_id IS NULL ORDER BY m.id DESC LIMIT $1"
);
const ITEM_EXISTS: &str = "SELECT EXISTS (SELECT 1 FROM items WHERE id = $1)";
const THREAD_HISTORY: &str = concat!(
    "SELECT ",
    message_columns!(),
    " WHERE m.item_id = $1 ORDER BY m.id DESC LIMIT $2"
);
const DELETE_MESSAGE: &str = "DELETE FROM messages WHERE id = $1 RETURNING item_id";
const WRITTEN_BY: &str = "SELECT id, item_id, nick, body, created_at FROM messages WHERE user_id = $1 ORDER BY id";

impl Store {
    /// Stores a message of the chat (`item` `None`) or of an item's thread; `None` if there is
    /// no such item. `sender` is the logged-in account that sent it, if any.
    pub async fn insert_message(
        &self,
        item: Option<ItemId>,
        nick: &str,
        text: &str,
        sender: Option<&User>,
        now: i64,
    ) -> Result<Option<Message>, StoreError> {
        // Owned: on SQLite the write runs in place.
        let args = [
            item.map(ItemId::get).into(),
            nick.to_owned().into(),
            text.to_owned().into(),
            sender.map(|user| user.id.clone()).into(),
            now.into(),
        ];
        let inserted: Result<Option<(i64,)>, StoreError> = with_pool!(
            self,
            write,
            in_place: move |connection| Ok(in_place::rows(connection, INSERT_MESSAGE, &args)?.pop()),
            |pool| Ok(pool.rows(INSERT_MESSAGE, &args).await?.pop())
        );
        match inserted {
            Ok(Some((id,))) => Ok(Some(Message {
                id: MessageId::new(id).expect("message ids in the database are positive"),
                nick: nick.to_owned(),
                text: text.to_owned(),
                at: now,
                sender: sender.cloned(),
            })),
            Ok(None) => Ok(None),
            // The item was deleted between the check and the insert.
            Err(StoreError::Conflict(_)) => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// One message, if it is still there.
    pub async fn message(&self, id: MessageId) -> Result<Option<Message>, StoreError> {
        let row: Option<MessageRow> = self.read_row(SELECT_MESSAGE, &[id.get().into()]).await?;
        Ok(row.map(Message::from))
    }

    /// The chat's latest messages, newest first.
    pub async fn chat_history(&self) -> Result<Vec<Message>, StoreError> {
        let rows: Vec<MessageRow> = self.read_rows(CHAT_HISTORY, &[HISTORY_LEN.into()]).await?;
        Ok(rows.into_iter().map(Message::from).collect())
    }

    /// The item's latest messages, newest first; `None` if there is no such item.
    pub async fn thread_history(&self, item_id: ItemId) -> Result<Option<Vec<Message>>, StoreError> {
        let (exists,): (bool,) = self.read_one(ITEM_EXISTS, &[item_id.get().into()]).await?;
        if !exists {
            return Ok(None);
        }
        let rows: Vec<MessageRow> = self
            .read_rows(THREAD_HISTORY, &[item_id.get().into(), HISTORY_LEN.into()])
            .await?;
        Ok(Some(rows.into_iter().map(Message::from).collect()))
    }

    /// Every message `user` wrote while logged in, in the chat and in threads, oldest first.
    pub async fn messages_written_by(&self, user: &str) -> Result<Vec<WrittenMessage>, StoreError> {
        let rows: Vec<(i64, Option<i64>, String, String, i64)> =
            self.read_rows(WRITTEN_BY, &[user.to_owned().into()]).await?;
        Ok(rows
            .into_iter()
            .map(|(id, item, nick, text, at)| WrittenMessage {
                id: MessageId::new(id).expect("message ids in the database are positive"),
                item: item.and_then(ItemId::new),
                nick,
                text,
                at,
            })
            .collect())
    }

    /// Deletes a message; `None` if there is none.
    pub async fn delete_message(&self, id: MessageId) -> Result<Committed<Option<DeletedMessage>>, StoreError> {
        let deleted: Option<(Option<i64>,)> = self.write_optional(DELETE_MESSAGE, &[id.get().into()]).await?;
        let deleted = deleted.map(|(item,)| DeletedMessage {
            id,
            item: item.and_then(ItemId::new),
        });
        Ok(Committed::new(
            deleted,
            deleted.map(Event::MessageDeleted).into_iter().collect(),
        ))
    }
}
