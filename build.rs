//! Prepares the web app for embedding, so that `cargo build` alone makes a binary with every
//! asset in it: installs the JavaScript libraries (web/package-lock.json) when missing, copies
//! the app's own files (web/src) and the library files it loads into `$OUT_DIR/web`, and
//! writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file, so the server
//! sends them compressed without compressing anything at run time.

use std::{
    fs,
    io::Write,
    path::{Path, PathBuf},
    process::Command,
};

/// The library files the app loads, under web/node_modules; a path ending in `/` takes the
/// whole folder. Minified builds only: Leaflet and its marker-cluster plugin as the classic
/// scripts that set `window.L` (their only minified builds), and Chart.js as its UMD build,
/// a classic script that sets `window.Chart` (the statistics screen loads it when opened).
const LIBRARY_FILES: &[&str] = &[
    "leaflet/dist/leaflet.js",
    "leaflet/dist/leaflet.css",
    "leaflet/dist/images/",
    "leaflet.markercluster/dist/leaflet.markercluster.js",
    "leaflet.markercluster/dist/MarkerCluster.css",
    "chart.js/dist/chart.umd.min.js",
    "socket.io-client/dist/socket.io.esm.min.js",
    // What a Socket.IO server serves at /socket.io/ for pages written for one.
    "socket.io-client/dist/socket.io.esm.min.js.map",
    "socket.io-client/dist/socket.io.js",
    "socket.io-client/dist/socket.io.js.map",
    "socket.io-client/dist/socket.io.min.js",
    "socket.io-client/dist/socket.io.min.js.map",
];

/// Files worth compressing, by extension (images are compressed already).
const TEXT: &[&str] = &["html", "js", "mjs", "css", "json", "svg", "txt", "map"];

fn main() {
    println!("cargo:rerun-if-changed=web/package-lock.json");
    println!("cargo:rerun-if-changed=web/src");
    install_libraries();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("web");
    let _ = fs::remove_dir_all(&out);
    copy_tree(Path::new("web/src"), &out.join("app"));
    for entry in LIBRARY_FILES {
        let source = Path::new("web/node_modules").join(entry);
        let target = out.join("vendor").join(entry);
        if entry.ends_with('/') {
            copy_tree(&source, &target);
        } else {
            copy_file(&source, &target);
        }
    }
}

fn install_libraries() {
    let installed = LIBRARY_FILES
        .iter()
        .all(|file| Path::new("web/node_modules").join(file).exists());
    if installed {
        return;
    }
    let status = Command::new("npm")
        .args(["ci", "--prefix", "web", "--no-audit", "--no-fund", "--loglevel=error"])
        .status()
        .unwrap_or_else(|err| panic!("the web app needs npm to install its libraries (npm ci in web/): {err}"));
    assert!(status.success(), "npm ci in web/ failed");
}

fn copy_tree(source: &Path, target: &Path) {
    for entry in fs::read_dir(source).unwrap_or_else(|err| panic!("cannot read {}: {err}", source.display())) {
        let path = entry.expect("a readable directory entry").path();
        let target = target.join(path.file_name().expect("entries have names"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            copy_file(&path, &target);
        }
    }
}

/// Copies one file, with its compressed copies when it is text.
fn copy_file(source: &Path, target: &Path) {
    let bytes = fs::read(source).unwrap_or_else(|err| panic!("cannot read {}: {err}", source.display()));
    fs::create_dir_all(target.parent().expect("targets are in a folder")).expect("OUT_DIR is writable");
    fs::write(target, &bytes).expect("OUT_DIR is writable");
    let text = source
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| TEXT.contains(&e));
    if !text {
        return;
    }
    let mut brotli = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut brotli, 4096, 11, 22);
        writer.write_all(&bytes).expect("compressing in memory");
    }
    fs::write(with_suffix(target, "br"), brotli).expect("OUT_DIR is writable");
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(&bytes).expect("compressing in memory");
    fs::write(with_suffix(target, "gz"), gzip.finish().expect("compressing in memory")).expect("OUT_DIR is writable");
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}
