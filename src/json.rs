//! JSON shapes that both edges speak: a notification is listed over HTTP and pushed as the
//! `notify` event in the same form.

use serde::Serialize;

use crate::{domain::Notification, time::format_ms};

/// `{ id, type, itemId, text, created_at, read }`.
#[derive(Serialize)]
pub struct NotificationJson<'a> {
    id: i64,
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(rename = "itemId")]
    item_id: Option<i64>,
    text: &'a str,
    created_at: String,
    read: bool,
}

impl<'a> From<&'a Notification> for NotificationJson<'a> {
    fn from(notification: &'a Notification) -> Self {
        Self {
            id: notification.id,
            kind: &notification.kind,
            item_id: notification.item_id,
            text: &notification.text,
            created_at: format_ms(notification.created_at),
            read: notification.read,
        }
    }
}
