//! `lostfound user add|list|passwd|remove` and `lostfound items import`, run as the real binary on a
//! test database.

use std::{
    io::Write,
    process::{Output, Stdio},
    time::Duration,
};

use lostfound::{config::Mode, domain::ImportedItem, store::ImportStep};
use reqwest::StatusCode;
use serde_json::json;
use tokio::{io::AsyncWriteExt, process::Command};

use crate::helpers::*;

/// Runs `lostfound user <args>` on `db`, writing `stdin` (if any) as its standard input.
async fn user_command(db: &TestDb, args: &[&str], stdin: Option<&str>) -> Output {
    user_command_on(db.url(), args, stdin).await
}

/// Runs `lostfound user <args>` on the database at `url`.
async fn user_command_on(url: &str, args: &[&str], stdin: Option<&str>) -> Output {
    command_on(url, "user", args, stdin).await
}

/// Runs `lostfound <command> <args>` on the database at `url`, writing `stdin` (if any) as its
/// standard input.
pub async fn command_on(url: &str, command: &str, args: &[&str], stdin: Option<&str>) -> Output {
    command_with_env(url, command, args, &[], stdin).await
}

/// [`command_on`] with more environment variables.
pub async fn command_with_env(
    url: &str,
    command: &str,
    args: &[&str],
    env: &[(&str, &str)],
    stdin: Option<&str>,
) -> Output {
    let mut command = Command::from(lostfound(&[], url, command, args));
    let mut child = command
        .envs(env.iter().copied())
        .kill_on_drop(true)
        .spawn()
        .expect("the lostfound binary starts");
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).await.unwrap();
    }
    drop(input);
    tokio::time::timeout(std::time::Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("the command finishes within 60 s")
        .unwrap()
}

/// `lostfound <command> <args>` on the database at `url`, its standard streams piped; run by
/// `runner` (a program and its arguments, as `time` runs one) when that is not empty.
fn lostfound(runner: &[&str], url: &str, command: &str, args: &[&str]) -> std::process::Command {
    let mut argv = runner.to_vec();
    argv.extend([env!("CARGO_BIN_EXE_lostfound"), command]);
    argv.extend(args);
    let mut lostfound = std::process::Command::new(argv[0]);
    lostfound
        .args(&argv[1..])
        .env("DATABASE_URL", url)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    lostfound
}

/// Runs a command that must succeed; returns its standard output.
async fn succeeds(db: &TestDb, args: &[&str], stdin: Option<&str>) -> String {
    let output = user_command(db, args, stdin).await;
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{args:?} failed: {stderr}");
    stdout.into_owned()
}

