//! Email: the background sender that empties the outboxes through the configured SMTP server:
//! mail about an account (links to verify an address or set a password: `account`), then
//! notifications.
//!
//! Every node runs one sender. Each takes one message at a time from the store under a lease
//! (see `store::outbox`), so a message goes out from one node only; a failure puts it back
//! with a growing delay. A message is forgotten once the SMTP server accepted it; a node
//! killed between that acceptance and forgetting sends a notification again, with the same
//! `Message-ID`, which lets mail systems drop the copy.

mod account;

use std::time::{Duration, UNIX_EPOCH};

use anyhow::Context;
use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{
        Mailbox,
        header::{ContentType, HeaderName, HeaderValue},
    },
};
use tokio::sync::{broadcast, watch};
use tokio_util::sync::CancellationToken;

use crate::{
    auth::unsubscribe,
    causes::describe,
    config::MailConfig,
    domain::{Event, Phrase, say},
    events::sending_queued,
    store::{OutgoingAccountMail, OutgoingMail, Store},
    time::{backoff, now_ms},
};

/// How long one SMTP exchange may take before it counts as failed.
const SMTP_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a taken message is kept from other senders: well past the SMTP timeout.
const LEASE: Duration = Duration::from_secs(120);
/// The first retry's delay, doubled for each further attempt up to `MAX_RETRY_DELAY`.
const FIRST_RETRY_DELAY: Duration = Duration::from_secs(2);
const MAX_RETRY_DELAY: Duration = Duration::from_secs(15 * 60);
/// A notification not sent after this long is given up: it stays in the app.
const GIVE_UP_NOTIFICATION: Duration = Duration::from_secs(3 * 24 * 3600);
/// Mail about an account not sent after this long is given up: its link would be of little
/// use by then, and whoever asked for it can ask again.
const GIVE_UP_ACCOUNT_MAIL: Duration = Duration::from_secs(3600);

/// Sends email through one SMTP server.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// The service's address, for links back to the item.
    public_url: Option<String>,
    /// How often the outbox is looked at without a wake-up (mail queued by other nodes).
    poll: Duration,
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
        if public_url.is_none() {
            tracing::warn!(
                "without LOSTFOUND_PUBLIC_URL, mail about accounts (links to verify an address or set a password) cannot be sent"
            );
        }
        Ok(Some(Self {
            transport,
            from,
            public_url: public_url.map(|url| url.trim_end_matches('/').to_owned()),
            poll: Duration::from_secs(config.mail_poll_seconds),
        }))
    }

    /// Whether links can be mailed: they point to the public URL.
    pub fn mails_links(&self) -> bool {
        self.public_url.is_some()
    }

    /// A plain-text message from the service, without its `Message-ID`.
    fn message(&self, to: Mailbox, subject: &str) -> lettre::message::MessageBuilder {
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(one_line(subject))
            .header(ContentType::TEXT_PLAIN)
    }

    /// `<what@domain>`, in the domain of the service's address.
    fn message_id(&self, what: &str) -> String {
        format!("<{what}@{}>", self.from.email.domain())
    }

    /// The email for `mail`: plain text, the notification's words as subject and body (and
    /// `follow`, a visitor's new link to their reports), a `Message-ID` that is the same
    /// each time this notification is sent, and, with `unsubscribe`, the one-click link that
    /// stops this kind of notice (RFC 8058) and where to choose in My account.
    fn compose(&self, mail: &OutgoingMail, follow: Option<&str>, unsubscribe: Option<&str>) -> anyhow::Result<Message> {
        let notification = &mail.notification;
        let to = Mailbox::new(Some(mail.name.clone()), mail.address.parse()?);
        // In the reader's language (a notification written before words were kept: as written).
        let text = mail
            .phrase
            .as_ref()
            .map_or_else(|| notification.text.clone(), |phrase| phrase.say(mail.lang));
        let mut body = format!("{text}\n");
        if let (Some(url), Some(item)) = (&self.public_url, notification.item_id) {
            body.push_str(&format!("\n{url}/#/items/{item}\n"));
        }
        if let Some(link) = follow {
            let words = Phrase::new("mail.follow", &[("link", link)]).say(mail.lang);
            body.push_str(&format!("\n{words}\n"));
        }
        body.push_str(&format!("\n{}\n", say("mail.footer", mail.lang)));
        let mut message = self.message(to, &text);
        if let (Some(site), Some(unsubscribe)) = (&self.public_url, unsubscribe) {
            let choices = Phrase::new("mail.choices", &[("link", &format!("{site}/#/account"))]).say(mail.lang);
            body.push_str(&format!("{choices}\n"));
            message = message
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{unsubscribe}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_owned(),
                ));
        }
        let sent = UNIX_EPOCH + Duration::from_millis(notification.created_at.max(0).unsigned_abs());
        Ok(message
            .date(sent)
            .message_id(Some(self.message_id(&format!(
                "notification.{}.{}",
                notification.id, notification.created_at
            ))))
            .body(body)?)
    }
}

/// `text` on one line: user text must not start new header lines.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// How long to wait before attempt `attempts + 1`, after `attempts` failed.
fn retry_delay(attempts: u32) -> Duration {
    backoff(attempts, FIRST_RETRY_DELAY, MAX_RETRY_DELAY)
}

/// What a node's sender has done so far: how many times it looked at the outbox (a pass
/// sends everything due), and how many messages it sent. Read by tests, which must know that
/// the sender ran again before they can say nothing more is sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    pub passes_started: u64,
    pub passes_finished: u64,
    pub sent: u64,
}

