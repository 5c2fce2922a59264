//! `lostfound backup FILE`, run as the real binary beside a server that keeps writing.

use std::{
    path::Path,
    process::Output,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use reqwest::StatusCode;
use serde_json::json;
use sqlx::{Connection, SqliteConnection, sqlite::SqliteConnectOptions};

use crate::{
    cli::command_on,
    helpers::*,
    node::{Server, WAIT, add_account},
};

/// Runs `lostfound backup FILE` on the database at `url`.
async fn backup(url: &str, file: &Path) -> Output {
    command_on(url, "backup", &[file.to_str().unwrap()], None).await
}

/// Waits until `acknowledged` holds more than `count` ids.
async fn until_more_than(acknowledged: &Mutex<Vec<i64>>, count: usize) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while acknowledged.lock().unwrap().len() <= count {
        assert!(tokio::time::Instant::now() < deadline, "the writers stalled");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// What the command does with SQLite: a consistent copy.
mod sqlite_only {
    use super::*;

    #[tokio::test]
    async fn a_backup_taken_while_serving_holds_everything_acknowledged_before_it() {
        require_sqlite();
        let db = TestDb::new().await;
        add_account(&db, "writer", "writer-password").await;
        let server = Server::start(&db, &[]).await;
        let writer = server.client();
        assert_eq!(writer.login("writer", "writer-password").await.0, StatusCode::OK);

        // Writers keep creating items, each with a photo (noise, which does not compress).
        let photo = png(64, 64, true);
        let mut body = item_body("Umbrella with a photo");
        body["imgData"] = json!(data_url("image/png", &photo));
        let acknowledged: Arc<Mutex<Vec<i64>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let writers: Vec<_> = (0..2)
            .map(|_| {
                let (writer, body) = (writer.clone(), body.clone());
                let (acknowledged, stop) = (Arc::clone(&acknowledged), Arc::clone(&stop));
                tokio::spawn(async move {
                    while !stop.load(Ordering::Relaxed) {
                        let item = writer.create_item(body.clone()).await;
                        acknowledged.lock().unwrap().push(item["id"].as_i64().unwrap());
                    }
                })
            })
            .collect();
        until_more_than(&acknowledged, 20).await;

        let dir = tempfile::tempdir().unwrap();
        // A quote in the name: the name must reach SQLite as a value, not as SQL.
        let file = dir.path().join("lost'found.db");
        let before = acknowledged.lock().unwrap().clone();
        let output = backup(db.url(), &file).await;
        let (stdout, stderr) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        assert!(output.status.success(), "backup failed: {stderr}");
        assert!(stdout.contains(&format!("to {}", file.display())), "{stdout}");
        // The server kept taking writes through the backup and after it.
        let after = acknowledged.lock().unwrap().len();
        until_more_than(&acknowledged, after + 5).await;
        stop.store(true, Ordering::Relaxed);
        for writer in writers {
            writer.await.unwrap();
        }

        let options = SqliteConnectOptions::new().filename(&file).read_only(true);
        let mut snapshot = SqliteConnection::connect_with(&options)
            .await
            .expect("the snapshot opens");
        let integrity: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_all(&mut snapshot)
            .await
            .unwrap();
        assert_eq!(integrity, ["ok"]);
        let items: Vec<i64> = sqlx::query_scalar("SELECT id FROM items")
            .fetch_all(&mut snapshot)
            .await
            .unwrap();
        let with_photo: Vec<i64> = sqlx::query_scalar("SELECT item_id FROM photos WHERE bytes = $1")
            .bind(photo.as_slice())
            .fetch_all(&mut snapshot)
            .await
            .unwrap();
        snapshot.close().await.unwrap();
        for id in &before {
            assert!(
                items.contains(id),
                "item {id}, acknowledged before the backup, is missing"
            );
            assert!(with_photo.contains(id), "the photo of item {id} is missing");
        }

        // Restoring is copying the file back: a server started on the copy serves the photo.
        server.signal("-TERM").await;
        let restored = dir.path().join("restored.db");
        std::fs::copy(&file, &restored).unwrap();
        let server = Server::start_with(&format!("sqlite://{}", restored.display()), &[], &[]).await;
        let served = reqwest::get(format!("{}/api/items/{}/photo", server.url, before[0]))
            .await
            .unwrap();
        assert_eq!(served.status(), StatusCode::OK);
        assert_eq!(served.bytes().await.unwrap(), photo);
        server.signal("-TERM").await;
    }

    #[tokio::test]
    async fn a_backup_never_overwrites_a_file() {
        require_sqlite();
        let db = TestDb::new().await;
        add_account(&db, "someone", "someone-password").await;
        let dir = tempfile::tempdir().unwrap();
        // SQLite itself would write into an empty file.
        for content in ["yesterday's backup", ""] {
            let file = dir.path().join("taken.db");
            std::fs::write(&file, content).unwrap();
            let output = backup(db.url(), &file).await;
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(!output.status.success(), "overwrote {content:?}");
            assert!(
                stderr.contains(&format!("{} already exists", file.display())),
                "{stderr}"
            );
            assert_eq!(std::fs::read_to_string(&file).unwrap(), content);
        }

        // Nor does it back up a database that is not there (or leave a file behind).
        let missing = dir.path().join("missing.db");
        let file = dir.path().join("new.db");
        let output = backup(&format!("sqlite://{}", missing.display()), &file).await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && stderr.contains("there is no database"),
            "{stderr}"
        );
        assert!(!missing.exists() && !file.exists());
    }
}

/// What it says of PostgreSQL: back up with its own tools.
mod postgres_only {
    use super::*;

    #[tokio::test]
    async fn a_backup_of_postgres_points_to_pg_dump() {
        require_postgres();
        let db = TestDb::new().await;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("backup.db");
        let output = backup(db.url(), &file).await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success());
        assert!(
            stderr.contains("lostfound backup copies SQLite databases only") && stderr.contains("pg_dump"),
            "{stderr}"
        );
        assert!(!file.exists());
    }
}
