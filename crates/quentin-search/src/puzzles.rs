//! Puzzles proved by the solver (issue 49, its generator's first part): positions of games
//! between players that err as people do, kept where the opponent's last move was the mistake
//! and the side to move now wins by force, with exactly one winning move at each of its steps.
//!
//! The games are played by the greedy baseline player ([`Baseline::Greedy`]: it takes a win in
//! one and avoids the replies that allow one, and otherwise plays at random, so it misses every
//! deeper tactic). After each of its moves the position is solved ([`solve`]); it is kept when
//!
//! - the side to move wins within N of its moves (N from 1 to the asked depth, the quickest
//!   win's), and the opponent's last move was the mistake: it had a move after which the side
//!   to move had no win within N;
//! - exactly one move wins within the moves left at every step of the solution where the
//!   puzzle's side moves (as lichess's generator demands), and the opponent's moves in the
//!   solution are its most stubborn replies (those after which the win takes longest; among
//!   equals, the first in the order of the legal actions);
//! - no equal position (the same stones and side to move) is already kept.
//!
//! Every claim is the solver's, within a budget of positions a solve: a position whose solve
//! runs out of budget is not kept.

use std::collections::HashSet;

use quentin_rules::{Action, Color, Position, Setup};

use crate::players::Baseline;
use crate::rng::Rng;
use crate::solver::{SolveLimits, Verdict, solve};

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleSpec {
    /// The game, its size and options.
    pub setup: Setup,
    /// How many puzzles.
    pub count: usize,
    /// The seed of the games.
    pub seed: u64,
    /// The most moves of the puzzle's side a solution may take, 1 to 4.
    pub max_depth: usize,
    /// The positions each solve may create.
    pub nodes: u64,
    /// The most games to play before giving up on `count`.
    pub max_games: usize,
}

/// A proved puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The game, size and options it starts from.
    pub setup: Setup,
    /// The actions from the empty board to the puzzle's position, as in a record.
    pub line: Vec<Action>,
    /// The puzzle side's move, the reply, the next move… to the end of the game.
    pub solution: Vec<Action>,
    /// The puzzle side's moves in the solution: a win in `depth`.
    pub depth: usize,
}

/// Generates puzzles by `spec`, calling `found` with each as it is kept; stops at
/// `spec.count` puzzles or after `spec.max_games` games.
pub fn generate(spec: &PuzzleSpec, mut found: impl FnMut(&Puzzle)) -> Vec<Puzzle> {
    let mut rng = Rng::new(spec.seed);
    let mut kept: Vec<Puzzle> = Vec::new();
    let mut seen: HashSet<(Vec<String>, Option<Color>)> = HashSet::new();
    let Ok(start) = spec.setup.start() else {
        return kept;
    };
    for _ in 0..spec.max_games {
        if kept.len() >= spec.count {
            break;
        }
        let mut pos = start.clone();
        let mut line = Vec::new();
        while let Some(action) = Baseline::Greedy.choose(&pos, &mut rng) {
            let before = pos.clone();
            if pos.play(action).is_err() {
                break;
            }
            line.push(action);
            if pos.is_over() || kept.len() >= spec.count {
                continue;
            }
            let key = (pos.board().rows(), pos.to_move());
            if seen.contains(&key) {
                continue;
            }
            if let Some((solution, depth)) = puzzle_at(&before, &pos, spec) {
                seen.insert(key);
                let puzzle = Puzzle {
                    setup: spec.setup,
                    line: line.clone(),
                    solution,
                    depth,
                };
                found(&puzzle);
                kept.push(puzzle);
            }
        }
    }
    kept
}

/// The limits of one solve at `depth`.
fn limits(spec: &PuzzleSpec, depth: usize) -> SolveLimits {
    SolveLimits {
        depth: Some(depth),
        nodes: Some(spec.nodes),
        deadline: None,
    }
}

