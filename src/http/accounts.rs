//! Accounts, managed by staff: `GET`/`POST /api/users`, `PATCH /api/users/:uid`, a password
//! reset and an unlock; and `POST /api/me/password`, each user's own password change.

use axum::{
    Json, Router,
    extract::{Path, State},
    http::HeaderMap,
    response::{IntoResponse, Response},
    routing::{get, patch, post},
};
use serde_json::{Value, json};

use super::{
    current_user::{Admin, SignedIn},
    extract::JsonObject,
    session::with_cookies,
    views::AccountJson,
};
use crate::{
    auth::{AccountError, add_user, set_password, unlock},
    domain::{AccountPatch, NewAccount, PasswordChange},
    error::{AppError, Result},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/users", get(list).post(create))
        .route("/users/{uid}", patch(update))
        .route("/users/{uid}/password", post(reset_password))
        .route("/users/{uid}/unlock", post(unlock_account))
        .route("/me/password", post(change_own_password))
}

const USER_NOT_FOUND: &str = "User not found";

impl From<AccountError> for AppError {
    fn from(err: AccountError) -> Self {
        match err {
            AccountError::Invalid(err) => err.into(),
            AccountError::Exists(_) => Self::Conflict("User already exists"),
            AccountError::NotFound(_) => Self::NotFound(USER_NOT_FOUND),
            AccountError::Store(err) => err.into(),
            AccountError::Other(err) => err.into(),
        }
    }
}

/// Every account, by id, with its email address and whether it is disabled.
#[utoipa::path(get, path = "/api/users", operation_id = "listUsers", tag = "accounts", security(("session" = [])),
    responses(
        (status = 200, description = "Every account", body = [super::openapi::AccountSchema]),
        (status = 401, description = "Login required", body = super::openapi::ErrorBody),
        (status = 403, description = "Admin privileges required", body = super::openapi::ErrorBody),
    ))]
async fn list(State(state): State<AppState>, _: Admin) -> Result<Response> {
    let accounts = state.store.accounts().await?;
    Ok(Json(accounts.iter().map(AccountJson::from).collect::<Vec<_>>()).into_response())
}

/// Creates an account.
#[utoipa::path(post, path = "/api/users", operation_id = "createUser", tag = "accounts", security(("session" = [])),
    request_body = super::openapi::NewAccountBody,
    responses(
        (status = 200, description = "The new account", body = super::openapi::AccountSchema),
        (status = 400, description = "Required fields missing, a bad id, name, password or email", body = super::openapi::ErrorBody),
        (status = 401, description = "Login required", body = super::openapi::ErrorBody),
        (status = 403, description = "Admin privileges required (or a cross-site request)", body = super::openapi::ErrorBody),
        (status = 409, description = "User already exists", body = super::openapi::ErrorBody),
        (status = 413, description = "Request body too large", body = super::openapi::ErrorBody),
    ))]
async fn create(State(state): State<AppState>, _: Admin, body: JsonObject) -> Result<Response> {
    let new = NewAccount::parse(&body.fields)?;
    let user = add_user(
        &state.store,
        &state.passwords,
        new.id.as_str(),
        new.name.as_str(),
        new.is_admin,
        new.password.expose(),
    )
    .await?;
    if let Some(email) = &new.email {
        state.store.set_email(&user.id, Some(email.as_str())).await?;
    }
    let account = state
        .store
        .account(&user.id)
        .await?
        .ok_or(AppError::NotFound(USER_NOT_FOUND))?;
    Ok(Json(AccountJson::from(&account)).into_response())
}

/// Changes an account's name, role, email address, or whether it is disabled. Disabling
/// ends its sessions at once.
#[utoipa::path(patch, path = "/api/users/{uid}", operation_id = "updateUser", tag = "accounts", security(("session" = [])),
    params(("uid" = String, Path, description = "User id")),
    request_body = super::openapi::AccountPatchBody,
    responses(
        (status = 200, description = "The account", body = super::openapi::AccountSchema),
        (status = 400, description = "No fields to update, a bad name or email, You cannot demote or disable yourself", body = super::openapi::ErrorBody),
        (status = 401, description = "Login required", body = super::openapi::ErrorBody),
        (status = 403, description = "Admin privileges required (or a cross-site request)", body = super::openapi::ErrorBody),
        (status = 404, description = "User not found", body = super::openapi::ErrorBody),
        (status = 413, description = "Request body too large", body = super::openapi::ErrorBody),
    ))]
