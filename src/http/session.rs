//! `/api/me` (and the user's email address), `/api/login`, `/api/logout`.

use axum::{
    Json, Router,
    extract::State,
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde_json::{Value, json};

use super::{
    current_user::{SignedIn, Viewer},
    extract::{ClientAddr, JsonObject},
    views::UserJson,
};
use crate::{
    auth::ThrottleDecision,
    domain::{Credentials, Email, UserId},
    error::{AppError, Result},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me", get(me).patch(set_email))
        .route("/me/email", get(email))
        .route("/login", post(login))
        .route("/logout", post(logout))
}

/// Who is logged in.
#[utoipa::path(get, path = "/api/me", operation_id = "getMe", tag = "session", responses((status = 200, description = "The user, or `null`", body = super::openapi::MeAnswer)))]
async fn me(Viewer(session): Viewer) -> Json<serde_json::Value> {
    Json(json!({ "user": session.as_ref().map(|s| UserJson::from(&s.user)) }))
}

/// `PATCH /api/me { email }`: the address notifications are sent to; `null` removes it.
#[utoipa::path(patch, path = "/api/me", operation_id = "setEmail", tag = "session", security(("session" = [])),
    request_body = super::openapi::EmailBody,
    responses(
        (status = 200, description = "Saved", body = super::openapi::EmailSaved),
        (status = 400, description = "Invalid email", body = super::openapi::ErrorBody), (status = 401, description = "Login required", body = super::openapi::ErrorBody), (status = 403, description = "Cross-site request refused", body = super::openapi::ErrorBody), (status = 413, description = "Request body too large", body = super::openapi::ErrorBody),
    ))]
async fn set_email(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    body: JsonObject,
) -> Result<Json<serde_json::Value>> {
    let email = match body.fields.get("email") {
        Some(Value::Null) => None,
        Some(Value::String(email)) => Some(Email::parse(email)?),
        _ => return Err(AppError::invalid("Invalid email")),
    };
    state
        .store
        .set_email(&session.user.id, email.as_ref().map(Email::as_str))
        .await?;
    Ok(Json(json!({ "ok": true, "email": email.as_ref().map(Email::as_str) })))
}

/// `GET /api/me/email`: the logged-in user's address, or `null`.
#[utoipa::path(get, path = "/api/me/email", operation_id = "getEmail", tag = "session", security(("session" = [])),
    responses((status = 200, description = "The address, or `null`", body = super::openapi::EmailAnswer), (status = 401, description = "Login required", body = super::openapi::ErrorBody)))]
async fn email(State(state): State<AppState>, SignedIn(session): SignedIn) -> Result<Json<serde_json::Value>> {
    Ok(Json(json!({ "email": state.store.email(&session.user.id).await? })))
}

/// Starts a session: sets the `sid` cookie.
#[utoipa::path(post, path = "/api/login", operation_id = "login", tag = "session", request_body = super::openapi::LoginBody,
    responses(
        (status = 200, description = "Logged in; `Set-Cookie: sid=…`", body = super::openapi::LoginAnswer),
        (status = 400, description = "ID and password required", body = super::openapi::ErrorBody),
        (status = 401, description = "Invalid password", body = super::openapi::ErrorBody),
        (status = 429, description = "Too many failed logins; see `Retry-After`", body = super::openapi::ErrorBody),
        (status = 403, description = "Cross-site request refused", body = super::openapi::ErrorBody), (status = 413, description = "Request body too large", body = super::openapi::ErrorBody),
    ))]
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
    // Said only to whoever knows the password.
    if state
        .store
        .account(&user.id)
        .await?
        .is_some_and(|account| account.disabled)
    {
        return Err(AppError::NotAllowed("Account disabled"));
    }
    let device = state.throttle.succeeded(&attempt, &user.id).await?;
    let session = state.sessions.start(&user.id, &headers).await?;
    let cookies = std::iter::once(session).chain(device);
    Ok(with_cookies(
        Json(json!({ "ok": true, "user": UserJson::from(&user) })),
        cookies,
    ))
}

/// Ends the session, if any.
#[utoipa::path(post, path = "/api/logout", operation_id = "logout", tag = "session",
    responses((status = 200, description = "Logged out", body = super::openapi::Ok), (status = 403, description = "Cross-site request refused", body = super::openapi::ErrorBody)))]
async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response> {
    let cookie = state.sessions.end(&headers).await?;
    Ok(with_cookies(Json(json!({ "ok": true })), [cookie]))
}

pub(super) fn with_cookies(body: impl IntoResponse, cookies: impl IntoIterator<Item = HeaderValue>) -> Response {
    let mut response = body.into_response();
    for cookie in cookies {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}
