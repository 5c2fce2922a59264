//! Account operations shared by the command line, the demo data and the tests.

use crate::{
    domain::{DisplayName, Password, UserId, ValidationError},
    store::{Store, User},
    time::now_ms,
};

use super::Passwords;

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("{0}")]
    Invalid(#[from] ValidationError),
    #[error("user '{0}' already exists")]
    Exists(String),
    #[error("no user '{0}'")]
    NotFound(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
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
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(AccountError::Exists(user.id)),
        other => Ok(other.map(|()| user)?),
    }
}

/// Sets a new password and ends the user's sessions.
pub async fn set_password(store: &Store, passwords: &Passwords, id: &str, password: &str) -> Result<(), AccountError> {
    let hash = passwords.hash(Password::parse(password)?).await?;
    if store.set_password_hash(id, &hash).await? {
        Ok(())
    } else {
        Err(AccountError::NotFound(id.to_owned()))
    }
}
