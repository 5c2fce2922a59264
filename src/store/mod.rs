//! Persistent state behind one type, on SQLite (embedded, the default) or PostgreSQL.
//!
//! Every query is written once in SQL both databases accept (`$1` parameters, `RETURNING`,
//! `ON CONFLICT`) and run through [`with_pool!`], which expands it once per backend, so each
//! arm is checked against its own driver and the same integration suite exercises both.

mod account_mail;
mod backup;
mod bins;
mod categories;
mod claim_messages;
mod claims;
mod custody;
mod derived;
mod erasure;
mod error;
mod imports;
mod in_place;
mod items;
mod legacy;
mod listing;
mod mail_choices;
mod meanings;
mod messages;
mod notifications;
mod outbox;
mod places;
mod point_reads;
mod push;
mod retention;
mod sessions;
mod signup;
mod sites;
mod sso;
mod statement;
mod stats;
mod throttle;
mod transfers;
mod users;
mod visitors;
mod whole_list;
mod writer;

use std::{
    str::FromStr,
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use sqlx::{
    Connection, PgConnection, PgPool, SqliteConnection, SqlitePool,
    postgres::{PgConnectOptions, PgPoolOptions},
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};

use self::{point_reads::PointReads, writer::Writer};
pub use account_mail::{NewLink, OutgoingAccountMail};
pub use bins::BinRefusal;
pub use categories::CategoryRefusal;
pub use claims::{ClaimFilter, Pickup};
pub use error::StoreError;
pub use imports::{ImportProgress, ImportStep};
pub use items::{ChangeRecord, Thumbnail};
pub use listing::{Count, EXACT_COUNT_UP_TO};
pub use meanings::{Unencoded, Written};
pub use outbox::OutgoingMail;
pub use push::{DEVICES_PER_ACCOUNT, OutgoingPush};
pub use retention::Forgotten;
pub use sessions::ENDED_SESSIONS_KEPT_MS;
pub use signup::{EmailState, ImportOutcome, SignupOutcome, Verified};
pub use sites::SiteRefusal;
pub use sso::SsoOutcome;
pub use transfers::TransferRefusal;
pub use users::{AccountChange, LoginRecord, NO_PASSWORD, PasswordSet};
pub use visitors::VisitorAccount;

/// How long a request waits for a database connection before it is answered 503.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);
/// How often a SQLite server looks for items changed by another process on its file (another
/// node, the command-line tools): its own changes it knows at once.
const OTHER_WRITERS_POLL: Duration = Duration::from_millis(20);

#[derive(Clone)]
pub struct Store {
    db: Db,
    /// Which database this is, for people: "the SQLite database /srv/lostfound.db".
    name: Arc<str>,
    /// The last write probe: when, and whether it succeeded.
    probed: Arc<tokio::sync::Mutex<Option<(Instant, bool)>>>,
    /// Whether notifications are also queued to be emailed (only while email is configured,
    /// or the queue would fill up with mail nobody sends).
    mail_outbox: bool,
    /// Whether mail with links about an account (to verify a new address) is queued: email
    /// is configured, and the public URL the links point to is known.
    account_links: bool,
    /// Whether notifications are also queued to be pushed to devices (while Web Push is on).
    push_outbox: bool,
    /// Statements run that search (see [`Store::searches`]).
    searches: Arc<std::sync::atomic::AtomicU64>,
    /// The sentence encoder's model whose meanings are read (see `meaning`), once known.
    meaning_model: Option<&'static str>,
}

/// Statement journals (what undoes one write's savepoint, or one statement) stay in memory,
/// however large (-1): a journal holds each page its savepoint changed once, so it is bounded
/// by one write's pages. SQLite's default moves one to a temporary file past 64 KiB, which
/// sends the journals of a group commit's writes (a report touches its index and search pages)
/// to a file for the rest of the transaction: a `pwrite` for each page, 7 % of a create's CPU.
/// (A limit of 1 or 8 MiB made `items import` fail with "database or disk is full" when a
/// journal reached it; never moving one does not.)
const STATEMENT_JOURNAL_IN_MEMORY: std::ffi::c_int = -1;

/// SQLite keeps no count of the memory it allocates (its default counts each allocation
/// under a global mutex, for `sqlite3_memory_used`, which we never ask): without it a create
/// took 0.86 of the CPU, an import less time (docs/performance.md).
const MEMORY_STATUS: std::ffi::c_int = 0;

/// Sets [`STATEMENT_JOURNAL_IN_MEMORY`] and [`MEMORY_STATUS`], which SQLite takes only before
/// its first connection of the process (later it refuses, harmlessly: a process that opened
/// SQLite before keeps the defaults).
fn configure_sqlite() {
    static SET: std::sync::Once = std::sync::Once::new();
    SET.call_once(|| {
        for (option, value) in [
            (rusqlite::ffi::SQLITE_CONFIG_STMTJRNL_SPILL, STATEMENT_JOURNAL_IN_MEMORY),
            (rusqlite::ffi::SQLITE_CONFIG_MEMSTATUS, MEMORY_STATUS),
        ] {
            // SAFETY: sqlite3_config with an int argument, before SQLite is initialized
            // (checked by SQLite itself: SQLITE_MISUSE otherwise).
            let code = unsafe { rusqlite::ffi::sqlite3_config(option, value) };
            if code != rusqlite::ffi::SQLITE_OK {
                tracing::debug!(option, code, "SQLite keeps its default");
            }
        }
    });
}

/// A write probe is answered from the last one for this long (each costs a commit).
const PROBE_REUSE: Duration = Duration::from_secs(1);
const PROBE_WRITE: &str =
    "INSERT INTO readiness_probe (id, checked_at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET checked_at = $1";

#[derive(Clone)]
enum Db {
    /// One writer connection (SQLite serialises writes anyway; a single writer never waits
    /// on the busy handler) and a pool of query-only readers, which WAL lets run alongside.
    Sqlite {
        read: SqlitePool,
        /// The one writer connection, whose writes share commits (see `writer`); it knows
        /// the items' version, asked on every read that may be answered from the cache.
        writer: Arc<Writer>,
        /// Reads by key, run in place (see `point_reads`).
        point: Arc<PointReads>,
        /// The database file, written back from its log at close.
        path: std::path::PathBuf,
    },
    Postgres(PgPool),
}

/// Runs a body on whichever backend is configured, with `pool` bound to what it reads or
/// writes through:
///
/// ```ignore
/// with_pool!(self, read, |pool| sqlx::query("SELECT 1").execute(pool).await)
/// with_pool!(self, write, |pool| {
///     sqlx::query("UPDATE …").execute(&mut *pool).await?;
///     sqlx::query("INSERT …").execute(&mut *pool).await
/// })
/// ```
///
/// The body is written like a closure (so rustfmt formats it) and compiled once per backend,
/// each copy checked against its own driver. It runs as an `async` block: `?` and `return`
/// leave the body, never the calling method. It yields `Result<T, sqlx::Error>`; the macro
/// yields `Result<T, StoreError>`.
///
/// - `read`: `pool` is a pool of readers (`&SqlitePool`, `&PgPool`).
/// - `write`: `pool` is a connection (`&mut SqliteConnection`, `&mut PgConnection`; write
///   `&mut *pool` to run a statement, or pass it to a helper taking a [`statement::Tx`]) in a
///   transaction of the body's own — on SQLite a savepoint of the shared group-commit
///   transaction. The macro returns once the body's changes are committed; a body that fails
///   has them undone.
/// - `write, in_place: move |connection| …, |pool| …`: the same, but on SQLite the first body
///   runs instead, in place (see `in_place`): a plain closure on a `&rusqlite::Connection`,
///   owning what it uses, yielding `rusqlite::Result<T>`. For the writes that come in floods.
macro_rules! with_pool {
    ($store:expr, read, |$pool:ident| $body:expr) => {{
        let result: ::std::result::Result<_, ::sqlx::Error> = match &$store.db {
            $crate::store::Db::Sqlite { read: $pool, .. } => async { $body }.await,
            $crate::store::Db::Postgres($pool) => async { $body }.await,
        };
        result.map_err($crate::store::StoreError::from)
    }};
    ($store:expr, write, |$pool:ident| $body:expr) => {
        async {
            match &$store.db {
                $crate::store::Db::Sqlite { writer, .. } => {
                    let mut lent = writer.lend().await?;
                    let $pool = lent.connection();
                    let result: ::std::result::Result<_, ::sqlx::Error> = async { $body }.await;
                    lent.finish(result).await
                }
                $crate::store::Db::Postgres(pool) => with_pool!(@postgres pool, |$pool| $body),
            }
        }
        .await
    };
    ($store:expr, write, in_place: move |$connection:ident| $in_place:expr, |$pool:ident| $body:expr) => {
        async {
            match &$store.db {
                $crate::store::Db::Sqlite { writer, .. } => {
                    writer
                        .run(move |$connection: &::rusqlite::Connection| $in_place)
                        .await
                }
                $crate::store::Db::Postgres(pool) => with_pool!(@postgres pool, |$pool| $body),
            }
        }
        .await
    };
    (@postgres $pg:ident, |$pool:ident| $body:expr) => {{
        let mut transaction = $pg.begin().await?;
        let $pool = &mut *transaction;
        let result: ::std::result::Result<_, ::sqlx::Error> = async { $body }.await;
        let value = result?;
        transaction.commit().await?;
        ::std::result::Result::<_, $crate::store::StoreError>::Ok(value)
    }};
}
pub(crate) use with_pool;

/// Whether opening a SQLite database may create it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Create {
    IfMissing,
    /// Commands that only read or change existing data must not leave an empty database
    /// behind (say, when run from the wrong directory).
    Never,
}

