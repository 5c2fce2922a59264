//! The events this process commits, handed to whoever follows them: the real-time pushes
//! (`realtime`) and the mail and push senders (`mail`, `push`). Other nodes learn of them through the database
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

/// Returns once this node publishes an event that may have queued mail or push messages (or
/// events were missed, some of which may have): their senders look at once rather than at
/// their next poll.
pub async fn sending_queued(events: &mut broadcast::Receiver<Event>) {
    loop {
        match events.recv().await {
            Ok(event) if !event.queues_mail() => {}
            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => return,
            // Nobody publishes any more: the poll alone remains.
            Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
        }
    }
}
