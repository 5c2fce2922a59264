//! Requests refused before any handler runs: bodies declared too large, and state-changing
//! requests from web pages of other sites.

use axum::{
    extract::{Request, State},
    http::{Method, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

use super::BODY_LIMIT;
use crate::{error::AppError, origins::AllowedOrigins};

/// Refuses, before any handler runs (one middleware for both checks: each `from_fn` layer
/// costs every request a boxed service and a boxed future):
/// - a declared `Content-Length` over the limit, answered 413 at once, without reading;
/// - a request that changes state and carries an `Origin` that is not allowed: a page of
///   another site (another port, a sibling subdomain, which `SameSite=Lax` lets through) must
///   not act with a visitor's session.
pub async fn refuse_unwanted(State(origins): State<AllowedOrigins>, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > BODY_LIMIT as u64) {
        return AppError::PayloadTooLarge.into_response();
    }
    let safe = matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe && !origins.allows(request.headers()) {
        return AppError::CrossSite.into_response();
    }
    next.run(request).await
}
