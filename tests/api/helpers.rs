//! The test harness: a real server on port 0 over a fresh database (SQLite, or PostgreSQL
//! when `TEST_DATABASE_URL` is set), and HTTP clients that keep cookies.

use std::{
    net::{IpAddr, SocketAddr},
    time::Duration,
};

use lostfound::{
    App,
    auth::{Passwords, add_user},
    config::{Config, Mode},
    domain::{NewAccount, Password, access::Role},
    mail::Progress,
    store::{Count, Store},
};
use reqwest::{
    StatusCode,
    header::{self, HeaderMap, HeaderValue},
};
use serde_json::{Value, json};
use sqlx::{Connection, Executor, PgConnection, SqliteConnection};
use tokio::{
    sync::{oneshot, watch},
    task::JoinHandle,
};

/// Whether the tests run on PostgreSQL (`TEST_DATABASE_URL` is set) rather than SQLite.
pub fn on_postgres() -> bool {
    std::env::var("TEST_DATABASE_URL").is_ok_and(|url| !url.is_empty())
}

/// Fails unless the tests run on SQLite. A test that applies to SQLite alone sits in a module
/// named `sqlite_only`, which scripts/test skips on PostgreSQL and says so: run there anyway,
/// it fails rather than passing without testing anything.
pub fn require_sqlite() {
    assert!(
        !on_postgres(),
        "a SQLite-only test run on PostgreSQL: skip it with --skip sqlite_only"
    );
}

/// Fails unless the tests run on PostgreSQL (see [`require_sqlite`]; `postgres_only`).
pub fn require_postgres() {
    assert!(
        on_postgres(),
        "a PostgreSQL-only test run on SQLite: set TEST_DATABASE_URL, or skip it with --skip postgres_only"
    );
}

/// Retries `attempt` every 100 ms until it returns true (the condition it checks holds), for
/// at most `within`; returns how long that took.
pub async fn eventually(what: &str, within: Duration, attempt: impl AsyncFnMut() -> bool) -> Duration {
    eventually_every(what, within, Duration::from_millis(100), attempt).await
}

/// [`eventually`], retrying every `every` (slower, for attempts that send chat messages and
/// must stay under the service's message rate).
pub async fn eventually_every(
    what: &str,
    within: Duration,
    every: Duration,
    mut attempt: impl AsyncFnMut() -> bool,
) -> Duration {
    let start = std::time::Instant::now();
    while !attempt().await {
        assert!(start.elapsed() < within, "{what}: not within {within:?}");
        tokio::time::sleep(every).await;
    }
    start.elapsed()
}

/// Fails unless the tests run as root: a test that needs it sits in a module named
/// `needs_root`, which scripts/test skips otherwise and says so.
pub fn require_root() {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let uid = status.lines().find_map(|line| line.strip_prefix("Uid:")).unwrap();
    assert_eq!(
        uid.split_whitespace().next(),
        Some("0"),
        "a test that needs root run without it: skip it with --skip needs_root"
    );
}

