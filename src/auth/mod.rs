//! Authentication: password hashing, session ids, the login throttle and account management.

mod accounts;
mod password;
mod throttle;
mod token;

pub use accounts::{AccountError, add_user, set_password};
pub use password::Passwords;
pub use throttle::{LoginThrottle, ThrottleDecision};
pub use token::{SessionToken, token_hash};

/// A session ends after this long without use.
pub const SESSION_IDLE_MS: i64 = 7 * 24 * 60 * 60 * 1000;
