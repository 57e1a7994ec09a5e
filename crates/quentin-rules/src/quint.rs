//! Quint (M. Winther, 2005): an 8×8 board of cells, a drop phase, then one-step orthogonal moves
//! with optional custodian captures; exactly five in a row wins, and the third repetition of a
//! position is a draw.

mod bitboard;
#[cfg(test)]
mod differential;
mod history;
mod lines;
#[cfg(test)]
mod reference;
pub mod threats;
mod violation;

use super::action::{Action, Captures};
use super::board::{Board, ORTHOGONAL, PointSet};
use super::color::Color;
use super::point::Point;
use super::{Change, Ending, Illegal, Outcome};

pub use lines::quints;
pub use violation::QuintViolation;

use bitboard::back;
use history::History;

/// The board side: Quint is played on 8×8 cells only.
pub const SIZE: usize = 8;
/// The numbers of pieces per player a game may start with.
pub const PIECE_OPTIONS: [usize; 3] = [15, 20, 25];
/// The pieces per player when none is chosen.
pub const DEFAULT_PIECES: usize = 20;
/// How many occurrences of one position draw the game.
const REPETITIONS: usize = 3;

/// A position as the repetition rule compares them: board, pieces in hand, side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    /// One bit per cell for each colour, Black first.
    pieces: [u64; 2],
    in_hand: [usize; 2],
    to_move: Color,
}

/// A Quint position: board, pieces in hand, side to move, outcome and the positions that can
/// still repeat.
#[derive(Clone, Debug)]
pub(crate) struct Quint {
    board: Board,
    /// Each colour's pieces, Black first, as [`bitboard`]s kept with the board: the counts,
    /// steps, captures and lines are read from them, the board is kept for its readers.
    bits: [u64; 2],
    in_hand: [usize; 2],
    to_move: Color,
    ply: usize,
    outcome: Option<Outcome>,
    /// The positions since the last drop or capture, the current one last. Earlier positions
    /// cannot come back: a drop lowers the pieces in hand and a capture the pieces in play, and
    /// neither count ever rises again.
    history: History,
}

impl Quint {
    /// The empty board with `pieces` in each hand, White to move.
    pub(crate) fn new(pieces: usize) -> Quint {
        Quint::from_position(Board::new(SIZE), [pieces; 2], Color::White)
    }

    /// The position with `board`, `in_hand` (Black first) and `to_move`, judged as if
    /// `to_move`'s opponent had just acted. The caller checks that it is a Quint position.
    pub(crate) fn from_position(mut board: Board, in_hand: [usize; 2], to_move: Color) -> Quint {
        // Quint keeps its own 64-bit boards; the board's general ones would only cost upkeep.
        board.keep_bitboards(false);
        let mut bits = [0u64; 2];
        for p in board.points() {
            if let Some(c) = board.get(p) {
                bits[c.index()] |= bitboard::bit(p);
            }
        }
        let mut quint = Quint {
            board,
            bits,
            in_hand,
            to_move,
            ply: 0,
            outcome: None,
            history: History::default(),
        };
        quint.history.push(quint.key());
        quint.outcome = quint.judge(to_move.opponent(), true);
        quint
    }

    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    pub(crate) fn to_move(&self) -> Option<Color> {
        self.outcome.is_none().then_some(self.to_move)
    }

    pub(crate) fn ply(&self) -> usize {
        self.ply
    }

    /// Quint has no pie rule.
    pub(crate) fn swapped(&self) -> bool {
        false
    }

    pub(crate) fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub(crate) fn winner(&self) -> Option<Color> {
        self.outcome.as_ref().and_then(Outcome::winner)
    }

    pub(crate) fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The pieces each side still has to drop, Black first.
    pub(crate) fn in_hand(&self) -> [usize; 2] {
        self.in_hand
    }

    /// The pieces each side has on the board, Black first: two popcounts.
    pub(crate) fn on_board(&self) -> [usize; 2] {
        self.bits.map(|b| b.count_ones() as usize)
    }

    /// Whether pieces are still being dropped: until both sides have dropped all of theirs.
    fn dropping(&self) -> bool {
        self.in_hand != [0, 0]
    }

    /// The empty cells.
    fn empty(&self) -> u64 {
        !(self.bits[0] | self.bits[1])
    }

    fn key(&self) -> Key {
        Key {
            pieces: self.bits,
            in_hand: self.in_hand,
            to_move: self.to_move,
        }
    }

