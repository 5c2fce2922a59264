//! `/api/places`: the named places a report may choose instead of a point on the map. Anyone
//! lists them; administrators add and remove them, and import a CSV file of them.

use axum::{
    Json, Router,
    body::Bytes,
    extract::{Path, State},
    http::StatusCode,
    routing::{delete, get, post},
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
    domain::{NamedPlace, NewPlace},
    error::{AppError, Result},
    state::AppState,
    time::now_ms,
};

const NO_PLACE: &str = "Place not found";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/places", get(list).post(create))
        .route("/api/places/import", post(import))
        .route("/api/places/{id}", delete(remove))
}

/// A named place: `{ id, name, lat, lng, radius }`.
#[derive(Serialize, ToSchema)]
#[schema(as = Place)]
pub struct PlaceJson {
    id: i64,
    name: String,
    lat: f64,
    lng: f64,
    /// How far it reaches, in metres; `null`: a point.
    radius: Option<f64>,
}

impl From<NamedPlace> for PlaceJson {
    fn from(place: NamedPlace) -> Self {
        Self {
            id: place.id,
            name: place.name,
            lat: place.lat,
            lng: place.lng,
            radius: place.radius,
        }
    }
}

/// What an import did: how many lines were saved, and each line refused with why.
#[derive(Serialize, ToSchema)]
#[schema(as = PlaceImport)]
pub struct ImportJson {
    saved: usize,
    refused: Vec<RefusedLineJson>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = RefusedPlace)]
pub struct RefusedLineJson {
    /// The line of the file (the header is line 1).
    line: u64,
    error: String,
}

/// The named places, by name.
#[utoipa::path(get, path = "/api/places", operation_id = "listPlaces", tag = "places",
    responses((status = 200, description = "Every named place", body = Vec<PlaceJson>)))]
async fn list(State(state): State<AppState>) -> Result<Json<Vec<PlaceJson>>> {
    let places = state.store.places().await?;
    Ok(Json(places.into_iter().map(PlaceJson::from).collect()))
}

/// Adds a named place.
#[utoipa::path(post, path = "/api/places", operation_id = "addPlace", tag = "places", security(("session" = [])),
    request_body = schemas::PlaceBody,
    responses(
        (status = 201, description = "The new place", body = PlaceJson),
        (status = 400, description = "name must be 1-200 characters, lat missing, lng missing, a number out of range", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 409, description = "A place has that name", body = schemas::ErrorBody),
    ))]
async fn create(
    State(state): State<AppState>,
    _: May<ManageSites>,
    body: JsonObject,
) -> Result<(StatusCode, Json<PlaceJson>)> {
    let place = NewPlace::parse(&body.fields)?;
    match state.store.add_place(&place, now_ms()).await? {
        Some(place) => Ok((StatusCode::CREATED, Json(place.into()))),
        None => Err(AppError::Conflict("A place has that name")),
    }
}

/// Imports a CSV file (`name,lat,lng,radius`, with that header): new names are added, known
/// ones moved; the lines that do not pass their checks are refused, the others saved.
#[utoipa::path(post, path = "/api/places/import", operation_id = "importPlaces", tag = "places", security(("session" = [])),
    request_body(content = String, content_type = "text/csv", description = "`name,lat,lng,radius` and a place a line"),
    responses(
        (status = 200, description = "What was saved and refused", body = ImportJson),
        (status = 400, description = "The file must be CSV with the columns name, lat, lng and radius", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 413, response = schemas::TooLarge),
    ))]
async fn import(State(state): State<AppState>, _: May<ManageSites>, file: Bytes) -> Result<Json<ImportJson>> {
    let lines = state
        .cpu
        .run(file.len(), move || match std::str::from_utf8(&file) {
            Ok(text) => NewPlace::parse_csv(text),
            Err(_) => Err(NewPlace::not_csv()),
        })
        .await??;
    let (places, refused): (Vec<_>, Vec<_>) = lines.into_iter().partition(|line| line.is_ok());
    let places: Vec<NewPlace> = places.into_iter().flatten().collect();
    state.store.import_places(&places, now_ms()).await?;
    let refused = refused
        .into_iter()
        .filter_map(|line| line.err())
        .map(|(line, error)| RefusedLineJson { line, error })
        .collect();
    Ok(Json(ImportJson {
        saved: places.len(),
        refused,
    }))
}

/// Removes a named place; reports that chose it keep their point and words.
#[utoipa::path(delete, path = "/api/places/{id}", operation_id = "removePlace", tag = "places", security(("session" = [])),
    params(("id" = i64, Path, description = "Place id")),
    responses(
        (status = 200, description = "Removed", body = OkJson),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Place not found", body = schemas::ErrorBody),
    ))]
async fn remove(State(state): State<AppState>, _: May<ManageSites>, Path(id): Path<String>) -> Result<Json<OkJson>> {
    let id = id.parse::<i64>().map_err(|_| AppError::NotFound(NO_PLACE))?;
    match state.store.remove_place(id).await? {
        true => Ok(Json(OkJson::DONE)),
        false => Err(AppError::NotFound(NO_PLACE)),
    }
}
