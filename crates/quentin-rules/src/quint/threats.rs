//! Quint's immediate tactics, read from the bitboards: where a side wins at once, where the
//! opponent would, and, in the drop phase, which drops stop the opponent's double threats (an
//! open three that a drop turns into two winning cells at once, or an open four).
//!
//! Cells are given as 64-bit boards, bit `row * 8 + col` (`a1` is bit 0, `h8` bit 63):
//! [`bit`] and [`cells`] convert. Every function is a few hundred word operations at most, no
//! allocation, meant for the search's expansion and playouts.
//!
//! # Example
//! The example of issue 20: White has `e4 e5 e6` and `d4 d5`, Black to drop; a White drop on
//! `e3` or `e7` would make two winning cells at once, and only a Black drop on `e3` or `e7`
//! stops both (a drop on `e2` or `e8` leaves the other end open).
//! ```
//! use quentin_rules::quint::threats::{self, cells};
//! use quentin_rules::{Board, Color, Game, Setup};
//! // Top row first: White (W) e4 e5 e6 d4 d5, Black (B) in the corners.
//! let board = Board::from_rows(
//!     "B......B|........|....W...|...WW...|...WW...|........|........|B......B",
//! ).unwrap();
//! let setup = Setup { pieces: 15, ..Setup::new(Game::Quint) };
//! let pos = setup.start_quint_from(&board, [11, 10], Color::Black).unwrap();
//! let t = threats::threats(&pos).unwrap();
//! let names = |bits| cells(bits).map(|p| p.to_string()).collect::<Vec<_>>();
//! assert_eq!(t.wins, 0);
//! assert_eq!(t.opponent_wins, 0);
//! assert_eq!(names(t.opponent_double_threats), ["e3", "e7"]);
//! assert_eq!(names(t.must_block), ["e3", "e7"]);
//! ```

use super::bitboard::{self, back, shift};
use super::{ORTHOGONAL, Quint};
use crate::action::{Action, Captures};
use crate::color::Color;
use crate::point::Point;
use crate::{Position, State};

/// The bit of cell `p` of the 8×8 board (`p` must lie on it).
#[must_use]
pub const fn bit(p: Point) -> u64 {
    bitboard::bit(p)
}

/// The cells of `bits`, from `a1` row by row.
pub fn cells(bits: u64) -> impl Iterator<Item = Point> {
    bitboard::cells(bits)
}

/// What the position threatens, for the side to move (the mover) and its opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Threats {
    /// Where the mover wins at once with exactly five in a row: in the drop phase the empty
    /// cells its drop wins on; in the move phase the destinations of its winning steps
    /// ([`winning_actions_into`] gives the steps).
    pub wins: u64,
    /// Where the opponent would win at once with its next action, were the board left as it
    /// is: the cells of its winning drops while it still has pieces in hand, else the
    /// destinations of its winning steps.
    pub opponent_wins: u64,
    /// Drop phase, the mover having a piece left for the win after: the drops that give the
    /// mover two or more winning cells at once (its open threes and split threes made fours),
    /// which the opponent cannot both block by a drop. 0 in the move phase.
    pub double_threats: u64,
    /// The same for the opponent, as if it dropped next with two pieces or more in hand:
    /// the drops that would give it two winning cells. 0 in the move phase.
    pub opponent_double_threats: u64,
    /// Drop phase, when the opponent threatens (it has [`Threats::opponent_wins`] or
    /// [`Threats::opponent_double_threats`]): the mover's drops after which the opponent has no
    /// win by force within its next two actions. These are the mover's own winning drops, and
    /// the drops after which the opponent has no winning action and no double threat that the
    /// mover could not answer with a win of its own: for a four, its winning cell; for an open
    /// three, its two ends (and any drop that makes the mover a four of its own that the
    /// threat does not block, which wins a tempo). 0 when nothing threatens, in the move phase,
    /// and when no drop holds (two open threes apart, two winning cells).
    pub must_block: u64,
}

