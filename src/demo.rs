//! `serve --demo`: accounts and sample items, with pictures drawn here, for trying the
//! service out.

use std::io::Cursor;

use base64::{Engine, engine::general_purpose::STANDARD};
use image::{ImageFormat, Rgb, RgbImage};
use serde_json::json;

use crate::{
    auth::{Passwords, add_user},
    domain::{ItemKind, ItemPatch, ItemStatus, NewAccount, NewItem, access::Role},
    store::Store,
    time::now_ms,
};

/// (id, name, administrator, password)
pub const DEMO_ACCOUNTS: [(&str, &str, Role, &str); 3] = [
    ("admin", "Front Desk", Role::Administrator, "admin-demo-pass"),
    ("alice", "Alice Student", Role::Member, "alice-demo-pass"),
    ("bob", "Bob Visitor", Role::Member, "bob-demo-pass"),
];

struct DemoItem {
    title: &'static str,
    desc: &'static str,
    cat: &'static str,
    kind: ItemKind,
    /// Latitude, longitude and radius in meters.
    place: (f64, f64, f64),
    reporter: &'static str,
    /// The state it was reviewed to, and where it is kept.
    review: Option<(ItemStatus, Option<&'static str>)>,
}

const DEMO_ITEMS: [DemoItem; 12] = [
    DemoItem {
        title: "Blue umbrella",
        desc: "Folding, with a wooden handle.",
        cat: "accessories",
        kind: ItemKind::Found,
        place: (51.5246, -0.1340, 30.0),
        reporter: "alice",
        review: Some((ItemStatus::Approved, Some("Front desk, shelf A"))),
    },
    DemoItem {
        title: "Student ID card",
        desc: "Name starts with M.",
        cat: "documents",
        kind: ItemKind::Found,
        place: (51.5238, -0.1325, 10.0),
        reporter: "bob",
        review: Some((ItemStatus::Approved, Some("Security office"))),
    },
    DemoItem {
        title: "Black backpack",
        desc: "Laptop sleeve, two pens, a notebook.",
        cat: "bags",
        kind: ItemKind::Found,
        place: (51.5251, -0.1332, 50.0),
        reporter: "alice",
        review: Some((ItemStatus::Approved, None)),
    },
    DemoItem {
        title: "Silver house keys",
        desc: "Three keys on a red ring.",
        cat: "keys",
        kind: ItemKind::Lost,
        place: (51.5229, -0.1311, 25.0),
        reporter: "bob",
        review: None,
    },
    DemoItem {
        title: "Wireless earbuds",
        desc: "White case, left bud missing.",
        cat: "electronics",
        kind: ItemKind::Lost,
        place: (51.5262, -0.1358, 40.0),
        reporter: "alice",
        review: None,
    },
    DemoItem {
        title: "Green water bottle",
        desc: "Steel, dented on one side.",
        cat: "other",
        kind: ItemKind::Lost,
        place: (51.5243, -0.1301, 15.0),
        reporter: "bob",
        review: Some((ItemStatus::Rejected, None)),
    },
    DemoItem {
        title: "Reading glasses",
        desc: "Brown frames in a soft case.",
        cat: "accessories",
        kind: ItemKind::Found,
        place: (51.5233, -0.1347, 20.0),
        reporter: "alice",
        review: Some((ItemStatus::Approved, Some("Library desk"))),
    },
    DemoItem {
        title: "Bicycle lock key",
        desc: "Small key with a yellow tag.",
        cat: "keys",
        kind: ItemKind::Lost,
        place: (51.5257, -0.1319, 35.0),
        reporter: "bob",
        review: None,
    },
    DemoItem {
        title: "Grey scarf",
        desc: "Wool, about two metres long.",
        cat: "clothing",
        kind: ItemKind::Found,
        place: (51.5240, -0.1365, 60.0),
        reporter: "alice",
        review: Some((ItemStatus::Approved, None)),
    },
    DemoItem {
        title: "Calculator",
        desc: "Scientific, initials J.K. on the back.",
        cat: "electronics",
        kind: ItemKind::Found,
        place: (51.5226, -0.1336, 10.0),
        reporter: "bob",
        review: None,
    },
    DemoItem {
        title: "Wallet",
        desc: "Brown leather, no cash.",
        cat: "documents",
        kind: ItemKind::Found,
        place: (51.5249, -0.1308, 45.0),
        reporter: "alice",
        review: Some((ItemStatus::Approved, Some("Security office"))),
    },
    DemoItem {
        title: "Phone charger",
        desc: "USB-C, left in lecture hall 2.",
        cat: "electronics",
        kind: ItemKind::Lost,
        place: (51.5235, -0.1352, 5.0),
        reporter: "bob",
        review: Some((ItemStatus::Rejected, None)),
    },
];

/// Fills an empty database with the demo accounts and items; returns false (and changes
/// nothing) when the database already has data.
pub async fn seed(store: &Store, passwords: &Passwords) -> anyhow::Result<bool> {
    if !store.is_empty().await? {
        return Ok(false);
    }
    for (id, name, role, password) in DEMO_ACCOUNTS {
        add_user(store, passwords, &NewAccount::new(id, name, password, role, None)?).await?;
    }
    for (n, demo) in DEMO_ITEMS.iter().enumerate() {
        let (lat, lng, radius) = demo.place;
        // Checked like any report, so the demo data holds to the same rules.
        let report = json!({
            "title": demo.title, "desc": demo.desc, "cat": demo.cat, "kind": demo.kind.as_str(),
            "lat": lat, "lng": lng, "radius": radius, "imgData": picture(n),
        });
        let item = NewItem::parse(report.as_object().expect("an object"))?;
        // Spread over the last hours so that the newest-first order shows.
        let created = now_ms() - (DEMO_ITEMS.len() - n) as i64 * 37 * 60 * 1000;
        // Nobody listens yet: the server starts once the demo data is in.
        let stored = store.insert_item(item, demo.reporter, created).await?.unheard();
        if let Some((status, place)) = demo.review {
            let mut review = json!({ "status": status.as_str() });
            if let Some(place) = place {
                review["storagePlace"] = json!(place);
            }
            let patch = ItemPatch::parse(review.as_object().expect("an object"))?;
            let _ = store.update_item(stored.id, &patch, "admin", created).await?.unheard();
        }
    }
    Ok(true)
}

/// A picture for the `n`th item, as a JPEG `data:` URL of a few kilobytes: a sky of its own
/// colour over a field, with a sun and a hill, so that every thumbnail shows something.
fn picture(n: usize) -> String {
    let (width, height) = (240, 180);
    let hue = (n as f64 * 0.618_034).fract();
    let sky = hsl(hue, 0.55, 0.72);
    let ground = hsl((hue + 0.3).fract(), 0.45, 0.42);
    let sun = hsl((hue + 0.55).fract(), 0.8, 0.6);
    let (sun_x, sun_y, sun_r) = (60.0 + (n % 4) as f64 * 40.0, 55.0, 22.0);
    let image = RgbImage::from_fn(width, height, |x, y| {
        let (x, y) = (f64::from(x), f64::from(y));
        let hill = 120.0 - 35.0 * ((x / 240.0 + n as f64 * 0.1) * std::f64::consts::PI).sin();
        if (x - sun_x).hypot(y - sun_y) < sun_r {
            sun
        } else if y > hill {
            shade(ground, 1.0 - (y - hill) / 200.0)
        } else {
            shade(sky, 0.8 + 0.2 * y / hill)
        }
    });
    let mut jpeg = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut jpeg), ImageFormat::Jpeg)
        .expect("a picture encodes in memory");
    format!("data:image/jpeg;base64,{}", STANDARD.encode(jpeg))
}

fn shade(Rgb([r, g, b]): Rgb<u8>, factor: f64) -> Rgb<u8> {
    let scale = |c: u8| (f64::from(c) * factor).clamp(0.0, 255.0) as u8;
    Rgb([scale(r), scale(g), scale(b)])
}

/// A colour from hue, saturation and lightness, each in [0, 1].
fn hsl(hue: f64, saturation: f64, lightness: f64) -> Rgb<u8> {
    let chroma = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = hue * 6.0;
    let x = chroma * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (chroma, x, 0.0),
        1 => (x, chroma, 0.0),
        2 => (0.0, chroma, x),
        3 => (0.0, x, chroma),
        4 => (x, 0.0, chroma),
        _ => (chroma, 0.0, x),
    };
    let m = lightness - chroma / 2.0;
    let channel = |c: f64| ((c + m) * 255.0).round() as u8;
    Rgb([channel(r), channel(g), channel(b)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_pictures_are_small_real_photos() {
        for n in 0..DEMO_ITEMS.len() {
            let url = picture(n);
            assert!(url.len() < 16_000, "picture {n} is {} bytes", url.len());
            crate::domain::NewPhoto::from_data_url(&url).unwrap();
        }
        assert_ne!(picture(0), picture(1));
    }
}
