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
//!
//! The writes that come in floods run in place instead (`run`, see `in_place`): queued, then
//! run one after another by the committer, each in its savepoint, on the connection's handle
//! lent once for them all, and told when their commit is on disk. One trip to the driver's
//! thread for the batch, against one for each statement of each write through sqlx.

use std::{
    sync::{
        Arc, LazyLock,
        atomic::{AtomicBool, AtomicI64, Ordering},
    },
    time::Duration,
};

use sqlx::{Connection, Executor, SqliteConnection};
use tokio::sync::{Mutex, MutexGuard, Notify, oneshot};

use super::{StoreError, in_place, items::LIST_VERSION};

/// The outcome of a commit, shared by every write in it.
type Committed = Result<(), Arc<sqlx::Error>>;
/// How a write done in the open transaction is told its commit's outcome.
type Waiting = Box<dyn FnOnce(Committed) + Send>;
/// A write queued to run in place: given the connection (or why the transaction could not
/// begin), it does its work and says how it is to be told of the commit.
type Queued = Box<dyn FnOnce(Result<&rusqlite::Connection, Arc<sqlx::Error>>) -> Waiting + Send>;
/// Puts the items noted by the writes of the transaction into the full-text index and forgets
/// the notes: once a commit, outside every write's savepoint, where FTS5 would write each
/// write's words as a segment of its own (migration 0036).
const INDEX_NOTED_ITEMS: &str = "INSERT INTO items_fts (rowid, search_words, place_words) \
     SELECT i.id, i.search_words, i.place_words FROM items_fts_pending p JOIN items i ON i.id = p.id; \
     DELETE FROM items_fts_pending";
/// The end of a commit, in one trip to the connection's thread: the noted items indexed, the
/// version this commit makes current read (its writes took the next ones), and the commit.
/// A statement that fails stops the rest, so nothing commits without its index.
static COMMIT: LazyLock<String> = LazyLock::new(|| format!("{INDEX_NOTED_ITEMS}; {LIST_VERSION}; COMMIT"));
/// Statements the in-place writes keep prepared (rusqlite keeps 16 by default).
const IN_PLACE_STATEMENTS: usize = 64;

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
    /// Writes to run in place at the next commit, in the order they came.
    queued: std::sync::Mutex<Vec<Queued>>,
    /// The writer is closing: nothing more is queued.
    closing: AtomicBool,
}

