//! Counters of login attempts in fixed windows, shared by every node through the database,
//! and the devices that have logged in before.

use super::{Store, StoreError};

/// Counts one attempt: a window that began at or before `$3` is over and starts afresh at `$2`.
const COUNT_ATTEMPT: &str = "INSERT INTO login_attempts (throttle_key, attempts, window_start, account) \
     VALUES ($1, 1, $2, $4) \
     ON CONFLICT (throttle_key) DO UPDATE SET \
       attempts = CASE WHEN login_attempts.window_start <= $3 THEN 1 ELSE login_attempts.attempts + 1 END, \
       window_start = CASE WHEN login_attempts.window_start <= $3 THEN $2 ELSE login_attempts.window_start END \
     RETURNING attempts, window_start";
/// Takes the next free turn of a key: `$3` after the last one taken, and not before now.
const TAKE_TURN: &str = "UPDATE login_attempts \
     SET not_before = CASE WHEN not_before > $2 THEN not_before ELSE $2 END + $3 \
     WHERE throttle_key = $1 RETURNING not_before - $3";
const UNCOUNT: &str = "UPDATE login_attempts SET attempts = attempts - 1 WHERE throttle_key = $1 AND attempts > 0";
const DEVICE_OF: &str = "UPDATE trusted_devices SET last_used_at = $3 WHERE token_hash = $1 AND user_id = $2";
const INSERT_DEVICE: &str =
    "INSERT INTO trusted_devices (token_hash, user_id, created_at, last_used_at) VALUES ($1, $2, $3, $3)";

impl Store {
    /// Counts one attempt for `key` (of `account`, if it belongs to one) and returns
    /// `(attempts, window_start)`. Atomic, so concurrent attempts on any node all count.
    pub async fn count_login_attempt(
        &self,
        key: &str,
        account: Option<&str>,
        now: i64,
        window_cutoff: i64,
    ) -> Result<(i64, i64), StoreError> {
        let args = [key.into(), now.into(), window_cutoff.into(), account.into()];
        self.write_row(COUNT_ATTEMPT, &args).await
    }

    /// Takes the next turn of `key`, `spacing` milliseconds after the last one taken and not
    /// before `now`; returns when the turn begins. The key must have been counted.
    pub async fn take_login_turn(&self, key: &str, now: i64, spacing: i64) -> Result<i64, StoreError> {
        let (turn,) = self
            .write_row(TAKE_TURN, &[key.into(), now.into(), spacing.into()])
            .await?;
        Ok(turn)
    }

    /// Takes back one counted attempt (a login that succeeded).
    pub async fn uncount_login_attempt(&self, key: &str) -> Result<(), StoreError> {
        self.write(UNCOUNT, &[key.into()]).await.map(drop)
    }

    pub async fn clear_login_attempts(&self, key: &str) -> Result<(), StoreError> {
        self.write("DELETE FROM login_attempts WHERE throttle_key = $1", &[key.into()])
            .await
            .map(drop)
    }

    /// Forgets every count kept for `account`; returns how many there were.
    pub async fn clear_account_attempts(&self, account: &str) -> Result<u64, StoreError> {
        self.write("DELETE FROM login_attempts WHERE account = $1", &[account.into()])
            .await
    }

    /// The accounts (as counted: their keys) with a window that began after `since` and
    /// counted at least `attempts` failed logins.
    pub async fn locked_account_keys(&self, since: i64, attempts: i64) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = self
            .read_rows(
                "SELECT DISTINCT account FROM login_attempts \
                 WHERE account IS NOT NULL AND window_start > $1 AND attempts >= $2",
                &[since.into(), attempts.into()],
            )
            .await?;
        Ok(rows.into_iter().map(|(key,)| key).collect())
    }

    /// Deletes the windows that began at or before `window_cutoff`.
    pub async fn delete_old_login_attempts(&self, window_cutoff: i64) -> Result<(), StoreError> {
        self.write(
            "DELETE FROM login_attempts WHERE window_start <= $1 AND not_before <= $1",
            &[window_cutoff.into()],
        )
        .await
        .map(drop)
    }

    /// Whether the device is one `user_id` logged in from; marks it used.
    pub async fn use_trusted_device(&self, token_hash: &str, user_id: &str, now: i64) -> Result<bool, StoreError> {
        let args = [token_hash.into(), user_id.into(), now.into()];
        Ok(self.write(DEVICE_OF, &args).await? > 0)
    }

    pub async fn insert_trusted_device(&self, token_hash: &str, user_id: &str, now: i64) -> Result<(), StoreError> {
        let args = [token_hash.into(), user_id.into(), now.into()];
        self.write(INSERT_DEVICE, &args).await.map(drop)
    }

    /// Forgets devices unused since `cutoff`.
    pub async fn delete_unused_devices(&self, cutoff: i64) -> Result<(), StoreError> {
        self.write("DELETE FROM trusted_devices WHERE last_used_at <= $1", &[cutoff.into()])
            .await
            .map(drop)
    }
}
