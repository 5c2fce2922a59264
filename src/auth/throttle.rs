//! Login throttling that cannot be turned against the person it protects.
//!
//! Attempts are counted before the password is checked (so parallel guesses count too), in
//! the database (so every node shares the counts), in fixed windows:
//! - per account and client address: after [`PER_PAIR`] in a window, that address may not
//!   try that account again until the window ends (429) — other addresses are unaffected;
//! - per client address: after [`FREE_PER_ADDRESS`], its attempts take turns, spaced
//!   further apart the more there were, up to [`MAX_ADDRESS_SPACING_MS`] — a campus behind
//!   one NAT address keeps logging in while someone there guesses, at most a few seconds
//!   late, and the guesser gets one try per turn;
//! - per account, over every address: after [`FREE_PER_ACCOUNT`], attempts take turns,
//!   spaced further apart the more there were — a delay, never a refusal of the right
//!   password from another address, which bounds guessing one account from many addresses.
//!
//! An attempt whose turn is more than [`MAX_WAIT_MS`] away is refused with `Retry-After`.
//! Addresses in a shared network (`LOSTFOUND_SHARED_NETWORKS`) get their free attempts
//! multiplied by its factor.
//!
//! A browser that logged in to an account before carries a device cookie for it
//! (OWASP's "device cookies"): its attempts on that account are counted per device only,
//! so neither a shared address nor an attack on the account keeps it out.

use std::{collections::HashSet, net::IpAddr, time::Duration};

use axum::http::{HeaderMap, HeaderValue};
use cookie::{Cookie, SameSite};

use super::token::{Token, cookie_value, token_hash};
use crate::{
    net::{AddressKey, SharedNetworks},
    store::{Store, StoreError},
    time::now_ms,
};

const WINDOW_MS: i64 = 15 * 60 * 1000;
/// Attempts allowed per account from one address in a window.
const PER_PAIR: i64 = 5;
/// Attempts from one address (an IPv6 /64) in a window, whatever the account, before they
/// must take turns.
const FREE_PER_ADDRESS: i64 = 50;
/// The longest spacing of an address's turns: one try every 2 s is harmless to guess with,
/// and a person on that address waits no longer.
const MAX_ADDRESS_SPACING_MS: i64 = 2_000;
/// Attempts on one account in a window before they must take turns.
const FREE_PER_ACCOUNT: i64 = 5;
/// The first spacing of turns; it doubles with each attempt, up to [`MAX_SPACING_MS`].
const FIRST_SPACING_MS: i64 = 250;
const MAX_SPACING_MS: i64 = 30_000;
/// Longest an attempt waits for its turn; a later turn is refused with `Retry-After`.
const MAX_WAIT_MS: i64 = 10_000;
/// Attempts allowed from one trusted device in a window.
const PER_DEVICE: i64 = 10;
/// Sign-ups, or requests to reset a password, from one address in a window (multiplied for a
/// shared network): each may send mail, and costs a password hash or a database write.
const REQUESTS_PER_ADDRESS: i64 = 20;
/// Changes of address one account may make in a window: each mails a link to an address
/// that nobody has verified, the account's owner's choice.
const ADDRESS_CHANGES_PER_ACCOUNT: i64 = 5;
/// Single sign-ons started from one address in a window (multiplied for a shared network):
/// each keeps a row until the provider sends the browser back. As many as the failed
/// logins an address has before they take turns: on a campus that signs on this way, it is
/// how everyone behind one address logs in.
const SSO_STARTS_PER_ADDRESS: i64 = FREE_PER_ADDRESS;
/// Windows and turns older than this are over; they are purged.
const RETENTION_MS: i64 = 24 * 60 * 60 * 1000;
/// The device cookie, and how long a device stays trusted without logging in.
const DEVICE_COOKIE: &str = "lf_device";
const DEVICE_LIFETIME_MS: i64 = 365 * 24 * 60 * 60 * 1000;

#[derive(Clone)]
pub struct LoginThrottle {
    store: Store,
    secure_cookies: bool,
    shared: SharedNetworks,
}

/// One admitted attempt, and what it was counted under.
pub struct Attempt {
    /// The keys to clear when it succeeds, and the one to take back.
    clear: Vec<String>,
    uncount: Option<String>,
    trusted: bool,
}

pub enum ThrottleDecision {
    Allowed(Attempt),
    Refused { retry_after_secs: u64 },
}

