//! Single sign-on with OpenID Connect (`openidconnect`): the authorization code flow with
//! PKCE, a `state` bound to the browser that started it, and a `nonce`. The ID token is
//! checked by the crate against the provider's JWKS (signature), issuer, audience, nonce
//! and expiry; the provider is discovered at the first login that needs it (and again after
//! a failure), so a provider that is down does not keep the service from starting.

use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointMaybeSet, EndpointNotSet, EndpointSet, IssuerUrl,
    Nonce, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, TokenResponse,
    core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata},
};
use serde::Deserialize;
use tokio::sync::OnceCell;

use super::token::token_hash;
use crate::{
    config::AccountsConfig,
    domain::{SsoClaims, SsoIdentity},
    store::{SsoOutcome, Store},
    time::now_ms,
};

/// The client, once the provider is discovered.
type Client =
    CoreClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointMaybeSet, EndpointMaybeSet>;

/// Sign-on with one provider.
pub struct SingleSignOn {
    issuer: String,
    client_id: String,
    client_secret: String,
    /// Where the provider sends people back: `PUBLIC_URL/api/oidc/callback`.
    callback: String,
    admin_group: Option<String>,
    /// No redirects: a token endpoint that redirects could lead the code elsewhere.
    http: openidconnect::reqwest::Client,
    client: OnceCell<Client>,
}

/// Why a sign-on did not end in a session: said in the log, never to the browser.
#[derive(Debug, thiserror::Error)]
pub enum SsoError {
    #[error("the sign-on came back with an unknown, used or expired state, or from another browser")]
    BadState,
    #[error("the provider answered with an error: {0}")]
    Provider(String),
    #[error("the provider cannot be used: {0}")]
    Unreachable(String),
    #[error("the ID token was refused: {0}")]
    BadToken(String),
    #[error("the account linked to this identity is disabled")]
    Disabled,
    #[error("no free id for a new account")]
    NoFreeId,
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
}

/// The one claim besides the standard ones that matters here.
#[derive(Deserialize)]
struct GroupsClaim {
    groups: Option<Vec<String>>,
}

impl SingleSignOn {
    /// Sign-on as configured, or `None` when it is not.
    pub fn from_config(config: &AccountsConfig, public_url: Option<&str>) -> anyhow::Result<Option<Self>> {
        let (Some(issuer), Some(client_id), Some(client_secret), Some(site)) = (
            &config.oidc_issuer,
            &config.oidc_client_id,
            &config.oidc_client_secret,
            public_url,
        ) else {
            return Ok(None);
        };
        let http = openidconnect::reqwest::ClientBuilder::new()
            .redirect(openidconnect::reqwest::redirect::Policy::none())
            .timeout(std::time::Duration::from_secs(10))
            .build()?;
        Ok(Some(Self {
            issuer: issuer.clone(),
            client_id: client_id.clone(),
            client_secret: client_secret.clone(),
            callback: format!("{}/api/oidc/callback", site.trim_end_matches('/')),
            admin_group: config.oidc_admin_group.clone(),
            http,
            client: OnceCell::new(),
        }))
    }

    /// The client, discovering the provider first if need be.
    async fn client(&self) -> Result<&Client, SsoError> {
        self.client
            .get_or_try_init(|| async {
                let issuer =
                    IssuerUrl::new(self.issuer.clone()).map_err(|err| SsoError::Unreachable(err.to_string()))?;
                let metadata = CoreProviderMetadata::discover_async(issuer, &self.http)
                    .await
                    .map_err(|err| SsoError::Unreachable(crate::causes::describe(&err).join(": ")))?;
                let callback =
                    RedirectUrl::new(self.callback.clone()).map_err(|err| SsoError::Unreachable(err.to_string()))?;
                Ok(CoreClient::from_provider_metadata(
                    metadata,
                    ClientId::new(self.client_id.clone()),
                    Some(ClientSecret::new(self.client_secret.clone())),
                )
                .set_redirect_uri(callback))
            })
            .await
    }

    /// Starts a sign-on: where to send the browser, and the state it must come back with
    /// (kept in a cookie of its own, so that only this browser can finish it).
    pub async fn start(&self, store: &Store) -> Result<(String, String), SsoError> {
        let client = self.client().await?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .add_scope(Scope::new("profile".into()))
            .add_scope(Scope::new("email".into()))
            .add_scope(Scope::new("groups".into()))
            .set_pkce_challenge(challenge)
            .url();
        store
            .insert_sso_login(&token_hash(state.secret()), verifier.secret(), nonce.secret(), now_ms())
            .await?;
        Ok((url.to_string(), state.secret().clone()))
    }

    /// Finishes a sign-on the provider sent back with `code` and `state`, from a browser
    /// whose cookie holds `cookie_state`: the account, found by the provider's subject or made.
    pub async fn finish(
        &self,
        store: &Store,
        code: &str,
        state: &str,
        cookie_state: Option<&str>,
    ) -> Result<crate::domain::User, SsoError> {
        if cookie_state != Some(state) {
            return Err(SsoError::BadState);
        }
        let (verifier, nonce) = store
            .take_sso_login(&token_hash(state), now_ms())
            .await?
            .ok_or(SsoError::BadState)?;
        let client = self.client().await?;
        let tokens = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .map_err(|err| SsoError::Unreachable(err.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(verifier))
            .request_async(&self.http)
            .await
            .map_err(|err| SsoError::Provider(crate::causes::describe(&err).join(": ")))?;
        let id_token = tokens
            .id_token()
            .ok_or_else(|| SsoError::BadToken("the provider sent no ID token".into()))?;
        let claims = id_token
            .claims(&client.id_token_verifier(), &Nonce::new(nonce))
            .map_err(|err| SsoError::BadToken(err.to_string()))?;
        let groups = groups_of(&id_token.to_string());
        let identity = SsoIdentity::new(
            &SsoClaims {
                issuer: claims.issuer().as_str(),
                subject: claims.subject().as_str(),
                preferred_username: claims.preferred_username().map(|name| name.as_str()),
                name: claims.name().and_then(|name| name.get(None)).map(|name| name.as_str()),
                email: claims.email().map(|email| email.as_str()),
                email_verified: claims.email_verified().unwrap_or(false),
                groups: groups.as_deref(),
            },
            self.admin_group.as_deref(),
        );
        match store.sso_sign_in(&identity, now_ms()).await? {
            SsoOutcome::SignedIn(user) => Ok(user),
            SsoOutcome::Disabled => Err(SsoError::Disabled),
            SsoOutcome::NoFreeId => Err(SsoError::NoFreeId),
        }
    }
}

/// The `groups` claim of an ID token (compact JWS) whose signature and claims were checked.
fn groups_of(id_token: &str) -> Option<Vec<String>> {
    use base64::Engine;
    let payload = id_token.split('.').nth(1)?;
    let json = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).ok()?;
    serde_json::from_slice::<GroupsClaim>(&json).ok()?.groups
}
