//! Levels: how strongly the computer plays, from 1 (a beginner's match) to 10 (full strength).
//!
//! Level 10 is the whole search: every playout the budget allows, on every thread, the prior
//! at expansion (`tree/prior.rs`), and the report's best action. Below it the computer is
//! weaker on purpose, and plays as a weaker player would, not at random (and without the
//! prior: the ladder was measured without it):
//!
//! - **Fewer playouts**: a fixed number a move, on one thread, so that a level plays alike on
//!   every machine and whatever else the machine is doing (the think time still caps it, on
//!   boards too large for it). They are added to what the tree keeps from earlier moves, as
//!   full strength adds its think time's. There are two tables, one measured on 9×9 and one on
//!   13×13 (from 209 and 100 playouts at level 1 to 120,000 and 36,000 at level 9): a board
//!   smaller than 9×9 or larger than 13×13 scales the nearest table's number by its points, as
//!   full strength's playouts in a given time scale, so that a level keeps its share of full
//!   strength's effort; a board between the two goes between the tables ([`schedule`]).
//!   Two tables, not one scaled, because the horizon below wins more games on the larger
//!   board: with the 9×9 table scaled, the middle of the 13×13 ladder stretched past the 85 %
//!   a step may take, while 9×9 stayed within it.
//! - **A choice that gives some win chance away**: each level has a loss, the win chance its
//!   move gives away on average against the action full strength would play. The actions are
//!   drawn as the search ranks them, by their playouts to the power `1 / t` (sampling the
//!   root's visits with a temperature, as AlphaZero's early moves do), and the temperature `t`
//!   is set afresh for each move so that the draw gives away the level's loss on average, an
//!   action's loss being how far its win chance falls short of the best action's (all actions
//!   alike when even that gives away less: a position where nothing matters). So a level errs
//!   among the moves the search found plausible, more where they differ little, and a move's
//!   odds never rest on the win share of a few lucky playouts. The loss runs from 0.5 at level
//!   1 on 9×9 (about every action alike: random play near the stones, a little below `greedy`)
//!   down to 0.0004 at level 9; each table has its own.
//!
//! - **A horizon, not a dice roll** (`level/horizon.rs`): before the draw, the actions are
//!   narrowed by what a player of the level's strength never misses, from what the search
//!   proved when it expanded the root: from level 3 up a win at once is always taken, from
//!   level 5 up an action proved lost (one that leaves the opponent a win at once) is never
//!   drawn while another is left, from level 7 up a proved win is never thrown away. And at
//!   every level the draw stays near the fight: a placement with no stone within two points
//!   is drawn only when it is the search's own choice or nothing else is left. Without this,
//!   in a position won or lost anyway, where every action looks alike, the draw played any
//!   point of the board, and level 5 took a win at once in 6 of 22 positions (issue 39).
//!
//! Only when every action is a proved loss is there nothing to draw: the computer then holds
//! out longest. What the report then says of the move (its win chance, its proof) is the drawn
//! action's own, never the search's best one's.
//!
//! What was tried before (docs/engine-strength.md, "Levels: the ladder"): a draw among the
//! actions within a margin of the best one's win chance made one step of the ladder jump to
//! 97-100 %, where the margin started to let lost moves in; a draw by `exp(-loss / t)` over
//! every action's win share spaced the low levels well but drew the few-playout actions whose
//! share was lucky as often as the best one, so that full strength with the same 25,000
//! playouts beat level 9 40 games to 0; one number of playouts for every size gave level 9 on
//! 9×9, where full strength plays about 130,000 playouts a second, the 13×13 figure, and
//! level 10 beat it by 88 %, above the 85 % a step may take; counting the visits kept from
//! earlier moves as part of a level's playouts, where full strength adds fresh ones on top,
//! made level 10 beat level 9 on 13×13 by 89 %.

use quentin_rules::{Action, Position};

use crate::Proven;
use crate::book;
use crate::report::{MoveReport, Report};
use crate::rng::Rng;

/// A level of play, 1 to 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// How a level below full strength plays.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Style {
    /// Playouts a move.
    playouts: u64,
    /// The win chance a move gives away against the best one, on average.
    loss: f64,
}

/// The side of the smaller board the schedule was measured on: 9×9 ([`SMALL`]).
const SMALL_SIDE: usize = 9;
/// The side of the larger board the schedule was measured on: 13×13 ([`LARGE`]).
const LARGE_SIDE: usize = 13;

/// Levels 1 to 9 on 9×9, chosen by matches (docs/engine-strength.md has the ladder they give).
/// Levels 1 to 7 are the playouts the 13×13 figures of the one schedule before gave when scaled
/// by the board's points (169 / 81); levels 8 and 9 were moved up (from 18,778 / 0.0028 and
/// 75,111 / 0.0004), which brought full strength's step over level 9 from 88 % into the band:
/// every 9×9 step is within 60-85 %.
const SMALL: [Style; 9] = [
    Style::new(209, 0.5),
    Style::new(417, 0.17),
    Style::new(730, 0.098),
    Style::new(1_189, 0.061),
    Style::new(2_086, 0.034),
    Style::new(3_756, 0.016),
    Style::new(7_720, 0.01),
    Style::new(30_000, 0.0018),
    Style::new(120_000, 0.0002),
];