/// Sends queued mail until `stop` is cancelled; a message being sent then is finished first
/// (the caller bounds how long it waits for that), and the rest stays queued.
pub async fn send_queued(
    store: Store,
    mailer: Mailer,
    mut events: broadcast::Receiver<Event>,
    stop: CancellationToken,
    progress: watch::Sender<Progress>,
) {
    loop {
        progress.send_modify(|p| p.passes_started += 1);
        let wait = send_due(&store, &mailer, &stop, &progress).await.unwrap_or_else(|err| {
            tracing::warn!(error = describe(err.as_ref()).join(": "), "cannot use the mail outbox");
            mailer.poll
        });
        progress.send_modify(|p| p.passes_finished += 1);
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(wait) => {}
            // Mail queued on this node: looked at now rather than at the next poll.
            () = sending_queued(&mut events) => {}
        }
    }
}

/// A message taken from one of the outboxes.
enum Taken {
    Account(OutgoingAccountMail),
    Notification(OutgoingMail),
}

impl Taken {
    /// The message due first, about an account before a notification.
    async fn next(store: &Store, now: i64, lease_until: i64) -> anyhow::Result<Option<Self>> {
        if let Some(mail) = store.take_account_mail(now, lease_until).await? {
            return Ok(Some(Self::Account(mail)));
        }
        Ok(store.take_mail(now, lease_until).await?.map(Self::Notification))
    }

    async fn compose(&self, mailer: &Mailer, store: &Store) -> anyhow::Result<Message> {
        match self {
            Self::Account(mail) => account::compose(mailer, store, mail).await,
            Self::Notification(mail) => {
                let follow = match (&mailer.public_url, mail.follows_by_link) {
                    (Some(site), true) => Some(account::follow_link(store, site, mail).await?),
                    _ => None,
                };
                let unsubscribe = match &mailer.public_url {
                    Some(site) => {
                        let (user, kind) = (&mail.notification.user_id, &mail.notification.kind);
                        Some(unsubscribe::link(site, &store.mail_key().await?, user, kind))
                    }
                    None => None,
                };
                mailer.compose(mail, follow.as_deref(), unsubscribe.as_deref())
            }
        }
    }

    /// For the log: which outbox, and the message's id there.
    fn name(&self) -> (&'static str, i64) {
        match self {
            Self::Account(mail) => ("account mail", mail.id),
            Self::Notification(mail) => ("notification email", mail.notification.id),
        }
    }

    fn attempts(&self) -> u32 {
        match self {
            Self::Account(mail) => mail.attempts,
            Self::Notification(mail) => mail.attempts,
        }
    }

    /// Whether it is too late to send it at `now`.
    fn too_late(&self, now: i64) -> bool {
        let (queued_at, limit) = match self {
            Self::Account(mail) => (mail.queued_at, GIVE_UP_ACCOUNT_MAIL),
            Self::Notification(mail) => (mail.notification.created_at, GIVE_UP_NOTIFICATION),
        };
        now - queued_at > limit.as_millis() as i64
    }

    /// Sent, or given up: the notification's row goes; an account mail's stays a day (it
    /// counts towards its address's share).
    async fn done(&self, store: &Store) -> anyhow::Result<()> {
        match self {
            Self::Account(mail) => store.account_mail_sent(mail.id, now_ms()).await?,
            Self::Notification(mail) => store.mail_done(mail.notification.id).await?,
        }
        Ok(())
    }

    async fn failed(&self, store: &Store, retry_at: i64, error: &str) -> anyhow::Result<()> {
        match self {
            Self::Account(mail) => store.account_mail_failed(mail.id, retry_at, error).await?,
            Self::Notification(mail) => store.mail_failed(mail.notification.id, retry_at, error).await?,
        }
        Ok(())
    }
}

/// Sends every message due now, one at a time, until `stop` is cancelled; returns how long to
/// wait before looking again (until the next message is due, at most the mailer's poll).
async fn send_due(
    store: &Store,
    mailer: &Mailer,
    stop: &CancellationToken,
    progress: &watch::Sender<Progress>,
) -> anyhow::Result<Duration> {
    loop {
        if stop.is_cancelled() {
            return Ok(Duration::ZERO);
        }
        let now = now_ms();
        let lease_until = now + LEASE.as_millis() as i64;
        let Some(mail) = Taken::next(store, now, lease_until).await? else {
            let due = store.next_mail_due().await?;
            return Ok(due.map_or(mailer.poll, |due| {
                Duration::from_millis(due.saturating_sub(now_ms()).max(0).unsigned_abs()).min(mailer.poll)
            }));
        };
        let ((kind, id), attempts) = (mail.name(), mail.attempts());
        let result = match mail.compose(mailer, store).await {
            Ok(message) => mailer.transport.send(message).await.map(drop).map_err(SendError::Smtp),
            Err(err) => Err(SendError::Compose(err)),
        };
        match result {
            Ok(()) => {
                tracing::info!(id, attempts, "{kind} sent");
                mail.done(store).await?;
                progress.send_modify(|p| p.sent += 1);
            }
            Err(err) if err.is_permanent() || mail.too_late(now) => {
                tracing::warn!(id, attempts, error = %err, "{kind} given up");
                mail.done(store).await?;
            }
            Err(err) => {
                let retry_at = now_ms() + retry_delay(attempts).as_millis() as i64;
                tracing::warn!(id, attempts, error = %err, "{kind} failed; will retry");
                mail.failed(store, retry_at, &err.to_string()).await?;
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
