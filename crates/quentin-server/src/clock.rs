//! The server's clock: the system's time, or, for tests (with the `test-hooks` feature only,
//! which the release binary is built without), the system's time plus an offset that the
//! `clock advance` command of a test server moves on (no test sleeps to make a clock run out).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the epoch, perhaps moved on.
#[derive(Debug, Default)]
pub struct Clock {
    /// Whether `advance` is allowed: a test server's clock.
    #[cfg(feature = "test-hooks")]
    test: bool,
    #[cfg(feature = "test-hooks")]
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
    #[cfg(feature = "test-hooks")]
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
    pub fn now(&self) -> i64 {
        let real = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        real + self.offset() + self.skew.load(Ordering::Relaxed)
    }

    /// This machine's time now, without the skew: to measure the skew by.
    #[must_use]
    pub fn local(&self) -> i64 {
        self.now() - self.skew.load(Ordering::Relaxed)
    }

    /// Sets how far the database's clock is ahead of this machine's.
    pub fn set_skew(&self, ms: i64) {
        self.skew.store(ms, Ordering::Relaxed);
    }

    /// How far a test clock was moved on.
    #[cfg(feature = "test-hooks")]
    fn offset(&self) -> i64 {
        self.offset.load(Ordering::SeqCst)
    }

    /// The system's clock is never moved on.
    #[cfg(not(feature = "test-hooks"))]
    fn offset(&self) -> i64 {
        0
    }

    /// Moves a test clock on by `ms`; false (and nothing moved) for the real one.
    #[cfg(feature = "test-hooks")]
    pub fn advance(&self, ms: i64) -> bool {
        if self.test {
            self.offset.fetch_add(ms, Ordering::SeqCst);
        }
        self.test
    }
}
