//! `/healthz` (the process answers) and `/readyz` (its database takes writes, and Redis, when
//! configured, answers) for load balancers and orchestrators.

use axum::{Json, Router, extract::State, http::StatusCode, routing::get};
use serde_json::{Value, json};

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// The process answers.
#[utoipa::path(get, path = "/healthz", operation_id = "healthz", tag = "health", responses((status = 200, description = "Up", body = super::openapi::Health)))]
async fn healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

/// The database takes writes and Redis, when configured, answers.
#[utoipa::path(get, path = "/readyz", operation_id = "readyz", tag = "health", responses(
    (status = 200, description = "Ready", body = super::openapi::Health),
    (status = 503, description = "Not ready: the database or Redis is down", body = super::openapi::Health),
))]
async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
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
    let body = json!({
        "status": if ready { "ready" } else { "unavailable" },
        "database": up(database),
        "redis": redis.map(up),
    });
    (status, Json(body))
}
