//! What single sign-on knows of its provider: the metadata and keys it discovered, as a client.
//! They are discovered at the first sign-on that needs them (a provider that is down does not
//! keep the service from starting), and again at the first sign-on once they are an hour old.
//! The keys alone are fetched again when an ID token does not verify with them (the provider
//! rotated its keys), at most once a minute: forged tokens cannot make the service hammer the
//! provider.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use openidconnect::{
    ClientId, ClientSecret, EndpointMaybeSet, EndpointNotSet, EndpointSet, IssuerUrl, JsonWebKeySet, RedirectUrl,
    core::{CoreClient, CoreProviderMetadata},
};

use super::SsoError;

/// Metadata this old is discovered again at the next sign-on.
const METADATA_MAX_AGE: Duration = Duration::from_secs(60 * 60);
/// The least time between two fetches of the keys for ID tokens that did not verify.
const KEYS_MIN_INTERVAL: Duration = Duration::from_secs(60);

/// The client of a discovered provider.
pub type Client =
    CoreClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointMaybeSet, EndpointMaybeSet>;

/// The provider as fetched at one time. A sign-on uses the one it got throughout; a newer one
/// replaces it for the sign-ons after.
pub struct Discovered {
    pub client: Client,
    metadata: CoreProviderMetadata,
    at: Instant,
}

/// The provider of one issuer, for one client of it.
pub struct Provider {
    issuer: IssuerUrl,
    client_id: ClientId,
    client_secret: ClientSecret,
    callback: RedirectUrl,
    http: openidconnect::reqwest::Client,
    latest: Mutex<Option<Arc<Discovered>>>,
    /// Held while fetching from the provider, so that sign-ons that need the same fetch wait
    /// for one and use what it got. It keeps when the keys were last fetched for a token.
    fetching: tokio::sync::Mutex<Option<Instant>>,
}

impl Provider {
    pub fn new(
        issuer: IssuerUrl,
        client_id: ClientId,
        client_secret: ClientSecret,
        callback: RedirectUrl,
        http: openidconnect::reqwest::Client,
    ) -> Self {
        Self {
            issuer,
            client_id,
            client_secret,
            callback,
            http,
            latest: Mutex::new(None),
            fetching: tokio::sync::Mutex::new(None),
        }
    }

    /// The provider, discovered now if it never was or its metadata is an hour old.
    pub async fn current(&self) -> Result<Arc<Discovered>, SsoError> {
        let fresh = |discovered: &Arc<Discovered>| discovered.at.elapsed() < METADATA_MAX_AGE;
        if let Some(discovered) = self.latest().filter(fresh) {
            return Ok(discovered);
        }
        let _fetching = self.fetching.lock().await;
        // Another sign-on may have discovered it while this one waited.
        if let Some(discovered) = self.latest().filter(fresh) {
            return Ok(discovered);
        }
        let metadata = CoreProviderMetadata::discover_async(self.issuer.clone(), &self.http)
            .await
            .map_err(|err| unreachable(&err))?;
        Ok(self.keep(metadata, Instant::now()))
    }

    /// Keys newer than those of `used`, with which an ID token did not verify: those another
    /// sign-on got meanwhile, or fetched now unless keys were fetched for a token less than a
    /// minute ago (then `None`).
    pub async fn newer_keys(&self, used: &Arc<Discovered>) -> Result<Option<Arc<Discovered>>, SsoError> {
        let mut last_fetched = self.fetching.lock().await;
        if let Some(latest) = self.latest().filter(|latest| !Arc::ptr_eq(latest, used)) {
            return Ok(Some(latest));
        }
        if last_fetched.is_some_and(|at| at.elapsed() < KEYS_MIN_INTERVAL) {
            return Ok(None);
        }
        // Counted when tried: a provider that fails is not asked again within the minute either.
        *last_fetched = Some(Instant::now());
        let keys = JsonWebKeySet::fetch_async(used.metadata.jwks_uri(), &self.http)
            .await
            .map_err(|err| unreachable(&err))?;
        Ok(Some(self.keep(used.metadata.clone().set_jwks(keys), used.at)))
    }

    fn latest(&self) -> Option<Arc<Discovered>> {
        self.latest.lock().expect("never poisoned").clone()
    }

    /// Makes `metadata`, discovered `at`, the provider for the sign-ons from now on.
    fn keep(&self, metadata: CoreProviderMetadata, at: Instant) -> Arc<Discovered> {
        let client = CoreClient::from_provider_metadata(
            metadata.clone(),
            self.client_id.clone(),
            Some(self.client_secret.clone()),
        )
        .set_redirect_uri(self.callback.clone());
        let discovered = Arc::new(Discovered { client, metadata, at });
        *self.latest.lock().expect("never poisoned") = Some(Arc::clone(&discovered));
        discovered
    }
}

/// A fetch from the provider that failed, with its causes.
fn unreachable(err: &(dyn std::error::Error + 'static)) -> SsoError {
    SsoError::Unreachable(crate::causes::describe(err).join(": "))
}
