//! Getting in without staff: a sign-up, the links mailed to verify an address or set a
//! password, and what the service mails about an account.

use serde_json::{Map, Value};

use super::{DisplayName, Email, Fields, Password, UserId, ValidationError};

/// The error text of a link that is not (or no longer) good.
pub const BAD_LINK: &str = "Invalid or expired link";
/// A link's token: 256 random bits in unpadded base64url.
const TOKEN_LEN: usize = 43;

/// `POST /api/signup { id, name, email, password }`.
#[derive(Debug)]
pub struct Signup {
    id: UserId,
    name: DisplayName,
    email: Email,
    password: Password,
}

impl Signup {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let required = |key: &'static str| {
            f.string(key)?
                .ok_or_else(|| ValidationError::new(key, "Required fields missing"))
        };
        Ok(Self {
            id: UserId::parse(required("id")?)?,
            name: DisplayName::parse(required("name")?)?,
            email: Email::parse(required("email")?)?,
            password: Password::parse(required("password")?)?,
        })
    }

    pub fn id(&self) -> &UserId {
        &self.id
    }

    pub fn name(&self) -> &DisplayName {
        &self.name
    }

    pub fn email(&self) -> &Email {
        &self.email
    }

    pub fn password(&self) -> &Password {
        &self.password
    }
}

/// The token of a mailed link (`{ token }` in a body): anything but a well-formed token is
/// a bad link, said the same way as an unknown one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkToken(String);

impl LinkToken {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        Fields(body)
            .string("token")
            .ok()
            .flatten()
            .filter(|token| {
                token.len() == TOKEN_LEN
                    && token
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
            .map(|token| Self(token.to_owned()))
            .ok_or_else(|| ValidationError::new("token", BAD_LINK))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `POST /api/password-reset { email }`.
#[derive(Debug)]
pub struct ResetRequest(Email);

impl ResetRequest {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let email = Fields(body)
            .string("email")?
            .ok_or_else(|| ValidationError::new("email", "Invalid email"))?;
        Email::parse(email).map(Self)
    }

    pub fn email(&self) -> &Email {
        &self.0
    }
}

/// `POST /api/password-reset/confirm { token, password }`.
#[derive(Debug)]
pub struct NewPasswordByLink {
    token: LinkToken,
    password: Password,
}

impl NewPasswordByLink {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let token = LinkToken::parse(body)?;
        let password = Fields(body)
            .string("password")?
            .ok_or_else(|| ValidationError::new("password", "Required fields missing"))?;
        Ok(Self {
            token,
            password: Password::parse(password)?,
        })
    }

    pub fn token(&self) -> &LinkToken {
        &self.token
    }

    pub fn password(&self) -> &Password {
        &self.password
    }
}

/// What a link mailed about an account lets its holder do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPurpose {
    /// Prove an address (a sign-up's, or a new one): `#/verify/TOKEN`.
    Verify,
    /// Set a password (forgotten, or first set for an imported account): `#/reset/TOKEN`.
    Reset,
    /// Follow a lost report staff took for a visitor without a password, logged in as them:
    /// `#/follow/TOKEN`. Good until it expires, as often as it is opened.
    Follow,
}

impl LinkPurpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Verify => "verify",
            Self::Reset => "reset",
            Self::Follow => "follow",
        }
    }

    /// How long a link stays good, in milliseconds: a reset for an hour, a verification for
    /// two days, a visitor's link to follow their report for 30 days.
    pub fn lifetime_ms(self) -> i64 {
        match self {
            Self::Verify => 48 * 3_600_000,
            Self::Reset => 3_600_000,
            Self::Follow => 30 * 24 * 3_600_000,
        }
    }
}

/// What the service mails about an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountMailKind {
    /// A link to verify the address.
    Verify,
    /// A link to set a new password.
    Reset,
    /// Someone asked to sign up with an address that has an account already.
    Registered,
    /// An account was made for the person (an import): a link to choose a password, good
    /// for a week.
    Welcome,
    /// Staff took a lost report at the desk for a visitor without a password: a link to
    /// follow it.
    Follow,
    /// Someone asked to reset the password for an address no account has. Recorded (it counts
    /// towards the address's share, and costs the asker the same time as a real request) but
    /// never sent: no mail goes to an address nobody verified.
    NoAccount,
}

