//! Which notices people get by email: `GET`/`PATCH /api/me/mail` in My account, and
//! `POST /api/unsubscribe`, the one-click unsubscribe (RFC 8058) every notification email
//! names in its `List-Unsubscribe` header — no session, the link's signature is the proof.

use std::collections::BTreeMap;

use axum::{
    Json, Router,
    extract::{RawQuery, State},
    routing::{get, post},
};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    current_user::SignedIn,
    extract::{JsonObject, Params},
    schemas,
    views::OkJson,
};
use crate::{
    auth::unsubscribe,
    domain::{NoticeKind, ValidationError},
    error::{AppError, Result},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/me/mail", get(choices).patch(choose))
        .route("/api/unsubscribe", post(unsubscribe))
}

/// Each kind of notice, and whether it is emailed: `{ "match": true, "review": false, … }`.
#[derive(Serialize, ToSchema)]
#[schema(as = MailChoices, value_type = BTreeMap<String, bool>)]
pub struct ChoicesJson(BTreeMap<&'static str, bool>);

/// Which kinds of notice `user` gets by email.
pub(super) async fn choices_of(state: &AppState, user: &str) -> Result<ChoicesJson> {
    let out = state.store.mail_optouts(user).await?;
    Ok(ChoicesJson(
        NoticeKind::ALL
            .into_iter()
            .map(|kind| (kind.as_str(), !out.iter().any(|o| o == kind.as_str())))
            .collect(),
    ))
}

/// Which kinds of notice the caller gets by email (the bell has them all).
#[utoipa::path(get, path = "/api/me/mail", operation_id = "getMailChoices", tag = "notifications", security(("session" = [])),
    responses((status = 200, description = "Each kind, emailed or not", body = ChoicesJson), (status = 401, response = schemas::LoginRequired)))]
async fn choices(State(state): State<AppState>, SignedIn(session): SignedIn) -> Result<Json<ChoicesJson>> {
    Ok(Json(choices_of(&state, &session.user.id).await?))
}

/// Changes which kinds of notice the caller gets by email: `{ kind: true | false, … }`.
#[utoipa::path(patch, path = "/api/me/mail", operation_id = "setMailChoices", tag = "notifications", security(("session" = [])),
    request_body(content = ChoicesJson, description = "The kinds to change"),
    responses(
        (status = 200, description = "Each kind, emailed or not", body = ChoicesJson),
        (status = 400, description = "Invalid kind, a choice not true or false, No fields to update", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::CrossSite),
    ))]
async fn choose(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    body: JsonObject,
) -> Result<Json<ChoicesJson>> {
    if body.fields.is_empty() {
        return Err(ValidationError::new("body", "No fields to update").into());
    }
    let mut chosen = Vec::new();
    for (name, wanted) in &body.fields {
        let kind = NoticeKind::named(name).ok_or_else(|| AppError::invalid("Invalid kind"))?;
        let Value::Bool(wanted) = wanted else {
            return Err(AppError::invalid("A choice must be true or false"));
        };
        chosen.push((kind.as_str(), *wanted));
    }
    state.store.choose_mail(&session.user.id, &chosen).await?;
    Ok(Json(choices_of(&state, &session.user.id).await?))
}

/// One click: stops the kind of notice the link names for the person it names (RFC 8058;
/// the body, `List-Unsubscribe=One-Click`, is not needed).
#[utoipa::path(post, path = "/api/unsubscribe", operation_id = "unsubscribe", tag = "notifications",
    params(("u" = String, Query, description = "User id"), ("k" = String, Query, description = "Kind of notice"), ("t" = String, Query, description = "The link's signature")),
    responses((status = 200, description = "No more emails of that kind", body = OkJson), (status = 400, description = "Invalid unsubscribe link", body = schemas::ErrorBody)))]
async fn unsubscribe(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Result<Json<OkJson>> {
    let invalid = || AppError::invalid("Invalid unsubscribe link");
    let params = Params::parse(raw.as_deref(), &["u", "k", "t"]).map_err(|_| invalid())?;
    let (Some(user), Some(kind), Some(token)) = (params.get("u"), params.get("k"), params.get("t")) else {
        return Err(invalid());
    };
    let kind = NoticeKind::named(kind).ok_or_else(invalid)?;
    if !unsubscribe::valid(&state.store.mail_key().await?, user, kind.as_str(), token) {
        return Err(invalid());
    }
    state.store.choose_mail(user, &[(kind.as_str(), false)]).await?;
    Ok(Json(OkJson::DONE))
}
