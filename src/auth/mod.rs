//! Authentication: password hashing, sessions, the login throttle and account management.

mod accounts;
mod password;
mod sessions;
mod signup;
mod sso;
mod throttle;
mod token;
pub mod unsubscribe;

pub use accounts::{AccountError, add_user, set_password};
pub use password::Passwords;
pub use sessions::{SESSION_COOKIE, Session, Sessions};
pub use signup::{follower, reset_password, sign_up, verify_email};
pub use sso::{SingleSignOn, SsoError};
pub use throttle::{Attempt, LoginThrottle, ThrottleDecision, locked, unlock};
pub use token::{Token, cookie_value};
