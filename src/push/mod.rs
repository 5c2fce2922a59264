//! Web Push: the background sender that empties the push outbox — each notification that goes
//! by email goes to its reader's devices too — through their browsers' push services
//! (RFC 8030), encrypted to each device (RFC 8291, `web-push-native`) and signed with the
//! service's VAPID key (RFC 8292, `vapid`).
//!
//! Like the mail sender, every node runs one and takes one push at a time under a lease (see
//! `store::push`); a failure puts it back with a growing delay; a device its push service says
//! is gone (404, 410) is forgotten.

mod vapid;

use std::time::Duration;

use anyhow::Context;
use serde_json::json;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use crate::{
    causes::describe,
    config::PushConfig,
    domain::{Event, say},
    events::sending_queued,
    store::{OutgoingPush, Store},
    time::{backoff, now_ms},
};

pub use vapid::Vapid;

/// How long one push service exchange may take before it counts as failed.
const SEND_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a taken push is kept from other senders: well past the timeout.
const LEASE: Duration = Duration::from_secs(60);
const FIRST_RETRY_DELAY: Duration = Duration::from_secs(2);
const MAX_RETRY_DELAY: Duration = Duration::from_secs(15 * 60);
/// How long a push service keeps a message for a device that is off (its `TTL`), and how long
/// the service tries to hand it over: a notice older than a day is news no more (the bell and
/// the email keep it).
const TIME_TO_LIVE: Duration = Duration::from_secs(24 * 3600);
/// How often the outbox is looked at without a wake-up (pushes queued by other nodes).
const POLL: Duration = Duration::from_secs(5);

/// Sends push messages, signed with the service's key.
pub struct Pusher {
    http: reqwest::Client,
    vapid: Vapid,
}

impl Pusher {
    /// The pusher `config` describes, with the service's VAPID key (made at the first start),
    /// or `None` when push is off.
    pub async fn from_config(
        config: &PushConfig,
        mail_from: Option<&str>,
        public_url: Option<&str>,
        store: &Store,
    ) -> anyhow::Result<Option<Self>> {
        if !config.push {
            return Ok(None);
        }
        let contact = config
            .push_contact
            .clone()
            .or_else(|| {
                mail_from
                    .and_then(address_in)
                    .map(|address| format!("mailto:{address}"))
            })
            .or_else(|| public_url.map(|url| url.trim_end_matches('/').to_owned()));
        if contact.is_none() {
            tracing::warn!(
                "without LOSTFOUND_PUSH_CONTACT, LOSTFOUND_MAIL_FROM or LOSTFOUND_PUBLIC_URL, push messages name no contact, and some push services (Apple's) refuse them"
            );
        }
        let vapid = Vapid::kept(store, contact).await?;
        let http = reqwest::Client::builder()
            .timeout(SEND_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .context("cannot make the push client")?;
        tracing::info!("notices are pushed to the devices people turn them on for");
        Ok(Some(Self { http, vapid }))
    }

    /// The key devices subscribe with (`applicationServerKey`), base64url.
    pub fn public_key(&self) -> &str {
        self.vapid.public_key()
    }

    /// Sends `push`: its notification's words in its reader's language, and where the app
    /// shows it.
    async fn send(&self, push: &OutgoingPush) -> Result<(), SendError> {
        let notification = &push.notification;
        let text = push
            .phrase
            .as_ref()
            .map_or_else(|| notification.text.clone(), |phrase| phrase.say(push.lang));
        let url = notification
            .item_id
            .map_or_else(|| "#/".to_owned(), |item| format!("#/items/{item}"));
        let message = json!({
            "title": say("push.title", push.lang),
            "body": text,
            "url": url,
            "tag": format!("notification-{}", notification.id),
        });
        let body = web_push_native::encrypt(
            message.to_string().into_bytes(),
            &push.device.public_key(),
            &push.device.auth_secret().into(),
        )
        .map_err(|err| SendError::Refused(format!("cannot encrypt: {err}")))?;
        let endpoint = push.device.endpoint();
        let answer = self
            .http
            .post(endpoint)
            .header("TTL", TIME_TO_LIVE.as_secs())
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("Authorization", self.vapid.authorization(endpoint, now_ms())?)
            .body(body)
            .send()
            .await
            .map_err(|err| SendError::Unreachable(describe(&err.without_url()).join(": ")))?;
        let status = answer.status();
        match status.as_u16() {
            200..=299 => Ok(()),
            404 | 410 => Err(SendError::Gone),
            429 | 500..=599 => Err(SendError::Unreachable(format!("the push service answered {status}"))),
            _ => Err(SendError::Refused(format!("the push service answered {status}"))),
        }
    }
}

/// The address in `Name <address>` or a bare address.
fn address_in(mailbox: &str) -> Option<&str> {
    let address = mailbox
        .rsplit_once('<')
        .map_or(mailbox, |(_, rest)| rest.trim_end_matches('>'));
    let address = address.trim();
    address.contains('@').then_some(address)
}

#[derive(Debug, thiserror::Error)]
enum SendError {
    /// The device is gone: its subscription expired or was withdrawn.
    #[error("the device is gone")]
    Gone,
    /// Trying again later may help: no answer, too many requests, a server error.
    #[error("{0}")]
    Unreachable(String),
    /// Trying again cannot help.
    #[error("{0}")]
    Refused(String),
}

impl From<vapid::SignError> for SendError {
    fn from(err: vapid::SignError) -> Self {
        Self::Refused(err.to_string())
    }
}

/// Sends queued pushes until `stop` is cancelled; a push being sent then is finished first.
pub async fn send_queued(
    store: Store,
    pusher: Pusher,
    mut events: broadcast::Receiver<Event>,
    stop: CancellationToken,
) {
    loop {
        let wait = send_due(&store, &pusher, &stop).await.unwrap_or_else(|err| {
            tracing::warn!(error = describe(err.as_ref()).join(": "), "cannot use the push outbox");
            POLL
        });
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(wait) => {}
            () = sending_queued(&mut events) => {}
        }
    }
}

