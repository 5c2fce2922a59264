//! What the service says to people in words (notifications, their emails), in each language
//! it speaks. The words live in one catalog per language (`phrases/en.json`, …), which a
//! translator edits without reading code; a phrase is kept as its keys and values, so it is
//! said in each reader's language.

use std::{collections::HashMap, fmt, str::FromStr, sync::LazyLock};

use serde::{Deserialize, Serialize};

use super::{ValidationError, particles::choose_particles};

/// A language the service speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Ko,
    Es,
}

impl Lang {
    pub const ALL: [Self; 3] = [Self::En, Self::Ko, Self::Es];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Ko => "ko",
            Self::Es => "es",
        }
    }

    fn catalog(self) -> &'static HashMap<String, String> {
        &CATALOGS[self as usize]
    }
}

impl FromStr for Lang {
    type Err = ValidationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|lang| lang.as_str() == s)
            .ok_or_else(|| ValidationError::new("lang", "Invalid lang"))
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The catalogs, in the order of [`Lang::ALL`].
static CATALOGS: LazyLock<[HashMap<String, String>; 3]> = LazyLock::new(|| {
    let read = |text: &str| serde_json::from_str(text).expect("a catalog is a JSON object of strings");
    [
        read(include_str!("phrases/en.json")),
        read(include_str!("phrases/ko.json")),
        read(include_str!("phrases/es.json")),
    ]
});

/// One sentence: a catalog key and the values of its `{placeholders}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    key: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    values: Vec<(String, String)>,
}

/// Words to say, sentence by sentence, in whichever language the reader reads.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Phrase(Vec<Part>);

impl Phrase {
    /// The sentence `key`, with `values` for its placeholders.
    pub fn new(key: &str, values: &[(&str, &str)]) -> Self {
        Self(Vec::new()).then(key, values)
    }

    /// This phrase followed by the sentence `key`.
    pub fn then(mut self, key: &str, values: &[(&str, &str)]) -> Self {
        self.0.push(Part {
            key: key.to_owned(),
            values: values.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
        });
        self
    }

    /// The words in `lang`; a key the language lacks is said in English.
    pub fn say(&self, lang: Lang) -> String {
        let sentences: Vec<String> = self
            .0
            .iter()
            .map(|part| {
                let template = lang
                    .catalog()
                    .get(&part.key)
                    .or_else(|| Lang::En.catalog().get(&part.key))
                    .map_or(part.key.as_str(), String::as_str);
                fill(template, &part.values)
            })
            .collect();
        let said = sentences.join(" ");
        // Korean particles follow the words filled in.
        if lang == Lang::Ko {
            choose_particles(&said)
        } else {
            said
        }
    }

    /// As stored with a notification.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a phrase serializes")
    }

    /// A stored phrase; `None` if it is not one.
    pub fn from_json(text: &str) -> Option<Self> {
        serde_json::from_str(text).ok()
    }
}

/// `template` with each `{name}` replaced by its value, in one pass: a value that contains
/// braces is never read as a placeholder.
fn fill(template: &str, values: &[(String, String)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let known = after
            .split_once('}')
            .and_then(|(name, tail)| values.iter().find(|(k, _)| k == name).map(|(_, value)| (value, tail)));
        match known {
            Some((value, tail)) => {
                out.push_str(value);
                rest = tail;
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A catalog key said by itself: the email's closing line.
pub fn say(key: &str, lang: Lang) -> String {
    Phrase::new(key, &[]).say(lang)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn every_language_has_every_key_and_the_same_placeholders() {
        let placeholders = |text: &str| -> BTreeSet<String> {
            text.split('{')
                .skip(1)
                .filter_map(|s| s.split_once('}').map(|(name, _)| name.to_owned()))
                .collect()
        };
        let english = Lang::En.catalog();
        for lang in Lang::ALL {
            let catalog = lang.catalog();
            let keys: BTreeSet<_> = catalog.keys().collect();
            assert_eq!(keys, english.keys().collect(), "{lang}: keys differ from English");
            for (key, text) in catalog {
                assert_eq!(placeholders(text), placeholders(&english[key]), "{lang}: {key}");
            }
        }
    }

    #[test]
    fn phrases_are_said_in_each_language() {
        let phrase = Phrase::new("claim.accepted", &[("title", "Umbrella")])
            .then("claim.accepted.place", &[("place", "Shelf {place}")]);
        assert_eq!(
            phrase.say(Lang::En),
            "Your claim on “Umbrella” is accepted: the item is yours to collect. It is kept at: Shelf {place}."
        );
        assert!(phrase.say(Lang::Ko).starts_with("“Umbrella”에 대한"));
        let approved = |title| Phrase::new("status.approved", &[("title", title)]).say(Lang::Ko);
        assert!(approved("우산").starts_with("신고하신 “우산”이 승인되어"));
        assert!(approved("Umbrella").starts_with("신고하신 “Umbrella”가 승인되어"));
        assert!(phrase.say(Lang::Es).starts_with("Tu reclamación de «Umbrella»"));
        assert_eq!(Phrase::from_json(&phrase.to_json()), Some(phrase));
        assert_eq!("ko".parse::<Lang>(), Ok(Lang::Ko));
        assert_eq!("KO".parse::<Lang>().unwrap_err().message, "Invalid lang");
    }
}
