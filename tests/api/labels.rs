//! `GET /api/items/{id}/label.svg`: staff only; an SVG that a real renderer draws
//! (`rsvg-convert`, Debian's librsvg2-bin), with the title escaped, and a QR code that a real
//! reader decodes (`zbarimg`, Debian's zbar-tools) to the item's page.

use reqwest::{StatusCode, header};
use serde_json::json;

use crate::helpers::*;

/// Set with a trailing `/` and a path: the link keeps the path and has one `/` before `#`.
const PUBLIC_URL: &str = "https://lost.example.edu/office/";

/// The label of the item at `path` as `client` gets it: status, headers, body.
async fn label(client: &TestClient, item_path: &str) -> (StatusCode, header::HeaderMap, String) {
    client
        .send_raw(client.request(reqwest::Method::GET, &format!("{item_path}/label.svg")))
        .await
}

/// What a phone would read from the label: the SVG drawn at 300 dpi by `rsvg-convert` (which
/// fails on SVG it cannot parse), its QR code decoded by `zbarimg`.
async fn scan(svg: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let (svg_file, png_file) = (dir.path().join("label.svg"), dir.path().join("label.png"));
    std::fs::write(&svg_file, svg).unwrap();
    let drawn = tokio::process::Command::new("rsvg-convert")
        .args(["--dpi-x", "300", "--dpi-y", "300", "-b", "white", "-f", "png", "-o"])
        .arg(&png_file)
        .arg(&svg_file)
        .output()
        .await
        .expect("rsvg-convert runs (apt-get install librsvg2-bin)");
    assert!(
        drawn.status.success(),
        "rsvg-convert could not draw the label: {}\n{svg}",
        String::from_utf8_lossy(&drawn.stderr)
    );
    let png = std::fs::read(&png_file).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "rsvg-convert made a PNG");
    // 62 mm at 300 dpi is 732 pixels: the label has its size in millimetres.
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    assert!((730..=734).contains(&width), "{width} pixels wide");
    let read = tokio::process::Command::new("zbarimg")
        .args(["--raw", "-q"])
        .arg(&png_file)
        .output()
        .await
        .expect("zbarimg runs (apt-get install zbar-tools)");
    assert!(
        read.status.success(),
        "zbarimg found no code: {}",
        String::from_utf8_lossy(&read.stderr)
    );
    String::from_utf8(read.stdout)
        .unwrap()
        .trim_end_matches('\n')
        .to_owned()
}

#[tokio::test]
async fn staff_print_a_label_whose_qr_code_opens_the_item() {
    let app = TestApp::start_with(TestDb::new().await, |config| {
        config.public_url = Some(PUBLIC_URL.into());
    })
    .await;
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let item = alice
        .create_item(json!({ "title": "Keys <b>&\"'", "kind": "found", "lat": 51.5, "lng": -0.1 }))
        .await;
    let path = item_path(&item);
    let id = item["id"].as_i64().unwrap();
    let (status, body) = admin
        .patch(&path, json!({ "status": "approved", "storagePlace": "Bin <B>&'2'" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (status, headers, svg) = label(&admin, &path).await;
    assert_eq!(status, StatusCode::OK, "{svg}");
    assert_eq!(headers[header::CONTENT_TYPE], "image/svg+xml; charset=utf-8");
    assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    assert!(svg.starts_with("<svg "), "{svg}");
    assert!(
        svg.contains(" width=\"62mm\" height=\"29mm\" viewBox=\"0 0 62 29\""),
        "{svg}"
    );
    assert!(svg.contains(&format!(">#{id}</text>")), "{svg}");
    assert!(
        svg.contains(">Keys &lt;b&gt;&amp;&quot;&#39;</text>"),
        "the title, escaped: {svg}"
    );
    assert!(svg.contains(">Kept at Bin &lt;B&gt;&amp;&#39;2&#39;</text>"), "{svg}");
    let day = &item["created_at"].as_str().unwrap()[..10];
    assert!(svg.contains(&format!(">Reported {day}</text>")), "{svg}");
    assert!(
        !svg.contains("<b>") && !svg.contains("<B>"),
        "user text is never markup"
    );

    assert_eq!(
        scan(&svg).await,
        format!("https://lost.example.edu/office/#/items/{id}")
    );

    // Only staff.
    assert_error(
        &app.client().get(&format!("{path}/label.svg")).await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );
    assert_error(
        &alice.get(&format!("{path}/label.svg")).await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );
    assert_error(
        &admin.get(&format!("/api/items/{}/label.svg", id + 1000)).await,
        StatusCode::NOT_FOUND,
        "Item not found",
    );
    assert_error(
        &admin.get("/api/items/abc/label.svg").await,
        StatusCode::BAD_REQUEST,
        "Invalid item ID",
    );
}

#[tokio::test]
async fn without_a_public_url_the_code_opens_the_address_the_label_was_asked_at() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    // No storage place: the label says nothing of one.
    let item = admin.create_item(item_body("Blue umbrella")).await;
    let (status, _, svg) = label(&admin, &item_path(&item)).await;
    assert_eq!(status, StatusCode::OK, "{svg}");
    assert!(!svg.contains("Kept at"), "{svg}");
    let id = item["id"].as_i64().unwrap();
    assert_eq!(scan(&svg).await, app.url(&format!("/#/items/{id}")));
}
