//! Accounts. Ids are case-insensitive: every lookup folds them (`lower(id)`, ids are ASCII),
//! and what is stored and shown is the spelling the account was made with.

use rand::distr::{Alphanumeric, SampleString};

use super::{
    Store, StoreError,
    account_mail::end_reset_links,
    statement::{Arg, Tx},
    with_pool,
};
use crate::{
    domain::{Account, AccountPatch, AccountQuery, Email, Lang, NewAccount, User, access::Role},
    time::now_ms,
};

/// A `users` row without the password hash: select it with [`user_columns`].
#[derive(sqlx::FromRow)]
pub(super) struct UserRow {
    id: String,
    name: String,
    is_admin: bool,
    /// The sites the account works at, as `2,5`.
    staff_at: Option<String>,
}

/// The columns of [`user_columns`], first in their order, as rusqlite reads them.
impl TryFrom<&rusqlite::Row<'_>> for UserRow {
    type Error = rusqlite::Error;

    fn try_from(row: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(Self {
            id: row.get(0)?,
            name: row.get(1)?,
            is_admin: row.get(2)?,
            staff_at: row.get(3)?,
        })
    }
}

impl From<UserRow> for User {
    fn from(row: UserRow) -> Self {
        let sites = row
            .staff_at
            .iter()
            .flat_map(|sites| sites.split(','))
            .filter_map(|site| site.parse().ok())
            .collect();
        Self::new(row.id, row.name, row.is_admin, sites)
    }
}

/// A [`UserRow`]'s columns of the `users` table named `$users` in the query.
macro_rules! user_columns {
    ($users:literal) => {
        concat!(
            $users,
            ".id, ",
            $users,
            ".name, ",
            $users,
            ".is_admin, \
             (SELECT string_agg(CAST(site_id AS TEXT), ',') FROM site_staff WHERE site_staff.user_id = ",
            $users,
            ".id) AS staff_at"
        )
    };
}
pub(super) use user_columns;

/// What a login checks: the account, its Argon2id hash (not a valid one for an account
/// without a password: sign-on only, or imported and not set yet), and whether it may log in.
#[derive(Debug)]
pub struct LoginRecord {
    pub user: User,
    pub password_hash: String,
    pub disabled: bool,
    /// A sign-up whose address is not verified yet cannot log in.
    pub verified: bool,
}

#[derive(sqlx::FromRow)]
struct LoginRow {
    #[sqlx(flatten)]
    user: UserRow,
    password_hash: String,
    disabled: bool,
    verified: bool,
}

impl From<LoginRow> for LoginRecord {
    fn from(row: LoginRow) -> Self {
        Self {
            user: row.user.into(),
            password_hash: row.password_hash,
            disabled: row.disabled,
            verified: row.verified,
        }
    }
}

/// A `users` row as staff see it.
#[derive(sqlx::FromRow)]
pub(super) struct AccountRow {
    #[sqlx(flatten)]
    user: UserRow,
    email: Option<String>,
    disabled: bool,
    verified: bool,
    created_at: i64,
    visitor: bool,
    phone: Option<String>,
}

impl From<AccountRow> for Account {
    fn from(row: AccountRow) -> Self {
        Self {
            user: row.user.into(),
            email: row.email,
            disabled: row.disabled,
            verified: row.verified,
            created_at: row.created_at,
            visitor: row.visitor,
            phone: row.phone,
        }
    }
}

macro_rules! account_columns {
    () => {
        concat!(
            user_columns!("users"),
            ", email, disabled, verified, created_at, visitor, phone"
        )
    };
}