/// Levels 1 to 9 on 13×13, chosen by matches (docs/engine-strength.md, "A schedule per board
/// size"). Not the 9×9 table scaled: since the horizon (`level/horizon.rs`) a level from 5 up
/// misses no win or threat at once, which wins more games on the larger board, where the games
/// are longer and such a miss comes up more often; with the 9×9 table scaled, the 13×13 steps
/// from level 6 to 8 scored 88-90 %, above the 85 % a step may take. From `greedy` to full
/// strength the larger board also spans more strength, so that each of the nine steps has to be
/// near 80 %: level 1 plays about even with `greedy` (a lower loss than 9×9's) and levels 2 to 7
/// are stronger than 9×9's scaled, closer to levels 8 and 9, which are as before.
const LARGE: [Style; 9] = [
    Style::new(100, 0.35),
    Style::new(220, 0.14),
    Style::new(400, 0.08),
    Style::new(720, 0.045),
    Style::new(1_400, 0.022),
    Style::new(2_200, 0.012),
    Style::new(4_300, 0.0071),
    Style::new(9_000, 0.0028),
    Style::new(36_000, 0.0004),
];

impl Style {
    const fn new(playouts: u64, loss: f64) -> Style {
        Style { playouts, loss }
    }
}

/// `playouts` of a table made for a board of `from` points a side, on one of `side`: scaled by
/// the boards' points, as full strength's playouts in a given time scale, so that a level keeps
/// its share of full strength's effort.
fn scaled(playouts: u64, from: usize, side: usize) -> f64 {
    playouts as f64 * (from * from) as f64 / (side * side) as f64
}

/// Level `k`'s style (0 for level 1) on a board of `side` points a side. Up to 9×9 the 9×9 table,
/// from 13×13 on the 13×13 table, the playouts scaled by the board's points ([`scaled`]) and
/// the loss as it is; a board between the two goes between them geometrically, in playouts
/// (both tables scaled to its points) as in loss, by how far its side is from 9 towards 13
/// (11×11: the geometric mean), so that the playouts still grow and the loss still shrinks
/// from one level to the next.
fn schedule(k: usize, side: usize) -> Option<Style> {
    let (small, large) = (SMALL.get(k)?, LARGE.get(k)?);
    let f =
        (side.clamp(SMALL_SIDE, LARGE_SIDE) - SMALL_SIDE) as f64 / (LARGE_SIDE - SMALL_SIDE) as f64;
    let between = |a: f64, b: f64| a.powf(1.0 - f) * b.powf(f);
    let playouts = between(
        scaled(small.playouts, SMALL_SIDE, side),
        scaled(large.playouts, LARGE_SIDE, side),
    );
    Some(Style {
        playouts: (playouts.round() as u64).max(1),
        loss: between(small.loss, large.loss),
    })
}

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// Full strength: the whole search, every thread, the best action.
    pub const FULL: Level = Level(10);
    /// The level of `--computer` when none is asked for.
    pub const DEFAULT: Level = Level(5);

    /// Level `n`, if it is one (1 to 10).
    #[must_use]
    pub const fn new(n: u8) -> Option<Level> {
        if n >= Level::MIN.0 && n <= Level::FULL.0 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// Its number, 1 to 10.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Whether this is full strength.
    #[must_use]
    pub const fn is_full(self) -> bool {
        self.0 >= Level::FULL.0
    }

    /// How this level plays on a board of `side` points a side; `None` at full strength.
    fn style(self, side: usize) -> Option<Style> {
        let k = usize::from(self.0).checked_sub(1)?;
        schedule(k, side.max(1))
    }

    /// The playouts of a move on a board of `side` points a side, `None` at full strength (as
    /// many as the budget allows). Two tables, one measured on 9×9 and one on 13×13, each
    /// scaled by the board's points beyond its own size, a board between them in between
    /// ([`schedule`]).
    #[must_use]
    pub fn playouts(self, side: usize) -> Option<u64> {
        self.style(side).map(|style| style.playouts)
    }

    /// The action this level plays at `position` after the search that gave `report`, drawn
    /// with `rng`; `None` only for a finished game. Full strength plays the report's best
    /// action; below, the draw is among the actions the level's horizon allows
    /// ([`horizon`]: wins at once taken, threats answered, proved wins kept, near the fight).
    #[must_use]
    pub fn choose(self, position: &Position, report: &Report, rng: &mut Rng) -> Option<Action> {
        let (Some(style), Some(best)) = (self.style(position.size()), report.moves.first()) else {
            return report.best;
        };
        // Proved losses come last: when the first is one, every action is, and the first holds
        // out longest.
        if best.proven == Some(Proven::Loss) {
            return Some(best.action);
        }
        let allowed = horizon::allowed(self, position, &report.moves);
        let moves: Vec<&MoveReport> = report
            .moves
            .iter()
            .zip(&allowed)
            .filter_map(|(m, &a)| a.then_some(m))
            .collect();
        let Some(first) = moves.first() else {
            return Some(best.action);
        };
        let owned: Vec<MoveReport> = moves.iter().map(|&m| m.clone()).collect();
        let weights = draw_weights(&standing(&owned), &losses(&owned), style.loss);
        let mut dart = rng.unit() * weights.iter().sum::<f64>();
        for (m, w) in moves.iter().zip(&weights) {
            if dart < *w {
                return Some(m.action);
            }
            dart -= w;
        }
        // Rounding may leave the dart past the last weight: the first allowed action then.
        Some(first.action)
    }
}

