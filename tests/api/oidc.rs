//! The test OpenID provider (tests/oidc/provider.mjs, a real one built on `oidc-provider`) as a
//! child process, with its test controls; and a sign-on through it over HTTP as a browser does
//! one: every redirect followed by hand, the provider's sign-in form posted.

use std::sync::{Arc, Mutex};

use lostfound::config::Config;
use reqwest::{StatusCode, Url, header::LOCATION, redirect::Policy};
use serde_json::{Value, json};
use tokio::process::Child;

use crate::{helpers::TestClient, mail::PUBLIC_URL, node::NodeScript};

const CLIENT_ID: &str = "lostfound";
const CLIENT_SECRET: &str = "lostfound-test-secret";
/// The provider's group whose members are staff.
pub const STAFF_GROUP: &str = "lost-found-staff";

/// A running provider with one client, lostfound at `PUBLIC_URL`.
pub struct Provider {
    pub issuer: String,
    http: reqwest::Client,
    stderr: Arc<Mutex<String>>,
    _child: Child,
}

impl Provider {
    /// Starts it, with `tamper` (`OIDC_TAMPER`, see tests/oidc/README.md) when given.
    pub async fn start(tamper: Option<&str>) -> Self {
        let redirect = format!("{PUBLIC_URL}/api/oidc/callback");
        let NodeScript {
            child,
            mut stdout,
            stderr,
        } = NodeScript::start(
            "tests/oidc",
            "provider.mjs",
            "oidc-provider",
            &[
                ("OIDC_CLIENT_ID", CLIENT_ID),
                ("OIDC_CLIENT_SECRET", CLIENT_SECRET),
                ("OIDC_REDIRECT_URI", &redirect),
                ("OIDC_TAMPER", tamper.unwrap_or_default()),
            ],
        );
        let line = stdout.next_line().await.unwrap().unwrap_or_else(|| {
            panic!("the provider exited: {}", stderr.lock().unwrap());
        });
        let issuer = line.strip_prefix("issuer ").expect("`issuer URL` first").to_owned();
        Self {
            issuer,
            http: reqwest::Client::new(),
            stderr,
            _child: child,
        }
    }

    /// The service's settings for sign-on at this provider, staff by [`STAFF_GROUP`], for a
    /// `lostfound serve` process.
    pub fn env(&self) -> [(&'static str, &str); 5] {
        [
            ("LOSTFOUND_PUBLIC_URL", PUBLIC_URL),
            ("LOSTFOUND_OIDC_ISSUER", &self.issuer),
            ("LOSTFOUND_OIDC_CLIENT_ID", CLIENT_ID),
            ("LOSTFOUND_OIDC_CLIENT_SECRET", CLIENT_SECRET),
            ("LOSTFOUND_OIDC_ADMIN_GROUP", STAFF_GROUP),
        ]
    }

    /// [`Provider::env`], for a server in the test's process.
    pub fn configure(&self, config: &mut Config) {
        config.public_url = Some(PUBLIC_URL.into());
        config.accounts.oidc_issuer = Some(self.issuer.clone());
        config.accounts.oidc_client_id = Some(CLIENT_ID.into());
        config.accounts.oidc_client_secret = Some(CLIENT_SECRET.into());
        config.accounts.oidc_admin_group = Some(STAFF_GROUP.into());
    }

    /// Sets the groups of the provider's account `sub` from now on.
    pub async fn set_groups(&self, sub: &str, groups: &[&str]) {
        self.control(
            self.http
                .post(self.url(&format!("/test/accounts/{sub}")))
                .json(&json!({ "groups": groups })),
        )
        .await;
    }

    /// Signs with a new key (a new `kid`) from now on, and publishes it instead of the old one.
    pub async fn rotate_keys(&self) {
        self.control(self.http.post(self.url("/test/rotate-keys"))).await;
    }

    /// How many times its keys (`/jwks`) were fetched.
    pub async fn jwks_requests(&self) -> u64 {
        self.control(self.http.get(self.url("/test/jwks-requests"))).await["jwksRequests"]
            .as_u64()
            .unwrap()
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.issuer)
    }

    async fn control(&self, request: reqwest::RequestBuilder) -> Value {
        let response = request.send().await.unwrap();
        let status = response.status();
        let body = response.text().await.unwrap();
        assert_eq!(status, StatusCode::OK, "{body}\n{}", self.stderr.lock().unwrap());
        serde_json::from_str(&body).unwrap()
    }
}

/// A browser of its own (cookies, no redirects followed) at a node of the service, `base`.
pub fn browser(base: &str) -> TestClient {
    TestClient {
        http: reqwest::Client::builder()
            .cookie_store(true)
            .redirect(Policy::none())
            .build()
            .unwrap(),
        base: base.to_owned(),
    }
}

/// Signs on with `browser` as the provider's user `login` ("Log in with …", the provider's
/// form, back to the service), and returns where the service sent it in the end: `/` signed in,
/// `/#/sso-failed` not. The provider sends it back to `PUBLIC_URL`, which reaches the node
/// `browser` uses, as a proxy in front of the nodes would.
pub async fn sign_on(browser: &TestClient, login: &str) -> String {
    let service = Url::parse(&browser.base).unwrap();
    let origin = service.origin().ascii_serialization();
    let mut response = browser
        .http
        .get(service.join("/api/oidc/login").unwrap())
        .send()
        .await
        .unwrap();
    for _ in 0..20 {
        let (status, url) = (response.status(), response.url().clone());
        if status == StatusCode::OK && url.path().starts_with("/interaction/") {
            let form = browser.http.post(format!("{url}/login")).form(&[("login", login)]);
            response = form.send().await.unwrap();
            continue;
        }
        let location = response.headers().get(LOCATION).map(|l| l.to_str().unwrap().to_owned());
        let Some(location) = location.filter(|_| status.is_redirection()) else {
            panic!("{status} from {url}: {}", response.text().await.unwrap());
        };
        let next = url.join(&location).unwrap();
        if let Some(page) = next.as_str().strip_prefix(&origin)
            && !page.starts_with("/api/")
        {
            return page.to_owned();
        }
        let next = match next.as_str().strip_prefix(PUBLIC_URL) {
            Some(path) => service.join(path).unwrap(),
            None => next,
        };
        response = browser.http.get(next).send().await.unwrap();
    }
    panic!("more than 20 steps to sign on");
}
