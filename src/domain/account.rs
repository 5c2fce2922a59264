//! Accounts as staff manage them: what an administrator sees of one, and the checked inputs
//! that create one, change one, or change one's own password.

use serde_json::{Map, Value};

use super::{DisplayName, Email, Fields, Password, User, UserId, ValidationError};

/// An account with what only staff see: the email address, whether it is disabled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub user: User,
    pub email: Option<String>,
    pub disabled: bool,
    pub created_at: i64,
}

/// `POST /api/users { id, name, password, isAdmin?, email? }`.
#[derive(Debug)]
pub struct NewAccount {
    pub id: UserId,
    pub name: DisplayName,
    pub password: Password,
    pub is_admin: bool,
    pub email: Option<Email>,
}

impl NewAccount {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let required = |key: &'static str| {
            f.string(key)?
                .ok_or_else(|| ValidationError::new(key, "Required fields missing"))
        };
        Ok(Self {
            id: UserId::parse(required("id")?)?,
            name: DisplayName::parse(required("name")?)?,
            password: Password::parse(required("password")?)?,
            is_admin: f.boolean("isAdmin")?.unwrap_or(false),
            email: f.string("email")?.map(Email::parse).transpose()?,
        })
    }
}

/// `PATCH /api/users/:uid { name?, isAdmin?, email?, disabled? }`: at least one.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct AccountPatch {
    pub name: Option<DisplayName>,
    pub is_admin: Option<bool>,
    /// `Some(None)` removes the address.
    pub email: Option<Option<Email>>,
    pub disabled: Option<bool>,
}

impl AccountPatch {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let patch = Self {
            name: f.string("name")?.map(DisplayName::parse).transpose()?,
            is_admin: f.boolean("isAdmin")?,
            email: match body.get("email") {
                None => None,
                Some(Value::Null) => Some(None),
                Some(Value::String(email)) => Some(Some(Email::parse(email)?)),
                Some(_) => return Err(ValidationError::new("email", "Invalid email")),
            },
            disabled: f.boolean("disabled")?,
        };
        if patch == Self::default() {
            return Err(ValidationError::new("body", "No fields to update"));
        }
        Ok(patch)
    }

    /// Whether the change takes administration away from the account (so an administrator
    /// cannot do it to their own, and lock everyone out).
    pub fn demotes_or_disables(&self) -> bool {
        self.is_admin == Some(false) || self.disabled == Some(true)
    }
}

/// `POST /api/me/password { current, password }`.
pub struct PasswordChange {
    pub current: String,
    pub new: Password,
}

impl PasswordChange {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let current = f
            .string("current")?
            .filter(|current| !current.is_empty())
            .ok_or_else(|| ValidationError::new("current", "Current password required"))?;
        let new = f
            .string("password")?
            .ok_or_else(|| ValidationError::new("password", "Required fields missing"))?;
        Ok(Self {
            current: current.to_owned(),
            new: Password::parse(new)?,
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
    fn a_patch_changes_something() {
        assert_eq!(
            AccountPatch::parse(&object(json!({}))).unwrap_err().message,
            "No fields to update"
        );
        let patch = AccountPatch::parse(&object(json!({ "email": null, "disabled": true }))).unwrap();
        assert_eq!((patch.email, patch.disabled), (Some(None), Some(true)));
        assert!(AccountPatch::parse(&object(json!({ "isAdmin": "yes" }))).is_err());
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
    fn new_accounts_need_an_id_a_name_and_a_password() {
        let ok = NewAccount::parse(&object(
            json!({ "id": "ann", "name": "Ann", "password": "long enough" }),
        ))
        .unwrap();
        assert!(!ok.is_admin && ok.email.is_none());
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
