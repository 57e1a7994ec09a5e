//! The program's own search behind the run loop's [`SearchHandle`]: each search runs on its own
//! thread (the search's [`Thinker`]); this side only starts, stops and reads it.

use crate::rules::Position;
use crate::search::{Limits, Thinker};

use super::search_handle::{Budget, Report, SearchHandle};

/// The search, one [`Thinker`] at a time.
pub(super) struct Searching {
    threads: usize,
    thinker: Option<Thinker>,
    /// The final report of the last search, once it ended.
    last: Option<Report>,
}

impl Searching {
    /// No search yet; each will use `threads` threads (0: the machine's cores).
    pub(super) fn new(threads: usize) -> Searching {
        Searching {
            threads,
            thinker: None,
            last: None,
        }
    }

    /// Takes the final report of the search that has ended (its thread is done, so joining
    /// it does not wait).
    fn end(&mut self) {
        if let Some(thinker) = self.thinker.take() {
            self.last = Some(thinker.finish());
        }
    }
}

impl SearchHandle for Searching {
    fn start(&mut self, position: &Position, budget: Budget) {
        // A search under way is dropped, which stops it; its thread ends on its own, so that a
        // key which changes the position never waits for it.
        self.thinker = None;
        self.last = None;
        let limits = Limits {
            budget,
            threads: self.threads,
            ..Limits::default()
        };
        self.thinker = Some(Thinker::start(position.clone(), limits));
    }

    fn stop(&mut self) {
        if let Some(thinker) = &self.thinker {
            thinker.stop();
        }
    }

    fn report(&mut self) -> Option<Report> {
        match &self.thinker {
            Some(thinker) => thinker.report(),
            None => self.last.clone(),
        }
    }

    fn is_done(&mut self) -> bool {
        if self.thinker.as_ref().is_some_and(Thinker::is_done) {
            self.end();
        }
        self.thinker.is_none()
    }
}
