//! Point reads run in place on SQLite: a statement that reads a row or two by key (the session
//! behind every signed-in request) runs on the calling thread, on one of a few read-only
//! `rusqlite` connections, instead of being sent to a driver thread of sqlx's pool and
//! waited for — a thread wake-up each way, which costs more than the read. Reads that may
//! take long (lists, searches) keep the pool, so no async thread waits on them.

use std::sync::{
    Mutex, PoisonError,
    atomic::{AtomicBool, Ordering},
};

use rusqlite::{Connection, OpenFlags};

use super::{
    Db, Store, StoreError, in_place,
    statement::{Arg, Row},
};

/// Pages each keeps, in KiB (SQLite's default, 2 MiB): a point read touches a few.
const CACHE_KIB: i64 = 2048;

pub(super) struct PointReads {
    idle: Mutex<Vec<Connection>>,
    /// The store closed: a connection in use when it did closes once its read is done.
    closed: AtomicBool,
}

impl PointReads {
    /// Opens a connection for each core (the async threads, one read each at a time: a read
    /// holds its connection only while it runs, never across an `await`), read-only, to the
    /// database at `path`, waiting at most `busy` for a lock (a reader in WAL mode waits only
    /// while a checkpoint resets the log). A read that finds none free takes the pool's way.
    pub fn open(path: &std::path::Path, busy: std::time::Duration) -> rusqlite::Result<Self> {
        let idle = (0..crate::cpu::cores())
            .map(|_| {
                let connection = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                connection.busy_timeout(busy)?;
                connection.pragma_update(None, "cache_size", -CACHE_KIB)?;
                Ok(connection)
            })
            .collect::<rusqlite::Result<_>>()?;
        Ok(Self {
            idle: Mutex::new(idle),
            closed: AtomicBool::new(false),
        })
    }

    /// The rows `sql` reads on a free connection; `None` when every connection is in use (or
    /// closed), for the caller to read through the pool.
    pub fn rows<R>(&self, sql: &str, args: &[Arg<'_>]) -> Option<rusqlite::Result<Vec<R>>>
    where
        R: for<'r> TryFrom<&'r rusqlite::Row<'r>, Error = rusqlite::Error>,
    {
        let connection = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop()?;
        let read = in_place::rows(&connection, sql, args);
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if !self.closed.load(Ordering::Acquire) {
            idle.push(connection);
        }
        Some(read)
    }

    /// Closes the connections; reads after take the pool's way.
    pub fn close(&self) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        self.closed.store(true, Ordering::Release);
        idle.clear();
    }
}

impl Store {
    /// The row one statement reads by key, if any: in place on SQLite when a connection is
    /// free (see the module), else through the pool.
    pub(super) async fn point_row<R>(&self, sql: &'static str, args: &[Arg<'_>]) -> Result<Option<R>, StoreError>
    where
        R: Row + for<'r> TryFrom<&'r rusqlite::Row<'r>, Error = rusqlite::Error>,
    {
        Ok(self.point_rows(sql, args).await?.pop())
    }

    /// The rows of a read by key that is bounded and short (a range of an index, a thousand
    /// rows at most: about a millisecond), the same way.
    pub(super) async fn point_rows<R>(&self, sql: &'static str, args: &[Arg<'_>]) -> Result<Vec<R>, StoreError>
    where
        R: Row + for<'r> TryFrom<&'r rusqlite::Row<'r>, Error = rusqlite::Error>,
    {
        if let Db::Sqlite { point, .. } = &self.db
            && let Some(read) = point.rows(sql, args)
        {
            return Ok(read?);
        }
        self.read_rows(sql, args).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Value(String);

    impl TryFrom<&rusqlite::Row<'_>> for Value {
        type Error = rusqlite::Error;

        fn try_from(row: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
            row.get(0).map(Self)
        }
    }

    #[test]
    fn a_read_finds_the_rows_and_one_with_every_connection_taken_is_left_to_the_pool() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("reads.db");
        let setup = Connection::open(&path).unwrap();
        setup
            .execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'one');")
            .unwrap();
        let reads = PointReads::open(&path, std::time::Duration::from_secs(1)).unwrap();
        let read = |k: i64| reads.rows::<Value>("SELECT v FROM t WHERE k >= $1 ORDER BY k", &[k.into()]);
        assert_eq!(read(1).unwrap().unwrap(), [Value("one".to_owned())]);
        assert_eq!(read(2).unwrap().unwrap(), []);
        // What another connection commits, the next read sees.
        setup.execute("UPDATE t SET v = 'uno' WHERE k = 1", []).unwrap();
        setup.execute("INSERT INTO t VALUES (2, 'two')", []).unwrap();
        assert_eq!(
            read(1).unwrap().unwrap(),
            [Value("uno".to_owned()), Value("two".to_owned())]
        );
        let taken = std::mem::take(&mut *reads.idle.lock().unwrap());
        assert!(read(1).is_none(), "no connection free: the pool's way");
        *reads.idle.lock().unwrap() = taken;
        assert!(read(1).is_some());
        reads.close();
        assert!(read(1).is_none(), "closed: the pool's way");
    }
}
