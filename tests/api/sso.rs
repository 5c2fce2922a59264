//! Single sign-on's HTTP side against the test OpenID provider (tests/oidc/provider.mjs, a
//! real one; the browser tests in web/tests sign in through it).

use std::{path::Path, process::Stdio};

use reqwest::{StatusCode, header, redirect::Policy};
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::helpers::*;

/// What the service is published as; the provider sends browsers back to its callback.
const PUBLIC_URL: &str = "http://lost.example";
const CLIENT_ID: &str = "lostfound";
const CLIENT_SECRET: &str = "test-client-secret";

/// The test provider, running until dropped.
struct Provider {
    issuer: String,
    _process: tokio::process::Child,
}

impl Provider {
    async fn start() -> Self {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oidc");
        assert!(
            dir.join("node_modules/oidc-provider").exists(),
            "the test OpenID provider is not installed: run npm ci --prefix tests/oidc (scripts/test does)"
        );
        let mut process = tokio::process::Command::new("node")
            .arg(dir.join("provider.mjs"))
            .env("OIDC_CLIENT_ID", CLIENT_ID)
            .env("OIDC_CLIENT_SECRET", CLIENT_SECRET)
            .env("OIDC_REDIRECT_URI", format!("{PUBLIC_URL}/api/oidc/callback"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("node runs");
        // Its one line on stdout, once it listens: `issuer http://127.0.0.1:PORT`.
        let mut line = String::new();
        BufReader::new(process.stdout.take().unwrap())
            .read_line(&mut line)
            .await
            .unwrap();
        let issuer = line
            .strip_prefix("issuer ")
            .unwrap_or_else(|| panic!("the provider did not start: {line:?}"))
            .trim()
            .to_owned();
        Self {
            issuer,
            _process: process,
        }
    }
}

/// A server with single sign-on through `provider`.
async fn sso_app(provider: &Provider) -> TestApp {
    TestApp::start_with(TestDb::new().await, |config| {
        config.public_url = Some(PUBLIC_URL.into());
        config.accounts.oidc_issuer = Some(provider.issuer.clone());
        config.accounts.oidc_client_id = Some(CLIENT_ID.into());
        config.accounts.oidc_client_secret = Some(CLIENT_SECRET.into());
    })
    .await
}

/// Where `GET /api/oidc/login` sends a browser at `from` (127.0.0.x).
async fn start_sign_on(app: &TestApp, from: &str) -> String {
    let browser = reqwest::Client::builder()
        .redirect(Policy::none())
        .local_address(from.parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap();
    let response = browser.get(app.url("/api/oidc/login")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    response.headers()[header::LOCATION].to_str().unwrap().to_owned()
}

/// Each sign-on started keeps a row until the provider sends the browser back: one address
/// starting them without end is refused once past its limit (sent to the page that says
/// sign-on failed, as a browser is), and the rows stop growing; another address still signs on.
#[tokio::test]
async fn starting_sign_ons_is_limited_per_address() {
    let provider = Provider::start().await;
    let app = sso_app(&provider).await;
    // 50 an address in 15 minutes (docs/api.md).
    let started = 50;
    for n in 0..started {
        let location = start_sign_on(&app, "127.0.0.1").await;
        assert!(location.starts_with(&provider.issuer), "sign-on {n}: {location}");
    }
    assert_eq!(start_sign_on(&app, "127.0.0.1").await, "/#/sso-failed");
    assert_eq!(app.db.count("oidc_logins").await, started);
    for _ in 0..20 {
        assert_eq!(start_sign_on(&app, "127.0.0.1").await, "/#/sso-failed");
    }
    assert_eq!(app.db.count("oidc_logins").await, started);

    assert!(start_sign_on(&app, "127.0.0.2").await.starts_with(&provider.issuer));
    assert_eq!(app.db.count("oidc_logins").await, started + 1);
}
