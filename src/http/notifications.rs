//! `GET /api/notifications` (newest first, paged) and `POST /api/notifications/read`.

use axum::{
    Json, Router,
    extract::{RawQuery, State},
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde_json::{Value, json};

use super::{
    current_user::SignedIn,
    extract::{JsonObject, Params},
};
use crate::{
    domain::parse_limit,
    error::{AppError, Result},
    json::NotificationJson,
    state::AppState,
};

const DEFAULT_LIMIT: u32 = 50;
/// Notifications marked read by one request at most.
const MAX_IDS: usize = 1_000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/notifications", get(list))
        .route("/notifications/read", post(mark_read))
}

#[utoipa::path(get, path = "/api/notifications", operation_id = "listNotifications", tag = "notifications", security(("session" = [])),
    params(
        ("limit" = Option<u32>, Query, minimum = 1, maximum = 200, description = "1–200, default 50"),
        ("before" = Option<i64>, Query, minimum = 1, description = "Only notifications older than this id (from `Link`)"),
    ),
    responses(
        (status = 200, description = "Newest first; `Link: rel=\"next\"` when more follow", body = [super::openapi::NotificationSchema]),
        (status = 400, description = "Invalid limit, Invalid cursor, Invalid query string", body = super::openapi::ErrorBody), (status = 401, description = "Login required", body = super::openapi::ErrorBody),
    ))]
async fn list(State(state): State<AppState>, SignedIn(session): SignedIn, RawQuery(raw): RawQuery) -> Result<Response> {
    let params = Params::parse(raw.as_deref(), &["limit", "before"])?;
    let limit = params
        .get("limit")
        .map(parse_limit)
        .transpose()?
        .unwrap_or(DEFAULT_LIMIT);
    let before = params
        .get("before")
        .map(|before| before.parse::<i64>().ok().filter(|id| *id > 0))
        .map(|before| before.ok_or_else(|| AppError::invalid("Invalid cursor")))
        .transpose()?;
    // One more than asked: whether a next page exists.
    let mut notifications = state.store.notifications(&session.user.id, before, limit + 1).await?;
    let next = (notifications.len() > limit as usize).then(|| {
        notifications.truncate(limit as usize);
        let last = notifications[notifications.len() - 1].id;
        format!("</api/notifications?limit={limit}&before={last}>; rel=\"next\"")
    });
    let body: Vec<NotificationJson> = notifications.iter().map(NotificationJson::from).collect();
    let mut response = Json(body).into_response();
    if let Some(next) = next {
        let link = HeaderValue::from_str(&next).map_err(anyhow::Error::from)?;
        response.headers_mut().insert(header::LINK, link);
    }
    Ok(response)
}

/// `{ ids: [1, 2, …] }`: those that are the user's are marked read; others are ignored.
#[utoipa::path(post, path = "/api/notifications/read", operation_id = "markNotificationsRead", tag = "notifications", security(("session" = [])),
    request_body = super::openapi::MarkReadBody,
    responses(
        (status = 200, description = "Those of `ids` that are the user's are read", body = super::openapi::Ok),
        (status = 400, description = "Invalid ids", body = super::openapi::ErrorBody), (status = 401, description = "Login required", body = super::openapi::ErrorBody), (status = 403, description = "Cross-site request refused", body = super::openapi::ErrorBody), (status = 413, description = "Request body too large", body = super::openapi::ErrorBody),
    ))]
async fn mark_read(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    body: JsonObject,
) -> Result<Json<Value>> {
    let ids = body
        .fields
        .get("ids")
        .and_then(Value::as_array)
        .filter(|ids| ids.len() <= MAX_IDS)
        .and_then(|ids| {
            ids.iter()
                .map(|id| id.as_i64().filter(|id| *id > 0))
                .collect::<Option<Vec<i64>>>()
        })
        .ok_or_else(|| AppError::invalid("Invalid ids"))?;
    state.store.mark_read(&session.user.id, &ids).await?;
    Ok(Json(json!({ "ok": true })))
}
