//! Session ids: 256 random bits for the cookie, of which only a SHA-256 is stored.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A fresh session id; its value goes to the client only, never to logs.
pub struct SessionToken(String);

impl SessionToken {
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Self(URL_SAFE_NO_PAD.encode(bytes))
    }

    pub fn value(&self) -> &str {
        &self.0
    }

    pub fn hash(&self) -> String {
        token_hash(&self.0)
    }
}

/// What the database stores (and looks sessions up by) for a session id or throttle key.
pub fn token_hash(value: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(value.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashed() {
        let (a, b) = (SessionToken::generate(), SessionToken::generate());
        assert_ne!(a.value(), b.value());
        assert_eq!(a.value().len(), 43);
        assert_ne!(a.hash(), a.value());
        assert_eq!(a.hash(), token_hash(a.value()));
    }
}
