//! Answers kept ready to send: the serialized answers to item reads, by request, each good
//! for as long as the items' version it was made at is the current one. Any change to any
//! item, on any node, moves the version (`Store::list_version`), and every answer kept is then
//! dropped at the next lookup: an answer is never older than what the database holds.
//!
//! The version is asked of the database on every lookup, so a write on one node is seen by
//! the next read on every node. An answer made while a write landed is kept under the version
//! read before it, which the database has already left behind: it is never served.

use std::{collections::HashMap, sync::Mutex};

use axum::{
    body::Bytes,
    http::{HeaderName, HeaderValue},
};

/// A ready answer: its headers (the body's type, ETag, …) and body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub headers: Vec<(HeaderName, HeaderValue)>,
    pub body: Bytes,
}

pub struct AnswerCache {
    kept: Mutex<Kept>,
    /// Bytes of bodies kept at most.
    max_bytes: usize,
}

#[derive(Default)]
struct Kept {
    version: i64,
    answers: HashMap<String, Answer>,
    bytes: usize,
}

impl AnswerCache {
    pub fn new(max_bytes: usize) -> Self {
        Self {
            kept: Mutex::default(),
            max_bytes,
        }
    }

    /// The answer kept for `request` at `version`, the current one.
    pub fn get(&self, version: i64, request: &str) -> Option<Answer> {
        let mut kept = self.lock();
        kept.forget_older_than(version);
        kept.answers.get(request).cloned()
    }

    /// Keeps `answer` to `request`, made at `version`, while there is room.
    pub fn put(&self, version: i64, request: String, answer: Answer) {
        let mut kept = self.lock();
        kept.forget_older_than(version);
        let size = answer.body.len() + request.len();
        if kept.version == version && kept.bytes + size <= self.max_bytes && !kept.answers.contains_key(&request) {
            kept.bytes += size;
            kept.answers.insert(request, answer);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().expect("the answer cache is never poisoned")
    }
}

impl Kept {
    /// Everything kept is for one version; a newer one replaces it all.
    fn forget_older_than(&mut self, version: i64) {
        if version > self.version {
            *self = Self {
                version,
                ..Self::default()
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(body: &'static str) -> Answer {
        Answer {
            headers: Vec::new(),
            body: Bytes::from_static(body.as_bytes()),
        }
    }

    #[test]
    fn answers_last_as_long_as_their_version() {
        let cache = AnswerCache::new(1_000);
        cache.put(3, "a".into(), answer("three"));
        assert_eq!(cache.get(3, "a").unwrap().body, "three");
        assert!(cache.get(3, "b").is_none());
        // A newer version drops everything; an answer made at an older one is not kept.
        assert!(cache.get(4, "a").is_none());
        cache.put(3, "a".into(), answer("stale"));
        assert!(cache.get(4, "a").is_none());
        cache.put(4, "a".into(), answer("four"));
        assert_eq!(cache.get(4, "a").unwrap().body, "four");
    }

    #[test]
    fn room_is_bounded() {
        let cache = AnswerCache::new(10);
        cache.put(1, "a".into(), answer("123456"));
        cache.put(1, "b".into(), answer("123456"));
        assert!(cache.get(1, "a").is_some());
        assert!(cache.get(1, "b").is_none(), "over the bound");
    }
}
