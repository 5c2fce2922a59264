//! Account inputs, checked when accounts are created from the command line.

use super::ValidationError;

const MAX_ID: usize = 64;
const MAX_NAME: usize = 100;
const MIN_PASSWORD: usize = 8;
/// Bounds the hashing work one password can cause.
const MAX_PASSWORD: usize = 1_024;

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
        let name = name.trim();
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
    use super::*;

    #[test]
    fn user_ids() {
        assert!(UserId::parse("alice").is_ok());
        assert!(UserId::parse("a.b_c-d@uni.edu").is_ok());
        for bad in ["", "has space", "ünï", "semi;colon", &"x".repeat(65)] {
            assert!(UserId::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn names_and_passwords() {
        assert_eq!(DisplayName::parse("  Alice A. ").unwrap().as_str(), "Alice A.");
        assert!(DisplayName::parse("  ").is_err());
        assert!(DisplayName::parse("bell\x07").is_err());
        assert!(Password::parse("1234567").is_err());
        assert!(Password::parse("12345678").is_ok());
        assert!(Password::parse(&"p".repeat(1_025)).is_err());
        assert_eq!(
            format!("{:?}", Password::parse("secret-pass").unwrap()),
            "Password(<redacted>)"
        );
    }
}
