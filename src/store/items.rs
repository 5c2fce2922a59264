//! Items, their photos, and the log of review actions on them.

use std::{borrow::Cow, sync::LazyLock};

use super::{
    Db, Store, StoreError,
    derived::{Derived, Source, bind_derived, place_words},
    imports::{ADVANCE, ImportStep, advance_args},
    in_place::{self, converted},
    meanings,
    notifications::{
        NotificationRow, REVIEW_NOTICE_ARGS, committed, notify_reviewers_in_place, review_notice_args,
        review_notice_ctes,
    },
    statement::{Arg, Tx, bind_all},
    with_pool,
};
use crate::domain::{
    Committed, Disposal, Event, Finder, Happened, ImportedItem, Item, ItemChange, ItemId, ItemKind, ItemPatch,
    ItemStatus, NewItem, NewPhoto, Notice, Photo, ReportEdit,
};

/// An `items` row as the drivers decode it.
#[derive(sqlx::FromRow)]
pub(super) struct ItemRow {
    #[sqlx(try_from = "i64")]
    id: ItemId,
    title: String,
    descr: Option<String>,
    cat: Option<String>,
    #[sqlx(try_from = "String")]
    kind: ItemKind,
    photo_version: Option<String>,
    lat: f64,
    lng: f64,
    radius: f64,
    #[sqlx(try_from = "String")]
    status: ItemStatus,
    storage_place: Option<String>,
    place: Option<String>,
    created_at: i64,
    created_by: String,
    returned_at: Option<i64>,
    finder_name: Option<String>,
    finder_contact: Option<String>,
    verification: Option<String>,
    happened_from: Option<i64>,
    happened_until: Option<i64>,
    disposed_at: Option<i64>,
    disposal_method: Option<String>,
    disposal_note: Option<String>,
    closed_at: Option<i64>,
    version: i64,
    site_id: Option<i64>,
    bin_id: Option<i64>,
    transit_to: Option<i64>,
    /// How long its category's and its site's found items are kept, when each has a period
    /// of its own.
    category_hold_days: Option<i64>,
    site_hold_days: Option<i64>,
    /// Whether its category is marked sensitive (`NULL`: it has none kept).
    sensitive: Option<bool>,
}

/// The columns of [`item_columns`], in their order, as rusqlite reads them (a write in place).
impl TryFrom<&rusqlite::Row<'_>> for ItemRow {
    type Error = rusqlite::Error;

    fn try_from(row: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(Self {
            id: converted(row, 0, <ItemId as TryFrom<i64>>::try_from)?,
            title: row.get(1)?,
            descr: row.get(2)?,
            cat: row.get(3)?,
            kind: converted(row, 4, <ItemKind as TryFrom<String>>::try_from)?,
            photo_version: row.get(5)?,
            lat: row.get(6)?,
            lng: row.get(7)?,
            radius: row.get(8)?,
            status: converted(row, 9, <ItemStatus as TryFrom<String>>::try_from)?,
            storage_place: row.get(10)?,
            place: row.get(11)?,
            created_at: row.get(12)?,
            created_by: row.get(13)?,
            returned_at: row.get(14)?,
            finder_name: row.get(15)?,
            finder_contact: row.get(16)?,
            verification: row.get(17)?,
            happened_from: row.get(18)?,
            happened_until: row.get(19)?,
            disposed_at: row.get(20)?,
            disposal_method: row.get(21)?,
            disposal_note: row.get(22)?,
            closed_at: row.get(23)?,
            version: row.get(24)?,
            site_id: row.get(25)?,
            bin_id: row.get(26)?,
            transit_to: row.get(27)?,
            category_hold_days: row.get(28)?,
            site_hold_days: row.get(29)?,
            sensitive: row.get(30)?,
        })
    }
}

impl ItemRow {
    /// When it was lost or found, when its reporter said: both columns, or neither.
    fn happened(&self) -> Option<Happened> {
        self.happened_from
            .zip(self.happened_until)
            .map(|(from, until)| Happened { from, until })
    }

