//! Holding out in a lost position: the move after which the opponent's quickest forced win
//! takes longest, proved by the exact solver.
//!
//! Where every action loses in the playouts, the tree search's ranking says nothing: its
//! "best" is any point at 0 % (issue 46: a hint in a lost position was a random point). A
//! player who is losing wants the move that makes the opponent work longest, as an endgame
//! tablebase's "longest resistance" does. [`longest_resistance`] asks the solver, one depth at
//! a time, which actions let the opponent win within 1, 2, 3… of its moves, and keeps those
//! that survive longest; among equals, the tree search's order decides. A solve that runs out
//! of its budget counts as a survival: only a proved quick loss rules a move out.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use quentin_rules::{Action, Position};

use crate::solver::{SolveLimits, Verdict, solve};

/// Below this raw win share of the best action, and not proved won, the search's ranking is
/// noise: the position is lost as far as the playouts can tell.
pub const HOPELESS: f64 = 0.05;

/// The deepest the opponent's forced win is looked for, in its own moves.
const MAX_DEPTH: usize = 4;

/// The positions the solver may create for one resistance, all its solves together.
pub const NODES: u64 = 400_000;

/// How long the opponent holds out after an action, as far as the solver proved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resistance {
    /// The action that holds out longest.
    pub action: Action,
    /// The opponent's quickest forced win after it, in the opponent's moves, when proved
    /// within [`MAX_DEPTH`]; `None` when no win that quick was proved (it may hold longer).
    pub lost_in: Option<usize>,
}

/// Among `candidates` (in the order the tree search ranks them), the action after which the
/// opponent's quickest forced win is longest, proved with at most `nodes` positions in all
/// (or by `deadline`); `None` when there is no candidate or `stop` was set. An action that
/// ends the game at once, a win or a draw, is better than any loss and is taken first.
#[must_use]
pub fn longest_resistance(
    position: &Position,
    candidates: &[Action],
    nodes: u64,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Option<Resistance> {
    let mover = position.to_move()?;
    let mut alive: Vec<(Action, Position)> = Vec::new();
    for &action in candidates {
        let mut after = position.clone();
        if after.play(action).is_err() {
            continue;
        }
        if after.is_over() && after.winner() != Some(mover.opponent()) {
            return Some(Resistance {
                action,
                lost_in: None,
            });
        }
        if !after.is_over() {
            alive.push((action, after));
        }
    }
    let first = *candidates.first()?;
    let mut spent = 0u64;
    for depth in 1..=MAX_DEPTH {
        if alive.len() <= 1 {
            break;
        }
        let mut survivors = Vec::new();
        let mut lost_here = None;
        for (i, (action, after)) in alive.iter().enumerate() {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            // What is left, shared among the solves left at this depth.
            let left = (alive.len() - i) as u64 * (MAX_DEPTH - depth + 1) as u64;
            let share = (nodes.saturating_sub(spent) / left).max(1);
            let limits = SolveLimits {
                depth: Some(depth),
                nodes: Some(share),
                deadline,
            };
            let solution = solve(after, &limits);
            spent += solution.nodes;
            if solution.verdict == Verdict::Win {
                lost_here.get_or_insert(*action);
            } else {
                survivors.push((*action, after.clone()));
            }
        }
        if survivors.is_empty() {
            // Every action lets the opponent win within `depth`: the first of those that held
            // out to this depth.
            return Some(Resistance {
                action: lost_here.unwrap_or(first),
                lost_in: Some(depth),
            });
        }
        alive = survivors;
    }
    let action = alive.first().map_or(first, |(a, _)| *a);
    Some(Resistance {
        action,
        lost_in: None,
    })
}

#[cfg(test)]
mod tests;
