//! Mail about an account: a link to verify an address, a link to set a password (forgotten,
//! or first chosen for an account made by an import), or the notice that an address has an
//! account already. A link's token is made here, as the message is composed: the store keeps
//! its SHA-256 only, so no usable link is ever stored; each attempt carries a fresh one.

use lettre::{Message, message::Mailbox};

use super::Mailer;
use crate::{
    auth::Token,
    domain::AccountMailKind,
    store::{OutgoingAccountMail, Store},
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
            store
                .insert_link_token(&token.hash(), &mail.user.id, purpose, &mail.address, now, expires_at)
                .await?;
            Some(format!("{site}/#/{}/{}", purpose.as_str(), token.value()))
        }
        None => None,
    };
    let (subject, body) = words(mail, site, link.as_deref().unwrap_or_default())?;
    let to = Mailbox::new(Some(mail.user.name.clone()), mail.address.parse()?);
    Ok(mailer
        .message(to, subject)
        .message_id(Some(
            mailer.message_id(&format!("account.{}.{}", mail.id, mail.attempts)),
        ))
        .body(body)?)
}

/// The subject and body of `mail`; `link` is its link, when it has one.
fn words(mail: &OutgoingAccountMail, site: &str, link: &str) -> anyhow::Result<(&'static str, String)> {
    let address = &mail.address;
    let (name, id) = (&mail.user.name, &mail.user.id);
    Ok(match mail.kind {
        AccountMailKind::Verify => (
            "Confirm your email address",
            format!(
                "Hello {name},\n\nplease confirm that {address} is the email address of your lost-and-found \
                 account “{id}”: open this link within 48 hours.\n\n{link}\n\n\
                 If you did not ask for this, ignore this message: nothing changes.\n"
            ),
        ),
        AccountMailKind::Reset => (
            "Set a new password",
            format!(
                "Hello {name},\n\nsomeone asked to set a new password for your lost-and-found account \
                 “{id}”. To choose one, open this link within an hour:\n\n{link}\n\n\
                 If it was not you, ignore this message: your password stays as it is.\n"
            ),
        ),
        AccountMailKind::Welcome => (
            "Your lost-and-found account",
            format!(
                "Hello {name},\n\nan account “{id}” was made for you at the lost-and-found service. \
                 Choose your password with this link, which works for a week:\n\n{link}\n\n\
                 Later, “Forgot password?” on the login form mails you a new link.\n"
            ),
        ),
        AccountMailKind::Registered => (
            "You already have an account",
            format!(
                "Hello {name},\n\nsomeone asked to create a lost-and-found account with this address, which \
                 already belongs to your account “{id}”. If it was you, log in with that account; if you \
                 forgot its password, set a new one here:\n\n{site}/#/forgot\n\n\
                 If it was not you, ignore this message.\n"
            ),
        ),
        AccountMailKind::NoAccount => anyhow::bail!("a request for an address with no account is not mailed"),
    })
}
