//! The server's places, counted apart so that one kind can never take another's: connections not
//! yet logged in (`--max-startups` in all, `--max-startups-per-address` from one address),
//! logged-in connections (`--max-sessions`) and the sessions of each key (`--sessions-per-key`).
//! Each place taken is a guard that gives it back when dropped, so that no way out of a
//! connection can keep one.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Connections not yet logged in, in all.
    pub max_startups: usize,
    /// Connections not yet logged in from one address.
    pub startups_per_address: usize,
    /// Logged-in connections.
    pub max_sessions: usize,
    /// Sessions of one key, on all its connections.
    pub sessions_per_key: usize,
}

/// Why a place was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// `--max-startups` connections are not logged in yet.
    Startups,
    /// `--max-startups-per-address` connections from this address are not logged in yet.
    Address,
    /// `--max-sessions` connections are logged in.
    Full,
    /// The key has `--sessions-per-key` sessions.
    Key(usize),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Startups => f.write_str("too many connections not logged in (--max-startups)"),
            Refused::Address => f.write_str(
                "too many connections not logged in from this address (--max-startups-per-address)",
            ),
            Refused::Full => f.write_str("the server is full: try again later"),
            Refused::Key(most) => write!(f, "too many sessions: at most {most} for one key"),
        }
    }
}

#[derive(Default)]
struct Counts {
    startups: usize,
    per_address: HashMap<IpAddr, usize>,
    logged_in: usize,
    per_key: HashMap<String, usize>,
}

/// The counts of places taken, and their bounds.
pub struct Gate {
    bounds: Bounds,
    counts: Mutex<Counts>,
}

impl Gate {
    /// No place taken yet.
    #[must_use]
    pub fn new(bounds: Bounds) -> Arc<Gate> {
        Arc::new(Gate {
            bounds,
            counts: Mutex::default(),
        })
    }

    /// The bounds.
    #[must_use]
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        // The counts are whole after any panic: each change is one statement.
        self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a connection from `address` until it logs in.
    ///
    /// # Errors
    /// Too many connections not logged in, in all or from `address`.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Result<Startup, Refused> {
        let mut counts = self.counts();
        if counts.startups >= self.bounds.max_startups {
            return Err(Refused::Startups);
        }
        let from = counts.per_address.entry(address).or_insert(0);
        if *from >= self.bounds.startups_per_address {
            return Err(Refused::Address);
        }
        *from += 1;
        counts.startups += 1;
        Ok(Startup {
            gate: self.clone(),
            address,
        })
    }

    /// A logged-in connection's place, with one session's place for `key`.
    ///
    /// # Errors
    /// The server is full, or the key has all its sessions.
    pub fn login(self: &Arc<Self>, key: &str) -> Result<(Login, KeySlot), Refused> {
        let mut counts = self.counts();
        if counts.logged_in >= self.bounds.max_sessions {
            return Err(Refused::Full);
        }
        let slot = Self::take_key(&mut counts, self, key)?;
        counts.logged_in += 1;
        Ok((Login { gate: self.clone() }, slot))
    }

    /// One more session's place for `key` (a second session on one connection).
    ///
    /// # Errors
    /// The key has all its sessions.
    pub fn another(self: &Arc<Self>, key: &str) -> Result<KeySlot, Refused> {
        Self::take_key(&mut self.counts(), self, key)
    }

    fn take_key(counts: &mut Counts, gate: &Arc<Gate>, key: &str) -> Result<KeySlot, Refused> {
        let most = gate.bounds.sessions_per_key;
        let held = counts.per_key.entry(key.to_string()).or_insert(0);
        if *held >= most {
            return Err(Refused::Key(most));
        }
        *held += 1;
        Ok(KeySlot {
            gate: gate.clone(),
            key: key.to_string(),
        })
    }

    /// Places taken now: not logged in, logged in, and the sessions of `key`.
    #[must_use]
    pub fn taken(&self, key: &str) -> (usize, usize, usize) {
        let counts = self.counts();
        let of_key = counts.per_key.get(key).copied().unwrap_or(0);
        (counts.startups, counts.logged_in, of_key)
    }
}

/// A connection's place until it logs in.
pub struct Startup {
    gate: Arc<Gate>,
    address: IpAddr,
}

impl Drop for Startup {
    fn drop(&mut self) {
        let mut counts = self.gate.counts();
        counts.startups -= 1;
        if let Some(n) = counts.per_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                counts.per_address.remove(&self.address);
            }
        }
    }
}

/// A logged-in connection's place.
pub struct Login {
    gate: Arc<Gate>,
}

impl Drop for Login {
    fn drop(&mut self) {
        self.gate.counts().logged_in -= 1;
    }
}

/// One session's place for a key.
pub struct KeySlot {
    gate: Arc<Gate>,
    key: String,
}

impl Drop for KeySlot {
    fn drop(&mut self) {
        let mut counts = self.gate.counts();
        if let Some(n) = counts.per_key.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                counts.per_key.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> Arc<Gate> {
        Gate::new(Bounds {
            max_startups: 3,
            startups_per_address: 2,
            max_sessions: 2,
            sessions_per_key: 2,
        })
    }

    #[test]
    fn startups_are_bounded_in_all_and_per_address_and_come_back() {
        let gate = gate();
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let first = gate.admit(a).unwrap();
        let _second = gate.admit(a).unwrap();
        assert_eq!(gate.admit(a).err(), Some(Refused::Address));
        let _third = gate.admit(b).unwrap();
        assert_eq!(gate.admit(b).err(), Some(Refused::Startups));
        drop(first);
        assert!(gate.admit(a).is_ok());
        assert_eq!(gate.taken("").0, 2);
    }

    #[test]
    fn logins_and_sessions_of_a_key_are_bounded_apart_from_startups() {
        let gate = gate();
        let (login, slot) = gate.login("k").unwrap();
        let extra = gate.another("k").unwrap();
        assert_eq!(gate.another("k").err(), Some(Refused::Key(2)));
        assert_eq!(gate.login("k").err(), Some(Refused::Key(2)));
        let _other = gate.login("j").unwrap();
        assert_eq!(gate.login("i").err(), Some(Refused::Full));
        // Refused logins took nothing; startups are still free.
        assert_eq!(gate.taken("k"), (0, 2, 2));
        assert!(gate.admit([10, 0, 0, 1].into()).is_ok());
        drop((login, slot, extra));
        assert_eq!(gate.taken("k"), (0, 1, 0));
    }
}
