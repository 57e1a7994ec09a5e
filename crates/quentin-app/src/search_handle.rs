//! The run loop's handle on the computer player: start a search of a position, ask for its
//! latest report, stop it. The app never holds it: it sends [`SearchOrder`]s out and is told
//! the news back (Elm-style), so that it stays plain data that any front end can drive. Whatever is
//! behind the handle runs on its own thread and answers at once, so the screen never waits.
//!
//! [`SearchHandle`] speaks in the search crate's own [`Budget`] and [`Report`] (imported from
//! there, not named again here); the program's search
//! stands behind it in the run loop, and the state-machine tests put a scripted one there.

use crate::rules::{Action, Position};
use crate::search::{Budget, Level, Report};

/// What the app asks of the search that its front end owns and runs.
#[derive(Clone, Debug)]
pub enum SearchOrder {
    /// Search the position after these actions from the start of the game, within this budget,
    /// at this level, ending any search under way first.
    Start(Box<Position>, Vec<Action>, Budget, Level),
    /// Search the position after these actions for the review of the game: the standard
    /// review's limits ([`crate::search::review::standard_limits`]), afresh at the start of the
    /// line and with the tree of the review's search before it after, as `quentin review` does,
    /// so that the same record gets the same marks from both.
    Review(Box<Position>, Vec<Action>),
    /// End the search under way; its last report stays readable.
    Stop,
}

/// Two orders are the same when they ask the same: the same line of the same game (which
/// gives the same position), budget and level; or both stop.
impl PartialEq for SearchOrder {
    fn eq(&self, other: &SearchOrder) -> bool {
        match (self, other) {
            (SearchOrder::Start(p, line, budget, level), SearchOrder::Start(q, l, b, v)) => {
                p.setup() == q.setup() && line == l && budget == b && level == v
            }
            (SearchOrder::Review(p, line), SearchOrder::Review(q, l)) => {
                p.setup() == q.setup() && line == l
            }
            (SearchOrder::Stop, SearchOrder::Stop) => true,
            _ => false,
        }
    }
}

/// What the search has to say: its latest report, and whether it has ended.
#[derive(Clone, Debug, Default)]
pub struct SearchNews {
    /// The latest report of the search under way or just ended.
    pub report: Option<Report>,
    /// Whether it has ended: budget spent, position proven, or stopped.
    pub done: bool,
}

/// A search running on its own thread, seen from the front end that runs it. Every method returns
/// at once.
pub trait SearchHandle: Send {
    /// Starts searching `position`, reached by `line` from the start of the game, within
    /// `budget` and at `level`, ending any search under way first. The line lets a search
    /// reuse what an earlier one found about the positions before it.
    fn start(&mut self, position: &Position, line: &[Action], budget: Budget, level: Level);
    /// Starts the review's search of `position`, reached by `line` ([`SearchOrder::Review`]),
    /// ending any search under way first.
    fn start_review(&mut self, position: &Position, line: &[Action]);
    /// Asks the search under way to end; its last report stays readable.
    fn stop(&mut self);
    /// The latest report of the search under way or just ended.
    fn report(&mut self) -> Option<Report>;
    /// Whether the search has ended: budget spent, position proven, or stopped.
    fn is_done(&mut self) -> bool;
}

impl dyn SearchHandle + '_ {
    /// Carries out the app's `orders`, in order.
    pub fn obey(&mut self, orders: Vec<SearchOrder>) {
        for order in orders {
            match order {
                SearchOrder::Start(position, line, budget, level) => {
                    self.start(&position, &line, budget, level);
                }
                SearchOrder::Review(position, line) => self.start_review(&position, &line),
                SearchOrder::Stop => self.stop(),
            }
        }
    }

    /// The news for the app: whether the search has ended, then its latest report (read after,
    /// so that an ended search gives its final one).
    pub fn news(&mut self) -> SearchNews {
        let done = self.is_done();
        SearchNews {
            report: self.report(),
            done,
        }
    }
}

impl std::fmt::Debug for dyn SearchHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SearchHandle")
    }
}

/// A scripted engine for the state-machine tests: it records what it was asked and reports
/// what the test tells it to.
#[cfg(test)]
pub(crate) mod fake {
    use std::sync::{Arc, Mutex};

    use super::{Budget, Level, Report, SearchHandle};
    use crate::rules::{Action, Position};

    /// What the fake was asked and what it will answer; shared with the test.
    #[derive(Debug, Default)]
    pub(crate) struct Script {
        /// Every search started: the number of actions played before its position, its budget.
        pub started: Vec<(usize, Budget)>,
        /// The level of each search started.
        pub levels: Vec<Level>,
        /// How many stop requests came.
        pub stops: usize,
        /// Whether a search is under way.
        pub running: bool,
        /// The report to give.
        pub report: Option<Report>,
        /// Whether the search has ended.
        pub done: bool,
    }

    /// The search half of the script.
    #[derive(Debug)]
    pub(crate) struct Fake(pub Arc<Mutex<Script>>);

    impl SearchHandle for Fake {
        fn start(&mut self, position: &Position, _line: &[Action], budget: Budget, level: Level) {
            let mut s = self.0.lock().unwrap();
            s.started.push((position.ply(), budget));
            s.levels.push(level);
            s.running = true;
            s.report = None;
            s.done = false;
        }
        fn start_review(&mut self, position: &Position, line: &[Action]) {
            let budget = Budget::Playouts(crate::search::review::PLAYOUTS);
            self.start(position, line, budget, Level::FULL);
        }
        fn stop(&mut self) {
            let mut s = self.0.lock().unwrap();
            s.stops += 1;
            if s.running {
                s.running = false;
                s.done = true;
            }
        }
        fn report(&mut self) -> Option<Report> {
            self.0.lock().unwrap().report.clone()
        }
        fn is_done(&mut self) -> bool {
            self.0.lock().unwrap().done
        }
    }
}
