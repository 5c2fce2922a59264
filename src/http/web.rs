//! The web app at `/`: its own files (web/src) and its libraries (from web/node_modules),
//! embedded in the binary at build time, with ETags and cache headers.

use axum::{
    Json, Router,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use rust_embed::{EmbeddedFile, RustEmbed};
use serde_json::json;

use super::AppState;
use crate::error::AppError;

#[derive(RustEmbed)]
#[folder = "web/src/"]
struct AppFiles;

/// Only the distributed files of the libraries the app loads.
#[derive(RustEmbed)]
#[folder = "web/node_modules/"]
#[include = "leaflet/dist/leaflet.css"]
#[include = "leaflet/dist/leaflet-src.esm.js"]
#[include = "leaflet/dist/images/*"]
#[include = "socket.io-client/dist/socket.io.esm.min.js"]
struct LibraryFiles;

/// Scripts and styles only from here; images may come from a tile server; no framing.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data: blob: https: http:; connect-src 'self' ws: wss:; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

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
}

async fn index(headers: HeaderMap) -> Result<Response, AppError> {
    serve(AppFiles::get("index.html"), REVALIDATE, &headers)
}

async fn app_file(Path(path): Path<String>, headers: HeaderMap) -> Result<Response, AppError> {
    serve(AppFiles::get(&path), REVALIDATE, &headers)
}

async fn library_file(Path(path): Path<String>, headers: HeaderMap) -> Result<Response, AppError> {
    serve(LibraryFiles::get(&path), LIBRARY_CACHE, &headers)
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

fn serve(file: Option<EmbeddedFile>, cache_control: &'static str, request: &HeaderMap) -> Result<Response, AppError> {
    let file = file.ok_or(AppError::NotFound("Not found"))?;
    let etag = format!(
        "\"{}\"",
        file.metadata
            .sha256_hash()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let etag = HeaderValue::from_str(&etag).expect("hex is a valid header value");
    let headers = [
        (header::ETAG, etag.clone()),
        (header::CACHE_CONTROL, HeaderValue::from_static(cache_control)),
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::REFERRER_POLICY, HeaderValue::from_static("same-origin")),
    ];
    if request.get(header::IF_NONE_MATCH) == Some(&etag) {
        return Ok((StatusCode::NOT_MODIFIED, headers).into_response());
    }
    let mime = HeaderValue::from_str(file.metadata.mimetype()).expect("a MIME type is a valid header value");
    Ok((headers, [(header::CONTENT_TYPE, mime)], file.data).into_response())
}
