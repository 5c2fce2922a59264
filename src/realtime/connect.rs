//! The handshake: refuse foreign web origins, learn who is connected from the `sid` cookie,
//! and set up what bounds the connection: its own flood limit, the limit it shares with its
//! address or account, and the backlog of events it has not taken yet.

use std::{net::SocketAddr, num::NonZeroU32, sync::Arc};

use axum::extract::ConnectInfo;
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use socketioxide::{TransportType, adapter::Adapter, extract::SocketRef, extract::State};

use super::outbound::{Backlog, Backlogs};
use crate::{
    error::describe,
    net::{AddressKey, client_address},
    server::ConnectionState,
    state::AppState,
};

/// The bursts of the per-connection and per-address (or account) limits, in seconds' worth
/// of their rates.
const CONNECTION_BURST_SECONDS: u32 = 4;
const CLIENT_BURST_SECONDS: u32 = 3;

/// The real-time limits every connection shares.
#[derive(Clone)]
pub struct Limits {
    /// Events per connection (`None`: no limit).
    pub per_connection: Option<Quota>,
    pub backlogs: Arc<Backlogs>,
    /// Events per client address, or per account when logged in, over all its connections.
    pub per_client: Option<Arc<DefaultKeyedRateLimiter<Arc<str>>>>,
    /// Bytes a history carries at most.
    pub history_bytes: usize,
}

impl Limits {
    /// `connection_rate` events a second per connection and `client_rate` per address or
    /// account (0: no such limit); `max_unsent` bytes left unread at most (0: no limit).
    pub fn new(connection_rate: u32, client_rate: u32, max_unsent: u64, history_bytes: usize) -> Self {
        let per_client = quota(client_rate, CLIENT_BURST_SECONDS).map(|q| Arc::new(RateLimiter::keyed(q)));
        Self {
            per_connection: quota(connection_rate, CONNECTION_BURST_SECONDS),
            backlogs: Backlogs::new(max_unsent),
            per_client,
            history_bytes,
        }
    }
}

/// `rate` a second with bursts of `burst_seconds` of it; `None` for a rate of 0.
fn quota(rate: u32, burst_seconds: u32) -> Option<Quota> {
    let rate = NonZeroU32::new(rate)?;
    let burst = rate.saturating_mul(NonZeroU32::new(burst_seconds).expect("non-zero"));
    Some(Quota::per_second(rate).allow_burst(burst))
}

/// What the server keeps about each connection, in the socket's extensions.
#[derive(Clone)]
pub struct Connection {
    /// The logged-in user behind the socket, stored with each message they send.
    pub user_id: Option<Arc<str>>,
    /// Per-connection flood control: one client's burst never slows the others.
    pub limiter: Option<Arc<DefaultDirectRateLimiter>>,
    /// Whom the per-client limit counts this connection under: its account or address.
    pub client: Arc<str>,
    pub backlog: Arc<Backlog>,
}

#[derive(Debug, thiserror::Error)]
#[error("Origin not allowed")]
pub struct OriginRefused;

/// Connect middleware: runs before the connection is acknowledged.
pub async fn admit<A: Adapter>(
    socket: SocketRef<A>,
    State(state): State<AppState>,
    State(limits): State<Limits>,
) -> Result<(), OriginRefused> {
    let request = socket.req_parts();
    if !state.origins.allows(&request.headers) {
        return Err(OriginRefused);
    }
    // The chat is open to all: a session that cannot be read leaves the socket anonymous.
    let user_id: Option<Arc<str>> = match state.sessions.resolve(&request.headers).await {
        Ok(session) => session.map(|s| Arc::from(s.user.id)),
        Err(err) => {
            tracing::warn!(
                error = describe(&err).join(": "),
                "could not read the session of a socket"
            );
            None
        }
    };
    let client = match (&user_id, request.extensions.get::<ConnectInfo<SocketAddr>>()) {
        (Some(user), _) => format!("user:{user}"),
        (None, Some(ConnectInfo(peer))) => {
            let address = client_address(peer.ip(), &request.headers, state.config.trust_proxy);
            format!("addr:{}", AddressKey::of(address))
        }
        (None, None) => "addr:unknown".to_owned(),
    };
    let backlog = limits.backlogs.open(socket.id);
    // Opened straight on WebSocket, the handshake's connection is the transport.
    if socket.transport_type() == TransportType::Websocket
        && let Some(connection) = request.extensions.get::<Arc<ConnectionState>>()
    {
        backlog.carried_by(connection);
    }
    socket.extensions.insert(Connection {
        user_id,
        limiter: limits.per_connection.map(|quota| Arc::new(RateLimiter::direct(quota))),
        client: client.into(),
        backlog,
    });
    Ok(())
}
