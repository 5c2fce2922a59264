//! Installs the web app's JavaScript libraries (web/package-lock.json) when they are missing,
//! so that `cargo build` alone produces a binary with every asset embedded.

use std::{path::Path, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=web/package-lock.json");
    println!("cargo:rerun-if-changed=web/src");
    let installed = ["leaflet/dist/leaflet.css", "socket.io-client/dist/socket.io.esm.min.js"]
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
