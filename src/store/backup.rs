//! `lostfound backup`: a consistent copy of a live SQLite database. `VACUUM INTO` reads the
//! database in one read transaction, so with WAL the server keeps reading and writing while
//! the copy is made, and the copy holds exactly what was committed when it began.

use std::{
    fs::{File, OpenOptions},
    io,
    os::unix::fs::OpenOptionsExt,
    path::Path,
};

use anyhow::{Context, anyhow, bail};
use sqlx::{Connection, SqliteConnection, SqlitePool};

use super::{Db, Store};

impl Store {
    /// Writes a snapshot of the SQLite database, photos included, to `path`, which must not
    /// exist; the copy is on disk when this returns. PostgreSQL has its own tools.
    pub async fn backup_to(&self, path: &Path) -> anyhow::Result<()> {
        let Db::Sqlite { read, .. } = &self.db else {
            bail!(
                "lostfound backup copies SQLite databases only: back up {} with pg_dump \
                 (and restore it with pg_restore)",
                self.name
            );
        };
        let target = path
            .to_str()
            .with_context(|| format!("the backup file name {} is not UTF-8", path.display()))?;
        // Created here, exclusively, so that nothing is ever overwritten, even by a backup
        // started at the same moment (VACUUM INTO accepts an empty file). Owner-only: the
        // copy holds the password and session hashes.
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .map_err(|err| match err.kind() {
                io::ErrorKind::AlreadyExists => {
                    anyhow!("{} already exists: the backup goes to a new file", path.display())
                }
                _ => anyhow::Error::new(err).context(format!("cannot create {}", path.display())),
            })?;
        let copied = vacuum_into(read, target).await.and_then(|()| {
            // SQLite does not sync the copy; a backup is not done until it is on disk.
            file.sync_all()?;
            let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty());
            File::open(dir.unwrap_or(Path::new(".")))?.sync_all()?;
            Ok(())
        });
        if copied.is_err() {
            // An empty or partial file must not pass for a backup.
            let _ = std::fs::remove_file(path);
        }
        copied.with_context(|| format!("cannot back up {} to {}", self.name, path.display()))
    }
}

/// Runs `VACUUM INTO` on a connection of its own, opened read-only (the copy is all it
/// writes): the readers are `query_only`, which refuses it, and writes run inside the shared
/// group-commit transaction, where VACUUM cannot. The file name is bound as a parameter,
/// never spliced into the SQL.
async fn vacuum_into(read: &SqlitePool, target: &str) -> anyhow::Result<()> {
    let options = (*read.connect_options())
        .clone()
        .read_only(true)
        .pragma("query_only", "OFF");
    let mut connection = SqliteConnection::connect_with(&options).await?;
    sqlx::query("VACUUM INTO $1")
        .bind(target)
        .execute(&mut connection)
        .await?;
    connection.close().await?;
    Ok(())
}
