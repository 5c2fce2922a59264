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

/// Binds the derived columns to `$query`, in the order the statements that write them list
/// them: `cat_key, search_words, place_words, geo_x, geo_y, geo_z, radius_sin, radius_cos`.
macro_rules! bind_derived {
    ($query:expr, $derived:expr) => {
        $query
            .bind($derived.cat_key.as_deref())
            .bind(&$derived.search_words)
            .bind($derived.place_words.as_deref())
            .bind($derived.centre.x)
            .bind($derived.centre.y)
            .bind($derived.centre.z)
            .bind($derived.radius.sin)
            .bind($derived.radius.cos)
    };
}
pub(super) use bind_derived;

/// What the derived columns are made from.
pub(super) struct Source<'a> {
    pub title: &'a str,
    pub desc: Option<&'a str>,
    pub cat: Option<&'a str>,
    pub storage_place: Option<&'a str>,
    pub place: Option<&'a str>,
    pub lat: f64,
    pub lng: f64,
    pub radius: f64,
}

impl Derived {
    pub fn of(item: &Source<'_>) -> Self {
        Self {
            cat_key: item.cat.map(str::to_lowercase),
            search_words: search_text([Some(item.title), item.desc, item.cat, item.place]),
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
