//! Sites: the desks, and which holds each item (`items.site_id`; a new item goes to the
//! nearest, see `items::INSERT_ITEM`).

use super::{
    Store, StoreError,
    items::NEXT_VERSION,
    statement::{Arg, Tx},
    with_pool,
};
use crate::domain::{Site, geo::UnitVector, nearest_site as nearest};

#[derive(sqlx::FromRow)]
struct SiteRow {
    id: i64,
    name: String,
    place: Option<String>,
    lat: Option<f64>,
    lng: Option<f64>,
    hours: Option<String>,
    contact: Option<String>,
    collect: Option<String>,
    hold_days: Option<i64>,
}

impl From<SiteRow> for Site {
    fn from(row: SiteRow) -> Self {
        Self {
            id: row.id,
            name: row.name,
            place: row.place,
            point: row.lat.zip(row.lng),
            hours: row.hours,
            contact: row.contact,
            collect: row.collect,
            hold_days: row.hold_days.and_then(|days| u32::try_from(days).ok()),
        }
    }
}

/// Why a site was not removed or changed.
#[derive(Debug, PartialEq, Eq)]
pub enum SiteRefusal {
    NotFound,
    /// Another site has the name (in any case).
    NameTaken,
    /// It holds items: they must go elsewhere first.
    HoldsItems,
}

/// The columns a [`SiteRow`] reads.
macro_rules! site_columns {
    () => {
        "id, name, place, lat, lng, hours, contact, collect, hold_days"
    };
}

const LIST_SITES: &str = concat!("SELECT ", site_columns!(), " FROM sites ORDER BY id");
const SELECT_SITE: &str = concat!("SELECT ", site_columns!(), " FROM sites WHERE id = $1");
const NAME_TAKEN: &str = "SELECT EXISTS (SELECT 1 FROM sites WHERE lower(name) = lower($1) AND id <> $2)";
const INSERT_SITE: &str = concat!(
    "INSERT INTO sites (name, place, lat, lng, geo_x, geo_y, geo_z, hours, contact, collect, hold_days, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING RETURNING ",
    site_columns!()
);
const UPDATE_SITE: &str = concat!(
    "UPDATE sites SET name = $2, place = $3, lat = $4, lng = $5, geo_x = $6, geo_y = $7, geo_z = $8, \
     hours = $9, contact = $10, collect = $11, hold_days = $12 WHERE id = $1 RETURNING ",
    site_columns!()
);
/// Whether site `$1` holds items, or items are on their way to it.
const HOLDS_ITEMS: &str = "SELECT EXISTS (SELECT 1 FROM items WHERE site_id = $1 OR transit_to = $1)";
/// A site that holds nothing has empty bins only: they go with it.
const DELETE_BINS: &str = "DELETE FROM bins WHERE site_id = $1";
const DELETE_SITE: &str = "DELETE FROM sites WHERE id = $1";
/// Items an older node reported during a rolling upgrade, without a site.
const STRAYS: &str = "SELECT id, lat, lng FROM items WHERE site_id IS NULL";
const GIVE_SITE: &str = "UPDATE items SET site_id = $1 WHERE id = $2";
/// The site an upgrade made (`created_at` 0) takes the office's text as how to collect, once.
const FILL_UPGRADED: &str = "UPDATE sites SET collect = $1, created_at = $2 WHERE created_at = 0";

/// A site's columns as bound: name, place, lat, lng, geo x/y/z, hours, contact, collect,
/// hold days.
fn site_args(site: &Site) -> [Arg<'_>; 11] {
    let (lat, lng) = site.point.unzip();
    let geo = site.point.map(|(lat, lng)| UnitVector::new(lat, lng));
    [
        site.name.as_str().into(),
        site.place.as_deref().into(),
        lat.into(),
        lng.into(),
        geo.map(|g| g.x).into(),
        geo.map(|g| g.y).into(),
        geo.map(|g| g.z).into(),
        site.hours.as_deref().into(),
        site.contact.as_deref().into(),
        site.collect.as_deref().into(),
        site.hold_days.map(i64::from).into(),
    ]
}

impl Store {
    /// Every site, oldest first.
    pub async fn sites(&self) -> Result<Vec<Site>, StoreError> {
        let rows: Vec<SiteRow> = self.read_rows(LIST_SITES, &[]).await?;
        Ok(rows.into_iter().map(Site::from).collect())
    }

