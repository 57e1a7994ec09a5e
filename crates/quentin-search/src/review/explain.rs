//! Why a marked action of a review loses (issue 60): its refutation, the opponent's best reply
//! and the line after it, each action the search's best, from 3 to [`LINE_MAX`] actions (fewer
//! when the game ends); and, within a small budget of the exact solver, a proof: the opponent's
//! win after the action, or the mover's proven win that the action threw away.

use std::sync::atomic::AtomicBool;

use quentin_rules::{Action, Color, Position};

use crate::solver::{SolveLimits, Verdict, solve};
use crate::{Limits, Searcher};

/// The longest refutation line.
pub const LINE_MAX: usize = 6;
/// The solver's budget for each proof: positions created.
pub const PROOF_NODES: u64 = 200_000;
/// The most moves of the winner a proof looks for.
pub const PROOF_DEPTH: usize = 4;

/// A win the solver proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// Who wins.
    pub winner: Color,
    /// A first move of the win.
    pub first: Action,
    /// The winner's moves the quickest win needs.
    pub moves: usize,
    /// Whether the mover of the marked action had this win and played something else.
    pub thrown: bool,
}

/// What the review says of a marked action beyond its loss.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// The refutation: legal actions from the position after the marked one.
    pub line: Vec<Action>,
    /// A proof, when the solver finds one within its budget.
    pub proven: Option<Proven>,
}

/// The quickest win the side to move of `position` has within [`PROOF_DEPTH`] moves, proved
/// within [`PROOF_NODES`] positions a solve: its first moves and its length; `None` when not
/// proved.
fn proved_win(position: &Position) -> Option<(Color, Vec<Action>, usize)> {
    let mover = position.to_move()?;
    if position.is_over() {
        return None;
    }
    let within = |depth: usize| {
        let limits = SolveLimits {
            depth: Some(depth),
            nodes: Some(PROOF_NODES),
            deadline: None,
        };
        let solution = solve(position, &limits);
        (solution.verdict == Verdict::Win && !solution.winning.is_empty())
            .then_some((solution.winning, solution.depth))
    };
    let (winning, moves) = within(PROOF_DEPTH)?;
    // The first moves within the quickest win's length, which the deeper solve mixes with
    // slower ones.
    let (quickest, _) = if moves < PROOF_DEPTH {
        within(moves).unwrap_or((winning, moves))
    } else {
        (winning, moves)
    };
    Some((mover, quickest, moves))
}

/// Explains `action`, played in `before`: the refutation searched with `limits` (the review's
/// own), and a proof. `None` when `action` is not legal in `before`.
#[must_use]
pub fn explain(before: &Position, action: Action, limits: Limits) -> Option<Explained> {
    let mut after = before.clone();
    after.play(action).ok()?;
    let against = proved_win(&after).map(|(winner, winning, moves)| Proven {
        winner,
        first: winning[0],
        moves,
        thrown: false,
    });
    // A win thrown away: the mover had one, and after the action the opponent has one.
    let thrown = against
        .and_then(|_| proved_win(before))
        .map(|(winner, winning, moves)| Proven {
            winner,
            first: winning[0],
            moves,
            thrown: true,
        });
    let mut line = Vec::new();
    let mut position = after;
    // A proved win of the opponent starts the line: its first move is certain.
    if let Some(proof) = against
        && position.play(proof.first).is_ok()
    {
        line.push(proof.first);
    }
    let mut searcher = Searcher::new(limits);
    let stop = AtomicBool::new(false);
    while line.len() < LINE_MAX && !position.is_over() {
        let Some(best) = searcher.search(&position, &stop, |_| {}).best else {
            break;
        };
        if position.play(best).is_err() {
            break;
        }
        line.push(best);
    }
    Some(Explained {
        line,
        proven: thrown.or(against),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::standard_limits;
    use quentin_rules::{Game, Setup};

    fn played(game: Game, size: usize, actions: &str) -> Position {
        let mut setup = Setup::new(game);
        setup.size = size;
        setup.pie = false;
        let mut pos = setup.start().unwrap();
        for a in actions.split_whitespace() {
            pos.play(Action::parse(a).unwrap()).unwrap();
        }
        pos
    }

    #[test]
    fn a_proven_win_thrown_away_is_said_with_its_first_move() {
        // Quentin 5×5 (the README's review): Black, able to win at once, plays a1, and White
        // wins at once with d5.
        let before = played(
            Game::Quentin,
            5,
            "c3 e4 d3 d4 e1 e3 c4 d1 c2 a4 b3 b2 c1 b5",
        );
        let a1 = Action::parse("a1").unwrap();
        let explained = explain(&before, a1, standard_limits()).unwrap();
        let proof = explained.proven.unwrap();
        assert_eq!(
            (proof.winner, proof.thrown, proof.moves),
            (Color::Black, true, 1)
        );
        let mut win = before.clone();
        win.play(proof.first).unwrap();
        assert_eq!(win.winner(), Some(Color::Black));
        assert_eq!(explained.line, [Action::parse("d5").unwrap()]);
    }

    #[test]
    fn the_refutation_of_a_move_that_leaves_a_win_starts_with_the_win() {
        // Black's e5 leaves White a win at once at c3 (the course's "White's edges").
        let before = played(Game::Quentin, 5, "b5 a3 d5 b3 b1 d3 d1 e3");
        let e5 = Action::parse("e5").unwrap();
        let explained = explain(&before, e5, standard_limits()).unwrap();
        assert_eq!(explained.line, [Action::parse("c3").unwrap()]);
        assert!(explained.proven.is_some());
    }

    #[test]
    fn a_move_with_no_win_against_it_gets_a_searched_line() {
        // The first move of a 7×7 game in a corner: no proof either way, a line of six.
        let before = played(Game::Quentin, 7, "");
        let a1 = Action::parse("a1").unwrap();
        let explained = explain(&before, a1, standard_limits()).unwrap();
        assert_eq!(explained.proven, None);
        assert_eq!(explained.line.len(), LINE_MAX);
        let mut pos = before.clone();
        pos.play(a1).unwrap();
        for &a in &explained.line {
            pos.play(a).unwrap();
        }
    }
}