    /// The item.
    pub(super) fn into_item(self) -> Item {
        let row = self;
        let happened = row.happened();
        Item {
            category_hold_days: row.category_hold_days.and_then(|days| u32::try_from(days).ok()),
            site_hold_days: row.site_hold_days.and_then(|days| u32::try_from(days).ok()),
            sensitive: row.sensitive.unwrap_or(false),
            finder: (row.finder_name.is_some() || row.finder_contact.is_some()).then_some(Finder {
                name: row.finder_name,
                contact: row.finder_contact,
            }),
            verification: row.verification,
            happened,
            // The column's CHECK admits the five methods only.
            disposal: row
                .disposed_at
                .zip(row.disposal_method.and_then(|m| m.parse().ok()))
                .map(|(at, method)| Disposal {
                    at,
                    method,
                    note: row.disposal_note,
                }),
            closed_at: row.closed_at,
            site_id: row.site_id,
            bin_id: row.bin_id,
            transit_to: row.transit_to,
            id: row.id,
            title: row.title,
            desc: row.descr,
            cat: row.cat,
            kind: row.kind,
            photo_version: row.photo_version,
            lat: row.lat,
            lng: row.lng,
            radius: row.radius,
            status: row.status,
            storage_place: row.storage_place,
            place: row.place,
            created_at: row.created_at,
            created_by: row.created_by,
            returned_at: row.returned_at,
            version: row.version,
        }
    }
}

/// An item neither returned, disposed nor closed: it may still match, be claimed, be
/// disposed of or closed.
macro_rules! open_item {
    () => {
        "returned_at IS NULL AND disposed_at IS NULL AND closed_at IS NULL"
    };
}
pub(super) use open_item;

/// The columns an [`ItemRow`] is read from.
macro_rules! item_columns {
    () => {
        "id, title, descr, cat, kind, photo_version, lat, lng, radius, status, storage_place, place, \
         created_at, created_by, returned_at, finder_name, finder_contact, verification, happened_from, happened_until, disposed_at, disposal_method, \
         disposal_note, closed_at, version, site_id, bin_id, transit_to, \
         (SELECT hold_days FROM categories WHERE categories.key = items.cat_key) AS category_hold_days, \
         (SELECT hold_days FROM sites WHERE sites.id = items.site_id) AS site_hold_days, \
         (SELECT sensitive FROM categories WHERE categories.key = items.cat_key) AS sensitive"
    };
}
pub(super) use item_columns;

/// Every change to an item takes the next version first, and the item keeps it as its own: its
/// connection's row of the items' version is bumped (one of 64 on PostgreSQL, so that changes
/// on other connections and nodes do not wait for its commit; SQLite's one writer keeps one
/// row), and the version is the row's new value × 64 + the row's number, given only once.
pub(super) const NEXT_VERSION: &str = "UPDATE item_list_version SET version = version + 1 \
     WHERE id = (SELECT stripe FROM item_version_stripe) RETURNING version * 64 + id AS version";
/// The version of every list (`list_version`): the rows' sum, which grows with every change;
/// on SQLite the writer reads it at each commit.
pub(super) const LIST_VERSION: &str = "SELECT CAST(SUM(version) AS BIGINT) FROM item_list_version";
/// The columns a new item's row is written with, in the order of [`item_args`] (with
/// `derived_at` at the end, written as `created_at`).
const NEW_ITEM_COLUMNS: &str = "title, descr, cat, kind, photo_version, lat, lng, radius, status, storage_place, \
     created_at, created_by, version, finder_name, finder_contact, place, cat_key, search_words, place_words, geo_x, \
     geo_y, geo_z, radius_sin, radius_cos, site_id, bin_id, verification, happened_from, happened_until, derived_at";
static INSERT_COLUMNS: LazyLock<String> = LazyLock::new(|| format!("INSERT INTO items ({NEW_ITEM_COLUMNS}) VALUES "));
/// Parameters a row of [`INSERT_COLUMNS`] takes.
const ITEM_ARGS: usize = 29;

/// Where [`item_args`] puts the list version.
const VERSION_ARG: usize = 13;

/// One row's values, its [`item_args`] from parameter `first`, each written `{mark}n`: `$n`
/// for the drivers, SQLite's `?n` for a statement bound by position in place; the list
/// version is `version` where given (an SQL expression: its parameter is then not read). A
/// new item goes to the nearest site (the largest dot product of the two points as unit
/// vectors), or the first when no site has a point.
fn item_values(first: usize, mark: char, version: Option<&str>) -> String {
    let p = |n: usize| format!("{mark}{}", first + n - 1);
    let params: Vec<String> = (1..=24)
        .map(|n| match version {
            Some(version) if n == VERSION_ARG => version.to_owned(),
            _ => p(n),
        })
        .collect();
    format!(
        "({}, COALESCE({}, (SELECT id FROM sites ORDER BY COALESCE(geo_x * {} + geo_y * {} + geo_z * {}, -2) DESC, id \
         LIMIT 1)), {}, {}, {}, {}, {})",
        params.join(", "),
        p(25),
        p(20),
        p(21),
        p(22),
        p(26),
        p(27),
        p(28),
        p(29),
        p(11),
    )
}

/// Inserts one item and reads its row back.
static INSERT_ITEM: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{}{} RETURNING {}",
        *INSERT_COLUMNS,
        item_values(1, '$', None),
        item_columns!()
    )
});