/// Forgets every failed attempt counted against an account, from any address (`lostfound
/// user unlock`, a new password); returns how many counts there were.
pub async fn unlock(store: &Store, account_id: &str) -> Result<u64, StoreError> {
    store.clear_account_attempts(&account_key(account_id)).await
}

/// Of accounts `ids`, those locked now: failed logins counted against one this window reached
/// the point where an address is refused, or attempts take turns — what unlocking forgets.
pub async fn locked<'a>(store: &Store, ids: impl Iterator<Item = &'a str>) -> Result<HashSet<String>, StoreError> {
    let since = now_ms() - WINDOW_MS;
    let keys: HashSet<String> = store
        .locked_account_keys(since, PER_PAIR.min(FREE_PER_ACCOUNT))
        .await?
        .into_iter()
        .collect();
    if keys.is_empty() {
        return Ok(HashSet::new());
    }
    Ok(ids
        .filter(|id| keys.contains(&account_key(id)))
        .map(str::to_owned)
        .collect())
}

/// What an account's attempts are counted under: its id folded (ids are case-insensitive)
/// and hashed, so that any id, however long or odd, makes a short, safe key.
fn account_key(account_id: &str) -> String {
    token_hash(&account_id.to_ascii_lowercase())
}

impl LoginThrottle {
    pub fn new(store: Store, secure_cookies: bool, shared: SharedNetworks) -> Self {
        Self {
            store,
            secure_cookies,
            shared,
        }
    }

    /// Counts an attempt to log in to `account_id` from `addr` (with the request's device
    /// cookie, if any), and decides whether its password may be checked. May wait for the
    /// account's turn.
    pub async fn admit(
        &self,
        account_id: &str,
        addr: IpAddr,
        headers: &HeaderMap,
    ) -> Result<ThrottleDecision, StoreError> {
        let account = account_key(account_id);
        let now = now_ms();
        if let Some(device) = self.trusted_device(headers, account_id, now).await? {
            let key = format!("dev:{device}");
            if let Some(refused) = self.count(&key, None, PER_DEVICE, now).await? {
                return Ok(refused);
            }
            return Ok(ThrottleDecision::Allowed(Attempt {
                clear: vec![key, format!("acct:{account}")],
                uncount: None,
                trusted: true,
            }));
        }
        let address = AddressKey::of(addr);
        let pair = format!("pair:{account}:{address}");
        let from_address = format!("addr:{address}");
        let on_account = format!("acct:{account}");
        if let Some(refused) = self.count(&pair, Some(&account), PER_PAIR, now).await? {
            return Ok(refused);
        }
        let free_per_address = self.shared.scaled(FREE_PER_ADDRESS, addr);
        for (key, account, free, max_spacing) in [
            (&from_address, None, free_per_address, MAX_ADDRESS_SPACING_MS),
            (&on_account, Some(account.as_str()), FREE_PER_ACCOUNT, MAX_SPACING_MS),
        ] {
            if let Some(refused) = self.wait_for_turn(key, account, free, max_spacing).await? {
                return Ok(refused);
            }
        }
        Ok(ThrottleDecision::Allowed(Attempt {
            clear: vec![pair, on_account],
            uncount: Some(from_address),
            trusted: false,
        }))
    }

    /// A successful login clears its account's counts and takes its attempt back from the
    /// address. Returns the device cookie to set when the browser was not trusted yet.
    pub async fn succeeded(&self, attempt: &Attempt, user_id: &str) -> Result<Option<HeaderValue>, StoreError> {
        for key in &attempt.clear {
            self.store.clear_login_attempts(key).await?;
        }
        if let Some(key) = &attempt.uncount {
            self.store.uncount_login_attempt(key).await?;
        }
        if attempt.trusted {
            return Ok(None);
        }
        let token = Token::generate();
        self.store
            .insert_trusted_device(&token.hash(), user_id, now_ms())
            .await?;
        Ok(Some(self.device_cookie(token.value())))
    }

    /// Counts an attempt under `key`; past `free` in the window, waits for its turn, spaced
    /// from the previous one by a delay that doubles with each attempt, up to `max_spacing`
    /// ms. A refusal when the turn is too far away.
    async fn wait_for_turn(
        &self,
        key: &str,
        account: Option<&str>,
        free: i64,
        max_spacing: i64,
    ) -> Result<Option<ThrottleDecision>, StoreError> {
        let now = now_ms();
        let (attempts, _) = self
            .store
            .count_login_attempt(key, account, now, now - WINDOW_MS)
            .await?;
        if attempts <= free {
            return Ok(None);
        }
        let spacing = (FIRST_SPACING_MS << (attempts - free - 1).min(16)).min(max_spacing);
        let turn = self.store.take_login_turn(key, now, spacing).await?;
        let wait = turn - now;
        if wait > MAX_WAIT_MS {
            return Ok(Some(refused_for(wait)));
        }
        tokio::time::sleep(Duration::from_millis(wait.max(0) as u64)).await;
        Ok(None)
    }

