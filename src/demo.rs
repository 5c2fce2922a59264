//! `serve --demo`: accounts and sample items for trying the service out.

use crate::{
    auth::{Passwords, add_user},
    domain::{ItemPatch, ItemStatus, NewItem},
    store::Store,
    time::now_ms,
};

/// A 1×1 PNG, so that some demo items show a photo.
const PNG_1PX: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/// (id, name, administrator, password)
pub const DEMO_ACCOUNTS: [(&str, &str, bool, &str); 3] = [
    ("admin", "Front Desk", true, "admin-demo-pass"),
    ("alice", "Alice Student", false, "alice-demo-pass"),
    ("bob", "Bob Visitor", false, "bob-demo-pass"),
];

/// (title, description, category, lat, lng, radius, reporter, review)
type DemoItem = (
    &'static str,
    &'static str,
    &'static str,
    f64,
    f64,
    f64,
    &'static str,
    Option<(ItemStatus, Option<&'static str>)>,
);

const DEMO_ITEMS: [DemoItem; 12] = [
    (
        "Blue umbrella",
        "Folding, with a wooden handle.",
        "accessories",
        51.5246,
        -0.1340,
        30.0,
        "alice",
        Some((ItemStatus::Approved, Some("Front desk, shelf A"))),
    ),
    (
        "Student ID card",
        "Name starts with M.",
        "documents",
        51.5238,
        -0.1325,
        10.0,
        "bob",
        Some((ItemStatus::Approved, Some("Security office"))),
    ),
    (
        "Black backpack",
        "Laptop sleeve, two pens, a notebook.",
        "bags",
        51.5251,
        -0.1332,
        50.0,
        "alice",
        Some((ItemStatus::Approved, None)),
    ),
    (
        "Silver house keys",
        "Three keys on a red ring.",
        "keys",
        51.5229,
        -0.1311,
        25.0,
        "bob",
        None,
    ),
    (
        "Wireless earbuds",
        "White case, left bud missing.",
        "electronics",
        51.5262,
        -0.1358,
        40.0,
        "alice",
        None,
    ),
    (
        "Green water bottle",
        "Steel, dented on one side.",
        "other",
        51.5243,
        -0.1301,
        15.0,
        "bob",
        Some((ItemStatus::Rejected, None)),
    ),
    (
        "Reading glasses",
        "Brown frames in a soft case.",
        "accessories",
        51.5233,
        -0.1347,
        20.0,
        "alice",
        Some((ItemStatus::Approved, Some("Library desk"))),
    ),
    (
        "Bicycle lock key",
        "Small key with a yellow tag.",
        "keys",
        51.5257,
        -0.1319,
        35.0,
        "bob",
        None,
    ),
    (
        "Grey scarf",
        "Wool, about two metres long.",
        "clothing",
        51.5240,
        -0.1365,
        60.0,
        "alice",
        Some((ItemStatus::Approved, None)),
    ),
    (
        "Calculator",
        "Scientific, initials J.K. on the back.",
        "electronics",
        51.5226,
        -0.1336,
        10.0,
        "bob",
        None,
    ),
    (
        "Wallet",
        "Brown leather, no cash.",
        "documents",
        51.5249,
        -0.1308,
        45.0,
        "alice",
        Some((ItemStatus::Approved, Some("Security office"))),
    ),
    (
        "Phone charger",
        "USB-C, left in lecture hall 2.",
        "electronics",
        51.5235,
        -0.1352,
        5.0,
        "bob",
        Some((ItemStatus::Rejected, None)),
    ),
];

/// Fills an empty database with the demo accounts and items; returns false (and changes
/// nothing) when the database already has data.
pub async fn seed(store: &Store, passwords: &Passwords) -> anyhow::Result<bool> {
    if !store.is_empty().await? {
        return Ok(false);
    }
    for (id, name, admin, password) in DEMO_ACCOUNTS {
        add_user(store, passwords, id, name, admin, password).await?;
    }
    for (n, (title, desc, cat, lat, lng, radius, reporter, review)) in DEMO_ITEMS.into_iter().enumerate() {
        let item = NewItem {
            title: title.into(),
            desc: Some(desc.into()),
            cat: Some(cat.into()),
            img_data: (n % 3 == 0).then(|| PNG_1PX.into()),
            lat,
            lng,
            radius,
            storage_place: None,
        };
        // Spread over the last hours so that the newest-first order shows.
        let created = now_ms() - (DEMO_ITEMS.len() - n) as i64 * 37 * 60 * 1000;
        let stored = store.insert_item(&item, reporter, created).await?;
        if let Some((status, place)) = review {
            let patch = ItemPatch {
                status: Some(status),
                storage_place: place.map(|p| Some(p.to_owned())),
            };
            store.update_item(stored.id, &patch, "admin", created).await?;
        }
    }
    Ok(true)
}
