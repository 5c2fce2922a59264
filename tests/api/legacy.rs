//! A database made by the release before photos moved out of the item rows: its items get
//! their search and place columns and their photos move to the photo table at start-up,
//! byte for byte, with thumbnails; nothing is lost.

use std::str::FromStr;

use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection, SqliteConnection, migrate::Migrator, sqlite::SqliteConnectOptions};

use crate::helpers::*;

/// One of the earlier release's rows: `(title, descr, storage_place, lat, img_data)`.
type LegacyItem = (
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    f64,
    Option<String>,
);

/// The earlier release's rows.
fn legacy_items() -> Vec<LegacyItem> {
    let mut jpeg = Vec::new();
    image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(400, 800, |x, _| {
        image::Rgb([x as u8, 90, 200])
    }))
    .write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
    .unwrap();
    // The earlier release checked only the first bytes: this was accepted and stored.
    let mut not_an_image = b"\x89PNG\r\n\x1a\n".to_vec();
    not_an_image.resize(64, 0);
    vec![
        (
            "Blue umbrella",
            Some("Wooden handle"),
            None,
            51.5,
            Some(data_url("image/png", &png(640, 320, false))),
        ),
        ("Black backpack", None, None, 51.6, Some(data_url("image/jpeg", &jpeg))),
        (
            "Odd picture",
            None,
            None,
            51.7,
            Some(data_url("image/png", &not_an_image)),
        ),
        ("Café crème cup", None, Some("Desk B"), 51.8, None),
    ]
}

/// Makes `db` as the earlier release left it: its two migrations, an account, four items
/// (three with photos as data URLs) and a thread message.
async fn make_legacy_database(db: &TestDb) {
    let backend = if db.url().starts_with("postgres") {
        "postgres"
    } else {
        "sqlite"
    };
    let dir = tempfile::tempdir().unwrap();
    for migration in ["0001_core.sql", "0002_messages.sql"] {
        let source = format!("{}/migrations/{backend}/{migration}", env!("CARGO_MANIFEST_DIR"));
        std::fs::copy(source, dir.path().join(migration)).unwrap();
    }
    let migrator = Migrator::new(dir.path()).await.unwrap();
    let user =
        "INSERT INTO users (id, name, is_admin, password_hash, created_at) VALUES ('alice', 'Alice', FALSE, 'x', 0)";
    let item = "INSERT INTO items (title, descr, cat, img_data, lat, lng, radius, status, storage_place, created_at, created_by) \
                VALUES ($1, $2, NULL, $3, $4, -0.1, 10, 'approved', $5, $6, 'alice')";
    // Written lately: older messages would be past their retention, removed at start.
    let message = "INSERT INTO thread_messages (item_id, nick, body, created_at) VALUES (1, 'Ann', 'mine?', $1)";
    macro_rules! fill {
        ($conn:expr) => {{
            let mut conn = $conn;
            migrator.run(&mut conn).await.unwrap();
            sqlx::query(user).execute(&mut conn).await.unwrap();
            for (n, (title, descr, place, lat, img)) in legacy_items().into_iter().enumerate() {
                sqlx::query(item)
                    .bind(title)
                    .bind(descr)
                    .bind(img)
                    .bind(lat)
                    .bind(place)
                    .bind(1_700_000_000_000_i64 + n as i64)
                    .execute(&mut conn)
                    .await
                    .unwrap();
            }
            sqlx::query(message)
                .bind(lostfound::time::now_ms())
                .execute(&mut conn)
                .await
                .unwrap();
        }};
    }
    if backend == "postgres" {
        fill!(PgConnection::connect(db.url()).await.unwrap());
    } else {
        let options = SqliteConnectOptions::from_str(db.url())
            .unwrap()
            .create_if_missing(true);
        fill!(SqliteConnection::connect_with(&options).await.unwrap());
    }
}

