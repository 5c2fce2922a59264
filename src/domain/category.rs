//! Categories of items, kept by administrators: the key a report stores as its category, the
//! category's name in each language the service speaks, and how long found items of it are
//! kept. A report may still carry any category (the contract's `cat` is free text): one that
//! is not kept here reads as typed and keeps the site's or the service's period.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Fields, ValidationError, custody::parse_hold_days};

/// Longest key and name, as long as a report's category may be.
const MAX_NAME: usize = 100;

/// A category as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Category {
    /// What reports of it store as `cat`, folded to lower case (the store's `cat_key`).
    pub key: String,
    pub names: CategoryNames,
    /// How many days found items of it are kept, at every site (what spoils, spoils
    /// anywhere); `None`: the site's or the service's period.
    pub hold_days: Option<u32>,
    /// Whether the public view of its items leaves out their description and photo.
    pub sensitive: bool,
}

/// A category's name in each language: English always (what the others fall back to).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryNames {
    pub en: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ko: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub es: Option<String>,
}

impl CategoryNames {
    /// The same name in every language: a category known only by its key.
    pub fn only(name: &str) -> Self {
        Self {
            en: name.to_owned(),
            ko: None,
            es: None,
        }
    }

    /// `{ en, ko?, es? }`, each 1–100 characters without control characters.
    fn parse(value: &Value) -> Result<Self, ValidationError> {
        let invalid = || {
            ValidationError::new(
                "names",
                format!("names must be an object of en (required), ko and es, each 1-{MAX_NAME} characters"),
            )
        };
        let object = value.as_object().ok_or_else(invalid)?;
        if object.keys().any(|lang| !["en", "ko", "es"].contains(&lang.as_str())) {
            return Err(invalid());
        }
        let f = Fields(object);
        let name = |lang: &'static str| match f.text(lang, MAX_NAME) {
            Ok(Some(name)) if name.chars().any(char::is_control) => Err(invalid()),
            Ok(name) => Ok(name),
            Err(_) => Err(invalid()),
        };
        Ok(Self {
            en: name("en")?.ok_or_else(invalid)?,
            ko: name("ko")?,
            es: name("es")?,
        })
    }
}

/// A category's fields as sent, each checked: a new one needs its names (and may name its
/// key, else its English name folded is); a change sends its names (all of them: they replace
/// the old), its holding period, or both. The key never changes: reports carry it.
#[derive(Debug, PartialEq)]
pub struct CategoryFields {
    key: Option<String>,
    names: Option<CategoryNames>,
    hold_days: Option<Option<u32>>,
    sensitive: Option<bool>,
}

impl CategoryFields {
    /// `POST /api/categories { key?, names, holdDays?, sensitive? }`.
    pub fn parse_new(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let fields = Self::parse(body)?;
        if fields.names.is_none() {
            return Err(ValidationError::new("names", "Names required"));
        }
        Ok(fields)
    }

    /// `PATCH /api/categories/:key { names?, holdDays?, sensitive? }`, at least one.
    pub fn parse_change(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let fields = Self::parse(body)?;
        if fields.key.is_some() {
            return Err(ValidationError::new("key", "A category's key cannot change"));
        }
        if fields.names.is_none() && fields.hold_days.is_none() && fields.sensitive.is_none() {
            return Err(ValidationError::new("body", "No fields to update"));
        }
        Ok(fields)
    }

    fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let key = match Fields(body).text("key", MAX_NAME)? {
            Some(key) if key.chars().any(char::is_control) => {
                return Err(ValidationError::new(
                    "key",
                    format!("key must be 1-{MAX_NAME} characters without control characters"),
                ));
            }
            key => key,
        };
        Ok(Self {
            key,
            names: body.get("names").map(CategoryNames::parse).transpose()?,
            hold_days: parse_hold_days(body)?,
            sensitive: Fields(body).boolean("sensitive")?,
        })
    }

    /// The new category these fields make (`parse_new` checked its names).
    pub fn to_new_category(&self) -> Category {
        let names = self.names.clone().unwrap_or_else(|| CategoryNames::only(""));
        Category {
            key: self.key.as_deref().unwrap_or(&names.en).to_lowercase(),
            names,
            hold_days: self.hold_days.flatten(),
            sensitive: self.sensitive.unwrap_or(false),
        }
    }

    /// `category` with these fields applied.
    pub fn applied_to(&self, category: &Category) -> Category {
        Category {
            key: category.key.clone(),
            names: self.names.clone().unwrap_or_else(|| category.names.clone()),
            hold_days: self.hold_days.unwrap_or(category.hold_days),
            sensitive: self.sensitive.unwrap_or(category.sensitive),
        }
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
    fn a_new_category_is_keyed_by_its_english_name_folded_unless_it_names_a_key() {
        let new = CategoryFields::parse_new(&body(
            json!({"names": {"en": " Umbrellas ", "ko": "우산"}, "holdDays": 30}),
        ))
        .unwrap()
        .to_new_category();
        assert_eq!(new.key, "umbrellas");
        assert_eq!(new.names.en, "Umbrellas");
        assert_eq!(new.names.ko.as_deref(), Some("우산"));
        assert_eq!(new.names.es, None);
        assert_eq!(new.hold_days, Some(30));
        let keyed = CategoryFields::parse_new(&body(json!({"key": "Food", "names": {"en": "Food and drink"}})))
            .unwrap()
            .to_new_category();
        assert_eq!((keyed.key.as_str(), keyed.hold_days), ("food", None));
    }

    #[test]
    fn names_are_checked() {
        for bad in [
            json!({}),
            json!({"names": "Umbrellas"}),
            json!({"names": {"ko": "우산"}}),
            json!({"names": {"en": "  "}}),
            json!({"names": {"en": "Umbrellas", "fr": "Parapluies"}}),
            json!({"names": {"en": "a\u{7}b"}}),
            json!({"names": {"en": 3}}),
            json!({"names": {"en": "u".repeat(101)}}),
        ] {
            let error = CategoryFields::parse_new(&body(bad.clone())).unwrap_err();
            assert_eq!(error.field, Some("names"), "{bad}");
        }
        let error = CategoryFields::parse_new(&body(json!({"names": {"en": "x"}, "key": "a\nb"}))).unwrap_err();
        assert_eq!(error.field, Some("key"));
        let error = CategoryFields::parse_new(&body(json!({"names": {"en": "x"}, "holdDays": -1}))).unwrap_err();
        assert_eq!(error.field, Some("holdDays"));
    }

    #[test]
    fn a_change_replaces_the_names_or_the_period_and_keeps_the_key() {
        let old = Category {
            key: "umbrellas".into(),
            names: CategoryNames::only("Umbrellas"),
            hold_days: Some(30),
            sensitive: false,
        };
        let period = CategoryFields::parse_change(&body(json!({"holdDays": null}))).unwrap();
        assert_eq!(period.applied_to(&old).hold_days, None);
        assert_eq!(period.applied_to(&old).names, old.names);
        let names =
            CategoryFields::parse_change(&body(json!({"names": {"en": "Brollies", "es": "Paraguas"}}))).unwrap();
        let changed = names.applied_to(&old);
        assert_eq!((changed.key.as_str(), changed.hold_days), ("umbrellas", Some(30)));
        assert_eq!(changed.names.es.as_deref(), Some("Paraguas"));
        let marked = CategoryFields::parse_change(&body(json!({"sensitive": true}))).unwrap();
        let changed = marked.applied_to(&old);
        assert!(changed.sensitive);
        assert_eq!((changed.names, changed.hold_days), (old.names.clone(), Some(30)));
        assert_eq!(
            CategoryFields::parse_change(&body(json!({"sensitive": "yes"})))
                .unwrap_err()
                .field,
            Some("sensitive")
        );
        assert_eq!(
            CategoryFields::parse_change(&body(json!({}))).unwrap_err().field,
            Some("body")
        );
        assert_eq!(
            CategoryFields::parse_change(&body(json!({"key": "x"})))
                .unwrap_err()
                .field,
            Some("key")
        );
    }
}
