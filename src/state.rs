//! What every HTTP handler and every real-time event handler can reach, built once.

use std::{ops::Deref, sync::Arc};

use tokio::sync::Semaphore;

use crate::{
    auth::{LoginThrottle, Passwords, Sessions, SingleSignOn},
    cache::AnswerCache,
    config::Config,
    cpu::CpuWork,
    domain::{Due, HoldPolicy},
    events::Events,
    meaning::Meanings,
    origins::AllowedOrigins,
    redis::RedisHealth,
    store::Store,
};

/// Bytes of item answers kept ready at most.
const ANSWER_CACHE_BYTES: usize = 32 << 20;
/// Parts of list answers produced at once, across all lists.
const LIST_PRODUCERS: usize = 4;

/// Cloned for every request and event (extractors take it by value): one shared pointer, so
/// a clone is one reference count, not one per part.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    pub store: Store,
    /// What this process commits, for live delivery and the mail sender.
    pub events: Events,
    pub sessions: Sessions,
    pub passwords: Passwords,
    pub throttle: LoginThrottle,
    pub origins: AllowedOrigins,
    pub cpu: CpuWork,
    /// Item answers kept ready while no item changes.
    pub answers: Arc<AnswerCache>,
    /// How many parts of list answers are produced at once (fetched, photos read, encoded).
    pub list_production: Arc<Semaphore>,
    /// Set when the node shares real-time traffic through Redis.
    pub redis: Option<RedisHealth>,
    /// Set when single sign-on is configured.
    pub sso: Option<SingleSignOn>,
    /// The sentence encoder and this node's index of meanings.
    pub meanings: Meanings,
    /// How long found items are kept (`LOSTFOUND_HOLD_DAYS…`, and the sites' own periods
    /// stored with them), read from the configuration once.
    pub hold: Arc<HoldPolicy>,
    pub config: Arc<Config>,
    /// The key devices subscribe to push messages with, base64url; `None` while push is off.
    pub push_key: Option<String>,
}

impl AppState {
    pub async fn new(
        config: Config,
        store: Store,
        redis: Option<RedisHealth>,
        push_key: Option<String>,
    ) -> anyhow::Result<Self> {
        let meanings = Meanings::load(config.model.as_deref()).await?;
        let store = store.with_meaning_model(meanings.model());
        Ok(Self(Arc::new(Shared {
            meanings,
            sessions: Sessions::new(
                store.clone(),
                config.secure_cookies(),
                config.accounts.session_idle_ms(),
            ),
            throttle: LoginThrottle::new(store.clone(), config.secure_cookies(), config.limits.shared()),
            origins: AllowedOrigins::from_config(&config),
            cpu: CpuWork::new(),
            answers: Arc::new(AnswerCache::new(ANSWER_CACHE_BYTES)),
            list_production: Arc::new(Semaphore::new(LIST_PRODUCERS)),
            passwords: Passwords::new().await?,
            sso: SingleSignOn::from_config(&config.accounts, config.public_url.as_deref())?,
            redis,
            store,
            hold: Arc::new(config.custody.hold()),
            events: Events::default(),
            config: Arc::new(config),
            push_key,
        })))
    }
}

impl AppState {
    /// What is due for disposal now, by the holding periods configured.
    pub fn due_now(&self) -> Due {
        Due {
            at: crate::time::now_ms(),
            hold: HoldPolicy::clone(&self.hold),
        }
    }
}

impl Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}