/// Inserts one item, in place: its row is read back by id, as `RETURNING` would give it
/// through a table made and dropped for each statement (a tenth of the insert's time).
static INSERT_ITEM_IN_PLACE: LazyLock<String> =
    LazyLock::new(|| format!("{}{}", *INSERT_COLUMNS, item_values(1, '$', None)));

fn insert_item_in_place(connection: &rusqlite::Connection, args: &[Arg<'_>]) -> rusqlite::Result<ItemRow> {
    in_place::run(connection, &INSERT_ITEM_IN_PLACE, args)?;
    in_place::row(connection, SELECT_ITEM, &[connection.last_insert_rowid().into()])
}

/// A new item on PostgreSQL in one statement, so one round trip and no transaction around
/// it: the next list version (its row locked only while the statement runs and commits), the
/// item's row with that version ([`item_args`]' version is bound but not read), its photo
/// (the three parameters after the notices', `NULL` without one), and the notices of those
/// who review it ([`review_notice_ctes`]); it reads back the row and those notices, as JSON.
static CREATE_POSTGRES: LazyLock<String> = LazyLock::new(|| {
    let photo = ITEM_ARGS + REVIEW_NOTICE_ARGS + 1;
    format!(
        "WITH next AS ({NEXT_VERSION}), made AS ({insert}{values} RETURNING *), \
         photo AS (INSERT INTO photos (item_id, mime, bytes, thumb) \
           SELECT made.id, ${mime}, ${bytes}, ${thumb} FROM made WHERE ${mime} IS NOT NULL), \
         {notices} \
         SELECT {columns}, (SELECT CAST(COALESCE(json_agg(told), '[]') AS TEXT) FROM told) AS notified \
         FROM made AS items",
        insert = *INSERT_COLUMNS,
        values = item_values(1, '$', Some("(SELECT version FROM next)")),
        notices = review_notice_ctes(ITEM_ARGS + 1),
        mime = photo,
        bytes = photo + 1,
        thumb = photo + 2,
        columns = item_columns!(),
    )
});

/// A row of [`CREATE_POSTGRES`].
#[derive(sqlx::FromRow)]
struct Created {
    #[sqlx(flatten)]
    row: ItemRow,
    /// The notifications written, as `json_agg` wrote them.
    notified: String,
}

/// Items an import writes with one statement through sqlx (PostgreSQL): each statement is a
/// trip to the database. 32 rows of 29 parameters are within its limit.
const IMPORT_ROWS: usize = 32;
/// Items an import stages with one statement in place (SQLite): 200 rows of 29 parameters
/// are within SQLite's 32,766.
const IMPORT_ROWS_IN_PLACE: usize = 200;

/// Inserts `rows` items with one statement `into` (the start of an `INSERT`), reading nothing
/// back, its parameters written `{mark}n` ([`item_values`]). (Made of the constants above and
/// numbers: nothing of the items is in its text.)
fn insert_items(into: &str, rows: usize, mark: char) -> String {
    let values: Vec<String> = (0..rows)
        .map(|row| item_values(row * ITEM_ARGS + 1, mark, None))
        .collect();
    format!("{into}{}", values.join(", "))
}

/// Where an import on SQLite puts its new rows before it writes them to `items` with one
/// statement ([`WRITE_STAGED`]). Each statement that writes `items` is a savepoint of its
/// own, at which the full-text index writes out what it holds and SQLite visits the
/// transaction's pages; one that writes a temporary table has neither (docs/performance.md).
/// The table lives as long as the writer's connection, empty between batches.
static STAGE_TABLE: LazyLock<String> =
    LazyLock::new(|| format!("CREATE TEMP TABLE IF NOT EXISTS import_rows ({NEW_ITEM_COLUMNS})"));
/// The start of the statement that stages rows ([`insert_items`] adds their values).
static STAGE_ROWS: LazyLock<String> =
    LazyLock::new(|| format!("INSERT INTO temp.import_rows ({NEW_ITEM_COLUMNS}) VALUES "));
/// The staging statement of a full [`IMPORT_ROWS_IN_PLACE`] rows, made once: most of an
/// import's statements are this one, and formatting its 5,800 parameters each time was 3.8 %
/// of an import's samples.
static STAGE_FULL: LazyLock<String> = LazyLock::new(|| insert_items(&STAGE_ROWS, IMPORT_ROWS_IN_PLACE, '?'));
/// Writes the staged rows to `items`, in the order they were staged.
static WRITE_STAGED: LazyLock<String> = LazyLock::new(|| {
    format!("INSERT INTO items ({NEW_ITEM_COLUMNS}) SELECT {NEW_ITEM_COLUMNS} FROM temp.import_rows ORDER BY rowid")
});

/// Writes what is staged to `items` and empties the stage.
fn write_staged(connection: &rusqlite::Connection) -> rusqlite::Result<()> {
    in_place::run(connection, &WRITE_STAGED, &[])?;
    in_place::run(connection, "DELETE FROM temp.import_rows", &[])?;
    Ok(())
}

/// The statements an import writes its items with, in the file's order: runs of items without
/// a photo, at most `per_statement` to a statement, and each item with a photo alone (its
/// photo's row needs its id).
enum ImportStatement {
    Rows(std::ops::Range<usize>),
    WithPhoto(usize),
}

fn import_statements(items: &[ImportedItem], per_statement: usize) -> Vec<ImportStatement> {
    let mut statements = Vec::new();
    let mut run_from = 0;
    for (n, imported) in items.iter().enumerate() {
        if imported.item.photo().is_some() {
            if run_from < n {
                statements.push(ImportStatement::Rows(run_from..n));
            }
            statements.push(ImportStatement::WithPhoto(n));
            run_from = n + 1;
        } else if n + 1 - run_from == per_statement {
            statements.push(ImportStatement::Rows(run_from..n + 1));
            run_from = n + 1;
        }
    }
    if run_from < items.len() {
        statements.push(ImportStatement::Rows(run_from..items.len()));
    }
    statements
}

/// The parameters of the imported `items`' rows, one after another.
fn imported_args<'a>(items: &'a [ImportedItem], derived: &'a [Derived], version: i64) -> Vec<Arg<'a>> {
    items
        .iter()
        .zip(derived)
        .flat_map(|(imported, derived)| {
            item_args(
                &imported.item,
                derived,
                &imported.created_by,
                imported.created_at,
                version,
            )
        })
        .collect()
}

/// The parameters of a new item's row: its fields, `derived` columns, who reported it and
/// when, its list `version`.
fn item_args<'a>(
    item: &'a NewItem,
    derived: &'a Derived,
    created_by: &'a str,
    created_at: i64,
    version: i64,
) -> [Arg<'a>; ITEM_ARGS] {
    [
        item.title().into(),
        item.desc().into(),
        item.cat().into(),
        item.kind().as_str().into(),
        item.photo().map(|p| p.photo.version()).into(),
        item.lat().into(),
        item.lng().into(),
        item.radius().into(),
        item.status().as_str().into(),
        item.storage_place().into(),
        created_at.into(),
        created_by.into(),
        version.into(),
        item.finder().and_then(|f| f.name.as_deref()).into(),
        item.finder().and_then(|f| f.contact.as_deref()).into(),
        item.place().into(),
        derived.cat_key.as_deref().into(),
        derived.search_words.as_str().into(),
        derived.place_words.as_deref().into(),
        derived.centre.x.into(),
        derived.centre.y.into(),
        derived.centre.z.into(),
        derived.radius.sin.into(),
        derived.radius.cos.into(),
        item.site().into(),
        item.bin().into(),
        item.verification().into(),
        item.happened().map(|h| h.from).into(),
        item.happened().map(|h| h.until).into(),
    ]
}
const INSERT_PHOTO: &str = "INSERT INTO photos (item_id, mime, bytes, thumb) VALUES ($1, $2, $3, $4)";
/// [`INSERT_PHOTO`] in place: the one statement with bytes, which [`Arg`] does not carry.
fn insert_photo_in_place(connection: &rusqlite::Connection, id: ItemId, photo: &NewPhoto) -> rusqlite::Result<()> {
    let mut statement = connection.prepare_cached(INSERT_PHOTO)?;
    statement.execute((id.get(), &photo.photo.mime, &photo.photo.bytes, &photo.thumb))?;
    Ok(())
}
/// Stores item `$id`'s new photo (a `&NewPhoto`) with its thumbnail, on `$pool`.
macro_rules! insert_photo {
    ($pool:ident, $id:expr, $photo:expr) => {{
        let photo: &NewPhoto = $photo;
        sqlx::query(INSERT_PHOTO)
            .bind($id)
            .bind(&photo.photo.mime)
            .bind(&photo.photo.bytes)
            .bind(&photo.thumb)
            .execute(&mut *$pool)
            .await?;
    }};
}