/// The accounts whose id, name or email address contains `$1` (a `LIKE` pattern, lowercase),
/// of role `$2` and working at site `$3`, each condition switched off by its NULL.
macro_rules! accounts_matching {
    () => {
        " FROM users WHERE ($1 IS NULL OR lower(id) LIKE $1 ESCAPE '\\' OR lower(name) LIKE $1 ESCAPE '\\' \
           OR lower(COALESCE(email, '')) LIKE $1 ESCAPE '\\') \
         AND ($2 IS NULL OR ($2 = 'administrator' AND is_admin) \
           OR ($2 <> 'administrator' AND NOT is_admin \
             AND ($2 = 'staff') = EXISTS (SELECT 1 FROM site_staff s WHERE s.user_id = users.id))) \
         AND ($3 IS NULL OR EXISTS (SELECT 1 FROM site_staff s WHERE s.user_id = users.id AND s.site_id = $3))"
    };
}
const COUNT_MATCHING: &str = concat!("SELECT COUNT(*)", accounts_matching!());
/// A page of them, in order `$4` (`id`, `name`, `newest`, `oldest`; the id breaks ties):
/// `$5` from the `$6`th.
const MATCHING: &str = concat!(
    "SELECT ",
    account_columns!(),
    accounts_matching!(),
    " ORDER BY CASE WHEN $4 = 'name' THEN lower(name) END, CASE WHEN $4 = 'newest' THEN created_at END DESC, \
     CASE WHEN $4 = 'oldest' THEN created_at END, lower(id) LIMIT $5 OFFSET $6"
);
/// Changes what the patch names; `$4` says whether `email` is among them. An erased account
/// (what the office keeps of one) is no account to change.
const UPDATE_ACCOUNT: &str = concat!(
    "UPDATE users SET name = COALESCE($2, name), is_admin = COALESCE($3, is_admin), \
     email = CASE WHEN $4 THEN $5 ELSE email END, disabled = COALESCE($6, disabled) \
     WHERE lower(id) = lower($1) AND erased_at IS NULL RETURNING ",
    account_columns!()
);
/// Inserts nothing when an id that differs only in case is taken (the unique index on
/// `lower(id)` backs this up once the server has started: see [`Store::fold_ids`]), or
/// retired: a removed account's reports stay filed under its id.
const INSERT_USER: &str = concat!(
    "INSERT INTO users (id, name, is_admin, email, password_hash, created_at, verified, pending_email, oidc_subject) \
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 \
     WHERE NOT EXISTS (SELECT 1 FROM users WHERE lower(id) = lower($1)) \
       AND NOT EXISTS (SELECT 1 FROM retired_ids WHERE id_key = lower($1)) RETURNING ",
    account_columns!()
);
/// Retires id `$1`: no account may take it again.
pub(super) const RETIRE_ID: &str =
    "INSERT INTO retired_ids (id_key, retired_at) VALUES (lower($1), $2) ON CONFLICT DO NOTHING";
/// Retires the ids that reports are filed under but no account has (an import's); how many.
const RETIRE_ORPHAN_IDS: &str = "INSERT INTO retired_ids (id_key, retired_at) \
     SELECT DISTINCT lower(created_by), $1 FROM items \
     WHERE NOT EXISTS (SELECT 1 FROM users WHERE lower(users.id) = lower(items.created_by)) \
     ON CONFLICT DO NOTHING";
/// What an account without a password has for one: no Argon2id hash matches it.
pub const NO_PASSWORD: &str = "!";
/// An account linked to single sign-on has no password here (`$2`, [`NO_PASSWORD`]), whatever
/// was stored before it was linked: it signs in at the provider only, which decides its role
/// at each sign-in.
const LOGIN_RECORD: &str = concat!(
    "SELECT ",
    user_columns!("users"),
    ", CASE WHEN oidc_subject IS NULL THEN password_hash ELSE $2 END AS password_hash, disabled, verified \
     FROM users WHERE lower(id) = lower($1)"
);
const SELECT_STORED_USER: &str = concat!("SELECT ", user_columns!("users"), " FROM users WHERE id = $1");
const SELECT_ACCOUNT: &str = concat!("SELECT ", account_columns!(), " FROM users WHERE lower(id) = lower($1)");
const SITE_EXISTS: &str = "SELECT EXISTS (SELECT 1 FROM sites WHERE id = $1)";
const ADD_STAFF: &str = "INSERT INTO site_staff (user_id, site_id) VALUES ($1, $2)";
/// Ids that differ only in case, each pair once.
const CASE_TWINS: &str = "SELECT a.id, b.id FROM users a JOIN users b ON lower(a.id) = lower(b.id) AND a.id < b.id \
     ORDER BY a.id, b.id";
const FOLD_IDS: &str = "CREATE UNIQUE INDEX IF NOT EXISTS users_by_folded_id ON users (lower(id))";

/// Locks the rows of the active administrators (an update that changes nothing) and names
/// them: on PostgreSQL a concurrent change of any of them waits, then reads this one's outcome.
const LOCK_ADMINS: &str = "UPDATE users SET is_admin = is_admin WHERE is_admin AND NOT disabled RETURNING id";

/// What became of a new password.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordSet {
    Done,
    NoSuchUser,
    /// The account is linked to single sign-on, and has no password.
    SingleSignOn,
}