struct State {
    /// The same connection as rusqlite sees it: sqlx's handle, borrowed (never closed here)
    /// and used only while sqlx lends it (`lock_handle`), its statements prepared once.
    /// Declared before `connection`, so it is dropped (its statements finalized) first.
    in_place: rusqlite::Connection,
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
    waiting: Vec<Waiting>,
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
        let handle = connection.lock_handle().await?.as_raw_handle();
        // SAFETY: the handle stays open as long as `connection`, which `State` drops after
        // this (and `close` stops using it first); it is only used while sqlx lends it.
        let in_place = unsafe { rusqlite::Connection::from_handle(handle.as_ptr()) }
            .map_err(|err| sqlx::Error::Configuration(err.into()))?;
        in_place.set_prepared_statement_cache_capacity(IN_PLACE_STATEMENTS);
        let writer = Arc::new(Self {
            state: Mutex::new(State {
                in_place,
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
            queued: std::sync::Mutex::default(),
            closing: AtomicBool::new(false),
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
        state.begin().await.map_err(StoreError::from_shared)?;
        if let Err(err) = state.connection.execute("SAVEPOINT write").await {
            return Err(StoreError::from_shared(state.abort(err)));
        }
        state.abandoned = true;
        Ok(Lent { state, writer: self })
    }

    /// Runs `body` in place on the writer's connection, in a savepoint of its own, in the
    /// next commit (with whatever else is queued for it), and returns what it returned once
    /// that commit is on disk. Waits at most the writer's patience (503): a write given up
    /// before it ran is never run.
    pub async fn run<T: Send + 'static>(
        &self,
        body: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        if self.closing.load(Ordering::Acquire) {
            return Err(sqlx::Error::PoolClosed.into());
        }
        let (tell, told) = oneshot::channel::<Result<T, StoreError>>();
        let queued: Queued = Box::new(move |connection| {
            let done = match connection {
                // Given up: nothing to do, nobody to tell.
                Ok(_) if tell.is_closed() => return Box::new(drop),
                Ok(connection) => in_place::in_savepoint(connection, body).map_err(StoreError::from),
                Err(err) => Err(StoreError::from_shared(err)),
            };
            Box::new(move |committed: Committed| {
                let _ = tell.send(done.and_then(|value| committed.map(|()| value).map_err(StoreError::from_shared)));
            })
        });
        lock(&self.queued).push(queued);
        self.commit_wanted.notify_one();
        match tokio::time::timeout(self.patience, told).await {
            Ok(Ok(outcome)) => outcome,
            // The writer closed with the write still queued.
            Ok(Err(_)) => Err(sqlx::Error::PoolClosed.into()),
            Err(_) => Err(sqlx::Error::PoolTimedOut.into()),
        }
    }

    /// Commits what is waiting, and gives the connection up for good.
    pub async fn close(&self) {
        self.closing.store(true, Ordering::Release);
        let mut state = self.state.lock().await;
        state.run_queued(&self.queued).await;
        state.commit().await;
        state.closed = true;
        // The in-place statements go while the handle is still open.
        let state = &mut *state;
        match state.connection.lock_handle().await {
            Ok(_lent) => state.in_place.flush_prepared_statement_cache(),
            Err(err) => tracing::warn!(error = %err, "could not finalize the SQLite writer's statements"),
        }
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
        self.state.waiting.push(Box::new(move |outcome| {
            let _ = committed.send(outcome);
        }));
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
    /// Opens the shared transaction unless it is open, after undoing what a failed write or
    /// transaction left behind.
    async fn begin(&mut self) -> Result<(), Arc<sqlx::Error>> {
        self.roll_back_abandoned().await?;
        if self.pending_rollback {
            // Refused, harmlessly, when SQLite rolled it back already.
            let _ = self.connection.execute("ROLLBACK").await;
            self.pending_rollback = false;
        }
        if !self.open {
            // IMMEDIATE: take the write lock now, not at the first write.
            self.connection.execute("BEGIN IMMEDIATE").await.map_err(Arc::new)?;
            self.open = true;
        }
        Ok(())
    }

    /// Runs the writes queued to run in place, in the open transaction, on the handle lent
    /// once for them all; each then waits for the commit. A write that cannot run (the
    /// transaction could not begin, or is gone) is told why, having done nothing.
    async fn run_queued(&mut self, queued: &std::sync::Mutex<Vec<Queued>>) {
        let writes = std::mem::take(&mut *lock(queued));
        if writes.is_empty() {
            return;
        }
        let mut failed = self.begin().await.err();
        let mut broke = None;
        {
            let lent = match failed {
                None => self.connection.lock_handle().await.map_err(Arc::new),
                Some(ref err) => Err(Arc::clone(err)),
            };
            if let Err(err) = &lent {
                failed = Some(Arc::clone(err));
            }
            for write in writes {
                if let Some(err) = &failed {
                    write(Err(Arc::clone(err)))(Ok(()));
                    continue;
                }
                let connection = &self.in_place;
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| write(Ok(connection)))) {
                    Ok(waiting) => self.waiting.push(waiting),
                    // A bug: its caller hears the write is gone; what it left undone goes with
                    // the transaction.
                    Err(_) => broke = Some("a write panicked"),
                }
                // SQLite rolls the transaction back itself on some errors (a full disk): what
                // would run now would run, and commit, on its own.
                if broke.is_none() && self.in_place.is_autocommit() {
                    broke = Some("SQLite rolled the shared transaction back");
                }
                if let Some(why) = broke {
                    failed = Some(Arc::new(sqlx::Error::Io(std::io::Error::other(why))));
                }
            }
        }
        if let Some(why) = broke {
            self.abort(sqlx::Error::Io(std::io::Error::other(why)));
        }
    }

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
        // `fetch_all`: every statement runs to its end (a stream dropped early stops the rest).
        match sqlx::query_scalar::<_, i64>(COMMIT.as_str())
            .fetch_all(&mut self.connection)
            .await
        {
            Ok(versions) => {
                let version = versions.first().copied().unwrap_or_default();
                self.open = false;
                // Before the writes are told: what a write acknowledged is in every read
                // that asks the version after it.
                self.version.fetch_max(version, Ordering::AcqRel);
                for write in self.waiting.drain(..) {
                    write(Ok(()));
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
            write(Err(Arc::clone(&err)));
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
        state.run_queued(&writer.queued).await;
        state.commit().await;
    }
}

/// A lock held for moments (the follower's connection, the queue); a panic while it was held
/// left nothing half-done in it.
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::super::{Create, Db, Store};

    fn new_item(connection: &Connection, words: &str) -> rusqlite::Result<i64> {
        connection.query_row(
            "INSERT INTO items (title, lat, lng, created_at, created_by, search_words) \
             VALUES ('t', 0, 0, 0, 'u', ?1) RETURNING id",
            [words],
            |row| row.get(0),
        )
    }

    fn change_words(connection: &Connection, id: i64, words: &str) -> rusqlite::Result<()> {
        connection
            .execute("UPDATE items SET search_words = ?2 WHERE id = ?1", (id, words))
            .map(drop)
    }

    fn delete(connection: &Connection, id: i64) -> rusqlite::Result<()> {
        connection.execute("DELETE FROM items WHERE id = ?1", [id]).map(drop)
    }

    /// Items written, changed and deleted in the writes of one commit, some before their words
    /// reached the full-text index: what the index holds is what the committed items say (FTS5
    /// compares the two itself), and nothing is left noted for later.
    #[tokio::test]
    async fn the_search_index_holds_what_each_commit_leaves() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let store = Store::connect(&format!("sqlite://{}", path.display()), Create::IfMissing)
            .await
            .unwrap();
        let Db::Sqlite { writer, .. } = &store.db else {
            unreachable!()
        };
        let (kept, gone) = writer
            .run(|c| Ok((new_item(c, "epsilon")?, new_item(c, "zeta")?)))
            .await
            .unwrap();
        let (created_then_changed, created_then_deleted, changed_and_deleted) = tokio::join!(
            writer.run(|c| {
                let id = new_item(c, "alpha")?;
                change_words(c, id, "beta")
            }),
            writer.run(|c| {
                let id = new_item(c, "gamma")?;
                delete(c, id)
            }),
            writer.run(move |c| {
                change_words(c, kept, "delta")?;
                delete(c, gone)
            }),
        );
        created_then_changed.unwrap();
        created_then_deleted.unwrap();
        changed_and_deleted.unwrap();

        let file = Connection::open(&path).unwrap();
        let found = |word: &str| -> i64 {
            file.query_row(
                "SELECT COUNT(*) FROM items_fts WHERE items_fts MATCH ?1",
                [word],
                |row| row.get(0),
            )
            .unwrap()
        };
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
        assert_eq!(words.map(found), [0, 1, 0, 1, 0, 0], "{words:?}");
        file.execute(
            "INSERT INTO items_fts (items_fts, rank) VALUES ('integrity-check', 1)",
            [],
        )
        .expect("the index agrees with the items");
        let noted: i64 = file
            .query_row("SELECT COUNT(*) FROM items_fts_pending", [], |row| row.get(0))
            .unwrap();
        assert_eq!(noted, 0);
    }
}
