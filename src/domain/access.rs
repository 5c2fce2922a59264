//! Who may do what: the one place that decides, for HTTP and real-time alike. Extractors,
//! events and the use cases ask [`may`] (somewhere) or [`may_at`] (at an item's site) with the
//! acting user and an [`Action`]; nothing else looks at a user's [`Role`] or sites to grant or
//! refuse (`tests/api/architecture.rs` keeps it so).

use super::User;

/// What an account is to the service, one word for each everywhere in the code. (The
/// contract's `isAdmin` and the accounts table's `is_admin` column are the administrator's
/// flag: [`Role::from_admin_flag`], [`Role::admin_flag`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Reports what they lost or found, claims, chats.
    Member,
    /// Works at one or more sites: the office's work on those sites' items.
    Staff,
    /// Runs the whole service: accounts, sites, settings, every item and message.
    Administrator,
}

impl Role {
    /// An account's role before any site is given to it: an administrator or a member.
    pub fn from_admin_flag(admin: bool) -> Self {
        if admin { Self::Administrator } else { Self::Member }
    }

    /// An account's role: an administrator's flag wins; an account that works at a site is
    /// staff.
    pub fn of(admin: bool, sites: &[i64]) -> Self {
        match (admin, sites.is_empty()) {
            (true, _) => Self::Administrator,
            (false, false) => Self::Staff,
            (false, true) => Self::Member,
        }
    }

    pub fn admin_flag(self) -> bool {
        self == Self::Administrator
    }

    /// The role's name, as the command line prints it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Member => "member",
            Self::Staff => "staff",
            Self::Administrator => "administrator",
        }
    }
}

/// What a person does that not everyone may.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Read every report in every review state, its history, where it is kept and who
    /// handed it in; the figures and the CSV export; every claim.
    ReadAll,
    /// Approve, reject or change a report, close anyone's, be told of new reports.
    Review,
    /// Log an item handed in at the desk (approved at once, with its finder) and print labels.
    TakeIn,
    /// Accept or reject a claim, hand an item over.
    Decide,
    /// Dispose of an item past its holding period.
    Dispose,
    /// Send an item to another site, and receive one sent.
    Transfer,
    /// Keep a site's storage bins: add, rename and remove them.
    Shelve,
    /// Remove a report or a chat message.
    Remove,
    /// Speak in the chats under any name, a staff member's too.
    SpeakAsStaff,
    /// Accounts: list, create, change, unlock, remove.
    ManageAccounts,
    /// Sites: add, change, remove.
    ManageSites,
    /// Categories (their names and holding periods): add, change, remove.
    ManageCategories,
}

/// Whether `user` may do `action` somewhere: at some site, for staff.
pub fn may(user: &User, action: Action) -> bool {
    role_may(user.role, action)
}

/// Whether `user` may do `action` to an item of `site` (`None`: an item an older node
/// reported, which only administrators act on until the start gives it a site). Staff act
/// on their own sites' items only; reading stays everyone's in the office (a desk answers
/// questions about another's shelf), and what it reads of another site is read-only.
pub fn may_at(user: &User, action: Action, site: Option<i64>) -> bool {
    match user.role {
        Role::Staff if action != Action::ReadAll => {
            role_may(user.role, action) && site.is_some_and(|site| user.sites.contains(&site))
        }
        role => role_may(role, action),
    }
}

/// Whether an account in `role` may do `action` (somewhere): every action here is the
/// office's; administrators run the office and the service, staff do the office's work.
pub fn role_may(role: Role, action: Action) -> bool {
    match (role, action) {
        (Role::Administrator, _) => true,
        (Role::Staff, Action::ManageAccounts | Action::ManageSites | Action::ManageCategories) => false,
        (Role::Staff, _) => true,
        (Role::Member, _) => false,
    }
}

/// [`may`] for a reader who may not be signed in.
pub fn viewer_may(viewer: Option<&User>, action: Action) -> bool {
    viewer.is_some_and(|user| may(user, action))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACTIONS: [Action; 12] = [
        Action::ReadAll,
        Action::Review,
        Action::TakeIn,
        Action::Decide,
        Action::Dispose,
        Action::Transfer,
        Action::Shelve,
        Action::Remove,
        Action::SpeakAsStaff,
        Action::ManageAccounts,
        Action::ManageSites,
        Action::ManageCategories,
    ];

    fn user(role: Role) -> User {
        let sites = if role == Role::Staff { vec![2, 5] } else { Vec::new() };
        User {
            id: "ann".into(),
            name: "Ann".into(),
            role,
            sites,
        }
    }

    #[test]
    fn administrators_may_do_everything_members_nothing_of_the_office() {
        for action in ACTIONS {
            assert!(may(&user(Role::Administrator), action), "{action:?}");
            assert!(!may(&user(Role::Member), action), "{action:?}");
            assert!(!viewer_may(None, action), "{action:?}");
        }
    }

    #[test]
    fn staff_do_the_offices_work_on_their_own_sites_items_only() {
        let staff = user(Role::Staff);
        for action in ACTIONS {
            let office = !matches!(
                action,
                Action::ManageAccounts | Action::ManageSites | Action::ManageCategories
            );
            assert_eq!(may(&staff, action), office, "{action:?}");
            assert_eq!(may_at(&staff, action, Some(5)), office, "{action:?}");
            let elsewhere = action == Action::ReadAll;
            assert_eq!(may_at(&staff, action, Some(3)), elsewhere, "{action:?}");
            assert_eq!(may_at(&staff, action, None), elsewhere, "{action:?}");
            assert!(may_at(&user(Role::Administrator), action, Some(3)), "{action:?}");
            assert!(!may_at(&user(Role::Member), action, Some(5)), "{action:?}");
        }
    }

    #[test]
    fn the_administrators_flag_wins_and_a_site_makes_staff() {
        for role in [Role::Member, Role::Administrator] {
            assert_eq!(Role::from_admin_flag(role.admin_flag()), role);
        }
        assert_eq!(Role::of(true, &[1]), Role::Administrator);
        assert_eq!(Role::of(false, &[1]), Role::Staff);
        assert_eq!(Role::of(false, &[]), Role::Member);
        assert!(!Role::Staff.admin_flag());
    }
}
