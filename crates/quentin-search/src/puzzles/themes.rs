//! Themes: what a puzzle asks and what its key move (the first move of the solution) does,
//! computed from the rules, never written by hand.
//!
//! The goal's themes: `win1` to `win4` (a win in that many of the side's moves), `defend` with
//! `threat1` to `threat4` (the only move that holds off the opponent's win within that many of
//! its moves), `swap` (the pie rule's choice). What the key move does, each game by its own
//! rule, as the game's panel tells a move's effect (`fills 1 point with black`):
//!
//! - Quentin: `fill`, the move closes a territory that fills (with either colour);
//! - Konobi: `weak-link`, the stone is weakly connected (corner to corner, neither shared
//!   neighbour of its colour) to a stone of its colour once placed;
//! - Brique: `escort`, the move completes the two escorts of a square, which fills; `removal`,
//!   such a fill removes an enemy stone;
//! - Quint: `drop` or `step`, the phase of the move; `capture`, the step takes a piece.

use quentin_rules::{Action, Game, Position, konobi};

use super::Goal;

/// Every theme, with what it means.
pub const THEMES: [(&str, &str); 17] = [
    ("win1", "win in 1: the move wins at once"),
    ("win2", "win in 2 of your moves"),
    ("win3", "win in 3 of your moves"),
    ("win4", "win in 4 of your moves"),
    ("defend", "find the only move that does not lose"),
    ("threat1", "the opponent threatens to win at once"),
    (
        "threat2",
        "the opponent threatens to win within 2 of its moves",
    ),
    (
        "threat3",
        "the opponent threatens to win within 3 of its moves",
    ),
    (
        "threat4",
        "the opponent threatens to win within 4 of its moves",
    ),
    (
        "swap",
        "the pie rule: swap, or not and play the one winning move",
    ),
    ("fill", "Quentin: the move fills a territory"),
    (
        "weak-link",
        "Konobi: the move connects weakly, corner to corner",
    ),
    (
        "escort",
        "Brique: the move completes a square's two escorts, which fills",
    ),
    ("removal", "Brique: the move's fill removes an enemy stone"),
    ("drop", "Quint: the move drops a piece"),
    ("step", "Quint: the move steps a piece"),
    ("capture", "Quint: the move captures"),
];

/// The theme named `name`, as its one static name; `None` for no theme.
#[must_use]
pub fn theme(name: &str) -> Option<&'static str> {
    THEMES.iter().map(|(t, _)| *t).find(|t| *t == name)
}

/// The themes of a puzzle of `goal` at `depth` (the win's, or the threat's) at `pos`, whose
/// solution starts with `key`: the goal's first, then what `key` does, in the order of
/// [`THEMES`].
#[must_use]
pub fn themes(pos: &Position, goal: Goal, depth: usize, key: Action) -> Vec<&'static str> {
    let mut names: Vec<String> = match goal {
        Goal::Win => vec![format!("win{depth}")],
        Goal::Defend => vec!["defend".into(), format!("threat{depth}")],
        Goal::Swap => vec!["swap".into()],
    };
    names.extend(effects(pos, key).into_iter().map(str::to_string));
    THEMES
        .iter()
        .map(|(t, _)| *t)
        .filter(|t| names.iter().any(|n| n == t))
        .collect()
}

/// What `key` does at `pos`, by the game's rule.
fn effects(pos: &Position, key: Action) -> Vec<&'static str> {
    let mut out = Vec::new();
    if pos.game() == Game::Quint {
        match key {
            Action::Place(_) => out.push("drop"),
            Action::Step { captures, .. } => {
                out.push("step");
                if !captures.is_empty() {
                    out.push("capture");
                }
            }
            Action::Swap | Action::Pass => {}
        }
        return out;
    }
    let Action::Place(p) = key else {
        return out;
    };
    let Ok(preview) = pos.preview(key) else {
        return out;
    };
    let fills = preview.fills().next().is_some();
    match pos.game() {
        Game::Quentin if fills => out.push("fill"),
        Game::Brique => {
            if fills {
                out.push("escort");
            }
            if preview.removals().next().is_some() {
                out.push("removal");
            }
        }
        Game::Konobi => {
            let mut after = pos.clone();
            if after.play(key).is_ok()
                && konobi::weak_connections(after.board())
                    .iter()
                    .any(|&(a, b)| a == p || b == p)
            {
                out.push("weak-link");
            }
        }
        _ => {}
    }
    out
}
