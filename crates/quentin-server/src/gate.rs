//! The server's places, counted apart so that one kind can never take another's: connections not
//! yet logged in (`--max-startups` in all, `--max-startups-per-address` from one address),
//! logged-in connections (`--max-sessions`) and the sessions of each key (`--sessions-per-key`).
//! Each place taken is a guard that gives it back when dropped, so that no way out of a
//! connection can keep one.
//!
//! No group of addresses can fill the places before the login (OpenSSH's `MaxStartups`,
//! `PerSourceNetBlockSize` and `PerSourcePenalties` are the model): they are counted per
//! network block (an IPv4 /24, an IPv6 /64), not per address; past half of `--max-startups`
//! a block that already has connections waiting is refused at random, more often the fuller
//! the places (random early drop, from 30 % to 100 %); when every place is taken, a newcomer
//! from a block with fewer waiting connections than the fullest block takes the place of that
//! block's oldest (which is cut), or, when no block is fuller than the newcomer's would be
//! (every block holds one), the place of the oldest connection of another block holding at
//! least as many; and a block whose connection ended without logging in is
//! refused for a few seconds (a penalty that grows with each such end, up to a minute).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The network block of an address: its /24 (IPv4) or /64 (IPv6), an IPv4 address written in
/// IPv6 taken as IPv4.
#[must_use]
pub fn block_of(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            IpAddr::from([a, b, c, 0])
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => block_of(IpAddr::V4(v4)),
            None => {
                let s = v6.segments();
                IpAddr::from([s[0], s[1], s[2], s[3], 0, 0, 0, 0])
            }
        },
    }
}

/// The penalty of a block for each connection of it that ended without logging in.
const PENALTY_STEP: Duration = Duration::from_secs(2);
/// The longest penalty.
const PENALTY_MOST: Duration = Duration::from_secs(60);
/// The random early drop's chance where it starts (half the places taken), in percent.
const EARLY_DROP_RATE: u64 = 30;

/// How a waiting connection is cut when a newcomer takes its place.
pub type Evict = Box<dyn Fn() + Send + Sync>;

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
    /// The time a connection has to log in (`--login-grace-time`): one that held its place
    /// that long without logging in puts its block under a penalty.
    pub login_grace: Duration,
}

/// Why a place was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// `--max-startups` connections are not logged in yet.
    Startups,
    /// `--max-startups-per-address` connections from this address's network block are not
    /// logged in yet.
    Address,
    /// Refused at random: many connections are not logged in, some from this block.
    EarlyDrop,
    /// Connections from this block ended without logging in a moment ago.
    Penalty,
    /// `--max-sessions` connections are logged in.
    Full,
    /// The key has `--sessions-per-key` sessions.
    Key(usize),
}

impl Refused {
    /// Its name in the metrics: `startups`, `address`, `early-drop`, `penalty`, `full`, `key`.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Refused::Startups => "startups",
            Refused::Address => "address",
            Refused::EarlyDrop => "early-drop",
            Refused::Penalty => "penalty",
            Refused::Full => "full",
            Refused::Key(_) => "key",
        }
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Startups => f.write_str("too many connections not logged in (--max-startups)"),
            Refused::Address => f.write_str(
                "too many connections not logged in from this network block (--max-startups-per-address)",
            ),
            Refused::EarlyDrop => f.write_str(
                "many connections not logged in, some from this network block: dropped at random",
            ),
            Refused::Penalty => f.write_str(
                "connections from this network block ended without logging in: refused a while",
            ),
            Refused::Full => f.write_str("the server is full: try again later"),
            Refused::Key(most) => write!(f, "too many sessions: at most {most} for one key"),
        }
    }
}

/// A connection waiting to log in, as its block's list holds it.
struct Waiting {
    id: u64,
    since: Instant,
    evict: Evict,
}

/// A block's penalty: until when, and how many ends without a login it counts.
struct Penalty {
    until: Instant,
    strikes: u32,
}

#[derive(Default)]
struct Counts {
    startups: usize,
    /// The connections waiting to log in from each network block, oldest first.
    per_block: HashMap<IpAddr, Vec<Waiting>>,
    penalties: HashMap<IpAddr, Penalty>,
    next: u64,
    /// A cheap random state for the early drop.
    seed: u64,
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

