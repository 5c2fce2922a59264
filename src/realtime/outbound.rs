//! What each real-time client has been handed but has not taken yet, in bytes. A client over
//! the limit (one that stopped reading while events kept coming) is disconnected, so no
//! client can make the server hold more than that for it.
//!
//! Events are counted as they are handed to a socket; they are taken off as its transport
//! sends bytes: the WebSocket connection's writes (seen by `server::ConnectionState`), or the
//! long-polling answers' bodies (seen by [`track_transport`]).

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex, Weak,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
};

use axum::{
    body::Body,
    extract::{Request, State},
    http::Method,
    middleware::Next,
    response::Response,
};
use futures_util::TryStreamExt;
use socketioxide::socket::Sid;

use super::parts::Carrier;
use crate::server::{ConnectionState, WriteObserver};

/// One socket's events not yet sent.
pub struct Backlog {
    unsent: AtomicU64,
    /// 0: no limit.
    limit: u64,
    /// The WebSocket connection carrying the socket, once it has one.
    transport: Mutex<Weak<ConnectionState>>,
    /// The client went over the limit and is being disconnected.
    dropped: AtomicBool,
}

impl Backlog {
    /// Counts `bytes` more handed to the socket; false once the client is over the limit.
    pub fn charge(&self, bytes: usize) -> bool {
        let unsent = self.unsent.fetch_add(bytes as u64, Ordering::SeqCst) + bytes as u64;
        self.limit == 0 || unsent <= self.limit
    }

    /// Marks the client as being disconnected; true the first time only.
    pub fn drop_once(&self) -> bool {
        !self.dropped.swap(true, Ordering::SeqCst)
    }

    /// Takes what `connection` sends off the backlog: it carries the socket now.
    pub fn carried_by(self: &Arc<Self>, connection: &Arc<ConnectionState>) {
        *self.transport.lock().expect("the transport lock is never poisoned") = Arc::downgrade(connection);
        connection.observe_writes(Arc::clone(self) as _);
    }

    /// Cuts off the socket's WebSocket connection, if it has one: a client that does not read
    /// cannot be told to go, its queue is full.
    pub fn cut_transport(&self) {
        let transport = self
            .transport
            .lock()
            .expect("the transport lock is never poisoned")
            .upgrade();
        if let Some(connection) = transport {
            connection.abort();
        }
    }
}

impl WriteObserver for Backlog {
    /// Framing, pings and events from other nodes are sent but were never charged: the count
    /// only ever errs low, and never below zero.
    fn written(&self, bytes: usize) {
        let _ = self.unsent.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |unsent| {
            Some(unsent.saturating_sub(bytes as u64))
        });
    }
}

/// The backlog of every socket of this node, by socket id (the Engine.IO session id, which
/// transport requests name in `sid=`).
pub struct Backlogs {
    by_socket: Mutex<HashMap<Sid, Arc<Backlog>>>,
    limit: u64,
}

impl Backlogs {
    pub fn new(limit: u64) -> Arc<Self> {
        Arc::new(Self {
            by_socket: Mutex::default(),
            limit,
        })
    }

    pub fn open(&self, socket: Sid) -> Arc<Backlog> {
        let backlog = Arc::new(Backlog {
            unsent: AtomicU64::new(0),
            limit: self.limit,
            transport: Mutex::new(Weak::new()),
            dropped: AtomicBool::new(false),
        });
        self.lock().insert(socket, Arc::clone(&backlog));
        backlog
    }

    /// Counts `bytes` more handed to each of `sockets`, under one lock: a broadcast charges
    /// every receiver. Returns the sockets over the limit.
    pub fn charge(&self, sockets: impl IntoIterator<Item = Sid>, bytes: usize) -> Vec<Sid> {
        let by_socket = self.lock();
        sockets
            .into_iter()
            .filter(|socket| by_socket.get(socket).is_some_and(|backlog| !backlog.charge(bytes)))
            .collect()
    }

    pub fn close(&self, socket: Sid) {
        self.lock().remove(&socket);
    }

    fn get(&self, socket: Sid) -> Option<Arc<Backlog>> {
        self.lock().get(&socket).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Sid, Arc<Backlog>>> {
        self.by_socket.lock().expect("the backlogs lock is never poisoned")
    }
}

/// Middleware in front of Socket.IO: an upgrade to WebSocket hands its connection's writes
/// to the socket's backlog; a long-poll's answer is taken off it as it is sent.
pub async fn track_transport(State(backlogs): State<Arc<Backlogs>>, request: Request, next: Next) -> Response {
    let session = transport_session(&request);
    let Some((websocket, backlog)) = session.and_then(|(ws, sid)| Some((ws, backlogs.get(sid)?))) else {
        return next.run(request).await;
    };
    if websocket {
        if let Some(connection) = request.extensions().get::<Carrier>().and_then(Carrier::connection) {
            backlog.carried_by(&connection);
        }
        return next.run(request).await;
    }
    if request.method() != Method::GET {
        return next.run(request).await;
    }
    let (parts, body) = next.run(request).await.into_parts();
    let counted = body
        .into_data_stream()
        .inspect_ok(move |chunk| backlog.written(chunk.len()));
    Response::from_parts(parts, Body::from_stream(counted))
}

/// `(is WebSocket, sid)` of a transport request of an existing session.
fn transport_session(request: &Request) -> Option<(bool, Sid)> {
    if !request.uri().path().starts_with("/socket.io/") {
        return None;
    }
    let query = request.uri().query()?;
    let mut sid = None;
    let mut websocket = false;
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        match name.as_ref() {
            "sid" => sid = value.parse().ok(),
            "transport" => websocket = value == "websocket",
            _ => {}
        }
    }
    Some((websocket, sid?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backlog_goes_up_with_events_and_down_with_sent_bytes() {
        let backlog = Backlogs::new(100).open(Sid::new());
        assert!(backlog.charge(60));
        backlog.written(30);
        assert!(backlog.charge(60), "90 unsent");
        assert!(!backlog.charge(20), "110 unsent");
        backlog.written(1_000);
        assert!(backlog.charge(100), "never below zero");
        assert!(Backlogs::new(0).open(Sid::new()).charge(usize::MAX / 2), "no limit");
    }
}
