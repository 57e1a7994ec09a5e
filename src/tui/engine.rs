//! The interface's handle on the computer player: start a search of a position, ask for its
//! latest report, stop it. The interface never searches itself; whatever is behind the handle
//! runs on its own thread and answers at once, so the screen never waits for it.
//!
//! [`Engine`] is the handle; the program's own search stands behind it in the run loop, and the
//! state-machine tests put a scripted one there instead.

use std::time::Duration;

use crate::rules::{Action, Position};

/// How long a search may run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Wall time in seconds: a move or a hint.
    Seconds(f64),
    /// Until stopped: live analysis.
    Unlimited,
}

/// One candidate action of a report.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The action.
    pub action: Action,
    /// How often the search tried it.
    pub visits: u64,
    /// Its win chance for the side to move, 0 to 1.
    pub win: f64,
    /// The principal variation, starting with `action`.
    pub pv: Vec<Action>,
}

/// What a search thinks of its position so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Insight {
    /// The best action found, if any.
    pub best: Option<Action>,
    /// The win chance of the side to move, 0 to 1.
    pub win: f64,
    /// `Some(true)` when the side to move is proven to win, `Some(false)` to lose.
    pub proven: Option<bool>,
    /// Playouts so far.
    pub playouts: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// The candidates, most visited first.
    pub moves: Vec<Candidate>,
}

/// A search running on its own thread, seen from the interface. Every method returns at once.
pub trait Engine {
    /// Starts searching `position` within `budget`, ending any search under way first.
    fn start(&mut self, position: &Position, budget: Budget);
    /// Asks the search under way to end; its last report stays readable.
    fn stop(&mut self);
    /// The latest report of the search under way or just ended.
    fn report(&mut self) -> Option<Insight>;
    /// Whether the search has ended: budget spent, position proven, or stopped.
    fn is_done(&mut self) -> bool;
}

impl std::fmt::Debug for dyn Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Engine")
    }
}

/// A scripted engine for the state-machine tests: it records what it was asked and reports
/// what the test tells it to.
#[cfg(test)]
pub(crate) mod fake {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::{Budget, Engine, Insight};
    use crate::rules::Position;

    /// What the fake was asked and what it will answer; shared with the test.
    #[derive(Debug, Default)]
    pub(crate) struct Script {
        /// Every search started: the number of actions played before its position, its budget.
        pub started: Vec<(usize, Budget)>,
        /// How many stop requests came.
        pub stops: usize,
        /// Whether a search is under way.
        pub running: bool,
        /// The report to give.
        pub report: Option<Insight>,
        /// Whether the search has ended.
        pub done: bool,
    }

    /// The engine half of the script.
    #[derive(Debug)]
    pub(crate) struct Fake(pub Rc<RefCell<Script>>);

    /// A fake engine and the test's end of its script.
    pub(crate) fn engine() -> (Box<dyn Engine>, Rc<RefCell<Script>>) {
        let script = Rc::new(RefCell::new(Script::default()));
        (Box::new(Fake(Rc::clone(&script))), script)
    }

    impl Engine for Fake {
        fn start(&mut self, position: &Position, budget: Budget) {
            let mut s = self.0.borrow_mut();
            s.started.push((position.ply(), budget));
            s.running = true;
            s.report = None;
            s.done = false;
        }
        fn stop(&mut self) {
            let mut s = self.0.borrow_mut();
            s.stops += 1;
            if s.running {
                s.running = false;
                s.done = true;
            }
        }
        fn report(&mut self) -> Option<Insight> {
            self.0.borrow().report.clone()
        }
        fn is_done(&mut self) -> bool {
            self.0.borrow().done
        }
    }
}
