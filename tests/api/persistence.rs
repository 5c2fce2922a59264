//! State that must outlive the server: items, reviews and sessions.

use lostfound::{
    domain::NewItem,
    store::{Create, Store, StoreError},
};
use reqwest::StatusCode;
use serde_json::json;
use sqlx::Connection;

use crate::helpers::*;

#[tokio::test]
async fn items_and_sessions_survive_a_restart() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let admin = app.logged_in("admin", true).await;
    let mut body = item_body("Blue umbrella");
    body["imgData"] = json!(PNG_DATA_URL);
    let photo = alice.create_item(body).await;
    let plain = alice.create_item(item_body("Wallet")).await;
    let (_, reviewed) = admin
        .patch(
            &item_path(&plain),
            json!({ "status": "approved", "storagePlace": "Desk" }),
        )
        .await;
    let (_, before) = app.client().get("/api/items").await;
    assert_eq!(before, json!([in_public_view(&reviewed), in_public_view(&photo)]));

    let app = app.restart().await;
    let (alice, admin) = (alice.at(&app), admin.at(&app));
    assert_eq!(app.client().get("/api/items").await, (StatusCode::OK, before));
    assert_eq!(alice.get("/api/me").await.1["user"]["id"], "alice");
    assert_eq!(admin.get("/api/me").await.1["user"]["id"], "admin");

    // The restored sessions still carry their rights.
    assert_eq!(alice.post("/api/items", item_body("Keys")).await.0, StatusCode::OK);
    let answer = admin.patch(&item_path(&photo), json!({ "status": "rejected" })).await;
    assert_eq!((answer.0, &answer.1["status"]), (StatusCode::OK, &json!("rejected")));
}

#[tokio::test]
async fn logout_before_a_restart_stays_logged_out() {
    let app = spawn_app().await;
    app.add_user("alice", false).await;
    let (laptop, phone) = (app.client(), app.client());
    let ended = laptop.login_answer("alice", &password_of("alice")).await.sid();
    let kept = phone.login_answer("alice", &password_of("alice")).await.sid();
    laptop.post("/api/logout", json!({})).await;

    let app = app.restart().await;
    assert_eq!(app.user_for_sid(&ended).await, serde_json::Value::Null);
    // The other session of the same user was not ended by that logout.
    assert_eq!(app.user_for_sid(&kept).await["id"], "alice");
    assert_eq!(phone.at(&app).get("/api/me").await.1["user"]["id"], "alice");
}

#[tokio::test]
async fn nodes_on_one_database_share_items_sessions_and_the_throttle() {
    let node_a = spawn_app().await;
    let node_b = node_a.another_node().await;
    node_a.add_user("alice", false).await;
    let alice_a = node_a.client();
    let sid = alice_a.login_answer("alice", &password_of("alice")).await.sid();
    let alice_b = alice_a.at(&node_b);
    assert_eq!(alice_b.get("/api/me").await.1["user"]["id"], "alice");
    let item = alice_b.create_item(item_body("Umbrella")).await;
    assert_eq!(
        node_a.client().get(&item_path(&item)).await,
        (StatusCode::OK, in_public_view(&item))
    );

    alice_b.post("/api/logout", json!({})).await;
    assert_eq!(node_a.user_for_sid(&sid).await, serde_json::Value::Null);

    // Failures on either node count towards one limit.
    for node in [&node_a, &node_b, &node_a, &node_b, &node_a] {
        let answer = node.client().login("alice", "wrong-password").await;
        assert_error(&answer, StatusCode::UNAUTHORIZED, "Invalid password");
    }
    let answer = node_b.client().login("alice", &password_of("alice")).await;
    assert_eq!(answer.0, StatusCode::TOO_MANY_REQUESTS, "{}", answer.1);
}

/// The database is one file an operator may copy.
mod sqlite_only {
    use super::*;