/// The derived columns of a new item, worked out before its write.
fn derived_of(item: &NewItem) -> Derived {
    Derived::of(&Source {
        title: item.title(),
        desc: item.desc(),
        cat: item.cat(),
        storage_place: item.storage_place(),
        place: item.place(),
        lat: item.lat(),
        lng: item.lng(),
        radius: item.radius(),
    })
}

/// Inserts `$item`'s row (with its `$derived` columns) and its photo on the write connection
/// `$pool`, created by `$created_by` at `$now` with list version `$version`; yields the
/// stored row. A macro, as `with_pool!` compiles its body once per driver.
macro_rules! insert_row {
    ($pool:ident, $item:expr, $derived:expr, $created_by:expr, $now:expr, $version:expr) => {{
        let item: &NewItem = $item;
        let photo = item.photo();
        let args = item_args(item, $derived, $created_by, $now, $version);
        let row: ItemRow = bind_all!(sqlx::query_as(INSERT_ITEM.as_str()), &args)
            .fetch_one(&mut *$pool)
            .await?;
        if let Some(photo) = photo {
            insert_photo!($pool, row.id.get(), photo);
        }
        row
    }};
}
const SELECT_ITEM: &str = concat!("SELECT ", item_columns!(), " FROM items WHERE id = $1");
const UPDATE_ITEM: &str = concat!(
    "UPDATE items SET status = COALESCE($2, status), \
     storage_place = CASE WHEN $3 THEN $4 ELSE storage_place END, \
     place_words = CASE WHEN $3 THEN $5 ELSE place_words END, \
     bin_id = CASE WHEN $3 THEN $7 ELSE bin_id END, \
     version = $6 \
     WHERE id = $1 RETURNING ",
    item_columns!()
);
/// The item as it is, its row locked: a correction made at the same time waits, then reads
/// this one's outcome.
const LOCKED_ITEM: &str = concat!(
    "UPDATE items SET status = status WHERE id = $1 RETURNING ",
    item_columns!()
);
/// A corrected report: what it says, where, its derived columns, its photo's version, and,
/// when `$12`, back to review.
const EDIT_ITEM: &str = concat!(
    "UPDATE items SET title = $2, descr = $3, cat = $4, place = $5, lat = $6, lng = $7, radius = $8, \
     photo_version = $9, version = $10, derived_at = $11, \
     status = CASE WHEN $12 THEN 'pending' ELSE status END, \
     cat_key = $13, search_words = $14, place_words = $15, geo_x = $16, geo_y = $17, geo_z = $18, \
     radius_sin = $19, radius_cos = $20, verification = $21, happened_from = $22, happened_until = $23 \
     WHERE id = $1 RETURNING ",
    item_columns!()
);
const DELETE_PHOTO: &str = "DELETE FROM photos WHERE item_id = $1";
const DELETE_ITEM: &str = "DELETE FROM items WHERE id = $1";
/// The item's state before a change, read with its row locked (on PostgreSQL: a concurrent
/// change waits, then reads this one's outcome), so two identical changes at once tell the
/// reporter once.
const ITEM_STATE: &str = "UPDATE items SET status = status WHERE id = $1 RETURNING status, storage_place";
const RECORD_CHANGE: &str =
    "INSERT INTO item_changes (item_id, changed_by, changed_at, change) VALUES ($1, $2, $3, $4)";
