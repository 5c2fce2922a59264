//! `/api/me` (and the user's email address), `/api/login`, `/api/logout`.

use std::net::IpAddr;

use axum::{
    Json, Router,
    extract::State,
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};

use super::{
    current_user::{SignedIn, Viewer},
    extract::{ClientAddr, JsonObject},
    schemas,
    views::{AccessJson, EmailJson, EmailSavedJson, LoginJson, MeJson, OkJson},
};
use crate::{
    auth::{Attempt, ThrottleDecision},
    domain::{Credentials, ProfileChange},
    error::{AppError, Result},
    json::UserJson,
    state::AppState,
    time::now_ms,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/me", get(me).patch(set_email))
        .route("/api/me/email", get(email))
        .route("/api/me/access", get(access))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
}

/// Who is logged in.
#[utoipa::path(get, path = "/api/me", operation_id = "getMe", tag = "session", responses((status = 200, description = "The user, or `null`", body = MeJson)))]
async fn me(Viewer(session): Viewer) -> Response {
    let user = session.as_ref().map(|session| UserJson::from(&session.user));
    Json(MeJson { user }).into_response()
}

/// What the logged-in user is to the service: their role and the sites they work at.
#[utoipa::path(get, path = "/api/me/access", operation_id = "getAccess", tag = "session", security(("session" = [])),
    responses((status = 200, description = "Their role and sites", body = AccessJson), (status = 401, response = schemas::LoginRequired)))]
async fn access(SignedIn(session): SignedIn) -> Response {
    Json(AccessJson::from(&session.user)).into_response()
}

/// `PATCH /api/me { email, lang }`: a new address waits for its verification (a link is
/// mailed to it) while the old one stays in use; `null` removes the address at once. `lang`
/// (`en`, `ko`, `es`) is the language emails are written in.
#[utoipa::path(patch, path = "/api/me", operation_id = "setEmail", tag = "session", security(("session" = [])),
    request_body = schemas::EmailBody,
    responses(
        (status = 200, description = "Saved: the address in use, and the one waiting for its verification", body = EmailSavedJson),
        (status = 400, description = "Invalid email, Invalid lang", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::CrossSite), (status = 413, response = schemas::TooLarge),
        (status = 429, response = schemas::TooManyRequests),
    ))]
async fn set_email(State(state): State<AppState>, SignedIn(session): SignedIn, body: JsonObject) -> Result<Response> {
    let change = ProfileChange::parse(&body.fields)?;
    let user = &session.user.id;
    if change.email().and_then(|change| change.email()).is_some()
        && let Some(retry_after_secs) = state.throttle.count_address_change(user).await?
    {
        return Err(AppError::too_many_requests(retry_after_secs));
    }
    if let Some(lang) = change.lang() {
        state.store.set_lang(user, lang).await?;
    }
    let saved = match change.email() {
        Some(email) => {
            let changed = state.store.change_email(user, email.email(), now_ms()).await?;
            state.events.publish(changed)
        }
        None => state.store.email_state(user).await?,
    };
    let lang = match change.lang() {
        Some(lang) => Some(lang),
        None => state.store.lang(user).await?,
    };
    Ok(Json(EmailSavedJson::new(&saved, lang)).into_response())
}

/// `GET /api/me/email`: the logged-in user's address and the one waiting for its
/// verification (each `null` when there is none).
#[utoipa::path(get, path = "/api/me/email", operation_id = "getEmail", tag = "session", security(("session" = [])),
    responses((status = 200, description = "The address, and the one pending", body = EmailJson), (status = 401, response = schemas::LoginRequired)))]
async fn email(State(state): State<AppState>, SignedIn(session): SignedIn) -> Result<Response> {
    let addresses = state.store.email_state(&session.user.id).await?;
    Ok(Json(EmailJson::from(&addresses)).into_response())
}

/// Starts a session: sets the `sid` cookie.
#[utoipa::path(post, path = "/api/login", operation_id = "login", tag = "session", request_body = schemas::LoginBody,
    responses(
        (status = 200, description = "Logged in; `Set-Cookie: sid=…`", body = LoginJson),
        (status = 400, description = "ID and password required", body = schemas::ErrorBody),
        (status = 401, description = "Invalid password", body = schemas::ErrorBody),
        (status = 429, response = schemas::FailedLogins),
        (status = 403, response = schemas::CrossSite), (status = 413, response = schemas::TooLarge),
    ))]
async fn login(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    body: JsonObject,
) -> Result<Response> {
    let credentials = Credentials::parse(&body.fields)?;
    let attempt = admit(&state, credentials.id(), addr, &headers).await?;
    // An id that cannot exist is checked like an unknown one: same answer, same work.
    let record = match credentials.account() {
        Some(id) => state.store.login_record(id.as_str()).await?,
        None => None,
    };
    let stored_hash = record.as_ref().map(|record| record.password_hash.clone());
    let matches = state
        .passwords
        .verify(credentials.password().to_owned(), stored_hash)
        .await?;
    let Some(record) = record.filter(|_| matches) else {
        return Err(AppError::Unauthenticated("Invalid password"));
    };
    // Said only to whoever knows the password.
    if record.disabled {
        return Err(AppError::NotAllowed("Account disabled"));
    }
    if !record.verified {
        return Err(AppError::NotAllowed("Email not verified"));
    }
    let user = record.user;
    let device = state.throttle.succeeded(&attempt, &user.id).await?;
    let session = state.sessions.start(&user.id, &headers).await?;
    let cookies = std::iter::once(session).chain(device);
    Ok(with_cookies(Json(LoginJson::new(&user)), cookies))
}

/// Counts an attempt at `account_id`'s password (a login, or the current password given to
/// change it) with the login throttle; 429 when it is refused.
pub(super) async fn admit(state: &AppState, account_id: &str, addr: IpAddr, headers: &HeaderMap) -> Result<Attempt> {
    match state.throttle.admit(account_id, addr, headers).await? {
        ThrottleDecision::Allowed(attempt) => Ok(attempt),
        ThrottleDecision::Refused { retry_after_secs } => Err(AppError::failed_logins(retry_after_secs)),
    }
}

/// Checks `current`, the password of `account_id` given again to confirm what it is asked
/// for, against `stored`, its hash: 403 `Wrong password`, or 429 when the throttle refuses.
/// Guessing it with a stolen session is guessing a login: the same counts and limits.
pub(super) async fn confirm_password(
    state: &AppState,
    account_id: &str,
    stored: Option<String>,
    current: &str,
    addr: IpAddr,
    headers: &HeaderMap,
) -> Result<Attempt> {
    let attempt = admit(state, account_id, addr, headers).await?;
    if !state.passwords.verify(current.to_owned(), stored).await? {
        return Err(AppError::NotAllowed("Wrong password"));
    }
    Ok(attempt)
}

/// Ends the session, if any.
#[utoipa::path(post, path = "/api/logout", operation_id = "logout", tag = "session",
    responses((status = 200, description = "Logged out", body = OkJson), (status = 403, response = schemas::CrossSite)))]
async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response> {
    let cookie = state.sessions.end(&headers).await?;
    Ok(with_cookies(Json(OkJson::DONE), [cookie]))
}

pub(super) fn with_cookies(body: impl IntoResponse, cookies: impl IntoIterator<Item = HeaderValue>) -> Response {
    let mut response = body.into_response();
    for cookie in cookies {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}
