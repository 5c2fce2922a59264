//! Getting in without staff: `POST /api/signup` and `/api/signup/verify`, `POST
//! /api/password-reset` and `/api/password-reset/confirm`, `POST /api/follow` (a visitor's
//! link to their report), and `GET /api/config`, which tells the web app which of these (and
//! single sign-on) are on. No answer says whether an address has an account.

use axum::{
    Json, Router,
    extract::State,
    http::HeaderMap,
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    current_user::Viewer,
    extract::{ClientAddr, JsonObject},
    schemas,
    session::with_cookies,
    views::{LoginJson, OkJson},
};
use crate::{
    auth::{follower, reset_password, sign_up, verify_email},
    config::SignupPolicy,
    domain::{BAD_LINK, LinkToken, NewPasswordByLink, ResetRequest, Signup},
    error::{AppError, Result},
    state::AppState,
    store::{SignupOutcome, Verified},
    time::now_ms,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/config", get(config))
        .route("/api/signup", post(signup))
        .route("/api/signup/verify", post(verify))
        .route("/api/password-reset", post(request_reset))
        .route("/api/password-reset/confirm", post(confirm_reset))
        .route("/api/follow", post(follow))
}

/// What the web app offers: `{ signup, signupDomains, oidc: { name } | null, passwordReset,
/// office }`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Config)]
pub struct ConfigJson<'a> {
    /// Whether people may sign up.
    signup: bool,
    /// The email domains sign-up is open to (empty: any).
    signup_domains: &'a [String],
    /// Single sign-on, when configured: the words of its button.
    oidc: Option<OidcJson<'a>>,
    /// Whether a forgotten password can be reset by email (email is configured).
    password_reset: bool,
    /// Where and when people collect what they claimed (`LOSTFOUND_OFFICE`), if set.
    office: Option<&'a str>,
}

#[derive(Serialize, ToSchema)]
pub struct OidcJson<'a> {
    name: &'a str,
}

/// What is on: sign-up, single sign-on, password resets by email.
#[utoipa::path(get, path = "/api/config", operation_id = "getConfig", tag = "session",
    responses((status = 200, description = "What the web app offers", body = ConfigJson)))]
async fn config(State(state): State<AppState>) -> Response {
    let accounts = &state.config.accounts;
    let domains = match &accounts.signup {
        SignupPolicy::Domains(domains) => domains.as_slice(),
        _ => &[],
    };
    let body = ConfigJson {
        signup: accounts.signup.is_open(),
        signup_domains: domains,
        oidc: accounts.oidc_issuer.as_ref().map(|_| OidcJson {
            name: &accounts.oidc_name,
        }),
        password_reset: state.config.mails_links(),
        office: state.config.office.as_deref(),
    };
    Json(body).into_response()
}

/// Signs up: an account that cannot log in until its address is verified by the link mailed
/// to it. An address that has an account already gets the same answer (and a mail saying so),
/// and the id is taken all the same: nothing the asker can see depends on the address.
#[utoipa::path(post, path = "/api/signup", operation_id = "signUp", tag = "session", request_body = schemas::SignupBody,
    responses(
        (status = 200, description = "A link to verify the address is on its way", body = OkJson),
        (status = 400, description = "Required fields missing, a bad id, name, email or password, Email domain not allowed", body = schemas::ErrorBody),
        (status = 403, description = "Sign-up is closed (or a cross-site request)", body = schemas::ErrorBody),
        (status = 409, description = "Id already taken", body = schemas::ErrorBody),
        (status = 413, response = schemas::TooLarge),
        (status = 429, response = schemas::TooManyRequests),
    ))]
async fn signup(State(state): State<AppState>, ClientAddr(addr): ClientAddr, body: JsonObject) -> Result<Json<OkJson>> {
    let policy = &state.config.accounts.signup;
    if !policy.is_open() {
        return Err(AppError::NotAllowed("Sign-up is closed"));
    }
    let signup = Signup::parse(&body.fields)?;
    if !policy.admits(&signup.email().domain()) {
        return Err(AppError::invalid("Email domain not allowed"));
    }
    refuse_too_many(&state, "signup", addr).await?;
    match state
        .events
        .publish(sign_up(&state.store, &state.passwords, &signup).await?)
    {
        SignupOutcome::Created => Ok(Json(OkJson::DONE)),
        SignupOutcome::IdTaken => Err(AppError::Conflict("Id already taken")),
    }
}

/// Verifies an address with the token of the link mailed to it. A sign-up's link logs in; a
/// link to a new address of an account in use only confirms it, and only for the account
/// logged in (anyone else, who may have it by a typo, is told to log in first).
#[utoipa::path(post, path = "/api/signup/verify", operation_id = "verifyEmail", tag = "session", request_body = schemas::TokenBody,
    responses(
        (status = 200, description = "A sign-up verified and logged in (`{ ok, user }`, `Set-Cookie: sid=…`), or a new address confirmed (`{ ok, email }`)", body = VerifiedJson),
        (status = 400, description = "Invalid or expired link", body = schemas::ErrorBody),
        (status = 403, description = "Log in to confirm this address (a new address of an account in use; the link stays good), or a cross-site request", body = schemas::ErrorBody),
        (status = 413, response = schemas::TooLarge),
    ))]
