//! The mail outbox: notifications waiting to be emailed. A notification is queued in the
//! transaction that writes it (see `notifications`); a sender takes one message at a time by pushing its next
//! attempt past a lease, so while one node sends it no other takes it, and a node that dies
//! mid-send leaves it to be taken again once the lease runs out.

use super::{Store, StoreError, notifications::NotificationRow, visitors::follows_by_link, with_pool};
use crate::domain::{Lang, Notification, Phrase};

/// Takes the message due first. Both conditions on `next_attempt_at` matter on PostgreSQL:
/// when two nodes pick the same row, the second waits for the first's lock and then finds
/// the row no longer due, so it takes nothing.
const TAKE: &str = "UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = $2 \
     WHERE notification_id = (SELECT notification_id FROM mail_outbox WHERE next_attempt_at <= $1 \
                              ORDER BY next_attempt_at, notification_id LIMIT 1) \
       AND next_attempt_at <= $1 \
     RETURNING notification_id, attempts";

const NEXT_DUE: &str = "SELECT MIN(due) FROM (SELECT MIN(next_attempt_at) AS due FROM mail_outbox \
     UNION ALL SELECT MIN(next_attempt_at) FROM account_mail WHERE sent_at IS NULL) queued";
const MAIL_FAILED: &str = "UPDATE mail_outbox SET next_attempt_at = $2, last_error = $3 WHERE notification_id = $1";
const ADDRESSED: &str = concat!(
    "SELECT n.id, n.user_id, n.type, n.item_id, n.text, n.created_at, n.read, \
            n.phrase, n.items, u.name, u.email, u.lang, ",
    follows_by_link!("u"),
    " AS follows_by_link \
     FROM notifications n JOIN users u ON u.id = n.user_id AND NOT u.disabled WHERE n.id = $1"
);

/// A notification to email, and to whom.
#[derive(Debug, Clone)]
pub struct OutgoingMail {
    pub notification: Notification,
    /// Its words, to say in `lang` (`None` for one written before words were kept).
    pub phrase: Option<Phrase>,
    /// The language its reader reads.
    pub lang: Lang,
    pub name: String,
    pub address: String,
    /// How many times sending it was started, this one included.
    pub attempts: u32,
    /// To a visitor who follows their reports by link: the message carries a new one.
    pub follows_by_link: bool,
}

#[derive(sqlx::FromRow)]
struct AddressedRow {
    #[sqlx(flatten)]
    notification: NotificationRow,
    phrase: Option<String>,
    name: String,
    email: Option<String>,
    lang: Option<String>,
    follows_by_link: bool,
}

impl Store {
    /// Queues the notifications written from now on to be emailed (to users with an address),
    /// and, with `links`, the links that verify a user's new address.
    pub fn with_mail_outbox(mut self, links: bool) -> Self {
        self.mail_outbox = true;
        self.account_links = links;
        self
    }

    /// When the next queued message (a notification, or mail about an account) is due
    /// (epoch ms), if any is queued.
    pub async fn next_mail_due(&self) -> Result<Option<i64>, StoreError> {
        let (due,): (Option<i64>,) = self.read_one(NEXT_DUE, &[]).await?;
        Ok(due)
    }

    /// How many messages wait to be sent.
    pub async fn mail_queued(&self) -> Result<i64, StoreError> {
        with_pool!(self, read, |pool| {
            sqlx::query_scalar("SELECT COUNT(*) FROM mail_outbox")
                .fetch_one(pool)
                .await
        })
    }

    /// Takes the message due first at `now`, leased until `lease_until`: nobody else takes it
    /// before then. Messages whose user no longer has an address are dropped on the way.
    pub async fn take_mail(&self, now: i64, lease_until: i64) -> Result<Option<OutgoingMail>, StoreError> {
        with_pool!(self, write, |pool| {
            loop {
                let taken: Option<(i64, i32)> = sqlx::query_as(TAKE)
                    .bind(now)
                    .bind(lease_until)
                    .fetch_optional(&mut *pool)
                    .await?;
                let Some((id, attempts)) = taken else { break Ok(None) };
                let row: Option<AddressedRow> = sqlx::query_as(ADDRESSED).bind(id).fetch_optional(&mut *pool).await?;
                match row {
                    Some(AddressedRow {
                        notification,
                        phrase,
                        name,
                        email: Some(address),
                        lang,
                        follows_by_link,
                    }) => {
                        break Ok(Some(OutgoingMail {
                            notification: notification.into(),
                            phrase: phrase.as_deref().and_then(Phrase::from_json),
                            lang: lang.and_then(|lang| lang.parse().ok()).unwrap_or_default(),
                            name,
                            address,
                            attempts: attempts.unsigned_abs(),
                            follows_by_link,
                        }));
                    }
                    _ => {
                        sqlx::query("DELETE FROM mail_outbox WHERE notification_id = $1")
                            .bind(id)
                            .execute(&mut *pool)
                            .await?;
                    }
                }
            }
        })
    }

    /// Forgets message `id`: the SMTP server accepted it, or it was given up.
    pub async fn mail_done(&self, id: i64) -> Result<(), StoreError> {
        self.write("DELETE FROM mail_outbox WHERE notification_id = $1", &[id.into()])
            .await
            .map(drop)
    }

    /// Puts message `id` back, to be tried again at `retry_at`; `error` says what went wrong.
    pub async fn mail_failed(&self, id: i64, retry_at: i64, error: &str) -> Result<(), StoreError> {
        let args = [id.into(), retry_at.into(), error.into()];
        self.write(MAIL_FAILED, &args).await.map(drop)
    }
}
