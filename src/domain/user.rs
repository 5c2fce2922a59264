//! Accounts: a user, and the checked inputs that create one or log in.

use serde_json::{Map, Value};

use super::{Fields, ValidationError, access::Role};

const MAX_ID: usize = 64;
const MAX_NAME: usize = 100;
const MIN_PASSWORD: usize = 8;
/// Bounds the hashing work one password can cause.
const MAX_PASSWORD: usize = 1_024;

/// An account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub name: String,
    pub role: Role,
    /// The sites it works at, ascending (staff's; an administrator's are kept but grant
    /// nothing more).
    pub sites: Vec<i64>,
}

impl User {
    /// An account from what is stored: its administrator's flag and the sites it works at
    /// (in any order).
    pub fn new(id: String, name: String, admin: bool, sites: Vec<i64>) -> Self {
        let sites = ascending(sites);
        Self {
            id,
            name,
            role: Role::of(admin, &sites),
            sites,
        }
    }
}

/// Site ids in ascending order, each once: how a user's sites are kept.
pub(super) fn ascending(mut sites: Vec<i64>) -> Vec<i64> {
    sites.sort_unstable();
    sites.dedup();
    sites
}

/// What a login sends: an id and a password, both non-empty strings. An id that breaks
/// [`UserId`]'s rule is not refused: it names no account, and must fail like an unknown one.
pub struct Credentials {
    id: String,
    password: String,
}

impl Credentials {
    /// Checks the body of `POST /api/login`.
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let required = |field: &'static str| match f.string(field) {
            Ok(Some(value)) if !value.is_empty() => Ok(value.to_owned()),
            _ => Err(ValidationError::new(field, "ID and password required")),
        };
        Ok(Self {
            id: required("id")?,
            password: required("pw")?,
        })
    }

    /// The id as sent (the throttle counts attempts under it).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The account the id may name; `None` when no account can have it.
    pub fn account(&self) -> Option<UserId> {
        UserId::parse(&self.id).ok()
    }

    pub fn password(&self) -> &str {
        &self.password
    }
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("id", &self.id)
            .field("password", &"<redacted>")
            .finish()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserId(String);

