//! Transfers between sites: `POST /api/items/:id/transfer`, `POST /api/items/:id/receive`,
//! and `GET /api/sites/:id/transfers`, what is on its way to and from a site.

use axum::{
    Json, Router,
    extract::{Path, RawQuery, State},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    current_user::{May, ReadAll, Transfer},
    extract::{JsonObject, Params},
    item_answers::answer,
    schemas,
    sites::site_id,
    views::ItemJson,
};
use crate::{
    domain::{Fields, ItemId, ValidationError},
    error::{AppError, Result},
    state::AppState,
    usecases::{NO_SITE, transfers},
};

/// Characters a transfer's note may have.
const MAX_NOTE: usize = 500;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/items/{id}/transfer", post(send))
        .route("/api/items/{id}/receive", post(receive))
        .route("/api/sites/{id}/transfers", get(list))
}

/// Sends an item of the caller's site to another site: it is in transit (`transitTo`) until
/// staff there receive it, and stays the sender's site's meanwhile.
#[utoipa::path(post, path = "/api/items/{id}/transfer", operation_id = "sendItem", tag = "transfers", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Item id"), schemas::FieldsQuery),
    request_body = schemas::TransferBody,
    responses(
        (status = 200, description = "The item, in transit", body = schemas::Item),
        (status = 400, description = "Invalid site, The item is at that site already, Only an approved found item still held can be sent", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, description = "Not staff, or another site's item", body = schemas::ErrorBody),
        (status = 404, response = schemas::NoItem),
        (status = 409, description = "Item is in transit", body = schemas::ErrorBody),
    ))]
async fn send(
    State(state): State<AppState>,
    May(session, _): May<Transfer>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
    body: JsonObject,
) -> Result<Response> {
    let id = ItemId::parse(&id)?;
    let keys = Params::parse(raw.as_deref(), &["fields"])?.keys()?;
    let f = Fields(&body.fields);
    let to = f
        .record_id("to", "Invalid site")?
        .ok_or_else(|| ValidationError::new("to", "Invalid site"))?;
    let note = f.text("note", MAX_NOTE)?;
    let item = transfers::send(&state, &session.user, id, to, note.as_deref()).await?;
    answer(&state, &item, &keys).await
}

/// Receives an item on its way to a site of the caller's, into one of its bins or none.
#[utoipa::path(post, path = "/api/items/{id}/receive", operation_id = "receiveItem", tag = "transfers", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Item id"), schemas::FieldsQuery),
    request_body = schemas::ReceiveBody,
    responses(
        (status = 200, description = "The item, at the receiving site", body = schemas::Item),
        (status = 400, description = "Invalid bin", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, response = schemas::NoItem),
        (status = 409, description = "Item is not in transit to your site", body = schemas::ErrorBody),
    ))]
async fn receive(
    State(state): State<AppState>,
    May(session, _): May<Transfer>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
    body: JsonObject,
) -> Result<Response> {
    let id = ItemId::parse(&id)?;
    let keys = Params::parse(raw.as_deref(), &["fields"])?.keys()?;
    let bin = Fields(&body.fields).record_id("binId", "Invalid bin")?;
    let item = transfers::receive(&state, &session.user, id, bin).await?;
    answer(&state, &item, &keys).await
}

/// What is on its way to a site, and what it sent that is not received yet.
#[derive(Serialize, ToSchema)]
#[schema(as = Transfers)]
pub struct TransfersJson<'a> {
    #[schema(value_type = Vec<schemas::Item>)]
    incoming: Vec<ItemJson<'a>>,
    #[schema(value_type = Vec<schemas::Item>)]
    outgoing: Vec<ItemJson<'a>>,
}

/// Items in transit to and from a site, with the keys `fields` names (the contract's
/// without it), oldest first.
#[utoipa::path(get, path = "/api/sites/{id}/transfers", operation_id = "listTransfers", tag = "transfers", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Site id"), schemas::FieldsQuery),
    responses(
        (status = 200, description = "What travels to and from the site", body = TransfersJson),
        (status = 400, description = "Invalid fields, Invalid query string", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Site not found", body = schemas::ErrorBody),
    ))]
async fn list(
    State(state): State<AppState>,
    _: May<ReadAll>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Response> {
    let site = site_id(&id)?;
    let keys = Params::parse(raw.as_deref(), &["fields"])?.keys()?;
    state.store.site(site).await?.ok_or(AppError::NotFound(NO_SITE))?;
    let (incoming, outgoing) = state.store.transfers(site).await?;
    let json = |item| ItemJson::new(item, &keys, &state.hold, None);
    Ok(Json(TransfersJson {
        incoming: incoming.iter().map(json).collect(),
        outgoing: outgoing.iter().map(json).collect(),
    })
    .into_response())
}
