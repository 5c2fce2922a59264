//! A device's push subscription (Web Push, RFC 8030): the endpoint its browser's push service
//! gave and the keys messages to it are encrypted to (RFC 8291), as the browser's
//! `PushSubscription.toJSON()` writes them.

use base64::{
    Engine,
    engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD},
};
use serde_json::{Map, Value};

use super::ValidationError;

/// Push services' endpoints are a few hundred characters long.
const MAX_ENDPOINT: usize = 1000;
const BAD_ENDPOINT: &str = "Invalid push endpoint";
const BAD_KEYS: &str = "Invalid push keys";

/// A checked subscription: an `https` endpoint (or, where the operator allows, any `http`
/// one: a test's receiver, a private push server), a P-256 public key and a 16-byte secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSubscription {
    endpoint: String,
    p256dh: String,
    auth: String,
}

impl PushSubscription {
    /// Checks a subscription as the browser writes it: `{ endpoint, keys: { p256dh, auth } }`
    /// (other keys, such as `expirationTime`, ignored).
    pub fn from_body(body: &Map<String, Value>, any_endpoint: bool) -> Result<Self, ValidationError> {
        let endpoint = body.get("endpoint").and_then(Value::as_str).unwrap_or_default();
        let keys = body.get("keys").and_then(Value::as_object);
        let key = |name| {
            keys.and_then(|keys| keys.get(name))
                .and_then(Value::as_str)
                .unwrap_or_default()
        };
        Self::parse(endpoint, key("p256dh"), key("auth"), any_endpoint)
    }

    /// The endpoint a body names (`{ endpoint }`), to stop sending to it.
    pub fn endpoint_in(body: &Map<String, Value>) -> Result<&str, ValidationError> {
        body.get("endpoint")
            .and_then(Value::as_str)
            .filter(|endpoint| !endpoint.is_empty() && endpoint.len() <= MAX_ENDPOINT)
            .ok_or_else(|| ValidationError::new("endpoint", BAD_ENDPOINT))
    }

    /// Checks the three parts; `any_endpoint` lets the endpoint be plain `http` and name any
    /// host (else `https`, and not an address literal or `localhost`: the service sends to
    /// it, and must not be pointed at its own network).
    pub fn parse(endpoint: &str, p256dh: &str, auth: &str, any_endpoint: bool) -> Result<Self, ValidationError> {
        let endpoint =
            check_endpoint(endpoint, any_endpoint).ok_or_else(|| ValidationError::new("endpoint", BAD_ENDPOINT))?;
        let public = decode(p256dh)
            .filter(|key| p256::PublicKey::from_sec1_bytes(key).is_ok() && key.len() == 65)
            .ok_or_else(|| ValidationError::new("keys", BAD_KEYS))?;
        let secret = decode(auth)
            .filter(|secret| secret.len() == 16)
            .ok_or_else(|| ValidationError::new("keys", BAD_KEYS))?;
        Ok(Self {
            endpoint,
            p256dh: URL_SAFE_NO_PAD.encode(public),
            auth: URL_SAFE_NO_PAD.encode(secret),
        })
    }

    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The device's public key, uncompressed, base64url.
    pub fn p256dh(&self) -> &str {
        &self.p256dh
    }

    /// The device's authentication secret, base64url.
    pub fn auth(&self) -> &str {
        &self.auth
    }

    /// The device's public key.
    pub fn public_key(&self) -> p256::PublicKey {
        let bytes = URL_SAFE_NO_PAD.decode(&self.p256dh).unwrap_or_default();
        p256::PublicKey::from_sec1_bytes(&bytes).expect("checked by parse")
    }

    /// The device's authentication secret.
    pub fn auth_secret(&self) -> [u8; 16] {
        let bytes = URL_SAFE_NO_PAD.decode(&self.auth).unwrap_or_default();
        bytes.try_into().expect("checked by parse")
    }
}

/// Base64url with or without padding (browsers write it without).
fn decode(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text).or_else(|_| URL_SAFE.decode(text)).ok()
}

/// `endpoint` when it is an absolute URL the service may send to.
fn check_endpoint(endpoint: &str, any_endpoint: bool) -> Option<String> {
    // Kept as the browser wrote it (the app names it so to remove it): nothing to tidy.
    if endpoint.len() > MAX_ENDPOINT || endpoint.trim() != endpoint || endpoint.chars().any(char::is_control) {
        return None;
    }
    let url = url::Url::parse(endpoint).ok()?;
    let host = url.host()?;
    let allowed = match url.scheme() {
        "https" => any_endpoint || matches!(host, url::Host::Domain(name) if !is_local(name)),
        "http" => any_endpoint,
        _ => false,
    };
    (allowed && url.username().is_empty() && url.password().is_none()).then(|| endpoint.to_owned())
}

/// A name that stands for this machine.
fn is_local(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device key from RFC 8291's example (section 5).
    const KEY: &str = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";

    #[test]
    fn a_browsers_subscription_is_taken_as_written() {
        let sub = PushSubscription::parse(
            "https://push.example.net/p/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
            KEY,
            AUTH,
            false,
        )
        .unwrap();
        assert_eq!(
            sub.endpoint(),
            "https://push.example.net/p/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV"
        );
        assert_eq!(sub.p256dh(), KEY);
        assert_eq!(sub.auth_secret().len(), 16);
    }

    #[test]
    fn endpoints_on_this_network_need_the_operators_leave() {
        for endpoint in [
            "http://push.example.net/x",
            "https://127.0.0.1/x",
            "https://[::1]/x",
            "https://localhost:8080/x",
            "https://a.localhost/x",
            "https://user:pw@push.example.net/x",
            "file:///etc/passwd",
            "push.example.net/x",
            " https://push.example.net/x",
            "https://push.example.net/x\n",
        ] {
            let err = PushSubscription::parse(endpoint, KEY, AUTH, false).unwrap_err();
            assert_eq!(err.field, Some("endpoint"), "{endpoint}");
        }
        assert!(PushSubscription::parse("http://127.0.0.1:9000/x", KEY, AUTH, true).is_ok());
        assert!(PushSubscription::parse(&format!("https://p.example/{}", "x".repeat(1000)), KEY, AUTH, true).is_err());
    }

    #[test]
    fn keys_must_be_a_point_and_sixteen_bytes() {
        let not_on_curve = URL_SAFE_NO_PAD.encode([4u8; 65]);
        for (key, auth) in [(not_on_curve.as_str(), AUTH), (KEY, "AAAA"), ("", AUTH), (KEY, "")] {
            let err = PushSubscription::parse("https://p.example/x", key, auth, false).unwrap_err();
            assert_eq!(err.field, Some("keys"));
        }
    }
}
