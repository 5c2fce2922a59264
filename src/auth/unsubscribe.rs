//! One-click unsubscribe (RFC 8058): each notification email carries a link that stops that
//! kind of notice for its reader, signed with the service's mail key (HMAC-SHA256), so that
//! it works without a session and names nobody else.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use sha2::Sha256;

fn mac(key: &[u8], user: &str, kind: &str) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(format!("unsubscribe\n{user}\n{kind}").as_bytes());
    mac
}

/// The signature of "stop emailing `user` about `kind`".
pub fn token(key: &[u8], user: &str, kind: &str) -> String {
    URL_SAFE_NO_PAD.encode(mac(key, user, kind).finalize().into_bytes())
}

/// Whether `token` signs "stop emailing `user` about `kind`" (compared in constant time).
pub fn valid(key: &[u8], user: &str, kind: &str, token: &str) -> bool {
    URL_SAFE_NO_PAD
        .decode(token)
        .is_ok_and(|bytes| mac(key, user, kind).verify_slice(&bytes).is_ok())
}

/// The link that stops notices of `kind` to `user`, under the service's public address.
pub fn link(site: &str, key: &[u8], user: &str, kind: &str) -> String {
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("u", user)
        .append_pair("k", kind)
        .append_pair("t", &token(key, user, kind))
        .finish();
    format!("{site}/api/unsubscribe?{query}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_signs_one_user_and_one_kind_under_one_key() {
        let key = b"0123456789abcdef0123456789abcdef";
        let signed = token(key, "ann", "match");
        assert!(valid(key, "ann", "match", &signed));
        assert!(!valid(key, "bob", "match", &signed));
        assert!(!valid(key, "ann", "review", &signed));
        assert!(!valid(b"another key", "ann", "match", &signed));
        assert!(!valid(key, "ann", "match", "not base64!"));
        let url = link("https://lost.example.edu", key, "ann@x", "match");
        assert!(
            url.starts_with("https://lost.example.edu/api/unsubscribe?u=ann%40x&k=match&t="),
            "{url}"
        );
    }
}