impl Store {
    /// Opens the database named by `url` (`sqlite:` or `postgres:`), creating a SQLite file
    /// when `create` allows, and applies the embedded migrations. Errors name the database
    /// and the real cause.
    pub async fn connect(url: &str, create: Create) -> anyhow::Result<Self> {
        let (db, name) = if url.starts_with("sqlite:") {
            Self::open_sqlite(url, create).await?
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Self::open_postgres(url).await?
        } else {
            bail!("DATABASE_URL must start with sqlite: or postgres:, not {url:?}");
        };
        Ok(Self {
            db,
            name: name.into(),
            probed: Arc::default(),
            mail_outbox: false,
            push_outbox: false,
            account_links: false,
            searches: Arc::default(),
            meaning_model: None,
        })
    }

    /// Each connection pool's name, size and idle connections, for the metrics.
    pub fn pool_use(&self) -> Vec<(&'static str, u32, usize)> {
        match &self.db {
            Db::Sqlite { read, .. } => vec![("read", read.size(), read.num_idle())],
            Db::Postgres(pool) => vec![("postgres", pool.size(), pool.num_idle())],
        }
    }

    /// Which database this is, for people: "the SQLite database /srv/lostfound.db".
    pub fn name(&self) -> &str {
        &self.name
    }

    async fn open_sqlite(url: &str, create: Create) -> anyhow::Result<(Db, String)> {
        configure_sqlite();
        let options = SqliteConnectOptions::from_str(url)
            .with_context(|| format!("invalid SQLite DATABASE_URL {url:?}"))?
            .create_if_missing(create == Create::IfMissing)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: a commit is on disk before the answer is sent, even on power loss.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(ACQUIRE_TIMEOUT);
        let path = options.get_filename().to_owned();
        // SQLite says only "unable to open database file"; the OS says why.
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(create == Create::IfMissing)
            .truncate(false)
            .open(&path)
            .map_err(|err| match err.kind() {
                std::io::ErrorKind::NotFound if create == Create::Never => anyhow::anyhow!(
                    "there is no database at {} (set DATABASE_URL to the server's database)",
                    path.display()
                ),
                _ => anyhow::Error::new(err).context(format!("cannot open the SQLite database {}", path.display())),
            })?;
        // 64 MiB of pages for the writer (SQLite's default is 2): a write updates a dozen of
        // `items`' indexes, and at 100,000 items their pages no longer fit in 2 MiB — each was
        // read again from the file (`lostfound items import` of 100,000: 18.6 s with 2 MiB,
        // 16.4–17.5 with 32, 13.9–14.9 with 64; docs/performance.md).
        let mut write = SqliteConnection::connect_with(&options.clone().pragma("cache_size", "-65536"))
            .await
            .with_context(|| format!("cannot open the SQLite database {}", path.display()))?;
        sqlx::migrate!("migrations/sqlite")
            .run(&mut write)
            .await
            .with_context(|| format!("cannot migrate the SQLite database {}", path.display()))?;
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            // 16 MiB of pages each (SQLite's default is 2): a search reads hundreds of rows by
            // id, and the pages they share stay in memory instead of being read again from the
            // file (searches 12-35 % less CPU at 100,000 items, docs/performance.md).
            .connect_with(options.pragma("query_only", "ON").pragma("cache_size", "-16384"))
            .await
            .with_context(|| format!("cannot open the SQLite database {} for reading", path.display()))?;
        let writer = Writer::start(write, ACQUIRE_TIMEOUT)
            .await
            .with_context(|| format!("cannot read the SQLite database {}", path.display()))?;
        let others = rusqlite::Connection::open_with_flags(
            &path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .with_context(|| format!("cannot open the SQLite database {} for reading", path.display()))?;
        others.busy_timeout(ACQUIRE_TIMEOUT)?;
        writer.follow_others(others, OTHER_WRITERS_POLL);
        let point = Arc::new(
            PointReads::open(&path, ACQUIRE_TIMEOUT)
                .with_context(|| format!("cannot open the SQLite database {} for reading", path.display()))?,
        );
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        let name = format!("the SQLite database {}", path.display());
        Ok((
            Db::Sqlite {
                read,
                writer,
                point,
                path,
            },
            name,
        ))
    }

    async fn open_postgres(url: &str) -> anyhow::Result<(Db, String)> {
        let options = PgConnectOptions::from_str(url).context("invalid PostgreSQL DATABASE_URL")?;
        // Never the URL itself: it may carry a password.
        let server = format!(
            "{}:{}/{}",
            options.get_host(),
            options.get_port(),
            options.get_database().unwrap_or("")
        );
        // One connection first: a pool that cannot connect reports only that it timed out.
        PgConnection::connect_with(&options)
            .await
            .with_context(|| format!("cannot connect to PostgreSQL at {server}"))?
            .close()
            .await
            .ok();
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await
            .with_context(|| format!("cannot connect to PostgreSQL at {server}"))?;
        // Concurrent nodes starting together are serialised by sqlx's advisory lock.
        sqlx::migrate!("migrations/postgres")
            .run(&pool)
            .await
            .with_context(|| format!("cannot migrate the PostgreSQL database at {server}"))?;
        Ok((Db::Postgres(pool), format!("the PostgreSQL database {server}")))
    }

    /// Whether the database takes a write: a database that can be read but not written (a
    /// read-only file, a full disk) is not. Probed at most once a second.
    pub async fn writable(&self) -> bool {
        let mut probed = self.probed.lock().await;
        if let Some((at, writable)) = *probed
            && at.elapsed() < PROBE_REUSE
        {
            return writable;
        }
        let result = self.probe_write(crate::time::now_ms()).await;
        if let Err(err) = &result {
            tracing::warn!(
                error = crate::causes::describe(err).join(": "),
                "the database refuses writes"
            );
        }
        *probed = Some((Instant::now(), result.is_ok()));
        result.is_ok()
    }

    /// Commits a write to the probe row.
    async fn probe_write(&self, now: i64) -> Result<(), StoreError> {
        self.write(PROBE_WRITE, &[now.into()]).await.map(drop)
    }

    /// Forgets what has had its day: sessions recorded as ended, links expired, single
    /// sign-ons that never came back, account mail sent a day ago, sign-ups not verified
    /// within a week (their ids and addresses are free again).
    pub async fn forget_expired(&self, now: i64) -> Result<(), StoreError> {
        const DAY_MS: i64 = 24 * 3_600_000;
        self.forget_ended_sessions(now - ENDED_SESSIONS_KEPT_MS).await?;
        self.forget_expired_links(now).await?;
        self.forget_old_sso_logins(now).await?;
        self.forget_sent_account_mail(now - DAY_MS).await?;
        self.forget_unverified_signups(now - 7 * DAY_MS).await
    }

    /// Waits for in-flight queries and closes every connection (SQLite checkpoints its WAL).
    pub async fn close(&self) {
        match &self.db {
            Db::Sqlite {
                read,
                writer,
                point,
                path,
            } => {
                point.close();
                read.close().await;
                writer.close().await;
                // SQLite writes the log back at the last close of the file, which is not this
                // one while another process (a node, the command line) has it open: then the
                // file alone would lack the latest commits (they would be in `-wal`). A
                // connection of its own writes them back either way.
                let checkpoint = rusqlite::Connection::open(path)
                    .and_then(|conn| conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);"));
                if let Err(err) = checkpoint {
                    tracing::warn!(error = %err, "could not write the SQLite log back into the database at close");
                }
            }
            Db::Postgres(pool) => pool.close().await,
        }
    }
}
