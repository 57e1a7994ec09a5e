//! The proofs behind each kind of puzzle, by the exact solver: the generator keeps a position
//! when they hold, and [`check`](super::check) proves them again for a puzzle read from a file.
//!
//! Every function takes the solver's budget (`nodes`, the positions one solve may create) and
//! answers `None` when a solve runs out of it: nothing unproved is ever kept or passed.

use std::ops::RangeInclusive;

use quentin_rules::{Action, Game, Position};

use crate::solver::{Solution, SolveLimits, Verdict, solve};

/// A solve of `pos` within `depth` of the mover's moves (`None`: to the end of the game).
fn solve_within(pos: &Position, depth: Option<usize>, nodes: u64) -> Solution {
    solve(
        pos,
        &SolveLimits {
            depth,
            nodes: Some(nodes),
            deadline: None,
        },
    )
}

/// `pos` after `action`, if it is legal.
fn after(pos: &Position, action: Action) -> Option<Position> {
    let mut next = pos.clone();
    next.play(action).ok().map(|()| next)
}

/// Whether the side to move of `pos` wins within `depth` of its moves: `None` when the budget
/// ran out first.
fn wins_within(pos: &Position, depth: usize, nodes: u64) -> Option<bool> {
    if pos.is_over() {
        return Some(false);
    }
    match solve_within(pos, Some(depth), nodes).verdict {
        Verdict::Win => Some(true),
        Verdict::NoWin => Some(false),
        Verdict::Unknown => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Win puzzles.

/// A win puzzle at `after`, reached by the opponent's last move from `before`: the solution
/// and its depth, when the side to move wins within a depth of `depths` (the quickest win's),
/// the opponent's last move was the mistake ([`was_mistake`]) and the line is forced
/// ([`win_line`]).
#[must_use]
pub fn win_puzzle(
    before: &Position,
    after: &Position,
    depths: &RangeInclusive<usize>,
    nodes: u64,
) -> Option<(Vec<Action>, usize)> {
    let s = solve_within(after, Some(*depths.end()), nodes);
    if s.verdict != Verdict::Win || !s.complete || !depths.contains(&s.depth) {
        return None;
    }
    let depth = s.depth;
    if !was_mistake(before, depth, nodes) {
        return None;
    }
    win_line(after, depth, nodes).map(|line| (line, depth))
}

/// Whether the side to move of `before` had a move after which the opponent had no win within
/// `depth`: its move was then the mistake that gave the win away. The moves are tried in the
/// order of the legal actions until one holds; one whose solve runs out of budget is skipped.
#[must_use]
pub fn was_mistake(before: &Position, depth: usize, nodes: u64) -> bool {
    before.legal_actions().into_iter().any(|a| {
        after(before, a).is_some_and(|other| {
            !other.is_over() && solve_within(&other, Some(depth), nodes).verdict == Verdict::NoWin
        })
    })
}

/// The forced line from `pos`, where the side to move wins within `depth` and no quicker: its
/// only winning move at each step, the opponent's most stubborn reply between them (the one
/// after which the win takes longest; among equals, the first in the order of the legal
/// actions); `None` when a step has more than one winning move or a solve runs out of budget.
#[must_use]
pub fn win_line(pos: &Position, depth: usize, nodes: u64) -> Option<Vec<Action>> {
    let s = solve_within(pos, Some(depth), nodes);
    if s.verdict != Verdict::Win || !s.complete || s.depth != depth || s.winning.len() != 1 {
        return None;
    }
    let win = s.winning[0];
    let next = after(pos, win)?;
    let mut line = vec![win];
    if next.is_over() {
        return Some(line);
    }
    if depth == 1 {
        // A win within one that is not at once (Quentin's tie fill by the reply): the reply
        // ends it, whichever it is; the puzzle shows the first.
        line.push(*next.legal_actions().first()?);
        return Some(line);
    }
    let mut stubborn: Option<(usize, Action, Position)> = None;
    for reply in next.legal_actions() {
        let then = after(&next, reply)?;
        let left = if then.is_over() {
            0
        } else {
            let s = solve_within(&then, Some(depth - 1), nodes);
            if s.verdict != Verdict::Win || !s.complete {
                return None;
            }
            s.depth
        };
        if stubborn.as_ref().is_none_or(|(k, _, _)| left > *k) {
            stubborn = Some((left, reply, then));
        }
    }
    let (left, reply, then) = stubborn?;
    line.push(reply);
    if left > 0 {
        line.extend(win_line(&then, left, nodes)?);
    }
    Some(line)
}

// ---------------------------------------------------------------------------------------------
// Defence puzzles.

/// The position of `pos` with the other side to move, as if the side to move passed: the
/// threat it faces. A connection game's board with the opponent to move (the pie rule's offer
/// gone); in Quint the same board and hands, except that in the drop phase the side that
/// passes gives up the piece it would have dropped (the hands must fit the side to move:
/// White's equal to Black's, Black's one more). `None` for a finished game.
#[must_use]
pub fn passed(pos: &Position) -> Option<Position> {
    let me = pos.to_move()?;
    let setup = pos.setup();
    match pos.game() {
        Game::Quint => {
            let mut hand = pos.in_hand()?;
            if hand != [0, 0] {
                hand[me.index()] = hand[me.index()].checked_sub(1)?;
            }
            setup
                .start_quint_from(pos.board(), hand, me.opponent())
                .ok()
        }
        _ => setup.start_from(pos.board().clone(), me.opponent()).ok(),
    }
}

/// The moves of `among` after which the opponent has no win within `depth` of its moves (a
/// move that ends the game counts for whoever it makes win); `None` when a solve runs out of
/// budget. Stops once `enough` are found.
fn saving(
    pos: &Position,
    among: &[Action],
    depth: usize,
    nodes: u64,
    enough: usize,
) -> Option<Vec<Action>> {
    let me = pos.to_move()?;
    let mut out = Vec::new();
    for &a in among {
        let next = after(pos, a)?;
        let saves = if next.is_over() {
            next.winner() != Some(me.opponent())
        } else {
            !wins_within(&next, depth, nodes)?
        };
        if saves {
            out.push(a);
            if out.len() >= enough {
                break;
            }
        }
    }
    Some(out)
}

/// A defence puzzle at `pos`: the one saving move and the threat's depth N, when N is the
/// least depth in `depths` for which exactly one move leaves the opponent no win within N of
/// its moves, and
///
/// - the side to move is threatened: were it to pass, the opponent would win within N
///   ([`passed`]);
/// - the side to move has no win within N itself (that would be a win puzzle);
/// - a lesser depth has two saving moves or more (N is the threat's own depth), and the pie
///   rule's offer is not on the board (that is a swap puzzle).
#[must_use]
pub fn defence(
    pos: &Position,
    depths: &RangeInclusive<usize>,
    nodes: u64,
) -> Option<(Action, usize)> {
    if pos.is_over() || pos.swap_available() {
        return None;
    }
    let legal = pos.legal_actions();
    if legal.len() < 2 {
        return None;
    }
    // The threat's own depth: below it, every move saves that does not harm itself.
    let threat = solve_within(&passed(pos)?, Some(*depths.end()), nodes);
    if threat.verdict != Verdict::Win {
        return None;
    }
    let first = threat.depth.max(*depths.start());
    let mut left = legal.clone();
    let mut depth = first;
    loop {
        left = saving(pos, &left, depth, nodes, usize::MAX)?;
        match left.len() {
            0 => return None,
            1 => break,
            _ if depth >= *depths.end() => return None,
            _ => depth += 1,
        }
    }
    if depth == first && depth > 1 && saving(pos, &legal, depth - 1, nodes, 2)?.len() < 2 {
        return None;
    }
    if wins_within(pos, depth, nodes)? {
        return None;
    }
    Some((left[0], depth))
}

/// Whether `key` at `pos` is a defence puzzle of exactly `depth`: what [`defence`] finds there,
/// proved again from the definition.
#[must_use]
pub fn is_defence(pos: &Position, depth: usize, key: Action, nodes: u64) -> Option<bool> {
    if pos.is_over() || pos.swap_available() {
        return Some(false);
    }
    let legal = pos.legal_actions();
    if legal.len() < 2 {
        return Some(false);
    }
    let Some(threat) = passed(pos) else {
        return Some(false);
    };
    if !wins_within(&threat, depth, nodes)? {
        return Some(false);
    }
    if saving(pos, &legal, depth, nodes, usize::MAX)? != [key] {
        return Some(false);
    }
    if depth > 1 && saving(pos, &legal, depth - 1, nodes, 2)?.len() < 2 {
        return Some(false);
    }
    Some(!wins_within(pos, depth, nodes)?)
}

// ---------------------------------------------------------------------------------------------
// Swap puzzles.

/// The answer of a swap puzzle at `pos` (White to move after Black's first stone, the pie rule
/// offering the swap): `swap` when swapping wins to the end of the game and no placement does,
/// or the one placement that wins when swapping does not, proved to the end of the game;
/// `None` when neither choice wins, when more than one action wins, or when the budget runs
/// out.
#[must_use]
pub fn swap_answer(pos: &Position, nodes: u64) -> Option<Action> {
    if !pos.swap_available() {
        return None;
    }
    let s = solve_within(pos, None, nodes);
    if s.verdict != Verdict::Win || !s.complete || s.winning.len() != 1 {
        return None;
    }
    Some(s.winning[0])
}

#[cfg(test)]
mod tests;
