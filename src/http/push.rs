//! Web Push for the installed app: `GET /api/push/key`, the key a device subscribes with, and
//! `POST`/`DELETE /api/me/push`, a device of the caller's that gets their notices from now on,
//! or no more. What is pushed is what is emailed: the same kinds (My account's choices), the
//! same throttle.

use axum::{
    Json, Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{current_user::SignedIn, extract::JsonObject, schemas, views::OkJson};
use crate::{
    domain::PushSubscription,
    error::{AppError, Result},
    state::AppState,
    time::now_ms,
};

const PUSH_OFF: &str = "Push messages are off on this service";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/push/key", get(key))
        .route("/api/me/push", post(subscribe).delete(unsubscribe))
}

/// `{ publicKey }`: the service's VAPID public key, uncompressed, base64url.
#[derive(Serialize, ToSchema)]
#[schema(as = PushKey)]
pub struct PushKeyJson {
    #[serde(rename = "publicKey")]
    #[schema(example = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM")]
    public_key: String,
}

/// `{ endpoint }`: the device that gets the caller's notices.
#[derive(Serialize, ToSchema)]
#[schema(as = PushDevice)]
pub struct PushDeviceJson {
    endpoint: String,
}

/// The service's key, while push is on.
fn push_key(state: &AppState) -> Result<&str> {
    state.push_key.as_deref().ok_or(AppError::NotFound(PUSH_OFF))
}

/// The key a device subscribes with (`applicationServerKey`).
#[utoipa::path(get, path = "/api/push/key", operation_id = "getPushKey", tag = "notifications",
    responses((status = 200, description = "The service's VAPID public key", body = PushKeyJson),
              (status = 404, description = "Push messages are off on this service", body = schemas::ErrorBody)))]
async fn key(State(state): State<AppState>) -> Result<Json<PushKeyJson>> {
    Ok(Json(PushKeyJson {
        public_key: push_key(&state)?.to_owned(),
    }))
}

/// Sends the caller's notices to this device from now on: the subscription as the browser's
/// `PushSubscription.toJSON()` writes it. A device another account had moves to the caller;
/// an account keeps its ten latest devices.
#[utoipa::path(post, path = "/api/me/push", operation_id = "subscribePush", tag = "notifications", security(("session" = [])),
    request_body(content = schemas::PushSubscriptionBody),
    responses(
        (status = 201, description = "The device gets the caller's notices", body = PushDeviceJson),
        (status = 400, description = "Invalid push endpoint, Invalid push keys", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::CrossSite),
        (status = 404, description = "Push messages are off on this service", body = schemas::ErrorBody),
    ))]
async fn subscribe(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    body: JsonObject,
) -> Result<(StatusCode, Json<PushDeviceJson>)> {
    push_key(&state)?;
    let device = PushSubscription::from_body(&body.fields, state.config.push.push_any_endpoint)?;
    state.store.subscribe_push(&session.user.id, &device, now_ms()).await?;
    let endpoint = device.endpoint().to_owned();
    Ok((StatusCode::CREATED, Json(PushDeviceJson { endpoint })))
}

/// This device gets the caller's notices no more: `{ endpoint }` (done also when it did not).
#[utoipa::path(delete, path = "/api/me/push", operation_id = "unsubscribePush", tag = "notifications", security(("session" = [])),
    request_body(content = schemas::PushEndpointBody),
    responses(
        (status = 200, description = "No more push messages to that device", body = OkJson),
        (status = 400, description = "Invalid push endpoint", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::CrossSite),
    ))]
async fn unsubscribe(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    body: JsonObject,
) -> Result<Json<OkJson>> {
    let endpoint = PushSubscription::endpoint_in(&body.fields)?;
    state.store.unsubscribe_push(&session.user.id, endpoint).await?;
    Ok(Json(OkJson::DONE))
}
