//! Sites: anyone lists the desks; administrators add, change and remove them; a site that
//! holds items stays; a new report goes to the nearest site.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const LIBRARY: (f64, f64) = (37.5665, 126.9780);
const GYM: (f64, f64) = (37.5700, 126.9900);

async fn site_of(app: &TestApp, item: &Value) -> String {
    app.db
        .sql(&format!(
            "SELECT CAST(site_id AS TEXT) FROM items WHERE id = {}",
            item["id"]
        ))
        .await
        .remove(0)
}

#[tokio::test]
async fn administrators_keep_the_sites_and_everyone_reads_them() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let member = app.logged_in("ann", false).await;

    // A new installation has one site, which holds what is reported until there are more.
    let (status, sites) = app.client().get("/api/sites").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(sites.as_array().unwrap().len(), 1, "{sites}");
    assert_eq!(sites[0]["id"], 1);

    let library = json!({ "name": "Library desk", "place": "Main library, ground floor",
        "lat": LIBRARY.0, "lng": LIBRARY.1, "hours": "Mon-Fri 9-17", "contact": "library@uni.example",
        "collect": "Bring your student card" });
    let (status, made) = office.post("/api/sites", library.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    for key in ["name", "place", "lat", "lng", "hours", "contact", "collect"] {
        assert_eq!(made[key], library[key], "{key}");
    }
    let id = made["id"].as_i64().unwrap();

    // Members and visitors may not; nothing changes.
    let gym = json!({ "name": "Sports centre", "lat": GYM.0, "lng": GYM.1 });
    assert_error(
        &member.post("/api/sites", gym.clone()).await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );
    assert_eq!(
        app.client().post("/api/sites", gym.clone()).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        member
            .patch(&format!("/api/sites/{id}"), json!({ "name": "Mine" }))
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        member.delete(&format!("/api/sites/{id}")).await.0,
        StatusCode::FORBIDDEN
    );

    // Bad input names its field and changes nothing.
    for (body, message) in [
        (json!({ "place": "Nowhere" }), "Name required"),
        (json!({ "name": "Gym", "lat": 1 }), "lat and lng go together"),
        (
            json!({ "name": "Gym", "lat": 91, "lng": 0 }),
            "lat must be between -90 and 90",
        ),
        (json!({ "name": 7 }), "name must be a string"),
    ] {
        let (status, error) = office.post("/api/sites", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {error}");
        assert_eq!(error["error"], message, "{body}");
    }
    assert_error(
        &office.post("/api/sites", json!({ "name": "library DESK" })).await,
        StatusCode::CONFLICT,
        "A site has that name",
    );
    assert_eq!(app.client().get("/api/sites").await.1.as_array().unwrap().len(), 2);

    // A change sets what is sent; null clears.
    let (status, changed) = office
        .patch(
            &format!("/api/sites/{id}"),
            json!({ "hours": "Mon-Sat 9-18", "contact": null }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    assert_eq!(
        (changed["hours"].as_str(), &changed["contact"]),
        (Some("Mon-Sat 9-18"), &Value::Null)
    );
    assert_eq!(changed["collect"], "Bring your student card");
    assert_error(
        &office.patch("/api/sites/999", json!({ "hours": "x" })).await,
        StatusCode::NOT_FOUND,
        "Site not found",
    );
    assert_error(
        &office.patch(&format!("/api/sites/{id}"), json!({})).await,
        StatusCode::BAD_REQUEST,
        "No fields to update",
    );

    // An empty site goes; one that holds an item stays.
    let (_, gym) = office.post("/api/sites", gym).await;
    let gym_id = gym["id"].as_i64().unwrap();
    assert_error(
        &office
            .patch(&format!("/api/sites/{id}"), json!({ "name": "SPORTS centre" }))
            .await,
        StatusCode::CONFLICT,
        "A site has that name",
    );
    let bottle = member
        .create_item(json!({ "title": "Water bottle", "lat": GYM.0 + 0.0001, "lng": GYM.1, "kind": "found" }))
        .await;
    assert_eq!(site_of(&app, &bottle).await, gym_id.to_string());
    assert_error(
        &office.delete(&format!("/api/sites/{gym_id}")).await,
        StatusCode::CONFLICT,
        "The site holds items: move them to another site first",
    );
    let (status, _) = office.delete(&format!("/api/items/{}", bottle["id"])).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(office.delete(&format!("/api/sites/{gym_id}")).await.0, StatusCode::OK);
    assert_error(
        &office.delete(&format!("/api/sites/{gym_id}")).await,
        StatusCode::NOT_FOUND,
        "Site not found",
    );
}

#[tokio::test]
async fn a_report_goes_to_the_nearest_site_with_a_point() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let member = app.logged_in("ann", false).await;
    // Until a site has a point, the first site holds everything.
    let early = member
        .create_item(json!({ "title": "Umbrella", "lat": GYM.0, "lng": GYM.1 }))
        .await;
    assert_eq!(site_of(&app, &early).await, "1");
    let mut ids = Vec::new();
    for (name, (lat, lng)) in [("Library desk", LIBRARY), ("Sports centre", GYM)] {
        let (status, site) = office
            .post("/api/sites", json!({ "name": name, "lat": lat, "lng": lng }))
            .await;
        assert_eq!(status, StatusCode::CREATED);
        ids.push(site["id"].as_i64().unwrap().to_string());
    }
    let near_library = member
        .create_item(json!({ "title": "Scarf", "lat": LIBRARY.0 + 0.001, "lng": LIBRARY.1 - 0.001 }))
        .await;
    let near_gym = member
        .create_item(json!({ "kind": "found", "title": "Towel", "lat": GYM.0 - 0.001, "lng": GYM.1 + 0.002 }))
        .await;
    assert_eq!(site_of(&app, &near_library).await, ids[0]);
    assert_eq!(site_of(&app, &near_gym).await, ids[1]);
    // The item already reported stays where it was.
    assert_eq!(site_of(&app, &early).await, "1");
}

/// `lostfound site <args>` on `db`: its standard output, or standard error when it failed.
async fn site_command(db: &TestDb, args: &[&str]) -> (bool, String) {
    let output = crate::cli::command_on(db.url(), "site", args, None).await;
    let text = if output.status.success() {
        output.stdout
    } else {
        output.stderr
    };
    (output.status.success(), String::from_utf8_lossy(&text).into_owned())
}

#[tokio::test]
async fn sites_on_the_command_line() {
    let db = TestDb::new().await;
    let made = crate::cli::command_on(
        db.url(),
        "user",
        &["add", "boss", "--name", "Boss", "--admin", "--password-stdin"],
        Some("boss-pass-1\n"),
    )
    .await;
    assert!(made.status.success());
    let (ok, out) = site_command(
        &db,
        &[
            "add",
            "Station desk",
            "--place",
            "Central station, hall B",
            "--lat",
            "37.55",
            "--lng",
            "-0.12",
            "--collect",
            "Bring an ID card",
        ],
    )
    .await;
    assert!(ok, "{out}");
    assert!(out.contains("added site 2 'Station desk'"), "{out}");
    let (ok, out) = site_command(&db, &["list"]).await;
    assert!(ok, "{out}");
    let rows: Vec<&str> = out.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(
        rows[1].starts_with("2") && rows[1].contains("Station desk") && rows[1].contains("Central station, hall B"),
        "{out}"
    );
    assert_eq!(
        db.sql("SELECT collect FROM sites WHERE id = 2").await,
        ["Bring an ID card"]
    );

    // Refused: a taken name, a lone latitude, a site that holds items, one that is not there.
    let (ok, out) = site_command(&db, &["add", "station DESK"]).await;
    assert!(!ok && out.contains("is named 'station DESK' already"), "{out}");
    let (ok, out) = site_command(&db, &["add", "Gate 3", "--lat", "1"]).await;
    assert!(!ok && out.contains("--lng"), "{out}");
    db.sql(
        "INSERT INTO items (title, lat, lng, radius, status, created_at, created_by, kind, version, site_id) \
         VALUES ('Umbrella', 37.55, -0.12, 0, 'approved', 0, 'boss', 'found', 1, 2)",
    )
    .await;
    let (ok, out) = site_command(&db, &["remove", "2"]).await;
    assert!(!ok && out.contains("site 2 holds items"), "{out}");
    db.sql("DELETE FROM items").await;
    let (ok, out) = site_command(&db, &["remove", "2"]).await;
    assert!(ok && out.starts_with("removed site 2 from"), "{out}");
    let (ok, out) = site_command(&db, &["remove", "2"]).await;
    assert!(!ok && out.contains("no site 2"), "{out}");
}

#[tokio::test]
async fn lists_say_and_filter_by_the_site_that_holds_each_item() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let member = app.logged_in("ann", false).await;
    let (_, gym) = office
        .post(
            "/api/sites",
            json!({ "name": "Sports centre", "lat": GYM.0, "lng": GYM.1 }),
        )
        .await;
    let gym = gym["id"].as_i64().unwrap();
    let (_, library) = office
        .post(
            "/api/sites",
            json!({ "name": "Library desk", "lat": LIBRARY.0, "lng": LIBRARY.1 }),
        )
        .await;
    let library = library["id"].as_i64().unwrap();
    for (title, (lat, lng)) in [("Towel", GYM), ("Scarf", LIBRARY), ("Racket", GYM)] {
        let item = member
            .create_item(json!({ "title": title, "lat": lat, "lng": lng }))
            .await;
        office
            .patch(&format!("/api/items/{}", item["id"]), json!({ "status": "approved" }))
            .await;
    }
    let (status, at_gym) = app
        .client()
        .get(&format!("/api/items?site={gym}&fields=title,siteId"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        at_gym,
        json!([{ "title": "Racket", "siteId": gym }, { "title": "Towel", "siteId": gym }])
    );
    let (_, at_library) = app
        .client()
        .get(&format!("/api/items?site={library}&fields=title"))
        .await;
    assert_eq!(at_library, json!([{ "title": "Scarf" }]));
    // The contract's answer has no site.
    let (_, plain) = app.client().get(&format!("/api/items?site={library}")).await;
    assert_eq!(plain[0].as_object().unwrap().len(), 12);
    for bad in ["0", "-1", "gym"] {
        assert_error(
            &app.client().get(&format!("/api/items?site={bad}")).await,
            StatusCode::BAD_REQUEST,
            "Invalid site",
        );
    }
}
