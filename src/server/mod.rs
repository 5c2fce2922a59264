//! Serving HTTP/1.1 (and WebSocket upgrades) with the limits a service on the open internet
//! needs: caps on open connections, in total and per client address; deadlines for request
//! headers, idle keep-alive connections and stalled responses (see [`io`]); and a bounded
//! graceful shutdown.

mod caps;
mod io;

use std::{
    convert::Infallible,
    future::Future,
    net::SocketAddr,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use axum::{
    body::{Body, Bytes},
    extract::ConnectInfo,
    http::{Request, Response, StatusCode},
};
use hyper::{body::Incoming, server::conn::http1};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::{net::TcpListener, sync::watch};
use tokio_util::task::TaskTracker;
use tower::{ServiceExt, util::BoxCloneSyncService};

pub use self::io::{ConnectionState, Deadlines, WriteObserver};
use self::{caps::ConnectionCaps, io::GuardedIo};
use crate::net::{SharedNetworks, client_address};

/// The limits of [`serve`].
#[derive(Debug, Clone)]
pub struct Limits {
    pub deadlines: Deadlines,
    /// How long in-flight requests may take to finish once shutdown begins.
    pub shutdown: Duration,
    /// Open connections at most, in total and per client address (0: no cap).
    pub max_connections: usize,
    pub max_connections_per_address: usize,
    /// Count connections per address by the address a trusted proxy forwarded.
    pub trust_proxy: bool,
    /// Networks whose addresses may hold more connections.
    pub shared_networks: SharedNetworks,
}

/// What answers each request: one boxed service, cloned per request (a `Router` with only a
/// fallback would add its routing and a second box).
pub type HttpService = BoxCloneSyncService<Request<Body>, Response<Body>, Infallible>;

/// Serves `app` on `listener` until `shutdown` resolves; then stops accepting, gives in-flight
/// requests up to `limits.shutdown` to finish, and returns (dropping what is left).
pub async fn serve(
    listener: TcpListener,
    app: HttpService,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let caps = ConnectionCaps::new(
        limits.max_connections,
        limits.max_connections_per_address,
        limits.shared_networks.clone(),
    );
    let connections = TaskTracker::new();
    let (stop, stopping) = watch::channel(false);
    let mut http = http1::Builder::new();
    // The deadlines are the socket's (GuardedIo); hyper's own header timer would also close
    // idle keep-alive connections.
    http.timer(TokioTimer::new()).header_read_timeout(None);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors, say: the caps should prevent it; wait, go on.
                    tracing::warn!(error = %err, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let state = ConnectionState::new();
        let Some(place) = caps.admit() else {
            crate::metrics::refused("connections");
            continue;
        };
        state.hold(place);
        if !limits.trust_proxy {
            let Some(place) = caps.admit_address(peer.ip()) else {
                crate::metrics::refused("connections_per_address");
                continue;
            };
            state.hold(place);
        }
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(GuardedIo::new(stream, Arc::clone(&state), limits.deadlines));
        let service = ConnectionService {
            app: app.clone(),
            state,
            peer,
            caps: Arc::clone(&caps),
            trust_proxy: limits.trust_proxy,
        };
        let connection = http.serve_connection(io, service).with_upgrades();
        let mut stopping = stopping.clone();
        connections.spawn(async move {
            tokio::pin!(connection);
            let ended = tokio::select! {
                ended = connection.as_mut() => ended,
                _ = async { stopping.wait_for(|stop| *stop).await.map(drop) } => {
                    // Finish the request in flight, if any, then close.
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(err) = ended {
                tracing::debug!(error = %err, "connection ended with an error");
            }
        });
    }
    drop(listener);
    let _ = stop.send(true);
    connections.close();
    if tokio::time::timeout(limits.shutdown, connections.wait()).await.is_err() {
        tracing::warn!("requests still running at the shutdown deadline were cut off");
    }
    Ok(())
}

/// Answers the requests of one connection with the router, keeping the connection's state.
#[derive(Clone)]
struct ConnectionService {
    app: HttpService,
    state: Arc<ConnectionState>,
    peer: SocketAddr,
    caps: Arc<ConnectionCaps>,
    trust_proxy: bool,
}

/// A connection over its address's cap (counted by a proxy's forwarded address).
#[derive(Debug, thiserror::Error)]
#[error("too many connections from one address")]
struct OverCap;

impl hyper::service::Service<Request<Incoming>> for ConnectionService {
    type Response = Response<TrackedBody>;
    type Error = OverCap;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, OverCap>> + Send>>;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        if self.trust_proxy && !self.state.holds_address_place() {
            let address = client_address(self.peer.ip(), request.headers(), true);
            match self.caps.admit_address(address) {
                Some(place) => self.state.hold(place),
                // Closes the connection, unanswered.
                None => {
                    crate::metrics::refused("connections_per_address");
                    return Box::pin(std::future::ready(Err(OverCap)));
                }
            }
        }
        self.state.request_started();
        request.extensions_mut().insert(ConnectInfo(self.peer));
        request.extensions_mut().insert(Arc::clone(&self.state));
        let (app, state) = (self.app.clone(), Arc::clone(&self.state));
        Box::pin(async move {
            let response = app
                .oneshot(request.map(Body::new))
                .await
                .unwrap_or_else(|never: Infallible| match never {});
            if response.status() == StatusCode::SWITCHING_PROTOCOLS {
                state.upgraded();
            }
            Ok(response.map(|inner| TrackedBody { inner, state }))
        })
    }
}

/// A response body that tells its connection when it has been sent (or abandoned).
pub struct TrackedBody {
    inner: Body,
    state: Arc<ConnectionState>,
}

impl hyper::body::Body for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for TrackedBody {
    fn drop(&mut self) {
        self.state.request_finished();
    }
}
