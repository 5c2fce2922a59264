//! Named places: what administrators keep for reports to choose by name (see
//! `domain::named_place`). One place to a folded name; an import adds new names and moves
//! those it names again.

use super::{
    Store, StoreError,
    statement::{Arg, Tx},
    with_pool,
};
use crate::domain::{NamedPlace, NewPlace};

#[derive(sqlx::FromRow)]
struct PlaceRow {
    id: i64,
    name: String,
    lat: f64,
    lng: f64,
    radius: Option<f64>,
}

impl From<PlaceRow> for NamedPlace {
    fn from(row: PlaceRow) -> Self {
        Self {
            id: row.id,
            name: row.name,
            lat: row.lat,
            lng: row.lng,
            radius: row.radius,
        }
    }
}

const LIST: &str = "SELECT id, name, lat, lng, radius FROM places ORDER BY name_key, id";
const INSERT: &str = "INSERT INTO places (name, name_key, lat, lng, radius, created_at) VALUES ($1, $2, $3, $4, $5, $6) \
     ON CONFLICT DO NOTHING RETURNING id, name, lat, lng, radius";
/// An import's line: a new place, or the one of that name moved (and named as the file
/// writes it).
const UPSERT: &str = "INSERT INTO places (name, name_key, lat, lng, radius, created_at) VALUES ($1, $2, $3, $4, $5, $6) \
     ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, lat = excluded.lat, lng = excluded.lng, radius = excluded.radius";
const DELETE: &str = "DELETE FROM places WHERE id = $1";

/// A place's columns as bound: name, its key, lat, lng, radius, the time.
fn place_args(place: &NewPlace, now: i64) -> [Arg<'static>; 6] {
    [
        place.name.clone().into(),
        place.key().into(),
        place.lat.into(),
        place.lng.into(),
        place.radius.into(),
        now.into(),
    ]
}

impl Store {
    /// Every named place, by name.
    pub async fn places(&self) -> Result<Vec<NamedPlace>, StoreError> {
        let rows: Vec<PlaceRow> = self.read_rows(LIST, &[]).await?;
        Ok(rows.into_iter().map(NamedPlace::from).collect())
    }

    /// Stores a new named place; `None` when another has its name (in any case).
    pub async fn add_place(&self, place: &NewPlace, now: i64) -> Result<Option<NamedPlace>, StoreError> {
        let row: Option<PlaceRow> = self.write_optional(INSERT, &place_args(place, now)).await?;
        Ok(row.map(NamedPlace::from))
    }

    /// Stores each of `places` in one transaction: new names added, known ones moved.
    pub async fn import_places(&self, places: &[NewPlace], now: i64) -> Result<(), StoreError> {
        with_pool!(self, write, |pool| {
            for place in places {
                pool.run(UPSERT, &place_args(place, now)).await?;
            }
            Ok(())
        })
    }

    /// Removes named place `id`; whether there was one. Reports that chose it keep their
    /// point and words.
    pub async fn remove_place(&self, id: i64) -> Result<bool, StoreError> {
        Ok(self.write(DELETE, &[id.into()]).await? > 0)
    }
}
