//! Photos: checked by decoding on upload, stored apart from their item, served with their
//! type and a thumbnail, rebuilt byte for byte as `imgData`.

use reqwest::{Method, StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::*;

/// Creates an item with `photo` and returns it with the extension keys.
async fn with_photo(client: &TestClient, photo: &str) -> Value {
    let body = json!({ "title": "Scarf", "lat": 1, "lng": 2, "imgData": photo });
    let (status, item) = client
        .post("/api/items?fields=id,imgData,photoUrl,thumbUrl", body)
        .await;
    assert_eq!(status, StatusCode::OK, "{item}");
    item
}

#[tokio::test]
async fn a_photo_is_served_as_uploaded_with_its_thumbnail() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let bytes = png(1_000, 500, false);
    let url = data_url("image/png", &bytes);
    let item = with_photo(&alice, &url).await;
    assert_eq!(item["imgData"], url);
    let (photo_url, thumb_url) = (item["photoUrl"].as_str().unwrap(), item["thumbUrl"].as_str().unwrap());

    let photo = alice
        .http
        .get(format!("{}{photo_url}", alice.base))
        .send()
        .await
        .unwrap();
    assert_eq!(photo.status(), StatusCode::OK);
    assert_eq!(photo.headers()[header::CONTENT_TYPE], "image/png");
    assert_eq!(
        photo.headers()[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(photo.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert!(photo.headers().contains_key(header::ETAG));
    assert_eq!(photo.bytes().await.unwrap(), bytes);

    let thumb = alice
        .http
        .get(format!("{}{thumb_url}", alice.base))
        .send()
        .await
        .unwrap();
    assert_eq!(thumb.headers()[header::CONTENT_TYPE], "image/jpeg");
    let thumb = image::load_from_memory(&thumb.bytes().await.unwrap()).unwrap();
    assert_eq!(
        (thumb.width(), thumb.height()),
        (320, 160),
        "longest side 320, same aspect ratio"
    );

    // Without its version the answer may not be cached for ever.
    let path = item_path(&item);
    let unversioned = alice
        .send_raw(alice.request(Method::GET, &format!("{path}/photo")))
        .await;
    assert_eq!(unversioned.1[header::CACHE_CONTROL], "no-cache");

    // The contract's answers carry the photo as the very data URL uploaded.
    assert_eq!(alice.get(&path).await.1["imgData"], url);
    let (_, list) = alice.get("/api/items").await;
    assert_eq!(list[0]["imgData"], url);
}

#[tokio::test]
async fn every_accepted_type_gets_a_thumbnail() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let picture = image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(300, 900, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 40])
    }));
    for (mime, format) in [
        ("image/jpeg", image::ImageFormat::Jpeg),
        ("image/gif", image::ImageFormat::Gif),
        ("image/webp", image::ImageFormat::WebP),
    ] {
        let mut bytes = Vec::new();
        picture.write_to(&mut std::io::Cursor::new(&mut bytes), format).unwrap();
        let item = with_photo(&alice, &data_url(mime, &bytes)).await;
        let photo = alice
            .send_raw(alice.request(Method::GET, &format!("{}/photo", item_path(&item))))
            .await;
        assert_eq!(photo.1[header::CONTENT_TYPE], mime);
        let thumb = alice
            .http
            .get(format!("{}{}", alice.base, item["thumbUrl"].as_str().unwrap()))
            .send()
            .await
            .unwrap();
        let thumb = image::load_from_memory(&thumb.bytes().await.unwrap()).unwrap();
        assert_eq!((thumb.width(), thumb.height()), (107, 320), "{mime}");
    }
}

#[tokio::test]
async fn images_that_do_not_decode_or_are_too_large_are_refused() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let png_bytes = png(200, 100, false);
    let mut jpeg = Vec::new();
    image::DynamicImage::ImageRgb8(image::RgbImage::new(200, 100))
        .write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
        .unwrap();
    // 8,000 × 6,000 zeros: 48 megapixels in a small file.
    let mut bomb = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut bomb),
        &vec![0u8; 8_000 * 6_000],
        8_000,
        6_000,
        image::ExtendedColorType::L8,
    )
    .unwrap();
    for (url, text) in [
        (
            data_url("image/png", &png_bytes[..png_bytes.len() / 2]),
            "imgData is not a valid image",
        ),
        (
            data_url("image/jpeg", &jpeg[..jpeg.len() - 40]),
            "imgData is not a valid image",
        ),
        (data_url("image/jpeg", &png_bytes), "imgData is not a valid image"),
        (data_url("image/gif", &png_bytes), "imgData is not a valid image"),
        (
            data_url("image/png", b"\x89PNG\r\n\x1a\n and nothing else"),
            "imgData is not a valid image",
        ),
        (data_url("image/png", &bomb), "Image too large"),
    ] {
        let answer = alice
            .post(
                "/api/items",
                json!({ "title": "x", "lat": 1, "lng": 1, "imgData": url }),
            )
            .await;
        assert_error(&answer, StatusCode::BAD_REQUEST, text);
    }
    assert_eq!(app.item_count().await, 0);
    assert_eq!(app.db.count("photos").await, 0);
}

#[tokio::test]
async fn missing_photos_and_items_are_404_and_deletion_takes_the_photo() {
    let app = spawn_app().await;
    let alice = app.logged_in("alice", false).await;
    let admin = app.logged_in("admin", true).await;
    let plain = alice.create_item(item_body("No photo")).await;
    for picture in ["photo", "thumb"] {
        let answer = alice.get(&format!("{}/{picture}", item_path(&plain))).await;
        assert_error(&answer, StatusCode::NOT_FOUND, "Photo not found");
        let answer = alice.get(&format!("/api/items/424242/{picture}")).await;
        assert_error(&answer, StatusCode::NOT_FOUND, "Item not found");
        let answer = alice.get(&format!("/api/items/0/{picture}")).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid item ID");
    }
    let item = with_photo(&alice, PNG_DATA_URL).await;
    assert_eq!(app.db.count("photos").await, 1);
    assert_eq!(admin.delete(&item_path(&item)).await.0, StatusCode::OK);
    assert_eq!(app.db.count("photos").await, 0);
    let answer = alice.get(&format!("{}/photo", item_path(&item))).await;
    assert_error(&answer, StatusCode::NOT_FOUND, "Item not found");
}
