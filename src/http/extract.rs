//! Request extractors whose rejections are `AppError`s, so every bad input gets a JSON answer.

use std::net::{IpAddr, SocketAddr};

use axum::{
    body::Bytes,
    extract::{ConnectInfo, FromRequest, FromRequestParts, Request},
    http::{StatusCode, header, request::Parts},
};
use serde_json::{Map, Value};

use super::AppState;
use crate::error::AppError;

/// Work on bodies larger than this goes to a blocking thread.
const INLINE_WORK_LIMIT: usize = 64 * 1024;

/// Runs CPU-heavy work on the blocking pool when the input is large, inline when it is small.
pub async fn cpu_bound<T: Send + 'static>(
    input_len: usize,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    if input_len < INLINE_WORK_LIMIT {
        Ok(work())
    } else {
        Ok(tokio::task::spawn_blocking(work).await.map_err(anyhow::Error::from)?)
    }
}

/// A request body that is a JSON object, with its size in bytes.
pub struct JsonObject {
    pub fields: Map<String, Value>,
    pub len: usize,
}

impl<S: Send + Sync> FromRequest<S> for JsonObject {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        if !is_json(req.headers().get(header::CONTENT_TYPE)) {
            return Err(AppError::invalid("Content-Type must be application/json"));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                AppError::PayloadTooLarge
            } else {
                AppError::invalid("Could not read the request body")
            }
        })?;
        let len = bytes.len();
        match cpu_bound(len, move || serde_json::from_slice::<Value>(&bytes)).await? {
            Ok(Value::Object(fields)) => Ok(Self { fields, len }),
            Ok(_) => Err(AppError::invalid("Request body must be a JSON object")),
            Err(_) => Err(AppError::invalid("Malformed JSON body")),
        }
    }
}

fn is_json(content_type: Option<&header::HeaderValue>) -> bool {
    let Some(mime) = content_type.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// The client's address: the peer, or with `trust_proxy` the address the proxy appended last
/// to `X-Forwarded-For`.
pub struct ClientAddr(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        if state.config.trust_proxy {
            // Only the last entry is the proxy's own; earlier ones are whatever the client sent.
            let forwarded = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .next_back()
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|a| a.trim().parse::<IpAddr>().ok());
            if let Some(addr) = forwarded {
                return Ok(Self(addr));
            }
        }
        let ConnectInfo(peer) = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("server started without connect info")))?;
        Ok(Self(peer.ip()))
    }
}

/// Parses an `:id` path segment: a positive 64-bit integer.
pub fn item_id(raw: &str) -> Result<i64, AppError> {
    raw.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| raw.parse::<i64>().ok())
        .flatten()
        .filter(|id| *id > 0)
        .ok_or_else(|| AppError::invalid("Invalid item ID"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_ids() {
        assert_eq!(item_id("42").unwrap(), 42);
        assert_eq!(item_id("9223372036854775807").unwrap(), i64::MAX);
        for bad in ["0", "-1", "+1", "1.5", "abc", "", "9223372036854775808", " 1"] {
            assert!(item_id(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn json_content_types() {
        let ok = |s: &'static str| is_json(Some(&header::HeaderValue::from_static(s)));
        assert!(ok("application/json"));
        assert!(ok("Application/JSON; charset=utf-8"));
        assert!(ok("application/merge-patch+json"));
        assert!(!ok("text/plain"));
        assert!(!ok("application/x-www-form-urlencoded"));
        assert!(!is_json(None));
    }
}
