//! lostfound: a lost-item reporting service.
//!
//! `App::build` opens the store and binds the listener (port 0 in tests); `App::run`
//! serves until the shutdown future resolves, then lets in-flight requests finish.

pub mod auth;
pub mod cli;
pub mod config;
pub mod demo;
pub mod domain;
pub mod error;
pub mod http;
pub mod origins;
pub mod realtime;
pub mod store;
pub mod time;

use std::{future::Future, net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context;
use axum::Router;
use tokio::net::TcpListener;

use crate::{
    auth::{LoginThrottle, Passwords, SESSION_IDLE_MS},
    config::Config,
    http::AppState,
    origins::AllowedOrigins,
    store::Store,
};

/// How often expired sessions and throttle windows are purged.
const MAINTENANCE_INTERVAL: Duration = Duration::from_secs(600);
/// Throttle rows older than this are no longer in any window.
const THROTTLE_RETENTION_MS: i64 = 24 * 60 * 60 * 1000;

pub struct App {
    listener: TcpListener,
    state: AppState,
    router: Router,
    realtime: realtime::Server,
}

impl App {
    /// Opens (and migrates) the database, connects to Redis when configured, and binds the
    /// listening socket.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let store = Store::connect(&config.database_url).await?;
        let (redis, redis_health) = match &config.redis_url {
            Some(url) => {
                let (adapter, health) = realtime::redis::connect(url).await?;
                (Some(adapter), Some(health))
            }
            None => (None, None),
        };
        let listener = TcpListener::bind(config.bind)
            .await
            .with_context(|| format!("cannot listen on {}", config.bind))?;
        let state = AppState {
            throttle: LoginThrottle::new(store.clone()),
            origins: AllowedOrigins::from_config(&config),
            passwords: Passwords::new().await?,
            redis: redis_health,
            store,
            config: Arc::new(config),
        };
        let (router, realtime) = realtime::Server::attach(http::router(state.clone()), state.clone(), redis).await?;
        let router = router.layer(http::cors(state.origins.clone()));
        Ok(Self {
            listener,
            state,
            router,
            realtime,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    pub fn store(&self) -> &Store {
        &self.state.store
    }

    pub fn passwords(&self) -> &Passwords {
        &self.state.passwords
    }

    /// Serves until `shutdown` resolves, waits for in-flight requests, then closes the database.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let store = self.state.store.clone();
        let maintenance = tokio::spawn(purge_expired_periodically(store.clone()));
        let realtime = self.realtime;
        // Closing the sockets ends pending long-polls, which would otherwise hold the drain.
        let shutdown = async move {
            shutdown.await;
            realtime.close().await;
        };
        let service = self.router.into_make_service_with_connect_info::<SocketAddr>();
        let served = axum::serve(self.listener, service)
            .with_graceful_shutdown(shutdown)
            .await;
        maintenance.abort();
        store.close().await;
        served.context("server error")
    }
}

async fn purge_expired_periodically(store: Store) {
    let mut ticks = tokio::time::interval(MAINTENANCE_INTERVAL);
    loop {
        ticks.tick().await;
        let now = time::now_ms();
        if let Err(err) = store
            .purge_expired(now - SESSION_IDLE_MS, now - THROTTLE_RETENTION_MS)
            .await
        {
            tracing::warn!(error = %err, "could not purge expired sessions");
        }
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing in-flight requests");
}
