//! Columns the store derives from an item for searching and filtering: the folded category,
//! the folded words, and the circle's terms on the unit sphere (see `domain::geo`).

use crate::domain::{
    geo::{HalfAngle, UnitVector},
    search::search_text,
};

/// The derived columns of one item.
pub(super) struct Derived {
    pub cat_key: Option<String>,
    pub search_words: String,
    pub place_words: Option<String>,
    pub centre: UnitVector,
    pub radius: HalfAngle,
}

/// What the derived columns are made from.
pub(super) struct Source<'a> {
    pub title: &'a str,
    pub desc: Option<&'a str>,
    pub cat: Option<&'a str>,
    pub storage_place: Option<&'a str>,
    pub lat: f64,
    pub lng: f64,
    pub radius: f64,
}

impl Derived {
    pub fn of(item: &Source<'_>) -> Self {
        Self {
            cat_key: item.cat.map(str::to_lowercase),
            search_words: search_text([Some(item.title), item.desc, item.cat]),
            place_words: place_words(item.storage_place),
            centre: UnitVector::new(item.lat, item.lng),
            radius: HalfAngle::of_meters(item.radius),
        }
    }
}

/// The folded words of a storage place.
pub(super) fn place_words(storage_place: Option<&str>) -> Option<String> {
    storage_place.map(|place| search_text([Some(place)]))
}
