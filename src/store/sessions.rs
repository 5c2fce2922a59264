//! Login sessions, keyed by the SHA-256 of the session id, and the log of those that ended,
//! which every node reads to turn the sockets of ended sessions anonymous (the command line,
//! another node or the purge may have ended them).

use super::{
    Store, StoreError,
    statement::Tx,
    users::{UserRow, user_columns},
    with_pool,
};
use crate::domain::User;

/// Sessions recorded as ended are forgotten after this long: every node has read them by
/// then (each reads the last two minutes every second).
pub const ENDED_SESSIONS_KEPT_MS: i64 = 10 * 60 * 1000;

const INSERT_SESSION: &str =
    "INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)";
const SESSION_USER: &str = concat!(
    "SELECT ",
    user_columns!("u"),
    ", s.last_seen_at FROM sessions s \
     JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.last_seen_at > $2 AND NOT u.disabled"
);
const RECORD_ENDED: &str =
    "INSERT INTO ended_sessions (token_hash, ended_at) SELECT token_hash, $2 FROM sessions WHERE token_hash = $1";
const RECORD_ENDED_IDLE: &str =
    "INSERT INTO ended_sessions (token_hash, ended_at) SELECT token_hash, $2 FROM sessions WHERE last_seen_at <= $1";
const ENDED_SINCE: &str = "SELECT token_hash FROM ended_sessions WHERE ended_at > $1";

#[derive(sqlx::FromRow)]
struct SessionUserRow {
    #[sqlx(flatten)]
    user: UserRow,
    last_seen_at: i64,
}

/// [`SESSION_USER`]'s columns, as rusqlite reads them (a point read).
impl TryFrom<&rusqlite::Row<'_>> for SessionUserRow {
    type Error = rusqlite::Error;

    fn try_from(row: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(Self {
            user: UserRow::try_from(row)?,
            last_seen_at: row.get(4)?,
        })
    }
}

impl Store {
    pub async fn insert_session(&self, token_hash: &str, user_id: &str, now: i64) -> Result<(), StoreError> {
        let args = [token_hash.into(), user_id.into(), now.into()];
        self.write(INSERT_SESSION, &args).await.map(drop)
    }

    /// The session's user and when it was last used, unless it has been idle since `idle_cutoff`.
    pub async fn session_user(&self, token_hash: &str, idle_cutoff: i64) -> Result<Option<(User, i64)>, StoreError> {
        let row: Option<SessionUserRow> = self
            .point_row(SESSION_USER, &[token_hash.into(), idle_cutoff.into()])
            .await?;
        Ok(row.map(|row| (row.user.into(), row.last_seen_at)))
    }

    pub async fn touch_session(&self, token_hash: &str, now: i64) -> Result<(), StoreError> {
        let args = [token_hash.into(), now.into()];
        self.write("UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1", &args)
            .await
            .map(drop)
    }

    /// Ends one session (a logout, a login replacing it).
    pub async fn delete_session(&self, token_hash: &str, now: i64) -> Result<(), StoreError> {
        with_pool!(self, write, |pool| {
            pool.run(RECORD_ENDED, &[token_hash.into(), now.into()]).await?;
            pool.run("DELETE FROM sessions WHERE token_hash = $1", &[token_hash.into()])
                .await
        })
        .map(drop)
    }

    /// Ends the sessions last used at or before `idle_cutoff`.
    pub async fn delete_idle_sessions(&self, idle_cutoff: i64, now: i64) -> Result<(), StoreError> {
        with_pool!(self, write, |pool| {
            pool.run(RECORD_ENDED_IDLE, &[idle_cutoff.into(), now.into()]).await?;
            pool.run("DELETE FROM sessions WHERE last_seen_at <= $1", &[idle_cutoff.into()])
                .await
        })
        .map(drop)
    }

    /// The sessions (their hashes) recorded as ended after `since`, by any process.
    pub async fn sessions_ended_since(&self, since: i64) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = self.read_rows(ENDED_SINCE, &[since.into()]).await?;
        Ok(rows.into_iter().map(|(hash,)| hash).collect())
    }

    /// Forgets the sessions that ended at or before `cutoff`: every node has read them.
    pub(super) async fn forget_ended_sessions(&self, cutoff: i64) -> Result<(), StoreError> {
        self.write("DELETE FROM ended_sessions WHERE ended_at <= $1", &[cutoff.into()])
            .await
            .map(drop)
    }
}
