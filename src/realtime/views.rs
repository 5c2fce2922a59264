//! How messages look in events: `{ nick, text, ts }`, and histories of them.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::{domain::Message, time::format_ms};

#[derive(Serialize)]
pub struct MessageJson<'a> {
    nick: &'a str,
    text: &'a str,
    ts: String,
}

impl<'a> From<&'a Message> for MessageJson<'a> {
    fn from(message: &'a Message) -> Self {
        Self {
            nick: &message.nick,
            text: &message.text,
            ts: format_ms(message.at),
        }
    }
}

/// `thread:history`'s payload.
#[derive(Serialize)]
pub struct ThreadHistory<'a> {
    #[serde(rename = "itemId")]
    pub item_id: i64,
    pub msgs: &'a RawValue,
}

/// A history as the events carry it, oldest first: the latest of `messages` (oldest first
/// themselves) whose JSON array fits in `max_bytes` (0: all of them).
pub fn history(messages: &[Message], max_bytes: usize) -> Box<RawValue> {
    let mut kept: Vec<String> = Vec::new();
    let mut size = 2;
    for message in messages.iter().rev() {
        let json = serde_json::to_string(&MessageJson::from(message)).expect("a message serializes");
        if max_bytes > 0 && size + json.len() + 1 > max_bytes {
            break;
        }
        size += json.len() + 1;
        kept.push(json);
    }
    kept.reverse();
    RawValue::from_string(format!("[{}]", kept.join(","))).expect("an array of messages is JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(n: usize, text: &str) -> Message {
        Message {
            nick: format!("n{n}"),
            text: text.to_owned(),
            at: n as i64,
        }
    }

    #[test]
    fn histories_keep_the_latest_messages_that_fit() {
        let messages: Vec<Message> = (0..10).map(|n| message(n, &"x".repeat(100))).collect();
        let all: Vec<serde_json::Value> = serde_json::from_str(history(&messages, 0).get()).unwrap();
        assert_eq!(all.len(), 10);
        let bounded = history(&messages, 500);
        assert!(bounded.get().len() <= 500, "{}", bounded.get().len());
        let kept: Vec<serde_json::Value> = serde_json::from_str(bounded.get()).unwrap();
        assert_eq!(kept.len(), 3);
        assert_eq!(
            (kept[0]["nick"].as_str(), kept[2]["nick"].as_str()),
            (Some("n7"), Some("n9"))
        );
        assert_eq!(history(&[], 10).get(), "[]");
    }
}
