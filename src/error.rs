//! The one error type of the HTTP side and its mapping to status codes and JSON bodies.
//!
//! A handler returns `AppError`; its response carries the production body `{ "error" }`
//! and an [`ErrorReport`] extension. The `render_errors` layer (see `http::errors`)
//! adds the development `details` from that report, and gives every other error response
//! (unknown method, body limit, time-out, panic) the same JSON shape.

use std::borrow::Cow;

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde_json::json;

use crate::{
    causes::describe,
    config::Mode,
    domain::{ClaimRefusal, CustodyRefusal, ItemNotFound, ValidationError},
    store::StoreError,
};

pub type Result<T, E = AppError> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{message}")]
    Validation {
        message: Cow<'static, str>,
        field: Option<&'static str>,
    },
    #[error("{0}")]
    Unauthenticated(&'static str),
    #[error("Admin privileges required")]
    Forbidden,
    #[error("Cross-site request refused")]
    CrossSite,
    /// 403 for a reason of its own (not a missing privilege).
    #[error("{0}")]
    NotAllowed(&'static str),
    #[error("{0}")]
    Conflict(&'static str),
    #[error("{0}")]
    NotFound(&'static str),
    #[error("Request body too large")]
    PayloadTooLarge,
    #[error("{message}")]
    TooManyRequests {
        message: &'static str,
        retry_after_secs: u64,
    },
    #[error("Service temporarily unavailable")]
    Unavailable(#[source] anyhow::Error),
    #[error("Internal server error")]
    Internal(#[source] anyhow::Error),
}

impl AppError {
    /// 429 for a login throttled after failed attempts.
    pub fn failed_logins(retry_after_secs: u64) -> Self {
        Self::TooManyRequests {
            message: "Too many failed login attempts, try again later",
            retry_after_secs,
        }
    }

    /// 429 for requests counted per client address or account (sign-ups, resets, changes of
    /// address), once there were too many.
    pub fn too_many_requests(retry_after_secs: u64) -> Self {
        Self::TooManyRequests {
            message: "Too many requests, try again later",
            retry_after_secs,
        }
    }

    pub fn invalid(message: impl Into<Cow<'static, str>>) -> Self {
        Self::Validation {
            message: message.into(),
            field: None,
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Validation { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthenticated(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden | Self::CrossSite | Self::NotAllowed(_) => StatusCode::FORBIDDEN,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn report(&self) -> ErrorReport {
        let stack = match self {
            Self::Unavailable(cause) | Self::Internal(cause) => describe(cause.as_ref()).join("\ncaused by: "),
            _ => format!("{}: {self}", name_of(self.status())),
        };
        ErrorReport {
            name: name_of(self.status()),
            message: self.to_string(),
            field: match self {
                Self::Validation { field, .. } => *field,
                _ => None,
            },
            stack,
        }
    }
}

impl From<ValidationError> for AppError {
    fn from(err: ValidationError) -> Self {
        Self::Validation {
            message: err.message,
            field: err.field,
        }
    }
}

impl From<ItemNotFound> for AppError {
    fn from(_: ItemNotFound) -> Self {
        Self::NotFound(ItemNotFound::MESSAGE)
    }
}

/// An item promised to the claimant of an accepted claim stays where it is until the handover
/// or its cancellation.
pub const AWAITING_PICKUP: &str = "Item is awaiting pickup: cancel the pickup first";

impl From<ClaimRefusal> for AppError {
    fn from(refusal: ClaimRefusal) -> Self {
        match refusal {
            ClaimRefusal::NoItem => Self::NotFound("Item not found"),
            ClaimRefusal::NoClaim => Self::NotFound("Claim not found"),
            ClaimRefusal::OwnItem => Self::NotAllowed("You reported this item"),
            ClaimRefusal::NotClaimant => Self::NotAllowed("Not your claim"),
            ClaimRefusal::NotClaimable => Self::invalid("Item cannot be claimed"),
            ClaimRefusal::AlreadyOpen => Self::Conflict("Claim already open"),
            ClaimRefusal::NotOpen => Self::Conflict("Claim already decided"),
            ClaimRefusal::NotAccepted => Self::Conflict("Claim is not waiting for pickup"),
            ClaimRefusal::PostRequested => Self::Conflict("Posting already requested"),
            ClaimRefusal::NoPostRequest => Self::Conflict("No posting requested"),
            ClaimRefusal::FeeNotSet => Self::Conflict("Set the postage first"),
            ClaimRefusal::NotPaid => Self::Conflict("Postage not paid"),
            ClaimRefusal::NothingToPay => Self::Conflict("Posting costs nothing"),
            ClaimRefusal::AlreadyPaid => Self::Conflict("Postage already paid"),
            ClaimRefusal::Closed => Self::Conflict("Claim is closed"),
            ClaimRefusal::ConversationFull => Self::Conflict("Conversation is full"),
        }
    }
}

impl From<CustodyRefusal> for AppError {
    fn from(refusal: CustodyRefusal) -> Self {
        match refusal {
            CustodyRefusal::NoItem => Self::NotFound(ItemNotFound::MESSAGE),
            CustodyRefusal::NotReporter => Self::NotAllowed("Not your report"),
            CustodyRefusal::CannotDispose => Self::invalid("Item cannot be disposed"),
            CustodyRefusal::CannotClose => Self::invalid("Item cannot be closed"),
            CustodyRefusal::AwaitingPickup => Self::Conflict(AWAITING_PICKUP),
        }
    }
}

impl From<StoreError> for AppError {
    /// A database that cannot be reached (or is busy) is a 503 the client may retry;
    /// anything else is a 500.
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Unavailable(_) => Self::Unavailable(err.into()),
            StoreError::Conflict(_) | StoreError::Other(_) => Self::Internal(err.into()),
        }
    }
}

impl From<anyhow::Error> for AppError {
    fn from(err: anyhow::Error) -> Self {
        Self::Internal(err)
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let Self::Unavailable(_) | Self::Internal(_) = &self {
            // The cause chain is for operators; clients only ever see the fixed message.
            tracing::error!(error = %self.report().stack, "request failed");
        }
        let report = self.report();
        let mut response = (self.status(), Json(report.body(Mode::Production))).into_response();
        if let Self::TooManyRequests { retry_after_secs, .. } = self {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
        }
        response.extensions_mut().insert(report);
        response
    }
}

/// What an error response says, kept on the response so the body can be rendered per mode.
#[derive(Debug, Clone)]
pub struct ErrorReport {
    pub name: &'static str,
    pub message: String,
    pub field: Option<&'static str>,
    pub stack: String,
}

impl ErrorReport {
    /// The report for an error response that no handler produced (405, 408, 413, ...).
    pub fn for_status(status: StatusCode) -> Self {
        let message = match status {
            StatusCode::NOT_FOUND => "Not found",
            StatusCode::METHOD_NOT_ALLOWED => "Method not allowed",
            StatusCode::PAYLOAD_TOO_LARGE => "Request body too large",
            StatusCode::REQUEST_TIMEOUT => "Request timed out",
            s if s.is_server_error() => "Internal server error",
            s => s.canonical_reason().unwrap_or("Bad request"),
        };
        Self {
            name: name_of(status),
            message: message.to_owned(),
            field: None,
            stack: format!("{}: {message}", name_of(status)),
        }
    }

    pub fn body(&self, mode: Mode) -> serde_json::Value {
        match mode {
            Mode::Production => json!({ "error": self.message }),
            Mode::Development => {
                let mut details = json!({ "name": self.name, "stack": self.stack });
                if let Some(field) = self.field {
                    details["field"] = json!(field);
                }
                json!({ "error": self.message, "details": details })
            }
        }
    }
}

fn name_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "ValidationError",
        StatusCode::UNAUTHORIZED => "AuthenticationError",
        StatusCode::FORBIDDEN => "AuthorizationError",
        StatusCode::NOT_FOUND => "NotFoundError",
        StatusCode::CONFLICT => "ConflictError",
        StatusCode::METHOD_NOT_ALLOWED => "MethodNotAllowedError",
        StatusCode::REQUEST_TIMEOUT => "TimeoutError",
        StatusCode::PAYLOAD_TOO_LARGE => "PayloadTooLargeError",
        StatusCode::TOO_MANY_REQUESTS => "RateLimitError",
        StatusCode::SERVICE_UNAVAILABLE => "UnavailableError",
        s if s.is_server_error() => "InternalError",
        _ => "RequestError",
    }
}