/// Sends every push due now, one at a time, until `stop` is cancelled; returns how long to
/// wait before looking again.
async fn send_due(store: &Store, pusher: &Pusher, stop: &CancellationToken) -> anyhow::Result<Duration> {
    loop {
        if stop.is_cancelled() {
            return Ok(Duration::ZERO);
        }
        let now = now_ms();
        let lease_until = now + LEASE.as_millis() as i64;
        let Some(push) = store.take_push(now, lease_until).await? else {
            let due = store.next_push_due().await?;
            return Ok(due.map_or(POLL, |due| {
                Duration::from_millis(due.saturating_sub(now_ms()).max(0).unsigned_abs()).min(POLL)
            }));
        };
        let (id, device, attempts) = (push.notification.id, push.device_id, push.attempts);
        let too_late = now - push.notification.created_at > TIME_TO_LIVE.as_millis() as i64;
        match pusher.send(&push).await {
            Ok(()) => {
                tracing::info!(id, device, attempts, "push sent");
                store.push_done(id, device).await?;
            }
            Err(SendError::Gone) => {
                tracing::info!(id, device, "push device gone; forgotten");
                store.push_device_gone(device).await?;
            }
            Err(err @ SendError::Unreachable(_)) if !too_late => {
                let retry_at = now_ms() + backoff(attempts, FIRST_RETRY_DELAY, MAX_RETRY_DELAY).as_millis() as i64;
                tracing::warn!(id, device, attempts, error = %err, "push failed; will retry");
                store.push_failed(id, device, retry_at, &err.to_string()).await?;
            }
            Err(err) => {
                tracing::warn!(id, device, attempts, error = %err, "push given up");
                store.push_done(id, device).await?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contact_is_the_senders_address() {
        assert_eq!(
            address_in("Lost and found <lost@example.edu>"),
            Some("lost@example.edu")
        );
        assert_eq!(address_in("lost@example.edu"), Some("lost@example.edu"));
        assert_eq!(address_in("Lost and found"), None);
    }
}
