//! Writes run in place on the SQLite writer's connection: rusqlite on the handle sqlx lends
//! (`Writer::run`), statements prepared once and kept. Through sqlx each statement is a trip
//! to the connection's thread and back, two thread wake-ups; here a write's statements cost
//! none, and every write queued for a commit shares one trip. Only the writes that come in
//! floods take this way (a report, a chat or thread message, an import's batch); the rest keep
//! `with_pool!`'s sqlx form.

use rusqlite::{
    Connection, Row, Statement,
    types::{FromSql, ToSqlOutput, Type, Value, ValueRef},
};

use super::statement::Arg;

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Arg::Int(value) => value.to_sql(),
            Arg::Real(value) => value.to_sql(),
            Arg::Text(value) => Ok(match value {
                Some(text) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
                None => ToSqlOutput::Owned(Value::Null),
            }),
            Arg::Bool(value) => value.to_sql(),
        }
    }
}

/// Binds `args` to `$1`, `$2`, … by name: a parameter's index is where it first appears, which
/// need not follow the numbers (`SELECT $2 … WHERE id = $1`). Every parameter must be given.
fn bind(statement: &mut Statement<'_>, args: &[Arg<'_>]) -> rusqlite::Result<()> {
    check_count(statement, args)?;
    for (n, arg) in args.iter().enumerate() {
        let name = format!("${}", n + 1);
        let index = statement
            .parameter_index(&name)?
            .ok_or(rusqlite::Error::InvalidParameterName(name))?;
        statement.raw_bind_parameter(index, arg)?;
    }
    Ok(())
}

fn check_count(statement: &Statement<'_>, args: &[Arg<'_>]) -> rusqlite::Result<()> {
    if statement.parameter_count() != args.len() {
        return Err(rusqlite::Error::InvalidParameterCount(
            args.len(),
            statement.parameter_count(),
        ));
    }
    Ok(())
}

/// Runs a statement written with SQLite's numbered parameters (`?1`, `?2`, …), which returns
/// no rows, binding `args` by position: looking each up by name scans every name, which in a
/// statement of thousands of parameters (an import's) took more time than the inserts.
pub(super) fn run_numbered(connection: &Connection, sql: &str, args: &[Arg<'_>]) -> rusqlite::Result<usize> {
    let mut statement = connection.prepare_cached(sql)?;
    check_count(&statement, args)?;
    for (n, arg) in args.iter().enumerate() {
        statement.raw_bind_parameter(n + 1, arg)?;
    }
    statement.raw_execute()
}

/// Runs a statement that returns no rows; how many rows it changed.
pub(super) fn run(connection: &Connection, sql: &str, args: &[Arg<'_>]) -> rusqlite::Result<usize> {
    let mut statement = connection.prepare_cached(sql)?;
    bind(&mut statement, args)?;
    statement.raw_execute()
}

/// Every row a statement returns, each as `R`.
pub(super) fn rows<R>(connection: &Connection, sql: &str, args: &[Arg<'_>]) -> rusqlite::Result<Vec<R>>
where
    R: for<'r> TryFrom<&'r Row<'r>, Error = rusqlite::Error>,
{
    let mut statement = connection.prepare_cached(sql)?;
    bind(&mut statement, args)?;
    let mut rows = statement.raw_query();
    let mut read = Vec::new();
    while let Some(row) = rows.next()? {
        read.push(R::try_from(row)?);
    }
    Ok(read)
}

/// The one row a statement returns.
pub(super) fn row<R>(connection: &Connection, sql: &str, args: &[Arg<'_>]) -> rusqlite::Result<R>
where
    R: for<'r> TryFrom<&'r Row<'r>, Error = rusqlite::Error>,
{
    rows(connection, sql, args)?
        .pop()
        .ok_or(rusqlite::Error::QueryReturnedNoRows)
}

/// Column `index` read as `U` and made a `T` by `convert` (the `try_from` of the sqlx rows).
pub(super) fn converted<T, U, E>(
    row: &Row<'_>,
    index: usize,
    convert: impl FnOnce(U) -> Result<T, E>,
) -> rusqlite::Result<T>
where
    U: FromSql,
    E: std::error::Error + Send + Sync + 'static,
{
    convert(row.get(index)?).map_err(|err| rusqlite::Error::FromSqlConversionFailure(index, Type::Null, Box::new(err)))
}

/// Runs `body` in a savepoint of its own: kept when it succeeds, undone when it fails, so a
/// write that fails takes nothing of its neighbours in the same commit with it.
pub(super) fn in_savepoint<T>(
    connection: &Connection,
    body: impl FnOnce(&Connection) -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    run(connection, "SAVEPOINT write", &[])?;
    match body(connection) {
        Ok(value) => {
            run(connection, "RELEASE write", &[])?;
            Ok(value)
        }
        Err(err) => {
            run(connection, "ROLLBACK TO write", &[])?;
            run(connection, "RELEASE write", &[])?;
            Err(err)
        }
    }
}
