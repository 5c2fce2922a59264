//! The web app at `/`: its own files (web/src) and its libraries (from web/node_modules),
//! embedded in the binary at build time, with ETags and cache headers.

use axum::{
    Json, Router,
    extract::{Path, Request, State},
    http::{HeaderMap, HeaderValue, Method, header},
    middleware::Next,
    response::{IntoResponse, Response},
    routing::get,
};
use rust_embed::RustEmbed;
use serde_json::json;

use super::conditional::{etag, hex, matches, not_modified};
use crate::{error::AppError, state::AppState};

mod shell;

/// The app's own files, from web/src, with their compressed copies (see build.rs).
#[derive(RustEmbed)]
#[folder = "$OUT_DIR/web/app/"]
struct AppFiles;

/// The library files the app loads, from web/node_modules, with their compressed copies.
#[derive(RustEmbed)]
#[folder = "$OUT_DIR/web/vendor/"]
struct LibraryFiles;

/// Scripts and styles only from here; images may come from a tile server; no framing; the
/// service worker and the manifest (shell.rs) from here.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data: blob: https: http:; connect-src 'self' ws: wss:; object-src 'none'; \
     worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Our files change with every release: always revalidated (cheap, thanks to the ETag).
const REVALIDATE: &str = "no-cache";
/// Library files change only with their version in the lockfile.
const LIBRARY_CACHE: &str = "public, max-age=86400";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/assets/{*path}", get(app_file))
        .route("/vendor/{*path}", get(library_file))
        .route("/config.json", get(config))
        .route("/manifest.webmanifest", get(shell::manifest))
        .route("/sw.js", get(shell::service_worker))
}

async fn index(headers: HeaderMap) -> Result<Response, AppError> {
    serve::<AppFiles>("index.html", REVALIDATE, &headers)
}

async fn app_file(Path(path): Path<String>, headers: HeaderMap) -> Result<Response, AppError> {
    serve::<AppFiles>(&path, REVALIDATE, &headers)
}

async fn library_file(Path(path): Path<String>, headers: HeaderMap) -> Result<Response, AppError> {
    serve::<LibraryFiles>(&path, LIBRARY_CACHE, &headers)
}

/// The map settings the app starts with.
async fn config(State(state): State<AppState>) -> impl IntoResponse {
    let map = &state.config.map;
    let body = json!({
        "tileUrl": map.tile_url,
        "tileAttribution": map.tile_attribution,
        "center": [map.map_center.0, map.map_center.1],
        "zoom": map.map_zoom,
    });
    ([(header::CACHE_CONTROL, REVALIDATE)], Json(body))
}

/// The JavaScript client a Socket.IO server serves at `/socket.io/` (with source maps), for
/// pages written for one: UniLost's loads `/socket.io/socket.io.js`.
const SOCKET_IO_CLIENT: [&str; 6] = [
    "socket.io.js",
    "socket.io.js.map",
    "socket.io.min.js",
    "socket.io.min.js.map",
    "socket.io.esm.min.js",
    "socket.io.esm.min.js.map",
];

/// Middleware in front of Socket.IO (which answers everything under `/socket.io/`): serves
/// its JavaScript client there, as a Socket.IO server does.
pub async fn socket_io_client(request: Request, next: Next) -> Response {
    let file = request
        .uri()
        .path()
        .strip_prefix("/socket.io/")
        .filter(|file| SOCKET_IO_CLIENT.contains(file));
    match file {
        Some(file) if request.method() == Method::GET => {
            let path = format!("socket.io-client/dist/{file}");
            serve::<LibraryFiles>(&path, LIBRARY_CACHE, request.headers()).into_response()
        }
        _ => next.run(request).await,
    }
}

/// Content codings the files are stored in besides their own, best first, with the suffix
/// of their copies.
const CODINGS: [(&str, &str); 2] = [("br", "br"), ("gzip", "gz")];

/// Serves an embedded file, in the best coding the client accepts.
fn serve<Files: RustEmbed>(path: &str, cache_control: &'static str, request: &HeaderMap) -> Result<Response, AppError> {
    let file = Files::get(path).ok_or(AppError::NotFound("Not found"))?;
    // Source maps are JSON (mime_guess does not know them).
    let mime = if path.ends_with(".map") {
        HeaderValue::from_static("application/json")
    } else {
        HeaderValue::from_str(file.metadata.mimetype()).expect("a MIME type is a valid header value")
    };
    let (coding, file) = CODINGS
        .iter()
        .filter(|(coding, _)| accepts(request, coding))
        .find_map(|(coding, suffix)| Files::get(&format!("{path}.{suffix}")).map(|f| (Some(*coding), f)))
        .unwrap_or((None, file));
    let mut headers = vec![
        (header::ETAG, etag(&hex(&file.metadata.sha256_hash()[..16]))),
        (header::CACHE_CONTROL, HeaderValue::from_static(cache_control)),
        (header::VARY, HeaderValue::from_static("accept-encoding")),
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        // Every answer of the router gets it on its way out (`finish` in http/mod.rs), but the
        // Socket.IO client's files are served in front of Socket.IO, outside it.
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::REFERRER_POLICY, HeaderValue::from_static("same-origin")),
    ];
    if matches(request, &headers[0].1) {
        return Ok(not_modified(HeaderMap::from_iter(headers)));
    }
    headers.push((header::CONTENT_TYPE, mime));
    if let Some(coding) = coding {
        headers.push((header::CONTENT_ENCODING, HeaderValue::from_static(coding)));
    }
    Ok((HeaderMap::from_iter(headers), file.data).into_response())
}

/// Whether `Accept-Encoding` allows `coding` (named, and not with `q=0`).
fn accepts(request: &HeaderMap, coding: &str) -> bool {
    request
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|entry| {
            let mut parts = entry.split(';').map(str::trim);
            let named = parts.next().is_some_and(|name| name.eq_ignore_ascii_case(coding));
            let refused = parts.any(|p| p.strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()) == Some(0.0));
            named && !refused
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(accept: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(accept));
        headers
    }

    #[test]
    fn accepted_codings() {
        assert!(accepts(&request("gzip, deflate, br, zstd"), "br"));
        assert!(accepts(&request("GZIP;q=0.5"), "gzip"));
        assert!(!accepts(&request("gzip;q=0, br"), "gzip"));
        assert!(!accepts(&request("br;q=0.000"), "br"));
        assert!(!accepts(&request("identity"), "gzip"));
        assert!(!accepts(&HeaderMap::new(), "br"));
    }
}
