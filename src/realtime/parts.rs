//! Socket.IO keeps the handshake request's parts (headers, URI, extensions) for as long as the
//! socket lives. As hyper reads them they are slices of the connection's 8 KiB read buffer,
//! which they would keep alive: on an idle WebSocket that buffer is a third of what the
//! connection costs. Copied into their own small allocations first, they let it go.
//!
//! The same goes for the connection the request came on: a long-polling handshake's
//! connection usually ends soon after the upgrade to WebSocket, and a strong hold on it from
//! the session would keep its places under the connection caps taken (a browser would count
//! twice against its address's cap) and its memory, until the session ends.

use std::sync::{Arc, Weak};

use axum::{
    extract::{OriginalUri, Request},
    http::{HeaderMap, HeaderValue, Uri},
    middleware::Next,
    response::Response,
};

use crate::server::ConnectionState;

/// The connection a Socket.IO request came on, for as long as it is open.
#[derive(Clone)]
pub struct Carrier(Weak<ConnectionState>);

impl Carrier {
    pub fn connection(&self) -> Option<Arc<ConnectionState>> {
        self.0.upgrade()
    }
}

/// Middleware in front of Socket.IO: the request's headers and URI in allocations of their own,
/// its connection held weakly ([`Carrier`]).
pub async fn own_request_parts(mut request: Request, next: Next) -> Response {
    if request.uri().path().starts_with("/socket.io/") {
        if let Some(connection) = request.extensions_mut().remove::<Arc<ConnectionState>>() {
            request.extensions_mut().insert(Carrier(Arc::downgrade(&connection)));
        }
        let headers = std::mem::take(request.headers_mut());
        *request.headers_mut() = owned_headers(headers);
        if let Ok(uri) = request.uri().to_string().parse::<Uri>() {
            // The router kept the URI as it came, too.
            if let Some(OriginalUri(original)) = request.extensions_mut().get_mut::<OriginalUri>() {
                *original = uri.clone();
            }
            *request.uri_mut() = uri;
        }
    }
    next.run(request).await
}

fn owned_headers(headers: HeaderMap) -> HeaderMap {
    let mut owned = HeaderMap::with_capacity(headers.len());
    let mut last_name = None;
    for (name, value) in headers {
        // Names come once per run of values with that name.
        let name = name.or_else(|| last_name.clone()).expect("the first header has a name");
        if let Ok(value) = HeaderValue::from_bytes(value.as_bytes()) {
            owned.append(name.clone(), value);
        }
        last_name = Some(name);
    }
    owned
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_is_kept_in_order() {
        let mut headers = HeaderMap::new();
        headers.append("cookie", HeaderValue::from_static("a=1"));
        headers.append("cookie", HeaderValue::from_static("b=2"));
        headers.append("origin", HeaderValue::from_static("http://x"));
        let owned = owned_headers(headers.clone());
        assert_eq!(owned, headers);
    }
}
