//! Getting in without staff: sign-ups, verified addresses, links mailed to set a password.
//! Every answer that concerns an address is the same whether an account has it or not: what
//! differs is only the mail queued (see `account_mail`).

use super::{
    Store, StoreError,
    account_mail::{end_reset_links, queue_account_mail},
    statement::Tx,
    users::{NO_PASSWORD, NewUserRow, UserRow, end_sessions_of, user_columns},
    with_pool,
};
use crate::domain::{AccountMailKind, Committed, Email, Event, ImportedAccount, LinkPurpose, Signup, User};

/// The verified, enabled accounts of an address, and the address as each stored it: mail
/// goes there, not to the spelling someone typed.
macro_rules! owners_of {
    () => {
        "SELECT id, email FROM users WHERE lower(email) = lower($1) AND verified AND NOT disabled"
    };
}
/// The account an address belongs to (the first, by id), if any.
const OWNER_OF: &str = concat!(owners_of!(), " ORDER BY id");
/// [`OWNER_OF`], for a new password: an account linked to single sign-on has none to set.
const RESETTABLE_OWNER_OF: &str = concat!(owners_of!(), " AND oidc_subject IS NULL ORDER BY id");
/// Whether id `$1` is taken by an account, or retired, for a sign-up for address `$2`: a
/// sign-up still waiting for that same address does not count (the new one replaces it).
const ID_TAKEN_FOR_SIGNUP: &str = "SELECT EXISTS (SELECT 1 FROM users WHERE lower(id) = lower($1) \
         AND (verified OR lower(COALESCE(pending_email, '')) <> lower($2))) \
     OR EXISTS (SELECT 1 FROM retired_ids WHERE id_key = lower($1))";
/// The mail of the sign-ups waiting for address `$1` stays (it counts towards the address's
/// share) but is never sent, and no longer belongs to them.
const DETACH_WAITING_MAIL: &str = "UPDATE account_mail SET user_id = NULL, sent_at = COALESCE(sent_at, $2) \
     WHERE user_id IN (SELECT id FROM users WHERE NOT verified AND lower(pending_email) = lower($1))";
/// The sign-ups waiting for address `$1`; their links go with them.
const DELETE_WAITING: &str = "DELETE FROM users WHERE NOT verified AND lower(pending_email) = lower($1)";
/// Takes a good link's token: gone once used, refused once expired.
const TAKE_TOKEN: &str = "DELETE FROM account_tokens WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3 \
     RETURNING user_id, email";
/// The enabled account a good link to verify an address (`$1`) belongs to, and whether it was
/// verified before (then the link confirms a change of address).
const LINK_ACCOUNT: &str = "SELECT u.id, u.verified FROM account_tokens t JOIN users u ON u.id = t.user_id \
     WHERE t.token_hash = $1 AND t.purpose = 'verify' AND t.expires_at > $2 AND NOT u.disabled";
/// The address verified becomes the account's; a sign-up may log in from now on.
const VERIFY: &str = concat!(
    "UPDATE users SET email = $2, verified = TRUE, \
     pending_email = CASE WHEN lower(pending_email) = lower($2) THEN NULL ELSE pending_email END \
     WHERE id = $1 AND NOT disabled RETURNING ",
    user_columns!("users")
);
/// A good link's account, when it may have a password (it is not linked to single sign-on).
const GOOD_TOKEN: &str = "SELECT t.user_id FROM account_tokens t JOIN users u ON u.id = t.user_id \
     WHERE t.token_hash = $1 AND t.purpose = $2 AND t.expires_at > $3 AND u.oidc_subject IS NULL";

/// What became of a sign-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignupOutcome {
    /// The id is the sign-up's now, waiting for the address to be verified. When the address
    /// has an account already, its owner is told so instead, and the new one can never be
    /// verified (it is forgotten with the other sign-ups never verified): the asker sees the
    /// same in both cases, down to the id being taken.
    Created,
    /// The id is taken (in any case), or was an account's once.
    IdTaken,
}

