//! Redis, shared by several nodes: Socket.IO broadcasts cross nodes through it
//! (socketioxide-redis, fred), and `/readyz` asks whether it answers.
//!
//! Redis may restart under a running node. The client reconnects by itself and re-subscribes
//! (`resubscribe_on_reconnect`); while it is away, [`FailFastDriver`] refuses to publish at once
//! instead of queueing, so a broadcast fails quickly and the handlers deliver on this node
//! alone (see `realtime::events::deliver`): local real-time keeps working, cross-node resumes after.

use std::time::Duration;

use anyhow::Context;
use fred::{
    clients::SubscriberClient,
    error::{Error as FredClientError, ErrorKind},
    interfaces::{ClientLike, EventInterface, PubsubInterface},
    prelude::{Builder, Config, ReconnectPolicy},
    types::RespVersion,
};
use socketioxide::adapter::Emitter;
use socketioxide_redis::{
    CustomRedisAdapter, RedisAdapterConfig, RedisAdapterCtr,
    drivers::{
        ChanItem, Driver, MessageStream,
        fred::{FredDriver, FredError},
    },
};

/// The adapter every node uses when `REDIS_URL` is set.
pub type RedisAdapter = CustomRedisAdapter<Emitter, FailFastDriver>;

/// A command to Redis gives up after this long (a backstop; disconnection fails at once).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(2);

/// A handle to check that Redis is reachable, for `/readyz`.
#[derive(Clone)]
pub struct RedisHealth(SubscriberClient);

impl RedisHealth {
    pub async fn ping(&self) -> bool {
        self.0.is_connected() && self.0.ping::<String>(None).await.is_ok()
    }
}

/// Connects to Redis and returns the adapter's constructor and a health handle.
pub async fn connect(url: &str) -> anyhow::Result<(RedisAdapterCtr<FailFastDriver>, RedisHealth)> {
    let mut config = Config::from_url(url).context("invalid REDIS_URL")?;
    let servers: Vec<String> = config
        .server
        .hosts()
        .iter()
        .map(|s| format!("{}:{}", s.host, s.port))
        .collect();
    // Never the URL itself: it may carry a password.
    let shown = format!("Redis at {}", servers.join(", "));
    // The client reports a refused connection as `Os { code: 111, .. }`; a plain connection
    // first gets the operating system's own words.
    if let [first, ..] = servers.as_slice() {
        tokio::net::TcpStream::connect(first)
            .await
            .with_context(|| format!("cannot connect to {shown}"))?;
    }
    // Publishing and pinging on the subscribed connection needs RESP3 (Redis 6+).
    config.version = RespVersion::RESP3;
    let client = Builder::from_config(config)
        // Retry for ever: 100 ms, doubling up to 2 s between attempts.
        .set_policy(ReconnectPolicy::new_exponential(0, 100, 2_000, 2))
        .with_performance_config(|perf| perf.default_command_timeout = COMMAND_TIMEOUT)
        .build_subscriber_client()
        .context("cannot configure the Redis client")?;
    tokio::spawn(resubscribe_on_reconnect(client.clone()));
    let inner = FredDriver::new(client.clone())
        .await
        .with_context(|| format!("cannot connect to {shown}"))?;
    let driver = FailFastDriver {
        inner,
        client: client.clone(),
    };
    let ctr = RedisAdapterCtr::new_with_driver(driver, RedisAdapterConfig::default().with_prefix("lostfound"));
    Ok((ctr, RedisHealth(client)))
}

/// Re-joins the adapter's sharded channels whenever the connection comes back. (fred's own
/// `manage_subscriptions` first sends a `SUBSCRIBE` with no channels, which Redis refuses, and
/// then gives up before the sharded ones.)
async fn resubscribe_on_reconnect(client: SubscriberClient) {
    let mut reconnects = client.reconnect_rx();
    while reconnects.recv().await.is_ok() {
        for channel in client.tracked_shard_channels() {
            if let Err(err) = client.ssubscribe(channel).await {
                tracing::warn!(error = %err, "could not re-subscribe to a Redis channel");
            }
        }
        tracing::info!("connected to Redis");
    }
}

/// The fred driver, refusing to publish while the connection is down.
#[derive(Clone)]
pub struct FailFastDriver {
    inner: FredDriver,
    client: SubscriberClient,
}

impl Driver for FailFastDriver {
    type Error = FredError;

    async fn publish(&self, chan: String, val: Vec<u8>) -> Result<(), FredError> {
        if !self.client.is_connected() {
            return Err(FredClientError::new(ErrorKind::IO, "Redis is unreachable").into());
        }
        self.inner.publish(chan, val).await
    }

    async fn subscribe(&self, chan: String, size: usize) -> Result<MessageStream<ChanItem>, FredError> {
        self.inner.subscribe(chan, size).await
    }

    async fn unsubscribe(&self, chan: String) -> Result<(), FredError> {
        self.inner.unsubscribe(chan).await
    }

    async fn num_serv(&self, chan: &str) -> Result<u16, FredError> {
        self.inner.num_serv(chan).await
    }
}