/// Runs a command that must fail; returns its standard error.
async fn fails(db: &TestDb, args: &[&str], stdin: Option<&str>) -> String {
    let output = user_command(db, args, stdin).await;
    assert!(!output.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The `user list` row of `id`, split into words.
async fn listed(db: &TestDb, id: &str) -> Option<Vec<String>> {
    let out = succeeds(db, &["list"], None).await;
    out.lines()
        .map(|line| line.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .find(|words| words.first().map(String::as_str) == Some(id))
}

#[tokio::test]
async fn accounts_made_on_the_command_line_log_in() {
    let db = TestDb::new().await;
    succeeds(
        &db,
        &["add", "alice", "--name", "Alice Student", "--password-stdin"],
        Some("alice-pass-1\n"),
    )
    .await;
    succeeds(
        &db,
        &["add", "boss", "--name", "Front Desk", "--admin", "--password-stdin"],
        Some("boss-pass-1\n"),
    )
    .await;
    let alice_row = listed(&db, "alice").await.expect("alice listed");
    assert!(alice_row.contains(&"member".to_owned()) && alice_row.join(" ").contains("Alice Student"));
    let boss_row = listed(&db, "boss").await.expect("boss listed");
    assert!(boss_row.contains(&"administrator".to_owned()) && boss_row.join(" ").contains("Front Desk"));

    // Stored as Argon2id hashes only.
    let hashes = db.sql("SELECT password_hash FROM users ORDER BY id").await;
    assert!(hashes.iter().all(|h| h.starts_with("$argon2id$")), "{hashes:?}");
    assert!(
        !hashes
            .iter()
            .any(|h| h.contains("alice-pass-1") || h.contains("boss-pass-1"))
    );

    let app = TestApp::start(db, Mode::Production).await;
    let alice = app.client();
    let (status, body) = alice.login("alice", "alice-pass-1").await;
    let user = json!({ "id": "alice", "name": "Alice Student", "isAdmin": false });
    assert_eq!((status, body), (StatusCode::OK, json!({ "ok": true, "user": user })));
    let (status, body) = app.client().login("boss", "boss-pass-1").await;
    assert_eq!((status, &body["user"]["isAdmin"]), (StatusCode::OK, &json!(true)));

    // A new password: the old one stops working and the running session ends.
    succeeds(
        &app.db,
        &["passwd", "alice", "--password-stdin"],
        Some("alice-pass-2\n"),
    )
    .await;
    assert_eq!(alice.get("/api/me").await.1, json!({ "user": null }));
    let answer = app.client().login("alice", "alice-pass-1").await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "Invalid password");
    assert_eq!(alice.login("alice", "alice-pass-2").await.0, StatusCode::OK);

    // Removal ends the session and the account.
    succeeds(&app.db, &["remove", "alice"], None).await;
    assert_eq!(alice.get("/api/me").await.1, json!({ "user": null }));
    let answer = app.client().login("alice", "alice-pass-2").await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "Invalid password");
    assert_eq!(listed(&app.db, "alice").await, None);
    assert!(listed(&app.db, "boss").await.is_some());
}

#[tokio::test]
async fn staff_are_put_at_sites_on_the_command_line() {
    let db = TestDb::new().await;
    succeeds(
        &db,
        &["add", "lee", "--name", "Lee", "--password-stdin"],
        Some("lee-pass-12\n"),
    )
    .await;
    command_on(db.url(), "site", &["add", "Gym"], None).await;
    let out = succeeds(&db, &["sites", "lee", "2", "1"], None).await;
    assert!(
        out.contains("'lee' (staff) in ") && out.contains("works at sites 1, 2"),
        "{out}"
    );
    assert_eq!(listed(&db, "lee").await.unwrap()[1..3], ["staff", "1,2"]);
    let err = fails(&db, &["sites", "lee", "7"], None).await;
    assert!(err.contains("no such site in"), "{err}");
    assert_eq!(listed(&db, "lee").await.unwrap()[2], "1,2", "nothing changed");
    assert!(
        fails(&db, &["sites", "nobody", "1"], None)
            .await
            .contains("no user 'nobody'")
    );
    let out = succeeds(&db, &["sites", "lee"], None).await;
    assert!(out.contains("works at no site"), "{out}");
    assert_eq!(listed(&db, "lee").await.unwrap()[1], "member");
}

#[tokio::test]
async fn command_line_mistakes_fail_with_a_clear_message() {
    let db = TestDb::new().await;
    succeeds(
        &db,
        &["add", "alice", "--name", "Alice", "--password-stdin"],
        Some("alice-pass-1\n"),
    )
    .await;

    let stderr = fails(
        &db,
        &["add", "alice", "--name", "Other", "--password-stdin"],
        Some("other-pass-1\n"),
    )
    .await;
    assert!(
        stderr.contains("alice") && stderr.contains("already exists"),
        "{stderr}"
    );
    let stderr = fails(
        &db,
        &["add", "carol", "--name", "Carol", "--password-stdin"],
        Some("1234567\n"),
    )
    .await;
    assert!(stderr.contains("at least 8"), "{stderr}");
    assert_eq!(listed(&db, "carol").await, None);
    let stderr = fails(
        &db,
        &["add", "has space", "--name", "X", "--password-stdin"],
        Some("long-enough\n"),
    )
    .await;
    assert!(stderr.to_lowercase().contains("user id"), "{stderr}");

    let stderr = fails(&db, &["passwd", "alice", "--password-stdin"], Some("short\n")).await;
    assert!(stderr.contains("at least 8"), "{stderr}");
    let stderr = fails(&db, &["passwd", "ghost", "--password-stdin"], Some("ghost-pass-1\n")).await;
    assert!(stderr.contains("no user 'ghost'"), "{stderr}");
    let stderr = fails(&db, &["remove", "ghost"], None).await;
    assert!(stderr.contains("no user 'ghost'"), "{stderr}");

    // The account is as it was: the first password still logs in, nothing else was added.
    let out = succeeds(&db, &["list"], None).await;
    assert_eq!(out.lines().count(), 3, "the database, a header and alice: {out}");
    let app = TestApp::start(db, Mode::Production).await;
    let (status, body) = app.client().login("alice", "alice-pass-1").await;
    assert_eq!((status, &body["user"]["name"]), (StatusCode::OK, &json!("Alice")));
}

#[tokio::test]
async fn commands_name_their_database_and_only_add_creates_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("elsewhere.db");
    let url = format!("sqlite://{}", path.display());
    let named = format!("the SQLite database {}", path.display());
    for args in [
        &["list"][..],
        &["passwd", "alice", "--password-stdin"],
        &["remove", "alice"],
    ] {
        let output = user_command_on(&url, args, Some("alice-pass-1\n")).await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            stderr.contains(&format!("there is no database at {}", path.display())),
            "{args:?}: {stderr}"
        );
        assert!(!path.exists(), "{args:?} created the database");
    }
    let output = user_command_on(
        &url,
        &["add", "alice", "--name", "Alice", "--password-stdin"],
        Some("alice-pass-1\n"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && stdout.contains(&named), "{stdout}");
    for args in [
        &["list"][..],
        &["passwd", "alice", "--password-stdin"],
        &["remove", "alice"],
    ] {
        let output = user_command_on(&url, args, Some("alice-pass-2\n")).await;
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success() && stdout.contains(&named), "{args:?}: {stdout}");
    }
}

