//! `DELETE /api/messages/:id`: staff remove a message of the chat or of a thread. Sockets
//! that asked for message ids are told (`message:deleted`), on every node.

use axum::{
    Json, Router,
    extract::{Path, State},
    routing::delete,
};

use super::{
    current_user::{May, Remove},
    schemas,
    views::OkJson,
};
use crate::{
    domain::MessageId,
    error::{AppError, Result},
    state::AppState,
};

const NO_MESSAGE: &str = "Message not found";

pub fn router() -> Router<AppState> {
    Router::new().route("/api/messages/{id}", delete(remove))
}

/// Removes a message from its history.
#[utoipa::path(delete, path = "/api/messages/{id}", operation_id = "deleteMessage", tag = "messages", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Message id (the `id` key of messages, for sockets that ask for it)")),
    responses(
        (status = 200, description = "Deleted", body = OkJson),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Message not found", body = schemas::ErrorBody),
    ))]
async fn remove(State(state): State<AppState>, _: May<Remove>, Path(id): Path<String>) -> Result<Json<OkJson>> {
    let id = MessageId::parse(&id).ok_or(AppError::NotFound(NO_MESSAGE))?;
    match state.events.publish(state.store.delete_message(id).await?) {
        Some(_) => Ok(Json(OkJson::DONE)),
        None => Err(AppError::NotFound(NO_MESSAGE)),
    }
}
