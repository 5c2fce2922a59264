//! Who is calling: the session behind the `sid` cookie, as extractors for handlers.

use axum::{
    extract::FromRequestParts,
    http::{HeaderMap, header, request::Parts},
};
use cookie::Cookie;

use super::AppState;
use crate::{
    auth::{SESSION_IDLE_MS, token_hash},
    error::AppError,
    store::{Store, User},
    time::now_ms,
};

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "sid";
/// `last_seen_at` is written at most this often per session, not on every request.
const TOUCH_INTERVAL_MS: i64 = 60 * 1000;

pub struct Session {
    pub user: User,
    pub token_hash: String,
}

/// The value of the `sid` cookie, if the request carries one.
pub fn sid_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == SESSION_COOKIE)
        .map(|c| c.value().to_owned())
}

/// Resolves the request's `sid` cookie to a live session, marking it used.
pub async fn session_from_cookies(store: &Store, headers: &HeaderMap) -> Result<Option<Session>, sqlx::Error> {
    let Some(sid) = sid_cookie(headers) else {
        return Ok(None);
    };
    let hash = token_hash(&sid);
    let now = now_ms();
    let Some((user, last_seen)) = store.session_user(&hash, now - SESSION_IDLE_MS).await? else {
        return Ok(None);
    };
    if now - last_seen >= TOUCH_INTERVAL_MS {
        store.touch_session(&hash, now).await?;
    }
    Ok(Some(Session { user, token_hash: hash }))
}

/// Anyone: the session if there is one.
pub struct Viewer(pub Option<Session>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        Ok(Self(session_from_cookies(&state.store, &parts.headers).await?))
    }
}

/// A logged-in user, or 401.
pub struct SignedIn(pub Session);

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let Viewer(session) = Viewer::from_request_parts(parts, state).await?;
        session.map(Self).ok_or(AppError::Unauthenticated("Login required"))
    }
}

/// A logged-in administrator, or 401 / 403.
pub struct Admin(pub Session);

impl FromRequestParts<AppState> for Admin {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let SignedIn(session) = SignedIn::from_request_parts(parts, state).await?;
        if session.user.is_admin {
            Ok(Self(session))
        } else {
            Err(AppError::Forbidden)
        }
    }
}
