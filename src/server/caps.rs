//! Caps on open connections, in total and per client address: over a cap, a new connection
//! is closed at once. A guard holds a connection's place until the connection ends.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use crate::net::AddressKey;

pub struct ConnectionCaps {
    /// `None`: no cap.
    total: Option<usize>,
    per_address: Option<usize>,
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
    pub fn new(total: usize, per_address: usize) -> Arc<Self> {
        Arc::new(Self {
            total: (total > 0).then_some(total),
            per_address: (per_address > 0).then_some(per_address),
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

    pub fn admit_address(self: &Arc<Self>, address: AddressKey) -> Option<AddressGuard> {
        let mut open = self.open.lock().expect("the caps lock is never poisoned");
        let count = open.by_address.entry(address).or_default();
        if self.per_address.is_some_and(|cap| *count >= cap) {
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
        let caps = ConnectionCaps::new(3, 2);
        let a = AddressKey::of("10.0.0.1".parse().unwrap());
        let b = AddressKey::of("10.0.0.2".parse().unwrap());
        let first = (caps.admit().unwrap(), caps.admit_address(a).unwrap());
        let second = (caps.admit().unwrap(), caps.admit_address(a).unwrap());
        assert!(caps.admit_address(a).is_none(), "a third from one address");
        let other = (caps.admit().unwrap(), caps.admit_address(b).unwrap());
        assert!(caps.admit().is_none(), "a fourth in all");
        drop(first);
        assert!(caps.admit().is_some() && caps.admit_address(a).is_some());
        drop((second, other));
        let unlimited = ConnectionCaps::new(0, 0);
        let many: Vec<_> = (0..100).map(|_| unlimited.admit_address(a).unwrap()).collect();
        assert_eq!(many.len(), 100);
    }
}