impl AccountMailKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Verify => "verify",
            Self::Reset => "reset",
            Self::Registered => "registered",
            Self::Welcome => "welcome",
            Self::Follow => "follow",
            Self::NoAccount => "no-account",
        }
    }

    /// Whether it goes to an address verified (or vouched for by staff): only such mail may
    /// carry words the account's holder chose, such as its name.
    pub fn to_verified_address(self) -> bool {
        !matches!(self, Self::Verify)
    }

    /// The link the message carries, if any, and how long it stays good.
    pub fn link(self) -> Option<(LinkPurpose, i64)> {
        match self {
            Self::Verify => Some((LinkPurpose::Verify, LinkPurpose::Verify.lifetime_ms())),
            Self::Reset => Some((LinkPurpose::Reset, LinkPurpose::Reset.lifetime_ms())),
            Self::Registered | Self::NoAccount => None,
            Self::Welcome => Some((LinkPurpose::Reset, 7 * 24 * 3_600_000)),
            Self::Follow => Some((LinkPurpose::Follow, LinkPurpose::Follow.lifetime_ms())),
        }
    }
}

impl TryFrom<String> for AccountMailKind {
    type Error = ValidationError;

    fn try_from(kind: String) -> Result<Self, Self::Error> {
        [
            Self::Verify,
            Self::Reset,
            Self::Registered,
            Self::Welcome,
            Self::Follow,
            Self::NoAccount,
        ]
        .into_iter()
        .find(|k| k.as_str() == kind)
        .ok_or_else(|| ValidationError::new("purpose", "Unknown account mail"))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn a_signup_needs_every_field_checked_as_accounts_are() {
        let ok = Signup::parse(&object(
            json!({ "id": "ann", "name": "Ann", "email": "ann@uni.example", "password": "long enough" }),
        ))
        .unwrap();
        assert_eq!((ok.id().as_str(), ok.email().as_str()), ("ann", "ann@uni.example"));
        for (bad, text) in [
            (
                json!({ "id": "ann", "name": "Ann", "password": "long enough" }),
                "Required fields missing",
            ),
            (
                json!({ "id": "a b", "name": "Ann", "email": "ann@uni.example", "password": "long enough" }),
                "User id must be 1-64 characters of letters, digits, '.', '_', '@' or '-'",
            ),
            (
                json!({ "id": "ann", "name": "Ann", "email": "nope", "password": "long enough" }),
                "Invalid email",
            ),
            (
                json!({ "id": "ann", "name": "Ann", "email": "ann@uni.example", "password": "short" }),
                "Password must be at least 8 characters",
            ),
        ] {
            assert_eq!(Signup::parse(&object(bad.clone())).unwrap_err().message, text, "{bad}");
        }
    }

    #[test]
    fn tokens_are_43_characters_of_base64url_else_a_bad_link() {
        let good = "a".repeat(43);
        assert!(LinkToken::parse(&object(json!({ "token": good }))).is_ok());
        for bad in [
            json!({}),
            json!({ "token": 5 }),
            json!({ "token": "short" }),
            json!({ "token": "+".repeat(43) }),
        ] {
            assert_eq!(LinkToken::parse(&object(bad)).unwrap_err().message, BAD_LINK);
        }
    }

    #[test]
    fn account_mail_kinds_round_trip_and_welcome_links_last_a_week() {
        for kind in [
            AccountMailKind::Verify,
            AccountMailKind::Reset,
            AccountMailKind::Registered,
            AccountMailKind::Welcome,
            AccountMailKind::NoAccount,
        ] {
            assert_eq!(AccountMailKind::try_from(kind.as_str().to_owned()), Ok(kind));
        }
        assert_eq!(AccountMailKind::Welcome.link(), Some((LinkPurpose::Reset, 604_800_000)));
        assert_eq!(AccountMailKind::Registered.link(), None);
    }
}
