//! What a committed change tells the rest of the service. The store returns these with what
//! it wrote; the use case that made the change publishes them; real-time pushes, the threads'
//! readers and the mail sender act on them. They are facts already on disk: a listener that
//! misses one loses only its live delivery (notifications stay stored and listed, mail stays
//! queued).

use super::{Item, ItemId, ItemStatus, MessageId, Notification};

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A notification written for its user (its email, when email is on, queued with it).
    Notified(Notification),
    /// Mail about an account was queued: a link to verify an address or set a password.
    AccountMailQueued,
    /// A chat or thread message was deleted.
    MessageDeleted(DeletedMessage),
    /// An item's review state was set: who may read its thread may change.
    Reviewed(Reviewed),
}

impl Event {
    /// `item`'s review state, as it now is.
    pub fn reviewed(item: &Item) -> Self {
        Self::Reviewed(Reviewed {
            item: item.id,
            status: item.status,
            reporter: item.created_by.clone(),
        })
    }

    /// Whether mail may have been queued with it.
    pub fn queues_mail(&self) -> bool {
        matches!(self, Self::Notified(_) | Self::AccountMailQueued)
    }
}

/// A message deleted: its id, and its thread (`None`: the chat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeletedMessage {
    pub id: MessageId,
    pub item: Option<ItemId>,
}

/// An item's review state, changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reviewed {
    pub item: ItemId,
    pub status: ItemStatus,
    /// Its reporter, who may always read it.
    pub reporter: String,
}

/// What a write returns: its outcome and the events it committed, to be published.
#[derive(Debug)]
#[must_use = "a change's events are published (or, where nobody listens, dropped on purpose)"]
pub struct Committed<T> {
    pub value: T,
    pub events: Vec<Event>,
}

impl<T> Committed<T> {
    pub fn new(value: T, events: Vec<Event>) -> Self {
        Self { value, events }
    }

    /// A change that tells nobody.
    pub fn quiet(value: T) -> Self {
        Self::new(value, Vec::new())
    }

    /// The notifications written with `value`.
    pub fn notified(value: T, notifications: impl IntoIterator<Item = Notification>) -> Self {
        Self::new(value, notifications.into_iter().map(Event::Notified).collect())
    }

    /// The value, its events dropped: for callers with nobody to tell (the command line,
    /// whose changes a server learns from the database).
    pub fn unheard(self) -> T {
        self.value
    }
}