/// What a link that verifies an address did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verified {
    /// A sign-up's address: the account may log in, and the link's holder is logged in.
    SignedUp(User),
    /// A new address of an account in use, confirmed by its owner, logged in.
    AddressConfirmed { email: String },
    /// A new address of an account in use, and the link was opened without the account's
    /// session: it may have reached someone else by a typo. Nothing changed.
    LogInFirst,
}

/// What became of one row of an accounts file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportOutcome {
    /// A new account, without a password yet; `true` when a link to choose one is queued.
    Created { mailed: bool },
    /// The id has an account already (in any case): left as it is.
    Exists,
}

/// A user's address and the one waiting for its verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailState {
    pub email: Option<String>,
    pub pending: Option<String>,
}

impl Store {
    /// Signs someone up: an account that cannot log in until its address is verified, and a
    /// mail with the link to do it. An address that has an account already gets a mail saying
    /// so instead (or, for a sign-up still waiting, its link again), and nothing is created.
    pub async fn sign_up(
        &self,
        signup: &Signup,
        password_hash: &str,
        now: i64,
    ) -> Result<Committed<SignupOutcome>, StoreError> {
        let outcome = with_pool!(self, write, |pool| sign_up(pool, signup, password_hash, now).await)?;
        Ok(mail_queued(outcome))
    }

    /// Verifies an address with a link's token, opened by `session_user` (the account logged
    /// in, if any): it becomes the account's address, and a sign-up may log in. What it did,
    /// or `None` for a bad, used or expired link.
    pub async fn verify_email(
        &self,
        token_hash: &str,
        session_user: Option<&str>,
        now: i64,
    ) -> Result<Option<Verified>, StoreError> {
        with_pool!(self, write, |pool| verify_email(pool, token_hash, session_user, now)
            .await)
    }

    /// Mails a link to set a new password to each account this verified address belongs to
    /// (but those that sign in with single sign-on); an address with none is told so. Either
    /// way one message is queued (the same work, so both take as long), and the asker cannot
    /// tell them apart.
    pub async fn request_password_reset(&self, email: &Email, now: i64) -> Result<Committed<()>, StoreError> {
        let address = email.as_str();
        with_pool!(self, write, |pool| {
            let owners: Vec<(String, String)> = pool.rows(RESETTABLE_OWNER_OF, &[address.into()]).await?;
            for (owner, stored) in &owners {
                queue_account_mail(pool, Some(owner), AccountMailKind::Reset, stored, now).await?;
            }
            if owners.is_empty() {
                queue_account_mail(pool, None, AccountMailKind::NoAccount, address, now).await?;
            }
            Ok(())
        })?;
        Ok(mail_queued(()))
    }

    /// Whether a link to set a password is good now (checked before the new one is hashed).
    pub async fn reset_link_is_good(&self, token_hash: &str, now: i64) -> Result<bool, StoreError> {
        let args = [token_hash.into(), LinkPurpose::Reset.as_str().into(), now.into()];
        let user: Option<(String,)> = self.read_row(GOOD_TOKEN, &args).await?;
        Ok(user.is_some())
    }

    /// Sets a password with a link's token, and ends every session of the account. The
    /// account's id, or `None` for a bad, used or expired link.
    pub async fn reset_password(
        &self,
        token_hash: &str,
        password_hash: &str,
        now: i64,
    ) -> Result<Option<String>, StoreError> {
        with_pool!(self, write, |pool| reset_password(pool, token_hash, password_hash, now)
            .await)
    }

