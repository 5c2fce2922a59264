//! The HTTP JSON interface under `/api`: one module per resource, merged here with the
//! layers every request passes through.

mod current_user;
mod errors;
mod extract;
mod items;
mod session;

use std::{sync::Arc, time::Duration};

use axum::{
    Router,
    extract::DefaultBodyLimit,
    http::{Method, Request, StatusCode, header},
    middleware,
};
use tower_http::{
    LatencyUnit,
    catch_panic::CatchPanicLayer,
    cors::{AllowOrigin, CorsLayer},
    timeout::TimeoutLayer,
    trace::{DefaultOnResponse, TraceLayer},
};
use tracing::Level;

use crate::{
    auth::{LoginThrottle, Passwords},
    config::Config,
    origins::AllowedOrigins,
    store::Store,
};

pub use current_user::{Viewer, session_from_cookies};

/// Largest request body accepted (a 5 MiB photo is about 6.7 MiB in base64).
const BODY_LIMIT: usize = 8 * 1024 * 1024;
/// A request that takes longer is answered 408.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub passwords: Passwords,
    pub throttle: LoginThrottle,
    pub origins: AllowedOrigins,
    pub config: Arc<Config>,
}

pub fn router(state: AppState) -> Router {
    let api = Router::new().merge(session::router()).merge(items::router());
    Router::new()
        .nest("/api", api)
        .fallback(errors::not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(CatchPanicLayer::custom(errors::panic_response))
        .layer(middleware::from_fn_with_state(state.config.mode, errors::render_errors))
        .layer(
            // One line per request; the query string is left out, it may carry user text.
            TraceLayer::new_for_http()
                .make_span_with(
                    |req: &Request<_>| tracing::info_span!("request", method = %req.method(), path = %req.uri().path()),
                )
                .on_request(())
                .on_response(
                    DefaultOnResponse::new()
                        .level(Level::INFO)
                        .latency_unit(LatencyUnit::Micros),
                )
                .on_failure(()),
        )
        .with_state(state)
}

/// CORS for the origins allowed to use a visitor's session; wraps the real-time layer too,
/// so long-polling from an allowed origin works.
pub fn cors(origins: AllowedOrigins) -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(move |_, parts| origins.allows(&parts.headers)))
        .allow_credentials(true)
        .allow_methods([Method::GET, Method::POST, Method::PATCH, Method::DELETE])
        .allow_headers([header::CONTENT_TYPE])
}
