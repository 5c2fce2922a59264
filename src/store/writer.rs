//! Group commit on SQLite: concurrent writes share one transaction and one fsync.
//!
//! SQLite has a single writer; with `synchronous=FULL` every commit waits for the disk, and a
//! commit per request makes the disk the limit. Here the one writer connection stays in a
//! transaction that writes join: each runs in a savepoint of its own (released when it
//! succeeds, rolled back when it fails or leaves early, so one write's failure never touches
//! another's), then waits for the commit. A committer task commits whenever writes are
//! waiting; writes that arrive while a commit is on its way queue for the connection and go
//! into the next one, all acknowledged by its single fsync. Nothing is acknowledged before the
//! commit that holds it; when a commit (or the transaction) fails, every write in it is told.

use std::{
    sync::{
        Arc,
        atomic::{AtomicI64, Ordering},
    },
    time::Duration,
};

use sqlx::{Connection, Executor, SqliteConnection};
use tokio::sync::{Mutex, MutexGuard, Notify, oneshot};

use super::{StoreError, items::LIST_VERSION};

/// The outcome of a commit, shared by every write in it.
type Committed = Result<(), Arc<sqlx::Error>>;

pub struct Writer {
    state: Mutex<State>,
    /// Rung when writes wait for a commit, or a write left its savepoint behind.
    commit_wanted: Notify,
    /// How long a write waits for the connection before it gives up (503).
    patience: Duration,
    /// The items' list version as last committed: by this connection, at once, and by other
    /// processes on the same file (another node, the command-line tools) as polled
    /// (`follow_others`). Readers ask it without a query.
    version: Arc<AtomicI64>,
    /// The read-only connection that follows other processes' commits, until the close.
    follower: Arc<std::sync::Mutex<Option<rusqlite::Connection>>>,
}

struct State {
    connection: SqliteConnection,
    /// Set after each commit to the version it committed.
    version: Arc<AtomicI64>,
    /// The shared transaction is open.
    open: bool,
    /// A write's savepoint is open with no write using it: to be rolled back.
    abandoned: bool,
    /// A failed transaction may be left open: to be rolled back before the next begins.
    pending_rollback: bool,
    /// Writes done in the open transaction, waiting for its commit.
    waiting: Vec<oneshot::Sender<Committed>>,
    /// The store is closing.
    closed: bool,
}

/// The writer connection, lent to one write, inside the shared transaction and a savepoint
/// of the write's own.
pub struct Lent<'w> {
    state: MutexGuard<'w, State>,
    writer: &'w Writer,
}

impl Writer {
    /// Takes the connection (already migrated) and starts its committer; a write waits at
    /// most `patience` for the connection.
    pub async fn start(mut connection: SqliteConnection, patience: Duration) -> Result<Arc<Self>, sqlx::Error> {
        let version = Arc::new(AtomicI64::new(
            sqlx::query_scalar(LIST_VERSION).fetch_one(&mut connection).await?,
        ));
        let writer = Arc::new(Self {
            state: Mutex::new(State {
                connection,
                version: Arc::clone(&version),
                open: false,
                abandoned: false,
                pending_rollback: false,
                waiting: Vec::new(),
                closed: false,
            }),
            commit_wanted: Notify::new(),
            patience,
            version,
            follower: Arc::default(),
        });
        tokio::spawn(commit_when_wanted(Arc::clone(&writer)));
        Ok(writer)
    }

    /// The items' list version as last committed.
    pub fn list_version(&self) -> i64 {
        self.version.load(Ordering::Acquire)
    }

    /// Reads the version every `every` on `connection` (read-only, of the same file), for
    /// what other processes commit; stops once the writer is gone.
    pub fn follow_others(&self, connection: rusqlite::Connection, every: Duration) {
        let version = Arc::downgrade(&self.version);
        *lock(&self.follower) = Some(connection);
        let follower = Arc::clone(&self.follower);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Some(version) = version.upgrade() else { return };
                let connection = lock(&follower);
                let Some(connection) = connection.as_ref() else { return };
                // A tiny query, run in place: no hand-off to a driver thread.
                let read = connection
                    .prepare_cached(LIST_VERSION)
                    .and_then(|mut statement| statement.query_row([], |row| row.get(0)));
                match read {
                    Ok(committed) => {
                        version.fetch_max(committed, Ordering::AcqRel);
                    }
                    Err(err) => tracing::warn!(error = %err, "cannot read the items' version"),
                }
            }
        });
    }

    /// Lends the connection to one write: in the shared transaction (begun if need be), in a
    /// savepoint of its own.
    pub async fn lend(&self) -> Result<Lent<'_>, StoreError> {
        let mut state = tokio::time::timeout(self.patience, self.state.lock())
            .await
            .map_err(|_| sqlx::Error::PoolTimedOut)?;
        if state.closed {
            return Err(sqlx::Error::PoolClosed.into());
        }
        state.roll_back_abandoned().await.map_err(StoreError::from_shared)?;
        if state.pending_rollback {
            // Refused, harmlessly, when SQLite rolled it back already.
            let _ = state.connection.execute("ROLLBACK").await;
            state.pending_rollback = false;
        }
        if !state.open {
            // IMMEDIATE: take the write lock now, not at the first write.
            state.connection.execute("BEGIN IMMEDIATE").await?;
            state.open = true;
        }
        if let Err(err) = state.connection.execute("SAVEPOINT write").await {
            return Err(StoreError::from_shared(state.abort(err)));
        }
        state.abandoned = true;
        Ok(Lent { state, writer: self })
    }

    /// Commits what is waiting, and gives the connection up for good.
    pub async fn close(&self) {
        let mut state = self.state.lock().await;
        state.commit().await;
        state.closed = true;
        // Both connections to the file close now, not when the last clone of the store goes:
        // the writer's gives way to one that holds nothing.
        lock(&self.follower).take();
        match SqliteConnection::connect("sqlite::memory:").await {
            Ok(nothing) => {
                let file = std::mem::replace(&mut state.connection, nothing);
                if let Err(err) = file.close().await {
                    tracing::warn!(error = %err, "could not close the SQLite writer connection");
                }
            }
            Err(err) => tracing::warn!(error = %err, "could not close the SQLite writer connection"),
        }
        self.commit_wanted.notify_one();
    }
}

