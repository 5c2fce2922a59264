//! How messages look in events: `{ nick, text, ts }`, and, for sockets that asked for them
//! (`fields: ["id", "user"]`), `id` and `user` besides; histories of them.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::{domain::Message, json::UserJson, time::format_ms};

/// A message as one kind of socket gets it.
#[derive(Serialize)]
pub struct MessageJson<'a> {
    nick: &'a str,
    text: &'a str,
    ts: String,
    #[serde(flatten)]
    identity: Option<IdentityJson<'a>>,
}

/// `id` and `user`: the message's id, and the account that sent it as the server knows it
/// (`null` without a login).
#[derive(Serialize)]
struct IdentityJson<'a> {
    id: i64,
    user: Option<UserJson<'a>>,
}

impl<'a> MessageJson<'a> {
    /// The message, with its id and sender when `with_ids`.
    pub fn new(message: &'a Message, with_ids: bool) -> Self {
        Self {
            nick: &message.nick,
            text: &message.text,
            ts: format_ms(message.at),
            identity: with_ids.then(|| IdentityJson {
                id: message.id.get(),
                user: message.sender.as_ref().map(UserJson::from),
            }),
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

/// `thread:new`'s payload.
#[derive(Serialize)]
pub struct ThreadNews<'a> {
    #[serde(rename = "itemId")]
    pub item_id: i64,
    pub msg: MessageJson<'a>,
}

/// A history as the events carry it, newest first: the first of `messages` (newest first
/// themselves) whose JSON array fits in `max_bytes` (0: all of them).
pub fn history(messages: &[Message], with_ids: bool, max_bytes: usize) -> Box<RawValue> {
    let mut kept: Vec<String> = Vec::new();
    let mut size = 2;
    for message in messages {
        let json = serde_json::to_string(&MessageJson::new(message, with_ids)).expect("a message serializes");
        if max_bytes > 0 && size + json.len() + 1 > max_bytes {
            break;
        }
        size += json.len() + 1;
        kept.push(json);
    }
    RawValue::from_string(format!("[{}]", kept.join(","))).expect("an array of messages is JSON")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::domain::{MessageId, User};

    fn message(n: usize, text: &str) -> Message {
        Message {
            id: MessageId::new(n as i64 + 1).unwrap(),
            nick: format!("n{n}"),
            text: text.to_owned(),
            at: n as i64,
            sender: None,
        }
    }

    #[test]
    fn histories_keep_the_latest_messages_that_fit() {
        let messages: Vec<Message> = (0..10).rev().map(|n| message(n, &"x".repeat(100))).collect();
        let all: Vec<serde_json::Value> = serde_json::from_str(history(&messages, false, 0).get()).unwrap();
        assert_eq!(all.len(), 10);
        let bounded = history(&messages, false, 500);
        assert!(bounded.get().len() <= 500, "{}", bounded.get().len());
        let kept: Vec<serde_json::Value> = serde_json::from_str(bounded.get()).unwrap();
        assert_eq!(kept.len(), 3);
        assert_eq!(
            (kept[0]["nick"].as_str(), kept[2]["nick"].as_str()),
            (Some("n9"), Some("n7"))
        );
        assert_eq!(history(&[], false, 10).get(), "[]");
    }

    #[test]
    fn ids_and_senders_only_for_those_who_ask() {
        let mut signed = message(4, "hi");
        signed.sender = Some(User::new("desk".into(), "Front Desk".into(), true, Vec::new()));
        assert_eq!(
            serde_json::to_value(MessageJson::new(&signed, false)).unwrap(),
            json!({ "nick": "n4", "text": "hi", "ts": "1970-01-01T00:00:00.004Z" })
        );
        assert_eq!(
            serde_json::to_value(MessageJson::new(&signed, true)).unwrap(),
            json!({
                "nick": "n4", "text": "hi", "ts": "1970-01-01T00:00:00.004Z", "id": 5,
                "user": { "id": "desk", "name": "Front Desk", "isAdmin": true }
            })
        );
        assert_eq!(
            serde_json::to_value(MessageJson::new(&message(1, "x"), true)).unwrap()["user"],
            json!(null)
        );
    }
}