/// A database of its own for one test, dropped with it.
pub struct TestDb {
    url: String,
    postgres: Option<(String, String)>,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    pub async fn new() -> Self {
        match std::env::var("TEST_DATABASE_URL") {
            Ok(admin_url) if on_postgres() => {
                let name = format!("lostfound_test_{:016x}", rand::random::<u64>());
                let mut conn = PgConnection::connect(&admin_url)
                    .await
                    .expect("TEST_DATABASE_URL reachable");
                conn.execute(sqlx::AssertSqlSafe(format!(r#"CREATE DATABASE "{name}""#)))
                    .await
                    .expect("create test database");
                let base = admin_url.split('?').next().unwrap();
                let url = format!("{}/{name}", &base[..base.rfind('/').unwrap()]);
                Self {
                    url,
                    postgres: Some((admin_url, name)),
                    _dir: None,
                }
            }
            _ => {
                let dir = tempfile::tempdir().unwrap();
                let url = format!("sqlite://{}", dir.path().join("lostfound.db").display());
                Self {
                    url,
                    postgres: None,
                    _dir: Some(dir),
                }
            }
        }
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// Another handle on the same database, which does not drop it.
    fn shared(&self) -> Self {
        Self {
            url: self.url.clone(),
            postgres: None,
            _dir: None,
        }
    }

    /// Runs one SQL statement on this database (either backend) and returns the first column
    /// of every row it yields, as text; write `CAST(... AS TEXT)` for other types.
    pub async fn sql(&self, query: &str) -> Vec<String> {
        let query = sqlx::AssertSqlSafe(query.to_owned());
        // Closed before the answer is used: a connection dropped instead closes later, on its
        // driver's thread, and may still be closing as a server starts on the database.
        let rows = if self.url.starts_with("postgres") {
            let mut conn = PgConnection::connect(&self.url).await.unwrap();
            let rows = sqlx::query_scalar(query).fetch_all(&mut conn).await;
            conn.close().await.unwrap();
            rows
        } else {
            let mut conn = SqliteConnection::connect(&self.url).await.unwrap();
            let rows = sqlx::query_scalar(query).fetch_all(&mut conn).await;
            conn.close().await.unwrap();
            rows
        };
        rows.unwrap_or_else(|e| panic!("{e}"))
    }

    /// How many rows `table` holds.
    pub async fn count(&self, table: &str) -> usize {
        self.sql(&format!("SELECT CAST(COUNT(*) AS TEXT) FROM {table}")).await[0]
            .parse()
            .unwrap()
    }

    /// Waits until the service has given every item its meaning (it does so in the
    /// background, just after each item is written): what a search by meaning then finds
    /// no longer depends on the moment it is asked.
    pub async fn meanings_written(&self) {
        eventually("every item has its meaning", Duration::from_secs(30), async || {
            self.count("items").await == self.count("item_meanings").await
        })
        .await;
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin_url, name)) = self.postgres.take() {
            // Drop is synchronous; the database is dropped from a runtime of its own.
            let _ = std::thread::spawn(move || {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap()
                    .block_on(async {
                        if let Ok(mut conn) = PgConnection::connect(&admin_url).await {
                            let _ = conn
                                .execute(sqlx::AssertSqlSafe(format!(
                                    r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#
                                )))
                                .await;
                        }
                    })
            })
            .join();
        }
    }
}

pub struct TestApp {
    pub addr: SocketAddr,
    /// What the node's mail sender has done (nothing without email configured).
    pub mail_progress: watch::Receiver<Progress>,
    pub store: Store,
    pub passwords: Passwords,
    pub mode: Mode,
    pub db: TestDb,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

pub async fn spawn_app() -> TestApp {
    TestApp::start(TestDb::new().await, Mode::Production).await
}

pub async fn spawn_app_in(mode: Mode) -> TestApp {
    TestApp::start(TestDb::new().await, mode).await
}

impl TestApp {
    pub async fn start(db: TestDb, mode: Mode) -> Self {
        Self::start_with(db, |config| config.mode = mode).await
    }

    /// Starts a server on `db` with the default test configuration changed by `configure`.
    pub async fn start_with(db: TestDb, configure: impl FnOnce(&mut Config)) -> Self {
        let mut config = Config::for_tests(db.url());
        configure(&mut config);
        let mode = config.mode;
        let app = App::build(config).await.expect("app builds");
        let mail_progress = app.mail_progress();
        let (addr, store, passwords) = (
            app.local_addr(),
            app.state().store.clone(),
            app.state().passwords.clone(),
        );
        let (tx, rx) = oneshot::channel();
        let task = tokio::spawn(app.run(async move {
            let _ = rx.await;
        }));
        Self {
            addr,
            mail_progress,
            store,
            passwords,
            mode,
            db,
            shutdown: Some(tx),
            task: Some(task),
        }
    }

    /// Stops gracefully (in-flight requests finish) and waits until the server is down.
    pub async fn stop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(Duration::from_secs(10), task)
                .await
                .expect("server stops within 10 s")
                .unwrap()
                .unwrap();
        }
    }

    /// Stops this server and starts a new one on the same database.
    pub async fn restart(self) -> Self {
        let mode = self.mode;
        self.restart_with(|config| config.mode = mode).await
    }

    /// Stops this server and starts a new one on the same database, configured by `configure`.
    pub async fn restart_with(mut self, configure: impl FnOnce(&mut Config)) -> Self {
        self.stop().await;
        let db = std::mem::replace(
            &mut self.db,
            TestDb {
                url: String::new(),
                postgres: None,
                _dir: None,
            },
        );
        Self::start_with(db, configure).await
    }

    /// Waits until this node's mail sender has started a pass after now and finished it:
    /// whatever it was sending when this was called is sent (or put back) by then.
    pub async fn mail_sender_ran_again(&self) {
        let mut progress = self.mail_progress.clone();
        let started = progress.borrow().passes_started;
        tokio::time::timeout(
            Duration::from_secs(20),
            progress.wait_for(|p| p.passes_finished > started),
        )
        .await
        .expect("the mail sender runs again within 20 s")
        .expect("the mail sender runs");
    }

    /// Another server (a second node) on the same database, in the same mode.
    pub async fn another_node(&self) -> Self {
        Self::start(self.db.shared(), self.mode).await
    }

    /// Another server on the same database, configured by `configure`.
    pub async fn another_node_with(&self, configure: impl FnOnce(&mut Config)) -> Self {
        Self::start_with(self.db.shared(), configure).await
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// A new client with its own cookie jar.
    pub fn client(&self) -> TestClient {
        TestClient::new(format!("http://{}", self.addr))
    }

    /// Creates an account whose password is `password-<id>`.
    pub async fn add_user(&self, id: &str, admin: bool) {
        create_account(
            &self.store,
            &self.passwords,
            id,
            &format!("Name of {id}"),
            admin,
            &password_of(id),
        )
        .await;
    }

    /// A client without a cookie jar that sends `Cookie: sid=<sid>` on every request, as an
    /// attacker replaying a captured cookie would.
    pub fn client_with_sid(&self, sid: &str) -> TestClient {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_str(&format!("sid={sid}")).unwrap());
        TestClient {
            http: reqwest::Client::builder().default_headers(headers).build().unwrap(),
            base: format!("http://{}", self.addr),
        }
    }

    /// The user `GET /api/me` reports for a replayed `sid` (`null` when the session is gone).
    pub async fn user_for_sid(&self, sid: &str) -> Value {
        let (status, body) = self.client_with_sid(sid).get("/api/me").await;
        assert_eq!(status, StatusCode::OK);
        body["user"].clone()
    }

    /// How many items are stored, read from the store rather than over HTTP.
    pub async fn item_count(&self) -> usize {
        match self.store.count_items(&Default::default()).await.unwrap() {
            Count::Exact(count) => count as usize,
            estimated => panic!("tests keep fewer items than an exact count reads: {estimated:?}"),
        }
    }

    /// How many sessions are stored.
    pub async fn session_count(&self) -> usize {
        self.db.count("sessions").await
    }

    /// Another client logged in as existing account `id` (another device).
    pub async fn logged_in_again(&self, id: &str) -> TestClient {
        let client = self.client();
        let (status, _) = client.login(id, &password_of(id)).await;
        assert_eq!(status, StatusCode::OK);
        client
    }

    /// A client logged in as a new account.
    pub async fn logged_in(&self, id: &str, admin: bool) -> TestClient {
        self.add_user(id, admin).await;
        self.logged_in_again(id).await
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Creates an account through the store, as the command line does.
pub async fn create_account(store: &Store, passwords: &Passwords, id: &str, name: &str, admin: bool, password: &str) {
    let account = NewAccount::new(id, name, password, Role::from_admin_flag(admin), None).unwrap();
    add_user(store, passwords, &account).await.unwrap();
}

/// A new password, checked.
pub fn new_password(password: &str) -> Password {
    Password::parse(password).unwrap()
}

pub fn password_of(id: &str) -> String {
    format!("password-{id}")
}

/// A cookie-keeping HTTP client pointed at one server; every call returns status and JSON.
#[derive(Clone)]
pub struct TestClient {
    pub http: reqwest::Client,
    pub base: String,
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl TestClient {
    /// A client with its own cookie jar, pointed at `base` (`http://host:port`).
    pub fn new(base: String) -> Self {
        Self {
            http: reqwest::Client::builder().cookie_store(true).build().unwrap(),
            base,
        }
    }

    /// Points the same cookie jar at another server (a restarted one, another node).
    pub fn at(&self, app: &TestApp) -> Self {
        Self {
            http: self.http.clone(),
            base: format!("http://{}", app.addr),
        }
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        let (status, headers, text) = self.send_raw(request).await;
        let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text:?}"));
        Answer { status, headers, body }
    }

    /// Status, headers and the body exactly as received.
    pub async fn send_raw(&self, request: reqwest::RequestBuilder) -> (StatusCode, HeaderMap, String) {
        let response = request.send().await.expect("request sent");
        let (status, headers) = (response.status(), response.headers().clone());
        (status, headers, response.text().await.unwrap())
    }

    pub fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, format!("{}{path}", self.base))
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let a = self.send(self.request(reqwest::Method::GET, path)).await;
        (a.status, a.body)
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let a = self.send(self.request(reqwest::Method::POST, path).json(&body)).await;
        (a.status, a.body)
    }

    pub async fn patch(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let a = self.send(self.request(reqwest::Method::PATCH, path).json(&body)).await;
        (a.status, a.body)
    }

    pub async fn delete(&self, path: &str) -> (StatusCode, Value) {
        let a = self.send(self.request(reqwest::Method::DELETE, path)).await;
        (a.status, a.body)
    }

    pub async fn delete_with(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let a = self.send(self.request(reqwest::Method::DELETE, path).json(&body)).await;
        (a.status, a.body)
    }

    pub async fn login(&self, id: &str, pw: &str) -> (StatusCode, Value) {
        self.post("/api/login", serde_json::json!({ "id": id, "pw": pw })).await
    }

    /// A login with the whole answer, headers included.
    pub async fn login_answer(&self, id: &str, pw: &str) -> Answer {
        let body = json!({ "id": id, "pw": pw });
        self.send(self.request(reqwest::Method::POST, "/api/login").json(&body))
            .await
    }

    /// Creates an item and returns it, failing the test unless that succeeded.
    pub async fn create_item(&self, body: Value) -> Value {
        let (status, item) = self.post("/api/items", body).await;
        assert_eq!(status, StatusCode::OK, "{item}");
        item
    }
}

impl Answer {
    /// The `Set-Cookie` header that sets `sid`.
    pub fn sid_cookie(&self) -> String {
        let cookies: Vec<&str> = self
            .headers
            .get_all(header::SET_COOKIE)
            .iter()
            .map(|v| v.to_str().unwrap())
            .filter(|c| c.starts_with("sid="))
            .collect();
        assert_eq!(cookies.len(), 1, "exactly one sid cookie in {:?}", self.headers);
        cookies[0].to_owned()
    }