/// What became of a change to an account that could take an administrator away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountChange<T> {
    Done(T),
    NotFound,
    /// Refused: it would leave no active administrator.
    LastAdmin,
    /// Refused: a site it names does not exist.
    UnknownSite,
}

/// Whether `id` is the only active administrator, read with the administrators' rows locked
/// until the transaction ends: two administrators demoting each other at once cannot both
/// succeed.
pub(super) async fn is_last_admin(tx: &mut impl Tx, id: &str) -> sqlx::Result<bool> {
    let admins: Vec<(String,)> = tx.rows(LOCK_ADMINS, &[]).await?;
    Ok(matches!(admins.as_slice(), [(only,)] if only.eq_ignore_ascii_case(id)))
}

const RECORD_ENDED_OF_USER: &str =
    "INSERT INTO ended_sessions (token_hash, ended_at) SELECT token_hash, $2 FROM sessions WHERE user_id = $1";

/// Ends every session of user `user_id` (its stored spelling) on `tx`, recording each as
/// ended for the nodes' sockets.
pub(super) async fn end_sessions_of(tx: &mut impl Tx, user_id: &str, now: i64) -> sqlx::Result<()> {
    tx.run(RECORD_ENDED_OF_USER, &[user_id.into(), now.into()]).await?;
    tx.run("DELETE FROM sessions WHERE user_id = $1", &[user_id.into()])
        .await?;
    Ok(())
}

/// What a new account holds, checked by whoever makes one (staff, a sign-up, single sign-on,
/// an import).
pub(super) struct NewUserRow<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub is_admin: bool,
    pub email: Option<&'a str>,
    pub password_hash: &'a str,
    pub verified: bool,
    pub pending_email: Option<&'a str>,
    pub oidc_subject: Option<&'a str>,
}

impl NewUserRow<'_> {
    /// Inserts the account on `tx`; `None` when its id is taken (in any case).
    pub(super) async fn insert(&self, tx: &mut impl Tx, now: i64) -> sqlx::Result<Option<AccountRow>> {
        let args: [Arg<'_>; 9] = [
            self.id.into(),
            self.name.into(),
            self.is_admin.into(),
            self.email.into(),
            self.password_hash.into(),
            now.into(),
            self.verified.into(),
            self.pending_email.into(),
            self.oidc_subject.into(),
        ];
        Ok(tx.rows(INSERT_USER, &args).await?.pop())
    }
}

/// Makes an account without a password, named `name`, with `email`, whose id is `prefix-`
/// and ten letters drawn at random; its id.
pub(super) async fn insert_drawn(
    tx: &mut impl Tx,
    prefix: &str,
    name: &str,
    email: Option<&str>,
    now: i64,
) -> sqlx::Result<String> {
    loop {
        let id = format!(
            "{prefix}-{}",
            Alphanumeric.sample_string(&mut rand::rng(), 10).to_lowercase()
        );
        let row = NewUserRow {
            id: &id,
            name,
            is_admin: false,
            email,
            password_hash: NO_PASSWORD,
            verified: true,
            pending_email: None,
            oidc_subject: None,
        };
        // An id taken already (one in many billions) draws another.
        if row.insert(tx, now).await?.is_some() {
            return Ok(id);
        }
    }
}

impl Store {
    /// Refuses ids that differ only in case (they would be one account now), naming them;
    /// then makes `lower(id)` unique, so that two accounts made at once never share one.
    pub async fn fold_ids(&self) -> anyhow::Result<()> {
        let twins: Vec<(String, String)> = self.read_rows(CASE_TWINS, &[]).await?;
        if !twins.is_empty() {
            let named: Vec<String> = twins.iter().map(|(a, b)| format!("{a} and {b}")).collect();
            anyhow::bail!(
                "user ids are case-insensitive now, and {} has accounts whose ids differ only in case: {}. \
                 Remove one of each pair (lostfound user remove ID) before starting the server",
                self.name(),
                named.join(", ")
            );
        }
        self.write(FOLD_IDS, &[]).await?;
        Ok(())
    }

