//! Sites: the desks of one service (a library's, a sports centre's, a station's), each with
//! where it is, when it is open, how to reach it and what to bring to collect an item.

use serde_json::{Map, Value};

use super::{Fields, ValidationError, custody::parse_hold_days, geo::UnitVector};

const MAX_NAME: usize = 100;
const MAX_PLACE: usize = 200;
const MAX_HOURS: usize = 200;
const MAX_CONTACT: usize = 200;
const MAX_COLLECT: usize = 500;

/// A site as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    pub id: i64,
    pub name: String,
    /// Where it is, in words people can read ("Student Union, room 12").
    pub place: Option<String>,
    /// Its point on the map, when it has one: reports are given to the nearest site.
    pub point: Option<(f64, f64)>,
    pub hours: Option<String>,
    pub contact: Option<String>,
    /// How to collect an item: what ID to bring.
    pub collect: Option<String>,
    /// How many days it keeps found items, when not the service's period.
    pub hold_days: Option<u32>,
}

/// The site nearest `(lat, lng)` of `sites`: the first of the nearest, a site without a
/// point after every site with one, as the store's insert orders them (largest dot product of
/// the unit vectors, then the lowest id; `sites` in id order).
pub fn nearest(sites: &[Site], lat: f64, lng: f64) -> Option<&Site> {
    let at = UnitVector::new(lat, lng);
    let nearness = |site: &&Site| {
        site.point.map_or(-2.0, |(lat, lng)| {
            let site = UnitVector::new(lat, lng);
            site.x * at.x + site.y * at.y + site.z * at.z
        })
    };
    // `max_by` keeps the last of equals: reversed, the first.
    sites.iter().rev().max_by(|a, b| nearness(a).total_cmp(&nearness(b)))
}

/// A site's fields as sent, each checked: for a new site `name` is required; for a change,
/// only what is sent changes, and `null` (or blank text) clears a field.
#[derive(Debug, Default, PartialEq)]
pub struct SiteFields {
    name: Option<String>,
    place: Option<Option<String>>,
    point: Option<Option<(f64, f64)>>,
    hours: Option<Option<String>>,
    contact: Option<Option<String>>,
    collect: Option<Option<String>>,
    hold_days: Option<Option<u32>>,
}

impl SiteFields {
    /// `POST /api/sites { name, place?, lat?, lng?, hours?, contact?, collect?, holdDays? }`.
    pub fn parse_new(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let fields = Self::parse(body)?;
        if fields.name.is_none() {
            return Err(ValidationError::new("name", "Name required"));
        }
        Ok(fields)
    }

    /// `PATCH /api/sites/:id` with at least one of the fields.
    pub fn parse_change(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let fields = Self::parse(body)?;
        if fields == Self::default() {
            return Err(ValidationError::new("body", "No fields to update"));
        }
        Ok(fields)
    }

    /// A new site from its parts, each checked (the command line's `site add`).
    pub fn new(
        name: &str,
        place: Option<&str>,
        point: Option<(f64, f64)>,
        hours: Option<&str>,
        contact: Option<&str>,
        collect: Option<&str>,
        hold_days: Option<u32>,
    ) -> Result<Self, ValidationError> {
        let mut body = Map::new();
        body.insert("name".into(), name.into());
        for (key, value) in [
            ("place", place),
            ("hours", hours),
            ("contact", contact),
            ("collect", collect),
        ] {
            if let Some(value) = value {
                body.insert(key.into(), value.into());
            }
        }
        if let Some((lat, lng)) = point {
            body.insert("lat".into(), lat.into());
            body.insert("lng".into(), lng.into());
        }
        if let Some(days) = hold_days {
            body.insert("holdDays".into(), days.into());
        }
        Self::parse_new(&body)
    }

    fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let text = |key: &'static str, max: usize| -> Result<Option<Option<String>>, ValidationError> {
            if !f.has(key) {
                return Ok(None);
            }
            Ok(Some(f.text(key, max)?))
        };
        let name = match text("name", MAX_NAME)? {
            None => None,
            Some(Some(name)) if !name.chars().any(char::is_control) => Some(name),
            Some(_) => {
                return Err(ValidationError::new(
                    "name",
                    format!("Name must be 1-{MAX_NAME} characters without control characters"),
                ));
            }
        };
        let point = match (f.has("lat"), f.has("lng")) {
            (false, false) => None,
            _ => match (f.number_in("lat", -90.0, 90.0)?, f.number_in("lng", -180.0, 180.0)?) {
                (Some(lat), Some(lng)) => Some(Some((lat, lng))),
                (None, None) => Some(None),
                (None, Some(_)) => return Err(ValidationError::new("lat", "lat and lng go together")),
                (Some(_), None) => return Err(ValidationError::new("lng", "lat and lng go together")),
            },
        };
        Ok(Self {
            name,
            place: text("place", MAX_PLACE)?,
            point,
            hours: text("hours", MAX_HOURS)?,
            contact: text("contact", MAX_CONTACT)?,
            collect: text("collect", MAX_COLLECT)?,
            hold_days: parse_hold_days(body)?,
        })
    }

    /// `site` with these fields applied.
    pub fn applied_to(&self, site: &Site) -> Site {
        let or =
            |changed: &Option<Option<String>>, old: &Option<String>| changed.clone().unwrap_or_else(|| old.clone());
        Site {
            id: site.id,
            name: self.name.clone().unwrap_or_else(|| site.name.clone()),
            place: or(&self.place, &site.place),
            point: self.point.unwrap_or(site.point),
            hours: or(&self.hours, &site.hours),
            contact: or(&self.contact, &site.contact),
            collect: or(&self.collect, &site.collect),
            hold_days: self.hold_days.unwrap_or(site.hold_days),
        }
    }

    /// A new site with these fields (`id` 0 until it is stored).
    pub fn to_new_site(&self) -> Site {
        self.applied_to(&Site {
            id: 0,
            name: String::new(),
            place: None,
            point: None,
            hours: None,
            contact: None,
            collect: None,
            hold_days: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn body(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn a_new_site_needs_a_name_and_takes_the_rest_as_sent() {
        let site = SiteFields::parse_new(&body(json!({
            "name": " Library desk ", "place": "Library, ground floor", "lat": 37.55, "lng": 127.07,
            "hours": "Mon-Fri 9-17", "collect": "Bring your student card"
        })))
        .unwrap()
        .to_new_site();
        assert_eq!(site.name, "Library desk");
        assert_eq!(site.point, Some((37.55, 127.07)));
        assert_eq!(site.contact, None);
        assert_eq!(site.collect.as_deref(), Some("Bring your student card"));
        for (bad, field) in [
            (json!({}), "name"),
            (json!({"name": "  "}), "name"),
            (json!({"name": "a\u{7}b"}), "name"),
            (json!({"name": 5}), "name"),
            (json!({"name": "x", "lat": 1}), "lng"),
            (json!({"name": "x", "lng": 1}), "lat"),
            (json!({"name": "x", "lat": 91, "lng": 1}), "lat"),
            (json!({"name": "x", "hours": "h".repeat(201)}), "hours"),
            (json!({"name": "x", "holdDays": -1}), "holdDays"),
            (json!({"name": "x", "holdDays": 3651}), "holdDays"),
            (json!({"name": "x", "holdDays": "7"}), "holdDays"),
        ] {
            assert_eq!(
                SiteFields::parse_new(&body(bad.clone())).unwrap_err().field,
                Some(field),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_nearest_site_is_the_first_of_the_closest_and_sites_without_a_point_come_last() {
        let site = |id, point| Site {
            id,
            point,
            ..SiteFields::new("s", None, None, None, None, None, None)
                .unwrap()
                .to_new_site()
        };
        let sites = [
            site(1, None),
            site(2, Some((37.0, 127.0))),
            site(3, Some((40.0, -3.0))),
            site(4, Some((37.0, 127.0))),
        ];
        assert_eq!(nearest(&sites, 37.1, 127.1).map(|s| s.id), Some(2));
        assert_eq!(nearest(&sites, 41.0, -3.5).map(|s| s.id), Some(3));
        assert_eq!(nearest(&sites[..1], 41.0, -3.5).map(|s| s.id), Some(1));
        assert_eq!(nearest(&[], 0.0, 0.0), None);
    }

    #[test]
    fn a_change_sets_what_is_sent_and_null_clears() {
        let old = SiteFields::new(
            "Gym",
            Some("Sports centre"),
            Some((1.0, 2.0)),
            None,
            Some("x"),
            None,
            Some(30),
        )
        .unwrap()
        .to_new_site();
        assert_eq!(old.hold_days, Some(30));
        let changed = SiteFields::parse_change(&body(json!({"place": null, "lat": null, "lng": null, "hours": "9-5"})))
            .unwrap()
            .applied_to(&old);
        assert_eq!(changed.hold_days, Some(30), "kept when not sent");
        let cleared = SiteFields::parse_change(&body(json!({"holdDays": null})))
            .unwrap()
            .applied_to(&old);
        assert_eq!(cleared.hold_days, None);
        assert_eq!(
            (
                changed.name.as_str(),
                changed.place,
                changed.point,
                changed.hours.as_deref(),
                changed.contact.as_deref()
            ),
            ("Gym", None, None, Some("9-5"), Some("x"))
        );
        assert_eq!(
            SiteFields::parse_change(&body(json!({}))).unwrap_err().field,
            Some("body")
        );
        assert_eq!(
            SiteFields::parse_change(&body(json!({"name": null})))
                .unwrap_err()
                .field,
            Some("name")
        );
    }
}
