//! How many new players a network block may register an hour (`--registrations-per-hour`):
//! keys are free, and a flood of accounts (470 registered in seconds in issue 47's campaign)
//! fills the lobby and feeds rating farms. Counted per network block as the gate counts
//! connections ([`super::gate::block_of`]: an IPv4 /24, an IPv6 /64), in this process's memory.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::gate::block_of;

/// The window the limit counts in.
const HOUR: Duration = Duration::from_secs(3600);

/// The registrations of each block in the last hour.
pub struct Signups {
    most: usize,
    recent: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

impl Signups {
    /// At most `most` registrations an hour from one block.
    #[must_use]
    pub fn new(most: usize) -> Signups {
        Signups {
            most,
            recent: Mutex::default(),
        }
    }

    /// Whether a player may register from `address` now; the refusal's words when not.
    ///
    /// # Errors
    /// The block has registered its most this hour.
    pub fn may(&self, address: Option<IpAddr>) -> Result<(), String> {
        let Some(address) = address else {
            return Ok(());
        };
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        let times = recent.entry(block_of(address)).or_default();
        while times.front().is_some_and(|t| t.elapsed() >= HOUR) {
            times.pop_front();
        }
        if times.len() >= self.most {
            let wait = times
                .front()
                .map_or(HOUR, |t| HOUR.saturating_sub(t.elapsed()));
            return Err(format!(
                "too many new players from this network block: at most {} an hour; try again \
                 in {} minutes",
                self.most,
                wait.as_secs().div_ceil(60).max(1)
            ));
        }
        Ok(())
    }

    /// Counts a registration from `address`.
    pub fn counted(&self, address: Option<IpAddr>) {
        let Some(address) = address else {
            return;
        };
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        recent
            .entry(block_of(address))
            .or_default()
            .push_back(Instant::now());
        // Blocks whose hour has passed go, so that the map stays as small as the traffic.
        if recent.len() > 4096 {
            recent.retain(|_, times| times.back().is_some_and(|t| t.elapsed() < HOUR));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_registers_its_most_an_hour_and_another_block_is_apart() {
        let signups = Signups::new(2);
        let a: Option<IpAddr> = Some("10.0.0.1".parse().unwrap());
        let same_block: Option<IpAddr> = Some("10.0.0.200".parse().unwrap());
        let other: Option<IpAddr> = Some("10.0.1.1".parse().unwrap());
        for _ in 0..2 {
            assert!(signups.may(a).is_ok());
            signups.counted(a);
        }
        let refused = signups.may(same_block).unwrap_err();
        assert!(refused.starts_with("too many new players from this network block: at most 2"));
        assert!(signups.may(other).is_ok());
        assert!(signups.may(None).is_ok());
    }
}
