//! Accounts as staff manage them: what an administrator sees of one, and the checked inputs
//! that create one, change one, or change one's own password.

use serde_json::{Map, Value};

use super::{
    DisplayName, Email, Fields, Lang, Password, User, UserId, ValidationError,
    access::{self, Action, Role},
    user::ascending,
};

/// An account with what only staff see: the email address, whether it is disabled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub user: User,
    pub email: Option<String>,
    pub disabled: bool,
    /// False for a sign-up whose address is not verified yet (it cannot log in).
    pub verified: bool,
    pub created_at: i64,
    /// Made for a visitor whose lost report staff took at the desk: no password, and it
    /// follows its reports by a mailed link.
    pub visitor: bool,
    /// The phone number a visitor gave the desk.
    pub phone: Option<String>,
}

/// `POST /api/users { id, name, password, isAdmin?, email? }`, or `lostfound user add`.
#[derive(Debug)]
pub struct NewAccount {
    id: UserId,
    name: DisplayName,
    password: Password,
    role: Role,
    email: Option<Email>,
}

impl NewAccount {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let required = |key: &'static str| {
            f.string(key)?
                .ok_or_else(|| ValidationError::new(key, "Required fields missing"))
        };
        Self::new(
            required("id")?,
            required("name")?,
            required("password")?,
            Role::from_admin_flag(f.boolean("isAdmin")?.unwrap_or(false)),
            f.string("email")?,
        )
    }

    /// An account from its parts, each checked (the command line's `user add`).
    pub fn new(id: &str, name: &str, password: &str, role: Role, email: Option<&str>) -> Result<Self, ValidationError> {
        Ok(Self {
            id: UserId::parse(id)?,
            name: DisplayName::parse(name)?,
            password: Password::parse(password)?,
            role,
            email: email.map(Email::parse).transpose()?,
        })
    }

    pub fn id(&self) -> &UserId {
        &self.id
    }

    pub fn name(&self) -> &DisplayName {
        &self.name
    }

    pub fn password(&self) -> &Password {
        &self.password
    }

    pub fn role(&self) -> Role {
        self.role
    }

    pub fn email(&self) -> Option<&Email> {
        self.email.as_ref()
    }
}

/// One row of an accounts file (`lostfound user import`): `id,name,email,role`, the address
/// optional, the role `user` (the default) or `admin`.
#[derive(Debug, PartialEq, Eq)]
pub struct ImportedAccount {
    id: UserId,
    name: DisplayName,
    email: Option<Email>,
    role: Role,
}

impl ImportedAccount {
    pub fn parse(fields: &[&str]) -> Result<Self, ValidationError> {
        let field = |n: usize| fields.get(n).map(|f| f.trim()).filter(|f| !f.is_empty());
        let required =
            |n: usize, key: &'static str| field(n).ok_or_else(|| ValidationError::new(key, format!("{key} missing")));
        let role = match field(3).map(str::to_ascii_lowercase).as_deref() {
            None | Some("user") => Role::Member,
            Some("admin") => Role::Administrator,
            Some(_) => return Err(ValidationError::new("role", "role must be user or admin")),
        };
        Ok(Self {
            id: UserId::parse(required(0, "id")?)?,
            name: DisplayName::parse(required(1, "name")?)?,
            email: field(2).map(Email::parse).transpose()?,
            role,
        })
    }

    pub fn id(&self) -> &UserId {
        &self.id
    }

    pub fn name(&self) -> &DisplayName {
        &self.name
    }

    pub fn email(&self) -> Option<&Email> {
        self.email.as_ref()
    }

    pub fn role(&self) -> Role {
        self.role
    }
}

/// Sites one account may work at: more is a mistake, not an office.
const MAX_STAFF_SITES: usize = 100;

/// `PATCH /api/users/:uid { name?, isAdmin?, email?, disabled?, sites? }`: at least one.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct AccountPatch {
    name: Option<DisplayName>,
    role: Option<Role>,
    /// `Some(None)` removes the address.
    email: Option<Option<Email>>,
    disabled: Option<bool>,
    /// The sites the account works at from now on, ascending (`[]`: none, not staff).
    sites: Option<Vec<i64>>,
}

/// `sites`: an array of site ids (each a positive integer).
fn site_ids(value: &Value) -> Result<Vec<i64>, ValidationError> {
    let invalid = || ValidationError::new("sites", "sites must be a list of site ids");
    let ids = value
        .as_array()
        .filter(|ids| ids.len() <= MAX_STAFF_SITES)
        .ok_or_else(invalid)?;
    let ids = ids
        .iter()
        .map(|id| id.as_i64().filter(|id| *id > 0).ok_or_else(invalid))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ascending(ids))
}

