//! Login sessions, keyed by the SHA-256 of the session id.

use super::{Store, User, with_pool};

impl Store {
    pub async fn insert_session(&self, token_hash: &str, user_id: &str, now: i64) -> Result<(), sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)")
                .bind(token_hash)
                .bind(user_id)
                .bind(now)
                .execute(pool)
                .await
                .map(drop)
        })
    }

    /// The session's user and when it was last used, unless it has been idle since `idle_cutoff`.
    pub async fn session_user(&self, token_hash: &str, idle_cutoff: i64) -> Result<Option<(User, i64)>, sqlx::Error> {
        with_pool!(self, read, |pool| {
            sqlx::query_as::<_, (String, String, bool, i64)>(
                "SELECT u.id, u.name, u.is_admin, s.last_seen_at FROM sessions s \
                 JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.last_seen_at > $2",
            )
            .bind(token_hash)
            .bind(idle_cutoff)
            .fetch_optional(pool)
            .await
            .map(|row| row.map(|(id, name, is_admin, seen)| (User { id, name, is_admin }, seen)))
        })
    }

    pub async fn touch_session(&self, token_hash: &str, now: i64) -> Result<(), sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1")
                .bind(token_hash)
                .bind(now)
                .execute(pool)
                .await
                .map(drop)
        })
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<(), sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .execute(pool)
                .await
                .map(drop)
        })
    }

    pub(super) async fn delete_idle_sessions(&self, idle_cutoff: i64) -> Result<(), sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query("DELETE FROM sessions WHERE last_seen_at <= $1")
                .bind(idle_cutoff)
                .execute(pool)
                .await
                .map(drop)
        })
    }
}
