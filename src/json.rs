//! JSON shapes that both edges speak: a notification is listed over HTTP and pushed as the
//! `notify` event in the same form; a user is shown by the session endpoints and as the
//! sender of a message.

use std::borrow::Cow;

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    domain::{
        Lang, Notification, User,
        access::{self, Action},
    },
    time::format_ms,
};

/// `{ id, type, itemId, text, created_at, read }`.
#[derive(Serialize, ToSchema)]
#[schema(as = Notification)]
pub struct NotificationJson<'a> {
    id: i64,
    /// `itemStatus`, `storagePlace`, `match`, `claimReceived`, `claimDecided`, `review` or
    /// `threadReply`.
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(rename = "itemId")]
    item_id: Option<i64>,
    text: Cow<'a, str>,
    #[schema(format = DateTime)]
    created_at: String,
    read: bool,
    /// A match notification that tells of several found items: all of them, best first
    /// (extension; absent otherwise).
    #[serde(skip_serializing_if = "<[i64]>::is_empty")]
    items: &'a [i64],
}

impl<'a> From<&'a Notification> for NotificationJson<'a> {
    fn from(notification: &'a Notification) -> Self {
        Self {
            id: notification.id,
            kind: &notification.kind,
            item_id: notification.item_id,
            text: Cow::Borrowed(&notification.text),
            created_at: format_ms(notification.created_at),
            read: notification.read,
            items: &notification.items,
        }
    }
}

impl<'a> NotificationJson<'a> {
    /// The notification with its text in `lang`.
    pub fn said_in(notification: &'a Notification, lang: Lang) -> Self {
        Self {
            text: Cow::Owned(notification.text_in(lang)),
            ..Self::from(notification)
        }
    }
}

/// A user as the session endpoints show it: `{ id, name, isAdmin }`.
#[derive(Serialize, ToSchema)]
#[schema(as = User)]
pub struct UserJson<'a> {
    id: &'a str,
    name: &'a str,
    /// Whether they may review: the office's flag in the contract.
    #[serde(rename = "isAdmin")]
    reviewer: bool,
}

impl<'a> From<&'a User> for UserJson<'a> {
    fn from(user: &'a User) -> Self {
        Self {
            id: &user.id,
            name: &user.name,
            reviewer: access::may(user, Action::Review),
        }
    }
}
