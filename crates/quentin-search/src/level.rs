//! Levels: how strongly the computer plays, from 1 (a beginner's match) to 10 (full strength).
//!
//! Level 10 is the whole search: every playout the budget allows, on every thread, and the
//! report's best action. Below it the computer is weaker on purpose, and plays as a weaker
//! player would, not at random:
//!
//! - **Fewer playouts**: a fixed number, doubling from one level to the next, on one thread, so
//!   that a level plays alike on every machine and whatever else the machine is doing (the
//!   think time still caps it, on boards too large for it).
//! - **A choice that accepts some loss**: among the actions whose win chance is within the
//!   level's margin of the best one's, one drawn at random, each with a chance in proportion to
//!   its playouts (plus one, so that an action not yet tried keeps a chance) raised to the power
//!   1 / temperature. The search gives its playouts to the actions it finds good, so the draw
//!   favours those; a high temperature flattens the odds, a low one leaves the most searched
//!   action nearly sure.
//!
//! The rule makes no exception for proofs: a proved win counts as a sure win and a proved loss
//! as a sure loss, so a level takes an immediate win and avoids a threat that wins at once as
//! surely as its margin and temperature say, which the weakest levels do not always. Only when
//! every action is a proved loss is there nothing to draw: the computer then holds out longest.

use quentin_rules::Action;

use crate::Proven;
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
    /// The temperature of the draw by playouts.
    temperature: f64,
    /// The most win chance an action may give away against the best one to be drawn.
    margin: f64,
}

/// Levels 1 to 9, chosen by matches (docs/engine-strength.md has the ladder they give).
const STYLES: [Style; 9] = [
    Style {
        playouts: 100,
        temperature: 4.0,
        margin: 1.0,
    },
    Style {
        playouts: 200,
        temperature: 2.0,
        margin: 0.8,
    },
    Style {
        playouts: 400,
        temperature: 1.2,
        margin: 0.6,
    },
    Style {
        playouts: 800,
        temperature: 0.8,
        margin: 0.45,
    },
    Style {
        playouts: 1600,
        temperature: 0.6,
        margin: 0.3,
    },
    Style {
        playouts: 3200,
        temperature: 0.4,
        margin: 0.2,
    },
    Style {
        playouts: 6400,
        temperature: 0.3,
        margin: 0.12,
    },
    Style {
        playouts: 12800,
        temperature: 0.2,
        margin: 0.06,
    },
    Style {
        playouts: 25600,
        temperature: 0.1,
        margin: 0.03,
    },
];

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

    /// How this level plays; `None` at full strength.
    fn style(self) -> Option<Style> {
        STYLES.get(usize::from(self.0).checked_sub(1)?).copied()
    }

    /// The playouts of a move, `None` at full strength (as many as the budget allows).
    #[must_use]
    pub fn playouts(self) -> Option<u64> {
        self.style().map(|style| style.playouts)
    }

    /// The action this level plays after the search that gave `report`, drawn with `rng`;
    /// `None` only for a finished game. Full strength plays the report's best action.
    #[must_use]
    pub fn choose(self, report: &Report, rng: &mut Rng) -> Option<Action> {
        let (Some(style), Some(best)) = (self.style(), report.moves.first()) else {
            return report.best;
        };
        // Proved losses come last: when the first is one, every action is, and the first holds
        // out longest.
        if best.proven == Some(Proven::Loss) {
            return Some(best.action);
        }
        let candidates: Vec<&MoveReport> = report
            .moves
            .iter()
            .filter(|m| m.win >= best.win - style.margin)
            .collect();
        // One playout more than each has: an action not yet tried keeps a chance.
        let most = candidates.iter().map(|m| m.visits).max().unwrap_or(0) + 1;
        let weights: Vec<f64> = candidates
            .iter()
            .map(|m| ((m.visits + 1) as f64 / most as f64).powf(1.0 / style.temperature))
            .collect();
        let mut dart = rng.unit() * weights.iter().sum::<f64>();
        for (m, w) in candidates.iter().zip(&weights) {
            if dart < *w {
                return Some(m.action);
            }
            dart -= w;
        }
        // Rounding may leave the dart past the last weight: the last candidate then.
        candidates.last().map(|m| m.action)
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {}", self.0)
    }
}

/// Sets `report`'s best action and its win chance to the level's choice.
pub(crate) fn apply(level: Level, report: &mut Report, rng: &mut Rng) {
    if level.is_full() {
        return;
    }
    let Some(action) = level.choose(report, rng) else {
        return;
    };
    if let Some(chosen) = report.moves.iter().find(|m| m.action == action) {
        report.best = Some(action);
        if report.proven.is_none() {
            report.win = chosen.win;
        }
    }
}

#[cfg(test)]
mod tests;
