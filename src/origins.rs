//! Which web pages may use a visitor's session: the service's own origin and the ones
//! configured in `LOSTFOUND_ALLOWED_ORIGINS`. Checked by HTTP CORS and by the Socket.IO
//! handshake (CORS does not cover WebSocket).

use axum::http::{HeaderMap, header};

use crate::config::Config;

#[derive(Debug, Clone, Default)]
pub struct AllowedOrigins {
    /// Normalised `scheme://host[:port]`, lower case.
    listed: Vec<String>,
}

impl AllowedOrigins {
    pub fn from_config(config: &Config) -> Self {
        let listed = config
            .public_url
            .iter()
            .filter_map(|url| origin_of(url))
            .chain(config.allowed_origins.iter().filter_map(|o| origin_of(o)))
            .collect();
        Self { listed }
    }

    /// True for requests without an `Origin` (programs, not browser pages), from a listed
    /// origin, or from the origin the request was sent to (its `Host`).
    pub fn allows(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return true;
        };
        let Some(origin) = origin.to_str().ok().and_then(origin_of) else {
            return false;
        };
        if self.listed.contains(&origin) {
            return true;
        }
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(str::to_ascii_lowercase);
        let origin_host = origin.split_once("://").map(|(_, host)| host);
        host.is_some() && origin_host == host.as_deref()
    }
}

/// `scheme://authority` of an http(s) URL, lower case; `None` for anything else (`null`, ...).
fn origin_of(url: &str) -> Option<String> {
    let url = url.trim().to_ascii_lowercase();
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    (matches!(scheme, "http" | "https") && !authority.is_empty()).then(|| format!("{scheme}://{authority}"))
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(origin: Option<&'static str>, host: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static(host));
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_static(o));
        }
        h
    }

    #[test]
    fn own_listed_and_missing_origins_pass() {
        let allowed = AllowedOrigins {
            listed: vec!["https://app.example.edu".into()],
        };
        assert!(allowed.allows(&headers(None, "lost.example.edu")));
        assert!(allowed.allows(&headers(Some("http://localhost:3000"), "localhost:3000")));
        assert!(allowed.allows(&headers(Some("https://APP.example.edu"), "lost.example.edu")));
    }

    #[test]
    fn other_origins_fail() {
        let allowed = AllowedOrigins::default();
        assert!(!allowed.allows(&headers(Some("http://evil.example"), "localhost:3000")));
        assert!(!allowed.allows(&headers(Some("http://localhost:3001"), "localhost:3000")));
        assert!(!allowed.allows(&headers(Some("null"), "localhost:3000")));
    }

    #[test]
    fn origins_are_normalised() {
        assert_eq!(
            origin_of("https://Lost.Example.edu/path?q").as_deref(),
            Some("https://lost.example.edu")
        );
        assert_eq!(origin_of("ftp://x"), None);
    }
}
