//! Headers every answer carries, whoever wrote it: a handler, a guard, the router, a cache.

use reqwest::{Method, StatusCode, header};

use crate::helpers::*;

/// `X-Content-Type-Options: nosniff` on every API answer, errors included, as on the pages:
/// a browser must never read a JSON answer (which may echo what someone wrote) as another
/// type.
#[tokio::test]
async fn every_answer_says_nosniff_errors_too() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let path = item_path(&alice.create_item(item_body("Umbrella")).await);
    let nobody = app.client();
    let cross_site = nobody
        .request(Method::POST, "/api/items")
        .header(header::ORIGIN, "http://elsewhere.example")
        .json(&item_body("x"));
    let requests = [
        (nobody.request(Method::GET, "/api/me"), StatusCode::OK),
        (nobody.request(Method::GET, "/api/items"), StatusCode::OK),
        // The same again, from the answer cache.
        (nobody.request(Method::GET, "/api/items"), StatusCode::OK),
        (nobody.request(Method::GET, "/api/items?limit=1"), StatusCode::OK),
        (nobody.request(Method::GET, &path), StatusCode::OK),
        (nobody.request(Method::GET, "/api/openapi.json"), StatusCode::OK),
        (nobody.request(Method::GET, "/healthz"), StatusCode::OK),
        (alice.request(Method::GET, "/api/notifications"), StatusCode::OK),
        (nobody.request(Method::GET, "/api/items/abc"), StatusCode::BAD_REQUEST),
        (
            nobody.request(Method::POST, "/api/items").json(&item_body("x")),
            StatusCode::UNAUTHORIZED,
        ),
        (alice.request(Method::PATCH, &path), StatusCode::FORBIDDEN),
        (cross_site, StatusCode::FORBIDDEN),
        (nobody.request(Method::GET, "/api/items/424242"), StatusCode::NOT_FOUND),
        (nobody.request(Method::GET, "/api/nothing-here"), StatusCode::NOT_FOUND),
        (
            nobody.request(Method::PUT, "/api/items"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        // The pages, as before.
        (nobody.request(Method::GET, "/"), StatusCode::OK),
        (nobody.request(Method::GET, "/sw.js"), StatusCode::OK),
        (nobody.request(Method::GET, "/socket.io/socket.io.js"), StatusCode::OK),
    ];
    for (request, status) in requests {
        // Each request goes out through the client that made it, with that client's cookies.
        let (client, request) = request.build_split();
        let request = request.unwrap();
        let what = format!("{} {}", request.method(), request.url().path());
        let response = client.execute(request).await.unwrap();
        assert_eq!(response.status(), status, "{what}");
        assert_eq!(
            response
                .headers()
                .get(header::X_CONTENT_TYPE_OPTIONS)
                .map(|v| v.to_str().unwrap()),
            Some("nosniff"),
            "{what} ({status})"
        );
    }
}
