//! Who may do what: the one place that decides, for HTTP and real-time alike. Handlers,
//! events and the store ask [`may`] with the acting user and an [`Action`]; nothing else looks
//! at a user's [`Role`] to grant or refuse (`tests/api/architecture.rs` keeps it so).

use super::User;

/// What an account is to the service, one word for each everywhere in the code. (The
/// contract's `isAdmin` and the accounts table's `is_admin` column are the administrator's
/// flag: [`Role::from_admin_flag`], [`Role::admin_flag`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Reports what they lost or found, claims, chats.
    Member,
    /// Runs the whole service: accounts, settings, every item and message.
    Administrator,
}

impl Role {
    pub fn from_admin_flag(admin: bool) -> Self {
        if admin { Self::Administrator } else { Self::Member }
    }

    pub fn admin_flag(self) -> bool {
        self == Self::Administrator
    }

    /// The role's name, as the command line prints it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Member => "member",
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
    /// Remove a report or a chat message.
    Remove,
    /// Speak in the chats under any name, a staff member's too.
    SpeakAsStaff,
    /// Accounts: list, create, change, unlock, remove.
    ManageAccounts,
    /// Sites: add, change, remove.
    ManageSites,
}

/// Whether `user` may do `action`.
pub fn may(user: &User, action: Action) -> bool {
    role_may(user.role, action)
}

/// Whether an account in `role` may do `action`: every action here is the office's, and
/// administrators run the office.
pub fn role_may(role: Role, action: Action) -> bool {
    match (role, action) {
        (Role::Administrator, _) => true,
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

    const ACTIONS: [Action; 9] = [
        Action::ReadAll,
        Action::Review,
        Action::TakeIn,
        Action::Decide,
        Action::Dispose,
        Action::Remove,
        Action::SpeakAsStaff,
        Action::ManageAccounts,
        Action::ManageSites,
    ];

    fn user(role: Role) -> User {
        User {
            id: "ann".into(),
            name: "Ann".into(),
            role,
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
    fn the_administrators_flag_is_their_role() {
        for role in [Role::Member, Role::Administrator] {
            assert_eq!(Role::from_admin_flag(role.admin_flag()), role);
        }
    }
}
