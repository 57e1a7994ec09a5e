//! The review of a game: every position of a line of play searched, and each action weighed
//! against the best one: the mover's win chance before and after it, and a mark for the actions
//! that lost much of it. One pure place that `quentin review` and the interface both call.
//!
//! Win chances are those of [`Report::chance`] (a proved win counts 1, a proved loss 0); the
//! chance after an action is the mover's once the opponent is to move, `1 -` the opponent's
//! chance in the next position, or the result when the action ended the game.

pub mod explain;

use std::sync::atomic::{AtomicBool, Ordering};

use quentin_rules::{Action, Color, Illegal, Position};

use crate::{Budget, Level, Limits, Report, Searcher};

/// Playouts a position of the standard review: a few seconds for a whole game of Quentin 13×13
/// on one core.
pub const PLAYOUTS: u64 = 20_000;
/// The seed of the standard review.
pub const SEED: u64 = 1;

/// The limits of the standard review, the interface's `v` and `quentin review` without options:
/// [`PLAYOUTS`] a position on one thread with the seed [`SEED`], so that the same record gets
/// the same marks on every run, in both front ends, on every machine.
#[must_use]
pub fn standard_limits() -> Limits {
    Limits {
        budget: Budget::Playouts(PLAYOUTS),
        threads: 1,
        seed: Some(SEED),
        nodes: 0,
        level: Level::FULL,
    }
}

/// The least loss of win chance that marks an action: an [`Mark::Inaccuracy`].
pub const INACCURACY: f64 = 0.10;
/// The least loss of a [`Mark::Mistake`].
pub const MISTAKE: f64 = 0.20;
/// The least loss of a [`Mark::Blunder`]; a proved win turned into a proved loss loses all of
/// it (1 to 0), a blunder too.
pub const BLUNDER: f64 = 0.30;

/// How much an action threw away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// Lost [`INACCURACY`] of the win chance or more.
    Inaccuracy,
    /// Lost [`MISTAKE`] or more.
    Mistake,
    /// Lost [`BLUNDER`] or more, or turned a proved win into a proved loss.
    Blunder,
}

impl Mark {
    /// The mark of an action that lost `loss` (from 0 to 1) of the mover's win chance.
    #[must_use]
    pub fn of_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// `?!`, `?` or `??`: the sign beside the action, as chess writes them, in the interface's
    /// list and in `quentin review`'s text alike.
    #[must_use]
    pub const fn sign(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// `inaccuracy`, `mistake` or `blunder`, as JSON and people read it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// One action of the line, weighed.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionReview {
    /// Its number in the line, from 1.
    pub index: usize,
    /// Who played it: 1 for the player who made the first action of the game, 2 for the other
    /// (after a swap, player 1 is White).
    pub player: u8,
    /// The colour it was played for.
    pub colour: Color,
    /// The action.
    pub action: Action,
    /// The mover's chance of winning before it, with best play ([`Report::chance`]); `None`
    /// when the search made too few playouts to say.
    pub win_before: Option<f64>,
    /// The mover's chance after it: `1 -` the opponent's chance in the next position, or 1, 0
    /// or ½ when it ended the game with a win, a loss or a draw.
    pub win_after: Option<f64>,
    /// The action the search prefers in the position before it.
    pub best: Option<Action>,
    /// The mover's chance with `best`.
    pub best_win: Option<f64>,
    /// How much it threw away; never set on the search's own best action.
    pub mark: Option<Mark>,
}

impl ActionReview {
    /// The win chance it lost (0 when it gained), when both chances are known.
    #[must_use]
    pub fn loss(&self) -> Option<f64> {
        Some((self.win_before? - self.win_after?).max(0.0))
    }

    /// Black's chance of winning after it, when known.
    #[must_use]
    pub fn black_after(&self) -> Option<f64> {
        self.win_after.map(|w| {
            if self.colour_after() == Color::Black {
                w
            } else {
                1.0 - w
            }
        })
    }

    /// The mover's colour once the action is played: a swap exchanges the colours.
    fn colour_after(&self) -> Color {
        after_colour(self.colour, self.action)
    }
}

/// What one player's actions came to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSummary {
    /// The actions they played.
    pub actions: usize,
    /// Their actions marked [`Mark::Inaccuracy`].
    pub inaccuracies: usize,
    /// Their actions marked [`Mark::Mistake`].
    pub mistakes: usize,
    /// Their actions marked [`Mark::Blunder`].
    pub blunders: usize,
    /// The mean win chance lost a move, over the actions whose chances are known; `None` when
    /// there is none.
    pub average_loss: Option<f64>,
}

/// A whole line reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Each action, in order.
    pub actions: Vec<ActionReview>,
    /// Player 1's summary, then player 2's.
    pub summary: [PlayerSummary; 2],
    /// Black's chance of winning at the start, when known.
    pub black_at_start: Option<f64>,
}

impl Review {
    /// Black's chance of winning after each number of actions, from 0 (the start) to the end,
    /// where known: the points of the win-chance graph.
    #[must_use]
    pub fn black_chances(&self) -> Vec<(usize, f64)> {
        let start = self.black_at_start.map(|c| (0, c));
        start
            .into_iter()
            .chain(
                self.actions
                    .iter()
                    .filter_map(|a| a.black_after().map(|c| (a.index, c))),
            )
            .collect()
    }

    /// The number of the next marked action after action `from` (0: from the start), if any.
    #[must_use]
    pub fn next_mark(&self, from: usize) -> Option<usize> {
        self.actions
            .iter()
            .find(|a| a.index > from && a.mark.is_some())
            .map(|a| a.index)
    }

    /// The number of the last marked action before action `from`, if any.
    #[must_use]
    pub fn previous_mark(&self, from: usize) -> Option<usize> {
        self.actions
            .iter()
            .rev()
            .find(|a| a.index < from && a.mark.is_some())
            .map(|a| a.index)
    }
}