const SELECT_PHOTO: &str = "SELECT mime, bytes FROM photos WHERE item_id = $1";
/// The thumbnail, or the photo itself where there is none.
const SELECT_THUMB: &str = "SELECT thumb IS NULL, mime, COALESCE(thumb, bytes) FROM photos WHERE item_id = $1";

/// Appends to an item's change log on `tx`, in the transaction of the change itself.
pub(super) async fn record_change(
    tx: &mut impl Tx,
    id: ItemId,
    actor: &str,
    now: i64,
    change: &ItemChange<'_>,
) -> sqlx::Result<()> {
    tx.run(
        RECORD_CHANGE,
        &[id.get().into(), actor.into(), now.into(), change.to_json().into()],
    )
    .await
    .map(drop)
}

/// One entry of an item's change log.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ChangeRecord {
    pub changed_by: String,
    /// Milliseconds since the Unix epoch.
    pub changed_at: i64,
    /// What changed, as [`ItemChange::to_json`] wrote it.
    pub change: String,
}

/// A thumbnail as served: its type and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thumbnail {
    pub content_type: String,
    pub bytes: Vec<u8>,
}

impl Store {
    pub async fn insert_item(&self, item: NewItem, created_by: &str, now: i64) -> Result<Committed<Item>, StoreError> {
        let derived = derived_of(&item);
        let (row, notified): (ItemRow, Vec<NotificationRow>) = match &self.db {
            Db::Sqlite { writer, .. } => {
                let reviewed = item.status() == ItemStatus::Pending;
                // What the write in place owns.
                let (reporter, outboxes) = (created_by.to_owned(), self.outboxes());
                writer
                    .run(move |connection| {
                        let (version,): (i64,) = in_place::row(connection, NEXT_VERSION, &[])?;
                        let args = item_args(&item, &derived, &reporter, now, version);
                        let row: ItemRow = insert_item_in_place(connection, &args)?;
                        if let Some(photo) = item.photo() {
                            insert_photo_in_place(connection, row.id, photo)?;
                        }
                        let notified = if reviewed {
                            notify_reviewers_in_place(connection, outboxes, row.id, &reporter, now)?
                        } else {
                            Vec::new()
                        };
                        Ok((row, notified))
                    })
                    .await?
            }
            Db::Postgres(pool) => {
                let args: Vec<Arg<'_>> = item_args(&item, &derived, created_by, now, 0)
                    .into_iter()
                    .chain(review_notice_args(self.outboxes(), now))
                    .collect();
                let photo = item.photo();
                let created: Created = bind_all!(sqlx::query_as(CREATE_POSTGRES.as_str()), &args)
                    .bind(photo.map(|photo| photo.photo.mime.as_str()))
                    .bind(photo.map(|photo| photo.photo.bytes.as_slice()))
                    .bind(photo.map(|photo| photo.thumb.as_slice()))
                    .fetch_one(pool)
                    .await?;
                let notified =
                    serde_json::from_str(&created.notified).map_err(|err| sqlx::Error::Decode(err.into()))?;
                (created.row, notified)
            }
        };
        Ok(committed(row.into_item(), notified))
    }

