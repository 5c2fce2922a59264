//! A report corrected after it was made, by its reporter while it is open or by its site's
//! staff: the title, the description, the category, the place in words, the point and radius,
//! the photo, when it was lost or found; and, by staff only, a found item's verification
//! details. Only what is sent changes; `null` clears what may be empty.

use serde_json::{Map, Value, json};

use super::{
    Happened, NewPhoto, ValidationError, bounded_text,
    fields::Fields,
    item::{MAX_CAT, MAX_DESC, MAX_PLACE, MAX_RADIUS_M, MAX_TITLE, MAX_VERIFICATION, photo_of},
};

/// A checked correction with at least one field, made only by [`ReportEdit::parse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReportEdit {
    title: Option<String>,
    /// `Some(None)` clears it (likewise `cat` and `place`).
    desc: Option<Option<String>>,
    cat: Option<Option<String>>,
    place: Option<Option<String>>,
    /// Latitude and longitude, together.
    point: Option<(f64, f64)>,
    radius: Option<f64>,
    /// `Some(None)` removes the photo.
    photo: Option<Option<NewPhoto>>,
    /// What only the owner would know (staff only); `Some(None)` clears it.
    verification: Option<Option<String>>,
    /// When it was lost or found; `Some(None)` (`happenedFrom: null`) clears it.
    happened: Option<Option<Happened>>,
}