impl UserId {
    pub fn parse(id: &str) -> Result<Self, ValidationError> {
        let valid =
            (1..=MAX_ID).contains(&id.len()) && id.chars().all(|c| c.is_ascii_alphanumeric() || "._@-".contains(c));
        if valid {
            Ok(Self(id.to_owned()))
        } else {
            Err(ValidationError::new(
                "id",
                "User id must be 1-64 characters of letters, digits, '.', '_', '@' or '-'",
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayName(String);

impl DisplayName {
    pub fn parse(name: &str) -> Result<Self, ValidationError> {
        super::refuse_direction_overrides("name", name)?;
        let name = super::trim_blank(name);
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
            return Err(ValidationError::new(
                "name",
                "Name must be 1-100 characters without control characters",
            ));
        }
        Ok(Self(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An email address as people type them: `local@domain.tld`, trimmed, at most 254
/// characters, no spaces or control characters. A quoted local part that needs no quotes is
/// kept unquoted (`"\v\ictim"@x.example` is `victim@x.example`): one mailbox, one spelling.
/// (Whether it receives mail only sending shows.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let invalid = || ValidationError::new("email", "Invalid email");
        let email = raw.trim();
        if email.len() > 254 || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(invalid());
        }
        let (local, domain) = email.rsplit_once('@').ok_or_else(invalid)?;
        let domain_ok = domain.split('.').count() >= 2 && domain.split('.').all(|label| !label.is_empty());
        match mailbox_local(local) {
            Some(local) if domain_ok => Ok(Self(format!("{local}@{domain}"))),
            _ => Err(invalid()),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part after `@`, in lower case: what sign-up's allowed domains are matched with.
    pub fn domain(&self) -> String {
        self.0
            .rsplit_once('@')
            .map_or("", |(_, domain)| domain)
            .to_ascii_lowercase()
    }

    /// The mailbox this address delivers to, for counting what is sent to it: case folded and
    /// a `+tag` dropped (most providers deliver `ann+1@` to `ann@`).
    pub fn mailbox(&self) -> String {
        let (local, domain) = self.0.rsplit_once('@').unwrap_or((&self.0, ""));
        let local = local.split_once('+').map_or(local, |(base, _)| base);
        format!("{local}@{domain}").to_lowercase()
    }

    /// [`Email::mailbox`] of an address as stored (one that no longer parses counts folded).
    pub fn mailbox_of(address: &str) -> String {
        Self::parse(address).map_or_else(|_| address.to_lowercase(), |email| email.mailbox())
    }
}

/// The local part of an address in its one spelling: a dot-atom as it is; a quoted string
/// unquoted when its content is a dot-atom, else quoted with only the escapes it needs.
/// `None` for anything else (a comment, a stray quote or `@`).
fn mailbox_local(local: &str) -> Option<String> {
    let Some(quoted) = local.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) else {
        return is_dot_atom(local).then(|| local.to_owned());
    };
    let mut content = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => content.push(chars.next()?),
            '"' => return None,
            c => content.push(c),
        }
    }
    if is_dot_atom(&content) {
        return Some(content);
    }
    (!content.is_empty() && !content.contains('@'))
        .then(|| format!("\"{}\"", content.replace('\\', "\\\\").replace('"', "\\\"")))
}

/// RFC 5322's atoms joined by dots (any non-ASCII letter allowed, as RFC 6531 does).
fn is_dot_atom(local: &str) -> bool {
    const SPECIALS: &str = "!#$%&'*+-/=?^_`{|}~";
    !local.is_empty()
        && local.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .chars()
                    .all(|c| c.is_alphanumeric() || !c.is_ascii() || SPECIALS.contains(c))
        })
}

/// A new password; never printed by `Debug`.
#[derive(Clone)]
pub struct Password(String);

impl Password {
    pub fn parse(pw: &str) -> Result<Self, ValidationError> {
        let len = pw.chars().count();
        if len < MIN_PASSWORD {
            return Err(ValidationError::new("pw", "Password must be at least 8 characters"));
        }
        if len > MAX_PASSWORD {
            return Err(ValidationError::new("pw", "Password must be at most 1024 characters"));
        }
        Ok(Self(pw.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn emails_are_checked_loosely() {
        assert_eq!(Email::parse("  ann@uni.example ").unwrap().as_str(), "ann@uni.example");
        for bad in [
            "",
            "ann",
            "ann@",
            "@uni.example",
            "ann@uni",
            "ann@@uni.example",
            "a nn@uni.example",
            "ann@uni..example",
            "ann(comment)@uni.example",
            "a\"nn@uni.example",
            "\"a\"b\"@uni.example",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn one_mailbox_has_one_spelling_and_one_count() {
        for spelling in [
            "victim@uni.example",
            "\"victim\"@uni.example",
            "\"\\v\\ictim\"@uni.example",
        ] {
            assert_eq!(
                Email::parse(spelling).unwrap().as_str(),
                "victim@uni.example",
                "{spelling}"
            );
        }
        assert_eq!(
            Email::parse("\"odd \\\"one\"@uni.example"),
            Err(ValidationError::new("email", "Invalid email")),
            "no spaces, quoted or not"
        );
        assert_eq!(
            Email::parse("\"a,b\"@uni.example").unwrap().as_str(),
            "\"a,b\"@uni.example"
        );
        for spelling in [
            "VICTIM@Uni.Example",
            "victim+prize@uni.example",
            "\"Victim+1\"@UNI.example",
        ] {
            assert_eq!(
                Email::parse(spelling).unwrap().mailbox(),
                "victim@uni.example",
                "{spelling}"
            );
        }
    }

    #[test]
    fn user_ids() {
        assert!(UserId::parse("alice").is_ok());
        assert!(UserId::parse("a.b_c-d@uni.edu").is_ok());
        for bad in ["", "has space", "ünï", "semi;colon", &"x".repeat(65)] {
            assert!(UserId::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn credentials() {
        let c = Credentials::parse(json!({"id": "alice", "pw": "secret"}).as_object().unwrap()).unwrap();
        assert_eq!((c.id(), c.password()), ("alice", "secret"));
        assert!(!format!("{c:?}").contains("secret"));
        for (body, field) in [
            (json!({"pw": "secret"}), "id"),
            (json!({"id": "", "pw": "secret"}), "id"),
            (json!({"id": 5, "pw": "secret"}), "id"),
            (json!({"id": "alice"}), "pw"),
            (json!({"id": "alice", "pw": ""}), "pw"),
            (json!({"id": "alice", "pw": ["x"]}), "pw"),
        ] {
            let err = Credentials::parse(body.as_object().unwrap()).unwrap_err();
            assert_eq!(
                (err.message.as_ref(), err.field),
                ("ID and password required", Some(field))
            );
        }
    }

    #[test]
    fn names_and_passwords() {
        assert_eq!(DisplayName::parse("  Alice A. ").unwrap().as_str(), "Alice A.");
        assert!(DisplayName::parse("  ").is_err());
        assert!(DisplayName::parse("bell\x07").is_err());
        for reordered in ["Front \u{202E}kseD", "\u{2067}Bob\u{2069}", "Ann\u{202A}"] {
            assert_eq!(
                DisplayName::parse(reordered).unwrap_err().message,
                "name must not contain characters that override the text direction"
            );
        }
        // A direction mark reorders nothing around it: names in Hebrew or Arabic may need one.
        assert!(DisplayName::parse("Sara \u{200F}שרה").is_ok());
        assert!(Password::parse("1234567").is_err());
        assert!(Password::parse("12345678").is_ok());
        assert!(Password::parse(&"p".repeat(1_025)).is_err());
        assert_eq!(
            format!("{:?}", Password::parse("secret-pass").unwrap()),
            "Password(<redacted>)"
        );
    }
}
