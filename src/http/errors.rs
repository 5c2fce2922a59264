//! Error responses that no handler wrote: unknown routes, panics, and the per-mode body.

use std::any::Any;

use axum::{
    Json,
    body::Body,
    http::header,
    response::{IntoResponse, Response},
};

use crate::{
    config::Mode,
    error::{AppError, ErrorReport},
};

pub async fn not_found() -> AppError {
    AppError::NotFound("Not found")
}

pub fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response {
    let message = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    AppError::Internal(anyhow::anyhow!("handler panicked: {message}")).into_response()
}

/// Gives every error response the JSON body of the configured mode: development adds the
/// `details` of the error's report; responses from layers (405, 408, 413, ...) get one.
/// A plain function of the response (a `MapResponse` layer, which boxes nothing).
pub fn render_errors(mode: Mode, response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let report = response.extensions().get::<ErrorReport>().cloned();
    let report = match report {
        Some(_) if mode == Mode::Production => return response,
        Some(report) => report,
        // A handler's own JSON answer (`/readyz`) is left as it is.
        None if is_json(&response) => return response,
        None => ErrorReport::for_status(status),
    };
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = Json(report.body(mode)).into_response();
    parts
        .headers
        .insert(header::CONTENT_TYPE, body.headers()[header::CONTENT_TYPE].clone());
    Response::from_parts(parts, Body::new(body.into_body()))
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"))
}