/// The solution and its depth when `after` (the opponent's move played on `before`) is a
/// puzzle.
fn puzzle_at(
    before: &Position,
    after: &Position,
    spec: &PuzzleSpec,
) -> Option<(Vec<Action>, usize)> {
    let s = solve(after, &limits(spec, spec.max_depth));
    if s.verdict != Verdict::Win || !s.complete {
        return None;
    }
    let depth = s.depth;
    // The mistake: another move of the opponent held the side to move off for `depth` moves.
    let avoidable = before.legal_actions().into_iter().any(|a| {
        let mut other = before.clone();
        other.play(a).is_ok()
            && !other.is_over()
            && solve(&other, &limits(spec, depth)).verdict == Verdict::NoWin
    });
    if !avoidable {
        return None;
    }
    solution(after, depth, spec).map(|line| (line, depth))
}

/// The forced line from `pos`, where the side to move wins within `depth` and no quicker: its
/// only winning move at each step, the opponent's most stubborn reply between them; `None`
/// when a step has more than one winning move or a solve runs out of budget.
fn solution(pos: &Position, depth: usize, spec: &PuzzleSpec) -> Option<Vec<Action>> {
    let s = solve(pos, &limits(spec, depth));
    if s.verdict != Verdict::Win || !s.complete || s.depth != depth || s.winning.len() != 1 {
        return None;
    }
    let win = s.winning[0];
    let mut after = pos.clone();
    after.play(win).ok()?;
    let mut line = vec![win];
    if after.is_over() {
        return Some(line);
    }
    if depth == 1 {
        // A win within one that is not at once (Quentin's tie fill by the reply): the reply
        // ends it, whichever it is; the puzzle shows the first.
        let reply = *after.legal_actions().first()?;
        line.push(reply);
        return Some(line);
    }
    // The most stubborn reply: the one after which the win takes longest.
    let mut stubborn: Option<(usize, Action, Position)> = None;
    for reply in after.legal_actions() {
        let mut next = after.clone();
        next.play(reply).ok()?;
        let left = if next.is_over() {
            0
        } else {
            let s = solve(&next, &limits(spec, depth - 1));
            if s.verdict != Verdict::Win || !s.complete {
                return None;
            }
            s.depth
        };
        if stubborn.as_ref().is_none_or(|(k, _, _)| left > *k) {
            stubborn = Some((left, reply, next));
        }
    }
    let (left, reply, next) = stubborn?;
    line.push(reply);
    if left > 0 {
        line.extend(solution(&next, left, spec)?);
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::Game;

    #[test]
    fn every_puzzle_has_one_winning_move_at_each_step_and_replays() {
        for game in [Game::Quentin, Game::Konobi, Game::Brique] {
            let spec = PuzzleSpec {
                setup: Setup {
                    size: 5,
                    pie: false,
                    ..Setup::new(game)
                },
                count: 4,
                seed: 7,
                max_depth: 2,
                nodes: 200_000,
                max_games: 40,
            };
            let puzzles = generate(&spec, |_| {});
            assert!(!puzzles.is_empty(), "{game}");
            for p in &puzzles {
                let mut pos = spec.setup.start().unwrap();
                for &a in &p.line {
                    pos.play(a).unwrap();
                }
                let side = pos.to_move().unwrap();
                // The puzzle side's moves, each the only one that wins within what is left.
                let mut left = p.depth;
                for (i, &a) in p.solution.iter().enumerate() {
                    if i % 2 == 0 {
                        let at = |depth| SolveLimits {
                            depth: Some(depth),
                            ..SolveLimits::default()
                        };
                        // The quickest win, and the one move that wins within it.
                        let quickest = solve(&pos, &at(left)).depth;
                        assert_eq!(solve(&pos, &at(quickest)).winning, vec![a], "{game} {p:?}");
                        left = quickest - 1;
                    }
                    pos.play(a).unwrap();
                }
                assert_eq!(pos.winner(), Some(side), "{game} {p:?}");
            }
        }
    }
}
