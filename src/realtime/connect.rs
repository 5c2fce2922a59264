//! The handshake: refuse foreign web origins, learn who is connected from the `sid` cookie
//! (and follow that session: `identity`), note whether the client asked for message ids and
//! senders, and set up what bounds the connection: its own flood limit, the limit it shares
//! with its address or account, and the backlog of events it has not taken yet.

use std::{
    collections::{HashMap, HashSet},
    net::SocketAddr,
    num::NonZeroU32,
    sync::{Arc, Mutex},
};

use axum::extract::ConnectInfo;
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde_json::Value;
use socketioxide::{
    TransportType,
    adapter::Adapter,
    extract::{SocketRef, State, TryData},
    socket::Sid,
};

use super::{
    outbound::{Backlog, Backlogs},
    parts::Carrier,
};
use crate::{
    causes::describe,
    domain::User,
    net::{AddressKey, SharedNetworks, client_address},
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
    /// Messages per client address, or per account when logged in, over all its connections.
    pub per_client: Option<Arc<ClientLimiter>>,
    /// The same for the addresses of shared networks, their factor times as many.
    pub per_shared_address: Option<Arc<ClientLimiter>>,
    pub shared: SharedNetworks,
    /// Bytes a history carries at most.
    pub history_bytes: usize,
}

type ClientLimiter = DefaultKeyedRateLimiter<Arc<str>>;

impl Limits {
    /// `connection_rate` events a second per connection and `client_rate` per address or
    /// account (0: no such limit); `max_unsent` bytes left unread at most (0: no limit).
    pub fn new(
        connection_rate: u32,
        client_rate: u32,
        max_unsent: u64,
        history_bytes: usize,
        shared: SharedNetworks,
    ) -> Self {
        let keyed = |rate: u32| quota(rate, CLIENT_BURST_SECONDS).map(|q| Arc::new(RateLimiter::keyed(q)));
        Self {
            per_connection: quota(connection_rate, CONNECTION_BURST_SECONDS),
            backlogs: Backlogs::new(max_unsent),
            per_client: keyed(client_rate),
            per_shared_address: keyed(client_rate.saturating_mul(shared.factor())),
            shared,
            history_bytes,
        }
    }

    /// The limit `connection`'s messages count under, with the key they count under.
    pub fn for_client<'a>(&'a self, connection: &'a Connection) -> Option<(&'a ClientLimiter, &'a Arc<str>)> {
        let limiter = if connection.shared && connection.client == connection.address {
            &self.per_shared_address
        } else {
            &self.per_client
        };
        limiter.as_deref().map(|limiter| (limiter, &connection.client))
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
    /// The account behind the socket while its session lives, stored with each message it
    /// sends.
    pub sender: Option<Arc<Sender>>,
    /// The client asked for each message's `id` and `user` (`fields: ["id", "user"]`).
    pub with_ids: bool,
    /// Per-connection flood control: one client's burst never slows the others.
    pub limiter: Option<Arc<DefaultDirectRateLimiter>>,
    /// Whom the per-client limit counts this connection under: its account or address.
    pub client: Arc<str>,
    /// The key of its address, which it counts under once anonymous.
    address: Arc<str>,
    /// Its address is in a shared network.
    shared: bool,
    pub backlog: Arc<Backlog>,
}

/// A logged-in account behind a socket, and the session (its key) it came with.
pub struct Sender {
    pub user: User,
    pub session: String,
}

impl Connection {
    /// The same connection, speaking for `sender` (the same account as it is now).
    pub fn with_sender(&self, sender: Sender) -> Self {
        Self {
            sender: Some(Arc::new(sender)),
            ..self.clone()
        }
    }

    /// The same connection, speaking for no account from now on.
    pub fn anonymous(&self) -> Self {
        Self {
            sender: None,
            client: Arc::clone(&self.address),
            ..self.clone()
        }
    }
}

/// This node's sockets by the session (its key) they speak for, with when it expires
/// unless used.
#[derive(Default)]
pub struct SessionSockets(Mutex<HashMap<String, Held>>);

struct Held {
    expires_at: i64,
    sockets: HashSet<Sid>,
}

impl SessionSockets {
    pub fn hold(&self, key: &str, expires_at: i64, socket: Sid) {
        let mut held = self.0.lock().expect("never poisoned");
        let entry = held.entry(key.to_owned()).or_insert_with(|| Held {
            expires_at,
            sockets: HashSet::new(),
        });
        entry.expires_at = entry.expires_at.max(expires_at);
        entry.sockets.insert(socket);
    }

    pub fn release(&self, key: &str, socket: Sid) {
        let mut held = self.0.lock().expect("never poisoned");
        if let Some(entry) = held.get_mut(key) {
            entry.sockets.remove(&socket);
            if entry.sockets.is_empty() {
                held.remove(key);
            }
        }
    }

