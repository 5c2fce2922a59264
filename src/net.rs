//! Client addresses: where a request comes from (the peer, or behind a trusted proxy the
//! address it forwarded), and the key that limits count a client under.

use std::{
    fmt,
    net::{IpAddr, Ipv6Addr},
    sync::Arc,
};

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The address of the client behind a request: the peer, or with `trust_proxy` the address the
/// proxy appended last to `X-Forwarded-For` (earlier entries are whatever the client sent).
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trust_proxy: bool) -> IpAddr {
    let forwarded = || {
        headers
            .get_all("x-forwarded-for")
            .iter()
            .next_back()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|a| a.trim().parse::<IpAddr>().ok())
    };
    trust_proxy.then(forwarded).flatten().unwrap_or(peer)
}

/// A client as limits count it: an IPv4 address, or an IPv6 /64 (a client controls its whole
/// /64). IPv4-mapped IPv6 addresses count as IPv4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AddressKey(IpAddr);

impl AddressKey {
    pub fn of(addr: IpAddr) -> Self {
        match addr {
            IpAddr::V4(v4) => Self(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self(IpAddr::V4(v4)),
                None => {
                    let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                    Self(IpAddr::V6(Ipv6Addr::from(prefix)))
                }
            },
        }
    }
}

impl fmt::Display for AddressKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => v4.fmt(f),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// Networks known to be shared by many people (a campus behind a few NAT addresses): each
/// limit counted per address allows `factor` times as much from them.
/// (Cheap to clone: the real-time limits, cloned for every event, hold one.)
#[derive(Debug, Clone, Default)]
pub struct SharedNetworks {
    networks: Arc<[IpNet]>,
    factor: u32,
}

impl SharedNetworks {
    pub fn new(networks: Vec<IpNet>, factor: u32) -> Self {
        Self {
            networks: networks.into(),
            factor,
        }
    }

    pub fn factor(&self) -> u32 {
        self.factor
    }

    /// `limit` for `addr`: multiplied when it is in a shared network.
    pub fn scaled<T: From<u32> + std::ops::Mul<Output = T>>(&self, limit: T, addr: IpAddr) -> T {
        if self.contains(addr) {
            limit * T::from(self.factor)
        } else {
            limit
        }
    }

    pub fn contains(&self, addr: IpAddr) -> bool {
        let addr = AddressKey::of(addr).0;
        self.networks.iter().any(|network| network.contains(&addr))
    }
}

/// A network as `LOSTFOUND_SHARED_NETWORKS` lists it: `10.8.0.0/16`, or one address.
pub fn parse_network(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("{text:?} is not a network (such as 10.8.0.0/16) nor an address"))
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn shared_networks_are_networks_or_single_addresses() {
        let shared = SharedNetworks::new(
            ["10.8.0.0/16", "192.0.2.7", "2001:db8:5::/48"]
                .into_iter()
                .map(|n| parse_network(n).unwrap())
                .collect(),
            50,
        );
        for (addr, inside) in [
            ("10.8.200.1", true),
            ("10.9.0.1", false),
            ("192.0.2.7", true),
            ("192.0.2.8", false),
            ("::ffff:10.8.0.1", true),
            ("2001:db8:5:1::9", true),
            ("2001:db8:6::9", false),
        ] {
            let addr: IpAddr = addr.parse().unwrap();
            assert_eq!(shared.contains(addr), inside, "{addr}");
            assert_eq!(shared.scaled(10_i64, addr), if inside { 500 } else { 10 });
        }
        for bad in ["10.8.0.0/33", "campus", ""] {
            assert!(parse_network(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ipv6_counts_per_64_and_mapped_ipv4_as_ipv4() {
        let a = AddressKey::of("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = AddressKey::of("2001:db8:1:2:bbbb::2".parse().unwrap());
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "2001:db8:1:2::/64");
        assert_eq!(
            AddressKey::of("::ffff:10.0.0.1".parse().unwrap()).to_string(),
            "10.0.0.1"
        );
    }

    #[test]
    fn the_forwarded_address_only_behind_a_trusted_proxy() {
        let peer: IpAddr = "10.0.0.9".parse().unwrap();
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_static("6.6.6.6, 192.0.2.7"));
        assert_eq!(
            client_address(peer, &headers, true),
            "192.0.2.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_address(peer, &headers, false), peer);
        assert_eq!(client_address(peer, &HeaderMap::new(), true), peer);
    }
}