    /// Adds items kept elsewhere before (`lostfound items import`), in one transaction with
    /// the import's `step`: as they were, reported by whom and when they say, with no review,
    /// matching or notification (their news is old). False, adding nothing, when another run
    /// of the same file moved its import first.
    pub async fn import_items(&self, items: Vec<ImportedItem>, step: &ImportStep<'_>) -> Result<bool, StoreError> {
        let derived: Vec<Derived> = items.iter().map(|imported| derived_of(&imported.item)).collect();
        let (file_sha256, from_line, to_line, finished_at) = (
            step.file_sha256.to_owned(),
            step.from_line,
            step.to_line,
            step.finished_at,
        );
        with_pool!(
            self,
            write,
            in_place: move |connection| {
                let step = ImportStep { file_sha256: &file_sha256, from_line, to_line, finished_at };
                if in_place::run(connection, ADVANCE, &advance_args(&step, items.len()))? != 1 {
                    return Ok(false);
                }
                let (version,): (i64,) = in_place::row(connection, NEXT_VERSION, &[])?;
                in_place::run(connection, &STAGE_TABLE, &[])?;
                for statement in import_statements(&items, IMPORT_ROWS_IN_PLACE) {
                    match statement {
                        ImportStatement::Rows(rows) => {
                            let args = imported_args(&items[rows.clone()], &derived[rows.clone()], version);
                            let sql = match rows.len() {
                                IMPORT_ROWS_IN_PLACE => Cow::Borrowed(STAGE_FULL.as_str()),
                                n => Cow::Owned(insert_items(&STAGE_ROWS, n, '?')),
                            };
                            in_place::run_numbered(connection, &sql, &args)?;
                        }
                        ImportStatement::WithPhoto(n) => {
                            write_staged(connection)?;
                            let ImportedItem { item, created_by, created_at } = &items[n];
                            let args = item_args(item, &derived[n], created_by, *created_at, version);
                            let row: ItemRow = insert_item_in_place(connection, &args)?;
                            insert_photo_in_place(connection, row.id, item.photo().expect("a photo"))?;
                        }
                    }
                }
                write_staged(connection)?;
                Ok(true)
            },
            |pool| {
                if pool.run(ADVANCE, &advance_args(step, items.len())).await? != 1 {
                    return Ok(false);
                }
                let version: i64 = sqlx::query_scalar(NEXT_VERSION).fetch_one(&mut *pool).await?;
                for statement in import_statements(&items, IMPORT_ROWS) {
                    match statement {
                        ImportStatement::Rows(rows) => {
                            let args = imported_args(&items[rows.clone()], &derived[rows.clone()], version);
                            let sql = sqlx::AssertSqlSafe(insert_items(&INSERT_COLUMNS, rows.len(), '$'));
                            bind_all!(sqlx::query(sql), &args).execute(&mut *pool).await?;
                        }
                        ImportStatement::WithPhoto(n) => {
                            let ImportedItem { item, created_by, created_at } = &items[n];
                            let _: ItemRow = insert_row!(pool, item, &derived[n], created_by, *created_at, version);
                        }
                    }
                }
                Ok(true)
            }
        )
    }