    /// Creates the account, its address included; `None` when the id is taken, in any case.
    pub async fn insert_user(
        &self,
        account: &NewAccount,
        password_hash: &str,
        now: i64,
    ) -> Result<Option<Account>, StoreError> {
        let row = NewUserRow {
            id: account.id().as_str(),
            name: account.name().as_str(),
            is_admin: account.role().admin_flag(),
            email: account.email().map(Email::as_str),
            password_hash,
            // Staff vouch for the addresses they enter.
            verified: true,
            pending_email: None,
            oidc_subject: None,
        };
        let inserted = with_pool!(self, write, |pool| row.insert(pool, now).await)?;
        Ok(inserted.map(Account::from))
    }

    /// Every account, by id, as staff see them.
    pub async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let rows: Vec<AccountRow> = self
            .read_rows(concat!("SELECT ", account_columns!(), " FROM users ORDER BY id"), &[])
            .await?;
        Ok(rows.into_iter().map(Account::from).collect())
    }

    /// The accounts `query` asks for, in its order and page, and how many match in all.
    pub async fn accounts_matching(&self, query: &AccountQuery) -> Result<(Vec<Account>, i64), StoreError> {
        let pattern = query.like_pattern();
        let role = query.role.map(Role::name);
        let filter = [pattern.as_deref().into(), role.into(), query.site.into()];
        let (total,): (i64,) = self.read_one(COUNT_MATCHING, &filter).await?;
        let limit = query.limit.map_or(i64::MAX, i64::from);
        let page = [
            pattern.as_deref().into(),
            role.into(),
            query.site.into(),
            query.sort.as_str().into(),
            limit.into(),
            i64::from(query.offset).into(),
        ];
        let rows: Vec<AccountRow> = self.read_rows(MATCHING, &page).await?;
        Ok((rows.into_iter().map(Account::from).collect(), total))
    }

    pub async fn account(&self, id: &str) -> Result<Option<Account>, StoreError> {
        let row: Option<AccountRow> = self.read_row(SELECT_ACCOUNT, &[id.into()]).await?;
        Ok(row.map(Account::from))
    }

    /// Applies `patch` to account `id`; disabling it ends its sessions in the same
    /// transaction. Refused when it would leave no active administrator.
    pub async fn update_account(&self, id: &str, patch: &AccountPatch) -> Result<AccountChange<Account>, StoreError> {
        let email = patch.email().map(|email| email.map(Email::as_str));
        with_pool!(self, write, |pool| {
            for site in patch.sites().unwrap_or_default() {
                let (known,): (bool,) = pool.row(SITE_EXISTS, &[(*site).into()]).await?;
                if !known {
                    return Ok(AccountChange::UnknownSite);
                }
            }
            if patch.demotes_or_disables() && is_last_admin(pool, id).await? {
                return Ok(AccountChange::LastAdmin);
            }
            let row: Option<AccountRow> = sqlx::query_as(UPDATE_ACCOUNT)
                .bind(id)
                .bind(patch.name().map(|name| name.as_str()))
                .bind(patch.role().map(Role::admin_flag))
                .bind(email.is_some())
                .bind(email.flatten())
                .bind(patch.disabled())
                .fetch_optional(&mut *pool)
                .await?;
            if let Some(row) = &row
                && patch.disabled() == Some(true)
            {
                end_sessions_of(pool, &row.user.id, now_ms()).await?;
            }
            // Links to set a password went to the old address.
            if let Some(row) = &row
                && email.is_some()
            {
                end_reset_links(pool, &row.user.id, now_ms()).await?;
            }
            let Some(mut row) = row else {
                return Ok(AccountChange::NotFound);
            };
            if let Some(sites) = patch.sites() {
                let user = row.user.id.as_str();
                pool.run("DELETE FROM site_staff WHERE user_id = $1", &[user.into()])
                    .await?;
                for site in sites {
                    pool.run(ADD_STAFF, &[user.into(), (*site).into()]).await?;
                }
                row = pool.row(SELECT_ACCOUNT, &[user.into()]).await?;
            }
            Ok(AccountChange::Done(row.into()))
        })
    }

    pub async fn user(&self, id: &str) -> Result<Option<User>, StoreError> {
        Ok(self.login_record(id).await?.map(|record| record.user))
    }

    /// The account of an id written as stored (a session's, a socket's), as it is now: a
    /// point read by its key, which a signed-in socket makes at each event. (`user` takes an
    /// id in any case, as people type it, and reads every account to compare.)
    pub async fn stored_user(&self, id: &str) -> Result<Option<User>, StoreError> {
        let row: Option<UserRow> = self.point_row(SELECT_STORED_USER, &[id.into()]).await?;
        Ok(row.map(User::from))
    }

    /// Sets (or, with `None`, removes) the address an account is mailed at, as staff do,
    /// ending its links to set a password; false if no such account.
    pub async fn set_email(&self, id: &str, email: Option<&str>) -> Result<bool, StoreError> {
        with_pool!(self, write, |pool| {
            let stored: Option<(String,)> = pool
                .rows(
                    "UPDATE users SET email = $2 WHERE lower(id) = lower($1) RETURNING id",
                    &[id.into(), email.into()],
                )
                .await?
                .pop();
            if let Some((id,)) = &stored {
                end_reset_links(pool, id, now_ms()).await?;
            }
            Ok(stored.is_some())
        })
    }

    /// The language user `id` is written to in (emails).
    pub async fn set_lang(&self, id: &str, lang: Lang) -> Result<(), StoreError> {
        let args = [id.into(), lang.as_str().into()];
        self.write("UPDATE users SET lang = $2 WHERE id = $1", &args).await?;
        Ok(())
    }

    /// The language user `id` chose, if any.
    pub async fn lang(&self, id: &str) -> Result<Option<Lang>, StoreError> {
        let row: Option<(Option<String>,)> = self
            .read_row("SELECT lang FROM users WHERE id = $1", &[id.into()])
            .await?;
        Ok(row.and_then(|(lang,)| lang?.parse().ok()))
    }

    /// What a login checks of account `id`, if there is one.
    pub async fn login_record(&self, id: &str) -> Result<Option<LoginRecord>, StoreError> {
        let row: Option<LoginRow> = self.read_row(LOGIN_RECORD, &[id.into(), NO_PASSWORD.into()]).await?;
        Ok(row.map(LoginRecord::from))
    }

    pub async fn list_users(&self) -> Result<Vec<User>, StoreError> {
        let rows: Vec<UserRow> = self
            .read_rows(
                concat!("SELECT ", user_columns!("users"), " FROM users ORDER BY id"),
                &[],
            )
            .await?;
        Ok(rows.into_iter().map(User::from).collect())
    }

    /// Sets a new password hash and ends every session of the user and every link to set a
    /// password. An account linked to single sign-on gets none: it signs in there only; an
    /// erased one is none.
    pub async fn set_password_hash(&self, id: &str, password_hash: &str) -> Result<PasswordSet, StoreError> {
        with_pool!(self, write, |pool| {
            let stored: Option<(String, bool)> = pool
                .rows(
                    "SELECT id, oidc_subject IS NOT NULL FROM users WHERE lower(id) = lower($1) AND erased_at IS NULL",
                    &[id.into()],
                )
                .await?
                .pop();
            let Some((id, linked)) = stored else {
                return Ok(PasswordSet::NoSuchUser);
            };
            if linked {
                return Ok(PasswordSet::SingleSignOn);
            }
            pool.run(
                "UPDATE users SET password_hash = $2 WHERE id = $1",
                &[id.as_str().into(), password_hash.into()],
            )
            .await?;
            end_sessions_of(pool, &id, now_ms()).await?;
            end_reset_links(pool, &id, now_ms()).await?;
            Ok(PasswordSet::Done)
        })
    }

    /// Retires every id that reports are filed under and no account has (see `items import`);
    /// how many were retired now.
    pub async fn retire_orphan_ids(&self) -> Result<u64, StoreError> {
        self.write(RETIRE_ORPHAN_IDS, &[now_ms().into()]).await
    }

    /// The names of the enabled administrators and staff.
    pub async fn staff_names(&self) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = self
            .read_rows(
                "SELECT name FROM users u WHERE NOT disabled \
                 AND (is_admin OR EXISTS (SELECT 1 FROM site_staff w WHERE w.user_id = u.id))",
                &[],
            )
            .await?;
        Ok(rows.into_iter().map(|(name,)| name).collect())
    }

    /// True when there are neither users nor items (the demo data fills only such a database).
    pub async fn is_empty(&self) -> Result<bool, StoreError> {
        let (empty,) = self
            .read_one(
                "SELECT NOT EXISTS (SELECT 1 FROM users) AND NOT EXISTS (SELECT 1 FROM items)",
                &[],
            )
            .await?;
        Ok(empty)
    }

    /// True when there is no account yet.
    pub async fn has_no_users(&self) -> Result<bool, StoreError> {
        let (none,) = self.read_one("SELECT NOT EXISTS (SELECT 1 FROM users)", &[]).await?;
        Ok(none)
    }
}
