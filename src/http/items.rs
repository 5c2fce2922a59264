//! `/api/items`: reports of lost and found items, and their review.

use axum::{
    Json, Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use serde::Deserialize;
use serde_json::json;

use super::{
    AppState,
    current_user::{Admin, SignedIn},
    extract::{JsonObject, cpu_bound, item_id},
};
use crate::{
    domain::{ItemPatch, ItemStatus, NewItem},
    error::{AppError, Result},
    store::Item,
    time::now_ms,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/items", get(list).post(create))
        .route("/items/{id}", get(read).patch(update).delete(remove))
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
}

async fn list(State(state): State<AppState>, query: Result<Query<ListQuery>, QueryRejection>) -> Result<Response> {
    let Query(query) = query.map_err(|_| AppError::invalid("Invalid query string"))?;
    let status = match query.status.as_deref() {
        None | Some("") => None,
        Some(s) => Some(s.parse::<ItemStatus>()?),
    };
    let items = state.store.list_items(status).await?;
    let photo_bytes = items.iter().filter_map(|i| i.img_data.as_ref()).map(String::len).sum();
    // Photos can make the list many megabytes: encode it off the async threads then.
    let body = cpu_bound(photo_bytes, move || serde_json::to_vec(&items))
        .await?
        .map_err(anyhow::Error::from)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

async fn read(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<Item>> {
    let id = item_id(&id)?;
    state
        .store
        .item(id)
        .await?
        .map(Json)
        .ok_or(AppError::NotFound("Item not found"))
}

async fn create(State(state): State<AppState>, SignedIn(session): SignedIn, body: JsonObject) -> Result<Json<Item>> {
    // Checking a photo means decoding up to 5 MiB of base64.
    let new_item = cpu_bound(body.len, move || NewItem::from_json(&body.fields)).await??;
    Ok(Json(
        state.store.insert_item(&new_item, &session.user.id, now_ms()).await?,
    ))
}

async fn update(
    State(state): State<AppState>,
    Admin(session): Admin,
    Path(id): Path<String>,
    body: JsonObject,
) -> Result<Json<Item>> {
    let id = item_id(&id)?;
    let patch = ItemPatch::from_json(&body.fields)?;
    let item = state.store.update_item(id, &patch, &session.user.id, now_ms()).await?;
    item.map(Json).ok_or(AppError::NotFound("Item not found"))
}

async fn remove(
    State(state): State<AppState>,
    Admin(session): Admin,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>> {
    let id = item_id(&id)?;
    if state.store.delete_item(id, &session.user.id, now_ms()).await? {
        Ok(Json(json!({ "ok": true })))
    } else {
        Err(AppError::NotFound("Item not found"))
    }
}
