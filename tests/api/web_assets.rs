//! The web app's files: compressed at build time, sent in the coding the browser accepts,
//! with ETags and the cache rules of app files and library files.

use std::io::Read;

use reqwest::{Method, StatusCode, header};

use crate::helpers::*;

/// Status, headers and raw (still encoded) body of `path` with `Accept-Encoding: accept`.
async fn fetch(client: &TestClient, path: &str, accept: Option<&str>) -> (StatusCode, header::HeaderMap, Vec<u8>) {
    // reqwest here decodes nothing: the bytes are as sent.
    let mut request = client.request(Method::GET, path);
    if let Some(accept) = accept {
        request = request.header(header::ACCEPT_ENCODING, accept);
    }
    let response = request.send().await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    (status, headers, response.bytes().await.unwrap().to_vec())
}

fn decoded(coding: Option<&str>, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    match coding {
        Some("br") => brotli::Decompressor::new(body, 4096).read_to_end(&mut out).unwrap(),
        Some("gzip") => flate2::read::GzDecoder::new(body).read_to_end(&mut out).unwrap(),
        None => return body.to_vec(),
        Some(other) => panic!("unexpected coding {other}"),
    };
    out
}

#[tokio::test]
async fn files_come_compressed_as_the_browser_accepts() {
    let app = spawn_app().await;
    let client = app.client();
    for (path, cache) in [
        ("/", "no-cache"),
        ("/assets/app.js", "no-cache"),
        (
            "/vendor/socket.io-client/dist/socket.io.esm.min.js",
            "public, max-age=86400",
        ),
    ] {
        let (status, plain_headers, plain) = fetch(&client, path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(!plain_headers.contains_key(header::CONTENT_ENCODING), "{path}");
        let mut tags = vec![plain_headers[header::ETAG].clone()];
        for (accept, coding) in [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("br;q=0, gzip", "gzip")] {
            let (status, headers, body) = fetch(&client, path, Some(accept)).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(headers[header::CONTENT_ENCODING], coding, "{path} {accept}");
            assert_eq!(headers[header::CACHE_CONTROL], cache, "{path}");
            assert!(
                headers.get_all(header::VARY).iter().any(|v| v == "accept-encoding"),
                "{path}"
            );
            assert!(
                body.len() < plain.len() / 2,
                "{path} {coding}: {} of {}",
                body.len(),
                plain.len()
            );
            assert_eq!(decoded(Some(coding), &body), plain, "{path} {coding}");
            tags.push(headers[header::ETAG].clone());
            // Each coding is revalidated under its own tag.
            let again = client
                .request(Method::GET, path)
                .header(header::ACCEPT_ENCODING, accept)
                .header(header::IF_NONE_MATCH, headers[header::ETAG].clone())
                .send()
                .await
                .unwrap();
            assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path} {coding}");
        }
        tags.dedup();
        assert_eq!(tags.len(), 3, "{path}: one tag per coding {tags:?}");
    }
    // Only minified library builds are served.
    let (status, _, leaflet) = fetch(&client, "/vendor/leaflet/dist/leaflet.js", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(leaflet.len() < 200_000, "leaflet.js is {} bytes", leaflet.len());
    let (status, ..) = fetch(&client, "/vendor/leaflet/dist/leaflet-src.esm.js", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Images are not compressed again.
    let (_, headers, _) = fetch(&client, "/vendor/leaflet/dist/images/marker-icon.png", Some("br, gzip")).await;
    assert!(!headers.contains_key(header::CONTENT_ENCODING));
}

/// Pages written for a Socket.IO server load its client from `/socket.io/` (UniLost's loads
/// `/socket.io/socket.io.js`): served there, while everything else there is Socket.IO's.
#[tokio::test]
async fn the_socket_io_client_is_served_where_a_socket_io_server_serves_it() {
    let app = spawn_app().await;
    let client = app.client();
    let installed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/node_modules/socket.io-client/dist");
    for (file, mime) in [
        ("socket.io.js", "javascript"),
        ("socket.io.min.js", "javascript"),
        ("socket.io.esm.min.js", "javascript"),
        ("socket.io.js.map", "json"),
        ("socket.io.min.js.map", "json"),
    ] {
        let path = format!("/socket.io/{file}");
        let (status, headers, body) = fetch(&client, &path, Some("br")).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let content_type = headers[header::CONTENT_TYPE].to_str().unwrap();
        assert!(content_type.contains(mime), "{path}: {content_type}");
        let coding = headers.get(header::CONTENT_ENCODING).map(|v| v.to_str().unwrap());
        assert_eq!(
            decoded(coding, &body),
            std::fs::read(installed.join(file)).unwrap(),
            "{path}"
        );
        let again = client
            .request(Method::GET, &path)
            .header(header::ACCEPT_ENCODING, "br")
            .header(header::IF_NONE_MATCH, headers[header::ETAG].clone())
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
    }
    // The protocol itself is untouched.
    let (status, _, body) = fetch(&client, "/socket.io/?EIO=4&transport=polling", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.starts_with(b"0{\"sid\":"), "{}", String::from_utf8_lossy(&body));
    let (status, ..) = fetch(&client, "/socket.io/socket.io.msgpack.min.js", None).await;
    assert_ne!(status, StatusCode::OK);
}