async fn update(
    State(state): State<AppState>,
    Admin(session): Admin,
    Path(uid): Path<String>,
    body: JsonObject,
) -> Result<Response> {
    let patch = AccountPatch::parse(&body.fields)?;
    if uid == session.user.id && patch.demotes_or_disables() {
        return Err(AppError::invalid("You cannot demote or disable yourself"));
    }
    let account = state
        .store
        .update_account(&uid, &patch)
        .await?
        .ok_or(AppError::NotFound(USER_NOT_FOUND))?;
    Ok(Json(AccountJson::from(&account)).into_response())
}

/// Sets a new password for someone who forgot theirs: their sessions end and their failed
/// logins are forgotten.
#[utoipa::path(post, path = "/api/users/{uid}/password", operation_id = "resetPassword", tag = "accounts", security(("session" = [])),
    params(("uid" = String, Path, description = "User id")),
    request_body = super::openapi::PasswordBody,
    responses(
        (status = 200, description = "Set", body = super::openapi::Ok),
        (status = 400, description = "Password must be at least 8 characters, …", body = super::openapi::ErrorBody),
        (status = 401, description = "Login required", body = super::openapi::ErrorBody),
        (status = 403, description = "Admin privileges required (or a cross-site request)", body = super::openapi::ErrorBody),
        (status = 404, description = "User not found", body = super::openapi::ErrorBody),
        (status = 413, description = "Request body too large", body = super::openapi::ErrorBody),
    ))]
async fn reset_password(
    State(state): State<AppState>,
    _: Admin,
    Path(uid): Path<String>,
    body: JsonObject,
) -> Result<Json<Value>> {
    let password = match body.fields.get("password") {
        Some(Value::String(password)) => password,
        _ => return Err(AppError::invalid("Required fields missing")),
    };
    set_password(&state.store, &state.passwords, &uid, password).await?;
    Ok(Json(json!({ "ok": true })))
}

/// Forgets the failed logins counted against an account, from every address.
#[utoipa::path(post, path = "/api/users/{uid}/unlock", operation_id = "unlockUser", tag = "accounts", security(("session" = [])),
    params(("uid" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "Unlocked", body = super::openapi::Ok),
        (status = 401, description = "Login required", body = super::openapi::ErrorBody),
        (status = 403, description = "Admin privileges required (or a cross-site request)", body = super::openapi::ErrorBody),
        (status = 404, description = "User not found", body = super::openapi::ErrorBody),
    ))]
async fn unlock_account(State(state): State<AppState>, _: Admin, Path(uid): Path<String>) -> Result<Json<Value>> {
    state
        .store
        .account(&uid)
        .await?
        .ok_or(AppError::NotFound(USER_NOT_FOUND))?;
    unlock(&state.store, &uid).await?;
    Ok(Json(json!({ "ok": true })))
}

/// Changes the caller's own password. Every session of the account ends, this one included,
/// and the caller gets a new one.
#[utoipa::path(post, path = "/api/me/password", operation_id = "changePassword", tag = "session", security(("session" = [])),
    request_body = super::openapi::PasswordChangeBody,
    responses(
        (status = 200, description = "Changed; `Set-Cookie: sid=…` (a new session)", body = super::openapi::Ok),
        (status = 400, description = "Current password required, Password must be at least 8 characters, …", body = super::openapi::ErrorBody),
        (status = 401, description = "Login required", body = super::openapi::ErrorBody),
        (status = 403, description = "Wrong password (or a cross-site request)", body = super::openapi::ErrorBody),
        (status = 413, description = "Request body too large", body = super::openapi::ErrorBody),
    ))]
async fn change_own_password(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    headers: HeaderMap,
    body: JsonObject,
) -> Result<Response> {
    let change = PasswordChange::parse(&body.fields)?;
    let stored = state
        .store
        .user_with_password_hash(&session.user.id)
        .await?
        .map(|(_, hash)| hash);
    if !state.passwords.verify(change.current, stored).await? {
        return Err(AppError::NotAllowed("Wrong password"));
    }
    set_password(&state.store, &state.passwords, &session.user.id, change.new.expose()).await?;
    let cookie = state.sessions.start(&session.user.id, &headers).await?;
    Ok(with_cookies(Json(json!({ "ok": true })), [cookie]))
}
