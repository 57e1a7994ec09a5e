//! The server's clock: the system's time, or, for a test server (started with the hidden
//! `quentin serve --test-hooks`, which the tests give and the start lines announce), the
//! system's time plus an offset that the test hook `clock advance` moves on (no test sleeps to
//! make a clock run out).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::ids::{Millis, Moment};
use crate::spec::TimeControl;

/// A time control's times as [`Millis`] (the record crate's `TimeControl` counts plain
/// milliseconds, for the terminal's clocks too).
pub trait Timing {
    /// Each player's time at the start.
    fn start(self) -> Millis;
    /// The time for each player's first move.
    fn first_move(self) -> Millis;
    /// A player's time after their move, from what was `left`: the increment added, or a
    /// correspondence move's days afresh.
    fn after_move(self, left: Millis) -> Millis;
}

impl Timing for TimeControl {
    fn start(self) -> Millis {
        Millis(self.start_ms())
    }

    fn first_move(self) -> Millis {
        Millis(self.first_move_ms())
    }

    fn after_move(self, left: Millis) -> Millis {
        Millis(self.after_move_ms(left.0))
    }
}

/// Milliseconds since the epoch, perhaps moved on.
#[derive(Debug, Default)]
pub struct Clock {
    /// Whether `advance` is allowed: a test server's clock.
    test: bool,
    /// How far a test clock was moved on; always 0 for the system's.
    offset: AtomicI64,
    /// How far the database's clock is ahead of this machine's, when several processes share
    /// one: they all read the database's time, not each its own machine's.
    skew: AtomicI64,
}

impl Clock {
    /// The system's clock.
    #[must_use]
    pub fn new() -> Clock {
        Clock::default()
    }

    /// A clock that [`Clock::advance`] moves on: a test server's.
    #[must_use]
    pub fn for_tests() -> Clock {
        Clock {
            test: true,
            offset: AtomicI64::new(0),
            skew: AtomicI64::new(0),
        }
    }

    /// Now, in milliseconds since the epoch.
    #[must_use]
    pub fn now(&self) -> Moment {
        let real = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        Moment(real + self.offset() + self.skew.load(Ordering::Relaxed))
    }

    /// This machine's time now, without the skew: to measure the skew by.
    #[must_use]
    pub fn local(&self) -> Moment {
        self.now() - Millis(self.skew.load(Ordering::Relaxed))
    }

    /// Sets how far the database's clock is ahead of this machine's.
    pub fn set_skew(&self, skew: Millis) {
        self.skew.store(skew.0, Ordering::Relaxed);
    }

    /// How far a test clock was moved on.
    fn offset(&self) -> i64 {
        self.offset.load(Ordering::SeqCst)
    }

    /// Whether this is a test server's clock: the test hooks are answered only then.
    #[must_use]
    pub fn is_test(&self) -> bool {
        self.test
    }

    /// Moves a test clock on by `ms`; false (and nothing moved) for the real one.
    pub fn advance(&self, ms: i64) -> bool {
        if self.test {
            self.offset.fetch_add(ms, Ordering::SeqCst);
        }
        self.test
    }
}
