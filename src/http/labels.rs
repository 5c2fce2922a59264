//! `GET /api/items/{id}/label.svg`: a printable label for the item (staff stick it on what
//! they keep), drawn by `domain::label`, whose QR code opens the item in the web app.

use axum::{
    Router,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
    routing::get,
};

use super::{
    bins::bin_in_path,
    current_user::{May, TakeIn},
    schemas,
};
use crate::{
    config::Config,
    domain::{ItemId, ItemNotFound, label},
    error::{AppError, Result},
    state::AppState,
};

/// The web app's page of an item, after the public URL: the address notifications link to.
const ITEM_PAGE: &str = "/#/items/";

/// The web app's page of a bin (what it holds), after the public URL.
const BIN_PAGE: &str = "/#/desks/bin/";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/items/{id}/label.svg", get(item_label))
        .route("/api/bins/{id}/label.svg", get(bin_label))
}

/// A label of 62 × 29 mm to print and stick on a kept item: its number, title, the day it
/// was reported, where it is kept, and a QR code of its page in the web app
/// (`LOSTFOUND_PUBLIC_URL/#/items/ID`; without a public URL, the address the request was sent to).
#[utoipa::path(get, path = "/api/items/{id}/label.svg", operation_id = "getItemLabel", tag = "items", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Item id")),
    responses(
        (status = 200, description = "The label, SVG sized in millimetres", content_type = "image/svg+xml", body = String),
        (status = 400, description = "Invalid item ID, Invalid Host header", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, response = schemas::AdminOnly),
        (status = 404, response = schemas::NoItem),
    ))]
async fn item_label(
    State(state): State<AppState>,
    _: May<TakeIn>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response> {
    let id = ItemId::parse(&id)?;
    let item = state.store.item(id).await?.ok_or(ItemNotFound)?;
    let url = format!("{}{ITEM_PAGE}{id}", public_base(&state.config, &headers)?);
    // In a bin: its name and, for the hand that shelves it, its code.
    let bin = match item.bin_id {
        Some(bin) => state.store.bin(bin).await?,
        None => None,
    };
    let place = match &bin {
        Some(bin) => Some(format!("{} ({})", bin.name, bin.code)),
        None => item.storage_place.clone(),
    };
    let svg = label::label_svg(id.get(), &item.title, item.created_at, place.as_deref(), &url)
        .map_err(anyhow::Error::from)?;
    Ok(svg_answer(svg, &format!("item-{id}-label.svg")))
}

/// A label of 62 × 29 mm to stick on a bin's shelf: its code, name and site, and a QR code
/// of its page in the web app, which lists what it holds.
#[utoipa::path(get, path = "/api/bins/{id}/label.svg", operation_id = "getBinLabel", tag = "bins", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Bin id")),
    responses(
        (status = 200, description = "The label, SVG sized in millimetres", content_type = "image/svg+xml", body = String),
        (status = 400, description = "Invalid Host header", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Bin not found", body = schemas::ErrorBody),
    ))]
async fn bin_label(
    State(state): State<AppState>,
    _: May<TakeIn>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response> {
    let bin = bin_in_path(&state, &id).await?;
    let site = state
        .store
        .site(bin.site_id)
        .await?
        .map(|site| site.name)
        .unwrap_or_default();
    let url = format!("{}{BIN_PAGE}{}", public_base(&state.config, &headers)?, bin.id);
    let svg = label::bin_label_svg(&bin.code, &bin.name, &site, &url).map_err(anyhow::Error::from)?;
    Ok(svg_answer(svg, &format!("bin-{}-label.svg", bin.id)))
}

/// A label as an answer, opened inline as `filename` (made of a number: a valid header).
fn svg_answer(svg: String, filename: &str) -> Response {
    let disposition = HeaderValue::from_str(&format!("inline; filename=\"{filename}\""))
        .expect("a number makes a valid header value");
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("image/svg+xml; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            // Opened on its own, the picture runs nothing and loads nothing.
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        svg,
    )
        .into_response()
}

/// The service's address as people reach it, without a trailing `/`: `LOSTFOUND_PUBLIC_URL`
/// when set; else the request's `Host`, over `http`, or over what the proxy says in
/// `X-Forwarded-Proto` when it is trusted.
fn public_base(config: &Config, headers: &HeaderMap) -> Result<String> {
    if let Some(url) = &config.public_url {
        return Ok(url.trim_end_matches('/').to_owned());
    }
    let host = headers
        .get(header::HOST)
        .and_then(|host| host.to_str().ok())
        .filter(|host| is_authority(host))
        .ok_or(AppError::Validation {
            message: "Invalid Host header".into(),
            field: None,
        })?;
    let forwarded = headers
        .get_all("x-forwarded-proto")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        // The proxy's own entry is the last.
        .next_back()
        .map(|proto| proto.trim().to_ascii_lowercase())
        .filter(|proto| proto == "http" || proto == "https");
    let scheme = config.trust_proxy.then_some(forwarded).flatten();
    Ok(format!("{}://{host}", scheme.as_deref().unwrap_or("http")))
}

/// A host and optional port, as a `Host` header may name them: letters, digits, `.-_:` and
/// the brackets of an IPv6 address; nothing that could change the URL around it.
fn is_authority(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 260
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b':' | b'[' | b']'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn the_public_url_wins_and_loses_its_trailing_slash() {
        let config = Config {
            public_url: Some("https://lost.example.edu/".into()),
            ..Config::for_tests("sqlite://unused.db")
        };
        let base = public_base(&config, &headers(&[("host", "evil.example")])).unwrap();
        assert_eq!(base, "https://lost.example.edu");
    }

    #[test]
    fn without_one_the_host_is_used_and_a_trusted_proxy_names_the_scheme() {
        let mut config = Config::for_tests("sqlite://unused.db");
        let forwarded = headers(&[("host", "lost.example.edu:8080"), ("x-forwarded-proto", "https")]);
        assert_eq!(
            public_base(&config, &forwarded).unwrap(),
            "http://lost.example.edu:8080"
        );
        config.trust_proxy = true;
        assert_eq!(
            public_base(&config, &forwarded).unwrap(),
            "https://lost.example.edu:8080"
        );
        let chained = headers(&[("host", "[::1]:3000"), ("x-forwarded-proto", "ftp, HTTPS")]);
        assert_eq!(public_base(&config, &chained).unwrap(), "https://[::1]:3000");
        let odd = headers(&[("host", "h"), ("x-forwarded-proto", "javascript")]);
        assert_eq!(public_base(&config, &odd).unwrap(), "http://h");
        for bad in [
            headers(&[]),
            headers(&[("host", "a.example/evil?")]),
            headers(&[("host", "a@b")]),
        ] {
            assert!(public_base(&config, &bad).is_err(), "{bad:?}");
        }
    }
}
