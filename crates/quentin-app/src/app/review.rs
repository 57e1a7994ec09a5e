//! The review of a game in the app: after a game or in a replay, `v` has the search look at
//! every position of the line, one after the other, in the background (the app never waits: the
//! front end runs each search as it runs the others, [`super::computer`]); then
//! [`crate::search::review::weigh`] marks the actions, and `m`/`M` jump between the marked ones.

use crate::rules::Action;
use crate::search::review::{ActionReview, Review, weigh};
use crate::search::{Budget, Report};

use super::{App, Effect, Mode};

/// Playouts a position of the review: the standard review's, as `quentin review` plays them
/// without options.
pub const REVIEW_PLAYOUTS: u64 = crate::search::review::PLAYOUTS;

/// A review under way or done.
#[derive(Clone, Debug)]
pub(super) struct GameReview {
    /// The actions reviewed.
    line: Vec<Action>,
    /// The search's final report on each position searched so far, in order.
    reports: Vec<Report>,
    /// The review, once every position was searched.
    done: Option<Review>,
}

impl GameReview {
    /// The line to the next position to search, while the review is under way.
    pub(super) fn next_line(&self) -> Option<&[Action]> {
        (self.done.is_none() && self.reports.len() < self.line.len())
            .then(|| &self.line[..self.reports.len()])
    }

    /// The budget of each search.
    pub(super) const BUDGET: Budget = Budget::Playouts(REVIEW_PLAYOUTS);
}

impl App {
    /// The review, once done.
    #[must_use]
    pub fn game_review(&self) -> Option<&Review> {
        self.review.game.as_ref().and_then(|r| r.done.as_ref())
    }

    /// How far the review under way has come: positions searched, positions in all.
    #[must_use]
    pub fn review_progress(&self) -> Option<(usize, usize)> {
        self.review
            .game
            .as_ref()
            .filter(|r| r.done.is_none())
            .map(|r| (r.reports.len(), r.line.len()))
    }

    /// The review of the action that follows the shown position, when the review is done and
    /// the shown line is the one reviewed: its best action is the one to mark on the board.
    #[must_use]
    pub fn reviewed_here(&self) -> Option<&ActionReview> {
        let review = self.review.game.as_ref()?;
        let done = review.done.as_ref()?;
        let shown = self.line.played();
        if !review.line.starts_with(shown) {
            return None;
        }
        done.actions.get(self.current())
    }

    /// The mark of action `i` (from 0) of the line, when the review is done and the line is
    /// the one reviewed.
    #[must_use]
    pub fn mark_of(&self, i: usize) -> Option<crate::search::review::Mark> {
        let review = self.review.game.as_ref()?;
        let done = review.done.as_ref()?;
        (self.line.actions().get(..=i) == review.line.get(..=i))
            .then(|| done.actions.get(i).and_then(|a| a.mark))
            .flatten()
    }

    /// `v`: starts the review of the whole line, after a game or in a replay.
    pub(super) fn start_review(&mut self) -> Effect {
        if !self.computer.behind {
            self.warn(if self.online.game.is_some() {
                "This server runs no reviews: record ID over ssh takes the record home for \
                 quentin review."
            } else {
                "No computer player is available here."
            });
            return Effect::None;
        }
        if self.mode == Mode::Play {
            if !self.finished() {
                self.warn("v reviews a game once it is over, or in a replay.");
                return Effect::None;
            }
            let _ = self.review(self.current());
        }
        if self.line.actions().is_empty() {
            self.warn("There is no action to review.");
            return Effect::None;
        }
        if self
            .review
            .game
            .as_ref()
            .is_some_and(|r| r.line == self.line.actions())
        {
            self.info("This game is reviewed already: m and M jump between the marked actions.");
            return Effect::None;
        }
        self.review.game = Some(GameReview {
            line: self.line.actions().to_vec(),
            reports: Vec::new(),
            done: None,
        });
        self.info(format!(
            "Reviewing {} positions in the background; the keys work meanwhile.",
            self.line.actions().len()
        ));
        Effect::None
    }

    /// The review's search of its next position ended with `report`.
    pub(super) fn reviewed(&mut self, report: Option<Report>) {
        let Some(review) = self.review.game.as_mut() else {
            return;
        };
        let Some(report) = report else {
            self.warn("The review was stopped.");
            self.review.game = None;
            return;
        };
        review.reports.push(report);
        if review.reports.len() < review.line.len() {
            return;
        }
        let start = self.line.start();
        match weigh(start, &review.line, &review.reports) {
            Ok(done) => {
                let marked = done.actions.iter().filter(|a| a.mark.is_some()).count();
                review.done = Some(done);
                self.info(format!(
                    "Review done: {marked} marked action{}; m and M jump to the next and previous.",
                    if marked == 1 { "" } else { "s" }
                ));
            }
            Err(e) => {
                self.review.game = None;
                self.warn(format!("The review failed: {e:?}"));
            }
        }
    }

    /// `m` (or `M` for `back`): shows the position before the next (previous) marked action.
    pub(super) fn jump_to_mark(&mut self, back: bool) -> Effect {
        let Some(review) = self.game_review() else {
            self.warn("No review yet: v reviews the game.");
            return Effect::None;
        };
        // The shown position is before action `current + 1`.
        let here = self.current() + 1;
        let target = if back {
            review.previous_mark(here)
        } else {
            review.next_mark(here)
        };
        match target.and_then(|n| review.actions.get(n - 1).map(|a| (n, a.clone()))) {
            Some((n, a)) => {
                self.go_to(n - 1);
                let best = a.best.map_or(String::new(), |b| format!("; better {b}"));
                let mark = a.mark.map_or("", crate::search::review::Mark::name);
                self.info(format!("Action {n}, {}: {mark}{best}.", a.action));
            }
            None => self.warn(if back {
                "No marked action before this one."
            } else {
                "No marked action after this one."
            }),
        }
        Effect::None
    }
}

#[cfg(test)]
mod tests;