impl AccountPatch {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let patch = Self {
            name: f.string("name")?.map(DisplayName::parse).transpose()?,
            role: f.boolean("isAdmin")?.map(Role::from_admin_flag),
            email: body.get("email").map(email_or_none).transpose()?,
            disabled: f.boolean("disabled")?,
            sites: body.get("sites").map(site_ids).transpose()?,
        };
        if patch == Self::default() {
            return Err(ValidationError::new("body", "No fields to update"));
        }
        Ok(patch)
    }

    pub fn name(&self) -> Option<&DisplayName> {
        self.name.as_ref()
    }

    pub fn role(&self) -> Option<Role> {
        self.role
    }

    /// `None`: unchanged; `Some(None)`: removed.
    pub fn email(&self) -> Option<Option<&Email>> {
        self.email.as_ref().map(Option::as_ref)
    }

    pub fn disabled(&self) -> Option<bool> {
        self.disabled
    }

    pub fn sites(&self) -> Option<&[i64]> {
        self.sites.as_deref()
    }

    /// Only the sites the account works at (`lostfound user sites`).
    pub fn sites_only(sites: Vec<i64>) -> Self {
        Self {
            sites: Some(ascending(sites)),
            ..Self::default()
        }
    }

    /// Whether the change takes the management of accounts away from the account (so an
    /// administrator cannot do it to their own, and lock everyone out).
    pub fn demotes_or_disables(&self) -> bool {
        self.role
            .is_some_and(|role| !access::role_may(role, Action::ManageAccounts))
            || self.disabled == Some(true)
    }
}

/// `PATCH /api/me { email }`: the user's own address, `null` to remove it.
#[derive(Debug, PartialEq, Eq)]
pub struct EmailChange(Option<Email>);

impl EmailChange {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let email = body.get("email").ok_or_else(invalid_email)?;
        email_or_none(email).map(Self)
    }

    /// The new address; `None` removes it.
    pub fn email(&self) -> Option<&Email> {
        self.0.as_ref()
    }
}

/// `PATCH /api/me`: a new address (see [`EmailChange`]), the language to be written to in
/// (`en`, `ko`, `es`), or both. Neither is an invalid address, as before languages.
#[derive(Debug)]
pub struct ProfileChange {
    email: Option<EmailChange>,
    lang: Option<Lang>,
}

impl ProfileChange {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let lang = match body.get("lang") {
            None => None,
            Some(_) => Some(
                Fields(body)
                    .parsed::<Lang>("lang")?
                    .ok_or_else(|| ValidationError::new("lang", "Invalid lang"))?,
            ),
        };
        let email = (body.contains_key("email") || lang.is_none())
            .then(|| EmailChange::parse(body))
            .transpose()?;
        Ok(Self { email, lang })
    }

    pub fn email(&self) -> Option<&EmailChange> {
        self.email.as_ref()
    }

    pub fn lang(&self) -> Option<Lang> {
        self.lang
    }
}

/// An address, or `null` for none; anything else is not an address.
fn email_or_none(value: &Value) -> Result<Option<Email>, ValidationError> {
    match value {
        Value::Null => Ok(None),
        Value::String(email) => Email::parse(email).map(Some),
        _ => Err(invalid_email()),
    }
}

fn invalid_email() -> ValidationError {
    ValidationError::new("email", "Invalid email")
}

/// `POST /api/users/:uid/password { password }`: a new password set by staff.
#[derive(Debug)]
pub struct PasswordReset(Password);

impl PasswordReset {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let password = Fields(body)
            .string("password")?
            .ok_or_else(|| ValidationError::new("password", "Required fields missing"))?;
        Password::parse(password).map(Self)
    }

    pub fn password(&self) -> &Password {
        &self.0
    }
}

/// `POST /api/me/password { current, password }`.
pub struct PasswordChange {
    current: String,
    new: Password,
}

/// `current`: the password a signed-in user gives again to confirm a change of theirs.
pub fn current_password(body: &Map<String, Value>) -> Result<&str, ValidationError> {
    Fields(body)
        .string("current")?
        .filter(|current| !current.is_empty())
        .ok_or_else(|| ValidationError::new("current", "Current password required"))
}