    pub async fn item(&self, id: ItemId) -> Result<Option<Item>, StoreError> {
        let row: Option<ItemRow> = with_pool!(self, read, |pool| {
            sqlx::query_as(SELECT_ITEM).bind(id.get()).fetch_optional(pool).await
        })?;
        Ok(row.map(|row| row.into_item()))
    }

    /// The version of every list: it grows with each change to any item, on any node. Asked
    /// before reading items, so that what is read is never older than the version.
    pub async fn list_version(&self) -> Result<i64, StoreError> {
        match &self.db {
            // Known in memory: every write goes through this process's writer.
            Db::Sqlite { writer, .. } => Ok(writer.list_version()),
            Db::Postgres(pool) => Ok(sqlx::query_scalar(LIST_VERSION).fetch_one(pool).await?),
        }
    }

    /// The item's photo as uploaded; `None` if it has none (or there is no such item).
    pub async fn photo(&self, id: ItemId) -> Result<Option<Photo>, StoreError> {
        let row: Option<(String, Vec<u8>)> = with_pool!(self, read, |pool| {
            sqlx::query_as(SELECT_PHOTO).bind(id.get()).fetch_optional(pool).await
        })?;
        Ok(row.map(|(mime, bytes)| Photo { mime, bytes }))
    }

    /// The item's thumbnail; `None` if it has no photo.
    pub async fn thumbnail(&self, id: ItemId) -> Result<Option<Thumbnail>, StoreError> {
        let row: Option<(bool, String, Vec<u8>)> = with_pool!(self, read, |pool| {
            sqlx::query_as(SELECT_THUMB).bind(id.get()).fetch_optional(pool).await
        })?;
        Ok(row.map(|(is_photo, mime, bytes)| Thumbnail {
            content_type: if is_photo {
                mime.to_ascii_lowercase()
            } else {
                crate::domain::THUMB_TYPE.to_owned()
            },
            bytes,
        }))
    }

    /// Applies an administrator's update and records it: the item, and whether this update
    /// approved it (its matches are to be told); `None` if no such item. A review tells who
    /// may read the item's thread (`Event::Reviewed`).
    pub async fn update_item(
        &self,
        id: ItemId,
        patch: &ItemPatch,
        actor: &str,
        now: i64,
    ) -> Result<Committed<Option<(Item, bool)>>, StoreError> {
        let place_words = patch.storage_place().and_then(place_words);
        let updated: Option<(ItemRow, Vec<NotificationRow>, bool)> = with_pool!(self, write, |pool| {
            let before: Option<(String, Option<String>)> = sqlx::query_as(ITEM_STATE)
                .bind(id.get())
                .fetch_optional(&mut *pool)
                .await?;
            match before {
                // No such item: nothing changes and the version is not spent.
                None => Ok(None),
                Some((status_before, place_before)) => {
                    let version: i64 = sqlx::query_scalar(NEXT_VERSION).fetch_one(&mut *pool).await?;
                    let row: ItemRow = sqlx::query_as(UPDATE_ITEM)
                        .bind(id.get())
                        .bind(patch.status().map(ItemStatus::as_str))
                        .bind(patch.storage_place().is_some())
                        .bind(patch.storage_place().flatten())
                        .bind(place_words.as_deref())
                        .bind(version)
                        // A storage place in words is no bin's.
                        .bind(patch.bin().flatten())
                        .fetch_one(&mut *pool)
                        .await?;
                    record_change(pool, id, actor, now, &ItemChange::Updated(patch)).await?;
                    let status_changed = patch.status().is_some_and(|status| status.as_str() != status_before);
                    let mut notices = Vec::new();
                    if status_changed {
                        notices.push(Notice::status_changed(id, &row.title, row.status, patch.reason()));
                    }
                    if patch
                        .storage_place()
                        .is_some_and(|place| place != place_before.as_deref())
                    {
                        notices.push(Notice::storage_changed(id, &row.title, row.storage_place.as_deref()));
                    }
                    let mut notified = Vec::new();
                    // Staff changing a report of their own need not be told.
                    if row.created_by != actor {
                        for notice in &notices {
                            notified.extend(self.notify_user(pool, &row.created_by, notice, now).await?);
                        }
                    }
                    let approved = status_changed && row.status == ItemStatus::Approved;
                    Ok(Some((row, notified, approved)))
                }
            }
        })?;
        let Some((row, notified, approved)) = updated else {
            return Ok(Committed::quiet(None));
        };
        let item = row.into_item();
        let reviewed = patch.status().is_some().then(|| Event::reviewed(&item));
        let mut committed = committed(Some((item, approved)), notified);
        committed.events.extend(reviewed);
        Ok(committed)
    }

