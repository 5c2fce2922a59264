//! Single sign-on: `GET /api/oidc/login` sends the browser to the provider, `GET
//! /api/oidc/callback` is where it comes back; then it is logged in (the `sid` cookie) and
//! sent to the app. A sign-on that fails sends it to the app's page that says so; why goes to
//! the log only.

use axum::{
    Router,
    extract::{RawQuery, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use cookie::{Cookie, SameSite};

use super::{
    extract::{ClientAddr, Params},
    schemas,
    session::with_cookies,
};
use crate::{
    auth::cookie_value,
    error::{AppError, Result},
    state::AppState,
};

/// The cookie that binds a sign-on to the browser that started it: it holds the state.
const STATE_COOKIE: &str = "lf_sso";
/// Where a browser goes when its sign-on failed.
const FAILED: &str = "/#/sso-failed";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/oidc/login", get(login))
        .route("/api/oidc/callback", get(callback))
}

/// Sends the browser to the provider to sign in.
#[utoipa::path(get, path = "/api/oidc/login", operation_id = "ssoLogin", tag = "session",
    responses(
        (status = 303, description = "To the provider (`Location`), with the `lf_sso` cookie; to `/#/sso-failed` when the provider cannot be reached, or when this address has started too many sign-ons"),
        (status = 404, description = "Single sign-on is not set up", body = schemas::ErrorBody),
    ))]
async fn login(State(state): State<AppState>, ClientAddr(addr): ClientAddr) -> Result<Response> {
    let sso = state
        .sso
        .as_ref()
        .ok_or(AppError::NotFound("Single sign-on is not set up"))?;
    // Each start keeps a row until the browser comes back, so an address may start only so
    // many. A refused one goes where any failed sign-on goes, not to a 429: this is a page a
    // browser was sent to, and a JSON error would be all the person saw.
    if state.throttle.count_sso_start(addr).await?.is_some() {
        return Ok(see_other(FAILED));
    }
    match sso.start(&state.store).await {
        Ok((url, login_state)) => Ok(with_cookies(see_other(&url), [state_cookie(&state, &login_state)])),
        Err(err) => {
            tracing::warn!(error = %err, "single sign-on could not start");
            Ok(see_other(FAILED))
        }
    }
}

/// The provider sends the browser back here: logged in and sent to the app, or sent to the
/// page that says it failed.
#[utoipa::path(get, path = "/api/oidc/callback", operation_id = "ssoCallback", tag = "session",
    params(
        ("code" = Option<String>, Query, description = "From the provider"),
        ("state" = Option<String>, Query, description = "As sent to the provider"),
    ),
    responses(
        (status = 303, description = "To `/` logged in (`Set-Cookie: sid=…`), or to `/#/sso-failed`"),
        (status = 404, description = "Single sign-on is not set up", body = schemas::ErrorBody),
    ))]
async fn callback(State(state): State<AppState>, RawQuery(raw): RawQuery, headers: HeaderMap) -> Result<Response> {
    let sso = state
        .sso
        .as_ref()
        .ok_or(AppError::NotFound("Single sign-on is not set up"))?;
    let params = Params::parse(raw.as_deref(), &["code", "state"])?;
    let forget = state_cookie(&state, "");
    let (Some(code), Some(login_state)) = (params.get("code"), params.get("state")) else {
        tracing::warn!(
            error = params.get("error").unwrap_or("no code"),
            "single sign-on came back without a code"
        );
        return Ok(with_cookies(see_other(FAILED), [forget]));
    };
    let cookie = cookie_value(&headers, STATE_COOKIE);
    match sso.finish(&state.store, code, login_state, cookie.as_deref()).await {
        Ok(user) => {
            let session = state.sessions.start(&user.id, &headers).await?;
            Ok(with_cookies(see_other("/"), [session, forget]))
        }
        Err(err) => {
            tracing::warn!(error = %err, "single sign-on refused");
            Ok(with_cookies(see_other(FAILED), [forget]))
        }
    }
}

fn see_other(location: &str) -> Response {
    let location = HeaderValue::from_str(location).expect("locations are ASCII URLs");
    (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response()
}

/// `lf_sso=STATE`, for the callback only, ten minutes (an empty value clears it).
fn state_cookie(state: &AppState, value: &str) -> HeaderValue {
    let minutes = if value.is_empty() { 0 } else { 10 };
    let cookie = Cookie::build((STATE_COOKIE, value))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/api/oidc")
        .max_age(cookie::time::Duration::minutes(minutes))
        .secure(state.config.secure_cookies());
    HeaderValue::from_str(&cookie.to_string()).expect("state cookies are ASCII")
}
