//! The access log: one line per request once it is answered — method, path (without the query
//! string, which may carry what people searched for), status and latency in microseconds — as
//! one event of target `access`. No span: a span per request (made, entered at every poll of
//! the answer, formatted into the line) cost more than the line itself. `RUST_LOG=…,access=off`
//! turns it off, `access=debug` adds a line when each request starts.

use std::time::Instant;

use axum::{extract::Request, middleware::Next, response::Response};
use tracing::Level;

pub async fn log(request: Request, next: Next) -> Response {
    if !tracing::enabled!(target: "access", Level::INFO) {
        return next.run(request).await;
    }
    let started = Instant::now();
    let method = request.method().clone();
    // A clone of the shared bytes, not a copy.
    let uri = request.uri().clone();
    // `RUST_LOG=…,access=debug` also says when each request starts.
    tracing::debug!(target: "access", %method, path = %uri.path(), "started");
    let response = next.run(request).await;
    tracing::info!(
        target: "access",
        %method,
        path = %uri.path(),
        status = response.status().as_u16(),
        latency_us = started.elapsed().as_micros() as u64,
    );
    response
}
