//! Statements written once and run on either database from ordinary (non-macro) code: the
//! values bound to their parameters ([`Arg`]), and [`Tx`], a write's connection on either
//! backend, which the helpers that several writes share (`notify_user`, `record_change`, …)
//! take as a plain generic argument.

use std::borrow::Cow;

use sqlx::{FromRow, PgConnection, SqliteConnection, postgres::PgRow, sqlite::SqliteRow};

use super::{Db, Store, StoreError, with_pool};
use crate::domain::ItemId;

/// Item ids as one text parameter (for [`id_in`]): a JSON array for SQLite's `json_each`, an
/// array literal for PostgreSQL.
pub(super) fn id_list(db: &Db, ids: &[ItemId]) -> String {
    let joined = ids.iter().map(|id| id.get().to_string()).collect::<Vec<_>>().join(",");
    match db {
        Db::Sqlite { .. } => format!("[{joined}]"),
        Db::Postgres(_) => format!("{{{joined}}}"),
    }
}

/// `column` is one of the ids of `param`, bound to an [`id_list`]. One parameter, not one an
/// id: the statement's text is the same however many there are (SQLite prepares it once), and
/// binding hundreds of `$n` costs more than the lookups. Only where the column's index is the
/// way in: beside other conditions, SQLite's planner takes another index and tests each of its
/// rows against the list (ten times slower than against `$n`s, measured on `items`).
pub(super) fn id_in(db: &Db, column: &str, param: &str) -> String {
    match db {
        Db::Sqlite { .. } => format!("{column} IN (SELECT value FROM json_each({param}))"),
        Db::Postgres(_) => format!("{column} = ANY(CAST({param} AS bigint[]))"),
    }
}

/// A value bound to a `$n` parameter. Typed even when NULL: PostgreSQL infers a parameter's
/// type from what is bound to it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Arg<'a> {
    Int(Option<i64>),
    Real(Option<f64>),
    Text(Option<Cow<'a, str>>),
    Bool(Option<bool>),
}

impl From<i64> for Arg<'_> {
    fn from(value: i64) -> Self {
        Self::Int(Some(value))
    }
}

impl From<Option<i64>> for Arg<'_> {
    fn from(value: Option<i64>) -> Self {
        Self::Int(value)
    }
}

impl From<f64> for Arg<'_> {
    fn from(value: f64) -> Self {
        Self::Real(Some(value))
    }
}

impl From<Option<f64>> for Arg<'_> {
    fn from(value: Option<f64>) -> Self {
        Self::Real(value)
    }
}

impl From<bool> for Arg<'_> {
    fn from(value: bool) -> Self {
        Self::Bool(Some(value))
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(value: &'a str) -> Self {
        Self::Text(Some(Cow::Borrowed(value)))
    }
}

impl<'a> From<Option<&'a str>> for Arg<'a> {
    fn from(value: Option<&'a str>) -> Self {
        Self::Text(value.map(Cow::Borrowed))
    }
}

impl From<Option<String>> for Arg<'_> {
    fn from(value: Option<String>) -> Self {
        Self::Text(value.map(Cow::Owned))
    }
}

impl From<String> for Arg<'_> {
    fn from(value: String) -> Self {
        Self::Text(Some(Cow::Owned(value)))
    }
}

/// Binds `$args` (a slice of [`Arg`]) to `$query`, in order, on either backend.
macro_rules! bind_all {
    ($query:expr, $args:expr) => {{
        let mut query = $query;
        for arg in $args {
            query = match arg {
                $crate::store::statement::Arg::Int(value) => query.bind(*value),
                $crate::store::statement::Arg::Real(value) => query.bind(*value),
                $crate::store::statement::Arg::Text(value) => query.bind(value.as_deref()),
                $crate::store::statement::Arg::Bool(value) => query.bind(*value),
            };
        }
        query
    }};
}
pub(super) use bind_all;

/// A row type both drivers decode.
pub(super) trait Row: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}

impl<T> Row for T where T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}

/// The connection a write runs on (see `with_pool!`), whichever the backend: statements run
/// on it are part of the write's transaction.
pub(super) trait Tx: Send {
    /// Runs a statement; how many rows it changed.
    fn run(&mut self, sql: &'static str, args: &[Arg<'_>]) -> impl Future<Output = sqlx::Result<u64>> + Send;

    /// Runs a statement that returns exactly one row.
    fn row<R: Row>(&mut self, sql: &'static str, args: &[Arg<'_>]) -> impl Future<Output = sqlx::Result<R>> + Send;

    /// Runs a statement and reads every row it returns.
    fn rows<R: Row>(
        &mut self,
        sql: &'static str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = sqlx::Result<Vec<R>>> + Send;
}

/// The same three lines for each driver's connection.
macro_rules! impl_tx {
    ($($connection:ty),*) => {$(
        impl Tx for $connection {
            async fn run(&mut self, sql: &'static str, args: &[Arg<'_>]) -> sqlx::Result<u64> {
                Ok(bind_all!(sqlx::query(sql), args).execute(self).await?.rows_affected())
            }

            async fn row<R: Row>(&mut self, sql: &'static str, args: &[Arg<'_>]) -> sqlx::Result<R> {
                bind_all!(sqlx::query_as(sql), args).fetch_one(self).await
            }

            async fn rows<R: Row>(&mut self, sql: &'static str, args: &[Arg<'_>]) -> sqlx::Result<Vec<R>> {
                bind_all!(sqlx::query_as(sql), args).fetch_all(self).await
            }
        }
    )*};
}
impl_tx!(SqliteConnection, PgConnection);

impl Store {
    /// Every row one statement reads.
    pub(super) async fn read_rows<R: Row>(&self, sql: &'static str, args: &[Arg<'_>]) -> Result<Vec<R>, StoreError> {
        with_pool!(self, read, |pool| bind_all!(sqlx::query_as(sql), args)
            .fetch_all(pool)
            .await)
    }

    /// The row one statement reads, if any.
    pub(super) async fn read_row<R: Row>(&self, sql: &'static str, args: &[Arg<'_>]) -> Result<Option<R>, StoreError> {
        with_pool!(self, read, |pool| bind_all!(sqlx::query_as(sql), args)
            .fetch_optional(pool)
            .await)
    }

    /// The one row a statement reads (an aggregate, say).
    pub(super) async fn read_one<R: Row>(&self, sql: &'static str, args: &[Arg<'_>]) -> Result<R, StoreError> {
        with_pool!(self, read, |pool| bind_all!(sqlx::query_as(sql), args)
            .fetch_one(pool)
            .await)
    }

    /// Runs one statement in a write of its own; how many rows it changed.
    pub(super) async fn write(&self, sql: &'static str, args: &[Arg<'_>]) -> Result<u64, StoreError> {
        with_pool!(self, write, |pool| pool.run(sql, args).await)
    }

    /// Runs one statement that returns a row or none, in a write of its own.
    pub(super) async fn write_optional<R: Row>(
        &self,
        sql: &'static str,
        args: &[Arg<'_>],
    ) -> Result<Option<R>, StoreError> {
        with_pool!(self, write, |pool| Ok(pool.rows(sql, args).await?.pop()))
    }

    /// Runs one statement that returns one row, in a write of its own.
    pub(super) async fn write_row<R: Row>(&self, sql: &'static str, args: &[Arg<'_>]) -> Result<R, StoreError> {
        with_pool!(self, write, |pool| pool.row(sql, args).await)
    }
}
