//! Claims on found items: `POST`/`GET /api/items/:id/claims`, `GET /api/claims`,
//! `PATCH`/`DELETE /api/claims/:cid`. A claim's message is private: these answers go only to
//! its claimant and to administrators, and nothing here logs it.

use axum::{
    Json, Router,
    extract::{Path, RawQuery, State},
    routing::{get, patch},
};

use super::{
    current_user::{Admin, SignedIn},
    extract::{JsonObject, Params},
    views::ClaimJson,
};
use crate::{
    auth::Session,
    domain::{ClaimStatus, ItemId, ItemNotFound, parse_decision, parse_message},
    error::{AppError, Result},
    state::AppState,
    store::ClaimFilter,
    time::now_ms,
};

/// Claims answered at most by one listing, newest first.
const MOST_LISTED: u32 = 500;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/items/{id}/claims", get(of_item).post(open))
        .route("/claims", get(list))
        .route("/claims/{cid}", patch(decide).delete(withdraw))
}

/// A `:cid` path segment: what is not a claim id names no claim.
fn claim_id(raw: &str) -> Result<i64> {
    ItemId::parse(raw)
        .map(ItemId::get)
        .map_err(|_| AppError::NotFound("Claim not found"))
}

/// Administrators see every claim; anyone else only their own.
fn claimant_filter(session: &Session) -> Option<&str> {
    (!session.user.is_admin).then_some(session.user.id.as_str())
}

async fn open(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let id = ItemId::parse(&id)?;
    let message = parse_message(&body.fields)?;
    let claim = state
        .store
        .open_claim(id, &session.user.id, &message, now_ms())
        .await??;
    Ok(Json(ClaimJson::from(claim)))
}

async fn of_item(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<Vec<ClaimJson>>> {
    let id = ItemId::parse(&id)?;
    state.store.item(id).await?.ok_or(ItemNotFound)?;
    let filter = ClaimFilter {
        item: Some(id),
        claimant: claimant_filter(&session),
        status: None,
    };
    let claims = state.store.claims(&filter, MOST_LISTED).await?;
    Ok(Json(claims.into_iter().map(ClaimJson::from).collect()))
}

async fn list(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Json<Vec<ClaimJson>>> {
    let params = Params::parse(raw.as_deref(), &["status"])?;
    let status = params.get("status").map(str::parse::<ClaimStatus>).transpose()?;
    let filter = ClaimFilter {
        item: None,
        claimant: claimant_filter(&session),
        status,
    };
    let claims = state.store.claims(&filter, MOST_LISTED).await?;
    Ok(Json(claims.into_iter().map(ClaimJson::from).collect()))
}

async fn decide(
    State(state): State<AppState>,
    Admin(session): Admin,
    Path(cid): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let cid = claim_id(&cid)?;
    let accept = parse_decision(&body.fields)?;
    let claim = state
        .store
        .decide_claim(cid, accept, &session.user.id, now_ms())
        .await??;
    Ok(Json(ClaimJson::from(claim)))
}

async fn withdraw(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(cid): Path<String>,
) -> Result<Json<ClaimJson>> {
    let cid = claim_id(&cid)?;
    let claim = state.store.withdraw_claim(cid, &session.user.id, now_ms()).await??;
    Ok(Json(ClaimJson::from(claim)))
}
