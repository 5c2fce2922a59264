//! Rows stored before migration 0003 get their derived columns at start-up, and their photo,
//! kept until then as a `data:` URL in `items.img_data`, moves to `photos` with a thumbnail.

use super::{
    Store, StoreError,
    derived::{Derived, Source, bind_derived},
    items::NEXT_VERSION,
    with_pool,
};
use crate::{
    domain::{Photo, thumbnail_of_stored},
    time::now_ms,
};

/// Rows handled per transaction.
const BATCH: i64 = 20;

#[derive(sqlx::FromRow)]
struct LegacyRow {
    id: i64,
    title: String,
    descr: Option<String>,
    cat: Option<String>,
    storage_place: Option<String>,
    lat: f64,
    lng: f64,
    radius: f64,
    img_data: Option<String>,
}

const UNDERIVED: &str = "SELECT id, title, descr, cat, storage_place, lat, lng, radius, img_data FROM items \
     WHERE derived_at IS NULL ORDER BY id LIMIT $1";
/// Only a row still underived (another node may be doing the same).
const DERIVE: &str = "UPDATE items SET cat_key = $2, search_words = $3, place_words = $4, \
     geo_x = $5, geo_y = $6, geo_z = $7, radius_sin = $8, radius_cos = $9, \
     photo_version = $10, img_data = CASE WHEN $11 THEN NULL ELSE img_data END, derived_at = $12, \
     version = $13 \
     WHERE id = $1 AND derived_at IS NULL";
const INSERT_PHOTO: &str =
    "INSERT INTO photos (item_id, mime, bytes, thumb) VALUES ($1, $2, $3, $4) ON CONFLICT (item_id) DO NOTHING";

/// A legacy row's new columns and photo, worked out before its transaction.
struct Converted {
    row: LegacyRow,
    derived: Derived,
    photo: Option<(Photo, Option<Vec<u8>>)>,
}

impl Store {
    /// Converts every row stored before migration 0003; returns how many there were.
    pub async fn convert_legacy_rows(&self) -> Result<u64, StoreError> {
        let mut converted = 0;
        loop {
            let rows: Vec<LegacyRow> = with_pool!(self, read, |pool| {
                sqlx::query_as(UNDERIVED).bind(BATCH).fetch_all(pool).await
            })?;
            if rows.is_empty() {
                return Ok(converted);
            }
            // Decoding photos and making thumbnails is CPU work for the blocking threads.
            let batch = tokio::task::spawn_blocking(move || rows.into_iter().map(convert).collect::<Vec<_>>())
                .await
                .expect("converting legacy rows does not panic");
            converted += batch.len() as u64;
            self.store_converted(batch).await?;
        }
    }

    async fn store_converted(&self, batch: Vec<Converted>) -> Result<(), StoreError> {
        let now = now_ms();
        with_pool!(self, write, |pool| {
            let version: i64 = sqlx::query_scalar(NEXT_VERSION).fetch_one(&mut *pool).await?;
            for Converted { row, derived, photo } in &batch {
                let moved = photo.is_some();
                let updated = bind_derived!(sqlx::query(DERIVE).bind(row.id), derived)
                    .bind(photo.as_ref().map(|(photo, _)| photo.version()))
                    .bind(moved)
                    .bind(now)
                    .bind(version)
                    .execute(&mut *pool)
                    .await?
                    .rows_affected();
                if let (1, Some((photo, thumb))) = (updated, photo) {
                    sqlx::query(INSERT_PHOTO)
                        .bind(row.id)
                        .bind(&photo.mime)
                        .bind(&photo.bytes)
                        .bind(thumb.as_deref())
                        .execute(&mut *pool)
                        .await?;
                }
            }
            Ok(())
        })
    }
}

fn convert(row: LegacyRow) -> Converted {
    let derived = Derived::of(&Source {
        title: &row.title,
        desc: row.descr.as_deref(),
        cat: row.cat.as_deref(),
        storage_place: row.storage_place.as_deref(),
        // Earlier releases had no place in words.
        place: None,
        lat: row.lat,
        lng: row.lng,
        radius: row.radius,
    });
    let photo = row.img_data.as_deref().and_then(|url| {
        let photo = Photo::from_stored_data_url(url);
        if photo.is_none() {
            // Left in `img_data`, where it was: nothing is lost.
            tracing::warn!(item = row.id, "a stored photo is not a base64 data URL; left as it was");
        }
        photo
    });
    let photo = photo.map(|photo| {
        let thumb = thumbnail_of_stored(&photo);
        (photo, thumb)
    });
    Converted { row, derived, photo }
}