async fn verify(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    headers: HeaderMap,
    body: JsonObject,
) -> Result<Response> {
    let token = LinkToken::parse(&body.fields)?;
    let session_user = viewer.as_ref().map(|session| session.user.id.as_str());
    match verify_email(&state.store, &token, session_user).await? {
        None => Err(AppError::invalid(BAD_LINK)),
        Some(Verified::LogInFirst) => Err(AppError::NotAllowed("Log in to confirm this address")),
        Some(Verified::AddressConfirmed { email }) => {
            Ok(Json(VerifiedJson::Address { ok: true, email }).into_response())
        }
        Some(Verified::SignedUp(user)) => {
            let session = state.sessions.start(&user.id, &headers).await?;
            Ok(with_cookies(
                Json(VerifiedJson::SignedUp(LoginJson::new(&user))),
                [session],
            ))
        }
    }
}

/// `POST /api/signup/verify`: a sign-up logged in, or a new address confirmed.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[schema(as = Verified)]
pub enum VerifiedJson<'a> {
    SignedUp(LoginJson<'a>),
    Address {
        #[schema(value_type = bool, example = true)]
        ok: bool,
        /// The account's address now.
        email: String,
    },
}

/// Mails a link to set a new password to the account with this verified address, if there is
/// one: the answer is the same either way.
#[utoipa::path(post, path = "/api/password-reset", operation_id = "requestPasswordReset", tag = "session", request_body = schemas::EmailBody,
    responses(
        (status = 200, description = "A link is on its way, if the address has an account", body = OkJson),
        (status = 400, description = "Invalid email", body = schemas::ErrorBody),
        (status = 403, response = schemas::CrossSite), (status = 413, response = schemas::TooLarge),
        (status = 429, response = schemas::TooManyRequests),
    ))]
async fn request_reset(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    body: JsonObject,
) -> Result<Json<OkJson>> {
    let request = ResetRequest::parse(&body.fields)?;
    refuse_too_many(&state, "reset", addr).await?;
    if state.config.mails_links() {
        let queued = state.store.request_password_reset(request.email(), now_ms()).await?;
        state.events.publish(queued);
    }
    Ok(Json(OkJson::DONE))
}

/// Sets a new password with the token of a mailed link; every session of the account ends.
#[utoipa::path(post, path = "/api/password-reset/confirm", operation_id = "confirmPasswordReset", tag = "session", request_body = schemas::NewPasswordBody,
    responses(
        (status = 200, description = "The password is set", body = OkJson),
        (status = 400, description = "Invalid or expired link, Password must be at least 8 characters, …", body = schemas::ErrorBody),
        (status = 403, response = schemas::CrossSite), (status = 413, response = schemas::TooLarge),
        (status = 429, response = schemas::TooManyRequests),
    ))]
async fn confirm_reset(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    body: JsonObject,
) -> Result<Json<OkJson>> {
    let request = NewPasswordByLink::parse(&body.fields)?;
    refuse_too_many(&state, "reset", addr).await?;
    if reset_password(&state.store, &state.passwords, &request).await? {
        Ok(Json(OkJson::DONE))
    } else {
        Err(AppError::invalid(BAD_LINK))
    }
}

/// Logs a visitor in with the token of the link mailed when staff took their lost report: a
/// visitor's account has no password, and the link stays good for 30 days, as often as it is
/// opened (each opening is a new session).
#[utoipa::path(post, path = "/api/follow", operation_id = "followReport", tag = "session", request_body = schemas::TokenBody,
    responses(
        (status = 200, description = "The visitor, logged in (`{ ok, user }`, `Set-Cookie: sid=…`)", body = LoginJson),
        (status = 400, description = "Invalid or expired link (also once the visitor chose a password, the account is disabled, or it does staff's work)", body = schemas::ErrorBody),
        (status = 403, response = schemas::CrossSite), (status = 413, response = schemas::TooLarge),
        (status = 429, response = schemas::TooManyRequests),
    ))]
async fn follow(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    body: JsonObject,
) -> Result<Response> {
    let token = LinkToken::parse(&body.fields)?;
    refuse_too_many(&state, "follow", addr).await?;
    let user = follower(&state.store, &token)
        .await?
        .ok_or(AppError::invalid(BAD_LINK))?;
    let session = state.sessions.start(&user.id, &headers).await?;
    Ok(with_cookies(Json(LoginJson::new(&user)), [session]))
}

/// 429 once an address has made too many requests of `kind` in the throttle's window.
async fn refuse_too_many(state: &AppState, kind: &str, addr: std::net::IpAddr) -> Result<()> {
    match state.throttle.count_request(kind, addr).await? {
        Some(retry_after_secs) => Err(AppError::too_many_requests(retry_after_secs)),
        None => Ok(()),
    }
}
