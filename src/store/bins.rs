//! Storage bins of each site, and the storage place of the items in them: a bin's name is
//! written into its items' `storage_place` (the contract's field, searched like the rest), so
//! every read stays one row.

use super::{
    Store, StoreError,
    derived::place_words,
    items::NEXT_VERSION,
    statement::{Arg, Tx},
    with_pool,
};
use crate::domain::{Bin, BinFields};

#[derive(sqlx::FromRow)]
struct BinRow {
    id: i64,
    site_id: i64,
    code: String,
    name: String,
}

impl From<BinRow> for Bin {
    fn from(row: BinRow) -> Self {
        Self {
            id: row.id,
            site_id: row.site_id,
            code: row.code,
            name: row.name,
        }
    }
}

/// Why a bin was not added, changed or removed.
#[derive(Debug, PartialEq, Eq)]
pub enum BinRefusal {
    NotFound,
    /// Another bin of the site has the code (in any case).
    CodeTaken,
    /// It holds items: they must move first.
    HoldsItems,
}

const SITE_BINS: &str = "SELECT id, site_id, code, name FROM bins WHERE site_id = $1 ORDER BY lower(code), id";
const SELECT_BIN: &str = "SELECT id, site_id, code, name FROM bins WHERE id = $1";
const INSERT_BIN: &str = "INSERT INTO bins (site_id, code, name, created_at) VALUES ($1, $2, $3, $4) \
     ON CONFLICT DO NOTHING RETURNING id, site_id, code, name";
const CODE_TAKEN: &str =
    "SELECT EXISTS (SELECT 1 FROM bins WHERE site_id = $1 AND lower(code) = lower($2) AND id <> $3)";
const UPDATE_BIN: &str = "UPDATE bins SET code = $2, name = $3 WHERE id = $1 RETURNING id, site_id, code, name";
/// The items of a renamed bin take its new name as their storage place.
const RENAME_STORAGE: &str = "UPDATE items SET storage_place = $2, place_words = $3, version = $4 WHERE bin_id = $1";
const HOLDS_ITEMS: &str = "SELECT EXISTS (SELECT 1 FROM items WHERE bin_id = $1)";
const DELETE_BIN: &str = "DELETE FROM bins WHERE id = $1";

impl Store {
    /// The bins of site `site`, by code.
    pub async fn bins(&self, site: i64) -> Result<Vec<Bin>, StoreError> {
        let rows: Vec<BinRow> = self.read_rows(SITE_BINS, &[site.into()]).await?;
        Ok(rows.into_iter().map(Bin::from).collect())
    }

    pub async fn bin(&self, id: i64) -> Result<Option<Bin>, StoreError> {
        let row: Option<BinRow> = self.read_row(SELECT_BIN, &[id.into()]).await?;
        Ok(row.map(Bin::from))
    }

    /// Adds a bin to `site` (which exists: the caller found it); refused when the site has
    /// a bin with the code (the unique index decides).
    pub async fn add_bin(
        &self,
        site: i64,
        fields: &BinFields,
        now: i64,
    ) -> Result<Result<Bin, BinRefusal>, StoreError> {
        let args: [Arg; 4] = [
            site.into(),
            fields.code.as_deref().into(),
            fields.name.as_deref().into(),
            now.into(),
        ];
        let row: Option<BinRow> = self.write_optional(INSERT_BIN, &args).await?;
        Ok(row.map(Bin::from).ok_or(BinRefusal::CodeTaken))
    }

    /// Changes bin `id`'s code or name; a new name becomes its items' storage place.
    pub async fn change_bin(&self, id: i64, fields: &BinFields) -> Result<Result<Bin, BinRefusal>, StoreError> {
        let changed = with_pool!(self, write, |pool| {
            let Some(old) = pool.rows::<BinRow>(SELECT_BIN, &[id.into()]).await?.pop() else {
                return Ok(Err(BinRefusal::NotFound));
            };
            let old = Bin::from(old);
            let bin = fields.applied_to(&old);
            let taken: (bool,) = pool
                .row(CODE_TAKEN, &[bin.site_id.into(), bin.code.as_str().into(), id.into()])
                .await?;
            if taken.0 {
                return Ok(Err(BinRefusal::CodeTaken));
            }
            let args: [Arg; 3] = [id.into(), bin.code.as_str().into(), bin.name.as_str().into()];
            let row: BinRow = pool.row(UPDATE_BIN, &args).await?;
            if bin.name != old.name {
                let (version,): (i64,) = pool.row(NEXT_VERSION, &[]).await?;
                let words = place_words(Some(&bin.name));
                let args: [Arg; 4] = [
                    id.into(),
                    bin.name.as_str().into(),
                    words.as_deref().into(),
                    version.into(),
                ];
                pool.run(RENAME_STORAGE, &args).await?;
            }
            Ok(Ok(Bin::from(row)))
        });
        match changed {
            Err(StoreError::Conflict(_)) => Ok(Err(BinRefusal::CodeTaken)),
            changed => changed,
        }
    }

    /// Removes bin `id`, unless it holds items.
    pub async fn remove_bin(&self, id: i64) -> Result<Result<(), BinRefusal>, StoreError> {
        with_pool!(self, write, |pool| {
            let holds: (bool,) = pool.row(HOLDS_ITEMS, &[id.into()]).await?;
            if holds.0 {
                return Ok(Err(BinRefusal::HoldsItems));
            }
            match pool.run(DELETE_BIN, &[id.into()]).await? {
                0 => Ok(Err(BinRefusal::NotFound)),
                _ => Ok(Ok(())),
            }
        })
    }
}
