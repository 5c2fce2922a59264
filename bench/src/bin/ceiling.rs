//! The ceiling: bare axum answering fixed bytes (an item of the size lostfound answers), the
//! most a Rust HTTP server does per request on this machine. The load generator measures it
//! in the same run as the service, and the service's figures are read as shares of it.
//!
//! `ceiling [ADDR]` (default 127.0.0.1:3900); prints `ceiling listening on http://ADDR`.

use axum::{Router, http::header, routing::get};

/// An item as the API answers it, about 300 bytes.
const ITEM: &str = r#"{"id":1,"title":"Blue umbrella","desc":"Folding, with a wooden handle.","cat":"accessories","imgData":null,"lat":51.5246,"lng":-0.134,"radius":30.0,"status":"approved","storagePlace":"Front desk, shelf A","created_at":"2025-01-17T10:30:00.000Z","createdBy":"alice"}"#;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:3900".into());
    let app = Router::new().fallback(get(|| async { ([(header::CONTENT_TYPE, "application/json")], ITEM) }));
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("ceiling listening on http://{}", listener.local_addr()?);
    axum::serve(listener, app).await
}
