//! Account operations shared by the command line, the demo data and the tests.

use crate::{
    domain::{Account, NewAccount, Password, ValidationError},
    store::{PasswordSet, Store, StoreError},
    time::now_ms,
};

use super::{Passwords, unlock};

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("{0}")]
    Invalid(#[from] ValidationError),
    #[error("user '{0}' already exists")]
    Exists(String),
    #[error("no user '{0}'")]
    NotFound(String),
    #[error("user '{0}' signs in with single sign-on, and has no password here")]
    SingleSignOn(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// Creates an account (with its address, if it has one) and returns it.
pub async fn add_user(store: &Store, passwords: &Passwords, account: &NewAccount) -> Result<Account, AccountError> {
    let hash = passwords.hash(account.password().clone()).await?;
    match store.insert_user(account, &hash, now_ms()).await {
        Ok(Some(account)) => Ok(account),
        // Taken, in any case (or by an account made at the same moment).
        Ok(None) | Err(StoreError::Conflict(_)) => Err(AccountError::Exists(account.id().as_str().to_owned())),
        Err(err) => Err(err.into()),
    }
}

/// Sets a new password, ends the user's sessions and forgets the failed logins counted
/// against the account.
pub async fn set_password(
    store: &Store,
    passwords: &Passwords,
    id: &str,
    password: &Password,
) -> Result<(), AccountError> {
    let hash = passwords.hash(password.clone()).await?;
    match store.set_password_hash(id, &hash).await? {
        PasswordSet::Done => Ok(unlock(store, id).await.map(drop)?),
        PasswordSet::NoSuchUser => Err(AccountError::NotFound(id.to_owned())),
        PasswordSet::SingleSignOn => Err(AccountError::SingleSignOn(id.to_owned())),
    }
}
