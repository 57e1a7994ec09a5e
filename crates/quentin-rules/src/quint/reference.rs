//! Quint's rules as they were before the bitboards (issue 20): scans of the padded board, a
//! list of changes behind every action. Kept as the reference that the differential test holds
//! the fast rules to.

use super::history::History;
use super::{Key, QuintViolation, REPETITIONS, SIZE, quints};
use crate::action::{Action, Captures};
use crate::board::{Board, EMPTY, ORTHOGONAL, ORTHOGONAL_STEPS, PointSet, stone};
use crate::color::Color;
use crate::point::Point;
use crate::{Change, Ending, Illegal, Outcome};

/// A Quint position: board, pieces in hand, side to move, outcome and the positions that can
/// still repeat.
#[derive(Clone, Debug)]
pub(super) struct Reference {
    board: Board,
    in_hand: [usize; 2],
    to_move: Color,
    ply: usize,
    outcome: Option<Outcome>,
    /// The positions since the last drop or capture, the current one last. Earlier positions
    /// cannot come back: a drop lowers the pieces in hand and a capture the pieces in play, and
    /// neither count ever rises again.
    history: History,
}

impl Reference {
    /// The empty board with `pieces` in each hand, White to move.
    pub(super) fn new(pieces: usize) -> Reference {
        Reference::from_position(Board::new(SIZE), [pieces; 2], Color::White)
    }

    /// The position with `board`, `in_hand` (Black first) and `to_move`, judged as if
    /// `to_move`'s opponent had just acted. The caller checks that it is a Quint position.
    pub(super) fn from_position(board: Board, in_hand: [usize; 2], to_move: Color) -> Reference {
        let mut quint = Reference {
            board,
            in_hand,
            to_move,
            ply: 0,
            outcome: None,
            history: History::default(),
        };
        let key = quint.key();
        quint.history.push(key);
        quint.outcome = quint.judge(to_move.opponent(), key.pieces);
        quint
    }

    pub(super) fn board(&self) -> &Board {
        &self.board
    }

    pub(super) fn to_move(&self) -> Option<Color> {
        self.outcome.is_none().then_some(self.to_move)
    }

    pub(super) fn ply(&self) -> usize {
        self.ply
    }

    pub(super) fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The pieces each side still has to drop, Black first.
    pub(super) fn in_hand(&self) -> [usize; 2] {
        self.in_hand
    }

    /// Whether pieces are still being dropped: until both sides have dropped all of theirs.
    fn dropping(&self) -> bool {
        self.in_hand != [0, 0]
    }

    fn key(&self) -> Key {
        Key {
            pieces: self.bitboards(),
            in_hand: self.in_hand,
            to_move: self.to_move,
        }
    }

    /// Each colour's pieces as 64 bits, bit `row * 8 + col`, Black first: read straight from the
    /// board's cells, for the repetition key and the quick test for a line of five.
    fn bitboards(&self) -> [u64; 2] {
        let mut pieces = [0u64; 2];
        for row in 0..SIZE {
            let first = Point::new(0, row).index();
            for col in 0..SIZE {
                match self.board.cell(first + col) {
                    c if c == stone(Color::Black) => pieces[0] |= 1 << (row * SIZE + col),
                    c if c == stone(Color::White) => pieces[1] |= 1 << (row * SIZE + col),
                    _ => {}
                }
            }
        }
        pieces
    }