    /// Whether no socket here speaks for a session.
    pub(super) fn is_empty(&self) -> bool {
        self.0.lock().expect("never poisoned").is_empty()
    }

    /// The sockets of the sessions among `ended` that this node holds, forgotten here.
    pub(super) fn take(&self, ended: &[String]) -> Vec<Sid> {
        let mut held = self.0.lock().expect("never poisoned");
        ended
            .iter()
            .filter_map(|key| held.remove(key))
            .flat_map(|entry| entry.sockets)
            .collect()
    }

    /// The sessions held that may have expired by `now`.
    pub(super) fn expiring(&self, now: i64) -> Vec<String> {
        let held = self.0.lock().expect("never poisoned");
        held.iter()
            .filter(|(_, entry)| entry.expires_at <= now)
            .map(|(key, _)| key.clone())
            .collect()
    }

    /// A session found still alive: it expires at `expires_at` at the earliest.
    pub(super) fn extend(&self, key: &str, expires_at: i64) {
        if let Some(entry) = self.0.lock().expect("never poisoned").get_mut(key) {
            entry.expires_at = expires_at;
        }
    }
}

/// The room of staff's sockets: they read every thread, whatever its item's review state.
pub(super) const STAFF_ROOM: &str = "staff";

/// The room of every socket of one user: `notify` goes there.
pub(super) fn user_room(user: &str) -> String {
    format!("user:{user}")
}

/// Which keys messages carry besides the contract's: `["id", "user"]` asked for in the
/// handshake's `auth` (`{ fields: [...] }`) or query (`fields=id,user`).
fn asks_for_ids(auth: Option<&Value>, query: Option<&str>) -> bool {
    let from_auth = auth
        .and_then(|auth| auth.get("fields"))
        .and_then(Value::as_array)
        .is_some_and(|fields| fields.iter().any(|f| f == "id" || f == "user"));
    let from_query = form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .any(|(name, value)| name == "fields" && value.split(',').any(|f| f == "id" || f == "user"));
    from_auth || from_query
}

#[derive(Debug, thiserror::Error)]
#[error("Origin not allowed")]
pub struct OriginRefused;

/// Connect middleware: runs before the connection is acknowledged.
pub async fn admit<A: Adapter>(
    socket: SocketRef<A>,
    State(state): State<AppState>,
    State(limits): State<Limits>,
    State(sessions): State<Arc<SessionSockets>>,
    TryData(auth): TryData<Value>,
) -> Result<(), OriginRefused> {
    let request = socket.req_parts();
    if !state.origins.allows(&request.headers) {
        return Err(OriginRefused);
    }
    // The chat is open to all: a session that cannot be read leaves the socket anonymous.
    let session = match state.sessions.resolve(&request.headers).await {
        Ok(session) => session,
        Err(err) => {
            tracing::warn!(
                error = describe(&err).join(": "),
                "could not read the session of a socket"
            );
            None
        }
    };
    let (address, shared) = match request.extensions.get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(peer)) => {
            let address = client_address(peer.ip(), &request.headers, state.config.trust_proxy);
            (
                format!("addr:{}", AddressKey::of(address)),
                limits.shared.contains(address),
            )
        }
        None => ("addr:unknown".to_owned(), false),
    };
    let client = match &session {
        Some(session) => format!("user:{}", session.user.id),
        None => address.clone(),
    };
    if let Some(session) = &session {
        sessions.hold(&session.key, session.expires_at, socket.id);
    }
    let with_ids = asks_for_ids(auth.ok().as_ref(), request.uri.query());
    let backlog = limits.backlogs.open(socket.id);
    // Opened straight on WebSocket, the handshake's connection is the transport.
    if socket.transport_type() == TransportType::Websocket
        && let Some(connection) = request.extensions.get::<Carrier>().and_then(Carrier::connection)
    {
        backlog.carried_by(&connection);
    }
    socket.extensions.insert(Connection {
        sender: session.map(|session| {
            Arc::new(Sender {
                user: session.user,
                session: session.key,
            })
        }),
        with_ids,
        limiter: limits.per_connection.map(|quota| Arc::new(RateLimiter::direct(quota))),
        client: client.into(),
        address: address.into(),
        shared,
        backlog,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ids_are_asked_for_in_the_auth_payload_or_the_query() {
        assert!(asks_for_ids(Some(&json!({ "fields": ["id", "user"] })), None));
        assert!(asks_for_ids(None, Some("EIO=4&transport=polling&fields=id,user")));
        assert!(!asks_for_ids(Some(&json!({ "fields": "id" })), Some("EIO=4")));
        assert!(!asks_for_ids(Some(&json!({})), None));
    }
}
