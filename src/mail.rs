//! Email: the background sender that empties the outbox through the configured SMTP server.
//!
//! Every node runs one sender. Each takes one message at a time from the store under a lease
//! (see `store::outbox`), so a message goes out from one node only; a failure puts it back
//! with a growing delay. A message is forgotten once the SMTP server accepted it; a node
//! killed between that acceptance and forgetting sends it again, with the same `Message-ID`,
//! which lets mail systems drop the copy.

use std::time::{Duration, UNIX_EPOCH};

use anyhow::Context;
use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Mailbox, header::ContentType},
};
use tokio_util::sync::CancellationToken;

use crate::{config::MailConfig, error::describe, store::OutgoingMail, store::Store, time::now_ms};

/// How long one SMTP exchange may take before it counts as failed.
const SMTP_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a taken message is kept from other senders: well past the SMTP timeout.
const LEASE: Duration = Duration::from_secs(120);
/// How often the outbox is looked at without a wake-up (messages queued by other nodes).
const POLL: Duration = Duration::from_secs(5);
/// The first retry's delay, doubled for each further attempt up to `MAX_RETRY_DELAY`.
const FIRST_RETRY_DELAY: Duration = Duration::from_secs(2);
const MAX_RETRY_DELAY: Duration = Duration::from_secs(15 * 60);
/// A message not sent after this long is given up: the notification stays in the app.
const GIVE_UP_AFTER: Duration = Duration::from_secs(3 * 24 * 3600);

/// Sends notification emails through one SMTP server.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// The service's address, for links back to the item.
    public_url: Option<String>,
}

impl Mailer {
    /// The mailer `config` describes, or `None` when no SMTP server is configured.
    pub fn from_config(config: &MailConfig, public_url: Option<&str>) -> anyhow::Result<Option<Self>> {
        let Some(url) = &config.smtp_url else { return Ok(None) };
        let from = config.mail_from.as_deref().unwrap_or_default();
        let from: Mailbox = from
            .parse()
            .with_context(|| format!("LOSTFOUND_MAIL_FROM is not an email address: {from:?}"))?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&url.0)
            .with_context(|| format!("LOSTFOUND_SMTP_URL cannot be used: {url:?}"))?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        tracing::info!(smtp = ?url, from = %from, "notifications are emailed");
        Ok(Some(Self {
            transport,
            from,
            public_url: public_url.map(|url| url.trim_end_matches('/').to_owned()),
        }))
    }

    /// The email for `mail`: plain text, the notification's words as subject and body, and
    /// a `Message-ID` that is the same each time this notification is sent.
    fn compose(&self, mail: &OutgoingMail) -> anyhow::Result<Message> {
        let notification = &mail.notification;
        let to = Mailbox::new(Some(mail.name.clone()), mail.address.parse()?);
        let domain = self.from.email.domain();
        let mut body = format!("{}\n", notification.text);
        if let (Some(url), Some(item)) = (&self.public_url, notification.item_id) {
            body.push_str(&format!("\n{url}/#/browse/{item}\n"));
        }
        body.push_str("\nYou get this email because your lost-and-found account has this address.\n");
        let sent = UNIX_EPOCH + Duration::from_millis(notification.created_at.max(0).unsigned_abs());
        Ok(Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(one_line(&notification.text))
            .date(sent)
            .message_id(Some(format!(
                "<notification.{}.{}@{domain}>",
                notification.id, notification.created_at
            )))
            .header(ContentType::TEXT_PLAIN)
            .body(body)?)
    }
}

/// `text` on one line: user text must not start new header lines.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// How long to wait before attempt `attempts + 1`, after `attempts` failed.
fn retry_delay(attempts: u32) -> Duration {
    let doubled = FIRST_RETRY_DELAY.saturating_mul(1 << attempts.saturating_sub(1).min(20));
    doubled.min(MAX_RETRY_DELAY)
}

/// Sends queued mail until `stop` is cancelled; a message being sent then is finished first.
pub async fn send_queued(store: Store, mailer: Mailer, stop: CancellationToken) {
    let mut committed = store.notifications_committed();
    loop {
        let wait = send_due(&store, &mailer).await.unwrap_or_else(|err| {
            tracing::warn!(error = describe(err.as_ref()).join(": "), "cannot use the mail outbox");
            POLL
        });
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(wait) => {}
            // A notification of this node: its mail may be queued.
            _ = committed.recv() => {}
        }
    }
}

/// Sends every message due now, one at a time; returns how long to wait before looking again
/// (until the next message is due, at most [`POLL`]).
async fn send_due(store: &Store, mailer: &Mailer) -> anyhow::Result<Duration> {
    loop {
        let now = now_ms();
        let lease_until = now + LEASE.as_millis() as i64;
        let Some(mail) = store.take_mail(now, lease_until).await? else {
            let due = store.next_mail_due().await?;
            return Ok(due.map_or(POLL, |due| {
                Duration::from_millis(due.saturating_sub(now_ms()).max(0).unsigned_abs()).min(POLL)
            }));
        };
        let id = mail.notification.id;
        let result = match mailer.compose(&mail) {
            Ok(message) => mailer.transport.send(message).await.map(drop).map_err(SendError::Smtp),
            Err(err) => Err(SendError::Compose(err)),
        };
        match result {
            Ok(()) => {
                tracing::info!(notification = id, attempts = mail.attempts, "notification emailed");
                store.mail_done(id).await?;
            }
            Err(err) if err.is_permanent() || now - mail.notification.created_at > GIVE_UP_AFTER.as_millis() as i64 => {
                tracing::warn!(notification = id, attempts = mail.attempts, error = %err, "notification email given up");
                store.mail_done(id).await?;
            }
            Err(err) => {
                let retry_at = now_ms() + retry_delay(mail.attempts).as_millis() as i64;
                tracing::warn!(notification = id, attempts = mail.attempts, error = %err, "notification email failed; will retry");
                store.mail_failed(id, retry_at, &err.to_string()).await?;
            }
        }
    }
}

#[derive(Debug, thiserror::Error)]
enum SendError {
    #[error("cannot compose the email: {0}")]
    Compose(anyhow::Error),
    #[error("SMTP: {0}")]
    Smtp(lettre::transport::smtp::Error),
}

impl SendError {
    /// Whether trying again cannot help: the message cannot be written, or the server
    /// refused it for good (a 5xx answer such as an unknown recipient).
    fn is_permanent(&self) -> bool {
        match self {
            Self::Compose(_) => true,
            Self::Smtp(err) => err.is_permanent(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_to_a_ceiling() {
        let delays: Vec<u64> = (1..=6).map(|n| retry_delay(n).as_secs()).collect();
        assert_eq!(delays, [2, 4, 8, 16, 32, 64]);
        assert_eq!(retry_delay(40), MAX_RETRY_DELAY);
    }

    #[test]
    fn subjects_stay_on_one_line() {
        assert_eq!(
            one_line("Your report “a\r\nBcc: x@y” was rejected."),
            "Your report “a  Bcc: x@y” was rejected."
        );
    }
}