    /// The value of the `sid` cookie set by this answer.
    pub fn sid(&self) -> String {
        let cookie = self.sid_cookie();
        cookie["sid=".len()..].split(';').next().unwrap().to_owned()
    }
}

/// Asserts a production error answer: the status and a body of exactly `{"error": message}`.
#[track_caller]
pub fn assert_error(answer: &(StatusCode, Value), status: StatusCode, message: &str) {
    assert_eq!(answer.0, status, "{}", answer.1);
    assert_eq!(answer.1, json!({ "error": message }));
}

pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Makes item `id` look reported `days` earlier.
pub async fn moved_back(app: &TestApp, id: i64, days: i64) {
    app.db
        .sql(&format!(
            "UPDATE items SET created_at = created_at - {} WHERE id = {id}",
            days * DAY_MS
        ))
        .await;
}

/// The path of an item, from its JSON.
/// The `id` of each object of a JSON list, in its order.
pub fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap_or_else(|| panic!("not a list: {list}"))
        .iter()
        .map(|v| v["id"].as_i64().unwrap())
        .collect()
}

/// `item` as everyone but its reporter and staff see it (`LOSTFOUND_PUBLIC_VIEW=limited`, a
/// category not marked sensitive): who reported it and where it is kept withheld.
pub fn in_public_view(item: &Value) -> Value {
    let mut item = item.clone();
    for key in ["storagePlace", "createdBy"] {
        if item.get(key).is_some() {
            item[key] = Value::Null;
        }
    }
    item
}