    pub async fn site(&self, id: i64) -> Result<Option<Site>, StoreError> {
        let row: Option<SiteRow> = self.read_row(SELECT_SITE, &[id.into()]).await?;
        Ok(row.map(Site::from))
    }

    /// Stores a new site (its `id` is ignored); refused when its name is taken (the unique
    /// index decides, so two at once cannot both have it).
    pub async fn add_site(&self, site: &Site, now: i64) -> Result<Result<Site, SiteRefusal>, StoreError> {
        let mut args = site_args(site).to_vec();
        args.push(now.into());
        let row: Option<SiteRow> = self.write_optional(INSERT_SITE, &args).await?;
        Ok(row.map(Site::from).ok_or(SiteRefusal::NameTaken))
    }

    /// Changes site `id` to `change(site)`, read and written in one transaction; refused when
    /// the new name is another site's (found first, or by the unique index when two changes
    /// race on PostgreSQL).
    pub async fn change_site(
        &self,
        id: i64,
        change: impl Fn(&Site) -> Site + Send + Sync,
    ) -> Result<Result<Site, SiteRefusal>, StoreError> {
        let changed = with_pool!(self, write, |pool| {
            let Some(old) = pool.rows::<SiteRow>(SELECT_SITE, &[id.into()]).await?.pop() else {
                return Ok(Err(SiteRefusal::NotFound));
            };
            let old = Site::from(old);
            let site = change(&old);
            let taken: (bool,) = pool.row(NAME_TAKEN, &[site.name.as_str().into(), id.into()]).await?;
            if taken.0 {
                return Ok(Err(SiteRefusal::NameTaken));
            }
            let mut args = vec![Arg::from(id)];
            args.extend(site_args(&site));
            let row: SiteRow = pool.row(UPDATE_SITE, &args).await?;
            // Its items' `holdUntil` changed with it: answers kept for the items' version go.
            if site.hold_days != old.hold_days {
                pool.run(NEXT_VERSION, &[]).await?;
            }
            Ok(Ok(Site::from(row)))
        });
        match changed {
            Err(StoreError::Conflict(_)) => Ok(Err(SiteRefusal::NameTaken)),
            changed => changed,
        }
    }

    /// Removes site `id` with its bins (and who worked there), unless it holds items or items
    /// are on their way to it.
    pub async fn remove_site(&self, id: i64) -> Result<Result<(), SiteRefusal>, StoreError> {
        with_pool!(self, write, |pool| {
            let holds: (bool,) = pool.row(HOLDS_ITEMS, &[id.into()]).await?;
            if holds.0 {
                return Ok(Err(SiteRefusal::HoldsItems));
            }
            pool.run(DELETE_BINS, &[id.into()]).await?;
            match pool.run(DELETE_SITE, &[id.into()]).await? {
                0 => Ok(Err(SiteRefusal::NotFound)),
                _ => Ok(Ok(())),
            }
        })
    }

    /// Gives every item without a site (reported by an older node during a rolling upgrade)
    /// the nearest site with a point, or the first; how many. As `items::INSERT_ITEM` does,
    /// which SQLite cannot do in one `UPDATE` (a subquery's `ORDER BY` cannot see the row).
    pub async fn give_strays_sites(&self) -> Result<usize, StoreError> {
        // Read first: a start with none (every start but a rolling upgrade's) writes nothing.
        let any: Vec<(i64, f64, f64)> = self.read_rows(STRAYS, &[]).await?;
        if any.is_empty() {
            return Ok(0);
        }
        with_pool!(self, write, |pool| {
            let strays: Vec<(i64, f64, f64)> = pool.rows(STRAYS, &[]).await?;
            let sites: Vec<Site> = pool
                .rows::<SiteRow>(LIST_SITES, &[])
                .await?
                .into_iter()
                .map(Site::from)
                .collect();
            for (item, lat, lng) in &strays {
                if let Some(site) = nearest(&sites, *lat, *lng) {
                    pool.run(GIVE_SITE, &[site.id.into(), (*item).into()]).await?;
                }
            }
            Ok(strays.len())
        })
    }

    /// Gives the site an upgrade made the office's text (`LOSTFOUND_OFFICE`) as how to collect;
    /// whether there was one to fill.
    pub async fn fill_upgraded_site(&self, office: &str, now: i64) -> Result<bool, StoreError> {
        Ok(self.write(FILL_UPGRADED, &[office.into(), now.into()]).await? > 0)
    }
}
