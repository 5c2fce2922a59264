//! Mail about an account: a link to verify an address, a link to set a password (forgotten,
//! or first chosen for an account made by an import), or the notice that an address has an
//! account already. A link's token is made here, as the message is composed: the store keeps
//! its SHA-256 only, so no usable link is ever stored; each attempt carries a fresh one.

use lettre::{Message, message::Mailbox};

use super::Mailer;
use crate::{
    auth::Token,
    domain::{AccountMailKind, LinkPurpose, Phrase},
    store::{NewLink, OutgoingAccountMail, OutgoingMail, Store},
    time::now_ms,
};

/// The message for `mail`, with a fresh link when it carries one.
pub(super) async fn compose(mailer: &Mailer, store: &Store, mail: &OutgoingAccountMail) -> anyhow::Result<Message> {
    let Some(site) = mailer.public_url.as_deref() else {
        anyhow::bail!("links need LOSTFOUND_PUBLIC_URL");
    };
    let link = match mail.kind.link() {
        Some((purpose, lifetime_ms)) => {
            let token = Token::generate();
            let now = now_ms();
            let expires_at = now + lifetime_ms;
            let link = NewLink {
                mail_id: mail.id,
                token_hash: &token.hash(),
                user_id: &mail.user.id,
                purpose,
                email: &mail.address,
            };
            if !store.insert_link_token(&link, now, expires_at).await? {
                anyhow::bail!("withdrawn: a new password or address ended the account's links");
            }
            Some(link_url(site, purpose, &token))
        }
        None => None,
    };
    let (subject, body) = words(mail, site, link.as_deref().unwrap_or_default())?;
    // An address nobody verified yet is sent no words its requester chose: not even a name.
    let name = mail.kind.to_verified_address().then(|| mail.user.name.clone());
    let to = Mailbox::new(name, mail.address.parse()?);
    Ok(mailer
        .message(to, &subject)
        .message_id(Some(
            mailer.message_id(&format!("account.{}.{}", mail.id, mail.attempts)),
        ))
        .body(body)?)
}

/// A new link that follows the reports of the visitor `mail` goes to (its token kept hashed),
/// for a notice: a visitor has no password, and their first link may have run out.
pub(super) async fn follow_link(store: &Store, site: &str, mail: &OutgoingMail) -> anyhow::Result<String> {
    let token = Token::generate();
    let now = now_ms();
    let expires_at = now + LinkPurpose::Follow.lifetime_ms();
    store
        .insert_follow_token(
            &token.hash(),
            &mail.notification.user_id,
            &mail.address,
            now,
            expires_at,
        )
        .await?;
    Ok(link_url(site, LinkPurpose::Follow, &token))
}

/// Where a mailed link points: the web app's screen for `purpose`, `#/PURPOSE/TOKEN`.
fn link_url(site: &str, purpose: LinkPurpose, token: &Token) -> String {
    format!("{site}/#/{}/{}", purpose.as_str(), token.value())
}

/// The subject and body of `mail`, in its reader's language; `link` is its link, when it has
/// one.
fn words(mail: &OutgoingAccountMail, site: &str, link: &str) -> anyhow::Result<(String, String)> {
    if mail.kind == AccountMailKind::NoAccount {
        anyhow::bail!("a request for an address with no account is not mailed");
    }
    // "You already have an account" points to the form that mails a new password link.
    let forgot = format!("{site}/#/forgot");
    let link = if mail.kind == AccountMailKind::Registered {
        &forgot
    } else {
        link
    };
    let mut values = vec![("address", mail.address.as_str()), ("link", link)];
    if mail.kind.to_verified_address() {
        values.extend([("name", mail.user.name.as_str()), ("id", mail.user.id.as_str())]);
    }
    let kind = mail.kind.as_str();
    let subject = Phrase::new(&format!("account.{kind}.subject"), &[]).say(mail.lang);
    let body = Phrase::new(&format!("account.{kind}.body"), &values).say(mail.lang);
    Ok((subject, format!("{body}\n")))
}
