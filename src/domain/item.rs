//! Item inputs: a new report and an administrator's update.

use std::{fmt, str::FromStr};

use serde_json::{Map, Value};

use super::{Fields, ValidationError, bounded_text, check_image_data_url};

const MAX_TITLE: usize = 200;
const MAX_DESC: usize = 5_000;
const MAX_CAT: usize = 100;
const MAX_STORAGE_PLACE: usize = 200;
const MAX_RADIUS_M: f64 = 100_000.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemStatus {
    Pending,
    Approved,
    Rejected,
}

impl ItemStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
        }
    }
}

impl fmt::Display for ItemStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ItemStatus {
    type Err = ValidationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "pending" => Ok(Self::Pending),
            "approved" => Ok(Self::Approved),
            "rejected" => Ok(Self::Rejected),
            _ => Err(ValidationError::new("status", "Invalid status")),
        }
    }
}

/// A checked report of a lost or found item.
#[derive(Debug, Clone, PartialEq)]
pub struct NewItem {
    pub title: String,
    pub desc: Option<String>,
    pub cat: Option<String>,
    pub img_data: Option<String>,
    pub lat: f64,
    pub lng: f64,
    pub radius: f64,
    pub storage_place: Option<String>,
}

impl NewItem {
    pub fn from_json(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let missing = |field| ValidationError::new(field, "Required fields missing");
        let title = f.string("title")?;
        let lat = f.number_in("lat", -90.0, 90.0)?;
        let lng = f.number_in("lng", -180.0, 180.0)?;
        let title = bounded_text("title", title.unwrap_or(""), MAX_TITLE)?.ok_or_else(|| missing("title"))?;
        let img_data = f.string("imgData")?;
        if let Some(url) = img_data {
            check_image_data_url(url)?;
        }
        Ok(Self {
            title,
            lat: lat.ok_or_else(|| missing("lat"))?,
            lng: lng.ok_or_else(|| missing("lng"))?,
            desc: optional_text(&f, "desc", MAX_DESC)?,
            cat: optional_text(&f, "cat", MAX_CAT)?,
            img_data: img_data.map(str::to_owned),
            radius: f.number_in("radius", 0.0, MAX_RADIUS_M)?.unwrap_or(0.0),
            storage_place: optional_text(&f, "storagePlace", MAX_STORAGE_PLACE)?,
        })
    }
}

/// A checked administrator update; at least one field is set.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemPatch {
    pub status: Option<ItemStatus>,
    /// `Some(None)` clears the storage place.
    pub storage_place: Option<Option<String>>,
}

impl ItemPatch {
    pub fn from_json(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let status = match body.get("status") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.parse()?),
            Some(_) => return Err(ValidationError::new("status", "Invalid status")),
        };
        let storage_place = if f.has("storagePlace") {
            Some(optional_text(&f, "storagePlace", MAX_STORAGE_PLACE)?)
        } else {
            None
        };
        if status.is_none() && storage_place.is_none() {
            return Err(ValidationError {
                message: "No fields to update".into(),
                field: None,
            });
        }
        Ok(Self { status, storage_place })
    }
}

fn optional_text(f: &Fields<'_>, field: &'static str, max: usize) -> Result<Option<String>, ValidationError> {
    match f.string(field)? {
        Some(value) => bounded_text(field, value, max),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn new_item(v: Value) -> Result<NewItem, ValidationError> {
        NewItem::from_json(v.as_object().unwrap())
    }

    fn patch(v: Value) -> Result<ItemPatch, ValidationError> {
        ItemPatch::from_json(v.as_object().unwrap())
    }

    #[test]
    fn minimal_item_gets_defaults() {
        let item = new_item(json!({"title": "  Umbrella ", "lat": 1.5, "lng": -2})).unwrap();
        assert_eq!(item.title, "Umbrella");
        assert_eq!((item.lat, item.lng, item.radius), (1.5, -2.0, 0.0));
        assert_eq!(
            (item.desc, item.cat, item.img_data, item.storage_place),
            (None, None, None, None)
        );
    }

    #[test]
    fn missing_or_blank_required_fields() {
        for body in [
            json!({"lat": 1, "lng": 1}),
            json!({"title": "   ", "lat": 1, "lng": 1}),
            json!({"title": "x", "lng": 1}),
            json!({"title": "x", "lat": 1, "lng": null}),
        ] {
            assert_eq!(new_item(body).unwrap_err().message, "Required fields missing");
        }
    }

    #[test]
    fn wrong_types_name_the_field() {
        let err = new_item(json!({"title": 5, "lat": 1, "lng": 1})).unwrap_err();
        assert_eq!(
            (err.field, err.message.as_ref()),
            (Some("title"), "title must be a string")
        );
        let err = new_item(json!({"title": "x", "lat": "1", "lng": 1})).unwrap_err();
        assert_eq!(err.field, Some("lat"));
        let err = new_item(json!({"title": "x", "lat": 1, "lng": 1, "desc": []})).unwrap_err();
        assert_eq!(err.field, Some("desc"));
    }

    #[test]
    fn bounds() {
        let base = |k: &str, v: Value| {
            let mut b = json!({"title": "x", "lat": 0, "lng": 0});
            b[k] = v;
            new_item(b)
        };
        assert!(base("lat", json!(90)).is_ok());
        assert!(base("lat", json!(90.0001)).is_err());
        assert!(base("lng", json!(-180.5)).is_err());
        assert!(base("radius", json!(-1)).is_err());
        assert!(base("radius", json!(100_000)).is_ok());
        assert!(base("radius", json!(100_001)).is_err());
        assert!(base("title", json!("t".repeat(200))).is_ok());
        assert!(base("title", json!("t".repeat(201))).is_err());
        assert!(base("desc", json!("é".repeat(5_000))).is_ok());
        assert!(base("desc", json!("d".repeat(5_001))).is_err());
        assert!(base("cat", json!("c".repeat(101))).is_err());
        assert!(base("storagePlace", json!("s".repeat(201))).is_err());
        assert!(base("desc", json!("nul\0byte")).is_err());
    }

    #[test]
    fn patch_rules() {
        assert_eq!(patch(json!({})).unwrap_err().message, "No fields to update");
        assert_eq!(patch(json!({"status": "lost"})).unwrap_err().message, "Invalid status");
        assert_eq!(patch(json!({"status": 3})).unwrap_err().message, "Invalid status");
        let p = patch(json!({"status": "approved", "storagePlace": ""})).unwrap();
        assert_eq!((p.status, p.storage_place), (Some(ItemStatus::Approved), Some(None)));
        let p = patch(json!({"storagePlace": null})).unwrap();
        assert_eq!((p.status, p.storage_place), (None, Some(None)));
        let p = patch(json!({"storagePlace": " Desk B "})).unwrap();
        assert_eq!(p.storage_place, Some(Some("Desk B".to_owned())));
    }
}
