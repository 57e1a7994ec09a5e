//! The review of a game in the app: after a game or in a replay, `v` has the search look at
//! every position of the line, one after the other, in the background (the app never waits: the
//! front end runs each search as it runs the others, [`super::computer`]); then
//! [`crate::search::review::weigh`] marks the actions, and `m`/`M` jump between the marked ones.

use crate::game_line::GameLine;
use crate::rules::{Action, Color};
use crate::search::review::explain::LINE_MAX;
use crate::search::review::{ActionReview, Review, weigh};
use crate::search::{Budget, Proven, Report};

use crate::mistakes::{Mistake, mistakes_of};

use super::{App, Effect, Mode, PuzzleNews, player_of};

/// Why a marked action loses, as the review's own searches found: the opponent's best reply
/// and the line after it (the principal variation of the search of the position after the
/// action), and what the searches proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    /// The action, its number in the line (from 1).
    pub index: usize,
    /// The refutation: legal actions from the position after the marked one, at most
    /// [`LINE_MAX`].
    pub line: Vec<Action>,
    /// A proof in words, when the searches proved one: `You had a proven win: b3 wins in 3`,
    /// `White wins in 2, proven`.
    pub proof: Option<String>,
}

/// The winner's moves of a proof whose game ends in `ends_in` actions, the first included.
fn winner_moves(ends_in: Option<u32>) -> u32 {
    ends_in.unwrap_or(1).div_ceil(2).max(1)
}

/// The best action of `report` and the length of its proof, when the report proves a win.
fn proved_win(report: &Report) -> Option<(Action, u32)> {
    if report.proven != Some(Proven::Win) {
        return None;
    }
    let best = report.best?;
    let ends_in = report
        .moves
        .iter()
        .find(|m| m.action == best)
        .and_then(|m| m.ends_in);
    Some((best, winner_moves(ends_in)))
}

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

    /// Why the action after the shown position loses, when the review marked it.
    #[must_use]
    pub fn why_here(&self) -> Option<Why> {
        let here = self.reviewed_here()?;
        here.mark?;
        self.why_of(here.index)
    }

    /// Why marked action `index` (from 1) loses, from the review's reports.
    fn why_of(&self, index: usize) -> Option<Why> {
        let review = self.review.game.as_ref()?;
        review.done.as_ref()?;
        let action = *review.line.get(index - 1)?;
        let before = self.line.start().clone();
        let before = GameLine::play_out(before, &review.line[..index - 1]).ok()?;
        let mover = before.to_move()?;
        let mut after = before.clone();
        after.play(action).ok()?;
        let report_after = review.reports.get(index);
        let mut line = Vec::new();
        if let Some(best) = report_after.and_then(|r| r.best) {
            let pv = report_after
                .and_then(|r| r.moves.iter().find(|m| m.action == best))
                .map_or(vec![best], |m| m.pv.clone());
            let mut position = after.clone();
            for a in pv.into_iter().take(LINE_MAX) {
                if position.is_over() || position.play(a).is_err() {
                    break;
                }
                line.push(a);
            }
        }
        let who = |color: Color| {
            let person = self.seats.versus.against_one_person()
                && !self.seats.versus.plays(player_of(&before, color));
            if person {
                "You".to_string()
            } else {
                color.capitalised().to_string()
            }
        };
        let thrown = review.reports.get(index - 1).and_then(proved_win);
        let against = report_after
            .filter(|r| r.to_move == Some(mover.opponent()))
            .and_then(proved_win);
        let proof = match (thrown, against) {
            (Some((best, moves)), _) if best != action => Some(format!(
                "{} had a proven win: {best} wins in {moves}",
                who(mover)
            )),
            (_, Some((_, moves))) => Some(format!(
                "{} wins in {moves}, proven",
                mover.opponent().capitalised()
            )),
            _ => None,
        };
        Some(Why { index, line, proof })
    }

    /// `w` after a review: the marked action after the shown position, then its refutation,
    /// stepped through on the board.
    pub(super) fn show_why(&mut self) -> Effect {
        if self.game_review().is_none() {
            self.warn(
                "w shows why a marked action loses, once the game is reviewed: v reviews it.",
            );
            return Effect::None;
        }
        let Some(why) = self.why_here() else {
            self.warn(
                "The action after this position is not marked: m jumps to the next marked one.",
            );
            return Effect::None;
        };
        let Some(review) = self.review.game.as_ref() else {
            return Effect::None;
        };
        let mut actions = review.line[..why.index].to_vec();
        let action = actions[why.index - 1];
        actions.extend(&why.line);
        let Ok(shown) = GameLine::replay(self.line.start().clone(), &actions) else {
            return Effect::None;
        };
        let proof = why.proof.map_or(String::new(), |p| format!(" ({p})"));
        let what = format!("Why {action} loses{proof}");
        self.show_variation(shown, why.index - 1, what);
        Effect::None
    }

    /// The players a person played (by number, less one) in a game against the computer: the
    /// one the computer did not play, live or as the record's players name it (`computer,
    /// level 5, 2 s a move`). `None` between people, or the computer against itself.
    fn own_players(&self) -> Option<[bool; 2]> {
        let live = self.seats.versus.computer;
        if live[0] != live[1] {
            return Some([!live[0], !live[1]]);
        }
        let named = self
            .seats
            .players
            .clone()
            .map(|p| p.is_some_and(|n| n.starts_with("computer")));
        (named[0] != named[1]).then_some([!named[0], !named[1]])
    }

    /// The person's mistakes and blunders in the reviewed game against the computer, as
    /// exercises; none before the review is done, or between people.
    #[must_use]
    pub fn own_mistakes(&self) -> Vec<Mistake> {
        let (Some(own), Some(review)) = (self.own_players(), self.review.game.as_ref()) else {
            return Vec::new();
        };
        let Some(done) = review.done.as_ref() else {
            return Vec::new();
        };
        mistakes_of(self.line.start(), &review.line, done, &review.reports, own)
    }

    /// `L`: the person's own mistakes, for the front end to keep with the failed puzzles and
    /// open as exercises.
    pub(super) fn learn_mistakes(&mut self) -> Effect {
        if self.game_review().is_none() {
            self.warn(
                "L offers your mistakes as exercises once the game is reviewed: v reviews it.",
            );
            return Effect::None;
        }
        if self.own_players().is_none() {
            self.warn("Learn from your mistakes follows a game against the computer.");
            return Effect::None;
        }
        let mistakes = self.own_mistakes();
        if mistakes.is_empty() {
            self.info("The review marked no mistake of yours: nothing to learn from here.");
            return Effect::None;
        }
        Effect::Puzzle(PuzzleNews::Mistakes(mistakes))
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
                let mistakes = self.own_mistakes().len();
                let learn = match mistakes {
                    0 => String::new(),
                    1 => " L: learn from your mistake.".to_string(),
                    n => format!(" L: learn from your {n} mistakes."),
                };
                self.info(format!(
                    "Review done: {marked} marked action{}; m and M jump to the next and \
                     previous.{learn}",
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
                let proof = self
                    .why_of(n)
                    .and_then(|w| w.proof)
                    .map_or(String::new(), |p| format!(" {p}."));
                self.info(format!(
                    "Action {n}, {}: {mark}{best}.{proof} w steps through why.",
                    a.action
                ));
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
