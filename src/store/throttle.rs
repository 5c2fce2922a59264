//! Counters of login attempts in fixed windows, shared by every node through the database.

use super::{Store, with_pool};

impl Store {
    /// Counts one attempt for `key` and returns `(attempts, window_start)`; a window that began
    /// at or before `window_cutoff` is over and starts afresh at `now`. Atomic, so concurrent
    /// attempts on any node are all counted.
    pub async fn count_login_attempt(
        &self,
        key: &str,
        now: i64,
        window_cutoff: i64,
    ) -> Result<(i64, i64), sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query_as(
                "INSERT INTO login_attempts (throttle_key, attempts, window_start) VALUES ($1, 1, $2) \
                 ON CONFLICT (throttle_key) DO UPDATE SET \
                   attempts = CASE WHEN login_attempts.window_start <= $3 THEN 1 ELSE login_attempts.attempts + 1 END, \
                   window_start = CASE WHEN login_attempts.window_start <= $3 THEN $2 ELSE login_attempts.window_start END \
                 RETURNING attempts, window_start",
            )
            .bind(key)
            .bind(now)
            .bind(window_cutoff)
            .fetch_one(pool)
            .await
        })
    }

    /// Takes back one counted attempt (a login that succeeded).
    pub async fn uncount_login_attempt(&self, key: &str) -> Result<(), sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query("UPDATE login_attempts SET attempts = attempts - 1 WHERE throttle_key = $1 AND attempts > 0")
                .bind(key)
                .execute(pool)
                .await
                .map(drop)
        })
    }

    pub async fn clear_login_attempts(&self, key: &str) -> Result<(), sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query("DELETE FROM login_attempts WHERE throttle_key = $1")
                .bind(key)
                .execute(pool)
                .await
                .map(drop)
        })
    }

    pub(super) async fn delete_old_login_attempts(&self, window_cutoff: i64) -> Result<(), sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query("DELETE FROM login_attempts WHERE window_start <= $1")
                .bind(window_cutoff)
                .execute(pool)
                .await
                .map(drop)
        })
    }
}
