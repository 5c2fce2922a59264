//! Claims on found items: `POST`/`GET /api/items/:id/claims`, `GET /api/claims`,
//! `PATCH`/`DELETE /api/claims/:cid`, and the pickup of an accepted one: `POST
//! /api/claims/:cid/handover`, `POST /api/claims/:cid/cancel`, `GET /api/claims/:cid/receipt`;
//! or its posting: `POST /api/claims/:cid/post`, `…/post/fee`, `…/post/payment`, `…/post/sent`;
//! and its conversation: `GET`/`POST /api/claims/:cid/messages`. A claim's messages are
//! private: these answers go only to its claimant and to staff, and nothing here logs them.

use axum::{
    Json, Router,
    extract::{Path, RawQuery, State},
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
    routing::{get, patch, post},
};

use super::{
    current_user::{Decide, May, SignedIn},
    extract::{JsonObject, Params},
    reader::Reader,
    schemas,
    views::{ClaimJson, ClaimMessageJson},
};
use crate::{
    auth::Session,
    domain::{
        Claim, ClaimId, ClaimStatus, ItemId, Lang,
        access::{self, Action},
        parse_address, parse_cancellation, parse_claim_message, parse_decision, parse_fee, parse_handover,
        parse_message, parse_payment, parse_shipment, query_record_id,
    },
    error::Result,
    state::AppState,
    store::ClaimFilter,
    time::now_ms,
};

/// Claims answered at most by one listing, newest first.
const MOST_LISTED: u32 = 500;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/items/{id}/claims", get(of_item).post(open))
        .route("/api/claims", get(list))
        .route("/api/claims/{cid}", patch(decide).delete(withdraw))
        .route("/api/claims/{cid}/handover", post(hand_over))
        .route("/api/claims/{cid}/cancel", post(cancel))
        .route("/api/claims/{cid}/receipt", get(receipt))
        .route("/api/claims/{cid}/post", post(request_post))
        .route("/api/claims/{cid}/post/fee", post(set_fee))
        .route("/api/claims/{cid}/post/payment", post(record_payment))
        .route("/api/claims/{cid}/post/sent", post(send_by_post))
        .route("/api/claims/{cid}/messages", get(conversation).post(write))
}

/// Those who may read everything see every claim; anyone else only their own.
fn claimant_filter(session: &Session) -> Option<&str> {
    (!access::may(&session.user, Action::ReadAll)).then_some(session.user.id.as_str())
}

/// Claims a found item with a private message.
#[utoipa::path(post, path = "/api/items/{id}/claims", operation_id = "claimItem", tag = "claims", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Item id")),
    request_body = schemas::ClaimBody,
    responses(
        (status = 200, description = "The new claim, `open`", body = ClaimJson),
        (status = 400, description = "Item cannot be claimed, Invalid item ID, or a bad message", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, description = "You reported this item (or a cross-site request)", body = schemas::ErrorBody), (status = 404, response = schemas::NoItem),
        (status = 409, description = "Claim already open", body = schemas::ErrorBody), (status = 413, response = schemas::TooLarge),
    ))]
async fn open(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let id = ItemId::parse(&id)?;
    let message = parse_message(&body.fields)?;
    // An item someone may not read is as if there were none (it is not approved either).
    if state.config.custody.restricts() {
        Reader::of(&state, Some(&session)).readable(state.store.item(id).await?)?;
    }
    let opened = state.store.open_claim(id, &session.user.id, &message, now_ms()).await?;
    let claim = state.events.publish(opened)?;
    Ok(Json(ClaimJson::from(claim)))
}

/// An administrator: every claim on the item; anyone else: their own.
#[utoipa::path(get, path = "/api/items/{id}/claims", operation_id = "listItemClaims", tag = "claims", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Item id"),
        ("contact" = Option<bool>, Query, description = "Staff: each claim with its claimant's `contact`")),
    responses(
        (status = 200, description = "Newest first", body = [ClaimJson]),
        (status = 400, description = "Invalid item ID, Invalid contact, Invalid query string", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 404, response = schemas::NoItem),
    ))]