    /// Every legal action: the empty cells in the drop phase; in the move phase every step with
    /// every subset of the pieces it may capture. Empty once the game is over.
    pub(crate) fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(&mut actions);
        actions
    }

    /// [`Quint::legal_actions`] appended to `out`, in the same order, without allocating when
    /// `out` has room: cells from `a1` row by row, each step's capture subsets by their bits.
    pub(crate) fn legal_actions_into(&self, out: &mut Vec<Action>) {
        if self.outcome.is_some() {
            return;
        }
        if self.dropping() {
            out.extend(bitboard::cells(self.empty()).map(Action::Place));
            return;
        }
        self.each_step(|from, to| {
            let (capturable, n) = self.capturable(to, self.to_move);
            for subset in 0..1u32 << n {
                let chosen = (0..n)
                    .filter(|i| subset & (1 << i) != 0)
                    .map(|i| capturable[i]);
                // At most three distinct cells next to `to`: always a valid set.
                if let Ok(captures) = Captures::from_points(chosen) {
                    out.push(Action::Step { from, to, captures });
                }
            }
        });
    }

    /// Calls `f(from, to)` for every one-cell step of the side to move: pieces from `a1` row by
    /// row, each one's steps in the order of [`ORTHOGONAL`].
    fn each_step(&self, mut f: impl FnMut(Point, Point)) {
        let free = self.free();
        for from in bitboard::cells(free[0] | free[1] | free[2] | free[3]) {
            let b = bitboard::bit(from);
            for (d, &free) in free.iter().enumerate() {
                if free & b != 0 {
                    f(from, neighbour(from, d));
                }
            }
        }
    }

    /// For each direction of [`ORTHOGONAL`], the pieces of the side to move whose neighbour
    /// that way is empty.
    fn free(&self) -> [u64; 4] {
        let own = self.bits[self.to_move.index()];
        let empty = self.empty();
        [0, 1, 2, 3].map(|d| bitboard::shift(bitboard::shift(own, d) & empty, back(d)))
    }

    /// The step [`Quint::steps_into`] would list at index `pick(n)`, `n` being how many it would
    /// list, without listing them; `None` when it would list none (`pick` is then not called).
    pub(crate) fn pick_step(&self, pick: impl FnOnce(usize) -> usize) -> Option<(Point, Point)> {
        if self.outcome.is_some() || self.dropping() {
            return None;
        }
        let free = self.free();
        let n: u32 = free.iter().map(|f| f.count_ones()).sum();
        if n == 0 {
            return None;
        }
        let mut k = pick(n as usize);
        for from in bitboard::cells(free[0] | free[1] | free[2] | free[3]) {
            let b = bitboard::bit(from);
            for (d, &free) in free.iter().enumerate() {
                if free & b != 0 {
                    if k == 0 {
                        return Some((from, neighbour(from, d)));
                    }
                    k -= 1;
                }
            }
        }
        None
    }

    /// The one-cell steps of the side to move as (from, to), appended to `out`: nothing in the
    /// drop phase or once the game is over. For playouts that choose a step without listing
    /// every capture subset.
    pub(crate) fn steps_into(&self, out: &mut Vec<(Point, Point)>) {
        if self.outcome.is_some() || self.dropping() {
            return;
        }
        self.each_step(|from, to| out.push((from, to)));
    }

    /// The enemy pieces the side to move may capture by stepping to `to` (any subset of them,
    /// possibly none, makes a legal step with a legal from-cell).
    pub(crate) fn capturable_from(&self, to: Point) -> Captures {
        let (cells, n) = self.capturable(to, self.to_move);
        // At most three cells next to `to` beyond the cell stepped from: always a valid set.
        Captures::from_points(cells.into_iter().take(n)).unwrap_or_default()
    }

    /// The enemy pieces a `color` piece arriving on `to` may capture, in the order of
    /// [`ORTHOGONAL`], and how many: orthogonally next to `to`, with a `color` piece directly
    /// beyond. The cell the piece left never counts: it is next to `to` and held no enemy, and
    /// it is not two cells from `to`.
    fn capturable(&self, to: Point, color: Color) -> ([Point; 4], usize) {
        let own = self.bits[color.index()];
        let enemy = self.bits[color.opponent().index()];
        let at = bitboard::bit(to);
        let mut found = [to; 4];
        let mut n = 0;
        for d in 0..ORTHOGONAL.len() {
            let next = bitboard::shift(at, d);
            if next & enemy != 0 && bitboard::shift(next, d) & own != 0 {
                found[n] = neighbour(to, d);
                n += 1;
            }
        }
        (found, n)
    }

    /// Whether `color` has a legal action on its turn.
    fn can_act(&self, color: Color) -> bool {
        let empty = self.empty();
        if self.dropping() {
            self.in_hand[color.index()] > 0 && empty != 0
        } else {
            bitboard::next_to(self.bits[color.index()]) & empty != 0
        }
    }

    /// Why `action` is illegal for the side to move, if it is; the reasons in the order the
    /// rules give them.
    fn check(&self, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        let color = self.to_move;
        let enemy = color.opponent();
        let on_board = |p: Point| {
            if p.col() < SIZE && p.row() < SIZE {
                Ok(())
            } else {
                Err(Illegal::OffBoard(p))
            }
        };
        let empty = |p: Point| {
            if self.empty() & bitboard::bit(p) != 0 {
                Ok(())
            } else {
                Err(QuintViolation::NotEmpty(p))
            }
        };
        let holds = |p: Point, c: Color| self.bits[c.index()] & bitboard::bit(p) != 0;
        match action {
            Action::Place(p) => {
                if !self.dropping() {
                    return Err(QuintViolation::DropsOver.into());
                }
                on_board(p)?;
                empty(p)?;
                Ok(())
            }
            Action::Step { from, to, captures } => {
                if self.dropping() {
                    return Err(QuintViolation::DropsNotOver {
                        color,
                        in_hand: self.in_hand[color.index()],
                    }
                    .into());
                }
                action.points().try_for_each(on_board)?;
                if !holds(from, color) {
                    return Err(QuintViolation::NotOwnPiece { from, color }.into());
                }
                if direction(from, to).is_none() {
                    return Err(QuintViolation::NotOneStep { from, to }.into());
                }
                empty(to)?;
                for capture in captures.iter() {
                    let Some(d) = direction(to, capture) else {
                        return Err(QuintViolation::NotNextTo { capture, to }.into());
                    };
                    if !holds(capture, enemy) {
                        return Err(QuintViolation::NoEnemy { capture, enemy }.into());
                    }
                    if !capture.offset(d, SIZE).is_some_and(|b| holds(b, color)) {
                        return Err(QuintViolation::NothingBeyond { capture, color }.into());
                    }
                }
                Ok(())
            }
            Action::Swap => Err(Illegal::SwapNotOffered),
            Action::Pass => Err(QuintViolation::NoPass.into()),
        }
    }

    /// What `action` would change, the piece placed first, without playing it.
    pub(crate) fn preview(&self, action: Action) -> Result<Vec<Change>, Illegal> {
        let mut changes = Vec::new();
        self.check(action)?;
        self.changes_into(action, &mut changes);
        Ok(changes)
    }

    /// What the legal `action` changes, appended to `changes`: the piece placed first, then the
    /// cell a step leaves, then the captured pieces.
    fn changes_into(&self, action: Action, changes: &mut Vec<Change>) {
        let color = self.to_move;
        let placed = |p: Point| Change {
            point: p,
            before: None,
            after: Some(color),
        };
        match action {
            Action::Place(p) => changes.push(placed(p)),
            Action::Step { from, to, captures } => {
                changes.push(placed(to));
                changes.push(Change {
                    point: from,
                    before: Some(color),
                    after: None,
                });
                changes.extend(captures.iter().map(|capture| Change {
                    point: capture,
                    before: Some(color.opponent()),
                    after: None,
                }));
            }
            Action::Swap | Action::Pass => {}
        }
    }

    /// Drops a piece of the side to move on `p` if that is legal, writing what changed into
    /// `changes` (cleared first), as `play(Action::Place(p))` does.
    pub(crate) fn place(&mut self, p: Point, changes: &mut Vec<Change>) -> Result<(), Illegal> {
        let action = Action::Place(p);
        self.check(action)?;
        changes.clear();
        self.changes_into(action, changes);
        self.apply(action);
        Ok(())
    }

    /// Plays `action` for the side to move.
    ///
    /// # Errors
    /// The reason it is illegal; the position is then unchanged.
    pub(crate) fn play(&mut self, action: Action) -> Result<(), Illegal> {
        self.check(action)?;
        self.apply(action);
        Ok(())
    }

    /// Plays the legal `action`.
    fn apply(&mut self, action: Action) {
        let mover = self.to_move;
        let (own, enemy) = (mover.index(), mover.opponent().index());
        let irreversible = match action {
            Action::Place(p) => {
                self.board.set(p, Some(mover));
                self.bits[own] |= bitboard::bit(p);
                self.in_hand[own] -= 1;
                true
            }
            Action::Step { from, to, captures } => {
                self.board.set(to, Some(mover));
                self.board.set(from, None);
                self.bits[own] ^= bitboard::bit(from) | bitboard::bit(to);
                for capture in captures.iter() {
                    self.board.set(capture, None);
                    self.bits[enemy] &= !bitboard::bit(capture);
                }
                !captures.is_empty()
            }
            Action::Swap | Action::Pass => false,
        };
        // Only a capture changes the opponent's pieces.
        let captured = irreversible && !matches!(action, Action::Place(_));
        if irreversible {
            self.history.clear();
        }
        self.to_move = mover.opponent();
        self.ply += 1;
        self.history.push(self.key());
        self.outcome = self.judge(mover, captured);
    }

    /// The end of the game, if `mover`'s action just ended it, in the order of docs/rules.md:
    /// the mover's quint, the opponent's quint, the opponent without pieces or without a legal
    /// action in the move phase, the third repetition. `opponent_changed`: whether the action
    /// changed the opponent's pieces (or there was no action).
    fn judge(&self, mover: Color, opponent_changed: bool) -> Option<Outcome> {
        let opponent = mover.opponent();
        // The opponent's pieces held no five before (the game would be over): only a capture,
        // cutting a six, can make one.
        let judged = if opponent_changed { 2 } else { 1 };
        for color in [mover, opponent].into_iter().take(judged) {
            let bits = self.bits[color.index()];
            if bitboard::five_starts(bits) != [0, 0] {
                let fives = bitboard::five_cells(bits);
                return Some(Outcome::Win {
                    winner: color,
                    line: bitboard::cells(fives).collect(),
                    ending: Ending::Quint,
                });
            }
        }
        let no_pieces = !self.dropping() && self.bits[opponent.index()] == 0;
        if no_pieces || !self.can_act(opponent) {
            return Some(Outcome::Win {
                winner: mover,
                line: PointSet::new(),
                ending: if no_pieces {
                    Ending::NoPieceLeft
                } else {
                    Ending::NoLegalAction
                },
            });
        }
        (self.history.seen() >= REPETITIONS).then_some(Outcome::Draw)
    }
}

