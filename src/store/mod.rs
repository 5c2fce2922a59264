//! Persistent state behind one type, on SQLite (embedded, the default) or PostgreSQL.
//!
//! Every query is written once in SQL both databases accept (`$1` parameters, `RETURNING`,
//! `ON CONFLICT`) and run through [`with_pool!`], which expands it once per backend, so each
//! arm is checked against its own driver and the same integration suite exercises both.

mod items;
mod messages;
mod sessions;
mod throttle;
mod users;

use std::{str::FromStr, time::Duration};

use anyhow::{Context, bail};
use sqlx::{
    PgPool, SqlitePool,
    postgres::PgPoolOptions,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};

pub use items::Item;
pub use messages::Message;
pub use users::{User, UserRecord};

/// How long a request waits for a database connection before it is answered 503.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct Store {
    db: Db,
}

#[derive(Clone)]
enum Db {
    /// One writer connection (SQLite serialises writes anyway; a single writer never waits
    /// on the busy handler) and a pool of query-only readers, which WAL lets run alongside.
    Sqlite {
        read: SqlitePool,
        write: SqlitePool,
    },
    Postgres(PgPool),
}

/// Runs `$body` with `$pool` bound to the reading or writing pool of whichever backend is
/// configured; the body is compiled once per backend.
macro_rules! with_pool {
    ($store:expr, read, |$pool:ident| $body:expr) => {
        match &$store.db {
            $crate::store::Db::Sqlite { read: $pool, .. } => $body,
            $crate::store::Db::Postgres($pool) => $body,
        }
    };
    ($store:expr, write, |$pool:ident| $body:expr) => {
        match &$store.db {
            $crate::store::Db::Sqlite { write: $pool, .. } => $body,
            $crate::store::Db::Postgres($pool) => $body,
        }
    };
}
pub(crate) use with_pool;

impl Store {
    /// Opens the database named by `url` (`sqlite:` or `postgres:`), creating a SQLite file
    /// if needed, and applies the embedded migrations.
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        let db = if url.starts_with("sqlite:") {
            Self::open_sqlite(url).await?
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Self::open_postgres(url).await?
        } else {
            bail!("DATABASE_URL must start with sqlite: or postgres:");
        };
        Ok(Self { db })
    }

    async fn open_sqlite(url: &str) -> anyhow::Result<Db> {
        let options = SqliteConnectOptions::from_str(url)
            .context("invalid SQLite DATABASE_URL")?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: a commit is on disk before the answer is sent, even on power loss.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(ACQUIRE_TIMEOUT);
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options.clone())
            .await
            .context("cannot open the SQLite database")?;
        sqlx::migrate!("migrations/sqlite")
            .run(&write)
            .await
            .context("cannot migrate the SQLite database")?;
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options.pragma("query_only", "ON"))
            .await
            .context("cannot open the SQLite database for reading")?;
        Ok(Db::Sqlite { read, write })
    }

    async fn open_postgres(url: &str) -> anyhow::Result<Db> {
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect(url)
            .await
            .context("cannot connect to PostgreSQL")?;
        // Concurrent nodes starting together are serialised by sqlx's advisory lock.
        sqlx::migrate!("migrations/postgres")
            .run(&pool)
            .await
            .context("cannot migrate the PostgreSQL database")?;
        Ok(Db::Postgres(pool))
    }

    /// Whether the database answers a trivial query.
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        with_pool!(self, read, |pool| sqlx::query("SELECT 1").execute(pool).await.map(drop))
    }

    /// Deletes sessions idle since `session_cutoff` and throttle windows that began before
    /// `throttle_cutoff`.
    pub async fn purge_expired(&self, session_cutoff: i64, throttle_cutoff: i64) -> Result<(), sqlx::Error> {
        self.delete_idle_sessions(session_cutoff).await?;
        self.delete_old_login_attempts(throttle_cutoff).await
    }

    /// Waits for in-flight queries and closes every connection (SQLite checkpoints its WAL).
    pub async fn close(&self) {
        match &self.db {
            Db::Sqlite { read, write } => {
                read.close().await;
                write.close().await;
            }
            Db::Postgres(pool) => pool.close().await,
        }
    }
}