async fn of_item(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Vec<ClaimJson>>> {
    let id = ItemId::parse(&id)?;
    let contact = Params::parse(raw.as_deref(), &["contact"])?.flag("contact")?;
    Reader::of(&state, Some(&session)).readable(state.store.item(id).await?)?;
    let filter = ClaimFilter {
        item: Some(id),
        claimant: claimant_filter(&session),
        status: None,
        site: None,
    };
    let claims = state.store.claims(&filter, MOST_LISTED).await?;
    Ok(Json(answer(&session, claims, contact)))
}

/// An administrator: every claim (the queue); anyone else: their own.
#[utoipa::path(get, path = "/api/claims", operation_id = "listClaims", tag = "claims", security(("session" = [])),
    params(("status" = Option<String>, Query, description = "`open`, `accepted` (ready for pickup), `rejected`, `withdrawn`, `collected` or `cancelled`"),
        ("site" = Option<i64>, Query, minimum = 1, description = "Only claims on the items this site holds"),
        ("contact" = Option<bool>, Query, description = "Staff: each claim with its claimant's `contact`")),
    responses(
        (status = 200, description = "Newest first, at most 500", body = [ClaimJson]),
        (status = 400, description = "Invalid status, Invalid site, Invalid contact, Invalid query string", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired),
    ))]
async fn list(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Json<Vec<ClaimJson>>> {
    let params = Params::parse(raw.as_deref(), &["status", "site", "contact"])?;
    let status = params.get("status").map(str::parse::<ClaimStatus>).transpose()?;
    let site = query_record_id(params.get("site"), "site", "Invalid site")?;
    let filter = ClaimFilter {
        item: None,
        claimant: claimant_filter(&session),
        status,
        site,
    };
    let claims = state.store.claims(&filter, MOST_LISTED).await?;
    Ok(Json(answer(&session, claims, params.flag("contact")?)))
}

/// Claims as answered to `session`: with their claimants' contacts when staff ask for them.
fn answer(session: &Session, claims: Vec<Claim>, contact: bool) -> Vec<ClaimJson> {
    let with_contact = contact && claimant_filter(session).is_none();
    let json = if with_contact {
        ClaimJson::with_contact
    } else {
        ClaimJson::from
    };
    claims.into_iter().map(json).collect()
}

/// Accepts (the item is ready for pickup at its site) or rejects a claim.
#[utoipa::path(patch, path = "/api/claims/{cid}", operation_id = "decideClaim", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    request_body = schemas::DecisionBody,
    responses(
        (status = 200, description = "The decided claim: `accepted` (ready for pickup) or `rejected`", body = ClaimJson),
        (status = 400, description = "Invalid status", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 404, response = schemas::NoClaim),
        (status = 409, response = schemas::AlreadyDecided), (status = 413, response = schemas::TooLarge),
    ))]
async fn decide(
    State(state): State<AppState>,
    May(session, _): May<Decide>,
    Path(cid): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let cid = ClaimId::parse(&cid)?;
    let accept = parse_decision(&body.fields)?;
    let claim = crate::usecases::claims::decide(&state, &session.user, cid, accept).await?;
    Ok(Json(ClaimJson::from(claim)))
}

/// The claimant withdraws an open claim.
#[utoipa::path(delete, path = "/api/claims/{cid}", operation_id = "withdrawClaim", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    responses(
        (status = 200, description = "The claim, `withdrawn`", body = ClaimJson),
        (status = 401, response = schemas::LoginRequired), (status = 403, description = "Not your claim (or a cross-site request)", body = schemas::ErrorBody), (status = 404, response = schemas::NoClaim),
        (status = 409, response = schemas::AlreadyDecided),
    ))]
async fn withdraw(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(cid): Path<String>,
) -> Result<Json<ClaimJson>> {
    let cid = ClaimId::parse(&cid)?;
    let claim = state.store.withdraw_claim(cid, &session.user.id, now_ms()).await??;
    Ok(Json(ClaimJson::from(claim)))
}

/// Staff record the handover of an accepted claim's item at the desk: the ID checked, and who
/// collected it when not the claimant. The item is returned.
#[utoipa::path(post, path = "/api/claims/{cid}/handover", operation_id = "handOverClaim", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    request_body = schemas::HandoverBody,
    responses(
        (status = 200, description = "The claim, `collected`, with its `handover`", body = ClaimJson),
        (status = 400, description = "idChecked is required, or a field too long", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 404, response = schemas::NoClaim),
        (status = 409, description = "Claim is not waiting for pickup", body = schemas::ErrorBody), (status = 413, response = schemas::TooLarge),
    ))]
async fn hand_over(
    State(state): State<AppState>,
    May(session, _): May<Decide>,
    Path(cid): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let cid = ClaimId::parse(&cid)?;
    let handover = parse_handover(&body.fields)?;
    let claim = crate::usecases::claims::hand_over(&state, &session.user, cid, &handover).await?;
    Ok(Json(ClaimJson::from(claim)))
}

