//! A player's answer to a puzzle, judged move by move against its proved solution, and the
//! refutation of a wrong move: the opponent's reply that shows why it fails.
//!
//! The player gives the puzzle side's moves only; the opponent's replies between them are the
//! solution's (its most stubborn ones). A move is right when it is the solution's move at that
//! step: the solution's moves are the only ones that win within the moves left (a win), the
//! only one that holds (a defence), the one right choice (a swap), so no other move can be.

use quentin_rules::{Action, Position};

use super::{Goal, Puzzle};
use crate::solver::{SolveLimits, Verdict, solve};

/// What a line of the player's moves comes to.
#[derive(Clone, Debug)]
pub enum Judged {
    /// Every move right, and the puzzle goes on: the opponent replied `reply` to the last one,
    /// and the player's next move is awaited.
    Right {
        /// The opponent's reply, played.
        reply: Action,
    },
    /// Every move right, the last one completing the solution; `reply` is the opponent's last
    /// reply when the solution ends with one (a win in one that the reply completes).
    Solved {
        /// The solution's last reply, if it has one after the player's last move.
        reply: Option<Action>,
    },
    /// The player's move number `at` (from 0) is not the solution's: the puzzle is failed.
    Wrong {
        /// Which of the player's moves, from 0.
        at: usize,
        /// The position after it, the opponent to move (or the game over).
        after: Box<Position>,
    },
}

/// A line of moves that cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// No move at all.
    NoMove,
    /// The player's move number `at` (from 0) is not legal where it stands: why.
    Illegal {
        /// Which move, from 0.
        at: usize,
        /// The move.
        action: Action,
        /// The rules' reason.
        why: String,
    },
    /// More moves than the solution has for the puzzle's side.
    TooLong {
        /// The puzzle's id.
        id: String,
        /// The side's moves in the solution.
        needed: usize,
        /// The moves given.
        given: usize,
    },
    /// The puzzle itself does not replay (a damaged store): why.
    Damaged(String),
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::NoMove => f.write_str("no move given"),
            LineError::Illegal { at, action, why } => {
                write!(f, "move {}, {action}, is not legal: {why}", at + 1)
            }
            LineError::TooLong { id, needed, given } => {
                let plural = if *needed == 1 { "" } else { "s" };
                write!(
                    f,
                    "{id} is solved in {needed} move{plural}, and the line has {given}"
                )
            }
            LineError::Damaged(why) => write!(f, "the puzzle does not replay: {why}"),
        }
    }
}

impl std::error::Error for LineError {}

/// How many moves of the puzzle's side its solution has.
#[must_use]
pub fn side_moves(puzzle: &Puzzle) -> usize {
    puzzle.solution.len().div_ceil(2)
}

/// Judges `moves`, the puzzle side's moves in order (the replies left out), against the
/// solution: each must be legal where it stands; the first that is not the solution's is
/// wrong, and the moves after it are not looked at.
///
/// # Errors
/// No move, a move that is not legal where it stands (nothing is judged), or more moves than
/// the solution has for its side.
pub fn judge(puzzle: &Puzzle, moves: &[Action]) -> Result<Judged, LineError> {
    if moves.is_empty() {
        return Err(LineError::NoMove);
    }
    let mut pos = puzzle.position().map_err(LineError::Damaged)?;
    let needed = side_moves(puzzle);
    for (j, &m) in moves.iter().enumerate() {
        if j >= needed {
            return Err(LineError::TooLong {
                id: puzzle.id.clone(),
                needed,
                given: moves.len(),
            });
        }
        pos.play(m).map_err(|why| LineError::Illegal {
            at: j,
            action: m,
            why: why.to_string(),
        })?;
        if m != puzzle.solution[2 * j] {
            return Ok(Judged::Wrong {
                at: j,
                after: Box::new(pos),
            });
        }
        let reply = puzzle.solution.get(2 * j + 1).copied();
        let last = j + 1 == needed;
        if let Some(reply) = reply {
            pos.play(reply).map_err(|why| {
                LineError::Damaged(format!("the solution's reply {reply} is not legal: {why}"))
            })?;
            if !last && j + 1 == moves.len() {
                return Ok(Judged::Right { reply });
            }
        }
        if last && j + 1 == moves.len() {
            return Ok(Judged::Solved { reply });
        }
    }
    // Every move given was right and more are awaited: answered in the loop above.
    Err(LineError::NoMove)
}

