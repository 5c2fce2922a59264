//! Mail about an account (links to verify an address or set a password, the notice that an
//! address has an account already), queued in the transaction that asks for it and taken by
//! the senders under a lease, like notifications (see `outbox`). A link's token is made when
//! the message is sent: no usable link is ever stored. To keep anyone from flooding an
//! address, it is sent at most [`PER_ADDRESS`] such messages an hour.

use super::{Store, StoreError, statement::Tx, with_pool};
use crate::domain::{AccountMailKind, Email, Lang, LinkPurpose, User};

/// Account mail one address is sent in an hour at most; more is not queued (the asker is not
/// told: that would say which addresses have accounts).
const PER_ADDRESS: i64 = 5;
const HOUR_MS: i64 = 3_600_000;

/// Counted by the mailbox (`$8`) the address delivers to, however it is spelt.
const QUEUE: &str = "INSERT INTO account_mail (user_id, purpose, address, created_at, next_attempt_at, sent_at, mailbox) \
     SELECT $1, $2, $3, $4, $4, $7, $8 \
     WHERE (SELECT COUNT(*) FROM account_mail WHERE mailbox = $8 AND created_at > $5) < $6";
/// Takes the message due first; see `outbox::TAKE` for why `next_attempt_at` is checked twice.
const TAKE: &str = "UPDATE account_mail SET attempts = attempts + 1, next_attempt_at = $2 \
     WHERE id = (SELECT id FROM account_mail WHERE sent_at IS NULL AND next_attempt_at <= $1 \
                 ORDER BY next_attempt_at, id LIMIT 1) \
       AND sent_at IS NULL AND next_attempt_at <= $1 \
     RETURNING id, user_id, purpose, address, attempts, created_at";
/// Only while the message it goes in (`$7`) is still to be sent: a new password or address
/// closes the account's queued messages, and a link made after that would outlive them.
const INSERT_TOKEN: &str = "INSERT INTO account_tokens (token_hash, user_id, purpose, email, created_at, expires_at) \
     SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM account_mail WHERE id = $7 AND sent_at IS NULL)";

/// Queues `kind` of mail to `address` about account `user_id` on `tx`, unless the address has
/// had its share this hour. Without an account (`None`) it is recorded as if sent: it counts
/// towards the share, and nothing is mailed.
pub(super) async fn queue_account_mail(
    tx: &mut impl Tx,
    user_id: Option<&str>,
    kind: AccountMailKind,
    address: &str,
    now: i64,
) -> sqlx::Result<()> {
    let args = [
        user_id.into(),
        kind.as_str().into(),
        address.into(),
        now.into(),
        (now - HOUR_MS).into(),
        PER_ADDRESS.into(),
        user_id.is_none().then_some(now).into(),
        Email::mailbox_of(address).into(),
    ];
    tx.run(QUEUE, &args).await.map(drop)
}

/// A link's token, as kept: its hash, for the message `mail_id` that carries it.
pub struct NewLink<'a> {
    pub mail_id: i64,
    pub token_hash: &'a str,
    pub user_id: &'a str,
    pub purpose: LinkPurpose,
    pub email: &'a str,
}

/// Ends every link account `user_id` has to set a password (a reset's, an import's welcome),
/// those mailed and those still queued, on `tx`: a new password or a new address makes them
/// stale. (A message being composed as this runs finds its mail closed and makes no link:
/// see `INSERT_TOKEN`.)
pub(super) async fn end_reset_links(tx: &mut impl Tx, user_id: &str, now: i64) -> sqlx::Result<()> {
    tx.run(
        "DELETE FROM account_tokens WHERE user_id = $1 AND purpose = $2",
        &[user_id.into(), LinkPurpose::Reset.as_str().into()],
    )
    .await?;
    let kinds = [AccountMailKind::Reset, AccountMailKind::Welcome].map(|kind| kind.as_str());
    tx.run(
        "UPDATE account_mail SET sent_at = $2 WHERE user_id = $1 AND sent_at IS NULL AND purpose IN ($3, $4)",
        &[user_id.into(), now.into(), kinds[0].into(), kinds[1].into()],
    )
    .await
    .map(drop)
}

