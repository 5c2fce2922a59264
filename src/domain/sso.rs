//! Single sign-on: who the provider says someone is, checked into what an account needs.

use super::{DisplayName, Email, UserId};

/// How many ids are tried for a new account (`sam`, `sam-2`, … `sam-99`).
const ID_CANDIDATES: usize = 99;
/// The longest base an id is made from, leaving room for `-99`.
const MAX_BASE: usize = 60;

/// Someone the provider vouched for: its subject (`sub`, under its issuer), the ids a new
/// account may take, a display name, a verified address, and whether its groups make them
/// staff (`None`: the provider does not say, nothing changes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SsoIdentity {
    subject: String,
    base_id: String,
    name: DisplayName,
    email: Option<Email>,
    admin: Option<bool>,
}

/// The claims of an ID token that matter here.
#[derive(Debug, Default)]
pub struct SsoClaims<'a> {
    pub issuer: &'a str,
    pub subject: &'a str,
    pub preferred_username: Option<&'a str>,
    pub name: Option<&'a str>,
    pub email: Option<&'a str>,
    pub email_verified: bool,
    pub groups: Option<&'a [String]>,
}

impl SsoIdentity {
    /// `admin_group`: members of that group are administrators (and others not), when set.
    pub fn new(claims: &SsoClaims<'_>, admin_group: Option<&str>) -> Self {
        let email = claims
            .email
            .filter(|_| claims.email_verified)
            .and_then(|email| Email::parse(email).ok());
        let local_part = claims.email.and_then(|email| email.split('@').next());
        let base_id = [claims.preferred_username, local_part]
            .into_iter()
            .flatten()
            .map(id_part)
            .find(|id| !id.is_empty())
            .unwrap_or_else(|| "user".to_owned());
        let name = [claims.name, claims.preferred_username, Some(base_id.as_str())]
            .into_iter()
            .flatten()
            .find_map(|name| DisplayName::parse(name).ok())
            .expect("an id is a display name");
        Self {
            subject: format!("{}#{}", claims.issuer, claims.subject),
            base_id,
            name,
            email,
            admin: admin_group.map(|group| claims.groups.is_some_and(|groups| groups.iter().any(|g| g == group))),
        }
    }

    /// The provider's subject, under its issuer: what an account is linked by.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The ids a new account may take, in order: the base, then `base-2`, `base-3`, ….
    pub fn id_candidates(&self) -> impl Iterator<Item = UserId> + '_ {
        std::iter::once(self.base_id.clone())
            .chain((2..=ID_CANDIDATES).map(|n| format!("{}-{n}", self.base_id)))
            .filter_map(|id| UserId::parse(&id).ok())
    }

    pub fn name(&self) -> &DisplayName {
        &self.name
    }

    /// The address, when the provider says it is verified.
    pub fn email(&self) -> Option<&Email> {
        self.email.as_ref()
    }

    pub fn admin(&self) -> Option<bool> {
        self.admin
    }
}

/// The characters of `raw` an id may have, at most [`MAX_BASE`] of them.
fn id_part(raw: &str) -> String {
    raw.chars()
        .filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
        .take(MAX_BASE)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims<'a>(username: Option<&'a str>, email: Option<&'a str>, groups: Option<&'a [String]>) -> SsoClaims<'a> {
        SsoClaims {
            issuer: "https://idp.example",
            subject: "abc",
            preferred_username: username,
            name: Some("Olivia Officer"),
            email,
            email_verified: true,
            groups,
        }
    }

    #[test]
    fn ids_come_from_the_username_or_the_address_and_are_made_unique() {
        let olivia = SsoIdentity::new(&claims(Some("olivia"), None, None), None);
        let ids: Vec<String> = olivia
            .id_candidates()
            .take(3)
            .map(|id| id.as_str().to_owned())
            .collect();
        assert_eq!(ids, ["olivia", "olivia-2", "olivia-3"]);
        assert_eq!(olivia.id_candidates().count(), 99);
        let by_mail = SsoIdentity::new(&claims(Some("ö"), Some("o.k+x@uni.example"), None), None);
        assert_eq!(by_mail.id_candidates().next().unwrap().as_str(), "o.kx");
        let nothing = SsoIdentity::new(&claims(None, None, None), None);
        assert_eq!(nothing.id_candidates().next().unwrap().as_str(), "user");
        assert_eq!(olivia.subject(), "https://idp.example#abc");
    }

    #[test]
    fn only_verified_addresses_and_the_admin_group_count() {
        let groups = ["students".to_owned(), "lost-found-staff".to_owned()];
        let staff = SsoIdentity::new(
            &claims(Some("o"), Some("o@uni.example"), Some(&groups)),
            Some("lost-found-staff"),
        );
        assert_eq!(
            (staff.admin(), staff.email().map(Email::as_str)),
            (Some(true), Some("o@uni.example"))
        );
        let student = SsoIdentity::new(&claims(Some("s"), None, Some(&groups[..1])), Some("lost-found-staff"));
        assert_eq!(student.admin(), Some(false));
        assert_eq!(SsoIdentity::new(&claims(Some("s"), None, None), None).admin(), None);
        let mut unverified = claims(Some("u"), Some("u@uni.example"), None);
        unverified.email_verified = false;
        assert_eq!(SsoIdentity::new(&unverified, None).email(), None);
    }
}