#[tokio::test]
async fn an_earlier_releases_photos_move_out_byte_for_byte_with_thumbnails() {
    let db = TestDb::new().await;
    make_legacy_database(&db).await;
    let app = TestApp::start(db, lostfound::config::Mode::Production).await;
    let client = app.client();
    let legacy = legacy_items();

    // The contract's list: every item, each photo as the very data URL stored before.
    let (status, list) = client.get("/api/items").await;
    assert_eq!(status, StatusCode::OK);
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 4);
    for (item, (title, _, _, _, img)) in list.iter().rev().zip(&legacy) {
        assert_eq!(item["title"], *title);
        assert_eq!(item["imgData"], json!(img), "{title}");
        assert_eq!(item.as_object().unwrap().len(), 12);
    }
    // Moved out of the rows, into the photo table.
    assert_eq!(app.db.count("photos").await, 3);
    assert_eq!(
        app.db
            .sql("SELECT CAST(COUNT(*) AS TEXT) FROM items WHERE img_data IS NOT NULL")
            .await,
        ["0"]
    );
    assert_eq!(app.db.count("messages WHERE item_id IS NOT NULL").await, 1);

    let (_, pictures) = client.get("/api/items?fields=title,photoUrl,thumbUrl").await;
    let pictures: Vec<&Value> = pictures.as_array().unwrap().iter().rev().collect();
    let fetch = |path: &str| {
        let url = format!("{}{path}", client.base);
        let http = client.http.clone();
        async move {
            let answer = http.get(url).send().await.unwrap();
            let kind = answer.headers()["content-type"].to_str().unwrap().to_owned();
            (kind, answer.bytes().await.unwrap().to_vec())
        }
    };
    // Decodable photos get a real thumbnail; the one that never was an image is kept and is
    // its own thumbnail.
    for (n, expected) in [(0, Some((320, 160))), (1, Some((160, 320))), (2, None)] {
        let (kind, thumb) = fetch(pictures[n]["thumbUrl"].as_str().unwrap()).await;
        match expected {
            Some(size) => {
                assert_eq!(kind, "image/jpeg");
                let thumb = image::load_from_memory(&thumb).unwrap();
                assert_eq!((thumb.width(), thumb.height()), size, "{}", pictures[n]["title"]);
            }
            None => {
                let (_, photo) = fetch(pictures[n]["photoUrl"].as_str().unwrap()).await;
                assert_eq!((kind.as_str(), &thumb), ("image/png", &photo));
            }
        }
    }
    assert_eq!(pictures[3]["photoUrl"], Value::Null);

    // The search and place columns were made for the old rows too.
    for (query, title) in [
        ("q=creme", "Café crème cup"),
        ("q=desk%20cup", "Café crème cup"),
        ("q=wood", "Blue umbrella"),
    ] {
        let (_, found) = client.get(&format!("/api/items?{query}")).await;
        assert_eq!(found.as_array().unwrap().len(), 1, "{query}");
        assert_eq!(found[0]["title"], title, "{query}");
    }
    let (_, near) = client.get("/api/items?near=51.6,-0.1&within=100").await;
    assert_eq!(near[0]["title"], "Black backpack");

    // A second start finds nothing left to convert, and changes nothing.
    let app = app.restart().await;
    let (_, again) = app.client().get("/api/items").await;
    assert_eq!(again.as_array().unwrap(), list);
    assert_eq!(app.db.count("photos").await, 3);
}

#[tokio::test]
async fn an_earlier_release_upgrades_to_one_site_holding_every_item_that_tells_how_to_collect() {
    const OFFICE: &str = "Student Union, room 12, Mon-Fri 9-17; bring your student card";
    let db = TestDb::new().await;
    make_legacy_database(&db).await;
    let app = TestApp::start_with(db, |config| config.office = Some(OFFICE.into())).await;
    let (_, sites) = app.client().get("/api/sites").await;
    assert_eq!(
        sites,
        json!([{ "id": 1, "name": "Lost and found office", "place": null, "lat": null, "lng": null,
            "hours": null, "contact": null, "collect": OFFICE, "holdDays": null }])
    );
    assert_eq!(app.db.count("items WHERE site_id = 1").await, legacy_items().len());
    assert_eq!(app.db.count("items WHERE site_id IS NULL").await, 0);

    // Once: what an administrator writes there later stays, whatever the office says.
    let office = app.logged_in("office", true).await;
    let (status, _) = office.patch("/api/sites/1", json!({ "collect": "Any photo ID" })).await;
    assert_eq!(status, StatusCode::OK);
    let app = app
        .restart_with(|config| config.office = Some("Elsewhere".into()))
        .await;
    let (_, sites) = app.client().get("/api/sites").await;
    assert_eq!(sites[0]["collect"], "Any photo ID");

    // An item an older node reported meanwhile, without a site, gets one at the next start.
    app.db.sql("UPDATE items SET site_id = NULL WHERE id = 2").await;
    let app = app.restart().await;
    assert_eq!(app.db.count("items WHERE site_id = 1").await, legacy_items().len());
}
