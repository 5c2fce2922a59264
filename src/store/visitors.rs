//! Visitors without an account whose lost reports staff take at the desk: the account their
//! report goes to, and the link mailed to them that logs them in to follow it.

use super::{
    Store, StoreError,
    account_mail::queue_account_mail,
    statement::Tx,
    users::{UserRow, insert_drawn, user_columns},
    with_pool,
};
use crate::domain::{AccountMailKind, Committed, Event, LinkPurpose, User, Visitor};

/// The enabled account an address belongs to (the first, by id), and whether it follows its
/// reports by link.
const OWNER_OF: &str = concat!(
    "SELECT id, ",
    follows_by_link!("users"),
    " FROM users WHERE lower(email) = lower($1) AND verified AND NOT disabled ORDER BY id LIMIT 1"
);
const MARK_VISITOR: &str = "UPDATE users SET visitor = TRUE, phone = $2 WHERE id = $1";
/// A visitor's new phone number; an account of the address's own holder is left as it is.
const NEW_PHONE: &str = "UPDATE users SET phone = COALESCE($2, phone) WHERE id = $1 AND visitor";
/// Whether the account in `$users` follows its reports by link: a visitor's that has no
/// password (once they choose one, they log in with it), is enabled, and does no office
/// work — a link is no way into staff's rights, should an administrator give it some. (`'!'`
/// is [`NO_PASSWORD`], written out for `concat!`.)
macro_rules! follows_by_link {
    ($users:literal) => {
        concat!(
            "(",
            $users,
            ".visitor AND ",
            $users,
            ".password_hash = '!' AND NOT ",
            $users,
            ".disabled \
             AND NOT ",
            $users,
            ".is_admin \
             AND NOT EXISTS (SELECT 1 FROM site_staff WHERE site_staff.user_id = ",
            $users,
            ".id))"
        )
    };
}
pub(super) use follows_by_link;

/// The visitor a good link to follow (`$1`) logs in. The link stays good until it expires.
const FOLLOWER: &str = concat!(
    "SELECT ",
    user_columns!("users"),
    " FROM account_tokens t JOIN users ON users.id = t.user_id \
     WHERE t.token_hash = $1 AND t.purpose = $2 AND t.expires_at > $3 AND ",
    follows_by_link!("users")
);
/// A link to follow, made as a notice is mailed to a visitor.
const INSERT_FOLLOW_TOKEN: &str = "INSERT INTO account_tokens (token_hash, user_id, purpose, email, created_at, expires_at) \
     VALUES ($1, $2, $3, $4, $5, $6)";

/// Whose a visitor's report is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitorAccount {
    pub id: String,
    /// A visitor's account without a password: it follows its reports by a mailed link.
    /// `false` for an account of the address's holder, who logs in as ever.
    pub follows_by_link: bool,
}

impl Store {
    /// The account a visitor's report goes to: the enabled account their address belongs to
    /// (a visitor's keeps a new phone given), else a new one made for them — `visitor-` and ten letters or
    /// digits, their name, the address as staff typed it, no password.
    pub async fn visitor_account(&self, visitor: &Visitor, now: i64) -> Result<VisitorAccount, StoreError> {
        with_pool!(self, write, |pool| visitor_account(pool, visitor, now).await)
    }

    /// Queues the mail with the link that follows visitor `id`'s reports, to `address`.
    pub async fn mail_follow_link(&self, id: &str, address: &str, now: i64) -> Result<Committed<()>, StoreError> {
        with_pool!(self, write, |pool| {
            queue_account_mail(pool, Some(id), AccountMailKind::Follow, address, now).await
        })?;
        Ok(Committed::new((), vec![Event::AccountMailQueued]))
    }

    /// Keeps a link to follow visitor `user_id`'s reports (its token's hash), mailed to
    /// `address` with a notice, good until `expires_at`.
    pub async fn insert_follow_token(
        &self,
        token_hash: &str,
        user_id: &str,
        address: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        let args = [
            token_hash.into(),
            user_id.into(),
            LinkPurpose::Follow.as_str().into(),
            address.into(),
            now.into(),
            expires_at.into(),
        ];
        self.write(INSERT_FOLLOW_TOKEN, &args).await.map(drop)
    }

    /// The visitor a link to follow logs in, when it is good now.
    pub async fn follower(&self, token_hash: &str, now: i64) -> Result<Option<User>, StoreError> {
        let args = [token_hash.into(), LinkPurpose::Follow.as_str().into(), now.into()];
        let row: Option<UserRow> = self.read_row(FOLLOWER, &args).await?;
        Ok(row.map(User::from))
    }
}

/// [`Store::visitor_account`], on `tx`.
async fn visitor_account(tx: &mut impl Tx, visitor: &Visitor, now: i64) -> sqlx::Result<VisitorAccount> {
    let address = visitor.email.as_str();
    let phone = visitor.phone.as_deref();
    let owner: Option<(String, bool)> = tx.rows(OWNER_OF, &[address.into()]).await?.pop();
    if let Some((id, follows_by_link)) = owner {
        tx.run(NEW_PHONE, &[id.as_str().into(), phone.into()]).await?;
        return Ok(VisitorAccount { id, follows_by_link });
    }
    let id = insert_drawn(tx, "visitor", visitor.name.as_str(), Some(address), now).await?;
    tx.run(MARK_VISITOR, &[id.as_str().into(), phone.into()]).await?;
    Ok(VisitorAccount {
        id,
        follows_by_link: true,
    })
}
