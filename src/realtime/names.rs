//! The names staff go by in the chat, so that nobody else sends messages under one. Names are
//! compared as words folded for search (case, accents and punctuation ignored): "Front Desk",
//! "front-desk" and "FRONT DÉSK" are one name. Read from the store at most every few seconds.

use std::{
    collections::HashSet,
    time::{Duration, Instant},
};

use tokio::sync::Mutex;

use crate::{
    domain::search::folded_words,
    store::{Store, StoreError},
};

/// How long the names read are used before they are read again.
const FRESH_FOR: Duration = Duration::from_secs(5);

/// The folded names of the enabled staff accounts, as last read.
#[derive(Default)]
pub struct StaffNames(Mutex<Option<(Instant, HashSet<String>)>>);

impl StaffNames {
    /// Whether `nick` is a staff member's name.
    pub async fn is_staff_name(&self, store: &Store, nick: &str) -> Result<bool, StoreError> {
        let mut names = self.0.lock().await;
        if names.as_ref().is_none_or(|(read, _)| read.elapsed() >= FRESH_FOR) {
            let read = store.staff_names().await?.iter().map(|name| folded(name)).collect();
            *names = Some((Instant::now(), read));
        }
        Ok(names.as_ref().is_some_and(|(_, names)| names.contains(&folded(nick))))
    }
}

/// Whether two names are the same, as names are compared here.
pub fn same_name(a: &str, b: &str) -> bool {
    folded(a) == folded(b)
}

fn folded(name: &str) -> String {
    folded_words(name).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_same_whatever_their_case_accents_and_punctuation() {
        assert!(same_name("Front Desk", "front-desk"));
        assert!(same_name("Front Desk", "  FRONT DÉSK! "));
        assert!(!same_name("Front Desk", "Front Desks"));
    }
}
