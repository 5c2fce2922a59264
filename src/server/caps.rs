//! Caps on open connections, in total and per client address (the addresses of shared
//! networks get their factor times as many): over a cap, a new connection is closed at once.
//! A guard holds a connection's place until the connection ends.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex},
};

use crate::net::{AddressKey, SharedNetworks};

pub struct ConnectionCaps {
    /// `None`: no cap.
    total: Option<usize>,
    per_address: Option<usize>,
    shared: SharedNetworks,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    total: usize,
    by_address: HashMap<AddressKey, usize>,
}

/// A place among all open connections.
pub struct TotalGuard(Arc<ConnectionCaps>);

/// A place among one address's open connections.
pub struct AddressGuard(Arc<ConnectionCaps>, AddressKey);

impl ConnectionCaps {
    /// 0 means no cap.
    pub fn new(total: usize, per_address: usize, shared: SharedNetworks) -> Arc<Self> {
        Arc::new(Self {
            total: (total > 0).then_some(total),
            per_address: (per_address > 0).then_some(per_address),
            shared,
            open: Mutex::default(),
        })
    }

    pub fn admit(self: &Arc<Self>) -> Option<TotalGuard> {
        let mut open = self.open.lock().expect("the caps lock is never poisoned");
        if self.total.is_some_and(|cap| open.total >= cap) {
            return None;
        }
        open.total += 1;
        crate::metrics::http_connection(true);
        Some(TotalGuard(Arc::clone(self)))
    }

    pub fn admit_address(self: &Arc<Self>, addr: IpAddr) -> Option<AddressGuard> {
        let cap = self.per_address.map(|cap| self.shared.scaled(cap as u64, addr));
        let address = AddressKey::of(addr);
        let mut open = self.open.lock().expect("the caps lock is never poisoned");
        let count = open.by_address.entry(address).or_default();
        if cap.is_some_and(|cap| *count as u64 >= cap) {
            return None;
        }
        *count += 1;
        Some(AddressGuard(Arc::clone(self), address))
    }
}

impl Drop for TotalGuard {
    fn drop(&mut self) {
        self.0.open.lock().expect("the caps lock is never poisoned").total -= 1;
        crate::metrics::http_connection(false);
    }
}

impl Drop for AddressGuard {
    fn drop(&mut self) {
        let mut open = self.0.open.lock().expect("the caps lock is never poisoned");
        if let Some(count) = open.by_address.get_mut(&self.1) {
            *count -= 1;
            if *count == 0 {
                open.by_address.remove(&self.1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_hold_and_places_come_back() {
        let caps = ConnectionCaps::new(3, 2, SharedNetworks::default());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = (caps.admit().unwrap(), caps.admit_address(a).unwrap());
        let second = (caps.admit().unwrap(), caps.admit_address(a).unwrap());
        assert!(caps.admit_address(a).is_none(), "a third from one address");
        let other = (caps.admit().unwrap(), caps.admit_address(b).unwrap());
        assert!(caps.admit().is_none(), "a fourth in all");
        drop(first);
        assert!(caps.admit().is_some() && caps.admit_address(a).is_some());
        drop((second, other));
        let unlimited = ConnectionCaps::new(0, 0, SharedNetworks::default());
        let many: Vec<_> = (0..100).map(|_| unlimited.admit_address(a).unwrap()).collect();
        assert_eq!(many.len(), 100);
    }

    #[test]
    fn a_shared_network_holds_its_factor_times_as_many() {
        let campus = crate::net::parse_network("10.8.0.0/16").unwrap();
        let caps = ConnectionCaps::new(0, 2, SharedNetworks::new(vec![campus], 3));
        let (inside, outside): (IpAddr, IpAddr) = ("10.8.1.1".parse().unwrap(), "10.9.1.1".parse().unwrap());
        let held: Vec<_> = (0..6).map(|_| caps.admit_address(inside).unwrap()).collect();
        assert!(
            caps.admit_address(inside).is_none(),
            "a seventh from the shared address"
        );
        let elsewhere: Vec<_> = (0..2).map(|_| caps.admit_address(outside).unwrap()).collect();
        assert!(caps.admit_address(outside).is_none());
        drop((held, elsewhere));
    }
}
