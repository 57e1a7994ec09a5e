//! What one client may hold of the web, counted by network block (an IPv4 /24, an IPv6 /64,
//! as the SSH gate counts): connections open, requests a second (a bucket refilled at a steady
//! rate), live streams open. One more than its share is refused, never queued, so that a slow
//! or hostile client cannot keep the others waiting: the SSH side's lockout cases applied to
//! HTTP (slow heads are cut by the connection's head deadline, in `crate::web`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// Connections open at once, in all.
pub const CONNECTIONS: usize = 1024;
/// Connections open at once from one network block.
pub const PER_BLOCK: usize = 64;
/// Requests a network block may make a second, on average.
pub const RATE: f64 = 20.0;
/// Requests a network block may make at once before its rate counts.
pub const BURST: f64 = 60.0;
/// Live streams open at once from one network block.
pub const STREAMS_PER_BLOCK: usize = 32;
/// Live streams open at once, in all.
pub const STREAMS: usize = 1000;

/// What the clients hold now.
#[derive(Default)]
struct Held {
    connections: HashMap<IpAddr, usize>,
    total: usize,
    buckets: HashMap<IpAddr, (f64, Instant)>,
    streams: HashMap<IpAddr, usize>,
    streams_total: usize,
}

/// The web's bounds, shared by its connections.
#[derive(Default)]
pub struct Bounds(Arc<Mutex<Held>>);

/// What a place is of: a connection or a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Connection,
    Stream,
}

/// A connection's or stream's place, given back when dropped.
pub struct Place {
    held: Arc<Mutex<Held>>,
    block: IpAddr,
    kind: Kind,
}

fn lock(held: &Mutex<Held>) -> std::sync::MutexGuard<'_, Held> {
    // Each change is whole: a panic between two leaves nothing half done.
    held.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Bounds {
    /// A place for a connection from `address`; none when its block or the server is full.
    #[must_use]
    pub fn admit(&self, address: IpAddr) -> Option<Place> {
        self.place(address, Kind::Connection)
    }

    /// A place for a live stream from `address`; none when its block has its share.
    #[must_use]
    pub fn stream(&self, address: IpAddr) -> Option<Place> {
        self.place(address, Kind::Stream)
    }

    fn place(&self, address: IpAddr, kind: Kind) -> Option<Place> {
        let block = crate::gate::block_of(address);
        let mut held = lock(&self.0);
        let held = &mut *held;
        let (map, total, per_block, most) = match kind {
            Kind::Connection => (
                &mut held.connections,
                &mut held.total,
                PER_BLOCK,
                CONNECTIONS,
            ),
            Kind::Stream => (
                &mut held.streams,
                &mut held.streams_total,
                STREAMS_PER_BLOCK,
                STREAMS,
            ),
        };
        let mine = map.entry(block).or_default();
        if *mine >= per_block || *total >= most {
            return None;
        }
        *mine += 1;
        *total += 1;
        Some(Place {
            held: self.0.clone(),
            block,
            kind,
        })
    }

    /// Takes one request from `address`'s bucket: false when it is empty (too many too fast).
    #[must_use]
    pub fn take(&self, address: IpAddr) -> bool {
        self.take_at(address, Instant::now())
    }

    fn take_at(&self, address: IpAddr, now: Instant) -> bool {
        let block = crate::gate::block_of(address);
        let mut held = lock(&self.0);
        // Full buckets say nothing: forgotten, so that the map holds only the busy blocks.
        if held.buckets.len() > 4 * CONNECTIONS {
            held.buckets.retain(|_, (left, since)| {
                *left + now.duration_since(*since).as_secs_f64() * RATE < BURST
            });
        }
        let (left, since) = held.buckets.entry(block).or_insert((BURST, now));
        *left = (*left + now.duration_since(*since).as_secs_f64() * RATE).min(BURST);
        *since = now;
        if *left < 1.0 {
            return false;
        }
        *left -= 1.0;
        true
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = lock(&self.held);
        let held = &mut *held;
        let (map, total) = match self.kind {
            Kind::Connection => (&mut held.connections, &mut held.total),
            Kind::Stream => (&mut held.streams, &mut held.streams_total),
        };
        if let Some(n) = map.get_mut(&self.block) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.block);
            }
        }
        *total = total.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_block_holds_its_share_of_connections_and_gets_them_back() {
        let bounds = Bounds::default();
        let one: IpAddr = [10, 0, 1, 1].into();
        let neighbour: IpAddr = [10, 0, 1, 200].into();
        let mut held: Vec<Place> = (0..PER_BLOCK).map(|_| bounds.admit(one).unwrap()).collect();
        assert!(bounds.admit(neighbour).is_none(), "the same /24 is full");
        assert!(
            bounds.admit([10, 0, 2, 1].into()).is_some(),
            "another block is not"
        );
        held.pop();
        assert!(
            bounds.admit(neighbour).is_some(),
            "a place given back is taken again"
        );
        drop(held);
        assert!(lock(&bounds.0).connections.is_empty());
    }

    #[test]
    fn a_block_s_streams_are_bounded_apart_from_its_connections() {
        let bounds = Bounds::default();
        let one: IpAddr = [10, 0, 1, 1].into();
        let held: Vec<Place> = (0..STREAMS_PER_BLOCK)
            .map(|_| bounds.stream(one).unwrap())
            .collect();
        assert!(bounds.stream(one).is_none());
        assert!(bounds.admit(one).is_some());
        drop(held);
        assert!(bounds.stream(one).is_some());
    }

    #[test]
    fn a_flood_is_refused_past_the_burst_then_let_in_at_the_rate() {
        let bounds = Bounds::default();
        let one: IpAddr = [10, 0, 1, 1].into();
        let start = Instant::now();
        let let_in = (0..200).filter(|_| bounds.take_at(one, start)).count();
        assert_eq!(let_in as f64, BURST);
        assert!(
            bounds.take_at([10, 0, 9, 1].into(), start),
            "another block is let in"
        );
        // A second later, a second's rate more.
        let later = start + Duration::from_secs(1);
        let again = (0..200).filter(|_| bounds.take_at(one, later)).count();
        assert_eq!(again as f64, RATE);
    }
}