/// The threats of `pos`, for its side to move; `None` unless it is a Quint game in play.
///
/// Only single actions are read ahead: the mover's win, the opponent's reply, and in the drop
/// phase the opponent's drop that makes two winning cells at once. Longer forcing sequences
/// (a four that forces a block, then another), captures, and steps that follow the last drop
/// are not.
#[must_use]
pub fn threats(pos: &Position) -> Option<Threats> {
    match &pos.state {
        State::Quint(q) if q.outcome.is_none() => Some(of(q)),
        _ => None,
    }
}

/// The actions of `pos` that win at once by exactly five in a row, appended to `out`: drops,
/// or steps (without captures: the mover's five wins before any capture would count). Nothing
/// unless it is a Quint game in play.
pub fn winning_actions_into(pos: &Position, out: &mut Vec<Action>) {
    let State::Quint(q) = &pos.state else {
        return;
    };
    if q.outcome.is_some() {
        return;
    }
    let own = q.bits[q.to_move.index()];
    if q.dropping() {
        out.extend(cells(completing(own, q.empty())).map(Action::Place));
    } else {
        winning_steps(own, q.empty(), |from, to| {
            out.push(Action::Step {
                from,
                to,
                captures: Captures::NONE,
            });
        });
    }
}

fn of(q: &Quint) -> Threats {
    let mover = q.to_move;
    let opponent = mover.opponent();
    let (own, theirs) = (q.bits[mover.index()], q.bits[opponent.index()]);
    let empty = q.empty();
    let hand = |c: Color| q.in_hand[c.index()];
    let mut t = Threats::default();
    if !q.dropping() {
        winning_steps(own, empty, |_, to| t.wins |= bit(to));
        winning_steps(theirs, empty, |_, to| t.opponent_wins |= bit(to));
        return t;
    }
    // In the drop phase the mover always has a piece to drop.
    t.wins = completing(own, empty);
    t.opponent_wins = if hand(opponent) > 0 {
        completing(theirs, empty)
    } else {
        // Its next action is a step: the drops are over once the mover has dropped.
        let mut wins = 0;
        winning_steps(theirs, empty, |_, to| wins |= bit(to));
        wins
    };
    if hand(mover) >= 2 {
        t.double_threats = double_threats(own, empty);
    }
    if hand(opponent) >= 2 {
        t.opponent_double_threats = double_threats(theirs, empty);
    }
    if t.opponent_wins != 0 || t.opponent_double_threats != 0 {
        let step_wins = (hand(opponent) == 0).then_some(t.opponent_wins);
        t.must_block = holding(own, theirs, empty, &t, step_wins);
    }
    t
}

/// The runs of five cells in one direction, as bitboards of their starts.
struct Fives {
    /// `own_at[k]`: the cells whose k-th cell on is `own` (none when it is off the board).
    own_at: [u64; 6],
    /// `empty_at[k]`: the cells whose k-th cell on is empty.
    empty_at: [u64; 5],
    /// The starts of five cells with no `own` piece just before nor just after them.
    clear: u64,
}

impl Fives {
    /// Along rows (direction 1, rightwards) or columns (direction 0, upwards).
    fn along(own: u64, empty: u64, d: usize) -> Fives {
        let mut own_at = [own; 6];
        let mut empty_at = [empty; 5];
        for k in 1..6 {
            own_at[k] = shift(own_at[k - 1], back(d));
            if k < 5 {
                empty_at[k] = shift(empty_at[k - 1], back(d));
            }
        }
        Fives {
            own_at,
            empty_at,
            clear: !shift(own, d) & !own_at[5],
        }
    }
}

/// The empty cells whose filling by `own` makes a line of exactly five: the one empty cell of
/// five cells in a row or column whose other four are `own`, with no `own` piece just before
/// or just after them.
fn completing(own: u64, empty: u64) -> u64 {
    let mut found = 0;
    for d in [1, 0] {
        let Fives {
            own_at,
            empty_at,
            clear,
        } = Fives::along(own, empty, d);
        for (j, &empty_j) in empty_at.iter().enumerate() {
            let mut starts = empty_j & clear;
            for (k, &o) in own_at.iter().enumerate().take(5) {
                if k != j {
                    starts &= o;
                }
            }
            // The j-th cell from each start is the winning one.
            for _ in 0..j {
                starts = shift(starts, d);
            }
            found |= starts;
        }
    }
    found
}

