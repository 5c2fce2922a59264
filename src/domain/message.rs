//! Messages of the chat and the item threads, and the payloads of `chat:*` and `thread:*` events.

use serde_json::Value;

use super::{Fields, ItemId, User, ValidationError, bounded_text, refuse_direction_overrides};

const MAX_NICK: usize = 50;
const MAX_TEXT: usize = 2_000;
/// The nick of a sender who gave none.
const ANONYMOUS: &str = "Anonymous";

/// A message's identifier, one for the chat and the threads alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MessageId(i64);

impl MessageId {
    pub fn new(id: i64) -> Option<Self> {
        (id > 0).then_some(Self(id))
    }

    /// A path segment: decimal digits only; anything else names no message.
    pub fn parse(raw: &str) -> Option<Self> {
        ItemId::parse(raw).ok().and_then(|id| Self::new(id.get()))
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

/// A message as part of its writer's own data: where it was written too, the chat (`item`
/// `None`) or an item's thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenMessage {
    pub id: MessageId,
    pub item: Option<ItemId>,
    pub nick: String,
    pub text: String,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
}

/// A stored message of the chat or of a thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub id: MessageId,
    /// Self-declared.
    pub nick: String,
    pub text: String,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    /// The logged-in account that sent it (as it is now), if any.
    pub sender: Option<User>,
}

/// `chat:send { nick, text }`
#[derive(Debug, Clone, PartialEq)]
pub struct ChatInput {
    nick: String,
    text: String,
}

/// `thread:join { itemId }` and `thread:leave { itemId }`
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThreadRef {
    item_id: ItemId,
}

/// `thread:send { itemId, nick, text }`
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadInput {
    item_id: ItemId,
    message: ChatInput,
}

impl ChatInput {
    pub fn from_payload(payload: &Value) -> Result<Self, ValidationError> {
        Self::from_fields(&object(payload)?)
    }

    fn from_fields(f: &Fields<'_>) -> Result<Self, ValidationError> {
        Ok(Self {
            nick: nick(f)?,
            text: text(f)?,
        })
    }

    pub fn nick(&self) -> &str {
        &self.nick
    }

    pub fn text(&self) -> &str {
        &self.text
    }
}

impl ThreadRef {
    pub fn from_payload(payload: &Value) -> Result<Self, ValidationError> {
        let f = object(payload)?;
        nick(&f)?;
        Ok(Self { item_id: item_id(&f)? })
    }

    pub fn item_id(&self) -> ItemId {
        self.item_id
    }
}

impl ThreadInput {
    pub fn from_payload(payload: &Value) -> Result<Self, ValidationError> {
        let f = object(payload)?;
        Ok(Self {
            item_id: item_id(&f)?,
            message: ChatInput::from_fields(&f)?,
        })
    }

    pub fn item_id(&self) -> ItemId {
        self.item_id
    }

    /// The nick and the text, checked as a chat message's are.
    pub fn message(&self) -> &ChatInput {
        &self.message
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
    let nick = f.string("nick")?.unwrap_or("");
    refuse_direction_overrides("nick", nick)?;
    let nick = bounded_text("nick", nick, MAX_NICK)?;
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
        assert_eq!((m.nick(), m.text()), ("Ann", "hi"));
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
            json!({"nick": "Front \u{202E}kseD", "text": "hi"}),
            json!({"nick": "\u{2066}Ann", "text": "hi"}),
        ] {
            assert!(ChatInput::from_payload(&bad).is_err(), "{bad}");
        }
        assert!(ChatInput::from_payload(&json!({"text": "x".repeat(2_000)})).is_ok());
    }

    #[test]
    fn thread_messages() {
        let m = ThreadInput::from_payload(&json!({"itemId": 3, "text": "mine"})).unwrap();
        assert_eq!((m.item_id().get(), m.message().nick()), (3, ANONYMOUS));
        for bad in [json!(0), json!(-1), json!(1.5), json!("3"), json!(null)] {
            let err = ThreadInput::from_payload(&json!({"itemId": bad, "text": "x"})).unwrap_err();
            assert_eq!(err.field, Some("itemId"));
        }
        assert_eq!(
            ThreadRef::from_payload(&json!({"itemId": 9})).unwrap().item_id().get(),
            9
        );
    }

    #[test]
    fn join_payloads() {
        assert!(check_join_payload(&Value::Null).is_ok());
        assert!(check_join_payload(&json!({"nick": "Ann"})).is_ok());
        assert!(check_join_payload(&json!(5)).is_err());
        assert!(check_join_payload(&json!({"nick": "n".repeat(51)})).is_err());
    }
}
