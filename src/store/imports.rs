//! Where the import of each items file stands (`lostfound items import`): every batch of items
//! commits with the line it reaches, so after a run that was stopped the file's next run
//! starts after the last line committed, and a file imported whole is not imported again.

use super::{
    Store, StoreError,
    statement::{Arg, Tx},
    with_pool,
};

/// How far the import of one file went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct ImportProgress {
    /// The last line whose item is committed; 0 before the first batch.
    pub lines_done: i64,
    pub items_done: i64,
    /// When the last batch committed; `None` while the file is not all in.
    pub finished_at: Option<i64>,
}

/// The move of one batch: from the line the file's import had reached to the batch's last.
#[derive(Debug)]
pub struct ImportStep<'a> {
    pub file_sha256: &'a str,
    pub from_line: i64,
    pub to_line: i64,
    /// Set with the last batch: when the import ends.
    pub finished_at: Option<i64>,
}

const START: &str =
    "INSERT INTO item_imports (file_sha256, started_at) VALUES ($1, $2) ON CONFLICT (file_sha256) DO NOTHING";
const PROGRESS: &str = "SELECT lines_done, items_done, finished_at FROM item_imports WHERE file_sha256 = $1";
/// Only from where the step starts: a run of the same file that moved it meanwhile makes
/// this change nothing.
pub(super) const ADVANCE: &str = "UPDATE item_imports SET lines_done = $3, items_done = items_done + $4, finished_at = $5 \
                       WHERE file_sha256 = $1 AND lines_done = $2 AND finished_at IS NULL";

impl Store {
    /// Where the import of the file with this SHA-256 stands; one not seen before starts now.
    pub async fn item_import(&self, file_sha256: &str, now: i64) -> Result<ImportProgress, StoreError> {
        with_pool!(self, write, |pool| {
            pool.run(START, &[file_sha256.into(), now.into()]).await?;
            pool.row(PROGRESS, &[file_sha256.into()]).await
        })
    }
}

/// The parameters of [`ADVANCE`]: moves the import on by `step` and `items`, in the write that
/// adds them; it changes no row when another run moved it first (the caller then adds nothing).
pub(super) fn advance_args<'a>(step: &ImportStep<'a>, items: usize) -> [Arg<'a>; 5] {
    [
        step.file_sha256.into(),
        step.from_line.into(),
        step.to_line.into(),
        (items as i64).into(),
        step.finished_at.into(),
    ]
}