/// An action's win chance as the level's loss counts it: proved ones sure, the others'
/// playouts counted with one more, drawn, so that an action never tried stands at even.
fn estimate(m: &MoveReport) -> f64 {
    match m.proven {
        Some(Proven::Win) => 1.0,
        Some(Proven::Loss) => 0.0,
        _ => (m.win * m.visits as f64 + 0.5) / (m.visits as f64 + 1.0),
    }
}

/// What each action gives away against the first (the one full strength plays): how far its
/// win chance falls short of the first's, none when it does not.
fn losses(moves: &[MoveReport]) -> Vec<f64> {
    let reference = moves.first().map_or(0.0, estimate);
    moves
        .iter()
        .map(|m| (reference - estimate(m)).max(0.0))
        .collect()
}

/// How much the search thought of each action, on a log scale: the logarithm of its playouts
/// and one, a proved win as much as the most searched action, a proved loss as little as an
/// action never tried; the first action (the one full strength plays) at the top.
fn standing(moves: &[MoveReport]) -> Vec<f64> {
    let most = moves.iter().map(|m| m.visits).max().unwrap_or(0);
    let mut standing: Vec<f64> = moves
        .iter()
        .map(|m| {
            let visits = match m.proven {
                Some(Proven::Win) => most,
                Some(Proven::Loss) => 0,
                None => m.visits,
            };
            (visits as f64 + 1.0).ln()
        })
        .collect();
    if let Some(first) = standing.first_mut() {
        *first = (most as f64 + 1.0).ln();
    }
    standing
}

/// The odds of drawing each action: its playouts to the power `1 / t` (`exp(standing / t)`),
/// with the one temperature `t` for which the draw gives away `loss` on average against the
/// best action (`losses`: what each gives away), found by bisection; every action alike when
/// even that gives away less than `loss`.
fn draw_weights(standing: &[f64], losses: &[f64], loss: f64) -> Vec<f64> {
    let top = standing.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights = |t: f64| -> Vec<f64> { standing.iter().map(|s| ((s - top) / t).exp()).collect() };
    let mean = |w: &[f64]| -> f64 {
        let total: f64 = w.iter().sum();
        w.iter().zip(losses).map(|(w, l)| w * l).sum::<f64>() / total
    };
    let uniform = losses.iter().sum::<f64>() / losses.len().max(1) as f64;
    if uniform <= loss {
        return vec![1.0; losses.len()];
    }
    // From the most searched action alone (t near 0) to every action alike (t large).
    let (mut low, mut high) = (0.01_f64.ln(), 1e4_f64.ln());
    for _ in 0..60 {
        let mid = (low + high) / 2.0;
        if mean(&weights(mid.exp())) < loss {
            low = mid;
        } else {
            high = mid;
        }
    }
    weights(low.exp())
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {}", self.0)
    }
}

/// The highest level that does not play from the shipped books.
pub const BOOK_LEVEL: u8 = 3;

/// Sets `report`'s best action to the level's choice at `position`, and what the report says
/// of it to that action's own value: its win share and its proof, if any. A level that draws
/// an action other than the search's choice announces that action's worth, never the position's
/// (a proved win the drawn action may throw away).
///
/// Above [`BOOK_LEVEL`] and below full strength, where a shipped book holds a move for the
/// mover (an entry: a position of the book's winner's strategy), that move is played (a proved
/// win), whatever the search said. Full strength (also the hints, the analysis and the review)
/// does not use the books yet: its figures on the solved boards would change.
pub(crate) fn apply(level: Level, position: &Position, report: &mut Report, rng: &mut Rng) {
    if level.0 > BOOK_LEVEL
        && !level.is_full()
        && let Some(action) = book::shipped::winning_move(position)
    {
        report.best = Some(action);
        report.win = 1.0;
        report.proven = Some(Proven::Win);
        return;
    }
    if level.is_full() {
        return;
    }
    let Some(action) = level.choose(position, report, rng) else {
        return;
    };
    if let Some(chosen) = report.moves.iter().find(|m| m.action == action) {
        report.best = Some(action);
        report.win = chosen.win;
        report.proven = chosen.proven;
    }
}

mod horizon;

pub use horizon::near_stones;

#[cfg(test)]
mod tests;