/// How far a review has come: `done` positions of `total` searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions searched.
    pub done: usize,
    /// Positions to search: one before each action.
    pub total: usize,
}

/// Why a line was not reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreviewed {
    /// `stop` was set before the end.
    Stopped,
    /// The action of this number (from 1) is illegal where it is played.
    Illegal(usize, Illegal),
}

/// Reviews the line `actions` played from `start`: each position before an action searched
/// within `limits` (the tree kept from one position to the next), calling `on_progress` before
/// each search and at the end. With one thread, a seed and a budget of playouts, the same line
/// gives the same review on every run.
///
/// # Errors
/// [`Unreviewed::Stopped`] when `stop` was set before the end, [`Unreviewed::Illegal`] for a
/// line that is not one.
pub fn review(
    start: &Position,
    actions: &[Action],
    limits: Limits,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(Progress),
) -> Result<Review, Unreviewed> {
    let total = actions.len();
    let mut searcher = Searcher::new(limits);
    let mut position = start.clone();
    let mut reports: Vec<Report> = Vec::with_capacity(total);
    for (done, &action) in actions.iter().enumerate() {
        on_progress(Progress { done, total });
        if stop.load(Ordering::Relaxed) {
            return Err(Unreviewed::Stopped);
        }
        // Checked before the search, which would be wasted on a line that is not one.
        if let Err(e) = position.preview(action) {
            return Err(Unreviewed::Illegal(done + 1, e));
        }
        reports.push(searcher.search(&position, stop, |_| {}));
        if stop.load(Ordering::Relaxed) {
            return Err(Unreviewed::Stopped);
        }
        if let Err(e) = position.play(action) {
            return Err(Unreviewed::Illegal(done + 1, e));
        }
        searcher.advance(action);
    }
    on_progress(Progress { done: total, total });
    weigh(start, actions, &reports)
}

/// The review of the line `actions` played from `start`, given the search's report on the
/// position before each action (`reports[i]` before `actions[i]`): for a front end that runs the
/// searches itself, one by one. Only the actions with a report are weighed.
///
/// # Errors
/// [`Unreviewed::Illegal`] for a line that is not one.
pub fn weigh(
    start: &Position,
    actions: &[Action],
    reports: &[Report],
) -> Result<Review, Unreviewed> {
    let n = actions.len().min(reports.len());
    let (actions, reports) = (&actions[..n], &reports[..n]);
    let mut position = start.clone();
    let mut movers: Vec<(u8, Color)> = Vec::with_capacity(actions.len());
    for (i, &action) in actions.iter().enumerate() {
        movers.push(mover(&position));
        if let Err(e) = position.play(action) {
            return Err(Unreviewed::Illegal(i + 1, e));
        }
    }
    let end = result(&position);
    let reviewed: Vec<ActionReview> = actions
        .iter()
        .enumerate()
        .map(|(i, &action)| {
            let (player, colour) = movers[i];
            let report = &reports[i];
            let win_before = report.chance();
            let win_after = match reports.get(i + 1) {
                Some(next) => next.chance().map(|c| {
                    if movers[i + 1].0 == player {
                        c
                    } else {
                        1.0 - c
                    }
                }),
                // The last action: the game's result for its mover, if it ended.
                None => end.map(|winner| match winner {
                    Some(w) if w == after_colour(colour, action) => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                }),
            };
            let best_win = report
                .moves
                .iter()
                .find(|m| Some(m.action) == report.best)
                .and_then(crate::MoveReport::chance)
                .or(win_before);
            let mut reviewed = ActionReview {
                index: i + 1,
                player,
                colour,
                action,
                win_before,
                win_after,
                best: report.best,
                best_win,
                mark: None,
            };
            if report.best != Some(action) {
                reviewed.mark = reviewed.loss().and_then(Mark::of_loss);
            }
            reviewed
        })
        .collect();
    let black_at_start = reports.first().and_then(|r| {
        r.chance().map(|c| {
            if movers[0].1 == Color::Black {
                c
            } else {
                1.0 - c
            }
        })
    });
    Ok(Review {
        summary: [summary(&reviewed, 1), summary(&reviewed, 2)],
        actions: reviewed,
        black_at_start,
    })
}

/// Who is to move at `position` (which is not over): their player number and colour.
fn mover(position: &Position) -> (u8, Color) {
    let colour = position.to_move().unwrap_or(Color::Black);
    // Player 1 made the first action, as Black; a swap exchanges the colours.
    let player = if (colour == Color::Black) != position.swapped() {
        1
    } else {
        2
    };
    (player, colour)
}

/// The colour of the mover of `action` once it is played.
fn after_colour(colour: Color, action: Action) -> Color {
    if action == Action::Swap {
        colour.opponent()
    } else {
        colour
    }
}

/// The result of a finished game: `Some(Some(winner))`, `Some(None)` for a draw; `None` when
/// it goes on.
fn result(position: &Position) -> Option<Option<Color>> {
    position.outcome().map(quentin_rules::Outcome::winner)
}

/// The summary of `player`'s actions.
fn summary(actions: &[ActionReview], player: u8) -> PlayerSummary {
    let mine: Vec<&ActionReview> = actions.iter().filter(|a| a.player == player).collect();
    let count = |mark| mine.iter().filter(|a| a.mark == Some(mark)).count();
    let losses: Vec<f64> = mine.iter().filter_map(|a| a.loss()).collect();
    PlayerSummary {
        actions: mine.len(),
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
        average_loss: (!losses.is_empty())
            .then(|| losses.iter().sum::<f64>() / losses.len() as f64),
    }
}

#[cfg(test)]
mod tests;
