//! Cookie tokens (session ids, device tokens): 256 random bits, of which only a SHA-256 is stored.

use axum::http::{HeaderMap, header};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use cookie::Cookie;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A fresh token; its value goes to the client (in a cookie or a mailed link) only, never to
/// logs or the database.
pub struct Token(String);

impl Token {
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

/// What the database stores (and looks sessions up by) for a session id, a link's token or a
/// throttle key.
pub(super) fn token_hash(value: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(value.as_bytes()))
}

/// The value of the cookie `name`, if the request carries it.
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| c.value().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashed() {
        let (a, b) = (Token::generate(), Token::generate());
        assert_ne!(a.value(), b.value());
        assert_eq!(a.value().len(), 43);
        assert_ne!(a.hash(), a.value());
        assert_eq!(a.hash(), token_hash(a.value()));
    }

    #[test]
    fn a_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.append(header::COOKIE, "theme=dark; sid=abc".parse().unwrap());
        assert_eq!(cookie_value(&headers, "sid").as_deref(), Some("abc"));
        assert_eq!(cookie_value(&headers, "si"), None);
    }
}
