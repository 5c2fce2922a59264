//! Named places: administrators keep the buildings, rooms and stops a report may choose by
//! name instead of a point on the map — one at a time or from a CSV file; anyone lists them.

use reqwest::{Method, StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::*;

/// `file` imported by `client` as `text/csv`.
async fn import(client: &TestClient, file: impl Into<reqwest::Body>) -> (StatusCode, Value) {
    let request = client
        .request(Method::POST, "/api/places/import")
        .header(header::CONTENT_TYPE, "text/csv")
        .body(file);
    let answer = client.send(request).await;
    (answer.status, answer.body)
}

fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn administrators_keep_named_places_and_anyone_lists_them() {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let member = app.logged_in("ann", false).await;
    let (status, library) = office
        .post(
            "/api/places",
            json!({ "name": "Main library", "lat": 51.5246, "lng": -0.1340, "radius": 60 }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{library}");
    assert_eq!(
        library,
        json!({ "id": library["id"], "name": "Main library", "lat": 51.5246, "lng": -0.134, "radius": 60.0 })
    );
    assert_eq!(app.client().get("/api/places").await.1, json!([library]));

    // One place to a name, in any case; each field checked; administrators only.
    let answer = office
        .post("/api/places", json!({ "name": "MAIN LIBRARY", "lat": 1, "lng": 1 }))
        .await;
    assert_error(&answer, StatusCode::CONFLICT, "A place has that name");
    for (bad, error) in [
        (json!({ "lat": 1, "lng": 1 }), "name must be 1-200 characters"),
        (json!({ "name": "Gym", "lng": 1 }), "lat missing"),
        (
            json!({ "name": "Gym", "lat": 1, "lng": 181 }),
            "lng must be between -180 and 180",
        ),
        (
            json!({ "name": "Gym", "lat": 1, "lng": 1, "radius": -5 }),
            "radius must be between 0 and 100000",
        ),
    ] {
        assert_error(&office.post("/api/places", bad).await, StatusCode::BAD_REQUEST, error);
    }
    assert_eq!(
        member
            .post("/api/places", json!({ "name": "Gym", "lat": 1, "lng": 1 }))
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        import(&member, "name,lat,lng\nGym,1,1\n").await.0,
        StatusCode::FORBIDDEN
    );

    // A file: new names added, a known one moved, bad lines named and left out.
    let file = "name,lat,lng,radius\n\
                Bus stop 4,51.5230,-0.1300,\n\
                main library,51.5250,-0.1345,80\n\
                Gym,north,-0.13,\n\
                \"Hall, east wing\",51.52,-0.129,25\n";
    let (status, outcome) = import(&office, file).await;
    assert_eq!(status, StatusCode::OK, "{outcome}");
    assert_eq!(outcome["saved"], 3);
    assert_eq!(
        outcome["refused"],
        json!([{ "line": 4, "error": "lat must be a number" }])
    );
    let (_, list) = app.client().get("/api/places").await;
    assert_eq!(names(&list), ["Bus stop 4", "Hall, east wing", "main library"]);
    let moved = &list[2];
    assert_eq!((&moved["id"], &moved["radius"]), (&library["id"], &json!(80.0)));
    assert_eq!(list[0]["radius"], Value::Null, "a point");
    for not_csv in [b"title,x,y\nA,1,2\n".to_vec(), vec![0xff, 0xfe, b'\n']] {
        assert_error(
            &import(&office, not_csv).await,
            StatusCode::BAD_REQUEST,
            "The file must be CSV with the columns name, lat, lng and radius",
        );
    }

    // Removed: gone from the list; twice is 404.
    let path = format!("/api/places/{}", list[0]["id"]);
    assert_eq!(office.delete(&path).await, (StatusCode::OK, json!({ "ok": true })));
    assert_error(&office.delete(&path).await, StatusCode::NOT_FOUND, "Place not found");
    assert_eq!(
        names(&app.client().get("/api/places").await.1),
        ["Hall, east wing", "main library"]
    );
}