/// The empty cells where an `own` drop makes two or more winning cells at once.
fn double_threats(own: u64, empty: u64) -> u64 {
    makers(own, empty, 2)
}

/// The empty cells where an `own` drop leaves `at_least` winning cells or more.
fn makers(own: u64, empty: u64, at_least: u32) -> u64 {
    // A new winning cell comes only from five cells holding three own pieces and two empty
    // cells, one of them the drop's; any drop leaves one when `own` has one already.
    let near = if completing(own, empty) != 0 {
        empty
    } else {
        two_short(own, empty)
    };
    cells(near)
        .map(bit)
        .filter(|&c| completing(own | c, empty & !c).count_ones() >= at_least)
        .fold(0, |all, c| all | c)
}

/// The empty cells of the five cells in a row or column that hold three `own` pieces and two
/// empty cells, with no `own` piece just before or just after them: the drops that can make a
/// winning cell.
fn two_short(own: u64, empty: u64) -> u64 {
    let mut found = 0;
    for d in [1, 0] {
        let Fives {
            own_at,
            empty_at,
            clear,
        } = Fives::along(own, empty, d);
        // Each pair of the five cells empty, the other three own.
        for i in 0..5 {
            for j in i + 1..5 {
                let mut starts = empty_at[i] & empty_at[j] & clear;
                for (k, &o) in own_at.iter().enumerate().take(5) {
                    if k != i && k != j {
                        starts &= o;
                    }
                }
                if starts == 0 {
                    continue;
                }
                let (mut a, mut b) = (starts, starts);
                for _ in 0..i {
                    a = shift(a, d);
                }
                for _ in 0..j {
                    b = shift(b, d);
                }
                found |= a | b;
            }
        }
    }
    found
}

/// The mover's drops after which the opponent has no win by force within its next two actions:
/// no winning action at once, and no drop that leaves it two winning cells while the mover has
/// none. `own` and `theirs` are the mover's and the opponent's pieces; `step_wins` the
/// opponent's winning step destinations when its next action is a step (its hand is empty),
/// `None` when it still drops.
fn holding(own: u64, theirs: u64, empty: u64, t: &Threats, step_wins: Option<u64>) -> u64 {
    // A drop elsewhere than on these changes nothing of the opponent's threats and gives the
    // mover no winning cell: the mover's wins and the drops that make it one, the opponent's
    // winning cells, its double threats and the winning cells they make.
    let mut candidates = t.wins | makers(own, empty, 1) | t.opponent_wins;
    for c in cells(t.opponent_double_threats).map(bit) {
        candidates |= c | completing(theirs | c, empty & !c);
    }
    let fails = |d: u64| {
        let (own, empty) = (own | d, empty & !d);
        if let Some(wins) = step_wins {
            return wins & !d != 0;
        }
        if completing(theirs, empty) != 0 {
            return true;
        }
        if t.opponent_double_threats == 0 {
            return false;
        }
        // A double threat the mover cannot answer with a winning drop of its own.
        cells(double_threats(theirs, empty))
            .map(bit)
            .any(|c| completing(own, empty & !c) == 0)
    };
    cells(candidates & empty)
        .map(bit)
        .filter(|&d| t.wins & d != 0 || !fails(d))
        .fold(0, |all, d| all | d)
}

/// Calls `f(from, to)` for every one-cell step of the pieces `own` to an empty cell that leaves
/// them with exactly five in a row.
fn winning_steps(own: u64, empty: u64, mut f: impl FnMut(Point, Point)) {
    for (d, &(dc, dr)) in ORTHOGONAL.iter().enumerate() {
        let mut targets = shift(own, d) & empty;
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets &= targets - 1;
            let from = shift(to, back(d));
            if bitboard::five_cells(own ^ from ^ to) != 0 {
                let to = cells(to).next();
                if let Some(to) = to {
                    let from = Point::new(
                        to.col().wrapping_add_signed(-dc),
                        to.row().wrapping_add_signed(-dr),
                    );
                    f(from, to);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