#[tokio::test]
async fn unlock_forgets_the_failed_logins_against_an_account() {
    let db = TestDb::new().await;
    succeeds(
        &db,
        &["add", "alice", "--name", "Alice", "--password-stdin"],
        Some("alice-pass-1\n"),
    )
    .await;
    let app = TestApp::start(db, Mode::Production).await;
    let client = app.client();
    for _ in 0..5 {
        assert_eq!(
            client.login("alice", "wrong-password").await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        client.login("alice", "alice-pass-1").await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    let out = succeeds(&app.db, &["unlock", "alice"], None).await;
    assert!(out.contains("unlocked 'alice'"), "{out}");
    assert_eq!(client.login("alice", "alice-pass-1").await.0, StatusCode::OK);
    let stderr = fails(&app.db, &["unlock", "ghost"], None).await;
    assert!(stderr.contains("no user 'ghost'"), "{stderr}");
}

#[tokio::test]
async fn email_addresses_are_set_on_the_command_line() {
    let db = TestDb::new().await;
    succeeds(
        &db,
        &["add", "ann", "--name", "Ann", "--email", " ann@uni.example "],
        Some("ann-password-1"),
    )
    .await;
    assert_eq!(
        db.sql("SELECT email FROM users WHERE id = 'ann'").await,
        ["ann@uni.example"]
    );
    let said = succeeds(&db, &["set-email", "ann", "ann.b@uni.example"], None).await;
    assert!(said.contains("ann.b@uni.example"), "{said}");
    assert_eq!(
        db.sql("SELECT email FROM users WHERE id = 'ann'").await,
        ["ann.b@uni.example"]
    );

    assert!(
        fails(&db, &["set-email", "ann", "not-an-address"], None)
            .await
            .contains("Invalid email")
    );
    assert!(
        fails(&db, &["set-email", "nobody", "x@uni.example"], None)
            .await
            .contains("no user 'nobody'")
    );
    // A bad address adds no account.
    let said = fails(
        &db,
        &["add", "bo", "--name", "Bo", "--email", "bo@"],
        Some("bo-password-12"),
    )
    .await;
    assert!(said.contains("Invalid email"), "{said}");
    assert_eq!(listed(&db, "bo").await, None);
    assert_eq!(
        db.sql("SELECT email FROM users WHERE id = 'ann'").await,
        ["ann.b@uni.example"]
    );
}

/// `lostfound items import`: a file with a refused line adds nothing; a good one adds its
/// items as they were (reporter, time, status, place in words, shelf), tells nobody, and the
/// service lists and searches them like any other.
#[tokio::test]
async fn items_kept_elsewhere_are_imported_as_they_were() {
    let app = spawn_app().await;
    let desk = app.logged_in("desk", true).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("items.jsonl");
    let import = async |lines: &[serde_json::Value]| {
        let text: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
        std::fs::write(&file, text.join("\n\n")).unwrap();
        command_on(app.db.url(), "items", &["import", file.to_str().unwrap()], None).await
    };
    let scarf = json!({
        "title": "Old tartan scarf", "lat": 51.52, "lng": -0.13, "kind": "found", "cat": "clothing",
        "status": "approved", "place": "Library, 2nd floor", "storagePlace": "Shelf C",
        "createdBy": "alice", "createdAt": 1_700_000_000_000_i64,
    });
    let keys = json!({
        "title": "Bike keys", "lat": 51.52, "lng": -0.13, "kind": "lost",
        "createdBy": "bob", "createdAt": 1_700_000_500_000_i64,
    });

    let future =
        json!({ "title": "Later", "lat": 1, "lng": 1, "createdBy": "bob", "createdAt": 99_999_999_999_999_i64 });
    let refused = import(&[
        scarf.clone(),
        json!([1]),
        future,
        json!({ "title": "Nobody's", "lat": 1, "lng": 1, "createdAt": 1 }),
    ])
    .await;
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    for said in [
        "has 3 refused lines; nothing was imported",
        "line 3: not a JSON object",
        "line 5: createdAt must be",
        "line 7: createdBy is required",
    ] {
        assert!(stderr.contains(said), "{said:?} missing from {stderr}");
    }
    assert_eq!(desk.get("/api/items").await, (StatusCode::OK, json!([])));

    let imported = import(&[scarf, keys]).await;
    let stdout = String::from_utf8_lossy(&imported.stdout);
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );
    assert!(stdout.contains("imported 2 of 2 items"), "{stdout}");
    let listed = desk
        .get("/api/items?q=library&fields=title,created_at,createdBy,place,status")
        .await;
    let scarf = json!({
        "title": "Old tartan scarf", "created_at": "2023-11-14T22:13:20.000Z", "createdBy": "alice",
        "place": "Library, 2nd floor", "status": "approved",
    });
    assert_eq!(listed, (StatusCode::OK, json!([scarf])));
    let (_, pending) = desk
        .get("/api/items?status=pending&fields=title,createdBy,storagePlace")
        .await;
    assert_eq!(
        pending,
        json!([{ "title": "Bike keys", "createdBy": "bob", "storagePlace": null }])
    );
    // Old news: no review is asked for, no match announced.
    assert_eq!(desk.get("/api/notifications").await, (StatusCode::OK, json!([])));
}

/// Runs `lostfound items import FILE` on `db` to its end; returns its exit status, standard
/// output and standard error.
async fn import_items(db: &TestDb, file: &std::path::Path) -> (bool, String, String) {
    let output = command_on(db.url(), "items", &["import", file.to_str().unwrap()], None).await;
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// One line of an items file: item `n`, titled `Item n`.
fn item_line(n: usize) -> String {
    json!({ "title": format!("Item {n}"), "lat": 51.52, "lng": -0.13, "createdBy": "desk", "createdAt": 1_700_000_000_000_i64 })
        .to_string()
}

#[tokio::test]
async fn an_items_file_may_start_with_a_byte_order_mark() {
    let app = spawn_app().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("items.jsonl");
    // As spreadsheet programs on Windows save UTF-8.
    std::fs::write(&file, format!("\u{FEFF}{}\r\n{}\r\n", item_line(1), item_line(2))).unwrap();
    let (ok, stdout, stderr) = import_items(&app.db, &file).await;
    assert!(ok, "{stderr}");
    assert!(stdout.contains("imported 2 of 2 items"), "{stdout}");
    assert_eq!(
        app.db.sql("SELECT title FROM items ORDER BY id").await,
        ["Item 1", "Item 2"]
    );
}

/// An import writes many items to a statement (32 on PostgreSQL, 200 on SQLite): each row as
/// a single report would be — in the file's order around the ones with a photo, each at its
/// nearest site — across the statements' edges.
#[tokio::test]
async fn a_long_file_keeps_its_order_photos_and_nearest_sites() {
    const ITEMS: u32 = 450;
    const WITH_PHOTO: [u32; 2] = [34, 250];
    let app = spawn_app().await;
    let desk = app.logged_in("desk", true).await;
    let site = async |name: &str, lat: f64| {
        let (_, site) = desk
            .post("/api/sites", json!({ "name": name, "lat": lat, "lng": -0.13 }))
            .await;
        site["id"].as_i64().unwrap()
    };
    let (north, south) = (site("North", 51.60).await, site("South", 51.40).await);
    let photo = data_url("image/png", &png(40, 30, true));
    let lines: Vec<String> = (1..=ITEMS)
        .map(|n| {
            let mut line = json!({ "title": format!("Item {n}"), "lat": if n.is_multiple_of(2) { 51.59 } else { 51.41 },
                "lng": -0.13, "createdBy": "desk", "createdAt": 1_700_000_000_000_i64 + i64::from(n) });
            if WITH_PHOTO.contains(&n) {
                line["imgData"] = json!(photo);
            }
            line.to_string()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("items.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let (ok, stdout, stderr) = import_items(&app.db, &file).await;
    assert!(ok, "{stderr}");
    assert!(stdout.contains("imported 450 of 450 items"), "{stdout}");
    let rows = app
        .db
        .sql(
            "SELECT title || ' at ' || site_id || (CASE WHEN photo_version IS NULL THEN '' ELSE ' with a photo' END) \
             FROM items ORDER BY id",
        )
        .await;
    let expected: Vec<String> = (1..=ITEMS)
        .map(|n| {
            let site = if n.is_multiple_of(2) { north } else { south };
            let photo = if WITH_PHOTO.contains(&n) { " with a photo" } else { "" };
            format!("Item {n} at {site}{photo}")
        })
        .collect();
    assert_eq!(rows, expected);
    let (_, found) = desk.get("/api/items?q=250&fields=title,photoUrl").await;
    assert_eq!(found[0]["title"], "Item 250");
    let photo = desk.request(reqwest::Method::GET, found[0]["photoUrl"].as_str().unwrap());
    assert_eq!(photo.send().await.unwrap().status(), StatusCode::OK);
}

/// How many items `db` holds, and how many different titles they have.
async fn items_and_titles(db: &TestDb) -> (usize, usize) {
    let count = async |query: &str| db.sql(query).await[0].parse::<usize>().unwrap();
    (
        count("SELECT CAST(COUNT(*) AS TEXT) FROM items").await,
        count("SELECT CAST(COUNT(DISTINCT title) AS TEXT) FROM items").await,
    )
}

#[tokio::test]
async fn an_items_import_killed_midway_is_resumed_and_adds_each_item_once() {
    const ITEMS: usize = 20_000;
    let app = spawn_app().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("items.jsonl");
    let lines: Vec<String> = (1..=ITEMS).map(item_line).collect();
    std::fs::write(&file, lines.join("\n")).unwrap();

    let mut first = Command::from(lostfound(
        &[],
        app.db.url(),
        "items",
        &["import", file.to_str().unwrap()],
    ))
    .kill_on_drop(true)
    .spawn()
    .unwrap();
    eventually("the first items committed", Duration::from_secs(60), async || {
        items_and_titles(&app.db).await.0 > 0
    })
    .await;
    first.start_kill().unwrap();
    first.wait().await.unwrap();
    let (written, _) = items_and_titles(&app.db).await;
    assert!(written < ITEMS, "the import ended before it was killed: make it larger");

    let (ok, stdout, stderr) = import_items(&app.db, &file).await;
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains(&format!("{written} of {ITEMS} items were imported by an earlier run")),
        "{stdout}"
    );
    assert_eq!(items_and_titles(&app.db).await, (ITEMS, ITEMS));
    // Once the whole file is in, running it again adds nothing.
    let (ok, stdout, stderr) = import_items(&app.db, &file).await;
    assert!(ok, "{stderr}");
    assert!(stdout.contains("nothing added"), "{stdout}");
    assert_eq!(items_and_titles(&app.db).await, (ITEMS, ITEMS));
}

/// Two runs of one file at once: a batch commits only from where the file's import stands,
/// so the lines one run wrote are never written by the other.
#[tokio::test]
async fn two_runs_of_one_import_never_write_the_same_lines() {
    let app = spawn_app().await;
    let now = lostfound::time::now_ms();
    let body = serde_json::from_str::<serde_json::Value>(&item_line(1)).unwrap();
    let item = || ImportedItem::parse(body.as_object().unwrap(), now).unwrap();
    let progress = app.store.item_import("items.jsonl", now).await.unwrap();
    assert_eq!((progress.lines_done, progress.finished_at), (0, None));
    let step = ImportStep {
        file_sha256: "items.jsonl",
        from_line: 0,
        to_line: 1,
        finished_at: Some(now),
    };
    assert!(app.store.import_items(vec![item()], &step).await.unwrap());
    assert!(!app.store.import_items(vec![item()], &step).await.unwrap());
    assert_eq!(items_and_titles(&app.db).await, (1, 1));
    let progress = app.store.item_import("items.jsonl", now).await.unwrap();
    assert_eq!((progress.lines_done, progress.items_done), (1, 1));
}

/// `lostfound items import FILE` on `db`, and its peak resident set in KiB. GNU time forks the
/// command from its own small process and reports the command's peak as the kernel counted it
/// (a process started from this one would be charged with this one's memory).
async fn import_with_peak(db: &TestDb, file: &std::path::Path, dir: &std::path::Path) -> (Output, usize) {
    let peak_file = dir.join("peak");
    let time = ["/usr/bin/time", "-o", peak_file.to_str().unwrap(), "-f", "%M"];
    let mut import = lostfound(&time, db.url(), "items", &["import", file.to_str().unwrap()]);
    // A backtrace read at exit would take more memory than the import.
    import.env_remove("RUST_BACKTRACE").env_remove("RUST_LIB_BACKTRACE");
    let output = Command::from(import)
        .output()
        .await
        .expect("GNU time runs the import (apt-get install time)");
    let peak = std::fs::read_to_string(&peak_file).unwrap();
    (output, peak.lines().last().unwrap().parse().unwrap())
}

/// An import reads a batch while the one before is written: what it holds is bounded by the
/// batches' bytes, not by their count of lines, so three times as many lines with a photo do
/// not take memory in proportion.
#[tokio::test]
async fn an_import_of_photos_holds_a_bounded_part_of_the_file() {
    const LINES: usize = 32;
    let db = TestDb::new().await;
    let dir = tempfile::tempdir().unwrap();
    let photo = data_url("image/png", &png(800, 800, true));
    let peak_of = async |lines: usize| {
        let file = dir.path().join(format!("{lines}.jsonl"));
        let mut items = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        for n in 1..=lines {
            let mut line: serde_json::Value = serde_json::from_str(&item_line(n)).unwrap();
            line["imgData"] = json!(photo);
            writeln!(items, "{line}").unwrap();
        }
        items.flush().unwrap();
        let (output, peak_kib) = import_with_peak(&db, &file, dir.path()).await;
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        peak_kib
    };
    let (few, more) = (peak_of(LINES).await, peak_of(3 * LINES).await);
    // Held by count, a peak grew by about the photos added (twice the lines: 201 → 264 MB for
    // 61 MB more photos). Bounded, it grows only by what the allocator keeps between batches
    // (twice the lines: up to 31 MB seen in a debug build), under half the photos added.
    let added_kib = (2 * LINES * photo.len() / 4 * 3) >> 10;
    assert!(
        more < few + added_kib / 2,
        "{} lines with a photo peaked at {more} KiB, {LINES} at {few} KiB",
        3 * LINES
    );
    assert_eq!(items_and_titles(&db).await, (4 * LINES, 3 * LINES));
}

#[tokio::test]
async fn an_items_file_with_a_huge_line_is_refused_in_bounded_memory() {
    const LINE_BYTES: usize = 256 << 20;
    let db = TestDb::new().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("items.jsonl");
    let mut items = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
    writeln!(items, "{}", item_line(1)).unwrap();
    write!(items, r#"{{"title":""#).unwrap();
    for _ in 0..LINE_BYTES >> 20 {
        items.write_all(&[b'x'; 1 << 20]).unwrap();
    }
    writeln!(items, r#""}}"#).unwrap();
    writeln!(items, "{}", item_line(3)).unwrap();
    items.flush().unwrap();

    let (output, peak_kib) = import_with_peak(&db, &file, dir.path()).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("line 2 is longer than 8 MiB, the most a line may hold: nothing was imported"),
        "{stderr}"
    );
    assert!(
        peak_kib << 10 < LINE_BYTES / 2,
        "the import peaked at {peak_kib} KiB for a line of {} MiB",
        LINE_BYTES >> 20
    );
    assert_eq!(items_and_titles(&db).await, (0, 0), "nothing was imported");
}
