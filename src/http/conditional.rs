//! Conditional requests: strong ETags, and `If-None-Match` answered 304 with no body.

use axum::{
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

/// The ETag header value for an opaque tag (ASCII letters, digits and `-._,`).
pub fn etag(tag: &str) -> HeaderValue {
    HeaderValue::from_str(&format!("\"{tag}\"")).expect("tags are ASCII")
}

/// `bytes` in lower-case hexadecimal, for tags made of digests.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether the request's `If-None-Match` names `etag` (or `*`). Weak and strong forms match
/// alike, as RFC 9110 asks for `If-None-Match`.
pub fn matches(request: &HeaderMap, etag: &HeaderValue) -> bool {
    let wanted = etag.as_bytes();
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|candidate| candidate == "*" || candidate.trim_start_matches("W/").as_bytes() == wanted)
}

/// 304 Not Modified, with the ETag and the other validators' headers.
pub fn not_modified(headers: impl IntoResponse) -> Response {
    (StatusCode::NOT_MODIFIED, headers).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::IF_NONE_MATCH, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn if_none_match_lists_and_weak_forms() {
        let tag = etag("v1");
        assert!(matches(&request("\"v1\""), &tag));
        assert!(matches(&request("\"v0\", W/\"v1\""), &tag));
        assert!(matches(&request("*"), &tag));
        assert!(!matches(&request("\"v2\""), &tag));
        assert!(!matches(&HeaderMap::new(), &tag));
    }
}
