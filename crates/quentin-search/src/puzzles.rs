//! Puzzles proved by the exact solver (issue 49): positions of games between computer levels
//! that err as people do, kept where the solver proves there is one move to find.
//!
//! Three goals ([`Goal`]):
//!
//! - **win**: the opponent's last move was the mistake (another of its moves left no win
//!   within N), and now the side to move wins within N of its moves (N from 1 to 4, the
//!   quickest win's), with exactly one winning move at every step of the solution where the
//!   puzzle's side moves (as lichess's generator demands) and the opponent's most stubborn
//!   replies between them (those after which the win takes longest; among equals, the first in
//!   the order of the legal actions) ([`prove::win_puzzle`]);
//! - **defend**: the side to move is threatened (were it to pass, the opponent would win within
//!   N) and exactly one move leaves the opponent no win within N, N the least depth for which
//!   one move alone saves ([`prove::defence`]); the solution is that move;
//! - **swap**: Quentin, Konobi and Brique with the pie rule, after Black's first stone: swapping
//!   wins to the end of the game and no placement does, or the one placement that wins does
//!   and swapping does not ([`prove::swap_answer`]); the solution is that action.
//!
//! No position equal to a kept one under the game's symmetries ([`symmetry`]) is kept twice.
//! Each puzzle gets its themes ([`themes`]) and a starting rating ([`rating`]). A set of
//! puzzles is read and written in the text format of docs/puzzles.md ([`PuzzleSet`]), and
//! [`check`] proves a puzzle again from nothing but its file line. A player's answer is judged
//! against the solution, and a wrong move refuted, by [`answer`].
//!
//! Every claim is the solver's, within a budget of positions a solve: a position whose solve
//! runs out of budget is not kept.

pub mod answer;
mod format;
mod prove;
pub mod rating;
pub mod symmetry;
pub mod themes;

use std::collections::HashSet;
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;

use quentin_rules::{Action, Position, Setup};

pub use format::{PuzzleSet, SetError};
pub use prove::{defence, passed, swap_answer, was_mistake, win_line, win_puzzle};
pub use themes::{THEMES, theme};

use crate::rng::Rng;
use crate::{Budget, Level, Limits, Searcher};

/// The deepest puzzle: the side's moves of a win, or the opponent's of a threat.
pub const MAX_DEPTH: usize = 4;

/// The most positions a solve of the generator may create; [`check`] gives every solve this
/// budget, so that whatever the generator proved within its own proves again.
pub const MAX_NODES: u64 = 5_000_000;

/// The computer levels whose games the generator plays: each side of each game one of them,
/// drawn. They err as people do: level 1 plays about as the greedy baseline, near the stones,
/// level 2 a little better, and neither sees every threat. (Levels 1 to 4 gave half as many
/// puzzles a game on 5×5 and fewer deep ones: the stronger levels' games are decided sooner.)
pub const GAME_LEVELS: RangeInclusive<u8> = 1..=2;

/// What a puzzle asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Win by force.
    Win,
    /// Find the one move that does not lose.
    Defend,
    /// Swap or not, by the pie rule.
    Swap,
}

impl Goal {
    /// Every goal.
    pub const ALL: [Goal; 3] = [Goal::Win, Goal::Defend, Goal::Swap];

    /// `win`, `defend` or `swap`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Defend => "defend",
            Goal::Swap => "swap",
        }
    }

    /// The goal named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Goal> {
        Goal::ALL.into_iter().find(|g| g.name() == name)
    }
}

impl std::fmt::Display for Goal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A proved puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its name in its set, such as `quentin-0017` (empty until the set numbers it).
    pub id: String,
    /// The game, size and options it starts from.
    pub setup: Setup,
    /// The actions from the empty board to the puzzle's position, as in a record.
    pub line: Vec<Action>,
    /// The puzzle side's move, the reply, the next move… to the end of the game (a win), or
    /// the one move (a defence, a swap).
    pub solution: Vec<Action>,
    /// What it asks.
    pub goal: Goal,
    /// A win's moves of the puzzle's side; a defence's threat, in the opponent's moves; 0 for a
    /// swap (proved to the end of the game).
    pub depth: usize,
    /// Its themes, in the order of [`THEMES`].
    pub themes: Vec<&'static str>,
    /// Its starting difficulty ([`rating`]).
    pub rating: u16,
}

