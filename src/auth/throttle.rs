//! Login throttling: attempts per account and per client address in fixed windows,
//! counted in the database so every node shares them and concurrent attempts all count.

use std::net::IpAddr;

use super::token_hash;
use crate::store::Store;

const WINDOW_MS: i64 = 15 * 60 * 1000;
/// Failed logins allowed per account id in a window.
const PER_ACCOUNT: i64 = 5;
/// Failed logins allowed per client address (an IPv6 /64) in a window.
const PER_ADDRESS: i64 = 50;

#[derive(Clone)]
pub struct LoginThrottle {
    store: Store,
}

/// The keys one login attempt was counted under.
pub struct AttemptKeys {
    account: String,
    address: String,
}

pub enum ThrottleDecision {
    Allowed(AttemptKeys),
    Refused { retry_after_secs: u64 },
}

impl LoginThrottle {
    pub fn new(store: Store) -> Self {
        Self { store }
    }

    /// Counts an attempt before the password is checked, and refuses it once either the
    /// account or the address has used up its window.
    pub async fn admit(&self, account_id: &str, addr: IpAddr, now: i64) -> Result<ThrottleDecision, sqlx::Error> {
        // Hashed so that any id, however long or odd, makes a short, safe key.
        let keys = AttemptKeys {
            account: format!("acct:{}", token_hash(account_id)),
            address: format!("addr:{}", address_key(addr)),
        };
        let cutoff = now - WINDOW_MS;
        let mut retry_after_ms = 0;
        for (key, limit) in [(&keys.account, PER_ACCOUNT), (&keys.address, PER_ADDRESS)] {
            let (attempts, window_start) = self.store.count_login_attempt(key, now, cutoff).await?;
            if attempts > limit {
                retry_after_ms = retry_after_ms.max(window_start + WINDOW_MS - now);
            }
        }
        Ok(if retry_after_ms > 0 {
            ThrottleDecision::Refused {
                retry_after_secs: (retry_after_ms as u64).div_ceil(1000).max(1),
            }
        } else {
            ThrottleDecision::Allowed(keys)
        })
    }

    /// A successful login clears its account's count and takes its attempt back from the address.
    pub async fn succeeded(&self, keys: &AttemptKeys) -> Result<(), sqlx::Error> {
        self.store.clear_login_attempts(&keys.account).await?;
        self.store.uncount_login_attempt(&keys.address).await
    }
}

/// An IPv6 client controls its whole /64, so that is what is counted.
fn address_key(addr: IpAddr) -> String {
    match addr {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_counts_per_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        assert_eq!(address_key("::ffff:10.0.0.1".parse().unwrap()), "10.0.0.1");
    }
}
