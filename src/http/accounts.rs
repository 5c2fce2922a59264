//! Accounts, managed by staff: `GET`/`POST /api/users`, `PATCH /api/users/:uid`, a password
//! reset and an unlock; and `POST /api/me/password`, each user's own password change.

use axum::{
    Json, Router,
    extract::{Path, RawQuery, State},
    http::{HeaderMap, HeaderName, HeaderValue},
    response::{IntoResponse, Response},
    routing::{get, patch, post},
};

use super::{
    current_user::{ManageAccounts, May, SignedIn},
    extract::{ClientAddr, JsonObject, Params},
    schemas,
    session::{confirm_password, with_cookies},
    views::{AccountJson, OkJson},
};
use crate::{
    auth::{AccountError, add_user, locked, set_password, unlock},
    domain::{AccountPatch, AccountQuery, NewAccount, PasswordChange, PasswordReset, ValidationError},
    error::{AppError, Result},
    state::AppState,
    store::AccountChange,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/users", get(list).post(create))
        .route("/api/users/{uid}", patch(update))
        .route("/api/users/{uid}/password", post(reset_password))
        .route("/api/users/{uid}/unlock", post(unlock_account))
        .route("/api/me/password", post(change_own_password))
}

const USER_NOT_FOUND: &str = "User not found";

impl From<AccountError> for AppError {
    fn from(err: AccountError) -> Self {
        match err {
            AccountError::Invalid(err) => err.into(),
            AccountError::Exists(_) => Self::Conflict("User already exists"),
            AccountError::NotFound(_) => Self::NotFound(USER_NOT_FOUND),
            AccountError::SingleSignOn(_) => Self::Conflict("This account signs in with single sign-on"),
            AccountError::Store(err) => err.into(),
            AccountError::Other(err) => err.into(),
        }
    }
}

/// The accounts, with their email address, whether they are disabled and whether failed
/// logins lock them now: every one by id, or those a search, a role or a site selects, in
/// the order asked, a page at a time.
#[utoipa::path(get, path = "/api/users", operation_id = "listUsers", tag = "accounts", security(("session" = [])),
    params(
        ("q" = Option<String>, Query, max_length = 100, description = "Text the id, the name or the email address contains (any case)"),
        ("role" = Option<String>, Query, description = "`member`, `staff` or `administrator`"),
        ("site" = Option<i64>, Query, minimum = 1, description = "Only those who work at this site"),
        ("sort" = Option<String>, Query, description = "`id` (the default), `name`, `newest` or `oldest`"),
        ("limit" = Option<u32>, Query, minimum = 1, maximum = 200, description = "At most this many (without it: every one)"),
        ("offset" = Option<u32>, Query, description = "Skipping this many first"),
    ),
    responses(
        (status = 200, description = "The accounts asked for; `X-Total-Count` says how many match in all", body = [AccountJson]),
        (status = 400, description = "Invalid q, Invalid role, Invalid site, Invalid sort, Invalid limit, Invalid offset, Invalid query string", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, response = schemas::AdminOnly),
    ))]
async fn list(State(state): State<AppState>, _: May<ManageAccounts>, RawQuery(raw): RawQuery) -> Result<Response> {
    let params = Params::parse(raw.as_deref(), &["q", "role", "site", "sort", "limit", "offset"])?;
    let query = AccountQuery::parse(|name| params.get(name))?;
    let (accounts, total) = state.store.accounts_matching(&query).await?;
    let locked_now = locked(&state.store, accounts.iter().map(|a| a.user.id.as_str())).await?;
    let answer: Vec<AccountJson> = accounts
        .iter()
        .map(|account| AccountJson::from(account).locked(locked_now.contains(&account.user.id)))
        .collect();
    let count = [(HeaderName::from_static("x-total-count"), HeaderValue::from(total))];
    Ok((count, Json(answer)).into_response())
}

/// Creates an account.
#[utoipa::path(post, path = "/api/users", operation_id = "createUser", tag = "accounts", security(("session" = [])),
    request_body = schemas::NewAccountBody,
    responses(
        (status = 200, description = "The new account", body = AccountJson),
        (status = 400, description = "Required fields missing, a bad id, name, password or email", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, response = schemas::AdminOnly),
        (status = 409, description = "User already exists", body = schemas::ErrorBody),
        (status = 413, response = schemas::TooLarge),
    ))]
async fn create(State(state): State<AppState>, _: May<ManageAccounts>, body: JsonObject) -> Result<Response> {
    let account = add_user(&state.store, &state.passwords, &NewAccount::parse(&body.fields)?).await?;
    Ok(Json(AccountJson::from(&account)).into_response())
}

