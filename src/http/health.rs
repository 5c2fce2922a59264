//! `/healthz` (the process answers) and `/readyz` (its database takes writes, and Redis, when
//! configured, answers) for load balancers and orchestrators.

use axum::{Json, Router, extract::State, http::StatusCode, routing::get};
use serde::Serialize;
use utoipa::ToSchema;

use crate::state::AppState;

/// `{ status }`, and for `/readyz` whether the database and Redis are `up` or `down`
/// (`redis` is `null` on a node without it).
#[derive(Serialize, ToSchema)]
#[schema(as = Health)]
pub struct HealthJson {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    database: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redis: Option<Option<&'static str>>,
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// The process answers.
#[utoipa::path(get, path = "/healthz", operation_id = "healthz", tag = "health", responses((status = 200, description = "Up", body = HealthJson)))]
async fn healthz() -> Json<HealthJson> {
    Json(HealthJson {
        status: "ok",
        database: None,
        redis: None,
    })
}

/// The database takes writes and Redis, when configured, answers.
#[utoipa::path(get, path = "/readyz", operation_id = "readyz", tag = "health", responses(
    (status = 200, description = "Ready", body = HealthJson),
    (status = 503, description = "Not ready: the database or Redis is down", body = HealthJson),
))]
async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<HealthJson>) {
    let database = state.store.writable().await;
    let redis = match &state.redis {
        Some(redis) => Some(redis.ping().await),
        None => None,
    };
    let ready = database && redis != Some(false);
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let up = |ok: bool| if ok { "up" } else { "down" };
    let body = HealthJson {
        status: if ready { "ready" } else { "unavailable" },
        database: Some(up(database)),
        redis: Some(redis.map(up)),
    };
    (status, Json(body))
}
