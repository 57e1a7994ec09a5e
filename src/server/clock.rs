//! The server's clock: the system's time, or, for tests, the system's time plus an offset that
//! the `clock advance` command of a test server moves on (no test sleeps to make a clock run
//! out).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the epoch, perhaps moved on.
#[derive(Debug, Default)]
pub struct Clock {
    /// Whether `advance` is allowed: a test server's clock.
    test: bool,
    offset: AtomicI64,
}

impl Clock {
    /// The system's clock; with `test`, one that [`Clock::advance`] moves on.
    #[must_use]
    pub fn new(test: bool) -> Clock {
        Clock {
            test,
            offset: AtomicI64::new(0),
        }
    }

    /// Now, in milliseconds since the epoch.
    #[must_use]
    pub fn now(&self) -> i64 {
        let real = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        real + self.offset.load(Ordering::SeqCst)
    }

    /// Whether this is a test server's clock.
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