/// Changes an account's name, role, email address, the sites it works at, or whether it is
/// disabled. Disabling ends its sessions at once.
#[utoipa::path(patch, path = "/api/users/{uid}", operation_id = "updateUser", tag = "accounts", security(("session" = [])),
    params(("uid" = String, Path, description = "User id")),
    request_body = schemas::AccountPatchBody,
    responses(
        (status = 200, description = "The account", body = AccountJson),
        (status = 400, description = "No fields to update, a bad name or email, Invalid site, You cannot demote or disable yourself, At least one administrator must remain", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, response = schemas::AdminOnly),
        (status = 404, response = schemas::NoUser),
        (status = 413, response = schemas::TooLarge),
    ))]
async fn update(
    State(state): State<AppState>,
    May(session, _): May<ManageAccounts>,
    Path(uid): Path<String>,
    body: JsonObject,
) -> Result<Response> {
    let patch = AccountPatch::parse(&body.fields)?;
    if uid.eq_ignore_ascii_case(&session.user.id) && patch.demotes_or_disables() {
        return Err(AppError::invalid("You cannot demote or disable yourself"));
    }
    match state.store.update_account(&uid, &patch).await? {
        AccountChange::Done(account) => Ok(Json(AccountJson::from(&account)).into_response()),
        AccountChange::NotFound => Err(AppError::NotFound(USER_NOT_FOUND)),
        AccountChange::LastAdmin => Err(AppError::invalid("At least one administrator must remain")),
        AccountChange::UnknownSite => Err(ValidationError::new("sites", "Invalid site").into()),
    }
}

/// Sets a new password for someone who forgot theirs: their sessions end and their failed
/// logins are forgotten.
#[utoipa::path(post, path = "/api/users/{uid}/password", operation_id = "setUserPassword", tag = "accounts", security(("session" = [])),
    params(("uid" = String, Path, description = "User id")),
    request_body = schemas::PasswordBody,
    responses(
        (status = 200, description = "Set", body = OkJson),
        (status = 400, description = "Password must be at least 8 characters, …", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, response = schemas::AdminOnly),
        (status = 404, response = schemas::NoUser),
        (status = 409, description = "This account signs in with single sign-on", body = schemas::ErrorBody),
        (status = 413, response = schemas::TooLarge),
    ))]
async fn reset_password(
    State(state): State<AppState>,
    _: May<ManageAccounts>,
    Path(uid): Path<String>,
    body: JsonObject,
) -> Result<Json<OkJson>> {
    let reset = PasswordReset::parse(&body.fields)?;
    set_password(&state.store, &state.passwords, &uid, reset.password()).await?;
    Ok(Json(OkJson::DONE))
}

/// Forgets the failed logins counted against an account, from every address.
#[utoipa::path(post, path = "/api/users/{uid}/unlock", operation_id = "unlockUser", tag = "accounts", security(("session" = [])),
    params(("uid" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "Unlocked", body = OkJson),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, response = schemas::AdminOnly),
        (status = 404, response = schemas::NoUser),
    ))]
async fn unlock_account(
    State(state): State<AppState>,
    _: May<ManageAccounts>,
    Path(uid): Path<String>,
) -> Result<Json<OkJson>> {
    state
        .store
        .account(&uid)
        .await?
        .ok_or(AppError::NotFound(USER_NOT_FOUND))?;
    unlock(&state.store, &uid).await?;
    Ok(Json(OkJson::DONE))
}

/// Changes the caller's own password. Every session of the account ends, this one included,
/// and the caller gets a new one.
#[utoipa::path(post, path = "/api/me/password", operation_id = "changePassword", tag = "session", security(("session" = [])),
    request_body = schemas::PasswordChangeBody,
    responses(
        (status = 200, description = "Changed; `Set-Cookie: sid=…` (a new session)", body = OkJson),
        (status = 400, description = "Current password required, Password must be at least 8 characters, …", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, description = "Wrong password (or a cross-site request)", body = schemas::ErrorBody),
        (status = 413, response = schemas::TooLarge),
        (status = 429, response = schemas::FailedLogins),
    ))]
async fn change_own_password(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    body: JsonObject,
) -> Result<Response> {
    let change = PasswordChange::parse(&body.fields)?;
    let id = &session.user.id;
    let stored = state.store.login_record(id).await?.map(|record| record.password_hash);
    let attempt = confirm_password(&state, id, stored, change.current(), addr, &headers).await?;
    let device = state.throttle.succeeded(&attempt, &session.user.id).await?;
    set_password(&state.store, &state.passwords, &session.user.id, change.new_password()).await?;
    let cookie = state.sessions.start(&session.user.id, &headers).await?;
    Ok(with_cookies(Json(OkJson::DONE), std::iter::once(cookie).chain(device)))
}
