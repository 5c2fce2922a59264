//! `/api/me`, `/api/login`, `/api/logout`.

use axum::{
    Json, Router,
    extract::State,
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde_json::json;

use super::{
    current_user::Viewer,
    extract::{ClientAddr, JsonObject},
    views::UserJson,
};
use crate::{
    auth::ThrottleDecision,
    domain::{Credentials, UserId},
    error::{AppError, Result},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me", get(me))
        .route("/login", post(login))
        .route("/logout", post(logout))
}

async fn me(Viewer(session): Viewer) -> Json<serde_json::Value> {
    Json(json!({ "user": session.as_ref().map(|s| UserJson::from(&s.user)) }))
}

async fn login(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    body: JsonObject,
) -> Result<Response> {
    let credentials = Credentials::parse(&body.fields)?;
    let attempt = match state.throttle.admit(credentials.id(), addr, &headers).await? {
        ThrottleDecision::Allowed(attempt) => attempt,
        ThrottleDecision::Refused { retry_after_secs } => {
            return Err(AppError::TooManyRequests { retry_after_secs });
        }
    };
    // An id that cannot exist is checked like an unknown one: same answer, same work.
    let record = match UserId::parse(credentials.id()) {
        Ok(id) => state.store.user_with_password_hash(id.as_str()).await?,
        Err(_) => None,
    };
    let (user, stored_hash) = record.unzip();
    let verified = state
        .passwords
        .verify(credentials.password().to_owned(), stored_hash)
        .await?;
    let Some(user) = user.filter(|_| verified) else {
        return Err(AppError::Unauthenticated("Invalid password"));
    };
    let device = state.throttle.succeeded(&attempt, &user.id).await?;
    let session = state.sessions.start(&user.id, &headers).await?;
    let cookies = std::iter::once(session).chain(device);
    Ok(with_cookies(
        Json(json!({ "ok": true, "user": UserJson::from(&user) })),
        cookies,
    ))
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response> {
    let cookie = state.sessions.end(&headers).await?;
    Ok(with_cookies(Json(json!({ "ok": true })), [cookie]))
}

fn with_cookies(body: impl IntoResponse, cookies: impl IntoIterator<Item = HeaderValue>) -> Response {
    let mut response = body.into_response();
    for cookie in cookies {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}
