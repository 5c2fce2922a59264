//! The HTTP JSON interface under `/api`: one module per resource, merged here with the
//! layers every request passes through.

mod access_log;
mod accounts;
mod bins;
mod categories;
mod claims;
mod conditional;
mod current_user;
mod errors;
mod export;
mod extract;
mod fields;
mod guards;
mod health;
mod item_answers;
mod items;
mod labels;
mod mail_choices;
mod messages;
mod notifications;
mod openapi;
mod own_data;
mod places;
mod push;
mod reader;
mod schemas;
mod session;
mod signup;
mod sites;
mod sso;
mod stats;
mod transfers;
mod views;
mod web;

use std::{convert::Infallible, time::Duration};

use axum::{
    Router,
    extract::{DefaultBodyLimit, MatchedPath, Request},
    http::{HeaderValue, Method, StatusCode, header},
    middleware,
    response::Response,
};
use tower::{ServiceBuilder, util::MapResponseLayer};
use tower_http::{
    catch_panic::CatchPanicLayer,
    cors::{AllowOrigin, CorsLayer},
    timeout::TimeoutLayer,
};

pub use self::web::socket_io_client;
use crate::{config::Mode, origins::AllowedOrigins, state::AppState};

/// Largest request body accepted: the largest report.
const BODY_LIMIT: usize = crate::domain::MAX_REPORT_BYTES;
/// A request that takes longer is answered 408.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

pub fn router(state: AppState) -> impl Api {
    let api = Router::new()
        .merge(session::router())
        .merge(items::router())
        .merge(labels::router())
        .merge(claims::router())
        .merge(notifications::router())
        .merge(openapi::router())
        .merge(accounts::router())
        .merge(export::router())
        .merge(mail_choices::router())
        .merge(push::router())
        .merge(own_data::router())
        .merge(places::router())
        .merge(stats::router())
        .merge(signup::router())
        .merge(messages::router())
        .merge(sites::router())
        .merge(categories::router())
        .merge(bins::router())
        .merge(transfers::router())
        .merge(sso::router());
    // Merged, not nested under `/api`: `nest` wraps every route in a layer that rewrites the
    // request's URI without the prefix, on every request.
    let mut routes = Router::new().merge(api).merge(health::router()).merge(web::router());
    // Only with metrics on: a layer on each route costs every request (see with_layers).
    if state.config.metrics_bind.is_some() {
        routes = routes.route_layer(middleware::from_fn(metered));
    }
    with_layers(routes, state)
}

/// Counts and times a request under its route's pattern.
async fn metered(route: MatchedPath, request: Request, next: middleware::Next) -> Response {
    let method = request.method().clone();
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    crate::metrics::http_request(
        route.as_str().to_owned(),
        &method,
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}

/// The layers every HTTP request passes through, around `routes`. They wrap the router once,
/// as one service: `Router::layer` would wrap every route in each layer, boxed, and clone
/// that chain of boxes on every request.
fn with_layers(routes: Router<AppState>, state: AppState) -> impl Api {
    let mode = state.config.mode;
    let layers = ServiceBuilder::new()
        .layer(middleware::from_fn(access_log::log))
        // A panic's answer is finished as it is made; every other answer on its way out.
        .layer(CatchPanicLayer::custom(move |panic| {
            finish(mode, errors::panic_response(panic))
        }))
        .layer(MapResponseLayer::new(move |response: Response| finish(mode, response)))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(middleware::from_fn_with_state(
            state.origins.clone(),
            guards::refuse_unwanted,
        ))
        .layer(DefaultBodyLimit::max(BODY_LIMIT));
    let routes = routes.fallback(errors::not_found).with_state(state);
    layers.service(routes)
}

/// Every answer on its way out, whoever wrote it (a handler, a guard, the router): says
/// `X-Content-Type-Options: nosniff`, so that no browser reads a JSON answer, which may echo
/// what someone wrote, as a page or a script; and an error gets the body of the mode.
fn finish(mode: Mode, mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    errors::render_errors(mode, response)
}

/// What `router` answers with: a service, not boxed here (whoever routes to it boxes it, once).
pub trait Api:
    tower::Service<Request, Response = Response, Error = Infallible, Future: Send + 'static> + Clone + Send + Sync + 'static
{
}

impl<S> Api for S where
    S: tower::Service<Request, Response = Response, Error = Infallible, Future: Send + 'static>
        + Clone
        + Send
        + Sync
        + 'static
{
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

#[cfg(test)]
mod tests {
    use axum::routing::get;

    use super::*;
    use crate::{
        config::{Config, Mode},
        store::{Create, Store},
    };

    /// Serves `routes` with every layer on a real socket.
    async fn serve(routes: Router<AppState>, mode: Mode) -> (String, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let config = Config {
            mode,
            ..Config::for_tests(&url)
        };
        let store = Store::connect(&url, Create::IfMissing).await.unwrap();
        let state = AppState::new(config, store, None, None).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = Router::new().fallback_service(with_layers(routes, state));
        tokio::spawn(async move { axum::serve(listener, app).await });
        (format!("http://{addr}"), dir)
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_500_json_and_the_server_goes_on() {
        async fn boom() -> &'static str {
            panic!("boom")
        }
        for (mode, expected) in [
            (
                Mode::Production,
                serde_json::json!({ "error": "Internal server error" }),
            ),
            (Mode::Development, serde_json::json!("InternalError")),
        ] {
            let (base, _dir) = serve(Router::new().route("/api/boom", get(boom)), mode).await;
            let response = reqwest::get(format!("{base}/api/boom")).await.unwrap();
            assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
            assert_eq!(response.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
            let body: serde_json::Value = response.json().await.unwrap();
            if mode == Mode::Production {
                assert_eq!(body, expected);
            } else {
                assert_eq!(body["details"]["name"], expected);
                assert!(body["details"]["stack"].as_str().unwrap().contains("boom"));
            }
            let after = reqwest::get(format!("{base}/api/nothing-here")).await.unwrap();
            assert_eq!(after.status(), StatusCode::NOT_FOUND);
        }
    }
}
