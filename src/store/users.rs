//! Accounts.

use super::{Store, StoreError, with_pool};
use crate::domain::{Account, AccountPatch, Email, User};

/// A `users` row without the password hash.
#[derive(sqlx::FromRow)]
pub(super) struct UserRow {
    id: String,
    name: String,
    is_admin: bool,
}

impl From<UserRow> for User {
    fn from(row: UserRow) -> Self {
        Self {
            id: row.id,
            name: row.name,
            is_admin: row.is_admin,
        }
    }
}

#[derive(sqlx::FromRow)]
struct CredentialRow {
    #[sqlx(flatten)]
    user: UserRow,
    password_hash: String,
}

/// A `users` row as staff see it.
#[derive(sqlx::FromRow)]
struct AccountRow {
    #[sqlx(flatten)]
    user: UserRow,
    email: Option<String>,
    disabled: bool,
    created_at: i64,
}

impl From<AccountRow> for Account {
    fn from(row: AccountRow) -> Self {
        Self {
            user: row.user.into(),
            email: row.email,
            disabled: row.disabled,
            created_at: row.created_at,
        }
    }
}

macro_rules! account_columns {
    () => {
        "id, name, is_admin, email, disabled, created_at"
    };
}

/// Changes what the patch names; `$4` says whether `email` is among them.
const UPDATE_ACCOUNT: &str = concat!(
    "UPDATE users SET name = COALESCE($2, name), is_admin = COALESCE($3, is_admin), \
     email = CASE WHEN $4 THEN $5 ELSE email END, disabled = COALESCE($6, disabled) \
     WHERE id = $1 RETURNING ",
    account_columns!()
);

const INSERT_USER: &str =
    "INSERT INTO users (id, name, is_admin, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)";

impl Store {
    /// Accounts whose sessions this process ends from now on (each id once committed).
    pub fn sessions_ended(&self) -> tokio::sync::broadcast::Receiver<String> {
        self.sessions_ended.subscribe()
    }

    /// Tells the listeners that every session of `id` ended (none listening is fine).
    fn announce_sessions_ended(&self, id: &str) {
        let _ = self.sessions_ended.send(id.to_owned());
    }

    /// Fails with [`StoreError::Conflict`] when the id is taken.
    pub async fn insert_user(&self, user: &User, password_hash: &str, now: i64) -> Result<(), StoreError> {
        with_pool!(self, write, pool => {
            sqlx::query(INSERT_USER)
                .bind(&user.id)
                .bind(&user.name)
                .bind(user.is_admin)
                .bind(password_hash)
                .bind(now)
                .execute(&mut *pool)
                .await
                .map(drop)
        })
    }

