//! Single sign-on with OpenID Connect (`openidconnect`): the authorization code flow with
//! PKCE, a `state` bound to the browser that started it, and a `nonce`. The ID token is
//! checked by the crate against the provider's JWKS (signature), issuer, audience, nonce
//! and expiry; what is known of the provider, and when it is fetched again, is [`provider`]'s.

mod provider;

use anyhow::Context;
use openidconnect::{
    AuthorizationCode, ClaimsVerificationError, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, Scope, SignatureVerificationError, TokenResponse, core::CoreAuthenticationFlow,
};
use serde::Deserialize;

use self::provider::Provider;
use super::token::token_hash;
use crate::{
    config::AccountsConfig,
    domain::{SsoClaims, SsoIdentity},
    store::{SsoOutcome, Store},
    time::now_ms,
};

/// Sign-on with one provider.
pub struct SingleSignOn {
    provider: Provider,
    admin_group: Option<String>,
    /// No redirects: a token endpoint that redirects could lead the code elsewhere.
    http: openidconnect::reqwest::Client,
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
        // Where the provider sends people back.
        let callback = RedirectUrl::new(format!("{}/api/oidc/callback", site.trim_end_matches('/')))?;
        let provider = Provider::new(
            IssuerUrl::new(issuer.clone()).context("LOSTFOUND_OIDC_ISSUER is not a URL")?,
            ClientId::new(client_id.clone()),
            ClientSecret::new(client_secret.clone()),
            callback,
            http.clone(),
        );
        Ok(Some(Self {
            provider,
            admin_group: config.oidc_admin_group.clone(),
            http,
        }))
    }

    /// Starts a sign-on: where to send the browser, and the state it must come back with
    /// (kept in a cookie of its own, so that only this browser can finish it).
    pub async fn start(&self, store: &Store) -> Result<(String, String), SsoError> {
        let provider = self.provider.current().await?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = provider
            .client
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
        let provider = self.provider.current().await?;
        let tokens = provider
            .client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .map_err(|err| SsoError::Unreachable(err.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(verifier))
            .request_async(&self.http)
            .await
            .map_err(|err| SsoError::Provider(crate::causes::describe(&err).join(": ")))?;
        let id_token = tokens
            .id_token()
            .ok_or_else(|| SsoError::BadToken("the provider sent no ID token".into()))?;
        let nonce = Nonce::new(nonce);
        let claims = match id_token.claims(&provider.client.id_token_verifier(), &nonce) {
            // Signed with a key the provider did not publish when it was discovered: it may
            // have rotated its keys since.
            Err(err) if signed_with_unknown_key(&err) => match self.provider.newer_keys(&provider).await? {
                Some(newer) => id_token.claims(&newer.client.id_token_verifier(), &nonce),
                None => Err(err),
            },
            verified => verified,
        }
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

/// Whether an ID token was refused for its key: one the keys lack, or one its signature does
/// not verify with.
fn signed_with_unknown_key(err: &ClaimsVerificationError) -> bool {
    matches!(
        err,
        ClaimsVerificationError::SignatureVerification(
            SignatureVerificationError::NoMatchingKey | SignatureVerificationError::CryptoError(_)
        )
    )
}

/// The `groups` claim of an ID token (compact JWS) whose signature and claims were checked.
fn groups_of(id_token: &str) -> Option<Vec<String>> {
    use base64::Engine;
    let payload = id_token.split('.').nth(1)?;
    let json = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).ok()?;
    serde_json::from_slice::<GroupsClaim>(&json).ok()?.groups
}
