//! `GET /api/notifications` (newest first, paged, said in the language asked for) and
//! `POST /api/notifications/read`.

use axum::{
    Json, Router,
    extract::{RawQuery, State},
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};

use super::{
    current_user::SignedIn,
    extract::{JsonObject, Params},
    schemas,
    views::OkJson,
};
use crate::{
    domain::{Lang, NotificationIds, NotificationPage},
    error::Result,
    json::NotificationJson,
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/notifications", get(list))
        .route("/api/notifications/read", post(mark_read))
}

#[utoipa::path(get, path = "/api/notifications", operation_id = "listNotifications", tag = "notifications", security(("session" = [])),
    params(
        ("limit" = Option<u32>, Query, minimum = 1, maximum = 200, description = "1–200, default 50"),
        ("before" = Option<i64>, Query, minimum = 1, description = "Only notifications older than this id (from `Link`)"),
        ("lang" = Option<String>, Query, description = "`en`, `ko` or `es`: the language of `text` (English by default)"),
    ),
    responses(
        (status = 200, description = "Newest first; `Link: rel=\"next\"` when more follow", body = [NotificationJson]),
        (status = 400, description = "Invalid limit, Invalid cursor, Invalid lang, Invalid query string", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired),
    ))]
async fn list(State(state): State<AppState>, SignedIn(session): SignedIn, RawQuery(raw): RawQuery) -> Result<Response> {
    let params = Params::parse(raw.as_deref(), &["limit", "before", "lang"])?;
    let page = NotificationPage::parse(|name| params.get(name))?;
    let lang: Lang = params.get("lang").map(str::parse).transpose()?.unwrap_or_default();
    let limit = page.limit();
    // One more than asked: whether a next page exists.
    let mut notifications = state
        .store
        .notifications(&session.user.id, page.before(), limit + 1)
        .await?;
    let next = (notifications.len() > limit as usize).then(|| {
        notifications.truncate(limit as usize);
        let last = notifications[notifications.len() - 1].id;
        format!("</api/notifications?limit={limit}&before={last}>; rel=\"next\"")
    });
    let body: Vec<NotificationJson> = notifications
        .iter()
        .map(|n| NotificationJson::said_in(n, lang))
        .collect();
    let mut response = Json(body).into_response();
    if let Some(next) = next {
        let link = HeaderValue::from_str(&next).map_err(anyhow::Error::from)?;
        response.headers_mut().insert(header::LINK, link);
    }
    Ok(response)
}

/// `{ ids: [1, 2, …] }`: those that are the user's are marked read; others are ignored.
#[utoipa::path(post, path = "/api/notifications/read", operation_id = "markNotificationsRead", tag = "notifications", security(("session" = [])),
    request_body = schemas::MarkReadBody,
    responses(
        (status = 200, description = "Those of `ids` that are the user's are read", body = OkJson),
        (status = 400, description = "Invalid ids", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::CrossSite), (status = 413, response = schemas::TooLarge),
    ))]
async fn mark_read(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    body: JsonObject,
) -> Result<Json<OkJson>> {
    let ids = NotificationIds::parse(&body.fields)?;
    state.store.mark_read(&session.user.id, &ids).await?;
    Ok(Json(OkJson::DONE))
}