/// Why `board`, `in_hand` (Black first) and `to_move` are no position of a Quint game with
/// `pieces` each, if they are not: the board must be 8×8, no side may have more than `pieces`
/// on the board and in hand, and the hands must fit alternate drops with White first (White to
/// move: equal hands; Black to move: one more in Black's hand, or both empty).
pub(crate) fn check_position(
    board: &Board,
    in_hand: [usize; 2],
    to_move: Color,
    pieces: usize,
) -> Result<(), String> {
    if board.size() != SIZE {
        return Err(format!("the board is {n}×{n}", n = board.size()));
    }
    let on_board = board.count();
    for color in Color::ALL {
        let i = color.index();
        if on_board[i] + in_hand[i] > pieces {
            return Err(format!(
                "{color} has {} pieces on the board and {} in hand, more than {pieces}",
                on_board[i], in_hand[i]
            ));
        }
    }
    let [black, white] = in_hand;
    let alternate = match to_move {
        Color::White => black == white,
        Color::Black => black == white + 1 || (black, white) == (0, 0),
    };
    if alternate {
        Ok(())
    } else {
        Err(format!(
            "{to_move} to move with {black} black and {white} white pieces in hand"
        ))
    }
}

/// The cell next to `p` in direction `d` of [`ORTHOGONAL`], which must be on the board.
fn neighbour(p: Point, d: usize) -> Point {
    let (dc, dr) = ORTHOGONAL[d];
    Point::new(
        p.col().wrapping_add_signed(dc),
        p.row().wrapping_add_signed(dr),
    )
}

/// The direction of the one orthogonal step from `from` to `to`, if it is one.
fn direction(from: Point, to: Point) -> Option<(isize, isize)> {
    let d = (
        to.col() as isize - from.col() as isize,
        to.row() as isize - from.row() as isize,
    );
    ORTHOGONAL.contains(&d).then_some(d)
}

#[cfg(test)]
mod tests;
