//! What the service tells people, and in which words.

use super::{ItemId, ItemStatus};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    /// A report of yours was approved, rejected or put back to pending.
    ItemStatus,
    /// Where a report of yours is kept was recorded or cleared.
    StoragePlace,
    /// An item was approved that may be the one you reported.
    Match,
    /// Administrators: someone claimed a found item.
    ClaimReceived,
    /// A claim of yours was accepted or rejected.
    ClaimDecided,
}

impl NoticeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ItemStatus => "itemStatus",
            Self::StoragePlace => "storagePlace",
            Self::Match => "match",
            Self::ClaimReceived => "claimReceived",
            Self::ClaimDecided => "claimDecided",
        }
    }
}

/// A notification to be written: what, about which item, in which words.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub item_id: ItemId,
    pub text: String,
}

impl Notice {
    pub fn status_changed(item_id: ItemId, title: &str, status: ItemStatus) -> Self {
        let now = match status {
            ItemStatus::Approved => "is approved and visible to everyone",
            ItemStatus::Rejected => "was rejected",
            ItemStatus::Pending => "waits for review again",
        };
        Self {
            kind: NoticeKind::ItemStatus,
            item_id,
            text: format!("Your report “{title}” {now}."),
        }
    }

    pub fn storage_changed(item_id: ItemId, title: &str, place: Option<&str>) -> Self {
        let text = match place {
            Some(place) => format!("Your report “{title}” is kept at: {place}."),
            None => format!("Where your report “{title}” is kept is no longer recorded."),
        };
        Self {
            kind: NoticeKind::StoragePlace,
            item_id,
            text,
        }
    }

    /// To the reporter of `item_id`: `title` was approved and may be the same object.
    pub fn may_match(item_id: ItemId, title: &str) -> Self {
        Self {
            kind: NoticeKind::Match,
            item_id,
            text: format!("“{title}” was reported and may match one of your reports."),
        }
    }

    pub fn claim_received(item_id: ItemId, title: &str) -> Self {
        Self {
            kind: NoticeKind::ClaimReceived,
            item_id,
            text: format!("Someone claims “{title}”."),
        }
    }

    pub fn claim_decided(item_id: ItemId, title: &str, accepted: bool) -> Self {
        let text = if accepted {
            format!("Your claim on “{title}” is accepted: the item is yours to collect.")
        } else {
            format!("Your claim on “{title}” was not accepted.")
        };
        Self {
            kind: NoticeKind::ClaimDecided,
            item_id,
            text,
        }
    }
}

/// A notification as stored for one user.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    pub id: i64,
    pub user_id: String,
    pub kind: String,
    pub item_id: Option<i64>,
    pub text: String,
    /// Epoch milliseconds.
    pub created_at: i64,
    pub read: bool,
}