impl Lent<'_> {
    pub fn connection(&mut self) -> &mut SqliteConnection {
        &mut self.state.connection
    }

    /// Keeps the write's changes (or, if it failed, undoes them), gives the connection back,
    /// and waits until the changes are committed.
    pub async fn finish<T>(mut self, outcome: Result<T, sqlx::Error>) -> Result<T, StoreError> {
        let value = match outcome {
            Ok(value) => value,
            Err(err) => {
                self.state
                    .roll_back_abandoned()
                    .await
                    .map_err(StoreError::from_shared)?;
                return Err(err.into());
            }
        };
        if let Err(err) = self.state.connection.execute("RELEASE write").await {
            return Err(StoreError::from_shared(self.state.abort(err)));
        }
        self.state.abandoned = false;
        let (committed, commit) = oneshot::channel();
        self.state.waiting.push(committed);
        drop(self);
        match commit.await {
            Ok(Ok(())) => Ok(value),
            Ok(Err(err)) => Err(StoreError::from_shared(err)),
            Err(_) => Err(sqlx::Error::PoolClosed.into()),
        }
    }
}

impl Drop for Lent<'_> {
    /// The connection goes back with the transaction open: the committer ends it, whether
    /// writes wait in it, or a write failed, or one left early (`?`, `return`) with its
    /// savepoint open, to be rolled back first. The write lock is never held idle.
    fn drop(&mut self) {
        self.writer.commit_wanted.notify_one();
    }
}

impl State {
    /// Rolls back the savepoint of a write that did not keep its changes.
    async fn roll_back_abandoned(&mut self) -> Result<(), Arc<sqlx::Error>> {
        if !self.abandoned {
            return Ok(());
        }
        self.abandoned = false;
        match self.connection.execute("ROLLBACK TO write; RELEASE write").await {
            Ok(_) => Ok(()),
            Err(err) => Err(self.abort(err)),
        }
    }

    /// Commits the open transaction, if any, and tells the writes in it how that went.
    async fn commit(&mut self) {
        if !self.open {
            return;
        }
        if self.roll_back_abandoned().await.is_err() {
            return;
        }
        // The version this commit makes current (its writes took the next ones).
        let version: i64 = match sqlx::query_scalar(LIST_VERSION).fetch_one(&mut self.connection).await {
            Ok(version) => version,
            Err(err) => {
                self.abort(err);
                return;
            }
        };
        match self.connection.execute("COMMIT").await {
            Ok(_) => {
                self.open = false;
                // Before the writes are told: what a write acknowledged is in every read
                // that asks the version after it.
                self.version.fetch_max(version, Ordering::AcqRel);
                for write in self.waiting.drain(..) {
                    let _ = write.send(Ok(()));
                }
            }
            Err(err) => {
                self.abort(err);
            }
        }
    }

    /// The transaction failed (SQLite may have rolled it back already): what is left of it
    /// goes, and every write waiting in it is told.
    fn abort(&mut self, err: sqlx::Error) -> Arc<sqlx::Error> {
        tracing::error!(error = %err, "a group commit failed");
        let err = Arc::new(err);
        for write in self.waiting.drain(..) {
            let _ = write.send(Err(Arc::clone(&err)));
        }
        self.open = false;
        self.abandoned = false;
        self.pending_rollback = true;
        err
    }
}

/// Commits whenever a write waits, until the writer is closed. Writes that queued for the
/// connection while a commit ran go in first, and share the next one.
async fn commit_when_wanted(writer: Arc<Writer>) {
    loop {
        writer.commit_wanted.notified().await;
        let mut state = writer.state.lock().await;
        if state.closed {
            return;
        }
        state.commit().await;
    }
}

/// The follower's connection; a panic while it was held left nothing half-done in it.
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