/// A message about an account to send.
#[derive(Debug, Clone)]
pub struct OutgoingAccountMail {
    pub id: i64,
    pub kind: AccountMailKind,
    /// The account it is about.
    pub user: User,
    /// The language its reader reads.
    pub lang: Lang,
    pub address: String,
    /// How many times sending it was started, this one included.
    pub attempts: u32,
    /// When it was asked for (epoch ms).
    pub queued_at: i64,
}

#[derive(sqlx::FromRow)]
struct TakenRow {
    id: i64,
    user_id: String,
    #[sqlx(try_from = "String")]
    purpose: AccountMailKind,
    address: String,
    attempts: i32,
    created_at: i64,
}

impl Store {
    /// Takes the account mail due first at `now`, leased until `lease_until`.
    pub async fn take_account_mail(
        &self,
        now: i64,
        lease_until: i64,
    ) -> Result<Option<OutgoingAccountMail>, StoreError> {
        with_pool!(self, write, |pool| take(pool, now, lease_until).await)
    }

    /// Keeps a link's token (its hash), good until `expires_at`; false when its message was
    /// closed meanwhile (then no link is made).
    pub async fn insert_link_token(&self, link: &NewLink<'_>, now: i64, expires_at: i64) -> Result<bool, StoreError> {
        let args = [
            link.token_hash.into(),
            link.user_id.into(),
            link.purpose.as_str().into(),
            link.email.into(),
            now.into(),
            expires_at.into(),
            link.mail_id.into(),
        ];
        Ok(self.write(INSERT_TOKEN, &args).await? > 0)
    }

    /// Account mail `id` was sent: kept a day, counted towards its address's share.
    pub async fn account_mail_sent(&self, id: i64, now: i64) -> Result<(), StoreError> {
        self.write(
            "UPDATE account_mail SET sent_at = $2 WHERE id = $1",
            &[id.into(), now.into()],
        )
        .await
        .map(drop)
    }

    /// Puts account mail `id` back, to be tried again at `retry_at`.
    pub async fn account_mail_failed(&self, id: i64, retry_at: i64, error: &str) -> Result<(), StoreError> {
        let args = [id.into(), retry_at.into(), error.into()];
        self.write(
            "UPDATE account_mail SET next_attempt_at = $2, last_error = $3 WHERE id = $1",
            &args,
        )
        .await
        .map(drop)
    }

    /// Gives account mail `id` up (it cannot be sent, or never was in time).
    pub async fn account_mail_given_up(&self, id: i64, now: i64) -> Result<(), StoreError> {
        self.account_mail_sent(id, now).await
    }

    /// Forgets account mail sent (or given up) at or before `cutoff`.
    pub(super) async fn forget_sent_account_mail(&self, cutoff: i64) -> Result<(), StoreError> {
        self.write("DELETE FROM account_mail WHERE sent_at <= $1", &[cutoff.into()])
            .await
            .map(drop)
    }
}

/// [`Store::take_account_mail`], on `tx`.
async fn take(tx: &mut impl Tx, now: i64, lease_until: i64) -> sqlx::Result<Option<OutgoingAccountMail>> {
    let taken: Option<TakenRow> = tx.rows(TAKE, &[now.into(), lease_until.into()]).await?.pop();
    let Some(taken) = taken else { return Ok(None) };
    // Never missing: removing an account removes its mail.
    let (user, lang): (User, Option<String>) = tx
        .rows::<(String, String, bool, Option<String>)>(
            "SELECT id, name, is_admin, lang FROM users WHERE id = $1",
            &[taken.user_id.as_str().into()],
        )
        .await?
        .pop()
        // Mail about an account needs who it is, not where it works.
        .map(|(id, name, admin, lang)| (User::new(id, name, admin, Vec::new()), lang))
        .ok_or(sqlx::Error::RowNotFound)?;
    Ok(Some(OutgoingAccountMail {
        id: taken.id,
        kind: taken.purpose,
        user,
        lang: lang.and_then(|lang| lang.parse().ok()).unwrap_or_default(),
        address: taken.address,
        attempts: taken.attempts.unsigned_abs(),
        queued_at: taken.created_at,
    }))
}