impl PasswordChange {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let current = current_password(body)?;
        let new = Fields(body)
            .string("password")?
            .ok_or_else(|| ValidationError::new("password", "Required fields missing"))?;
        Ok(Self {
            current: current.to_owned(),
            new: Password::parse(new)?,
        })
    }

    /// The password the user says is theirs now, to be verified.
    pub fn current(&self) -> &str {
        &self.current
    }

    pub fn new_password(&self) -> &Password {
        &self.new
    }
}

/// The longest search of the accounts, in characters.
const MAX_ACCOUNT_SEARCH: usize = 100;

/// Which accounts `GET /api/users` lists, in which order, a page at a time.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AccountQuery {
    /// Lowercase text the id, the name or the email address contains (`q`).
    pub text: Option<String>,
    pub role: Option<Role>,
    /// Only those who work at this site.
    pub site: Option<i64>,
    pub sort: AccountSort,
    /// At most this many (`limit`, 1–200); `None`: every one, as before paging.
    pub limit: Option<u32>,
    /// Skipping this many first (`offset`).
    pub offset: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AccountSort {
    /// By id, A to Z.
    #[default]
    Id,
    /// By name, A to Z.
    Name,
    /// The newest first.
    Newest,
    /// The oldest first.
    Oldest,
}

impl AccountSort {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Id => "id",
            Self::Name => "name",
            Self::Newest => "newest",
            Self::Oldest => "oldest",
        }
    }
}

