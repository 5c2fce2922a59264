//! The service's VAPID identity (RFC 8292): a P-256 key made at the first start and kept in
//! the database (every node signs with the same one, which is the one devices subscribed
//! with), and the `Authorization` header it signs for each push.
//!
//! Written here rather than taken from `web-push-native`'s `vapid` feature: that one names
//! the push service without its port in the token's audience (RFC 8292 wants the origin), and
//! brings a JWT library with RSA and three more curves for one ES256 signature.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use p256::ecdsa::{Signature, SigningKey, signature::Signer};
use serde_json::json;

use crate::store::Store;

/// How long a signature is good for (at most 24 hours, says RFC 8292).
const VALID_MS: i64 = 12 * 3600 * 1000;

pub struct Vapid {
    key: SigningKey,
    /// The public key, uncompressed, base64url.
    public: String,
    /// `mailto:` or `https:` for the push services to reach the operator.
    contact: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SignError {
    #[error("the endpoint has no origin to sign for")]
    NoOrigin,
}

impl Vapid {
    /// The service's key, made the first time it is asked for.
    pub async fn kept(store: &Store, contact: Option<String>) -> anyhow::Result<Self> {
        let bytes = store
            .service_key("push", |bytes| SigningKey::from_slice(bytes).is_ok())
            .await?;
        let key = SigningKey::from_slice(&bytes)?;
        let public = URL_SAFE_NO_PAD.encode(key.verifying_key().to_encoded_point(false).as_bytes());
        Ok(Self { key, public, contact })
    }

    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// `vapid t=…, k=…` for a push to `endpoint` at `now` (epoch ms): an ES256 token for the
    /// endpoint's origin, good for twelve hours, and the public key to check it with.
    pub fn authorization(&self, endpoint: &str, now: i64) -> Result<String, SignError> {
        let origin = url::Url::parse(endpoint).map_err(|_| SignError::NoOrigin)?.origin();
        if !origin.is_tuple() {
            return Err(SignError::NoOrigin);
        }
        let mut claims = json!({ "aud": origin.ascii_serialization(), "exp": (now + VALID_MS) / 1000 });
        if let Some(contact) = &self.contact {
            claims["sub"] = contact.as_str().into();
        }
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let signed = format!("{header}.{}", URL_SAFE_NO_PAD.encode(claims.to_string()));
        let signature: Signature = self.key.sign(signed.as_bytes());
        let signature = URL_SAFE_NO_PAD.encode(signature.to_bytes());
        Ok(format!("vapid t={signed}.{signature}, k={}", self.public))
    }
}

#[cfg(test)]
mod tests {
    use p256::ecdsa::{VerifyingKey, signature::Verifier};

    use super::*;

    #[test]
    fn the_token_is_for_the_endpoints_origin_and_checks_with_the_key_it_names() {
        let vapid = Vapid {
            key: SigningKey::from_slice(&[7; 32]).unwrap(),
            public: String::new(),
            contact: Some("mailto:lost@example.edu".into()),
        };
        let public = URL_SAFE_NO_PAD.encode(vapid.key.verifying_key().to_encoded_point(false).as_bytes());
        let vapid = Vapid { public, ..vapid };
        let header = vapid.authorization("http://127.0.0.1:4567/push/1", 1_000_000).unwrap();
        let (token, key) = header.strip_prefix("vapid t=").unwrap().split_once(", k=").unwrap();
        let (signed, signature) = token.rsplit_once('.').unwrap();
        let key = VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(key).unwrap()).unwrap();
        let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
        key.verify(signed.as_bytes(), &signature).unwrap();
        let claims = URL_SAFE_NO_PAD.decode(signed.split_once('.').unwrap().1).unwrap();
        let claims: serde_json::Value = serde_json::from_slice(&claims).unwrap();
        assert_eq!(claims["aud"], "http://127.0.0.1:4567");
        assert_eq!(claims["exp"], 1_000 + 12 * 3600);
        assert_eq!(claims["sub"], "mailto:lost@example.edu");
        assert!(vapid.authorization("data:text/plain,x", 0).is_err());
    }
}
