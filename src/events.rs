//! The events this process commits, handed to whoever follows them: the real-time pushes
//! (`realtime`) and the mail sender (`mail`). Other nodes learn of them through the database
//! (mail) and the Redis adapter (pushes).

use tokio::sync::broadcast;

use crate::domain::{Committed, Event};

/// Committed events waiting for their listeners; a listener further behind misses the oldest
/// (their facts stay stored: see `domain::event`).
const BACKLOG: usize = 4096;

#[derive(Clone)]
pub struct Events {
    sender: broadcast::Sender<Event>,
}

impl Default for Events {
    fn default() -> Self {
        Self {
            sender: broadcast::Sender::new(BACKLOG),
        }
    }
}

impl Events {
    /// Hands a change's events to the listeners (none listening is fine) and returns its value.
    pub fn publish<T>(&self, committed: Committed<T>) -> T {
        for event in committed.events {
            let _ = self.sender.send(event);
        }
        committed.value
    }

    /// The events published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }
}