impl AccountQuery {
    /// Checks `q`, `role`, `site`, `sort`, `limit` and `offset`, given by name; an empty value
    /// counts as none.
    pub fn parse<'a>(param: impl Fn(&str) -> Option<&'a str>) -> Result<Self, ValidationError> {
        let given = |name: &str| param(name).filter(|v| !v.is_empty());
        let text = match given("q") {
            Some(q) if q.chars().count() > MAX_ACCOUNT_SEARCH => return Err(ValidationError::new("q", "Invalid q")),
            q => q.map(|q| q.trim().to_lowercase()).filter(|q| !q.is_empty()),
        };
        let role = given("role")
            .map(|role| match role {
                "member" => Ok(Role::Member),
                "staff" => Ok(Role::Staff),
                "administrator" => Ok(Role::Administrator),
                _ => Err(ValidationError::new("role", "Invalid role")),
            })
            .transpose()?;
        let sort = match given("sort") {
            None | Some("id") => AccountSort::Id,
            Some("name") => AccountSort::Name,
            Some("newest") => AccountSort::Newest,
            Some("oldest") => AccountSort::Oldest,
            Some(_) => return Err(ValidationError::new("sort", "Invalid sort")),
        };
        let offset = given("offset")
            .map(|raw| {
                raw.parse::<u32>()
                    .map_err(|_| ValidationError::new("offset", "Invalid offset"))
            })
            .transpose()?
            .unwrap_or(0);
        Ok(Self {
            text,
            role,
            site: super::query_record_id(given("site"), "site", "Invalid site")?,
            sort,
            limit: given("limit").map(super::parse_limit).transpose()?,
            offset,
        })
    }

    /// The search as a `LIKE` pattern: its text anywhere, `%`, `_` and `\` taken literally.
    pub fn like_pattern(&self) -> Option<String> {
        self.text.as_ref().map(|text| {
            let mut pattern = String::from("%");
            for c in text.chars() {
                if matches!(c, '%' | '_' | '\\') {
                    pattern.push('\\');
                }
                pattern.push(c);
            }
            pattern.push('%');
            pattern
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn an_account_query_reads_its_parameters_and_names_a_bad_one() {
        let query = |pairs: &[(&str, &str)]| {
            let pairs = pairs.to_vec();
            AccountQuery::parse(move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| *v))
        };
        let q = query(&[
            ("q", " Kim_50% "),
            ("role", "staff"),
            ("site", "2"),
            ("sort", "newest"),
            ("limit", "20"),
            ("offset", "40"),
        ])
        .unwrap();
        assert_eq!(
            (q.role, q.site, q.sort, q.limit, q.offset),
            (Some(Role::Staff), Some(2), AccountSort::Newest, Some(20), 40)
        );
        assert_eq!(q.like_pattern().as_deref(), Some(r"%kim\_50\%%"));
        assert_eq!(query(&[("q", ""), ("role", "")]).unwrap(), AccountQuery::default());
        for (bad, field) in [
            (("role", "boss"), "role"),
            (("sort", "age"), "sort"),
            (("limit", "0"), "limit"),
            (("limit", "201"), "limit"),
            (("offset", "-1"), "offset"),
            (("site", "x"), "site"),
        ] {
            assert_eq!(query(&[bad]).unwrap_err().field, Some(field), "{bad:?}");
        }
        assert_eq!(query(&[("q", &"x".repeat(101))]).unwrap_err().message, "Invalid q");
    }

    #[test]
    fn a_patch_changes_something() {
        assert_eq!(
            AccountPatch::parse(&object(json!({}))).unwrap_err().message,
            "No fields to update"
        );
        let patch = AccountPatch::parse(&object(json!({ "email": null, "disabled": true }))).unwrap();
        assert_eq!((patch.email(), patch.disabled()), (Some(None), Some(true)));
        assert!(AccountPatch::parse(&object(json!({ "isAdmin": "yes" }))).is_err());
        for bad in [
            json!(3),
            json!([0]),
            json!(["2"]),
            json!([1.5]),
            json!((0..101).collect::<Vec<_>>()),
        ] {
            let err = AccountPatch::parse(&object(json!({ "sites": bad }))).unwrap_err();
            assert_eq!(
                (err.field, err.message.as_ref()),
                (Some("sites"), "sites must be a list of site ids")
            );
        }
        let patch = AccountPatch::parse(&object(json!({ "sites": [5, 2, 5] }))).unwrap();
        assert_eq!(patch.sites(), Some(&[2, 5][..]));
        assert_eq!(
            AccountPatch::parse(&object(json!({ "sites": [] }))).unwrap().sites(),
            Some(&[][..])
        );
        assert!(
            AccountPatch::parse(&object(json!({ "isAdmin": false })))
                .unwrap()
                .demotes_or_disables()
        );
        assert!(
            !AccountPatch::parse(&object(json!({ "name": "Ann" })))
                .unwrap()
                .demotes_or_disables()
        );
    }

    #[test]
    fn imported_rows() {
        let row = ImportedAccount::parse(&["ann", " Ann Example ", "ann@uni.example", "Admin"]).unwrap();
        assert_eq!(
            (row.id().as_str(), row.name().as_str(), row.role()),
            ("ann", "Ann Example", Role::Administrator)
        );
        let bare = ImportedAccount::parse(&["bob", "Bob"]).unwrap();
        assert_eq!((bare.email(), bare.role()), (None, Role::Member));
        for (bad, text) in [
            (&["", "Ann"][..], "id missing"),
            (&["ann"], "name missing"),
            (&["ann", "Ann", "nope"], "Invalid email"),
            (&["ann", "Ann", "", "boss"], "role must be user or admin"),
        ] {
            assert_eq!(ImportedAccount::parse(bad).unwrap_err().message, text, "{bad:?}");
        }
    }

    #[test]
    fn email_changes() {
        let set = EmailChange::parse(&object(json!({ "email": " ann@uni.example " }))).unwrap();
        assert_eq!(set.email().map(Email::as_str), Some("ann@uni.example"));
        assert_eq!(
            EmailChange::parse(&object(json!({ "email": null }))).unwrap().email(),
            None
        );
        for bad in [json!({}), json!({ "email": 5 }), json!({ "email": "nope" })] {
            assert_eq!(EmailChange::parse(&object(bad)).unwrap_err().message, "Invalid email");
        }
    }

    #[test]
    fn password_resets() {
        assert!(PasswordReset::parse(&object(json!({ "password": "long enough" }))).is_ok());
        assert_eq!(
            PasswordReset::parse(&object(json!({}))).unwrap_err().message,
            "Required fields missing"
        );
        assert!(PasswordReset::parse(&object(json!({ "password": "short" }))).is_err());
    }

    #[test]
    fn new_accounts_need_an_id_a_name_and_a_password() {
        let ok = NewAccount::parse(&object(
            json!({ "id": "ann", "name": "Ann", "password": "long enough" }),
        ))
        .unwrap();
        assert_eq!((ok.role(), ok.email()), (Role::Member, None));
        for bad in [
            json!({ "name": "Ann", "password": "long enough" }),
            json!({ "id": "a b", "name": "Ann", "password": "long enough" }),
            json!({ "id": "ann", "name": "Ann", "password": "short" }),
            json!({ "id": "ann", "name": "Ann", "password": "long enough", "email": "nope" }),
        ] {
            assert!(NewAccount::parse(&object(bad.clone())).is_err(), "{bad}");
        }
    }
}
