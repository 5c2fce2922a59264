//! Storage bins: `GET`/`POST /api/sites/:id/bins`, `GET`/`PATCH`/`DELETE /api/bins/:id`.
//! Staff read every site's; they add, change and remove their own sites'.

use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    routing::get,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    current_user::{May, ReadAll, Shelve},
    extract::JsonObject,
    schemas,
    sites::site_id,
    views::OkJson,
};
use crate::{
    domain::{Bin, BinFields},
    error::{AppError, Result},
    state::AppState,
    usecases::{
        NO_SITE,
        bins::{self, NO_BIN},
    },
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/sites/{id}/bins", get(list).post(create))
        .route("/api/bins/{id}", get(show).patch(update).delete(remove))
}

/// A bin: `{ id, siteId, code, name }`.
#[derive(Serialize, ToSchema)]
#[schema(as = Bin)]
pub struct BinJson {
    id: i64,
    #[serde(rename = "siteId")]
    site_id: i64,
    code: String,
    name: String,
}

impl From<Bin> for BinJson {
    fn from(bin: Bin) -> Self {
        Self {
            id: bin.id,
            site_id: bin.site_id,
            code: bin.code,
            name: bin.name,
        }
    }
}

/// The bins of a site, by code.
#[utoipa::path(get, path = "/api/sites/{id}/bins", operation_id = "listBins", tag = "bins", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Site id")),
    responses(
        (status = 200, description = "The site's bins", body = Vec<BinJson>),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Site not found", body = schemas::ErrorBody),
    ))]
async fn list(State(state): State<AppState>, _: May<ReadAll>, Path(id): Path<String>) -> Result<Json<Vec<BinJson>>> {
    let site = site_id(&id)?;
    state.store.site(site).await?.ok_or(AppError::NotFound(NO_SITE))?;
    Ok(Json(
        state.store.bins(site).await?.into_iter().map(BinJson::from).collect(),
    ))
}

/// Adds a bin to a site of the caller's.
#[utoipa::path(post, path = "/api/sites/{id}/bins", operation_id = "addBin", tag = "bins", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Site id")),
    request_body = schemas::BinBody,
    responses(
        (status = 201, description = "The new bin", body = BinJson),
        (status = 400, description = "Code required, a bad code or name", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, description = "Not staff, or another site's", body = schemas::ErrorBody),
        (status = 404, description = "Site not found", body = schemas::ErrorBody),
        (status = 409, description = "A bin of the site has that code", body = schemas::ErrorBody),
    ))]
async fn create(
    State(state): State<AppState>,
    May(session, _): May<Shelve>,
    Path(id): Path<String>,
    body: JsonObject,
) -> Result<(StatusCode, Json<BinJson>)> {
    let site = site_id(&id)?;
    let fields = BinFields::parse_new(&body.fields)?;
    let bin = bins::add(&state, &session.user, site, &fields).await?;
    Ok((StatusCode::CREATED, Json(bin.into())))
}

/// One bin (what it holds: `GET /api/items?bin=ID`).
#[utoipa::path(get, path = "/api/bins/{id}", operation_id = "getBin", tag = "bins", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Bin id")),
    responses(
        (status = 200, description = "The bin", body = BinJson),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Bin not found", body = schemas::ErrorBody),
    ))]
async fn show(State(state): State<AppState>, _: May<ReadAll>, Path(id): Path<String>) -> Result<Json<BinJson>> {
    Ok(Json(bin_in_path(&state, &id).await?.into()))
}

/// Changes a bin's code or name; its items take a new name as their storage place.
#[utoipa::path(patch, path = "/api/bins/{id}", operation_id = "updateBin", tag = "bins", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Bin id")),
    request_body = schemas::BinBody,
    responses(
        (status = 200, description = "The changed bin", body = BinJson),
        (status = 400, description = "No fields to update, a bad code or name", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, description = "Not staff, or another site's", body = schemas::ErrorBody),
        (status = 404, description = "Bin not found", body = schemas::ErrorBody),
        (status = 409, description = "A bin of the site has that code", body = schemas::ErrorBody),
    ))]
async fn update(
    State(state): State<AppState>,
    May(session, _): May<Shelve>,
    Path(id): Path<String>,
    body: JsonObject,
) -> Result<Json<BinJson>> {
    let id = bin_id(&id)?;
    let fields = BinFields::parse_change(&body.fields)?;
    Ok(Json(bins::change(&state, &session.user, id, &fields).await?.into()))
}

/// Removes a bin that holds nothing.
#[utoipa::path(delete, path = "/api/bins/{id}", operation_id = "removeBin", tag = "bins", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Bin id")),
    responses(
        (status = 200, description = "Removed", body = OkJson),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, description = "Not staff, or another site's", body = schemas::ErrorBody),
        (status = 404, description = "Bin not found", body = schemas::ErrorBody),
        (status = 409, description = "The bin holds items", body = schemas::ErrorBody),
    ))]
async fn remove(
    State(state): State<AppState>,
    May(session, _): May<Shelve>,
    Path(id): Path<String>,
) -> Result<Json<OkJson>> {
    bins::remove(&state, &session.user, bin_id(&id)?).await?;
    Ok(Json(OkJson::DONE))
}

/// A bin id in a path: a positive number, or no such bin.
fn bin_id(id: &str) -> Result<i64> {
    id.parse().ok().filter(|id| *id > 0).ok_or(AppError::NotFound(NO_BIN))
}

/// The bin a path names, or 404.
pub(super) async fn bin_in_path(state: &AppState, id: &str) -> Result<Bin> {
    state.store.bin(bin_id(id)?).await?.ok_or(AppError::NotFound(NO_BIN))
}
