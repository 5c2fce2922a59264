//! The handshake: refuse foreign web origins, and learn who is connected from the `sid` cookie.

use std::{num::NonZeroU32, sync::Arc};

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use socketioxide::{adapter::Adapter, extract::SocketRef, extract::State};

use crate::http::{AppState, session_from_cookies};

/// Events a client may send per second on average, and in one burst.
const EVENTS_PER_SECOND: u32 = 5;
const EVENT_BURST: u32 = 20;

/// What the server keeps about each connection, in the socket's extensions.
#[derive(Clone)]
pub struct Connection {
    /// The logged-in user behind the socket, stored with each message they send.
    pub user_id: Option<Arc<str>>,
    /// Per-connection flood control: one client's burst never slows the others.
    pub limiter: Arc<DefaultDirectRateLimiter>,
}

#[derive(Debug, thiserror::Error)]
#[error("Origin not allowed")]
pub struct OriginRefused;

/// Connect middleware: runs before the connection is acknowledged.
pub async fn admit<A: Adapter>(socket: SocketRef<A>, State(state): State<AppState>) -> Result<(), OriginRefused> {
    let headers = &socket.req_parts().headers;
    if !state.origins.allows(headers) {
        return Err(OriginRefused);
    }
    // The chat is open to all: a session that cannot be read leaves the socket anonymous.
    let user_id = match session_from_cookies(&state.store, headers).await {
        Ok(session) => session.map(|s| Arc::from(s.user.id)),
        Err(err) => {
            tracing::warn!(error = %err, "could not read the session of a socket");
            None
        }
    };
    let quota = Quota::per_second(NonZeroU32::new(EVENTS_PER_SECOND).expect("non-zero"))
        .allow_burst(NonZeroU32::new(EVENT_BURST).expect("non-zero"));
    socket.extensions.insert(Connection {
        user_id,
        limiter: Arc::new(RateLimiter::direct(quota)),
    });
    Ok(())
}
