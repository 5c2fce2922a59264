//! Checked domain values: every input is parsed into one of these before it reaches the store.

mod fields;
mod image;
mod item;
mod message;
mod user;

use std::borrow::Cow;

pub use fields::Fields;
pub use image::check_image_data_url;
pub use item::{ItemPatch, ItemStatus, NewItem};
pub use message::{ChatInput, ThreadInput, ThreadRef, check_join_payload};
pub use user::{DisplayName, Password, UserId};

/// A rejected input: the message clients see and the field it concerns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ValidationError {
    pub message: Cow<'static, str>,
    pub field: Option<&'static str>,
}

impl ValidationError {
    pub fn new(field: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            message: message.into(),
            field: Some(field),
        }
    }
}

/// Checks a piece of free text: at most `max` characters and no NUL (which PostgreSQL
/// cannot store), returned trimmed; `None` when it is empty after trimming.
fn bounded_text(field: &'static str, value: &str, max: usize) -> Result<Option<String>, ValidationError> {
    let value = value.trim();
    if value.contains('\0') {
        return Err(ValidationError::new(
            field,
            format!("{field} must not contain NUL characters"),
        ));
    }
    if value.chars().count() > max {
        return Err(ValidationError::new(
            field,
            format!("{field} must be at most {max} characters"),
        ));
    }
    Ok((!value.is_empty()).then(|| value.to_owned()))
}
