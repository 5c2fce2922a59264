//! lostfound: a lost-item reporting service.
//!
//! `App::build` opens the store and binds the listener (port 0 in tests); `App::run`
//! serves until the shutdown future resolves, then lets in-flight requests finish.
//! `docs/architecture.md` describes the modules and how data flows through them.

pub mod auth;
pub mod cache;
pub mod causes;
pub mod cli;
pub mod config;
pub mod cpu;
pub mod demo;
pub mod domain;
pub mod error;
pub mod events;
pub mod http;
pub mod json;
pub mod log_writer;
pub mod mail;
pub mod meaning;
pub mod metrics;
pub mod net;
pub mod origins;
pub mod push;
pub mod realtime;
pub mod redis;
pub mod server;
pub mod state;
pub mod store;
pub mod time;
pub mod usecases;

use std::{future::Future, net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context;
use axum::Router;
use tokio::{net::TcpListener, sync::watch};
use tower::{ServiceBuilder, util::BoxCloneSyncService};

use crate::{
    causes::describe,
    config::{Config, LimitsConfig},
    state::AppState,
    store::{Create, Forgotten, Store},
};

/// How often expired sessions and throttle windows are purged, and personal details past
/// their retention removed.
const MAINTENANCE_INTERVAL: Duration = Duration::from_secs(600);

pub struct App {
    listener: TcpListener,
    state: AppState,
    router: server::HttpService,
    realtime: realtime::Server,
    /// Set when notifications are emailed.
    mailer: Option<mail::Mailer>,
    /// What this node's mail sender has done, when there is one.
    mail_progress: watch::Sender<mail::Progress>,
    /// Set when notices are pushed to devices.
    pusher: Option<push::Pusher>,
    /// Set when metrics are served.
    metrics: Option<(TcpListener, &'static metrics_exporter_prometheus::PrometheusHandle)>,
}

impl App {
    /// Opens (and migrates) the database, connects to Redis when configured, and binds the
    /// listening socket.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        config.check_accounts()?;
        config.custody.check()?;
        let mailer = mail::Mailer::from_config(&config.mail, config.public_url.as_deref())?;
        let mut store = Store::connect(&config.database.url, Create::IfMissing).await?;
        if let Some(mailer) = &mailer {
            store = store.with_mail_outbox(mailer.mails_links());
        }
        store
            .fold_ids()
            .await
            .context("cannot make account ids unique in any case")?;
        let converted = store
            .convert_legacy_rows()
            .await
            .context("cannot convert the items stored by an earlier release")?;
        if converted > 0 {
            tracing::info!(items = converted, "converted items stored by an earlier release");
        }
        let strays = store
            .give_strays_sites()
            .await
            .context("cannot give the items reported by an older node a site")?;
        if strays > 0 {
            tracing::info!(items = strays, "gave items reported by an older node the nearest site");
        }
        if let Some(office) = &config.office
            && store
                .fill_upgraded_site(office, time::now_ms())
                .await
                .context("cannot tell the upgraded site how to collect")?
        {
            tracing::info!("the site made by the upgrade to sites tells how to collect as LOSTFOUND_OFFICE does");
        }
        let seeded = store
            .seed_category_periods(&config.custody.hold_days_by_category, time::now_ms())
            .await
            .context("cannot keep the categories LOSTFOUND_HOLD_DAYS_BY_CATEGORY names")?;
        if seeded > 0 {
            tracing::info!(
                categories = seeded,
                "gave categories the periods LOSTFOUND_HOLD_DAYS_BY_CATEGORY names"
            );
        }
        let pusher = push::Pusher::from_config(
            &config.push,
            config.mail.mail_from.as_deref(),
            config.public_url.as_deref(),
            &store,
        )
        .await
        .context("cannot make or read the service's push key")?;
        if pusher.is_some() {
            store = store.with_push_outbox();
        }
        let (redis, redis_health) = match &config.redis_url {
            Some(url) => {
                let (adapter, health) = redis::connect(url).await?;
                (Some(adapter), Some(health))
            }
            None => (None, None),
        };
        let metrics = match config.metrics_bind {
            Some(bind) => Some(metrics::listen(bind).await?),
            None => None,
        };
        let listener = TcpListener::bind(config.bind)
            .await
            .with_context(|| format!("cannot listen on {}", config.bind))?;
        let push_key = pusher.as_ref().map(|pusher| pusher.public_key().to_owned());
        let state = AppState::new(config, store, redis_health, push_key).await?;
        let api = http::router(state.clone());
        let (socket_io, realtime) =
            realtime::Server::attach(BoxCloneSyncService::new(api.clone()), state.clone(), redis).await?;
        // The Socket.IO client script in front: the Socket.IO layer would refuse its paths.
        let socket_io = ServiceBuilder::new()
            .layer(axum::middleware::from_fn(http::socket_io_client))
            .service(socket_io);
        // Only the paths under /socket.io/ pass those layers; every other request goes to the
        // API directly: each `from_fn` layer clones and boxes the service behind it and boxes
        // a future, on every request (docs/performance.md, "CPU per answer").
        let router = Router::new()
            .route_service("/socket.io/", socket_io.clone())
            .route_service("/socket.io/{*path}", socket_io)
            .fallback_service(api);
        // CORS outermost: long-polling from an allowed origin works too.
        let outer = ServiceBuilder::new().layer(http::cors(state.origins.clone()));
        let router = BoxCloneSyncService::new(outer.service(router));
        Ok(Self {
            listener,
            state,
            router,
            realtime,
            mailer,
            mail_progress: watch::Sender::default(),
            pusher,
            metrics,
        })
    }

    /// What this node's mail sender has done so far (it sends nothing without email set up).
    pub fn mail_progress(&self) -> watch::Receiver<mail::Progress> {
        self.mail_progress.subscribe()
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves, waits for in-flight requests, then closes the database.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let maintenance = tokio::spawn(purge_expired_periodically(self.state.clone()));
        let fill = tokio::spawn(self.state.meanings.clone().fill(self.state.store.clone()));
        let metrics = self.metrics.map(|(listener, handle)| {
            let store = self.state.store.clone();
            tokio::spawn(metrics::serve(listener, handle, store, self.mailer.is_some()))
        });
        let stop_mail = tokio_util::sync::CancellationToken::new();
        let mail = self.mailer.map(|mailer| {
            let (store, events) = (self.state.store.clone(), self.state.events.subscribe());
            tokio::spawn(mail::send_queued(
                store,
                mailer,
                events,
                stop_mail.clone(),
                self.mail_progress,
            ))
        });
        let push = self.pusher.map(|pusher| {
            let (store, events) = (self.state.store.clone(), self.state.events.subscribe());
            tokio::spawn(push::send_queued(store, pusher, events, stop_mail.clone()))
        });
        let realtime = self.realtime;
        let timeout = LimitsConfig::seconds(self.state.config.limits.shutdown_timeout).unwrap_or(Duration::MAX);
        let deadline = Arc::new(std::sync::OnceLock::new());
        // The mail sender stops taking messages as the drain starts; closing the sockets ends
        // pending long-polls, which would otherwise hold the drain.
        let shutdown = {
            let (stop_mail, deadline) = (stop_mail.clone(), Arc::clone(&deadline));
            async move {
                shutdown.await;
                deadline.get_or_init(|| tokio::time::Instant::now().checked_add(timeout));
                stop_mail.cancel();
                realtime.close().await;
            }
        };
        let open_files = raise_file_limit();
        let served = server::serve(
            self.listener,
            self.router,
            limits(&self.state.config, open_files),
            shutdown,
        )
        .await;
        maintenance.abort();
        fill.abort();
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        // A message being sent is finished (and recorded as sent) before the database closes,
        // within the shutdown timeout: else it stays leased, and is sent once its lease ends.
        stop_mail.cancel();
        // A push being sent when the database closes is sent again once its lease ends.
        if let Some(push) = push {
            push.abort();
        }
        if let Some(mut mail) = mail {
            let stopped = async {
                let _ = (&mut mail).await;
            };
            // No deadline: no timeout set, or the server stopped without a shutdown signal.
            let finished = match deadline.get().copied().flatten() {
                Some(deadline) => tokio::time::timeout_at(deadline, stopped).await.is_ok(),
                None => {
                    stopped.await;
                    true
                }
            };
            if !finished {
                tracing::warn!("a message was still being sent at the shutdown timeout; it will be sent later");
                mail.abort();
            }
        }
        self.state.store.close().await;
        served.context("server error")
    }
}

/// Files the process keeps open besides its connections: the database, the listener, logs.
const FILES_BESIDES_CONNECTIONS: u64 = 256;

/// The connection limits `config` sets, the total cap lowered to fit `open_files` (the
/// process's limit on open files, if known): otherwise the files would run out before the
/// cap is reached, and then no one is served.
fn limits(config: &Config, open_files: Option<u64>) -> server::Limits {
    let limits = &config.limits;
    let fits = open_files.map(|files| files.saturating_sub(FILES_BESIDES_CONNECTIONS).max(1) as usize);
    let max_connections = match (limits.max_connections, fits) {
        (configured, Some(fits)) if configured == 0 || configured > fits => {
            tracing::warn!(
                configured,
                open_files,
                cap = fits,
                "the open files limit is below the connection cap: the cap is lowered to fit"
            );
            fits
        }
        (configured, _) => configured,
    };
    server::Limits {
        deadlines: server::Deadlines {
            header: LimitsConfig::seconds(limits.header_timeout),
            idle: LimitsConfig::seconds(limits.idle_timeout),
            write: LimitsConfig::seconds(limits.write_timeout),
        },
        shutdown: LimitsConfig::seconds(limits.shutdown_timeout).unwrap_or(Duration::MAX),
        max_connections,
        max_connections_per_address: limits.max_connections_per_address,
        trust_proxy: config.trust_proxy,
        shared_networks: limits.shared(),
    }
}

/// Raises the soft limit on open files to the hard one (every connection is a file); returns
/// the limit now in force, if it could be read.
fn raise_file_limit() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => {
            tracing::debug!(limit, "open files limit");
            Some(limit)
        }
        Err(err) => {
            tracing::warn!(error = %err, "could not raise the open files limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE).ok().map(|(soft, _)| soft)
        }
    }
}

async fn purge_expired_periodically(state: AppState) {
    let mut ticks = tokio::time::interval(MAINTENANCE_INTERVAL);
    loop {
        ticks.tick().await;
        if let Err(err) = state.sessions.purge().await {
            tracing::warn!(error = describe(&err).join(": "), "could not purge expired sessions");
        }
        if let Err(err) = state.throttle.purge().await {
            tracing::warn!(
                error = describe(&err).join(": "),
                "could not purge old login throttle windows"
            );
        }
        if let Err(err) = state.store.forget_expired(time::now_ms()).await {
            tracing::warn!(
                error = describe(&err).join(": "),
                "could not purge expired links and logs"
            );
        }
        let (left_before, written_before) = state.config.retention.cutoffs(time::now_ms());
        match state.store.forget_retained(left_before, written_before).await {
            Ok(forgotten) if forgotten != Forgotten::default() => tracing::info!(
                items = forgotten.items,
                claims = forgotten.claims,
                claim_messages = forgotten.claim_messages,
                messages = forgotten.messages,
                "removed personal details past their retention"
            ),
            Ok(_) => {}
            Err(err) => tracing::warn!(
                error = describe(&err).join(": "),
                "could not remove personal details past their retention"
            ),
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
