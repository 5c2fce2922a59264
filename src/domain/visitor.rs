//! A visitor without an account, whose lost report staff take at the desk: their name, their
//! email address (the report's notices and a private link to follow it go there) and, if they
//! give one, a phone number for the desk to call.

use serde_json::Value;

use super::{DisplayName, Email, Fields, ValidationError};

/// The longest phone number, in characters.
const MAX_PHONE: usize = 40;

#[derive(Debug, Clone, PartialEq)]
pub struct Visitor {
    pub name: DisplayName,
    pub email: Email,
    pub phone: Option<String>,
}

impl Visitor {
    /// The `visitor` of a new report: `{ name, email, phone? }`; `null` is none. A phone is
    /// digits with spaces, `+`, `-`, `(`, `)` or `.` between them.
    pub fn parse(value: Option<&Value>) -> Result<Option<Self>, ValidationError> {
        let invalid = || ValidationError::new("visitor", "Invalid visitor");
        let fields = match value {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Object(fields)) => fields,
            Some(_) => return Err(invalid()),
        };
        if fields
            .keys()
            .any(|key| !["name", "email", "phone"].contains(&key.as_str()))
        {
            return Err(invalid());
        }
        let f = Fields(fields);
        let required = |key: &'static str| f.string(key).ok().flatten().ok_or_else(invalid);
        let phone = f
            .text("phone", MAX_PHONE)
            .ok()
            .ok_or_else(|| ValidationError::new("phone", "Invalid phone"))?;
        if let Some(phone) = &phone {
            let digits = phone.chars().filter(char::is_ascii_digit).count();
            if digits < 3 || !phone.chars().all(|c| c.is_ascii_digit() || " +-().".contains(c)) {
                return Err(ValidationError::new("phone", "Invalid phone"));
            }
        }
        Ok(Some(Self {
            name: DisplayName::parse(required("name")?)?,
            email: Email::parse(required("email")?)?,
            phone,
        }))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(value: Value) -> Result<Option<Visitor>, ValidationError> {
        Visitor::parse(Some(&value))
    }

    #[test]
    fn a_name_an_address_and_perhaps_a_phone() {
        assert_eq!(parse(json!(null)).unwrap(), None);
        let visitor =
            parse(json!({ "name": " Min-jun Lee ", "email": "minjun@example.org", "phone": "+82 (10) 1234-5678" }))
                .unwrap()
                .unwrap();
        assert_eq!(
            (visitor.name.as_str(), visitor.email.as_str(), visitor.phone.as_deref()),
            ("Min-jun Lee", "minjun@example.org", Some("+82 (10) 1234-5678"))
        );
        assert_eq!(
            parse(json!({ "name": "Ann", "email": "ann@example.org", "phone": " " }))
                .unwrap()
                .unwrap()
                .phone,
            None
        );
    }

    #[test]
    fn anything_else_names_its_field() {
        for (bad, field) in [
            (json!("Ann"), "visitor"),
            (json!({ "name": "Ann" }), "visitor"),
            (json!({ "email": "ann@example.org" }), "visitor"),
            (
                json!({ "name": "Ann", "email": "ann@example.org", "role": "admin" }),
                "visitor",
            ),
            (json!({ "name": "Ann", "email": "not an address" }), "email"),
            (json!({ "name": "", "email": "ann@example.org" }), "name"),
            (
                json!({ "name": "Ann", "email": "ann@example.org", "phone": "call me" }),
                "phone",
            ),
            (
                json!({ "name": "Ann", "email": "ann@example.org", "phone": "12" }),
                "phone",
            ),
            (
                json!({ "name": "Ann", "email": "ann@example.org", "phone": 123456 }),
                "phone",
            ),
            (
                json!({ "name": "Ann", "email": "ann@example.org", "phone": "1".repeat(41) }),
                "phone",
            ),
        ] {
            assert_eq!(parse(bad.clone()).unwrap_err().field, Some(field), "{bad}");
        }
    }
}
