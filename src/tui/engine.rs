//! The interface's handle on the computer player: start a search of a position, ask for its
//! latest report, stop it. The interface never searches itself; whatever is behind the handle
//! runs on its own thread and answers at once, so the screen never waits for it.
//!
//! [`Engine`] is the handle, speaking in the search's own [`Budget`] and [`Report`]; the
//! program's search stands behind it in the run loop, and the state-machine tests put a
//! scripted one there instead.

use crate::rules::Position;

pub use crate::search::{Budget, MoveReport, Proven, Report};

/// A search running on its own thread, seen from the interface. Every method returns at once.
pub trait Engine {
    /// Starts searching `position` within `budget`, ending any search under way first.
    fn start(&mut self, position: &Position, budget: Budget);
    /// Asks the search under way to end; its last report stays readable.
    fn stop(&mut self);
    /// The latest report of the search under way or just ended.
    fn report(&mut self) -> Option<Report>;
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

    use super::{Budget, Engine, Report};
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
        pub report: Option<Report>,
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
        fn report(&mut self) -> Option<Report> {
            self.0.borrow().report.clone()
        }
        fn is_done(&mut self) -> bool {
            self.0.borrow().done
        }
    }
}
