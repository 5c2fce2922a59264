//! Request extractors whose rejections are `AppError`s, so every bad input gets a JSON answer.

use std::{
    collections::HashMap,
    net::{IpAddr, SocketAddr},
};

use axum::{
    body::Bytes,
    extract::{ConnectInfo, FromRequest, FromRequestParts, Request},
    http::{StatusCode, header, request::Parts},
};
use serde_json::{Map, Value};

use super::fields::ItemKeys;
use crate::{
    error::{AppError, Result},
    net::client_address,
    state::AppState,
};

/// A request body that is a JSON object, with its size in bytes.
pub struct JsonObject {
    pub fields: Map<String, Value>,
    pub len: usize,
}

impl FromRequest<AppState> for JsonObject {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, AppError> {
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
        match state
            .cpu
            .run(len, move || serde_json::from_slice::<Value>(&bytes))
            .await?
        {
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

/// The client's address: the peer, or behind a trusted proxy the address it forwarded (see
/// [`client_address`]).
pub struct ClientAddr(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let ConnectInfo(peer) = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("server started without connect info")))?;
        Ok(Self(client_address(
            peer.ip(),
            &parts.headers,
            state.config.trust_proxy,
        )))
    }
}

/// The query string's parameters by name.
pub struct Params(HashMap<String, String>);

impl Params {
    /// Reads the query string; one of `once` given twice is refused.
    pub fn parse(raw: Option<&str>, once: &[&str]) -> Result<Self> {
        let mut params = HashMap::new();
        for (name, value) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
            let repeated = params.insert(name.to_string(), value.into_owned()).is_some();
            if repeated && once.contains(&name.as_ref()) {
                return Err(AppError::invalid("Invalid query string"));
            }
        }
        Ok(Self(params))
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Flag `name`: `true` or `false`, absent is `false`; anything else is 400 `Invalid NAME`.
    pub fn flag(&self, name: &'static str) -> Result<bool> {
        Ok(self
            .get(name)
            .map(|value| crate::domain::query_flag(name, value))
            .transpose()?
            .unwrap_or(false))
    }

    pub fn keys(&self) -> Result<ItemKeys> {
        ItemKeys::parse(self.get("fields"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
