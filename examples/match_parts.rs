//! The parts of every lost/found pair's match score, for replaying the score offline with
//! other weights (`scripts/replay-matching`, which feeds it): reads `{ "items": [{ id, kind,
//! title, desc?, cat?, lat, lng, radius }] }` on stdin, encodes each item's text with the model
//! in `model/usem3` (or `LOSTFOUND_MODEL`), and prints `{ rule, parts }`: the rule of who is
//! told (`likely`, `margin`, `most`: `domain::matching`'s constants) and the share of a score
//! lost when the makers differ (`brandsDiffer`), and one array `[lost id, found id, score,
//! cosine | null, words, place, time, category, colour, brands differ, meters]` for every lost
//! and found item within reach of each other: the service's score, and each part as
//! `domain::matching` measures it before weighing.
//!
//!     cargo run --release --example match_parts < items.json > parts.json

use std::{io::Read, path::PathBuf};

use lostfound::domain::{
    Item, ItemId, ItemKind, ItemStatus, Meaning,
    matching::{BRANDS_DIFFER, LIKELY, Report, TELL_AT_MOST, TELL_MARGIN, text_of},
    says_something,
};
use lostfound_meaning::Encoder;
use serde_json::{Value, json};

fn main() -> anyhow::Result<()> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let input: Value = serde_json::from_str(&input)?;
    let items: Vec<Item> = input["items"]
        .as_array()
        .ok_or_else(|| anyhow::anyhow!("no \"items\" array"))?
        .iter()
        .map(item)
        .collect::<anyhow::Result<_>>()?;
    let dir = std::env::var_os("LOSTFOUND_MODEL").map_or_else(|| PathBuf::from("model/usem3"), PathBuf::from);
    let encoder = Encoder::load(&dir)?;
    let texts: Vec<String> = items.iter().map(text_of).collect();
    let vectors = encoder.encode(&texts.iter().map(String::as_str).collect::<Vec<_>>());
    let meanings: Vec<Option<Meaning>> = texts
        .iter()
        .zip(&vectors)
        .map(|(text, vector)| says_something(text).then(|| Meaning::new(vector)))
        .collect();
    let reports: Vec<Report<'_>> = items
        .iter()
        .zip(&meanings)
        .map(|(item, meaning)| Report::new(item, meaning.as_ref()))
        .collect();
    let mut parts = Vec::new();
    for (lost, report) in items.iter().zip(&reports) {
        if lost.kind != ItemKind::Lost {
            continue;
        }
        for (found, other) in items.iter().zip(&reports) {
            if found.kind != ItemKind::Found {
                continue;
            }
            if let Some(l) = report.likeness(other) {
                let (score, _) = l.weighed(Vec::new());
                parts.push(json!([
                    lost.id.get(),
                    found.id.get(),
                    score,
                    l.cosine,
                    l.words,
                    l.place,
                    l.time,
                    l.category,
                    l.colour,
                    l.brands_differ,
                    l.distance
                ]));
            }
        }
    }
    let rule = json!({
        "likely": LIKELY, "margin": TELL_MARGIN, "most": TELL_AT_MOST, "brandsDiffer": BRANDS_DIFFER,
    });
    println!("{}", json!({ "rule": rule, "parts": parts }));
    Ok(())
}

/// An approved item of the input, each by its own reporter, all reported at one moment.
fn item(value: &Value) -> anyhow::Result<Item> {
    let number = |key: &str| {
        value[key]
            .as_f64()
            .ok_or_else(|| anyhow::anyhow!("no number {key:?} in {value}"))
    };
    let text = |key: &str| value[key].as_str().map(str::to_owned);
    let id = ItemId::new(number("id")? as i64).ok_or_else(|| anyhow::anyhow!("a bad id in {value}"))?;
    Ok(Item {
        id,
        title: text("title").ok_or_else(|| anyhow::anyhow!("no title in {value}"))?,
        desc: text("desc"),
        cat: text("cat"),
        kind: value["kind"].as_str().unwrap_or_default().parse()?,
        photo_version: None,
        lat: number("lat")?,
        lng: number("lng")?,
        radius: number("radius")?,
        status: ItemStatus::Approved,
        storage_place: None,
        place: None,
        created_at: 0,
        created_by: format!("reporter {id}"),
        returned_at: None,
        finder: None,
        verification: None,
        happened: None,
        category_hold_days: None,
        site_hold_days: None,
        sensitive: false,
        disposal: None,
        closed_at: None,
        site_id: Some(1),
        bin_id: None,
        transit_to: None,
        version: 0,
    })
}
