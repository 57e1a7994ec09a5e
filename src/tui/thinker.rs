//! The program's own search behind the interface's [`Engine`] handle: each search runs on its
//! own thread (the search's [`Thinker`]); this side only starts, stops and reads it.

use crate::rules::Position;
use crate::search::{self, Limits, Thinker};

use super::engine::{Budget, Candidate, Engine, Insight};

/// The search, one [`Thinker`] at a time.
pub(super) struct Searching {
    threads: usize,
    thinker: Option<Thinker>,
    /// The final report of the last search, once it ended.
    last: Option<Insight>,
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

    /// Ends the search under way, keeping its final report.
    fn end(&mut self) {
        if let Some(thinker) = self.thinker.take() {
            // Stopped first, so that joining its thread takes milliseconds.
            thinker.stop();
            self.last = Some(insight(&thinker.finish()));
        }
    }
}

/// The interface's view of a search report.
fn insight(report: &search::Report) -> Insight {
    Insight {
        best: report.best,
        win: report.win,
        proven: report
            .proven
            .as_ref()
            .map(|p| matches!(p, search::Proven::Win)),
        playouts: report.playouts,
        elapsed: report.elapsed,
        moves: report
            .moves
            .iter()
            .map(|m| Candidate {
                action: m.action,
                visits: m.visits,
                win: m.win,
                pv: m.pv.clone(),
            })
            .collect(),
    }
}

impl Engine for Searching {
    fn start(&mut self, position: &Position, budget: Budget) {
        self.end();
        self.last = None;
        let budget = match budget {
            Budget::Seconds(s) => search::Budget::Seconds(s),
            Budget::Unlimited => search::Budget::Unlimited,
        };
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

    fn report(&mut self) -> Option<Insight> {
        match &self.thinker {
            Some(thinker) => thinker.report().as_ref().map(insight),
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

impl Drop for Searching {
    fn drop(&mut self) {
        // Quitting while the computer thinks: ask it to end, but do not wait for it.
        if let Some(thinker) = &self.thinker {
            thinker.stop();
        }
    }
}