    /// Creates an account from an accounts file, without a password (staff vouch for its
    /// address), unless its id is taken; with `welcome`, queues a link to choose the password.
    pub async fn import_account(
        &self,
        account: &ImportedAccount,
        welcome: bool,
        now: i64,
    ) -> Result<ImportOutcome, StoreError> {
        let email = account.email().map(Email::as_str);
        let row = NewUserRow {
            id: account.id().as_str(),
            name: account.name().as_str(),
            is_admin: account.role().admin_flag(),
            email,
            password_hash: NO_PASSWORD,
            verified: true,
            pending_email: None,
            oidc_subject: None,
        };
        with_pool!(self, write, |pool| {
            match (row.insert(pool, now).await?, email.filter(|_| welcome)) {
                (None, _) => Ok(ImportOutcome::Exists),
                (Some(_), Some(address)) => {
                    queue_account_mail(pool, Some(row.id), AccountMailKind::Welcome, address, now).await?;
                    Ok(ImportOutcome::Created { mailed: true })
                }
                (Some(_), None) => Ok(ImportOutcome::Created { mailed: false }),
            }
        })
    }

    /// A user's own change of address: `None` removes it at once; a new one waits for its
    /// verification (a link is mailed to it) while the old one stays in use.
    pub async fn change_email(
        &self,
        user_id: &str,
        email: Option<&Email>,
        now: i64,
    ) -> Result<Committed<EmailState>, StoreError> {
        let mail = self.account_links;
        let state = with_pool!(self, write, |pool| {
            match email {
                None => {
                    pool.run(
                        "UPDATE users SET email = NULL, pending_email = NULL WHERE id = $1",
                        &[user_id.into()],
                    )
                    .await?;
                }
                Some(email) => {
                    let address = email.as_str();
                    let args = [user_id.into(), address.into()];
                    let (current,): (bool,) = pool
                        .row(
                            "SELECT lower(COALESCE(email, '')) = lower($2) FROM users WHERE id = $1",
                            &args,
                        )
                        .await?;
                    let pending = (!current).then_some(address);
                    pool.run(
                        "UPDATE users SET pending_email = $2 WHERE id = $1",
                        &[user_id.into(), pending.into()],
                    )
                    .await?;
                    // Without email set up the address waits, unverified, and nothing is queued.
                    if let Some(address) = pending.filter(|_| mail) {
                        queue_account_mail(pool, Some(user_id), AccountMailKind::Verify, address, now).await?;
                    }
                }
            }
            email_state(pool, user_id).await
        })?;
        Ok(mail_queued(state))
    }

    /// A user's address and the one waiting for its verification.
    pub async fn email_state(&self, user_id: &str) -> Result<EmailState, StoreError> {
        let row: Option<(Option<String>, Option<String>)> = self
            .read_row(
                "SELECT email, pending_email FROM users WHERE id = $1",
                &[user_id.into()],
            )
            .await?;
        let (email, pending) = row.unwrap_or_default();
        Ok(EmailState { email, pending })
    }

    /// Removes sign-ups never verified, made at or before `cutoff` (their links expired long
    /// since): their ids and addresses are free again.
    pub(super) async fn forget_unverified_signups(&self, cutoff: i64) -> Result<(), StoreError> {
        self.write(
            "DELETE FROM users WHERE NOT verified AND created_at <= $1",
            &[cutoff.into()],
        )
        .await
        .map(drop)
    }

    /// Forgets links that expired at or before `now`.
    pub(super) async fn forget_expired_links(&self, now: i64) -> Result<(), StoreError> {
        self.write("DELETE FROM account_tokens WHERE expires_at <= $1", &[now.into()])
            .await
            .map(drop)
    }
}

