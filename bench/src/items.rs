//! `loadgen items`: reports for a growth benchmark, one JSON object a line, as
//! `lostfound items import` reads them. Realistic variety, the same for the same seed:
//! titles and descriptions from word lists, places spread over a city around the spots where
//! things get lost (stations, campuses, parks), categories, both kinds, mostly approved, over
//! the year before `--until`, oldest first (ids grow with time, as they do in service). The
//! last `--pending` are found items awaiting review, for the approval scenario.

use std::io::{BufWriter, Write};

use rand::{Rng, SeedableRng, rngs::StdRng, seq::IndexedRandom};
use serde_json::json;

#[derive(clap::Args)]
pub struct ItemsArgs {
    /// How many items.
    #[arg(long)]
    count: u64,
    /// The newest report's time, in milliseconds since 1970.
    #[arg(long)]
    until: i64,
    /// The last this many are found items awaiting review.
    #[arg(long, default_value_t = 0)]
    pending: u64,
    /// Reporters `user1`… `userN`.
    #[arg(long, default_value_t = 5_000)]
    reporters: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

const YEAR_MS: i64 = 365 * 24 * 60 * 60 * 1000;
/// The city: its centre, and how far the spots spread (degrees).
const CENTRE: (f64, f64) = (51.5074, -0.1278);
const SPREAD: (f64, f64) = (0.09, 0.15);
const SPOTS: usize = 60;

/// Things, each with its category.
const THINGS: [(&str, &str); 30] = [
    ("umbrella", "accessories"),
    ("wallet", "accessories"),
    ("purse", "accessories"),
    ("watch", "accessories"),
    ("ring", "accessories"),
    ("glasses", "accessories"),
    ("scarf", "clothing"),
    ("jacket", "clothing"),
    ("gloves", "clothing"),
    ("hat", "clothing"),
    ("hoodie", "clothing"),
    ("backpack", "bags"),
    ("tote bag", "bags"),
    ("suitcase", "bags"),
    ("laptop bag", "bags"),
    ("phone", "electronics"),
    ("laptop", "electronics"),
    ("earbuds", "electronics"),
    ("headphones", "electronics"),
    ("charger", "electronics"),
    ("tablet", "electronics"),
    ("keys", "keys"),
    ("car key", "keys"),
    ("bike lock key", "keys"),
    ("student card", "documents"),
    ("passport", "documents"),
    ("driving licence", "documents"),
    ("notebook", "books"),
    ("textbook", "books"),
    ("water bottle", "other"),
];
const COLOURS: [&str; 14] = [
    "black", "white", "grey", "silver", "red", "blue", "navy", "green", "yellow", "pink", "purple", "brown", "beige",
    "orange",
];
const MATERIALS: [&str; 10] = [
    "leather", "canvas", "plastic", "metal", "wool", "cotton", "denim", "nylon", "steel", "suede",
];
const DETAILS: [&str; 24] = [
    "with a keyring",
    "with a sticker on the back",
    "scratched on one side",
    "with initials inside",
    "in a zipped pocket",
    "with a broken strap",
    "nearly new",
    "with a name tag",
    "with a cracked screen",
    "with a red ribbon",
    "wrapped in a cloth",
    "with two pens clipped to it",
    "with a library card inside",
    "with a charm attached",
    "with a logo on the front",
    "worn at the corners",
    "smells of coffee",
    "left on a bench",
    "left under a seat",
    "found near the entrance",
    "dropped on the stairs",
    "by the ticket machines",
    "next to the lifts",
    "in the lecture hall",
];
const PLACES: [&str; 12] = [
    "Library",
    "Main Hall",
    "Student Union",
    "Science Block",
    "Sports Centre",
    "Station concourse",
    "Bus stop",
    "Cafeteria",
    "Arts Building",
    "Museum entrance",
    "Park gate",
    "Medical School",
];
const SHELVES: [&str; 6] = [
    "Front desk, shelf A",
    "Front desk, shelf B",
    "Security office",
    "Locker 3",
    "Safe",
    "Store room",
];

pub fn write(args: ItemsArgs) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(args.seed);
    let spots: Vec<(f64, f64)> = (0..SPOTS)
        .map(|_| {
            (
                CENTRE.0 + rng.random_range(-SPREAD.0..SPREAD.0),
                CENTRE.1 + rng.random_range(-SPREAD.1..SPREAD.1),
            )
        })
        .collect();
    let out = std::io::stdout().lock();
    let mut out = BufWriter::new(out);
    let start = args.until - YEAR_MS;
    let step = YEAR_MS as f64 / args.count.max(1) as f64;
    for n in 0..args.count {
        let (thing, cat) = *THINGS.choose(&mut rng).expect("not empty");
        let colour = COLOURS.choose(&mut rng).expect("not empty");
        let title = if rng.random_bool(0.4) {
            format!("{colour} {} {thing}", MATERIALS.choose(&mut rng).expect("not empty"))
        } else {
            format!("{colour} {thing}")
        };
        let title = capitalised(&title);
        let desc = format!(
            "{} {}.",
            capitalised(DETAILS.choose(&mut rng).expect("not empty")),
            DETAILS.choose(&mut rng).expect("not empty")
        );
        // Most reports near a spot (within a few hundred metres), some anywhere in the city.
        let (lat, lng) = if rng.random_bool(0.85) {
            let spot = spots.choose(&mut rng).expect("not empty");
            (
                spot.0 + rng.random_range(-0.003..0.003),
                spot.1 + rng.random_range(-0.005..0.005),
            )
        } else {
            (
                CENTRE.0 + rng.random_range(-SPREAD.0..SPREAD.0),
                CENTRE.1 + rng.random_range(-SPREAD.1..SPREAD.1),
            )
        };
        let pending = n >= args.count.saturating_sub(args.pending);
        let kind = if pending || rng.random_bool(0.45) {
            "found"
        } else {
            "lost"
        };
        let status = match rng.random_range(0..100) {
            _ if pending => "pending",
            0..85 => "approved",
            85..95 => "pending",
            _ => "rejected",
        };
        let radius = *[10, 25, 50, 100, 200].choose(&mut rng).expect("not empty");
        let mut item = json!({
            "title": title,
            "desc": desc,
            "cat": cat,
            "kind": kind,
            "lat": (lat * 1e5).round() / 1e5,
            "lng": (lng * 1e5).round() / 1e5,
            "radius": radius,
            "status": status,
            "createdBy": format!("user{}", rng.random_range(1..=args.reporters)),
            "createdAt": start + (n as f64 * step) as i64 + rng.random_range(0..step.max(1.0) as i64),
        });
        if rng.random_bool(0.6) {
            item["place"] = json!(format!(
                "{}, room {}",
                PLACES.choose(&mut rng).expect("not empty"),
                rng.random_range(1..400)
            ));
        }
        if kind == "found" && status == "approved" {
            item["storagePlace"] = json!(SHELVES.choose(&mut rng).expect("not empty"));
        }
        serde_json::to_writer(&mut out, &item)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