    /// Every account, by id, as staff see them.
    pub async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let rows: Vec<AccountRow> = with_pool!(self, read, pool => {
            sqlx::query_as(concat!("SELECT ", account_columns!(), " FROM users ORDER BY id")).fetch_all(pool).await
        })?;
        Ok(rows.into_iter().map(Account::from).collect())
    }

    pub async fn account(&self, id: &str) -> Result<Option<Account>, StoreError> {
        let row: Option<AccountRow> = with_pool!(self, read, pool => {
            sqlx::query_as(concat!("SELECT ", account_columns!(), " FROM users WHERE id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await
        })?;
        Ok(row.map(Account::from))
    }

    /// Applies `patch` to account `id`; disabling it ends its sessions in the same
    /// transaction. `None` if no such account.
    pub async fn update_account(&self, id: &str, patch: &AccountPatch) -> Result<Option<Account>, StoreError> {
        let email = patch.email.as_ref().map(|email| email.as_ref().map(Email::as_str));
        let row: Option<AccountRow> = with_pool!(self, write, pool => {
            let row: Option<AccountRow> = sqlx::query_as(UPDATE_ACCOUNT)
                .bind(id)
                .bind(patch.name.as_ref().map(|name| name.as_str()))
                .bind(patch.is_admin)
                .bind(email.is_some())
                .bind(email.flatten())
                .bind(patch.disabled)
                .fetch_optional(&mut *pool)
                .await?;
            if patch.disabled == Some(true) {
                sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(id).execute(&mut *pool).await?;
            }
            Ok(row)
        })?;
        if row.is_some() && patch.disabled == Some(true) {
            self.announce_sessions_ended(id);
        }
        Ok(row.map(Account::from))
    }

    pub async fn user(&self, id: &str) -> Result<Option<User>, StoreError> {
        Ok(self.user_with_password_hash(id).await?.map(|(user, _)| user))
    }

    /// Sets (or, with `None`, removes) a user's email address; false if no such user.
    pub async fn set_email(&self, id: &str, email: Option<&str>) -> Result<bool, StoreError> {
        with_pool!(self, write, pool => {
            sqlx::query("UPDATE users SET email = $2 WHERE id = $1")
                .bind(id)
                .bind(email)
                .execute(&mut *pool)
                .await
                .map(|r| r.rows_affected() > 0)
        })
    }

    /// A user's email address, if they gave one.
    pub async fn email(&self, id: &str) -> Result<Option<String>, StoreError> {
        let email: Option<Option<String>> = with_pool!(self, read, pool => {
            sqlx::query_scalar("SELECT email FROM users WHERE id = $1").bind(id).fetch_optional(pool).await
        })?;
        Ok(email.flatten())
    }

    /// The user and the stored Argon2id hash, for verifying a login.
    pub async fn user_with_password_hash(&self, id: &str) -> Result<Option<(User, String)>, StoreError> {
        let row: Option<CredentialRow> = with_pool!(self, read, pool => {
            sqlx::query_as("SELECT id, name, is_admin, password_hash FROM users WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await
        })?;
        Ok(row.map(|row| (row.user.into(), row.password_hash)))
    }

    pub async fn list_users(&self) -> Result<Vec<User>, StoreError> {
        let rows: Vec<UserRow> = with_pool!(self, read, pool => {
            sqlx::query_as("SELECT id, name, is_admin FROM users ORDER BY id").fetch_all(pool).await
        })?;
        Ok(rows.into_iter().map(User::from).collect())
    }

    /// Sets a new password hash and ends every session of the user. False if no such user.
    pub async fn set_password_hash(&self, id: &str, password_hash: &str) -> Result<bool, StoreError> {
        let found = with_pool!(self, write, pool => {
                        let found = sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
                .bind(id)
                .bind(password_hash)
                .execute(&mut *pool)
                .await?
                .rows_affected()
                > 0;
            sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(id).execute(&mut *pool).await?;
            Ok(found)
        })?;
        if found {
            self.announce_sessions_ended(id);
        }
        Ok(found)
    }

    /// Deletes the user and, by cascade, their sessions; their items stay. False if no such user.
    pub async fn remove_user(&self, id: &str) -> Result<bool, StoreError> {
        let removed = with_pool!(self, write, pool => {
            sqlx::query("DELETE FROM users WHERE id = $1")
                .bind(id)
                .execute(&mut *pool)
                .await
                .map(|r| r.rows_affected() > 0)
        })?;
        if removed {
            self.announce_sessions_ended(id);
        }
        Ok(removed)
    }

    /// True when there are neither users nor items (the demo data fills only such a database).
    pub async fn is_empty(&self) -> Result<bool, StoreError> {
        with_pool!(self, read, pool => {
            sqlx::query_scalar("SELECT NOT EXISTS (SELECT 1 FROM users) AND NOT EXISTS (SELECT 1 FROM items)")
                .fetch_one(pool)
                .await
        })
    }

    /// True when there is no account yet.
    pub async fn has_no_users(&self) -> Result<bool, StoreError> {
        with_pool!(self, read, pool => {
            sqlx::query_scalar("SELECT NOT EXISTS (SELECT 1 FROM users)").fetch_one(pool).await
        })
    }
}
