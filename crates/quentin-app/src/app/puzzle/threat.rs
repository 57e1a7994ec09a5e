//! A defence puzzle's threat played out (issue 60): once the puzzle is solved or failed, `w`
//! shows on the board what the opponent would have done had the defence not been made: the
//! puzzle's position with the defender's turn passed ([`passed`], as the puzzles are proved),
//! then the opponent's quickest win, the defender's most stubborn reply between its moves.

use crate::game_line::GameLine;
use crate::rules::{Action, Position};
use crate::search::puzzles::{Goal, passed};
use crate::search::solver::{SolveLimits, Verdict, solve};

use super::super::App;
use super::PuzzleState;

/// The most positions the solves of a threat's line may create, all together.
pub const THREAT_NODES: u64 = 400_000;

/// The solves of one line, within one budget of positions.
struct Budget {
    left: u64,
}

impl Budget {
    /// Whether the side to move of `pos` wins within `depth` of its moves: the quickest win's
    /// length and its first moves; `None` when not proved (or the budget is spent).
    fn wins(&mut self, pos: &Position, depth: usize) -> Option<(usize, Vec<Action>)> {
        if self.left == 0 {
            return None;
        }
        let limits = SolveLimits {
            depth: Some(depth),
            nodes: Some(self.left),
            deadline: None,
        };
        let s = solve(pos, &limits);
        self.left = self.left.saturating_sub(s.nodes);
        (s.verdict == Verdict::Win && !s.winning.is_empty()).then_some((s.depth, s.winning))
    }
}

/// The threat the side to move of `pos` faces, within `depth` of the opponent's moves: the
/// position as if it passed, and the opponent's line to its win from there (its quickest win's
/// first move at each of its turns, the defender's reply after which the win takes longest
/// between them). `None` when no win is proved within [`THREAT_NODES`] positions.
#[must_use]
pub fn threat_line(pos: &Position, depth: usize) -> Option<(Position, Vec<Action>)> {
    let start = passed(pos)?;
    let attacker = start.to_move()?;
    let mut budget = Budget { left: THREAT_NODES };
    let mut line = Vec::new();
    let mut here = start.clone();
    // The attacker's moves left in its quickest win.
    let mut left = depth;
    while !here.is_over() && line.len() < 2 * depth + 2 {
        let action = if here.to_move() == Some(attacker) {
            let (moves, winning) = budget.wins(&here, left.max(1))?;
            left = moves.saturating_sub(1);
            winning[0]
        } else {
            stubborn(&here, left, &mut budget)?
        };
        here.play(action).ok()?;
        line.push(action);
    }
    here.is_over().then_some((start, line))
}

/// The defender's reply in `pos` after which the attacker's win, within `left` of its moves,
/// takes longest (the first, in the order of the legal actions, among equals); a reply after
/// which no win is proved is not taken (the threat is proved against every reply, so only a
/// spent budget leaves one so). The first legal reply when none is proved, or when the
/// attacker has no move left (a win within one that the reply itself completes, such as
/// Quentin's tie fill).
fn stubborn(pos: &Position, left: usize, budget: &mut Budget) -> Option<Action> {
    let replies = pos.legal_actions();
    let first = *replies.first()?;
    if left == 0 {
        return Some(first);
    }
    let mut best: Option<(usize, Action)> = None;
    for reply in replies {
        let mut then = pos.clone();
        if then.play(reply).is_err() {
            continue;
        }
        let length = if then.is_over() {
            Some(0)
        } else {
            budget.wins(&then, left).map(|(moves, _)| moves)
        };
        if let Some(length) = length
            && best.is_none_or(|(k, _)| length > k)
        {
            best = Some((length, reply));
        }
        if budget.left == 0 {
            break;
        }
    }
    Some(best.map_or(first, |(_, reply)| reply))
}

impl App {
    /// `w` in a puzzle: a defence's threat played out, once the puzzle is over.
    pub(in crate::app) fn show_threat(&mut self) {
        let Some(seat) = self.puzzle.as_ref() else {
            return;
        };
        if seat.puzzle.goal != Goal::Defend {
            self.warn("w plays out the threat of a defence; this puzzle asks for something else.");
            return;
        }
        if seat.state == PuzzleState::Solving {
            self.warn(
                "Stop the threat first (v gives up and shows the solution); then w plays it out.",
            );
            return;
        }
        let (side, depth) = (seat.side, seat.puzzle.depth);
        let position = self.line.position_at(seat.start).clone();
        let Some((start, line)) = threat_line(&position, depth) else {
            self.warn("The threat's line was not found within the solver's budget.");
            return;
        };
        let Ok(shown) = GameLine::replay(start, &line) else {
            return;
        };
        let what = format!(
            "{}'s threat, had {} not stopped it",
            side.opponent().capitalised(),
            side.capitalised()
        );
        self.show_variation(shown, 0, what);
    }
}
