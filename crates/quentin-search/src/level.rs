//! Levels: how strongly the computer plays, from 1 (a beginner's match) to 10 (full strength).
//!
//! Level 10 is the whole search: every playout the budget allows, on every thread, and the
//! report's best action. Below it the computer is weaker on purpose, and plays as a weaker
//! player would, not at random:
//!
//! - **Fewer playouts**: a fixed number, from 100 at level 1 to 25,000 at level 9, on one thread,
//!   so that a level plays alike on every machine and whatever else the machine is doing (the
//!   think time still caps it, on boards too large for it).
//! - **A choice that gives some win chance away**: each level has a loss, the win chance its
//!   move gives away against the search's best one on average. Every legal action is drawn with
//!   odds `exp(-its loss / t)`, its loss being how far its win chance falls short of the best
//!   one's, and `t` the one that makes the average loss the level's (all equally likely when
//!   even that gives away less: a position where nothing matters). A Boltzmann draw, then: a
//!   weaker player errs more often where the difference is small than where it is large. The
//!   win chance of an action counts its playouts with one more, drawn, so that an action never
//!   tried stands at even and one with a lucky playout or two is not taken for a sure win. The
//!   loss runs from 0.5 at level 1 (every action about as likely: random play, a little below
//!   `greedy`) down to 0.002 at level 9.
//!
//! The rule makes no exception for proofs: a proved win counts as a sure win and a proved loss
//! as a sure loss, so a level takes an immediate win and avoids a threat that wins at once as
//! surely as its loss says, which the weakest levels do not always. Only when every action is a
//! proved loss is there nothing to draw: the computer then holds out longest.
//!
//! Why a fixed average loss, and not a fixed margin and temperature (the rule before): the
//! strength of a margin rule jumps where the margin starts to let lost moves in (between 0.57
//! and 0.4 on Quentin 9×9 and 13×13, one step of the ladder winning 97-100 %), while an
//! average loss takes strength away smoothly, so that the levels could be spaced by matches to
//! about the same Elo apart (docs/engine-strength.md, "Levels: the ladder"). At the low levels
//! the loss is what weakens (at a loss of 0.3, 20 playouts did as well against `greedy` as 100);
//! at the high ones the playouts are (full strength's 130,000 playouts a move on Quentin 9×9
//! beat 4,000 with a loss of 0.008 in 40 games of 40), so those grow faster there.

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
    /// The win chance a move gives away against the best one, on average.
    loss: f64,
}

/// Levels 1 to 9, chosen by matches (docs/engine-strength.md has the ladder they give).
const STYLES: [Style; 9] = [
    Style {
        playouts: 100,
        loss: 0.5,
    },
    Style {
        playouts: 120,
        loss: 0.3,
    },
    Style {
        playouts: 180,
        loss: 0.19,
    },
    Style {
        playouts: 300,
        loss: 0.115,
    },
    Style {
        playouts: 580,
        loss: 0.06,
    },
    Style {
        playouts: 1400,
        loss: 0.025,
    },
    Style {
        playouts: 4000,
        loss: 0.008,
    },
    Style {
        playouts: 10000,
        loss: 0.004,
    },
    Style {
        playouts: 25000,
        loss: 0.002,
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
        let k = usize::from(self.0).checked_sub(1)?;
        STYLES.get(k).copied()
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
        let moves = &report.moves;
        // The best win chance, whichever action has it (the first is the most searched).
        let top = moves.iter().map(estimate).fold(0.0, f64::max);
        let losses: Vec<f64> = moves.iter().map(|m| top - estimate(m)).collect();
        let weights = loss_weights(&losses, style.loss);
        let mut dart = rng.unit() * weights.iter().sum::<f64>();
        for (m, w) in moves.iter().zip(&weights) {
            if dart < *w {
                return Some(m.action);
            }
            dart -= w;
        }
        // Rounding may leave the dart past the last weight: the best action then.
        Some(best.action)
    }
}

/// An action's win chance as the draw sees it: proved ones sure, the others' playouts counted
/// with one more, drawn, so that an action with one lucky playout is not taken for a sure win.
fn estimate(m: &MoveReport) -> f64 {
    match m.proven {
        Some(Proven::Win) => 1.0,
        Some(Proven::Loss) => 0.0,
        _ => (m.win * m.visits as f64 + 0.5) / (m.visits as f64 + 1.0),
    }
}

/// The odds of drawing each action from what it gives away against the best (`losses`), so
/// that a draw gives away `loss` on average (or as much as every action does on average, when
/// that is less): each action weighted by `exp(-its loss / t)`, the one `t` for which the mean
/// loss is `loss`, found by bisection (the mean grows with `t`).
fn loss_weights(losses: &[f64], loss: f64) -> Vec<f64> {
    let weights = |t: f64| -> Vec<f64> { losses.iter().map(|l| (-l / t).exp()).collect() };
    let mean = |w: &[f64]| -> f64 {
        let total: f64 = w.iter().sum();
        w.iter().zip(losses).map(|(w, l)| w * l).sum::<f64>() / total
    };
    let uniform = losses.iter().sum::<f64>() / losses.len().max(1) as f64;
    if uniform <= loss {
        return vec![1.0; losses.len()];
    }
    // The mean loss runs from 0 (t near 0: the best only) up to `uniform` (t large).
    let (mut low, mut high) = (1e-6_f64.ln(), 1e3_f64.ln());
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
