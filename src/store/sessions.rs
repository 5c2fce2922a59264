//! Login sessions, keyed by the SHA-256 of the session id.

use super::{Store, StoreError, users::UserRow, with_pool};
use crate::domain::User;

const INSERT_SESSION: &str =
    "INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)";
const SESSION_USER: &str = "SELECT u.id, u.name, u.is_admin, s.last_seen_at FROM sessions s \
     JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.last_seen_at > $2 AND NOT u.disabled";

#[derive(sqlx::FromRow)]
struct SessionUserRow {
    #[sqlx(flatten)]
    user: UserRow,
    last_seen_at: i64,
}

impl Store {
    pub async fn insert_session(&self, token_hash: &str, user_id: &str, now: i64) -> Result<(), StoreError> {
        with_pool!(self, write, pool => {
            sqlx::query(INSERT_SESSION).bind(token_hash).bind(user_id).bind(now).execute(&mut *pool).await.map(drop)
        })
    }

    /// The session's user and when it was last used, unless it has been idle since `idle_cutoff`.
    pub async fn session_user(&self, token_hash: &str, idle_cutoff: i64) -> Result<Option<(User, i64)>, StoreError> {
        let row: Option<SessionUserRow> = with_pool!(self, read, pool => {
            sqlx::query_as(SESSION_USER).bind(token_hash).bind(idle_cutoff).fetch_optional(pool).await
        })?;
        Ok(row.map(|row| (row.user.into(), row.last_seen_at)))
    }

    pub async fn touch_session(&self, token_hash: &str, now: i64) -> Result<(), StoreError> {
        with_pool!(self, write, pool => {
            sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1")
                .bind(token_hash)
                .bind(now)
                .execute(&mut *pool)
                .await
                .map(drop)
        })
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        with_pool!(self, write, pool => {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(token_hash).execute(&mut *pool).await.map(drop)
        })
    }

    /// Deletes the sessions last used at or before `idle_cutoff`.
    pub async fn delete_idle_sessions(&self, idle_cutoff: i64) -> Result<(), StoreError> {
        with_pool!(self, write, pool => {
            sqlx::query("DELETE FROM sessions WHERE last_seen_at <= $1").bind(idle_cutoff).execute(&mut *pool).await.map(drop)
        })
    }
}
