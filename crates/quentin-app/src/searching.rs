//! The program's own search behind the run loop's [`SearchHandle`]: each search runs on its own
//! thread (the search's [`Thinker`]); this side only starts, stops and reads it, and keeps the
//! tree of a search that ended for the next one, as GTP and `quentin match` do.

use quentin_rules::{Action, Position};
use quentin_search::{Limits, Searcher, Thinker};

use crate::search_handle::SearchHandle;
use quentin_search::{Budget, Level, Report};

/// The search, one [`Thinker`] at a time.
pub struct Searching {
    threads: usize,
    thinker: Option<Thinker>,
    /// The line of actions to the position the thinker searches.
    line: Vec<Action>,
    /// The final report of the last search, once it ended.
    last: Option<Report>,
    /// The searcher of the last search that ended, and the line to the position it searched:
    /// its tree serves the next search of a position that follows from that one.
    kept: Option<(Searcher, Vec<Action>)>,
    /// Whether the thinker (or the kept searcher) is the review's: a review's search goes on
    /// only from the review's own, one action on, and no other search goes on from it.
    review: bool,
}

impl Searching {
    /// No search yet; each will use `threads` threads (0: the machine's cores).
    pub fn new(threads: usize) -> Searching {
        Searching {
            threads,
            thinker: None,
            line: Vec::new(),
            last: None,
            kept: None,
            review: false,
        }
    }

    /// Takes the final report of the search that has ended (its thread is done, so joining
    /// it does not wait), and keeps its searcher.
    fn end(&mut self) {
        if let Some(thinker) = self.thinker.take() {
            let (report, searcher) = thinker.finish_with();
            self.last = Some(report);
            self.kept = Some((searcher, std::mem::take(&mut self.line)));
        }
    }

    /// A searcher for the position after `line`: the kept one, its tree moved down the actions
    /// played since, when the line follows from its position; else a new one.
    fn searcher(&mut self, line: &[Action], limits: Limits) -> Searcher {
        match self.kept.take() {
            Some((mut searcher, searched)) if line.starts_with(&searched) => {
                searcher.set_limits(limits);
                for &action in &line[searched.len()..] {
                    searcher.advance(action);
                }
                searcher
            }
            _ => Searcher::new(limits),
        }
    }
}

impl SearchHandle for Searching {
    fn start_review(&mut self, position: &Position, line: &[Action]) {
        self.thinker = None;
        self.last = None;
        // As `review::review` searches: afresh at the start of the line, then the same
        // searcher moved on by each action, so that its seeds and its tree are the same.
        let searcher = match self.kept.take() {
            Some((mut searcher, searched))
                if self.review
                    && line.len() == searched.len() + 1
                    && line.starts_with(&searched) =>
            {
                searcher.advance(line[searched.len()]);
                searcher
            }
            _ => Searcher::new(quentin_search::review::standard_limits()),
        };
        self.review = true;
        self.line = line.to_vec();
        self.thinker = Some(Thinker::start_with(searcher, position.clone()));
    }

    fn start(&mut self, position: &Position, line: &[Action], budget: Budget, level: Level) {
        // A search under way is dropped, which stops it; its thread ends on its own, so that a
        // key which changes the position never waits for it. Its tree goes with it.
        self.thinker = None;
        self.last = None;
        let limits = Limits {
            budget,
            threads: self.threads,
            level,
            ..Limits::default()
        };
        if std::mem::take(&mut self.review) {
            // The review's tree is of its own limits: the next search starts afresh.
            self.kept = None;
        }
        let mut searcher = self.searcher(line, limits);
        // A hint or a full-strength move in a lost position holds out longest.
        searcher.set_resist(level.is_full());
        self.line = line.to_vec();
        self.thinker = Some(Thinker::start_with(searcher, position.clone()));
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

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::{Game, Setup};

    /// The review of `text` by the interface's `v`, run by this front end behind the app as the
    /// terminal loop runs it.
    fn reviewed_in_the_interface(text: &str) -> quentin_search::review::Review {
        use crate::app::{App, Effect, Input, Look, Versus};
        use crate::input::{Event, KeyCode, KeyEvent};
        let record = crate::record::Record::parse(text).unwrap();
        let mut app = App::replay(&record, usize::MAX, Look::FULL);
        app.set_computer(Versus::PEOPLE);
        // Several threads asked for: the review plays on one, with its own seed.
        let mut search: Box<dyn SearchHandle> = Box::new(Searching::new(2));
        let obey = |effects: Vec<Effect>, search: &mut Box<dyn SearchHandle>| {
            for effect in effects {
                if let Effect::Search(order) = effect {
                    search.obey(vec![order]);
                }
            }
        };
        let v = Event::Key(KeyEvent::from(KeyCode::Char('v')));
        obey(app.step(Input::Event(v)), &mut search);
        while app.game_review().is_none() {
            obey(app.step(Input::Search(search.news())), &mut search);
            std::thread::yield_now();
        }
        app.game_review().unwrap().clone()
    }

    #[test]
    fn the_interface_s_review_gives_the_marks_of_quentin_review_every_time() {
        use quentin_search::review;
        // Quentin 5×5: Black, able to win at once with action 15, plays a1 instead, and White
        // wins at once with d5 (tests/it/review.rs).
        let text = "game quentin\nsize 5\npie off\n\
                    c3 e4 d3 d4 e1 e3 c4 d1 c2 a4 b3 b2 c1 b5 a1 d5\n";
        let record = crate::record::Record::parse(text).unwrap();
        let library = review::review(
            &record.position_at(0),
            record.actions(),
            review::standard_limits(),
            &std::sync::atomic::AtomicBool::new(false),
            |_| {},
        )
        .unwrap();
        let first = reviewed_in_the_interface(text);
        assert_eq!(first, library);
        assert_eq!(reviewed_in_the_interface(text), first);
        // The win thrown away, which let White's line through, is marked.
        assert_eq!(
            first.actions[14].mark,
            Some(review::Mark::Blunder),
            "{first:?}"
        );
    }

    /// Starts a search of `playouts` playouts and waits for its final report.
    fn searched(
        search: &mut Searching,
        position: &Position,
        line: &[Action],
        playouts: u64,
    ) -> Report {
        search.start(position, line, Budget::Playouts(playouts), Level::FULL);
        while !search.is_done() {
            std::thread::yield_now();
        }
        search.report().unwrap()
    }

    #[test]
    fn the_next_move_reuses_the_tree_of_the_last_search() {
        let start = Setup {
            size: 5,
            ..Setup::new(Game::Quentin)
        }
        .start()
        .unwrap();
        let mut search = Searching::new(1);
        let first = searched(&mut search, &start, &[], 2_000);
        let best = first.best.unwrap();
        let known = first
            .moves
            .iter()
            .find(|m| m.action == best)
            .unwrap()
            .visits;
        let mut next = start.clone();
        next.play(best).unwrap();
        let second = searched(&mut search, &next, &[best], 2_000);
        let visits: u64 = second.moves.iter().map(|m| m.visits).sum();
        assert!(
            visits + 1 >= known + 2_000,
            "{visits} visits, {known} known"
        );
        // A line that does not follow from the last search starts afresh.
        let mut elsewhere = start.clone();
        let other = first
            .moves
            .iter()
            .find(|m| m.action != best)
            .unwrap()
            .action;
        elsewhere.play(other).unwrap();
        let fresh = searched(&mut search, &elsewhere, &[other], 500);
        let visits: u64 = fresh.moves.iter().map(|m| m.visits).sum();
        assert!(visits <= 500, "{visits}");
    }
}
