//! The installable app: its manifest at `/manifest.webmanifest`, and its service worker at
//! `/sw.js` (web/src/sw.js) with the build's version and the app shell's addresses filled in.
//! The version is a digest of every file embedded in the binary, so each release that changes
//! any of them names a new cache, which the browsers install on their next load.

use std::sync::LazyLock;

use axum::{
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use rust_embed::RustEmbed;
use sha2::{Digest, Sha256};

use super::{AppFiles, CONTENT_SECURITY_POLICY, LibraryFiles, REVALIDATE, serve};
use crate::{
    error::AppError,
    http::conditional::{etag, hex, matches, not_modified},
};

/// The library files the app loads as it starts (index.html, socket.js), and the images
/// Leaflet's stylesheet names; a path ending in `/` takes the whole folder. Chart.js is left
/// to the statistics screen, which needs the service anyway.
const SHELL_LIBRARIES: &[&str] = &[
    "leaflet/dist/leaflet.js",
    "leaflet/dist/leaflet.css",
    "leaflet/dist/images/",
    "leaflet.markercluster/dist/leaflet.markercluster.js",
    "leaflet.markercluster/dist/MarkerCluster.css",
    "socket.io-client/dist/socket.io.esm.min.js",
];

/// The app's own files served elsewhere than under `/assets/`, or not part of the shell.
const APP_FILES_APART: &[&str] = &["index.html", "manifest.webmanifest", "sw.js"];

/// The service worker as served, made once.
struct Worker {
    body: String,
    etag: HeaderValue,
}

static WORKER: LazyLock<Worker> = LazyLock::new(|| {
    let template = AppFiles::get("sw.js").expect("web/src/sw.js is embedded");
    let template = std::str::from_utf8(&template.data).expect("sw.js is UTF-8");
    let body = render(template, &release(), &shell());
    let digest = Sha256::digest(body.as_bytes());
    Worker {
        etag: etag(&hex(&digest[..16])),
        body,
    }
});

pub(super) async fn manifest(headers: HeaderMap) -> Result<Response, AppError> {
    serve::<AppFiles>("manifest.webmanifest", REVALIDATE, &headers)
}

/// Always revalidated, so a new release is seen at the next load (browsers also skip their
/// HTTP cache for it when they look for an update).
pub(super) async fn service_worker(request: HeaderMap) -> Response {
    let worker = &*WORKER;
    let headers = [
        (header::ETAG, worker.etag.clone()),
        (header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE)),
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
    ];
    if matches(&request, &worker.etag) {
        return not_modified(HeaderMap::from_iter(headers));
    }
    let content_type = (
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    (
        HeaderMap::from_iter(headers.into_iter().chain([content_type])),
        worker.body.clone(),
    )
        .into_response()
}

/// This binary's version of the web app: the version of every file embedded in it.
fn release() -> String {
    let libraries = embedded::<LibraryFiles>().map(|(path, hash)| (format!("vendor/{path}"), hash));
    version(embedded::<AppFiles>().chain(libraries))
}

/// Every embedded file of `Files` with the SHA-256 of its content.
fn embedded<Files: RustEmbed>() -> impl Iterator<Item = (String, [u8; 32])> {
    Files::iter().filter_map(|path| Files::get(&path).map(|file| (path.into_owned(), file.metadata.sha256_hash())))
}

/// A name for one set of files: the same files give the same version, in any order; a file
/// added, removed, renamed or changed gives another.
fn version(files: impl IntoIterator<Item = (String, [u8; 32])>) -> String {
    let mut files: Vec<_> = files.into_iter().collect();
    files.sort();
    let mut digest = Sha256::new();
    for (path, hash) in files {
        digest.update(path.as_bytes());
        digest.update([0]);
        digest.update(hash);
    }
    hex(&digest.finalize()[..8])
}

/// The addresses of the app shell: the page, its public settings (the map's, the API's ways
/// in, the desks and the categories, the same for everyone), the manifest, the app's own files (not their compressed
/// copies) and the libraries it starts with.
fn shell() -> Vec<String> {
    let originals = |paths: Vec<String>| -> Vec<String> {
        paths
            .iter()
            .filter(|path| !is_compressed_copy(path, |original| paths.iter().any(|p| p == original)))
            .cloned()
            .collect()
    };
    let app = originals(AppFiles::iter().map(|p| p.into_owned()).collect());
    let libraries = originals(LibraryFiles::iter().map(|p| p.into_owned()).collect());
    let mut shell: Vec<String> = [
        "/",
        "/config.json",
        "/api/config",
        "/api/sites",
        "/api/categories",
        "/manifest.webmanifest",
    ]
    .map(String::from)
    .to_vec();
    shell.extend(
        app.iter()
            .filter(|path| !APP_FILES_APART.contains(&path.as_str()))
            .map(|path| format!("/assets/{path}")),
    );
    shell.extend(
        libraries
            .iter()
            .filter(|path| {
                SHELL_LIBRARIES
                    .iter()
                    .any(|wanted| path == wanted || (wanted.ends_with('/') && path.starts_with(wanted)))
            })
            .map(|path| format!("/vendor/{path}")),
    );
    shell.sort();
    shell
}

/// Whether `path` is the brotli or gzip copy build.rs made of another file.
fn is_compressed_copy(path: &str, exists: impl Fn(&str) -> bool) -> bool {
    [".br", ".gz"]
        .iter()
        .any(|suffix| path.strip_suffix(suffix).is_some_and(&exists))
}

/// sw.js with its placeholders filled in.
fn render(template: &str, version: &str, shell: &[String]) -> String {
    let shell = serde_json::to_string(shell).expect("strings serialize");
    template
        .replacen("{{version}}", version, 1)
        .replacen(r#"["{{shell}}"]"#, &shell, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, u8)]) -> Vec<(String, [u8; 32])> {
        list.iter()
            .map(|(path, byte)| ((*path).to_owned(), [*byte; 32]))
            .collect()
    }

    #[test]
    fn the_version_names_the_set_of_files() {
        let release = version(files(&[("index.html", 1), ("app.js", 2), ("vendor/leaflet.js", 3)]));
        assert_eq!(release.len(), 16);
        assert!(release.bytes().all(|b| b.is_ascii_hexdigit()));
        // The same files in another order: the same version.
        assert_eq!(
            release,
            version(files(&[("vendor/leaflet.js", 3), ("index.html", 1), ("app.js", 2)]))
        );
        // One file changed, added, removed or renamed: another version.
        for other in [
            files(&[("index.html", 1), ("app.js", 9), ("vendor/leaflet.js", 3)]),
            files(&[
                ("index.html", 1),
                ("app.js", 2),
                ("vendor/leaflet.js", 3),
                ("new.js", 4),
            ]),
            files(&[("index.html", 1), ("app.js", 2)]),
            files(&[("index.html", 1), ("main.js", 2), ("vendor/leaflet.js", 3)]),
        ] {
            assert_ne!(release, version(other));
        }
    }

    #[test]
    fn the_worker_names_its_version_and_the_shell() {
        let body = &WORKER.body;
        assert!(!body.contains("{{"), "a placeholder left in sw.js");
        assert!(body.contains(&format!(r#"const VERSION = "{}";"#, release())));
        let shell = shell();
        assert!(body.contains(&serde_json::to_string(&shell).unwrap()));
        for needed in [
            "/",
            "/config.json",
            "/api/config",
            "/api/sites",
            "/manifest.webmanifest",
            "/assets/app.js",
            "/assets/install.js",
            "/assets/style.css",
            "/assets/icons/icon-192.png",
            "/vendor/leaflet/dist/leaflet.js",
            "/vendor/leaflet/dist/images/marker-icon.png",
            "/vendor/socket.io-client/dist/socket.io.esm.min.js",
        ] {
            assert!(shell.iter().any(|url| url == needed), "{needed} is not in the shell");
        }
        for left_out in [
            "/assets/sw.js",
            "/assets/index.html",
            "/assets/app.js.br",
            "/assets/style.css.gz",
        ] {
            assert!(!shell.iter().any(|url| url == left_out), "{left_out} is in the shell");
        }
        // Of the API only the public settings, desks and categories: nothing about a user.
        assert!(!shell.iter().any(|url| (url.starts_with("/api")
            && !["/api/config", "/api/sites", "/api/categories"].contains(&url.as_str()))
            || url.starts_with("/socket.io")));
    }

    #[test]
    fn compressed_copies_are_told_from_files() {
        let exists = |path: &str| ["app.js", "archive"].contains(&path);
        assert!(is_compressed_copy("app.js.br", exists));
        assert!(is_compressed_copy("app.js.gz", exists));
        assert!(!is_compressed_copy("app.js", exists));
        assert!(!is_compressed_copy("data.gz", exists));
    }
}
