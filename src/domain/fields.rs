//! Typed access to the fields of a JSON object, with errors that name the field.

use serde_json::{Map, Value};

use super::ValidationError;

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
}
