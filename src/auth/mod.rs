//! Authentication: password hashing, sessions, the login throttle and account management.

mod accounts;
mod password;
mod sessions;
mod throttle;
mod token;

pub use accounts::{AccountError, add_user, set_password};
pub use password::Passwords;
pub use sessions::{SESSION_COOKIE, Session, Sessions};
pub use throttle::{Attempt, LoginThrottle, ThrottleDecision, unlock};
