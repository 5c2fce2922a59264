//! `/api/categories`: the categories the app offers for a report. Anyone lists them (with the
//! name in each language); administrators add, rename and remove them, set how long found
//! items of each are kept, and mark those whose items the public sees without description and photo.

use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    routing::{get, patch},
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    current_user::{ManageCategories, May},
    extract::JsonObject,
    schemas,
    views::OkJson,
};
use crate::{
    domain::{Category, CategoryFields, CategoryNames},
    error::{AppError, Result},
    state::AppState,
    store::CategoryRefusal,
    time::now_ms,
};

const NO_CATEGORY: &str = "Category not found";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/categories", get(list).post(create))
        .route("/api/categories/{key}", patch(update).delete(remove))
}

/// A category: `{ key, names: { en, ko?, es? }, holdDays, sensitive }`.
#[derive(Serialize, ToSchema)]
#[schema(as = Category)]
pub struct CategoryJson {
    /// What a report of it carries as `cat` (lower case).
    key: String,
    names: NamesJson,
    /// How many days found items of it are kept at every site; `null`: the site's or the
    /// service's period.
    #[serde(rename = "holdDays")]
    hold_days: Option<u32>,
    /// Whether the public view of its items leaves out their description and photo (their
    /// reporters and staff still see them).
    sensitive: bool,
}

/// A category's name in each language; `ko` and `es` only when given (English stands in).
#[derive(Serialize, ToSchema)]
#[schema(as = CategoryNames)]
pub struct NamesJson {
    en: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    ko: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    es: Option<String>,
}

impl From<Category> for CategoryJson {
    fn from(category: Category) -> Self {
        let CategoryNames { en, ko, es } = category.names;
        Self {
            key: category.key,
            names: NamesJson { en, ko, es },
            hold_days: category.hold_days,
            sensitive: category.sensitive,
        }
    }
}

/// The categories, by key.
#[utoipa::path(get, path = "/api/categories", operation_id = "listCategories", tag = "categories",
    responses((status = 200, description = "Every category", body = Vec<CategoryJson>)))]
async fn list(State(state): State<AppState>) -> Result<Json<Vec<CategoryJson>>> {
    Ok(Json(
        state
            .store
            .categories()
            .await?
            .into_iter()
            .map(CategoryJson::from)
            .collect(),
    ))
}

/// Adds a category.
#[utoipa::path(post, path = "/api/categories", operation_id = "addCategory", tag = "categories", security(("session" = [])),
    request_body = schemas::CategoryBody,
    responses(
        (status = 201, description = "The new category", body = CategoryJson),
        (status = 400, description = "Names required, a name or the key of the wrong type or too long, holdDays out of range, sensitive not a boolean", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 409, description = "A category has that key", body = schemas::ErrorBody),
    ))]
async fn create(
    State(state): State<AppState>,
    _: May<ManageCategories>,
    body: JsonObject,
) -> Result<(StatusCode, Json<CategoryJson>)> {
    let fields = CategoryFields::parse_new(&body.fields)?;
    let category = state.store.add_category(&fields.to_new_category(), now_ms()).await?;
    Ok((StatusCode::CREATED, Json(refused(category)?.into())))
}

/// Changes a category's names (all of them, replaced) or holding period; the key stays.
#[utoipa::path(patch, path = "/api/categories/{key}", operation_id = "updateCategory", tag = "categories", security(("session" = [])),
    params(("key" = String, Path, description = "Category key")),
    request_body = schemas::CategoryBody,
    responses(
        (status = 200, description = "The changed category", body = CategoryJson),
        (status = 400, description = "No fields to update, a key sent, a name of the wrong type or too long, holdDays out of range, sensitive not a boolean", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Category not found", body = schemas::ErrorBody),
    ))]
async fn update(
    State(state): State<AppState>,
    _: May<ManageCategories>,
    Path(key): Path<String>,
    body: JsonObject,
) -> Result<Json<CategoryJson>> {
    let fields = CategoryFields::parse_change(&body.fields)?;
    let category = state
        .store
        .change_category(&key.to_lowercase(), |category| fields.applied_to(category))
        .await?;
    Ok(Json(refused(category)?.into()))
}

/// Removes a category: its reports keep it as text, and the site's or the service's period.
#[utoipa::path(delete, path = "/api/categories/{key}", operation_id = "removeCategory", tag = "categories", security(("session" = [])),
    params(("key" = String, Path, description = "Category key")),
    responses(
        (status = 200, description = "Removed", body = OkJson),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Category not found", body = schemas::ErrorBody),
    ))]
async fn remove(
    State(state): State<AppState>,
    _: May<ManageCategories>,
    Path(key): Path<String>,
) -> Result<Json<OkJson>> {
    refused(state.store.remove_category(&key.to_lowercase()).await?)?;
    Ok(Json(OkJson::DONE))
}

fn refused<T>(outcome: std::result::Result<T, CategoryRefusal>) -> Result<T> {
    outcome.map_err(|refusal| match refusal {
        CategoryRefusal::NotFound => AppError::NotFound(NO_CATEGORY),
        CategoryRefusal::KeyTaken => AppError::Conflict("A category has that key"),
    })
}
