//! `/api/sites`: the desks of the service. Anyone lists them (where to go, when, what to
//! bring); administrators add, change and remove them.

use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    routing::{get, patch},
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    current_user::{ManageSites, May},
    extract::JsonObject,
    schemas,
    views::OkJson,
};
use crate::{
    domain::{Site, SiteFields},
    error::{AppError, Result},
    state::AppState,
    store::SiteRefusal,
    time::now_ms,
    usecases::NO_SITE,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/sites", get(list).post(create))
        .route("/api/sites/{id}", patch(update).delete(remove))
}

/// A site as everyone sees it: `{ id, name, place, lat, lng, hours, contact, collect,
/// holdDays }`, a
/// field not set being `null`.
#[derive(Serialize, ToSchema)]
#[schema(as = Site)]
pub struct SiteJson {
    id: i64,
    name: String,
    /// Where it is, in words.
    place: Option<String>,
    lat: Option<f64>,
    lng: Option<f64>,
    /// When it is open.
    hours: Option<String>,
    contact: Option<String>,
    /// How to collect an item: what ID to bring.
    collect: Option<String>,
    /// How many days it keeps found items; `null`: the service's period.
    #[serde(rename = "holdDays")]
    hold_days: Option<u32>,
}

impl From<Site> for SiteJson {
    fn from(site: Site) -> Self {
        let (lat, lng) = site.point.unzip();
        Self {
            id: site.id,
            name: site.name,
            place: site.place,
            lat,
            lng,
            hours: site.hours,
            contact: site.contact,
            collect: site.collect,
            hold_days: site.hold_days,
        }
    }
}

/// The sites, oldest first.
#[utoipa::path(get, path = "/api/sites", operation_id = "listSites", tag = "sites",
    responses((status = 200, description = "Every site", body = Vec<SiteJson>)))]
async fn list(State(state): State<AppState>) -> Result<Json<Vec<SiteJson>>> {
    Ok(Json(
        state.store.sites().await?.into_iter().map(SiteJson::from).collect(),
    ))
}

/// Adds a site.
#[utoipa::path(post, path = "/api/sites", operation_id = "addSite", tag = "sites", security(("session" = [])),
    request_body = schemas::SiteBody,
    responses(
        (status = 201, description = "The new site", body = SiteJson),
        (status = 400, description = "Name required, a field of the wrong type or too long, lat and lng go together", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 409, description = "A site has that name", body = schemas::ErrorBody),
    ))]
async fn create(
    State(state): State<AppState>,
    _: May<ManageSites>,
    body: JsonObject,
) -> Result<(StatusCode, Json<SiteJson>)> {
    let fields = SiteFields::parse_new(&body.fields)?;
    let site = state.store.add_site(&fields.to_new_site(), now_ms()).await?;
    Ok((StatusCode::CREATED, Json(refused(site)?.into())))
}

/// Changes a site: only the fields sent; `null` clears one.
#[utoipa::path(patch, path = "/api/sites/{id}", operation_id = "updateSite", tag = "sites", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Site id")),
    request_body = schemas::SiteBody,
    responses(
        (status = 200, description = "The changed site", body = SiteJson),
        (status = 400, description = "No fields to update, a field of the wrong type or too long, lat and lng go together", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Site not found", body = schemas::ErrorBody),
        (status = 409, description = "A site has that name", body = schemas::ErrorBody),
    ))]
async fn update(
    State(state): State<AppState>,
    _: May<ManageSites>,
    Path(id): Path<String>,
    body: JsonObject,
) -> Result<Json<SiteJson>> {
    let id = site_id(&id)?;
    let fields = SiteFields::parse_change(&body.fields)?;
    let site = state.store.change_site(id, |site| fields.applied_to(site)).await?;
    Ok(Json(refused(site)?.into()))
}

/// Removes a site that holds no items.
#[utoipa::path(delete, path = "/api/sites/{id}", operation_id = "removeSite", tag = "sites", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Site id")),
    responses(
        (status = 200, description = "Removed", body = OkJson),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Site not found", body = schemas::ErrorBody),
        (status = 409, description = "The site holds items, or items are on their way to it", body = schemas::ErrorBody),
    ))]
async fn remove(State(state): State<AppState>, _: May<ManageSites>, Path(id): Path<String>) -> Result<Json<OkJson>> {
    refused(state.store.remove_site(site_id(&id)?).await?)?;
    Ok(Json(OkJson::DONE))
}

/// A site id in a path: a positive number, or no such site.
pub(super) fn site_id(id: &str) -> Result<i64> {
    id.parse().ok().filter(|id| *id > 0).ok_or(AppError::NotFound(NO_SITE))
}

fn refused<T>(outcome: std::result::Result<T, SiteRefusal>) -> Result<T> {
    outcome.map_err(|refusal| match refusal {
        SiteRefusal::NotFound => AppError::NotFound(NO_SITE),
        SiteRefusal::NameTaken => AppError::Conflict("A site has that name"),
        SiteRefusal::HoldsItems => AppError::Conflict("The site holds items: move them to another site first"),
    })
}