/// The most positions a refutation's solves may create, all together, as the terminal's and
/// the server's puzzles ask: small boards, answered at once.
pub const REFUTATION_NODES: u64 = 200_000;

/// Why a refutation refutes the player's wrong move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refuted {
    /// The reply wins for the opponent, or starts its win in this many of its own moves.
    Wins(usize),
    /// After the reply the player's side has no win within the moves it had left (a win
    /// puzzle), this many.
    NoLongerWins(usize),
    /// The reply ends the game, not in the player's side's favour.
    Ends,
}

/// The opponent's reply to a wrong move, and why it refutes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// The opponent's reply.
    pub reply: Action,
    /// What the reply shows.
    pub why: Refuted,
}

/// The opponent's reply that refutes the player's wrong move number `at` (from 0), after
/// which the position is `after`: a move that wins for the opponent within the puzzle's depth
/// (to the end of the game for a swap) when there is one; otherwise, in a win puzzle, the
/// first reply, in the order of the legal actions, after which the player's side has no win
/// within the moves it has left. `None` when the game is over after the wrong move, or when
/// nothing is proved within `nodes` positions, all the solves together. The terminal's puzzle
/// mode and the server's both answer with it, so the same wrong move gets the same reply.
#[must_use]
pub fn refutation(puzzle: &Puzzle, at: usize, after: &Position, nodes: u64) -> Option<Refutation> {
    let side = after.to_move()?.opponent();
    let mut spent = 0u64;
    let solve_within = |pos: &Position, depth: Option<usize>, share: u64, spent: &mut u64| {
        let s = solve(
            pos,
            &SolveLimits {
                depth,
                nodes: Some(share.max(1)),
                deadline: None,
            },
        );
        *spent += s.nodes;
        s
    };
    let depth = match puzzle.goal {
        Goal::Swap => None,
        Goal::Win | Goal::Defend => Some(puzzle.depth.max(1)),
    };
    let wins = solve_within(after, depth, nodes / 2, &mut spent);
    if wins.verdict == Verdict::Win {
        return wins.winning.first().map(|&reply| Refutation {
            reply,
            why: Refuted::Wins(wins.depth.max(1)),
        });
    }
    if puzzle.goal != Goal::Win {
        return None;
    }
    // The side's moves left after the wrong one.
    let left = puzzle.depth.saturating_sub(at + 1);
    for reply in after.legal_actions() {
        let mut then = after.clone();
        if then.play(reply).is_err() {
            continue;
        }
        if then.is_over() {
            if then.winner() != Some(side) {
                return Some(Refutation {
                    reply,
                    why: Refuted::Ends,
                });
            }
            continue;
        }
        let refuted = Refutation {
            reply,
            why: Refuted::NoLongerWins(left),
        };
        if left == 0 {
            return Some(refuted);
        }
        let share = nodes.saturating_sub(spent);
        if share == 0 {
            return None;
        }
        if solve_within(&then, Some(left), share, &mut spent).verdict == Verdict::NoWin {
            return Some(refuted);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use quentin_rules::Game;

    use super::*;

    fn puzzle(line: &str, game: Game) -> Puzzle {
        Puzzle::from_line(line, game).unwrap()
    }

    fn moves(words: &str) -> Vec<Action> {
        words
            .split_whitespace()
            .map(|w| Action::parse(w).unwrap())
            .collect()
    }

    const WIN2: &str = "quentin-0002; size 5; pie off; goal win; depth 2; rating 1120; \
        themes win2; setup a5 b5 d5 c4 d4 a3 b4 a2 e2 a1 c2 e1 e5; solution b1 c1 e3";
    const DEFEND: &str = "quentin-0223; size 5; pie off; goal defend; depth 3; rating 1360; \
        themes defend threat3; setup e1 e3 c4 d1 a4 c1 e2 d3; solution b2";
    const SWAP: &str = "konobi-0306; size 3; pie on; goal swap; rating 1240; themes swap; \
        setup a1; solution swap";

    #[test]
    fn the_solutions_moves_one_at_a_time_are_right_then_solved() {
        let p = puzzle(WIN2, Game::Quentin);
        assert_eq!(side_moves(&p), 2);
        let first = judge(&p, &moves("b1")).unwrap();
        assert!(matches!(first, Judged::Right { reply } if reply.to_string() == "c1"));
        let both = judge(&p, &moves("b1 e3")).unwrap();
        assert!(matches!(both, Judged::Solved { reply: None }), "{both:?}");
        let d = puzzle(DEFEND, Game::Quentin);
        assert!(matches!(
            judge(&d, &moves("b2")).unwrap(),
            Judged::Solved { reply: None }
        ));
        let s = puzzle(SWAP, Game::Konobi);
        assert!(matches!(
            judge(&s, &moves("swap")).unwrap(),
            Judged::Solved { reply: None }
        ));
    }

    #[test]
    fn a_wrong_move_is_wrong_at_its_step_and_refuted() {
        let p = puzzle(WIN2, Game::Quentin);
        // A legal second move other than the solution's.
        let mut pos = p.position().unwrap();
        pos.play(p.solution[0]).unwrap();
        pos.play(p.solution[1]).unwrap();
        let other = pos
            .legal_actions()
            .into_iter()
            .find(|a| *a != p.solution[2]);
        let second = format!("b1 {}", other.unwrap());
        for (line, at) in [("c3", 0), (second.as_str(), 1)] {
            let Judged::Wrong { at: got, after } = judge(&p, &moves(line)).unwrap() else {
                panic!("{line} is wrong");
            };
            assert_eq!(got, at, "{line}");
            let reply = refutation(&p, at, &after, 200_000)
                .expect("a refutation")
                .reply;
            assert!(after.is_legal(reply), "{line}: {reply}");
        }
        let d = puzzle(DEFEND, Game::Quentin);
        let Judged::Wrong { after, .. } = judge(&d, &moves("a1")).unwrap() else {
            panic!("a1 does not hold");
        };
        // The opponent wins after it: the refutation is a winning move.
        let refuted = refutation(&d, 0, &after, 200_000).expect("a refutation");
        let reply = refuted.reply;
        let win = solve(
            &after,
            &SolveLimits {
                depth: Some(3),
                ..SolveLimits::default()
            },
        );
        assert!(win.winning.contains(&reply), "{reply} {win:?}");
        assert_eq!(refuted.why, Refuted::Wins(win.depth), "{win:?}");
        let s = puzzle(SWAP, Game::Konobi);
        let Judged::Wrong { after, .. } = judge(&s, &moves("b2")).unwrap() else {
            panic!("b2 is not the swap");
        };
        assert!(refutation(&s, 0, &after, 1_000_000).is_some());
    }

    #[test]
    fn an_illegal_move_or_too_long_a_line_is_refused_saying_why() {
        let p = puzzle(WIN2, Game::Quentin);
        let illegal = judge(&p, &moves("a5")).unwrap_err().to_string();
        assert!(
            illegal.starts_with("move 1, a5, is not legal: "),
            "{illegal}"
        );
        let long = judge(&p, &moves("b1 e3 a4")).unwrap_err();
        assert_eq!(
            long.to_string(),
            "quentin-0002 is solved in 2 moves, and the line has 3"
        );
        assert_eq!(judge(&p, &[]).unwrap_err(), LineError::NoMove);
    }

    #[test]
    fn a_puzzle_reads_back_from_its_line() {
        let p = puzzle(WIN2, Game::Quentin);
        assert_eq!(Puzzle::from_line(&p.to_line(), Game::Quentin).unwrap(), p);
        assert!(Puzzle::from_line(WIN2, Game::Konobi).is_err());
    }
}