    /// Every legal action: the empty cells in the drop phase; in the move phase every step with
    /// every subset of the pieces it may capture. Empty once the game is over.
    pub(super) fn legal_actions(&self) -> Vec<Action> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        if self.dropping() {
            return self
                .board
                .points()
                .filter(|&p| self.board.is_empty_at(p))
                .map(Action::Place)
                .collect();
        }
        let mut actions = Vec::new();
        for (from, to) in steps(&self.board, self.to_move) {
            let capturable = capturable(&self.board, to, self.to_move);
            for subset in 0..1u32 << capturable.len() {
                let chosen = capturable
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| subset & (1 << i) != 0)
                    .map(|(_, &p)| p);
                // At most three distinct cells next to `to`: always a valid set.
                if let Ok(captures) = Captures::from_points(chosen) {
                    actions.push(Action::Step { from, to, captures });
                }
            }
        }
        actions
    }

    /// The one-cell steps of the side to move as (from, to), appended to `out`: nothing in the
    /// drop phase or once the game is over. For playouts that choose a step without listing
    /// every capture subset.
    pub(super) fn steps_into(&self, out: &mut Vec<(Point, Point)>) {
        if self.outcome.is_some() || self.dropping() {
            return;
        }
        // Straight from the padded cells: the hot loop of Quint's playouts.
        let piece = stone(self.to_move);
        for row in 0..SIZE {
            let first = Point::new(0, row).index();
            for i in first..first + SIZE {
                if self.board.cell(i) != piece {
                    continue;
                }
                for d in ORTHOGONAL_STEPS {
                    let j = i.wrapping_add_signed(d);
                    if self.board.cell(j) == EMPTY {
                        out.push((Point::from_index(i), Point::from_index(j)));
                    }
                }
            }
        }
    }

    /// The enemy pieces the side to move may capture by stepping to `to` (any subset of them,
    /// possibly none, makes a legal step with a legal from-cell).
    pub(super) fn capturable_from(&self, to: Point) -> Captures {
        // At most three cells next to `to` beyond the cell stepped from: always a valid set.
        Captures::from_points(capturable(&self.board, to, self.to_move)).unwrap_or_default()
    }

    /// Whether `color` has a legal action on its turn.
    fn can_act(&self, color: Color) -> bool {
        if self.dropping() {
            self.in_hand[color.index()] > 0
                && self.board.points().any(|p| self.board.is_empty_at(p))
        } else {
            steps(&self.board, color).next().is_some()
        }
    }

    /// What `action` would change, the piece placed first, without playing it.
    pub(super) fn preview(&self, action: Action) -> Result<Vec<Change>, Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        let color = self.to_move;
        let enemy = color.opponent();
        let on_board = |p: Point| {
            if self.board.contains(p) {
                Ok(())
            } else {
                Err(Illegal::OffBoard(p))
            }
        };
        let empty = |p: Point| {
            if self.board.is_empty_at(p) {
                Ok(())
            } else {
                Err(QuintViolation::NotEmpty(p))
            }
        };
        let placed = |p: Point| Change {
            point: p,
            before: None,
            after: Some(color),
        };
        match action {
            Action::Place(p) => {
                if !self.dropping() {
                    return Err(QuintViolation::DropsOver.into());
                }
                on_board(p)?;
                empty(p)?;
                Ok(vec![placed(p)])
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
                if self.board.get(from) != Some(color) {
                    return Err(QuintViolation::NotOwnPiece { from, color }.into());
                }
                if direction(from, to).is_none() {
                    return Err(QuintViolation::NotOneStep { from, to }.into());
                }
                empty(to)?;
                let mut changes = vec![
                    placed(to),
                    Change {
                        point: from,
                        before: Some(color),
                        after: None,
                    },
                ];
                for capture in captures.iter() {
                    let Some(d) = direction(to, capture) else {
                        return Err(QuintViolation::NotNextTo { capture, to }.into());
                    };
                    if self.board.get(capture) != Some(enemy) {
                        return Err(QuintViolation::NoEnemy { capture, enemy }.into());
                    }
                    if self.board.step(capture, d).and_then(|b| self.board.get(b)) != Some(color) {
                        return Err(QuintViolation::NothingBeyond { capture, color }.into());
                    }
                    changes.push(Change {
                        point: capture,
                        before: Some(enemy),
                        after: None,
                    });
                }
                Ok(changes)
            }
            Action::Swap => Err(Illegal::SwapNotOffered),
            Action::Pass => Err(QuintViolation::NoPass.into()),
        }
    }

    /// Plays `action` for the side to move.
    ///
    /// # Errors
    /// The reason it is illegal; the position is then unchanged.
    pub(super) fn play(&mut self, action: Action) -> Result<(), Illegal> {
        let changes = self.preview(action)?;
        for change in &changes {
            self.board.set(change.point, change.after);
        }
        let mover = self.to_move;
        let irreversible = match action {
            Action::Place(_) => {
                self.in_hand[mover.index()] -= 1;
                true
            }
            Action::Step { captures, .. } => !captures.is_empty(),
            Action::Swap | Action::Pass => false,
        };
        if irreversible {
            self.history.clear();
        }
        self.to_move = mover.opponent();
        self.ply += 1;
        let key = self.key();
        self.history.push(key);
        self.outcome = self.judge(mover, key.pieces);
        Ok(())
    }

    /// The end of the game, if `mover`'s action just ended it, in the order of docs/rules.md:
    /// the mover's quint, the opponent's quint, the opponent without pieces or without a legal
    /// action in the move phase, the third repetition. `bits` are the position's
    /// [`Reference::bitboards`].
    fn judge(&self, mover: Color, bits: [u64; 2]) -> Option<Outcome> {
        let opponent = mover.opponent();
        for color in [mover, opponent] {
            let line = quints(&self.board, color);
            if !line.is_empty() {
                return Some(Outcome::Win {
                    winner: color,
                    line,
                    ending: Ending::Quint,
                });
            }
        }
        let no_pieces = !self.dropping() && bits[opponent.index()] == 0;
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

/// The direction of the one orthogonal step from `from` to `to`, if it is one.
fn direction(from: Point, to: Point) -> Option<(isize, isize)> {
    let d = (
        to.col() as isize - from.col() as isize,
        to.row() as isize - from.row() as isize,
    );
    ORTHOGONAL.contains(&d).then_some(d)
}

/// Every one-cell orthogonal step of a `color` piece to an empty cell, as (from, to).
fn steps(board: &Board, color: Color) -> impl Iterator<Item = (Point, Point)> + '_ {
    board
        .points()
        .filter(move |&p| board.get(p) == Some(color))
        .flat_map(move |from| {
            board
                .neighbours(from)
                .filter(|&to| board.is_empty_at(to))
                .map(move |to| (from, to))
        })
}

/// The enemy pieces a `color` piece arriving on `to` may capture: orthogonally next to `to`,
/// with a `color` piece directly beyond. The cell the piece left never counts: it is next to `to`
/// and held no enemy, and it is not two cells from `to`.
fn capturable(board: &Board, to: Point, color: Color) -> Vec<Point> {
    ORTHOGONAL
        .into_iter()
        .filter_map(|d| {
            let enemy = board.step(to, d)?;
            let beyond = board.step(enemy, d)?;
            (board.get(enemy) == Some(color.opponent()) && board.get(beyond) == Some(color))
                .then_some(enemy)
        })
        .collect()
}
