//! Argon2id hashing and verification, always on blocking threads and bounded in number.

use std::sync::Arc;

use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};
use tokio::sync::Semaphore;

use crate::{cpu::cores, domain::Password};

/// Hashes and verifies passwords. Clones share the same limit on concurrent hashing, so a
/// burst of logins queues instead of exhausting memory (each hash takes 19 MiB).
#[derive(Clone)]
pub struct Passwords {
    permits: Arc<Semaphore>,
    /// Verified against when the account does not exist, so that unknown ids take as long
    /// to refuse as wrong passwords.
    dummy_hash: Arc<str>,
}

impl Passwords {
    pub async fn new() -> anyhow::Result<Self> {
        let dummy = Password::parse("not-a-real-password").expect("valid");
        let dummy_hash = tokio::task::spawn_blocking(move || hash_blocking(&dummy)).await??;
        Ok(Self {
            permits: Arc::new(Semaphore::new(cores())),
            dummy_hash: dummy_hash.into(),
        })
    }

    /// A PHC-format Argon2id hash with a random salt and the crate's default (OWASP) costs.
    pub async fn hash(&self, password: Password) -> anyhow::Result<String> {
        let _permit = self.permits.acquire().await?;
        tokio::task::spawn_blocking(move || hash_blocking(&password)).await?
    }

    /// True when `password` matches `stored_hash`. With no stored hash, or one no password
    /// matches (an account without a password: `store::NO_PASSWORD`), does the same work
    /// against a dummy hash and answers false.
    pub async fn verify(&self, password: String, stored_hash: Option<String>) -> anyhow::Result<bool> {
        let _permit = self.permits.acquire().await?;
        let dummy = self.dummy_hash.clone();
        tokio::task::spawn_blocking(move || {
            let stored = stored_hash.as_deref().and_then(|hash| PasswordHash::new(hash).ok());
            let checked = stored.clone().map_or_else(|| PasswordHash::new(&dummy), Ok)?;
            let matches = Argon2::default().verify_password(password.as_bytes(), &checked).is_ok();
            Ok(stored.is_some() && matches)
        })
        .await?
    }
}

fn hash_blocking(password: &Password) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.expose().as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("cannot hash password: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_with_argon2id_and_verifies() {
        let passwords = Passwords::new().await.unwrap();
        let hash = passwords.hash(Password::parse("correct horse").unwrap()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(
            passwords
                .verify("correct horse".into(), Some(hash.clone()))
                .await
                .unwrap()
        );
        assert!(!passwords.verify("wrong horse".into(), Some(hash)).await.unwrap());
        assert!(!passwords.verify("not-a-real-password".into(), None).await.unwrap());
    }
}
