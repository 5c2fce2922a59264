//! Storage bins: where a site keeps what it holds, each with a code on the shelf ("A-3-2")
//! and a name people read ("Shelf A, row 3, box 2"). An item in a bin has the bin's name as
//! its storage place, the contract's field.

use serde_json::{Map, Value};

use super::{Fields, ValidationError, bounded_text};

const MAX_CODE: usize = 32;
/// As long as a storage place may be: the bin's name becomes one.
pub const MAX_BIN_NAME: usize = 200;

/// A bin as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bin {
    pub id: i64,
    pub site_id: i64,
    /// Unique in its site, ignoring case.
    pub code: String,
    pub name: String,
}

/// A bin's fields as sent: both for a new bin, at least one for a change.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct BinFields {
    pub code: Option<String>,
    pub name: Option<String>,
}

impl BinFields {
    /// `POST /api/sites/:id/bins { code, name? }`: the name defaults to the code.
    pub fn parse_new(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let fields = Self::parse(body)?;
        let code = fields
            .code
            .ok_or_else(|| ValidationError::new("code", "Code required"))?;
        Ok(Self {
            name: Some(fields.name.unwrap_or_else(|| code.clone())),
            code: Some(code),
        })
    }

    /// `PATCH /api/bins/:id { code?, name? }`.
    pub fn parse_change(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let fields = Self::parse(body)?;
        if fields == Self::default() {
            return Err(ValidationError::new("body", "No fields to update"));
        }
        Ok(fields)
    }

    fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let code = f.string("code")?.map(code).transpose()?;
        let name = match f.string("name")? {
            Some(name) => Some(
                bounded_text("name", name, MAX_BIN_NAME)?
                    .ok_or_else(|| ValidationError::new("name", "Name required"))?,
            ),
            None => None,
        };
        Ok(Self { code, name })
    }

    /// The bin with these fields changed.
    pub fn applied_to(&self, bin: &Bin) -> Bin {
        Bin {
            code: self.code.clone().unwrap_or_else(|| bin.code.clone()),
            name: self.name.clone().unwrap_or_else(|| bin.name.clone()),
            ..bin.clone()
        }
    }
}

/// A code as printed on a shelf and scanned: letters, digits and `-_./`, 1 to 32 of them.
fn code(value: &str) -> Result<String, ValidationError> {
    let value = value.trim();
    let fits = (1..=MAX_CODE).contains(&value.chars().count())
        && value
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'));
    if fits {
        Ok(value.to_owned())
    } else {
        Err(ValidationError::new(
            "code",
            "code must be 1 to 32 letters, digits, -, _, . or /",
        ))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn a_new_bin_needs_a_code_and_is_named_after_it_unless_named() {
        let bin = BinFields::parse_new(&object(json!({ "code": " A-3-2 " }))).unwrap();
        assert_eq!(
            (bin.code.as_deref(), bin.name.as_deref()),
            (Some("A-3-2"), Some("A-3-2"))
        );
        let named = BinFields::parse_new(&object(json!({ "code": "S1", "name": "Safe" }))).unwrap();
        assert_eq!(named.name.as_deref(), Some("Safe"));
        for (body, field) in [
            (json!({}), "code"),
            (json!({ "code": "" }), "code"),
            (json!({ "code": "A 3" }), "code"),
            (json!({ "code": "x".repeat(33) }), "code"),
            (json!({ "code": 3 }), "code"),
            (json!({ "code": "A", "name": " " }), "name"),
            (json!({ "code": "A", "name": "n".repeat(201) }), "name"),
        ] {
            assert_eq!(
                BinFields::parse_new(&object(body.clone())).unwrap_err().field,
                Some(field),
                "{body}"
            );
        }
    }

    #[test]
    fn a_change_names_at_least_one_field_and_keeps_the_rest() {
        assert!(BinFields::parse_change(&object(json!({}))).is_err());
        let bin = Bin {
            id: 4,
            site_id: 2,
            code: "A-1".into(),
            name: "Shelf A".into(),
        };
        let change = BinFields::parse_change(&object(json!({ "name": "Safe" }))).unwrap();
        assert_eq!(
            change.applied_to(&bin),
            Bin {
                name: "Safe".into(),
                ..bin
            }
        );
    }
}
