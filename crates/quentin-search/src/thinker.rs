//! [`Thinker`]: one search on its own thread, for an interface that must never block.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use quentin_rules::Position;

use super::{Limits, Report, Searcher};

/// What the thinking thread and its handle share.
#[derive(Default)]
struct Shared {
    stop: AtomicBool,
    done: AtomicBool,
    latest: Mutex<Option<Report>>,
}

/// A search running on its own thread. Every method returns at once except [`Thinker::finish`],
/// which waits for the thread (promptly once stopped or done).
///
/// ```
/// use quentin_rules::{Game, Setup};
/// use quentin_search::{Budget, Limits, Thinker};
/// let position = Setup { size: 5, ..Setup::new(Game::Quentin) }.start().unwrap();
/// let limits = Limits { budget: Budget::Playouts(200), threads: 1, seed: Some(1), ..Limits::default() };
/// let thinker = Thinker::start(position.clone(), limits);
/// let report = thinker.finish();
/// assert!(position.is_legal(report.best.unwrap()));
/// ```
pub struct Thinker {
    shared: Arc<Shared>,
    handle: Option<JoinHandle<(Report, Searcher)>>,
}

impl Thinker {
    /// Starts searching `position` within `limits` with a fresh tree.
    #[must_use]
    pub fn start(position: Position, limits: Limits) -> Thinker {
        Thinker::start_with(Searcher::new(limits), position)
    }

    /// Starts searching `position` with `searcher`, whose tree from earlier moves is reused when
    /// `position` follows from them (see [`Searcher::advance`]); [`Thinker::finish_with`] gives
    /// the searcher back.
    #[must_use]
    pub fn start_with(mut searcher: Searcher, position: Position) -> Thinker {
        let shared = Arc::new(Shared::default());
        let inner = Arc::clone(&shared);
        let handle = std::thread::spawn(move || {
            let report = searcher.search(&position, &inner.stop, |r| {
                if let Ok(mut latest) = inner.latest.lock() {
                    *latest = Some(r.clone());
                }
            });
            inner.done.store(true, Ordering::Release);
            (report, searcher)
        });
        Thinker {
            shared,
            handle: Some(handle),
        }
    }

    /// The latest progress report, refreshed at least ten times a second; `None` before the
    /// first.
    #[must_use]
    pub fn report(&self) -> Option<Report> {
        self.shared.latest.lock().ok().and_then(|r| r.clone())
    }

    /// Asks the search to end; it ends within milliseconds with the best action so far.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the search has ended: budget spent, position proved, or stopped.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.shared.done.load(Ordering::Acquire)
    }

    /// Waits for the search to end and gives its final report.
    #[must_use]
    pub fn finish(self) -> Report {
        self.finish_with().0
    }

    /// Waits for the search to end and gives its final report and the searcher, whose tree can
    /// serve the next move.
    ///
    /// # Panics
    /// When the search thread panicked: a bug, passed on to the caller.
    #[must_use]
    pub fn finish_with(mut self) -> (Report, Searcher) {
        let handle = self.handle.take();
        match handle.map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            // The handle is taken only here, by value: it is always present.
            None => unreachable!("a Thinker is finished once"),
        }
    }
}

impl Drop for Thinker {
    /// A thinker dropped unfinished stops its search; the thread ends on its own.
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}
