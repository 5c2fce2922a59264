//! Typed access to the fields of a JSON object, with errors that name the field.

use std::str::FromStr;

use serde_json::{Map, Value};

use super::{ValidationError, bounded_text};

pub struct Fields<'a>(pub &'a Map<String, Value>);

impl<'a> Fields<'a> {
    /// Whether the key is present at all (even as `null`).
    pub fn has(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }

    /// A string field; `None` when absent or `null`.
    pub fn string(&self, key: &'static str) -> Result<Option<&'a str>, ValidationError> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(ValidationError::new(key, format!("{key} must be a string"))),
        }
    }

    /// A string field read by `T::from_str`; `None` when absent or `null`. A value of another
    /// JSON type is refused with `T`'s own error (`"status": 3` is an invalid status, not a
    /// type error), by parsing its JSON text, which no valid choice can equal.
    pub fn parsed<T: FromStr<Err = ValidationError>>(&self, key: &str) -> Result<Option<T>, ValidationError> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => s.parse().map(Some),
            Some(other) => other.to_string().parse().map(Some),
        }
    }

    /// A free-text field checked by [`bounded_text`]; `None` when absent, `null` or blank.
    pub fn text(&self, key: &'static str, max: usize) -> Result<Option<String>, ValidationError> {
        match self.string(key)? {
            Some(value) => bounded_text(key, value, max),
            None => Ok(None),
        }
    }

    /// A boolean field; `None` when absent or `null`.
    pub fn boolean(&self, key: &'static str) -> Result<Option<bool>, ValidationError> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(ValidationError::new(key, format!("{key} must be true or false"))),
        }
    }

    /// A numeric field; `None` when absent or `null`.
    pub fn number(&self, key: &'static str) -> Result<Option<f64>, ValidationError> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n
                .as_f64()
                .filter(|v| v.is_finite())
                .map(Some)
                .ok_or_else(|| ValidationError::new(key, format!("{key} must be a finite number"))),
            Some(_) => Err(ValidationError::new(key, format!("{key} must be a number"))),
        }
    }

    /// A number in `[min, max]`; `None` when absent or `null`.
    pub fn number_in(&self, key: &'static str, min: f64, max: f64) -> Result<Option<f64>, ValidationError> {
        match self.number(key)? {
            Some(v) if !(min..=max).contains(&v) => Err(ValidationError::new(
                key,
                format!("{key} must be between {min} and {max}"),
            )),
            v => Ok(v),
        }
    }

    /// The id of a stored record (a site, a bin): a positive integer; `None` when absent or
    /// `null`; anything else is `invalid`, which names the field.
    pub fn record_id(&self, key: &'static str, invalid: &'static str) -> Result<Option<i64>, ValidationError> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => value
                .as_i64()
                .filter(|id| *id > 0)
                .map(Some)
                .ok_or_else(|| ValidationError::new(key, invalid)),
        }
    }
}

/// The id of a stored record (a site, a bin) in a query parameter `key`: a positive integer;
/// `None` when absent; anything else is `invalid`, which names the parameter.
pub fn query_record_id(
    value: Option<&str>,
    key: &'static str,
    invalid: &'static str,
) -> Result<Option<i64>, ValidationError> {
    value
        .map(|v| {
            v.parse()
                .ok()
                .filter(|id: &i64| *id > 0)
                .ok_or_else(|| ValidationError::new(key, invalid))
        })
        .transpose()
}

/// A query parameter `name` that is `true` or `false`; anything else is `Invalid NAME`.
pub fn query_flag(name: &'static str, value: &str) -> Result<bool, ValidationError> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ValidationError::new(name, format!("Invalid {name}"))),
    }
}