    /// A place for a connection from `address` until it logs in; `evict` cuts it, should a
    /// newcomer from a less crowded block take its place.
    ///
    /// # Errors
    /// Too many connections not logged in, in all or from `address`'s block; dropped at
    /// random; the block under a penalty.
    pub fn admit(self: &Arc<Self>, address: IpAddr, evict: Evict) -> Result<Startup, Refused> {
        let block = block_of(address);
        let now = Instant::now();
        let mut counts = self.counts();
        counts.penalties.retain(|_, p| p.until > now);
        if counts.penalties.contains_key(&block) {
            return Err(Refused::Penalty);
        }
        let from = counts.per_block.get(&block).map_or(0, Vec::len);
        if from >= self.bounds.startups_per_address {
            return Err(Refused::Address);
        }
        let full = self.bounds.max_startups;
        let start = full / 2;
        if from > 0 && counts.startups >= start && counts.startups < full {
            // Random early drop, only for the blocks already waiting: a newcomer's block never.
            let chance = EARLY_DROP_RATE
                + (100 - EARLY_DROP_RATE) * (counts.startups - start) as u64
                    / (full - start).max(1) as u64;
            counts.seed = counts
                .seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407 ^ now.elapsed().as_nanos() as u64);
            if (counts.seed >> 33) % 100 < chance {
                return Err(Refused::EarlyDrop);
            }
        }
        if counts.startups >= full {
            // Every place taken: the fullest block gives its oldest to a less crowded one; when
            // none is fuller than the newcomer's would be (every block holds one, say), the
            // oldest connection of a block holding as many gives its place, as OpenSSH's
            // random early drop would let a newcomer in.
            let fullest = counts
                .per_block
                .iter()
                .max_by_key(|(_, waiting)| waiting.len())
                .filter(|(_, waiting)| waiting.len() > from + 1)
                .map(|(b, _)| *b)
                .or_else(|| {
                    counts
                        .per_block
                        .iter()
                        .filter(|(b, waiting)| **b != block && waiting.len() > from)
                        .filter_map(|(b, waiting)| Some((*b, waiting.first()?.since)))
                        .min_by_key(|(_, since)| *since)
                        .map(|(b, _)| b)
                });
            let Some(fullest) = fullest else {
                return Err(Refused::Startups);
            };
            if let Some(waiting) = counts.per_block.get_mut(&fullest) {
                let oldest = waiting.remove(0);
                counts.startups -= 1;
                (oldest.evict)();
                strike(&mut counts, fullest, now);
            }
        }
        counts.next += 1;
        let id = counts.next;
        counts.per_block.entry(block).or_default().push(Waiting {
            id,
            since: now,
            evict,
        });
        counts.startups += 1;
        Ok(Startup {
            gate: self.clone(),
            block,
            id,
            logged_in: false,
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

    /// Strikes the block of `address`, as a place held for the whole grace does: its
    /// connection did not even send its SSH version line in time.
    pub fn strike(&self, address: IpAddr) {
        strike(&mut self.counts(), block_of(address), Instant::now());
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
    block: IpAddr,
    id: u64,
    logged_in: bool,
}

impl Startup {
    /// The connection logged in: its place is given back, and its block is not penalised.
    pub fn logged_in(mut self) {
        self.logged_in = true;
    }
}

impl Drop for Startup {
    fn drop(&mut self) {
        let grace = self.gate.bounds.login_grace;
        let mut counts = self.gate.counts();
        // An evicted place was given back (and its block struck) when it was taken.
        if let Some(waiting) = counts.per_block.get_mut(&self.block)
            && let Some(at) = waiting.iter().position(|w| w.id == self.id)
        {
            let gone = waiting.remove(at);
            if waiting.is_empty() {
                counts.per_block.remove(&self.block);
            }
            counts.startups -= 1;
            // Held for the whole grace without logging in: the block waits a while.
            let now = Instant::now();
            if !self.logged_in && now.duration_since(gone.since) >= grace {
                strike(&mut counts, self.block, now);
            }
        }
    }
}

/// One more strike against `block`: refused for longer each time, up to [`PENALTY_MOST`].
fn strike(counts: &mut Counts, block: IpAddr, now: Instant) {
    let penalty = counts.penalties.entry(block).or_insert(Penalty {
        until: now,
        strikes: 0,
    });
    penalty.strikes = penalty.strikes.saturating_add(1);
    penalty.until = now + (PENALTY_STEP * penalty.strikes).min(PENALTY_MOST);
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
            login_grace: Duration::ZERO,
        })
    }