/// [`Store::sign_up`], on `tx`.
async fn sign_up(tx: &mut impl Tx, signup: &Signup, password_hash: &str, now: i64) -> sqlx::Result<SignupOutcome> {
    let (id, address) = (signup.id().as_str(), signup.email().as_str());
    let (taken,): (bool,) = tx.row(ID_TAKEN_FOR_SIGNUP, &[id.into(), address.into()]).await?;
    if taken {
        return Ok(SignupOutcome::IdTaken);
    }
    // A newer sign-up for an address replaces those still waiting for it, links and all:
    // whoever verifies the address gets the account they made, with their password.
    tx.run(DETACH_WAITING_MAIL, &[address.into(), now.into()]).await?;
    tx.run(DELETE_WAITING, &[address.into()]).await?;
    let row = NewUserRow {
        id,
        name: signup.name().as_str(),
        is_admin: false,
        email: None,
        password_hash,
        verified: false,
        pending_email: Some(address),
        oidc_subject: None,
    };
    if row.insert(tx, now).await?.is_none() {
        return Ok(SignupOutcome::IdTaken);
    }
    match tx.rows::<(String, String)>(OWNER_OF, &[address.into()]).await?.first() {
        Some((owner, stored)) => queue_account_mail(tx, Some(owner), AccountMailKind::Registered, stored, now).await?,
        None => queue_account_mail(tx, Some(id), AccountMailKind::Verify, address, now).await?,
    }
    Ok(SignupOutcome::Created)
}

/// [`Store::verify_email`], on `tx`. A new address ends the account's links to set a
/// password: they were mailed to the old one.
async fn verify_email(
    tx: &mut impl Tx,
    token_hash: &str,
    session_user: Option<&str>,
    now: i64,
) -> sqlx::Result<Option<Verified>> {
    let args = [token_hash.into(), now.into()];
    let Some((user_id, was_verified)) = tx.rows::<(String, bool)>(LINK_ACCOUNT, &args).await?.pop() else {
        return Ok(None);
    };
    // The holder of a link to a new address may not be the account's owner (a typo): only
    // the owner, logged in, confirms it; the link stays good until then.
    if was_verified && session_user != Some(user_id.as_str()) {
        return Ok(Some(Verified::LogInFirst));
    }
    let Some((_, email)) = take_token(tx, token_hash, LinkPurpose::Verify, now).await? else {
        return Ok(None);
    };
    let user: Option<UserRow> = tx
        .rows(VERIFY, &[user_id.as_str().into(), email.as_deref().into()])
        .await?
        .pop();
    let Some(user) = user else { return Ok(None) };
    end_reset_links(tx, &user_id, now).await?;
    Ok(Some(if was_verified {
        Verified::AddressConfirmed {
            email: email.unwrap_or_default(),
        }
    } else {
        Verified::SignedUp(user.into())
    }))
}

/// [`Store::reset_password`], on `tx`.
async fn reset_password(
    tx: &mut impl Tx,
    token_hash: &str,
    password_hash: &str,
    now: i64,
) -> sqlx::Result<Option<String>> {
    let Some((user_id, _)) = take_token(tx, token_hash, LinkPurpose::Reset, now).await? else {
        return Ok(None);
    };
    // Receiving the link proves the address: an account made by an import is verified by
    // setting its password.
    tx.run(
        "UPDATE users SET password_hash = $2, verified = TRUE WHERE id = $1",
        &[user_id.as_str().into(), password_hash.into()],
    )
    .await?;
    end_sessions_of(tx, &user_id, now).await?;
    end_reset_links(tx, &user_id, now).await?;
    Ok(Some(user_id))
}

/// Takes (uses up) a good link's token on `tx`: its account's id and the address it was
/// sent to, or `None` for a bad, used or expired one.
async fn take_token(
    tx: &mut impl Tx,
    token_hash: &str,
    purpose: LinkPurpose,
    now: i64,
) -> sqlx::Result<Option<(String, Option<String>)>> {
    let args = [token_hash.into(), purpose.as_str().into(), now.into()];
    Ok(tx.rows(TAKE_TOKEN, &args).await?.pop())
}

async fn email_state(tx: &mut impl Tx, user_id: &str) -> sqlx::Result<EmailState> {
    let (email, pending): (Option<String>, Option<String>) = tx
        .row(
            "SELECT email, pending_email FROM users WHERE id = $1",
            &[user_id.into()],
        )
        .await?;
    Ok(EmailState { email, pending })
}

/// `value` of a change that may have queued mail about an account.
fn mail_queued<T>(value: T) -> Committed<T> {
    Committed::new(value, vec![Event::AccountMailQueued])
}
