//! Account operations shared by the command line, the demo data and the tests.

use crate::{
    domain::{DisplayName, Password, User, UserId, ValidationError},
    store::{Store, StoreError},
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
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

pub async fn add_user(
    store: &Store,
    passwords: &Passwords,
    id: &str,
    name: &str,
    is_admin: bool,
    password: &str,
) -> Result<User, AccountError> {
    let id = UserId::parse(id)?;
    let name = DisplayName::parse(name)?;
    let hash = passwords.hash(Password::parse(password)?).await?;
    let user = User {
        id: id.as_str().to_owned(),
        name: name.as_str().to_owned(),
        is_admin,
    };
    match store.insert_user(&user, &hash, now_ms()).await {
        Err(StoreError::Conflict(_)) => Err(AccountError::Exists(user.id)),
        other => Ok(other.map(|()| user)?),
    }
}

/// Sets a new password, ends the user's sessions and forgets the failed logins counted
/// against the account.
pub async fn set_password(store: &Store, passwords: &Passwords, id: &str, password: &str) -> Result<(), AccountError> {
    let hash = passwords.hash(Password::parse(password)?).await?;
    if !store.set_password_hash(id, &hash).await? {
        return Err(AccountError::NotFound(id.to_owned()));
    }
    unlock(store, id).await?;
    Ok(())
}