    /// Corrects a report (see [`ReportEdit`]) and records it; with `review_again`, an
    /// approved report goes back to review and its site's staff are told. A new text loses
    /// its meaning, made again in the background. `None` if no such item.
    pub async fn edit_item(
        &self,
        id: ItemId,
        edit: &ReportEdit,
        actor: &str,
        review_again: bool,
        now: i64,
    ) -> Result<Committed<Option<Item>>, StoreError> {
        let edited: Option<(ItemRow, Vec<NotificationRow>)> = with_pool!(self, write, |pool| {
            let before: Option<ItemRow> = sqlx::query_as(LOCKED_ITEM)
                .bind(id.get())
                .fetch_optional(&mut *pool)
                .await?;
            let Some(before) = before else { return Ok(None) };
            let (lat, lng) = edit.point().unwrap_or((before.lat, before.lng));
            let text = |edited: Option<Option<&str>>, was: &Option<String>| -> Option<String> {
                edited.map_or_else(|| was.clone(), |now| now.map(str::to_owned))
            };
            let (title, desc) = (
                edit.title().unwrap_or(&before.title).to_owned(),
                text(edit.desc(), &before.descr),
            );
            let (cat, place) = (text(edit.cat(), &before.cat), text(edit.place(), &before.place));
            let radius = edit.radius().unwrap_or(before.radius);
            let verification = text(edit.verification(), &before.verification);
            let happened = edit.happened().unwrap_or_else(|| before.happened());
            let derived = Derived::of(&Source {
                title: &title,
                desc: desc.as_deref(),
                cat: cat.as_deref(),
                storage_place: before.storage_place.as_deref(),
                place: place.as_deref(),
                lat,
                lng,
                radius,
            });
            let photo_version = match edit.photo() {
                None => before.photo_version.clone(),
                Some(photo) => {
                    sqlx::query(DELETE_PHOTO).bind(id.get()).execute(&mut *pool).await?;
                    if let Some(photo) = photo {
                        insert_photo!(pool, id.get(), photo);
                    }
                    photo.map(|p| p.photo.version())
                }
            };
            if edit.changes_text() {
                sqlx::query(meanings::FORGET).bind(id.get()).execute(&mut *pool).await?;
            }
            let pending = review_again && before.status == ItemStatus::Approved;
            let version: i64 = sqlx::query_scalar(NEXT_VERSION).fetch_one(&mut *pool).await?;
            let row: ItemRow = bind_derived!(
                sqlx::query_as(EDIT_ITEM)
                    .bind(id.get())
                    .bind(&title)
                    .bind(desc.as_deref())
                    .bind(cat.as_deref())
                    .bind(place.as_deref())
                    .bind(lat)
                    .bind(lng)
                    .bind(radius)
                    .bind(photo_version.as_deref())
                    .bind(version)
                    .bind(now)
                    .bind(pending),
                derived
            )
            .bind(verification.as_deref())
            .bind(happened.map(|h| h.from))
            .bind(happened.map(|h| h.until))
            .fetch_one(&mut *pool)
            .await?;
            record_change(pool, id, actor, now, &ItemChange::Edited(edit)).await?;
            let notified = if pending {
                self.notify_reviewers(pool, id, &row.created_by, now).await?
            } else {
                Vec::new()
            };
            Ok(Some((row, notified)))
        })?;
        Ok(match edited {
            Some((row, notified)) => {
                let item = row.into_item();
                let reviewed = Event::reviewed(&item);
                let mut committed = committed(Some(item), notified);
                committed.events.push(reviewed);
                committed
            }
            None => Committed::quiet(None),
        })
    }

    /// Deletes an item (and, by cascade, its photo and thread) and records it; false if no
    /// such item.
    pub async fn delete_item(&self, id: ItemId, actor: &str, now: i64) -> Result<bool, StoreError> {
        with_pool!(self, write, |pool| {
            let found = sqlx::query(DELETE_ITEM)
                .bind(id.get())
                .execute(&mut *pool)
                .await?
                .rows_affected()
                > 0;
            if found {
                sqlx::query(NEXT_VERSION).execute(&mut *pool).await?;
                record_change(pool, id, actor, now, &ItemChange::Deleted).await?;
            }
            Ok(found)
        })
    }

    /// The recorded review actions on an item, oldest first.
    pub async fn item_changes(&self, id: ItemId) -> Result<Vec<ChangeRecord>, StoreError> {
        with_pool!(self, read, |pool| {
            sqlx::query_as("SELECT changed_by, changed_at, change FROM item_changes WHERE item_id = $1 ORDER BY id")
                .bind(id.get())
                .fetch_all(pool)
                .await
        })
    }
}
