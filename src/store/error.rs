//! What can go wrong in the store, classified once so that no caller decodes driver errors.

/// The driver's error, kept as the source, for the log.
type Cause = Box<dyn std::error::Error + Send + Sync>;

/// A failed database operation.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database cannot be reached, is shutting down or is busy: worth retrying.
    #[error("the database is unavailable")]
    Unavailable(#[source] Cause),
    /// A uniqueness or reference rule refused the change (a taken id, a deleted parent).
    #[error("the change conflicts with stored data")]
    Conflict(#[source] Cause),
    /// Anything else: a bug or a damaged database.
    #[error("database error")]
    Other(#[source] Cause),
}

impl StoreError {
    /// An error shared by several operations (a group commit's failure), classified alike.
    pub(super) fn from_shared(err: std::sync::Arc<sqlx::Error>) -> Self {
        let class = classify(&err);
        class(err.into())
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        classify(&err)(err.into())
    }
}

/// Which kind of failure a driver error is.
fn classify(err: &sqlx::Error) -> fn(Cause) -> StoreError {
    match err {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => StoreError::Unavailable,
        sqlx::Error::Database(db) if db.is_unique_violation() || db.is_foreign_key_violation() => StoreError::Conflict,
        sqlx::Error::Database(db)
            if db.code().is_some_and(|code| {
                let postgres = db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>().is_some();
                refuses_for_now(postgres, &code)
            }) =>
        {
            StoreError::Unavailable
        }
        _ => StoreError::Other,
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        let code = err.sqlite_error().map(|e| e.extended_code);
        match code {
            Some(UNIQUE | PRIMARY_KEY | FOREIGN_KEY) => Self::Conflict(err.into()),
            Some(code) if refuses_for_now(false, &code.to_string()) => Self::Unavailable(err.into()),
            _ => Self::Other(err.into()),
        }
    }
}

/// SQLite's extended codes for the rules sqlx reports as unique and foreign key violations.
const UNIQUE: i32 = rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE;
const PRIMARY_KEY: i32 = rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY;
const FOREIGN_KEY: i32 = rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY;

/// Database error codes that say the database cannot do the work now, not that the request
/// was wrong: SQLite's BUSY, LOCKED, READONLY, IOERR, FULL and CANTOPEN (by primary code, under
/// any extended one); PostgreSQL's connection exceptions (08), insufficient resources (53:
/// disk full, out of memory, too many connections), operator intervention (57P: shutdown) and
/// a read-only transaction (25006, a standby).
fn refuses_for_now(postgres: bool, code: &str) -> bool {
    if postgres {
        code.starts_with("08") || code.starts_with("53") || code.starts_with("57P") || code == "25006"
    } else {
        code.parse::<u32>()
            .is_ok_and(|code| matches!(code & 0xff, 5 | 6 | 8 | 10 | 13 | 14))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_that_mean_try_again_later() {
        for code in ["5", "517", "8", "1032", "13", "14"] {
            assert!(refuses_for_now(false, code), "SQLite {code}");
        }
        for code in ["08006", "53100", "57P01", "25006"] {
            assert!(refuses_for_now(true, code), "PostgreSQL {code}");
        }
        for code in ["19", "2067", "1", "787"] {
            assert!(!refuses_for_now(false, code), "SQLite {code}");
        }
        for code in ["23505", "42P01", "22001"] {
            assert!(!refuses_for_now(true, code), "PostgreSQL {code}");
        }
    }
}
