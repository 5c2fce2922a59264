//! Named places: the buildings, rooms and stops administrators keep, each with its point and,
//! optionally, its extent (a radius). Choosing one by its name in a report sets where the item
//! was lost or found, without a map.

use serde_json::{Map, Value};

use super::{Fields, ValidationError};

const MAX_NAME: usize = 200;
/// Metres, as a report's radius.
const MAX_RADIUS: f64 = 100_000.0;

/// A named place as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedPlace {
    pub id: i64,
    pub name: String,
    pub lat: f64,
    pub lng: f64,
    /// How far it reaches from its point, in metres; `None`: a point.
    pub radius: Option<f64>,
}

/// A line of an imported file: the place, or its line number and why it was refused.
pub type PlaceLine = Result<NewPlace, (u64, String)>;

/// A named place as sent: `{ name, lat, lng, radius? }`, each checked.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPlace {
    pub name: String,
    pub lat: f64,
    pub lng: f64,
    pub radius: Option<f64>,
}

impl NewPlace {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let name = f
            .text("name", MAX_NAME)?
            .filter(|name| !name.chars().any(char::is_control))
            .ok_or_else(|| ValidationError::new("name", format!("name must be 1-{MAX_NAME} characters")))?;
        let required = |key: &'static str, max: f64| {
            f.number_in(key, -max, max)?
                .ok_or_else(|| ValidationError::new(key, format!("{key} missing")))
        };
        Ok(Self {
            lat: required("lat", 90.0)?,
            lng: required("lng", 180.0)?,
            radius: f.number_in("radius", 0.0, MAX_RADIUS)?,
            name,
        })
    }

    /// What names it in the store: its name folded, so that "Library" and "library" are one.
    pub fn key(&self) -> String {
        self.name.to_lowercase()
    }

    /// Why a file that is not a CSV file of places is refused.
    pub fn not_csv() -> ValidationError {
        ValidationError::new(
            "file",
            "The file must be CSV with the columns name, lat, lng and radius",
        )
    }

    /// The places of a CSV file with the header `name,lat,lng,radius` (`radius` may be left
    /// out or blank), each line parsed or refused with its line number (the header is line 1).
    pub fn parse_csv(text: &str) -> Result<Vec<PlaceLine>, ValidationError> {
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .flexible(true)
            .from_reader(text.as_bytes());
        let invalid = Self::not_csv;
        let headers = reader.headers().map_err(|_| invalid())?.clone();
        let column = |name: &str| headers.iter().position(|header| header.eq_ignore_ascii_case(name));
        let (Some(name), Some(lat), Some(lng)) = (column("name"), column("lat"), column("lng")) else {
            return Err(invalid());
        };
        let radius = column("radius");
        Ok(reader
            .records()
            .map(|record| {
                let line = record.as_ref().ok().and_then(|r| r.position()).map_or(0, |p| p.line());
                let record = record.map_err(|err| (line, err.to_string()))?;
                let cell = |at: Option<usize>| at.and_then(|at| record.get(at)).filter(|cell| !cell.is_empty());
                let number = |at| match cell(at) {
                    None => Value::Null,
                    // Not a number: a string, which the field's check names.
                    Some(cell) => cell.parse::<f64>().map_or_else(|_| Value::from(cell), Value::from),
                };
                let body = Map::from_iter([
                    ("name".to_owned(), cell(Some(name)).map_or(Value::Null, Value::from)),
                    ("lat".to_owned(), number(Some(lat))),
                    ("lng".to_owned(), number(Some(lng))),
                    ("radius".to_owned(), number(radius)),
                ]);
                Self::parse(&body).map_err(|err| (line, err.message.into_owned()))
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_place_needs_a_name_and_a_point_and_may_have_a_radius() {
        let body = json!({ "name": " Main library ", "lat": 51.5, "lng": -0.12, "radius": 40 });
        let place = NewPlace::parse(body.as_object().unwrap()).unwrap();
        assert_eq!((place.name.as_str(), place.radius), ("Main library", Some(40.0)));
        assert_eq!(place.key(), "main library");
        for (bad, field) in [
            (json!({ "lat": 1, "lng": 1 }), "name"),
            (json!({ "name": "a\nb", "lat": 1, "lng": 1 }), "name"),
            (json!({ "name": "x", "lng": 1 }), "lat"),
            (json!({ "name": "x", "lat": 91, "lng": 1 }), "lat"),
            (json!({ "name": "x", "lat": 1, "lng": "east" }), "lng"),
            (json!({ "name": "x", "lat": 1, "lng": 1, "radius": -1 }), "radius"),
        ] {
            assert_eq!(
                NewPlace::parse(bad.as_object().unwrap()).unwrap_err().field,
                Some(field),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_file_gives_each_line_or_says_why_not() {
        let file = "Name,Lat,Lng,Radius\nMain library, 51.5, -0.12, 40\n\"Hall, east wing\",51.6,-0.1,\nBus stop 4,north,-0.1,\n";
        let places = NewPlace::parse_csv(file).unwrap();
        assert_eq!(places[0].as_ref().unwrap().name, "Main library");
        assert_eq!(places[1].as_ref().unwrap().name, "Hall, east wing");
        assert_eq!(places[1].as_ref().unwrap().radius, None);
        assert_eq!(places[2].as_ref().unwrap_err().0, 4);
        assert!(places[2].as_ref().unwrap_err().1.contains("lat"));
        assert!(NewPlace::parse_csv("title,x,y\nA,1,2\n").is_err());
    }
}