    #[test]
    fn startups_are_bounded_in_all_and_per_address_and_come_back() {
        let gate = gate();
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 1, 2].into();
        let first = gate.admit(a, nothing()).unwrap();
        let _b = gate.admit(b, nothing()).unwrap();
        let _c = gate.admit([10, 0, 9, 1].into(), nothing()).unwrap();
        // Full, and no block fuller than the newcomer's would be: refused.
        assert_eq!(gate.admit(a, nothing()).err(), Some(Refused::Startups));
        first.logged_in();
        assert_eq!(gate.taken("").0, 2);
        // Per network block: a /24 counts as one.
        let roomy = Gate::new(Bounds {
            max_startups: 10,
            ..gate.bounds()
        });
        let _one = roomy.admit(a, nothing()).unwrap();
        let _two = roomy.admit([10, 0, 0, 2].into(), nothing()).unwrap();
        assert_eq!(roomy.admit(a, nothing()).err(), Some(Refused::Address));
        assert_eq!(
            roomy.admit([10, 0, 0, 200].into(), nothing()).err(),
            Some(Refused::Address)
        );
        assert!(roomy.admit(b, nothing()).is_ok());
    }

    fn nothing() -> Evict {
        Box::new(|| {})
    }

    #[test]
    fn a_newcomer_takes_the_place_of_the_fullest_blocks_oldest_and_a_block_that_never_logs_in_waits()
     {
        let gate = Gate::new(Bounds {
            max_startups: 4,
            startups_per_address: 2,
            max_sessions: 2,
            sessions_per_key: 2,
            login_grace: Duration::ZERO,
        });
        let cut = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let evict = || -> Evict {
            let cut = cut.clone();
            Box::new(move || {
                cut.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            })
        };
        let mut held = Vec::new();
        // Past half the places, a block already waiting may be dropped at random: tried again.
        while gate.taken("").0 < 4 {
            for block in [1u8, 2] {
                if let Ok(s) = gate.admit([10, 0, block, 1].into(), evict()) {
                    held.push((block, s));
                }
            }
        }
        // Full: a newcomer from a third block takes the oldest place of a fullest one.
        let newcomer = gate.admit([10, 0, 3, 1].into(), evict()).unwrap();
        assert_eq!(cut.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!(gate.taken("").0, 4);
        // A connection that ends without logging in puts its block under a penalty.
        let (block, ended) = held.pop().unwrap();
        drop(ended);
        assert_eq!(
            gate.admit([10, 0, block, 7].into(), evict()).err(),
            Some(Refused::Penalty)
        );
        newcomer.logged_in();
        for (_, s) in held {
            s.logged_in();
        }
    }

    #[test]
    fn when_every_block_holds_one_a_newcomer_takes_the_oldest_s_place() {
        let gate = Gate::new(Bounds {
            max_startups: 4,
            startups_per_address: 2,
            max_sessions: 2,
            sessions_per_key: 2,
            login_grace: Duration::from_secs(60),
        });
        let cut = Arc::new(Mutex::new(Vec::new()));
        let evict = |n: u8| -> Evict {
            let cut = cut.clone();
            Box::new(move || cut.lock().unwrap().push(n))
        };
        // Four blocks, one each (a newcomer's block is never dropped at random).
        let held: Vec<Startup> = (1..=4)
            .map(|n| gate.admit([10, 0, n, 1].into(), evict(n)).unwrap())
            .collect();
        let newcomer = gate.admit([10, 0, 9, 1].into(), evict(9)).unwrap();
        assert_eq!(*cut.lock().unwrap(), [1], "the oldest gave its place");
        assert_eq!(gate.taken("").0, 4);
        // A second from the newcomer's block is fuller than every other: refused.
        assert_eq!(
            gate.admit([10, 0, 9, 2].into(), evict(9)).err(),
            Some(Refused::Startups)
        );
        newcomer.logged_in();
        for s in held {
            s.logged_in();
        }
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
        assert!(gate.admit([10, 0, 0, 1].into(), nothing()).is_ok());
        drop((login, slot, extra));
        assert_eq!(gate.taken("k"), (0, 1, 0));
    }
}