/// Staff call off the pickup of an accepted claim, with the reason its claimant is told; the
/// item may be claimed again.
#[utoipa::path(post, path = "/api/claims/{cid}/cancel", operation_id = "cancelPickup", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    request_body = schemas::ReasonBody,
    responses(
        (status = 200, description = "The claim, `cancelled`, with its `cancellation`", body = ClaimJson),
        (status = 400, description = "reason is required, or too long", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 404, response = schemas::NoClaim),
        (status = 409, description = "Claim is not waiting for pickup", body = schemas::ErrorBody), (status = 413, response = schemas::TooLarge),
    ))]
async fn cancel(
    State(state): State<AppState>,
    May(session, _): May<Decide>,
    Path(cid): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let cid = ClaimId::parse(&cid)?;
    let reason = parse_cancellation(&body.fields)?;
    let claim = crate::usecases::claims::cancel(&state, &session.user, cid, &reason).await?;
    Ok(Json(ClaimJson::from(claim)))
}

/// The receipt of a handover, a printable page for the claimant and the item's staff: in
/// `lang`, else the reader's language, else English.
#[utoipa::path(get, path = "/api/claims/{cid}/receipt", operation_id = "getClaimReceipt", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id"),
        ("lang" = Option<String>, Query, description = "`en`, `ko` or `es`")),
    responses(
        (status = 200, description = "The receipt, HTML", content_type = "text/html", body = String),
        (status = 400, description = "Invalid lang, Invalid query string", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, description = "Not your claim", body = schemas::ErrorBody), (status = 404, response = schemas::NoClaim),
        (status = 409, description = "No receipt: the item is not handed over", body = schemas::ErrorBody),
    ))]
async fn receipt(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(cid): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Response> {
    let cid = ClaimId::parse(&cid)?;
    let params = Params::parse(raw.as_deref(), &["lang"])?;
    let lang = match params.get("lang").map(str::parse::<Lang>).transpose()? {
        Some(lang) => lang,
        None => state.store.lang(&session.user.id).await?.unwrap_or_default(),
    };
    let page = crate::usecases::claims::receipt(&state, &session.user, cid, lang).await?;
    let headers = [
        (
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        ),
        (header::CACHE_CONTROL, HeaderValue::from_static("private, no-store")),
        // A page of its own that runs nothing and loads nothing.
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"),
        ),
    ];
    Ok((headers, page).into_response())
}

/// The claimant of an accepted claim asks for the item to be posted to an address, which only
/// they and the item's staff see; the staff are told.
#[utoipa::path(post, path = "/api/claims/{cid}/post", operation_id = "requestPost", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    request_body = schemas::AddressBody,
    responses(
        (status = 200, description = "The claim, with its `post`", body = ClaimJson),
        (status = 400, description = "address is required, or too long", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, description = "Not your claim", body = schemas::ErrorBody), (status = 404, response = schemas::NoClaim),
        (status = 409, description = "Claim is not waiting for pickup, Posting already requested", body = schemas::ErrorBody), (status = 413, response = schemas::TooLarge),
    ))]
async fn request_post(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(cid): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let cid = ClaimId::parse(&cid)?;
    let address = parse_address(&body.fields)?;
    let requested = state
        .store
        .request_post(cid, &session.user.id, &address, now_ms())
        .await?;
    let claim = state.events.publish(requested)?;
    Ok(Json(ClaimJson::from(claim)))
}

/// Staff set what posting the item costs (`null`: nothing); the claimant is told.
#[utoipa::path(post, path = "/api/claims/{cid}/post/fee", operation_id = "setPostage", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    request_body = schemas::FeeBody,
    responses(
        (status = 200, description = "The claim, its `post.fee` set", body = ClaimJson),
        (status = 400, description = "fee is required (null for none), or too long", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 404, response = schemas::NoClaim),
        (status = 409, description = "Claim is not waiting for pickup, No posting requested, Postage already paid", body = schemas::ErrorBody), (status = 413, response = schemas::TooLarge),
    ))]
async fn set_fee(
    State(state): State<AppState>,
    May(session, _): May<Decide>,
    Path(cid): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let cid = ClaimId::parse(&cid)?;
    let fee = parse_fee(&body.fields)?;
    let claim = crate::usecases::claims::set_post_fee(&state, &session.user, cid, fee.as_deref()).await?;
    Ok(Json(ClaimJson::from(claim)))
}

