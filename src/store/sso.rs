//! Single sign-on: logins on their way (their PKCE verifier and nonce, by state), and the
//! accounts linked to the provider's subjects.

use super::{
    Store, StoreError,
    statement::Tx,
    users::{NO_PASSWORD, NewUserRow, UserRow, user_columns},
    with_pool,
};
use crate::domain::{Email, SsoIdentity, User};

/// How long a login may take at the provider.
pub const LOGIN_LIFETIME_MS: i64 = 10 * 60 * 1000;

const INSERT_LOGIN: &str = "INSERT INTO oidc_logins (state_hash, verifier, nonce, created_at) VALUES ($1, $2, $3, $4)";
const TAKE_LOGIN: &str = "DELETE FROM oidc_logins WHERE state_hash = $1 AND created_at > $2 RETURNING verifier, nonce";
const LINKED: &str = concat!(
    "SELECT ",
    user_columns!("users"),
    ", disabled FROM users WHERE oidc_subject = $1"
);

/// What became of a single sign-on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SsoOutcome {
    SignedIn(User),
    /// The linked account is disabled.
    Disabled,
    /// No id of the candidates was free.
    NoFreeId,
}

#[derive(sqlx::FromRow)]
struct LinkedRow {
    #[sqlx(flatten)]
    user: UserRow,
    disabled: bool,
}

impl Store {
    /// Keeps a login on its way to the provider: its PKCE verifier and nonce, by its state.
    pub async fn insert_sso_login(
        &self,
        state_hash: &str,
        verifier: &str,
        nonce: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let args = [state_hash.into(), verifier.into(), nonce.into(), now.into()];
        self.write(INSERT_LOGIN, &args).await.map(drop)
    }

    /// Takes (uses up) the login of a state: its verifier and nonce, unless it is unknown,
    /// used, or older than [`LOGIN_LIFETIME_MS`].
    pub async fn take_sso_login(&self, state_hash: &str, now: i64) -> Result<Option<(String, String)>, StoreError> {
        let args = [state_hash.into(), (now - LOGIN_LIFETIME_MS).into()];
        self.write_optional(TAKE_LOGIN, &args).await
    }

    /// Forgets logins that never came back.
    pub(super) async fn forget_old_sso_logins(&self, now: i64) -> Result<(), StoreError> {
        self.write(
            "DELETE FROM oidc_logins WHERE created_at <= $1",
            &[(now - LOGIN_LIFETIME_MS).into()],
        )
        .await
        .map(drop)
    }

    /// The account linked to `identity`'s subject, brought up to date (its role, when the
    /// provider's groups say it; its address, when it had none); or a new one, linked, with
    /// the first free id of the identity's.
    pub async fn sso_sign_in(&self, identity: &SsoIdentity, now: i64) -> Result<SsoOutcome, StoreError> {
        with_pool!(self, write, |pool| sso_sign_in(pool, identity, now).await)
    }
}

/// [`Store::sso_sign_in`], on `tx`.
async fn sso_sign_in(tx: &mut impl Tx, identity: &SsoIdentity, now: i64) -> sqlx::Result<SsoOutcome> {
    let email = identity.email().map(Email::as_str);
    let linked: Option<LinkedRow> = tx.rows(LINKED, &[identity.subject().into()]).await?.pop();
    if let Some(linked) = linked {
        if linked.disabled {
            return Ok(SsoOutcome::Disabled);
        }
        let mut user = User::from(linked.user);
        if let Some(admin) = identity.admin() {
            tx.run(
                "UPDATE users SET is_admin = $2 WHERE id = $1",
                &[user.id.as_str().into(), admin.into()],
            )
            .await?;
            user = User::new(user.id, user.name, admin, user.sites);
        }
        tx.run(
            "UPDATE users SET email = COALESCE(email, $2) WHERE id = $1",
            &[user.id.as_str().into(), email.into()],
        )
        .await?;
        return Ok(SsoOutcome::SignedIn(user));
    }
    for id in identity.id_candidates() {
        let row = NewUserRow {
            id: id.as_str(),
            name: identity.name().as_str(),
            is_admin: identity.admin().unwrap_or(false),
            email,
            password_hash: NO_PASSWORD,
            verified: true,
            pending_email: None,
            oidc_subject: Some(identity.subject()),
        };
        if let Some(account) = row.insert(tx, now).await? {
            return Ok(SsoOutcome::SignedIn(crate::domain::Account::from(account).user));
        }
    }
    Ok(SsoOutcome::NoFreeId)
}
