//! Metrics in Prometheus' text format, on a listener of their own (`LOSTFOUND_METRICS_BIND`),
//! through the `metrics` facade. Each metric's name is written once, here; the rest of the
//! service calls these functions, which cost next to nothing while no recorder is installed
//! (metrics off, the default).

use std::{net::SocketAddr, sync::OnceLock, time::Duration};

use anyhow::Context;
use axum::{Router, extract::State, http::Method, routing::get};
use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

use crate::store::Store;

/// Request latency buckets, in seconds: from a cached read to a slow list.
const LATENCY_BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

/// An HTTP connection was accepted (`opened`) or closed.
pub fn http_connection(opened: bool) {
    step(gauge!("lostfound_http_connections"), opened);
}

/// A Socket.IO client connected (`opened`) or went away.
pub fn socketio_connection(opened: bool) {
    step(gauge!("lostfound_socketio_connections"), opened);
}

fn step(gauge: metrics::Gauge, up: bool) {
    if up { gauge.increment(1.0) } else { gauge.decrement(1.0) }
}

/// A limit turned something away: `connections`, `connections_per_address`, `login`,
/// `messages`.
pub fn refused(limit: &'static str) {
    counter!("lostfound_refusals_total", "limit" => limit).increment(1);
}

/// A chat or thread message was stored and sent on (`room`: `chat` or `thread`).
pub fn message_sent(room: &'static str) {
    counter!("lostfound_messages_total", "room" => room).increment(1);
}

/// An HTTP request was answered. `route` is the route's pattern (`/api/items/{id}`) and an
/// unknown method is `other`, so the number of series stays bounded whatever clients send.
pub fn http_request(route: String, method: &Method, status: u16, took: Duration) {
    let method = method_label(method);
    counter!("lostfound_http_requests_total", "route" => route.clone(), "method" => method, "status" => status.to_string())
        .increment(1);
    histogram!("lostfound_http_request_duration_seconds", "route" => route, "method" => method)
        .record(took.as_secs_f64());
}

/// The methods HTTP defines keep their names; any other (a client may send any token) is
/// `other`.
fn method_label(method: &Method) -> &'static str {
    static KNOWN: [Method; 9] = [
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::PUT,
        Method::PATCH,
        Method::DELETE,
        Method::OPTIONS,
        Method::CONNECT,
        Method::TRACE,
    ];
    KNOWN
        .iter()
        .find(|known| *known == method)
        .map_or("other", Method::as_str)
}

/// The process's one recorder: installed by the first server that serves metrics.
static RECORDER: OnceLock<PrometheusHandle> = OnceLock::new();

fn recorder() -> anyhow::Result<&'static PrometheusHandle> {
    if let Some(handle) = RECORDER.get() {
        return Ok(handle);
    }
    let recorder = PrometheusBuilder::new()
        .set_buckets_for_metric(
            Matcher::Full("lostfound_http_request_duration_seconds".into()),
            &LATENCY_BUCKETS,
        )?
        .build_recorder();
    let handle = recorder.handle();
    // Another thread may have installed one meanwhile; then that one serves.
    if metrics::set_global_recorder(recorder).is_ok() {
        let _ = RECORDER.set(handle);
    }
    RECORDER.get().context("the metrics recorder is installed elsewhere")
}

/// Binds the metrics listener at `bind`; `serve` answers `GET /metrics` there.
pub async fn listen(bind: SocketAddr) -> anyhow::Result<(TcpListener, &'static PrometheusHandle)> {
    let handle = recorder()?;
    let listener = TcpListener::bind(bind)
        .await
        .with_context(|| format!("cannot listen for metrics on {bind}"))?;
    tracing::info!("metrics on http://{}/metrics", listener.local_addr()?);
    Ok((listener, handle))
}

/// Serves `GET /metrics` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, handle: &'static PrometheusHandle, store: Store, outbox: bool) {
    let app = Router::new()
        .route("/metrics", get(render))
        .with_state((handle, store, outbox));
    if let Err(err) = axum::serve(listener, app).await {
        tracing::warn!(error = %err, "the metrics listener stopped");
    }
}

/// The metrics, with the gauges read at scrape time brought up to date first.
async fn render(State((handle, store, outbox)): State<(&'static PrometheusHandle, Store, bool)>) -> String {
    for (pool, size, idle) in store.pool_use() {
        gauge!("lostfound_db_connections", "pool" => pool, "state" => "idle").set(idle as f64);
        gauge!("lostfound_db_connections", "pool" => pool, "state" => "busy")
            .set((size as usize).saturating_sub(idle) as f64);
    }
    if outbox {
        match store.mail_queued().await {
            Ok(queued) => gauge!("lostfound_mail_outbox").set(queued as f64),
            Err(err) => tracing::warn!(error = %err, "cannot count the mail outbox"),
        }
    }
    handle.render()
}