    /// Counts a request of `kind` (`signup`, `reset`) from `addr`: `Some(seconds to wait)`
    /// once there were too many in the window. Every request is counted, one write each,
    /// whatever it asks for: an address with an account takes as long as one without.
    pub async fn count_request(&self, kind: &str, addr: IpAddr) -> Result<Option<u64>, StoreError> {
        self.count_per_address(kind, REQUESTS_PER_ADDRESS, addr).await
    }

    /// Counts a single sign-on started from `addr`, like [`Self::count_request`].
    pub async fn count_sso_start(&self, addr: IpAddr) -> Result<Option<u64>, StoreError> {
        self.count_per_address("sso", SSO_STARTS_PER_ADDRESS, addr).await
    }

    /// Counts a request of `kind` from `addr`: `Some(seconds to wait)` once there were more
    /// than `limit` in the window.
    async fn count_per_address(&self, kind: &str, limit: i64, addr: IpAddr) -> Result<Option<u64>, StoreError> {
        let key = format!("{kind}:{}", AddressKey::of(addr));
        self.count_requests(&key, self.shared.scaled(limit, addr)).await
    }

    /// Counts a change of address by account `account_id` (each mails a link to the new
    /// one): `Some(seconds to wait)` once there were too many in the window.
    pub async fn count_address_change(&self, account_id: &str) -> Result<Option<u64>, StoreError> {
        let key = format!("email:{}", account_key(account_id));
        self.count_requests(&key, ADDRESS_CHANGES_PER_ACCOUNT).await
    }

    /// Counts a request under `key`: `Some(seconds to wait)` once there were more than
    /// `limit` in the window.
    async fn count_requests(&self, key: &str, limit: i64) -> Result<Option<u64>, StoreError> {
        Ok(match self.count(key, None, limit, now_ms()).await? {
            Some(ThrottleDecision::Refused { retry_after_secs }) => Some(retry_after_secs),
            _ => None,
        })
    }

    /// Deletes the windows that have long ended and the devices long unused.
    pub async fn purge(&self) -> Result<(), StoreError> {
        let now = now_ms();
        self.store.delete_old_login_attempts(now - RETENTION_MS).await?;
        self.store.delete_unused_devices(now - DEVICE_LIFETIME_MS).await
    }

    /// The request's device, when it has logged in to `account_id` before.
    async fn trusted_device(
        &self,
        headers: &HeaderMap,
        account_id: &str,
        now: i64,
    ) -> Result<Option<String>, StoreError> {
        let Some(token) = cookie_value(headers, DEVICE_COOKIE) else {
            return Ok(None);
        };
        let hash = token_hash(&token);
        Ok(self
            .store
            .use_trusted_device(&hash, account_id, now)
            .await?
            .then_some(hash))
    }

    /// Counts an attempt under `key`; `Some` refusal once `limit` is passed in the window.
    async fn count(
        &self,
        key: &str,
        account: Option<&str>,
        limit: i64,
        now: i64,
    ) -> Result<Option<ThrottleDecision>, StoreError> {
        let (attempts, window_start) = self
            .store
            .count_login_attempt(key, account, now, now - WINDOW_MS)
            .await?;
        Ok((attempts > limit).then(|| refused_for(window_start + WINDOW_MS - now)))
    }

    /// `HttpOnly; SameSite=Strict; Path=/api/login`, kept a year: only the login page's
    /// requests carry it.
    fn device_cookie(&self, value: &str) -> HeaderValue {
        let cookie = Cookie::build((DEVICE_COOKIE, value))
            .http_only(true)
            .same_site(SameSite::Strict)
            .path("/api/login")
            .max_age(cookie::time::Duration::milliseconds(DEVICE_LIFETIME_MS))
            .secure(self.secure_cookies);
        HeaderValue::from_str(&cookie.to_string()).expect("device cookies are ASCII")
    }
}

fn refused_for(wait_ms: i64) -> ThrottleDecision {
    crate::metrics::refused("login");
    ThrottleDecision::Refused {
        retry_after_secs: (wait_ms.max(1) as u64).div_ceil(1000).max(1),
    }
}