impl ReportEdit {
    /// Checks the body of `PATCH /api/items/:id/report`, with the bounds of a new report.
    /// Decodes a new photo, if any: CPU-heavy.
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let cleared_or = |key: &'static str, max: usize| -> Result<Option<Option<String>>, ValidationError> {
            f.has(key).then(|| f.text(key, max)).transpose()
        };
        let title = match f.has("title") {
            true => Some(
                bounded_text("title", f.string("title")?.unwrap_or(""), MAX_TITLE)?
                    .ok_or_else(|| ValidationError::new("title", "title is required"))?,
            ),
            false => None,
        };
        let point = match (f.number_in("lat", -90.0, 90.0)?, f.number_in("lng", -180.0, 180.0)?) {
            (Some(lat), Some(lng)) => Some((lat, lng)),
            (None, None) => None,
            _ => return Err(ValidationError::new("lat", "lat and lng go together")),
        };
        // As a new report's, where an empty one is none (here: the photo removed).
        let photo = f.has("imgData").then(|| photo_of(&f)).transpose()?;
        let edit = Self {
            title,
            desc: cleared_or("desc", MAX_DESC)?,
            cat: cleared_or("cat", MAX_CAT)?,
            place: cleared_or("place", MAX_PLACE)?,
            point,
            radius: f.number_in("radius", 0.0, MAX_RADIUS_M)?,
            photo,
            verification: cleared_or("verification", MAX_VERIFICATION)?,
            happened: (f.has("happenedFrom") || f.has("happenedUntil"))
                .then(|| Happened::parse(&f))
                .transpose()?,
        };
        if edit == Self::NOTHING {
            return Err(ValidationError {
                message: "No fields to update".into(),
                field: None,
            });
        }
        Ok(edit)
    }

    const NOTHING: Self = Self {
        title: None,
        desc: None,
        cat: None,
        place: None,
        point: None,
        radius: None,
        photo: None,
        verification: None,
        happened: None,
    };

    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// `None`: unchanged; `Some(None)`: cleared.
    pub fn desc(&self) -> Option<Option<&str>> {
        self.desc.as_ref().map(Option::as_deref)
    }

    pub fn cat(&self) -> Option<Option<&str>> {
        self.cat.as_ref().map(Option::as_deref)
    }

    pub fn place(&self) -> Option<Option<&str>> {
        self.place.as_ref().map(Option::as_deref)
    }

    pub fn point(&self) -> Option<(f64, f64)> {
        self.point
    }

    pub fn radius(&self) -> Option<f64> {
        self.radius
    }

    /// `None`: unchanged; `Some(None)`: removed.
    pub fn photo(&self) -> Option<Option<&NewPhoto>> {
        self.photo.as_ref().map(Option::as_ref)
    }

    /// `None`: unchanged; `Some(None)`: cleared.
    pub fn verification(&self) -> Option<Option<&str>> {
        self.verification.as_ref().map(Option::as_deref)
    }

    /// `None`: unchanged; `Some(None)`: cleared.
    pub fn happened(&self) -> Option<Option<Happened>> {
        self.happened
    }

    /// Whether it changes what the report says (not only where): its meaning is made again.
    pub fn changes_text(&self) -> bool {
        self.title.is_some() || self.desc.is_some() || self.cat.is_some() || self.place.is_some()
    }

    /// What the change log keeps of it: each field changed, with its new value (a photo as
    /// whether there is one: its bytes are no history).
    pub fn to_json(&self) -> Value {
        let mut entry = Map::new();
        let mut put = |key: &str, value: Value| {
            entry.insert(key.into(), value);
        };
        if let Some(title) = &self.title {
            put("title", json!(title));
        }
        for (key, value) in [("desc", &self.desc), ("cat", &self.cat), ("place", &self.place)] {
            if let Some(value) = value {
                put(key, json!(value));
            }
        }
        if let Some((lat, lng)) = self.point {
            put("lat", json!(lat));
            put("lng", json!(lng));
        }
        if let Some(radius) = self.radius {
            put("radius", json!(radius));
        }
        if let Some(photo) = &self.photo {
            put("photo", json!(photo.is_some()));
        }
        // As the store keeps times: epoch milliseconds.
        if let Some(happened) = self.happened {
            put("happenedFrom", json!(happened.map(|h| h.from)));
            put("happenedUntil", json!(happened.map(|h| h.until)));
        }
        // Private: the history says only whether there are any now.
        if let Some(verification) = &self.verification {
            put("verification", json!(verification.is_some()));
        }
        json!({ "edited": entry })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(v: Value) -> Result<ReportEdit, ValidationError> {
        ReportEdit::parse(v.as_object().unwrap())
    }

    #[test]
    fn only_what_is_sent_changes_and_null_clears() {
        let e = edit(json!({ "title": "  Blue umbrella ", "desc": null, "cat": "Bags" })).unwrap();
        assert_eq!(e.title(), Some("Blue umbrella"));
        assert_eq!((e.desc(), e.cat(), e.place()), (Some(None), Some(Some("Bags")), None));
        assert_eq!((e.point(), e.radius(), e.photo()), (None, None, None));
        assert!(e.changes_text());
        let moved = edit(json!({ "lat": 1.5, "lng": -2, "radius": 30 })).unwrap();
        assert_eq!((moved.point(), moved.radius()), (Some((1.5, -2.0)), Some(30.0)));
        assert!(!moved.changes_text());
        assert_eq!(edit(json!({ "imgData": "" })).unwrap().photo(), Some(None));
        let checked = edit(json!({ "verification": " Sticker inside " })).unwrap();
        assert_eq!(checked.verification(), Some(Some("Sticker inside")));
        assert!(!checked.changes_text());
        assert_eq!(checked.to_json(), json!({ "edited": { "verification": true } }));
        let when =
            edit(json!({ "happenedFrom": "1970-01-01T00:00:01Z", "happenedUntil": "1970-01-01T00:00:02Z" })).unwrap();
        assert_eq!(
            when.happened(),
            Some(Some(Happened {
                from: 1000,
                until: 2000
            }))
        );
        assert_eq!(
            when.to_json(),
            json!({ "edited": { "happenedFrom": 1000, "happenedUntil": 2000 } })
        );
        let forgotten = edit(json!({ "happenedFrom": null })).unwrap();
        assert_eq!(forgotten.happened(), Some(None));
        assert_eq!(
            forgotten.to_json(),
            json!({ "edited": { "happenedFrom": null, "happenedUntil": null } })
        );
        assert_eq!(
            moved.to_json(),
            json!({ "edited": { "lat": 1.5, "lng": -2.0, "radius": 30.0 } })
        );
    }

    #[test]
    fn a_bad_edit_names_its_field() {
        for (body, field, message) in [
            (json!({}), None, "No fields to update"),
            (json!({ "unknown": 1 }), None, "No fields to update"),
            (json!({ "title": "  " }), Some("title"), "title is required"),
            (json!({ "title": null }), Some("title"), "title is required"),
            (json!({ "lat": 10 }), Some("lat"), "lat and lng go together"),
            (
                json!({ "lat": 91, "lng": 0 }),
                Some("lat"),
                "lat must be between -90 and 90",
            ),
            (
                json!({ "radius": -1 }),
                Some("radius"),
                "radius must be between 0 and 100000",
            ),
            (json!({ "desc": 3 }), Some("desc"), "desc must be a string"),
            (json!({ "imgData": "data:" }), Some("imgData"), ""),
        ] {
            let err = edit(body.clone()).unwrap_err();
            assert_eq!(err.field, field, "{body}");
            if !message.is_empty() {
                assert_eq!(err.message, message, "{body}");
            }
        }
    }
}