    #[tokio::test]
    async fn after_a_clean_stop_the_sqlite_file_alone_holds_everything() {
        require_sqlite();
        let mut app = spawn_app().await;
        let path = std::path::PathBuf::from(app.db.url().strip_prefix("sqlite://").unwrap());
        let alice = app.logged_in("alice", false).await;
        alice.create_item(item_body("Last before the stop")).await;
        app.stop().await;
        // Every connection of the stopped server is closed, though the test still holds its
        // store: the last one wrote the log back and removed it. (One left open held the file
        // while the next server started on it.)
        let log = path.with_extension("db-wal");
        assert!(!log.exists(), "{} is left", log.display());

        // What an operator copying the database file (without `-wal`) gets.
        let copy = tempfile::tempdir().unwrap();
        let file = copy.path().join("copy.db");
        std::fs::copy(&path, &file).unwrap();
        let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", file.display()))
            .await
            .unwrap();
        let titles: Vec<String> = sqlx::query_scalar("SELECT title FROM items")
            .fetch_all(&mut conn)
            .await
            .unwrap();
        assert_eq!(titles, ["Last before the stop"]);
    }
}

/// Reports written at once share commits on SQLite; one that breaks a rule (a site that does
/// not exist) fails alone, with `Conflict`, and every report beside it is stored. On
/// PostgreSQL each is a transaction of its own: the same holds.
#[tokio::test]
async fn a_report_that_fails_among_many_at_once_fails_alone() {
    let db = TestDb::new().await;
    let store = Store::connect(db.url(), Create::IfMissing).await.unwrap();
    let report = |title: String, site: Option<i64>| {
        let mut body = json!({ "title": title, "lat": 51.5, "lng": -0.1 });
        if let Some(site) = site {
            body["siteId"] = json!(site);
        }
        NewItem::parse(body.as_object().unwrap()).unwrap()
    };
    let mut writes = tokio::task::JoinSet::new();
    for n in 0..40_i64 {
        let mut reports = vec![report(format!("report {n}"), None)];
        if n == 20 {
            reports.push(report("nowhere".to_owned(), Some(9_999)));
        }
        for item in reports {
            let store = store.clone();
            writes.spawn(async move { store.insert_item(item, "alice", n).await.map(|stored| stored.unheard()) });
        }
    }
    let (mut stored, mut refused) = (Vec::new(), Vec::new());
    while let Some(outcome) = writes.join_next().await {
        match outcome.unwrap() {
            Ok(item) => stored.push(item.title),
            Err(err) => refused.push(err),
        }
    }
    assert_eq!(stored.len(), 40, "refused: {refused:?}");
    assert!(matches!(refused.as_slice(), [StoreError::Conflict(_)]), "{refused:?}");
    store.close().await;
    assert_eq!(db.count("items").await, 40);
}

/// A database of the release that kept the items' version in one row upgrades to a row for
/// each stripe of connections: every version given after the upgrade is above every one given
/// before, so no ETag can name two states of an item, nor of a list.
#[tokio::test]
async fn versions_given_after_the_upgrade_to_rows_of_versions_are_above_every_one_before() {
    let mut app = spawn_app().await;
    let desk = app.logged_in("desk", true).await;
    let scarf = desk.create_item(item_body("Blue scarf")).await;
    app.stop().await;
    // As the previous release left it: one row, whose version no item's is above.
    let mut downgrade = vec![
        "DROP VIEW item_version_stripe",
        "DELETE FROM item_list_version WHERE id <> 1",
        "UPDATE item_list_version SET version = 1000",
        "UPDATE items SET version = 1000",
        "DELETE FROM _sqlx_migrations WHERE version = 35",
    ];
    if app.db.url().starts_with("postgres") {
        downgrade.extend([
            "ALTER TABLE item_list_version DROP CONSTRAINT item_list_version_id_check",
            "ALTER TABLE item_list_version ADD CONSTRAINT item_list_version_id_check CHECK (id = 1)",
        ]);
    }
    for statement in downgrade {
        app.db.sql(statement).await;
    }

    let app = app.restart().await;
    let desk = desk.at(&app);
    let (status, _) = desk.patch(&item_path(&scarf), json!({ "status": "approved" })).await;
    assert_eq!(status, StatusCode::OK);
    for title in ["Red scarf", "Green scarf", "Black umbrella"] {
        desk.create_item(item_body(title)).await;
    }
    let versions = app.db.sql("SELECT CAST(version AS TEXT) FROM items ORDER BY id").await;
    assert_eq!(versions.len(), 4);
    for version in &versions {
        assert!(version.parse::<i64>().unwrap() > 1000, "{versions:?}");
    }
    let lists = app
        .db
        .sql("SELECT CAST(SUM(version) AS TEXT) FROM item_list_version")
        .await;
    assert!(lists[0].parse::<i64>().unwrap() > 1000, "{lists:?}");
}