pub fn item_path(item: &Value) -> String {
    format!("/api/items/{}", item["id"].as_i64().expect("an integer id"))
}

/// A minimal valid item body.
pub fn item_body(title: &str) -> Value {
    serde_json::json!({ "title": title, "lat": 51.5, "lng": -0.12 })
}

/// A 1×1 PNG as a data URL.
pub const PNG_DATA_URL: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/// A PNG of `width` × `height` pixels: random noise (which does not compress) or a gradient.
pub fn png(width: u32, height: u32, noise: bool) -> Vec<u8> {
    let image = image::RgbImage::from_fn(width, height, |x, y| {
        if noise {
            image::Rgb(rand::random())
        } else {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 90])
        }
    });
    let mut bytes = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
        .unwrap();
    bytes
}

/// `bytes` as a `data:` URL of type `mime`.
pub fn data_url(mime: &str, bytes: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// The value for a `Cookie` header of a fresh session of `id`.
pub async fn session_cookie(app: &TestApp, id: &str) -> String {
    let response = reqwest::Client::new()
        .post(app.url("/api/login"))
        .json(&json!({ "id": id, "pw": password_of(id) }))
        .send()
        .await
        .unwrap();
    let set_cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
    set_cookie.split(';').next().unwrap().to_owned()
}

/// A client with a cookie jar of its own whose connections come from `addr` (127.0.0.x).
pub fn client_at(app: &TestApp, addr: &str) -> TestClient {
    TestClient {
        http: reqwest::Client::builder()
            .cookie_store(true)
            .local_address(addr.parse::<IpAddr>().unwrap())
            .build()
            .unwrap(),
        base: app.url(""),
    }
}

/// Writes `items` into `store` as `lostfound items import` writes a file of them (a line an
/// item, 1,000 a transaction), under the file name `name`.
pub async fn import_into(store: &Store, name: &str, mut items: Vec<lostfound::domain::ImportedItem>) {
    store.item_import(name, lostfound::time::now_ms()).await.unwrap();
    let mut from_line = 0;
    while !items.is_empty() {
        let rest = items.split_off(items.len().min(1_000));
        let batch = std::mem::replace(&mut items, rest);
        let step = lostfound::store::ImportStep {
            file_sha256: name,
            from_line,
            to_line: from_line + batch.len() as i64,
            finished_at: None,
        };
        from_line = step.to_line;
        assert!(store.import_items(batch, &step).await.unwrap());
    }
}

/// An approved found item reported by `finder` and shelved; its id.
pub async fn shelved_item(admin: &TestClient, finder: &TestClient, title: &str) -> i64 {
    let item = finder
        .create_item(json!({ "title": title, "kind": "found", "lat": 51.5, "lng": -0.12 }))
        .await;
    let patch = json!({ "status": "approved", "storagePlace": "Safe, drawer 2" });
    let (status, _) = admin.patch(&item_path(&item), patch).await;
    assert_eq!(status, StatusCode::OK);
    item["id"].as_i64().unwrap()
}

/// `claimant`'s claim on `item`, accepted by `admin`: its path.
pub async fn accepted_claim(admin: &TestClient, claimant: &TestClient, item: i64) -> String {
    let (status, claim) = claimant
        .post(
            &format!("/api/items/{item}/claims"),
            json!({ "message": "Mine: a keyring inside" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{claim}");
    let path = format!("/api/claims/{}", claim["id"]);
    let (status, accepted) = admin.patch(&path, json!({ "status": "accepted" })).await;
    assert_eq!(
        (status, &accepted["status"]),
        (StatusCode::OK, &json!("accepted")),
        "{accepted}"
    );
    path
}
