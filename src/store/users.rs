//! Accounts.

use serde::Serialize;

use super::{Store, with_pool};

/// A user as the session endpoints return it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct User {
    pub id: String,
    pub name: String,
    #[serde(rename = "isAdmin")]
    pub is_admin: bool,
}

/// A user with the stored Argon2id hash, for verifying a login.
#[derive(Debug, sqlx::FromRow)]
pub struct UserRecord {
    #[sqlx(flatten)]
    pub user: User,
    pub password_hash: String,
}

impl Store {
    /// Fails with a unique-violation database error when the id is taken.
    pub async fn insert_user(&self, user: &User, password_hash: &str, now: i64) -> Result<(), sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query("INSERT INTO users (id, name, is_admin, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(&user.id)
                .bind(&user.name)
                .bind(user.is_admin)
                .bind(password_hash)
                .bind(now)
                .execute(pool)
                .await
                .map(drop)
        })
    }

    pub async fn user_record(&self, id: &str) -> Result<Option<UserRecord>, sqlx::Error> {
        with_pool!(self, read, |pool| {
            sqlx::query_as("SELECT id, name, is_admin, password_hash FROM users WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await
        })
    }

    pub async fn list_users(&self) -> Result<Vec<User>, sqlx::Error> {
        with_pool!(self, read, |pool| {
            sqlx::query_as("SELECT id, name, is_admin FROM users ORDER BY id")
                .fetch_all(pool)
                .await
        })
    }

    /// Sets a new password hash and ends every session of the user. False if no such user.
    pub async fn set_password_hash(&self, id: &str, password_hash: &str) -> Result<bool, sqlx::Error> {
        with_pool!(self, write, |pool| {
            let mut tx = pool.begin().await?;
            let found = sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
                .bind(id)
                .bind(password_hash)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                > 0;
            sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(found)
        })
    }

    /// Deletes the user and, by cascade, their sessions; their items stay. False if no such user.
    pub async fn remove_user(&self, id: &str) -> Result<bool, sqlx::Error> {
        with_pool!(self, write, |pool| {
            sqlx::query("DELETE FROM users WHERE id = $1")
                .bind(id)
                .execute(pool)
                .await
                .map(|r| r.rows_affected() > 0)
        })
    }

    /// True when there are neither users nor items (the demo data fills only such a database).
    pub async fn is_empty(&self) -> Result<bool, sqlx::Error> {
        with_pool!(self, read, |pool| {
            sqlx::query_scalar("SELECT NOT EXISTS (SELECT 1 FROM users) AND NOT EXISTS (SELECT 1 FROM items)")
                .fetch_one(pool)
                .await
        })
    }
}