/// Staff record how the postage was paid, as the office takes it; the claimant is told.
#[utoipa::path(post, path = "/api/claims/{cid}/post/payment", operation_id = "recordPostage", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    request_body = schemas::PaymentBody,
    responses(
        (status = 200, description = "The claim, its `post.payment` recorded", body = ClaimJson),
        (status = 400, description = "note is required, or too long", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 404, response = schemas::NoClaim),
        (status = 409, description = "Claim is not waiting for pickup, No posting requested, Set the postage first, Posting costs nothing, Postage already paid", body = schemas::ErrorBody), (status = 413, response = schemas::TooLarge),
    ))]
async fn record_payment(
    State(state): State<AppState>,
    May(session, _): May<Decide>,
    Path(cid): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let cid = ClaimId::parse(&cid)?;
    let note = parse_payment(&body.fields)?;
    let claim = crate::usecases::claims::record_post_payment(&state, &session.user, cid, &note).await?;
    Ok(Json(ClaimJson::from(claim)))
}

/// Staff send the item by post with its carrier and tracking number: it is returned, and the
/// claimant told how to follow it.
#[utoipa::path(post, path = "/api/claims/{cid}/post/sent", operation_id = "sendByPost", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    request_body = schemas::ShipmentBody,
    responses(
        (status = 200, description = "The claim, `posted`, with `post.sent`", body = ClaimJson),
        (status = 400, description = "carrier is required, tracking is required, or too long", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 404, response = schemas::NoClaim),
        (status = 409, description = "Claim is not waiting for pickup, No posting requested, Set the postage first, Postage not paid", body = schemas::ErrorBody), (status = 413, response = schemas::TooLarge),
    ))]
async fn send_by_post(
    State(state): State<AppState>,
    May(session, _): May<Decide>,
    Path(cid): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimJson>> {
    let cid = ClaimId::parse(&cid)?;
    let (carrier, tracking) = parse_shipment(&body.fields)?;
    let claim = crate::usecases::claims::send_by_post(&state, &session.user, cid, &carrier, &tracking).await?;
    Ok(Json(ClaimJson::from(claim)))
}

/// A claim's conversation between its claimant and the staff of its item's site, oldest
/// first: for those two sides only.
#[utoipa::path(get, path = "/api/claims/{cid}/messages", operation_id = "listClaimMessages", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    responses(
        (status = 200, description = "Oldest first, at most 200", body = [ClaimMessageJson]),
        (status = 401, response = schemas::LoginRequired), (status = 403, description = "Not your claim", body = schemas::ErrorBody), (status = 404, response = schemas::NoClaim),
    ))]
async fn conversation(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(cid): Path<String>,
) -> Result<Json<Vec<ClaimMessageJson>>> {
    let cid = ClaimId::parse(&cid)?;
    let (claim, messages) = crate::usecases::claims::conversation(&state, &session.user, cid).await?;
    Ok(Json(
        messages
            .iter()
            .map(|message| ClaimMessageJson::new(message, &claim))
            .collect(),
    ))
}

/// Writes to the other side of a claim, privately (never in the item's public thread): the
/// claimant to the desk, or the desk's staff to the claimant, who is told.
#[utoipa::path(post, path = "/api/claims/{cid}/messages", operation_id = "writeClaimMessage", tag = "claims", security(("session" = [])),
    params(("cid" = i64, Path, minimum = 1, description = "Claim id")),
    request_body = schemas::ClaimMessageBody,
    responses(
        (status = 200, description = "The message written", body = ClaimMessageJson),
        (status = 400, description = "text is required, or too long", body = schemas::ErrorBody), (status = 401, response = schemas::LoginRequired), (status = 403, description = "Not your claim (or a cross-site request)", body = schemas::ErrorBody), (status = 404, response = schemas::NoClaim),
        (status = 409, description = "Claim is closed (decided against or settled), Conversation is full (200 messages)", body = schemas::ErrorBody), (status = 413, response = schemas::TooLarge),
    ))]
async fn write(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(cid): Path<String>,
    body: JsonObject,
) -> Result<Json<ClaimMessageJson>> {
    let cid = ClaimId::parse(&cid)?;
    let text = parse_claim_message(&body.fields)?;
    let (claim, message) = crate::usecases::claims::write(&state, &session.user, cid, &text).await?;
    Ok(Json(ClaimMessageJson::new(&message, &claim)))
}
