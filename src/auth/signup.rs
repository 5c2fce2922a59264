//! Getting in without staff: signing up, verifying an address, setting a password with a
//! mailed link. Tokens travel in links only; the database knows their SHA-256.

use super::{AccountError, Passwords, token::token_hash, unlock};
use crate::{
    domain::{Committed, LinkToken, NewPasswordByLink, Signup, User},
    store::{SignupOutcome, Store, StoreError, Verified},
    time::now_ms,
};

/// Signs someone up (see [`Store::sign_up`]). The password is hashed whatever becomes of the
/// sign-up, so that an address with an account takes as long to answer as one without.
pub async fn sign_up(
    store: &Store,
    passwords: &Passwords,
    signup: &Signup,
) -> Result<Committed<SignupOutcome>, AccountError> {
    let hash = passwords.hash(signup.password().clone()).await?;
    Ok(store.sign_up(signup, &hash, now_ms()).await?)
}

/// The visitor a link to follow their report logs in, or `None` for a bad or expired link.
pub async fn follower(store: &Store, token: &LinkToken) -> Result<Option<User>, StoreError> {
    store.follower(&token_hash(token.as_str()), now_ms()).await
}

/// Verifies an address with a link opened by `session_user` (the account logged in, if any):
/// what it did, or `None` for a bad, used or expired link.
pub async fn verify_email(
    store: &Store,
    token: &LinkToken,
    session_user: Option<&str>,
) -> Result<Option<Verified>, StoreError> {
    store
        .verify_email(&token_hash(token.as_str()), session_user, now_ms())
        .await
}

/// Sets a password with a link: every session of the account ends, and its failed logins
/// are forgotten. False for a bad, used or expired link (found before anything is hashed).
pub async fn reset_password(
    store: &Store,
    passwords: &Passwords,
    request: &NewPasswordByLink,
) -> Result<bool, AccountError> {
    let key = token_hash(request.token().as_str());
    if !store.reset_link_is_good(&key, now_ms()).await? {
        return Ok(false);
    }
    let hash = passwords.hash(request.password().clone()).await?;
    match store.reset_password(&key, &hash, now_ms()).await? {
        Some(id) => {
            unlock(store, &id).await?;
            Ok(true)
        }
        None => Ok(false),
    }
}
