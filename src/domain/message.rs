//! Messages of the chat and the item threads, and the payloads of `chat:*` and `thread:*` events.

use serde_json::Value;

use super::{Fields, ItemId, ValidationError, bounded_text};

const MAX_NICK: usize = 50;
const MAX_TEXT: usize = 2_000;
/// The nick of a sender who gave none.
const ANONYMOUS: &str = "Anonymous";

/// A stored message of the chat or of a thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub nick: String,
    pub text: String,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
}

/// `chat:send { nick, text }`
#[derive(Debug, Clone, PartialEq)]
pub struct ChatInput {
    pub nick: String,
    pub text: String,
}

/// `thread:join { itemId }` and `thread:leave { itemId }`
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThreadRef {
    pub item_id: ItemId,
}

/// `thread:send { itemId, nick, text }`
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadInput {
    pub item_id: ItemId,
    pub nick: String,
    pub text: String,
}

impl ChatInput {
    pub fn from_payload(payload: &Value) -> Result<Self, ValidationError> {
        let f = object(payload)?;
        Ok(Self {
            nick: nick(&f)?,
            text: text(&f)?,
        })
    }
}

impl ThreadRef {
    pub fn from_payload(payload: &Value) -> Result<Self, ValidationError> {
        let f = object(payload)?;
        nick(&f)?;
        Ok(Self { item_id: item_id(&f)? })
    }
}

impl ThreadInput {
    pub fn from_payload(payload: &Value) -> Result<Self, ValidationError> {
        let f = object(payload)?;
        Ok(Self {
            item_id: item_id(&f)?,
            nick: nick(&f)?,
            text: text(&f)?,
        })
    }
}

/// Checks a `chat:join` payload: nothing, or an object whose `nick` (if any) is valid.
pub fn check_join_payload(payload: &Value) -> Result<(), ValidationError> {
    if payload.is_null() {
        return Ok(());
    }
    nick(&object(payload)?).map(drop)
}

fn object(payload: &Value) -> Result<Fields<'_>, ValidationError> {
    payload.as_object().map(Fields).ok_or_else(|| ValidationError {
        message: "Payload must be an object".into(),
        field: None,
    })
}

/// Self-declared; blank or missing is `Anonymous`.
fn nick(f: &Fields<'_>) -> Result<String, ValidationError> {
    let nick = bounded_text("nick", f.string("nick")?.unwrap_or(""), MAX_NICK)?;
    Ok(nick.unwrap_or_else(|| ANONYMOUS.to_owned()))
}

fn text(f: &Fields<'_>) -> Result<String, ValidationError> {
    bounded_text("text", f.string("text")?.unwrap_or(""), MAX_TEXT)?
        .ok_or_else(|| ValidationError::new("text", "text is required"))
}

fn item_id(f: &Fields<'_>) -> Result<ItemId, ValidationError> {
    f.0.get("itemId")
        .and_then(Value::as_i64)
        .and_then(ItemId::new)
        .ok_or_else(|| ValidationError::new("itemId", "itemId must be a positive integer"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn chat_messages() {
        let m = ChatInput::from_payload(&json!({"nick": " Ann ", "text": " hi "})).unwrap();
        assert_eq!((m.nick.as_str(), m.text.as_str()), ("Ann", "hi"));
        let m = ChatInput::from_payload(&json!({"text": "hi"})).unwrap();
        assert_eq!(m.nick, ANONYMOUS);
        assert_eq!(
            ChatInput::from_payload(&json!({"nick": "  ", "text": "hi"}))
                .unwrap()
                .nick,
            ANONYMOUS
        );
        for bad in [
            json!("text"),
            json!(["hi"]),
            json!({"nick": "a"}),
            json!({"text": "   "}),
            json!({"text": 5}),
            json!({"text": "x".repeat(2_001)}),
            json!({"nick": "n".repeat(51), "text": "hi"}),
            json!({"nick": 7, "text": "hi"}),
        ] {
            assert!(ChatInput::from_payload(&bad).is_err(), "{bad}");
        }
        assert!(ChatInput::from_payload(&json!({"text": "x".repeat(2_000)})).is_ok());
    }

    #[test]
    fn thread_messages() {
        let m = ThreadInput::from_payload(&json!({"itemId": 3, "text": "mine"})).unwrap();
        assert_eq!((m.item_id.get(), m.nick.as_str()), (3, ANONYMOUS));
        for bad in [json!(0), json!(-1), json!(1.5), json!("3"), json!(null)] {
            let err = ThreadInput::from_payload(&json!({"itemId": bad, "text": "x"})).unwrap_err();
            assert_eq!(err.field, Some("itemId"));
        }
        assert_eq!(ThreadRef::from_payload(&json!({"itemId": 9})).unwrap().item_id.get(), 9);
    }

    #[test]
    fn join_payloads() {
        assert!(check_join_payload(&Value::Null).is_ok());
        assert!(check_join_payload(&json!({"nick": "Ann"})).is_ok());
        assert!(check_join_payload(&json!(5)).is_err());
        assert!(check_join_payload(&json!({"nick": "n".repeat(51)})).is_err());
    }
}
