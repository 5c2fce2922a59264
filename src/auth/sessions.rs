//! Login sessions: the `sid` cookie, how long a session lives, and how one is resolved,
//! started and ended. HTTP and the Socket.IO handshake both go through [`Sessions`].

use axum::http::{HeaderMap, HeaderValue};
use cookie::{Cookie, SameSite};

use super::token::{Token, cookie_value, token_hash};
use crate::{
    domain::User,
    store::{Store, StoreError},
    time::now_ms,
};

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "sid";
/// `last_seen_at` is written at most this often per session, not on every request (and at
/// least four times within the idle limit, when that is shorter).
const TOUCH_INTERVAL_MS: i64 = 60 * 1000;

/// A live session.
#[derive(Debug, Clone)]
pub struct Session {
    pub user: User,
    /// The SHA-256 of its id, as stored: what its end is recorded under.
    pub key: String,
    /// When it ends if it is not used before (epoch ms).
    pub expires_at: i64,
}

/// The session policy, over the sessions table.
#[derive(Clone)]
pub struct Sessions {
    store: Store,
    /// Cookies carry `Secure` when the service is published over HTTPS.
    secure_cookies: bool,
    /// A session ends after this long without use.
    idle_limit_ms: i64,
}

impl Sessions {
    pub fn new(store: Store, secure_cookies: bool, idle_limit_ms: i64) -> Self {
        Self {
            store,
            secure_cookies,
            idle_limit_ms,
        }
    }

    /// How long a session lasts without use.
    pub fn idle_limit_ms(&self) -> i64 {
        self.idle_limit_ms
    }

    /// The live session behind the request's `sid` cookie, if any, marked used.
    pub async fn resolve(&self, headers: &HeaderMap) -> Result<Option<Session>, StoreError> {
        let Some(sid) = sid_cookie(headers) else {
            return Ok(None);
        };
        let hash = token_hash(&sid);
        let now = now_ms();
        let Some((user, last_seen)) = self.store.session_user(&hash, now - self.idle_limit_ms).await? else {
            return Ok(None);
        };
        let last_seen = if now - last_seen >= TOUCH_INTERVAL_MS.min(self.idle_limit_ms / 4) {
            self.store.touch_session(&hash, now).await?;
            now
        } else {
            last_seen
        };
        Ok(Some(Session {
            user,
            key: hash,
            expires_at: last_seen + self.idle_limit_ms,
        }))
    }

    /// Starts a session for `user_id` under a new id, ending the one the request still held;
    /// returns the `Set-Cookie` value that hands the id to the client.
    pub async fn start(&self, user_id: &str, headers: &HeaderMap) -> Result<HeaderValue, StoreError> {
        if let Some(old) = sid_cookie(headers) {
            self.store.delete_session(&token_hash(&old), now_ms()).await?;
        }
        let token = Token::generate();
        self.store.insert_session(&token.hash(), user_id, now_ms()).await?;
        Ok(self.cookie(token.value(), false))
    }

    /// Ends the request's session, if any; returns the `Set-Cookie` value that clears it.
    pub async fn end(&self, headers: &HeaderMap) -> Result<HeaderValue, StoreError> {
        if let Some(sid) = sid_cookie(headers) {
            self.store.delete_session(&token_hash(&sid), now_ms()).await?;
        }
        Ok(self.cookie("", true))
    }

    /// Deletes the sessions that have passed the idle limit.
    pub async fn purge(&self) -> Result<(), StoreError> {
        let now = now_ms();
        self.store.delete_idle_sessions(now - self.idle_limit_ms, now).await
    }

    /// `HttpOnly; SameSite=Lax; Path=/`, `Secure` behind HTTPS. No `Max-Age`: the browser
    /// drops it when it closes (shared campus computers), and the server ends it after
    /// its idle limit without use.
    fn cookie(&self, value: &str, expired: bool) -> HeaderValue {
        let mut cookie = Cookie::build((SESSION_COOKIE, value))
            .http_only(true)
            .same_site(SameSite::Lax)
            .path("/")
            .secure(self.secure_cookies);
        if expired {
            cookie = cookie.max_age(cookie::time::Duration::ZERO);
        }
        HeaderValue::from_str(&cookie.to_string()).expect("session cookies are ASCII")
    }
}

fn sid_cookie(headers: &HeaderMap) -> Option<String> {
    cookie_value(headers, SESSION_COOKIE)
}
