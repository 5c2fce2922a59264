//! The names staff go by in the chat, so that nobody else sends messages under one. Names are
//! compared by how they look, not by their code points: by their Unicode skeletons (UTS #39,
//! which maps confusable letters of every script to one prototype and drops invisible
//! characters), without case, accents, spaces or punctuation. "Front Desk", "FRONT-DÉSK",
//! "FrontDesk" and "Frоnt Desk" with a Cyrillic "о" are one name; "Front Desks" is another.
//! Read from the store at most every few seconds.

use std::{
    collections::HashSet,
    time::{Duration, Instant},
};

use tokio::sync::Mutex;
use unicode_normalization::char::is_combining_mark;
use unicode_security::skeleton;

use crate::store::{Store, StoreError};

/// How long the names read are used before they are read again.
const FRESH_FOR: Duration = Duration::from_secs(5);

/// The enabled staff accounts' names, as last read.
#[derive(Default)]
pub struct StaffNames(Mutex<Option<(Instant, LookAlikes)>>);

impl StaffNames {
    /// Whether `nick` looks like a staff member's name.
    pub async fn is_staff_name(&self, store: &Store, nick: &str) -> Result<bool, StoreError> {
        let mut names = self.0.lock().await;
        if names.as_ref().is_none_or(|(read, _)| read.elapsed() >= FRESH_FOR) {
            let read = LookAlikes::of(store.staff_names().await?.iter().map(String::as_str));
            *names = Some((Instant::now(), read));
        }
        Ok(names.as_ref().is_some_and(|(_, names)| names.matches(nick)))
    }
}

/// A set of names, matched by what they look like.
#[derive(Default)]
struct LookAlikes(HashSet<String>);

impl LookAlikes {
    /// A name without a letter or a digit has no key: it would match every other such name.
    fn of<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        Self(names.into_iter().flat_map(keys).filter(|key| !key.is_empty()).collect())
    }

    /// Whether `name` looks like one of the set.
    fn matches(&self, name: &str) -> bool {
        keys(name).iter().any(|key| self.0.contains(key))
    }
}

/// What a name is compared by. Confusables depend on case ("I" looks like "l", "i" does not),
/// so there are two: the skeleton of the name as written, and of the name in lower case (which
/// makes "FINN" "Finn"); two names look alike when they share one.
fn keys(name: &str) -> [String; 2] {
    [key(name), key(&name.to_lowercase())]
}

fn key(name: &str) -> String {
    // The skeleton is decomposed (NFD): accents are marks of their own.
    skeleton(name)
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_alphanumeric())
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::domain::ChatInput;

    #[test]
    fn names_look_alike_whatever_their_case_accents_spaces_and_punctuation() {
        let staff = LookAlikes::of(["Front Desk", "Bill"]);
        for same in ["front-desk", "  FRONT DÉSK! ", "Fr0nt_Desk", "BILL", "BiII", "bi11"] {
            assert!(staff.matches(same), "{same:?}");
        }
        // Visibly other names are other people's: a letter more, less or changed.
        for other in ["Front Desks", "Font Desk", "Front Dusk", "Desk Front", "Bil", "Billy"] {
            assert!(!staff.matches(other), "{other:?}");
        }
        let no_letters = LookAlikes::of(["🙂", "--"]);
        assert!(!no_letters.matches("🎉") && !no_letters.matches("!!!"));
    }

    /// The eleven spellings that passed as "Front Desk" (issue 30).
    const LOOK_ALIKES: [&str; 11] = [
        "Fr\u{043E}nt D\u{0435}sk", // Cyrillic о and е
        "Fr\u{03BF}nt Desk",        // Greek omicron
        "Fro\u{200B}nt Desk",       // zero-width space
        "Fro\u{200D}nt Desk",       // zero-width joiner
        "Fr\u{00AD}ont Desk",       // soft hyphen
        "Fron\u{034F}t Desk",       // combining grapheme joiner
        "Front Des\u{FE0F}k",       // variation selector
        "Front De\u{0301}sk",       // a decomposed accent
        "Front \u{202E}kseD",       // a right-to-left override: shown as "Front Desk"
        "Front\u{3164}Desk",        // Hangul filler
        "FrontDesk",
    ];

    #[test]
    fn no_look_alike_passes_as_a_staff_name() {
        let staff = LookAlikes::of(["Front Desk"]);
        // What reordering does to a name no skeleton shows: a nick that overrides the text
        // direction is refused as input (`domain::message`); the others look like the name.
        let passed: Vec<_> = LOOK_ALIKES
            .iter()
            .filter(|nick| {
                ChatInput::from_payload(&json!({ "nick": nick, "text": "hi" }))
                    .is_ok_and(|input| !staff.matches(input.nick()))
            })
            .collect();
        assert!(passed.is_empty(), "{passed:?}");
        assert!(staff.matches("Fr\u{2066}ont Desk"), "ignorable wherever it is");
    }
}