impl Puzzle {
    /// The puzzle's position: its setup's actions replayed from the empty board.
    ///
    /// # Errors
    /// The first action that is not legal, in words.
    pub fn position(&self) -> Result<Position, String> {
        let mut pos = self.setup.start().map_err(|e| e.to_string())?;
        for (i, &a) in self.line.iter().enumerate() {
            pos.play(a).map_err(|why| {
                format!(
                    "{a} is not legal after {}: {why}",
                    shown(&self.line[..i], "the empty board")
                )
            })?;
        }
        Ok(pos)
    }
}

/// `actions` in record notation for a message: all of them when few, else the last ones; `none`
/// when there are none.
pub(crate) fn shown(actions: &[Action], none: &str) -> String {
    const SHOWN: usize = 8;
    let words: Vec<String> = actions.iter().map(ToString::to_string).collect();
    match words.len() {
        0 => none.to_string(),
        n if n <= SHOWN => words.join(" "),
        n => format!("… {} (action {n})", words[n - SHOWN..].join(" ")),
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleSpec {
    /// The game, its size and options.
    pub setup: Setup,
    /// The kind of puzzle.
    pub goal: Goal,
    /// How many puzzles.
    pub count: usize,
    /// The seed of the games.
    pub seed: u64,
    /// The depths to keep, within 1 to [`MAX_DEPTH`] (not used by swap puzzles).
    pub depths: RangeInclusive<usize>,
    /// The positions each solve may create, at most [`MAX_NODES`].
    pub nodes: u64,
    /// The most games to play before giving up on `count`.
    pub max_games: usize,
}

/// Generates puzzles by `spec`, none equal under symmetry to one of `known` or to one kept
/// before, calling `found` with each as it is kept (its id still empty); stops at `spec.count`
/// puzzles or after `spec.max_games` games (swap puzzles: after every first move). A game
/// gives one puzzle at most, its first, as lichess's generator does: the next positions of
/// a game whose mistake was not punished mostly ask the same move again.
pub fn generate(
    spec: &PuzzleSpec,
    known: &[Puzzle],
    mut found: impl FnMut(&Puzzle),
) -> Vec<Puzzle> {
    let mut seen: HashSet<Vec<u8>> = known
        .iter()
        .filter_map(|p| p.position().ok())
        .map(|pos| symmetry::key(&pos))
        .collect();
    let mut kept: Vec<Puzzle> = Vec::new();
    let Ok(start) = spec.setup.start() else {
        return kept;
    };
    let nodes = spec.nodes.min(MAX_NODES);
    let keep = |line: &[Action],
                pos: &Position,
                kept: &mut Vec<Puzzle>,
                found: &mut dyn FnMut(&Puzzle)| {
        let proof = match spec.goal {
            Goal::Win => None,
            Goal::Defend => defence(pos, &spec.depths, nodes).map(|(a, d)| (vec![a], d)),
            Goal::Swap => swap_answer(pos, nodes).map(|a| (vec![a], 0)),
        };
        if let Some((solution, depth)) = proof {
            kept.push(finish(spec, line, pos, solution, depth));
            found(&kept[kept.len() - 1]);
        }
    };
    if spec.goal == Goal::Swap {
        for first in start.legal_actions() {
            if kept.len() >= spec.count {
                break;
            }
            let mut pos = start.clone();
            if pos.play(first).is_err() || !seen.insert(symmetry::key(&pos)) {
                continue;
            }
            keep(&[first], &pos, &mut kept, &mut found);
        }
        return kept;
    }
    let mut rng = Rng::new(spec.seed);
    for _ in 0..spec.max_games {
        if kept.len() >= spec.count {
            break;
        }
        let levels = [0, 1].map(|_| {
            let (low, high) = (*GAME_LEVELS.start(), *GAME_LEVELS.end());
            Level::new(low + rng.below(usize::from(high - low + 1)) as u8).unwrap_or(Level::MIN)
        });
        let mut pos = start.clone();
        let mut line = Vec::new();
        while let Some(action) = level_move(&pos, levels[pos.ply() % 2], rng.next_u64()) {
            let before = pos.clone();
            if pos.play(action).is_err() {
                break;
            }
            line.push(action);
            if pos.is_over() || kept.len() >= spec.count {
                break;
            }
            let key = symmetry::key(&pos);
            if seen.contains(&key) {
                continue;
            }
            let n = kept.len();
            if spec.goal == Goal::Win {
                if let Some((solution, depth)) = win_puzzle(&before, &pos, &spec.depths, nodes) {
                    kept.push(finish(spec, &line, &pos, solution, depth));
                    found(&kept[n]);
                }
            } else {
                keep(&line, &pos, &mut kept, &mut found);
            }
            if kept.len() > n {
                seen.insert(key);
                break;
            }
        }
    }
    kept
}

/// The action `level` plays at `pos` with the search's `seed`.
fn level_move(pos: &Position, level: Level, seed: u64) -> Option<Action> {
    let limits = Limits {
        budget: Budget::Playouts(level.playouts(pos.size()).unwrap_or(1)),
        threads: 1,
        seed: Some(seed),
        nodes: 1 << 18,
        level,
    };
    Searcher::new(limits)
        .search(pos, &AtomicBool::new(false), |_| {})
        .best
}

/// The puzzle at `pos` with its proved `solution`, its themes and rating.
fn finish(
    spec: &PuzzleSpec,
    line: &[Action],
    pos: &Position,
    solution: Vec<Action>,
    depth: usize,
) -> Puzzle {
    let key = solution[0];
    Puzzle {
        id: String::new(),
        setup: spec.setup,
        line: line.to_vec(),
        themes: themes::themes(pos, spec.goal, depth, key),
        rating: rating::rating(pos, key),
        solution,
        goal: spec.goal,
        depth,
    }
}

/// Proves `puzzle` again from its setup, its goal and depth and its solution, each solve within
/// [`MAX_NODES`]: the setup replays; a win's solution is the one [`win_line`] finds (exactly one
/// winning move at each of the side's steps, the most stubborn replies between them) and the
/// setup's last action was the opponent's mistake; a defence's move is the only one that saves
/// ([`defence`]'s definition); a swap's answer is the one action that wins; and the themes are
/// the ones computed. The rating is a starting estimate and is not proved.
///
/// # Errors
/// What does not hold, in words.
pub fn check(puzzle: &Puzzle) -> Result<(), String> {
    let pos = puzzle.position()?;
    if pos.is_over() {
        return Err("the game is over after the setup".into());
    }
    let Some(&key) = puzzle.solution.first() else {
        return Err("the solution is empty".into());
    };
    let nodes = MAX_NODES;
    let budget = || "the solver ran out of its budget".to_string();
    match puzzle.goal {
        Goal::Win => {
            let Some((&last, earlier)) = puzzle.line.split_last() else {
                return Err("a win puzzle needs the opponent's mistake in its setup".into());
            };
            let mut before = puzzle.setup.start().map_err(|e| e.to_string())?;
            for &a in earlier {
                before.play(a).map_err(|e| e.to_string())?;
            }
            let s = crate::solver::solve(
                &pos,
                &crate::solver::SolveLimits {
                    depth: Some(puzzle.depth),
                    nodes: Some(nodes),
                    deadline: None,
                },
            );
            if s.verdict != crate::solver::Verdict::Win || s.depth != puzzle.depth {
                return Err(format!(
                    "the side to move has no win in {} (the solver: {}, depth {})",
                    puzzle.depth,
                    s.verdict.name(),
                    s.depth
                ));
            }
            let line = win_line(&pos, puzzle.depth, nodes).ok_or_else(|| {
                format!(
                    "the win in {} is not forced with one winning move at each step",
                    puzzle.depth
                )
            })?;
            if line != puzzle.solution {
                return Err(format!("the solution should be {}", shown(&line, "empty")));
            }
            if !was_mistake(&before, puzzle.depth, nodes) {
                return Err(format!(
                    "{last} was no mistake: every other move also left a win in {}",
                    puzzle.depth
                ));
            }
        }
        Goal::Defend => {
            if puzzle.solution.len() != 1 {
                return Err("a defence's solution is its one move".into());
            }
            match prove::is_defence(&pos, puzzle.depth, key, nodes) {
                None => return Err(budget()),
                Some(false) => {
                    return Err(format!(
                        "{key} is not the only move that holds off a threat in {}",
                        puzzle.depth
                    ));
                }
                Some(true) => {}
            }
        }
        Goal::Swap => {
            if puzzle.solution.len() != 1 || puzzle.depth != 0 {
                return Err("a swap puzzle's solution is its one action, with no depth".into());
            }
            match swap_answer(&pos, nodes) {
                None => return Err("neither swapping nor one placement alone wins".into()),
                Some(a) if a != key => return Err(format!("the answer should be {a}")),
                Some(_) => {}
            }
        }
    }
    let themes = themes::themes(&pos, puzzle.goal, puzzle.depth, key);
    if themes != puzzle.themes {
        return Err(format!("the themes should be {}", themes.join(" ")));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
