//! `/api/me`, `/api/login`, `/api/logout`.

use axum::{
    Json, Router,
    extract::State,
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use cookie::{Cookie, SameSite};
use serde_json::json;

use super::{
    AppState,
    current_user::{SESSION_COOKIE, Viewer, sid_cookie},
    extract::{ClientAddr, JsonObject},
};
use crate::{
    auth::{SessionToken, ThrottleDecision, token_hash},
    domain::{Fields, UserId},
    error::{AppError, Result},
    time::now_ms,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me", get(me))
        .route("/login", post(login))
        .route("/logout", post(logout))
}

async fn me(Viewer(session): Viewer) -> Json<serde_json::Value> {
    Json(json!({ "user": session.map(|s| s.user) }))
}

async fn login(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    body: JsonObject,
) -> Result<Response> {
    let fields = Fields(&body.fields);
    let required = |field: &'static str| match fields.string(field) {
        Ok(Some(value)) if !value.is_empty() => Ok(value),
        _ => Err(AppError::Validation {
            message: "ID and password required".into(),
            field: Some(field),
        }),
    };
    let (id, pw) = (required("id")?, required("pw")?);

    let keys = match state.throttle.admit(id, addr, now_ms()).await? {
        ThrottleDecision::Allowed(keys) => keys,
        ThrottleDecision::Refused { retry_after_secs } => {
            return Err(AppError::TooManyRequests { retry_after_secs });
        }
    };
    // An id that cannot exist is checked like an unknown one: same answer, same work.
    let record = match UserId::parse(id) {
        Ok(id) => state.store.user_record(id.as_str()).await?,
        Err(_) => None,
    };
    let (user, stored_hash) = match record {
        Some(r) => (Some(r.user), Some(r.password_hash)),
        None => (None, None),
    };
    let verified = state.passwords.verify(pw.to_owned(), stored_hash).await?;
    let Some(user) = user.filter(|_| verified) else {
        return Err(AppError::Unauthenticated("Invalid password"));
    };
    state.throttle.succeeded(&keys).await?;

    // Always a new session id; one the client still held is ended.
    if let Some(old) = sid_cookie(&headers) {
        state.store.delete_session(&token_hash(&old)).await?;
    }
    let token = SessionToken::generate();
    state.store.insert_session(&token.hash(), &user.id, now_ms()).await?;
    let cookie = session_cookie(token.value(), state.config.secure_cookies(), false);
    Ok(with_cookie(Json(json!({ "ok": true, "user": user })), cookie))
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response> {
    if let Some(sid) = sid_cookie(&headers) {
        state.store.delete_session(&token_hash(&sid)).await?;
    }
    let cookie = session_cookie("", state.config.secure_cookies(), true);
    Ok(with_cookie(Json(json!({ "ok": true })), cookie))
}

/// `HttpOnly; SameSite=Lax; Path=/`, `Secure` behind HTTPS. No `Max-Age`: the browser drops
/// it when it closes (shared campus computers), and the server ends it after 7 idle days.
fn session_cookie(value: &str, secure: bool, expired: bool) -> HeaderValue {
    let mut cookie = Cookie::build((SESSION_COOKIE, value))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(secure);
    if expired {
        cookie = cookie.max_age(cookie::time::Duration::ZERO);
    }
    HeaderValue::from_str(&cookie.to_string()).expect("session cookies are ASCII")
}

fn with_cookie(body: impl IntoResponse, cookie: HeaderValue) -> Response {
    let mut response = body.into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    response
}
