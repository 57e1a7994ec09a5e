//! Quint (M. Winther, 2005): an 8×8 board of cells, a drop phase, then one-step orthogonal moves
//! with optional custodian captures; exactly five in a row wins, and the third repetition of a
//! position is a draw.

use std::fmt;

use super::action::{Action, Captures};
use super::board::{Board, ORTHOGONAL, PointSet, stone};
use super::color::Color;
use super::point::{MAX_SIZE, Point};
use super::{Change, Illegal, Outcome};

/// The board side: Quint is played on 8×8 cells only.
pub const SIZE: usize = 8;
/// The numbers of pieces per player a game may start with.
pub const PIECE_OPTIONS: [usize; 3] = [15, 20, 25];
/// The pieces per player when none is chosen.
pub const DEFAULT_PIECES: usize = 20;
/// The length of a winning line: exactly this many, no more.
const QUINT: usize = 5;
/// How many occurrences of one position draw the game.
const REPETITIONS: usize = 3;

/// Why a Quint action is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuintViolation {
    /// A drop after both players have dropped all their pieces.
    DropsOver,
    /// A step while `color` still has `in_hand` pieces to drop.
    DropsNotOver {
        /// The side to move.
        color: Color,
        /// Its pieces in hand.
        in_hand: usize,
    },
    /// A drop on, or a step to, a cell that holds a piece.
    NotEmpty(Point),
    /// A step from a cell that holds no piece of the side to move.
    NotOwnPiece {
        /// The cell the step starts from.
        from: Point,
        /// The side to move.
        color: Color,
    },
    /// A step that is not one cell up, down, left or right.
    NotOneStep {
        /// Where it starts.
        from: Point,
        /// Where it ends.
        to: Point,
    },
    /// A captured cell that is not orthogonally next to the step's destination.
    NotNextTo {
        /// The cell named as captured.
        capture: Point,
        /// The step's destination.
        to: Point,
    },
    /// A captured cell that holds no enemy piece.
    NoEnemy {
        /// The cell named as captured.
        capture: Point,
        /// The colour it should hold.
        enemy: Color,
    },
    /// A captured cell with no piece of the mover directly beyond it.
    NothingBeyond {
        /// The cell named as captured.
        capture: Point,
        /// The mover.
        color: Color,
    },
    /// `pass`: a player with no legal action has lost instead.
    NoPass,
}

impl fmt::Display for QuintViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuintViolation::DropsOver => f.write_str("drops are over: move a piece"),
            QuintViolation::DropsNotOver { color, in_hand } => write!(
                f,
                "{color} still has {in_hand} piece{} to drop",
                if *in_hand == 1 { "" } else { "s" }
            ),
            QuintViolation::NotEmpty(p) => write!(f, "{p} is not empty"),
            QuintViolation::NotOwnPiece { from, color } => {
                write!(f, "{from} holds no {color} piece")
            }
            QuintViolation::NotOneStep { from, to } => {
                write!(f, "{from}-{to} is not a one-step orthogonal move")
            }
            QuintViolation::NotNextTo { capture, to } => {
                write!(f, "{capture} cannot be captured: it is not next to {to}")
            }
            QuintViolation::NoEnemy { capture, enemy } => {
                write!(f, "{capture} cannot be captured: it holds no {enemy} piece")
            }
            QuintViolation::NothingBeyond { capture, color } => {
                write!(
                    f,
                    "{capture} cannot be captured: no {color} piece beyond it"
                )
            }
            QuintViolation::NoPass => {
                f.write_str("Quint has no pass: a player without a legal action loses")
            }
        }
    }
}

impl From<QuintViolation> for Illegal {
    fn from(v: QuintViolation) -> Illegal {
        Illegal::Quint(v)
    }
}

/// A position as the repetition rule compares them: board, pieces in hand, side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    in_hand: [usize; 2],
    to_move: Color,
    ply: usize,
    outcome: Option<Outcome>,
    /// The positions since the last drop or capture, the current one last. Earlier positions
    /// cannot come back: a drop lowers the pieces in hand and a capture the pieces in play, and
    /// neither count ever rises again.
    history: Vec<Key>,
}

impl Quint {
    /// The empty board with `pieces` in each hand, White to move.
    pub(crate) fn new(pieces: usize) -> Quint {
        Quint::from_position(Board::new(SIZE), [pieces; 2], Color::White)
    }

    /// The position with `board`, `in_hand` (Black first) and `to_move`, judged as if
    /// `to_move`'s opponent had just acted. The caller checks that it is a Quint position.
    pub(crate) fn from_position(board: Board, in_hand: [usize; 2], to_move: Color) -> Quint {
        let mut quint = Quint {
            board,
            in_hand,
            to_move,
            ply: 0,
            outcome: None,
            history: Vec::new(),
        };
        quint.history.push(quint.key());
        quint.outcome = quint.judge(to_move.opponent());
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

    /// The pieces each side still has to drop, Black first.
    pub(crate) fn in_hand(&self) -> [usize; 2] {
        self.in_hand
    }

    /// Whether pieces are still being dropped: until both sides have dropped all of theirs.
    fn dropping(&self) -> bool {
        self.in_hand != [0, 0]
    }

    fn key(&self) -> Key {
        let mut pieces = [0u64; 2];
        for p in self.board.points() {
            if let Some(c) = self.board.get(p) {
                pieces[c.index()] |= 1 << (p.row() * SIZE + p.col());
            }
        }
        Key {
            pieces,
            in_hand: self.in_hand,
            to_move: self.to_move,
        }
    }

    /// Every legal action: the empty cells in the drop phase; in the move phase every step with
    /// every subset of the pieces it may capture. Empty once the game is over.
    pub(crate) fn legal_actions(&self) -> Vec<Action> {
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
    pub(crate) fn preview(&self, action: Action) -> Result<Vec<Change>, Illegal> {
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
    /// Plays uniformly random legal actions until the game ends; returns how many it played.
    /// The third repetition of a position ends a game, so this ends too.
    pub(crate) fn playout(&mut self, rng: &mut crate::rng::Rng) -> usize {
        let mut played = 0;
        loop {
            let legal = self.legal_actions();
            if legal.is_empty() {
                return played;
            }
            let action = legal[rng.below(legal.len())];
            if self.play(action).is_err() {
                // A listed action always plays; stop rather than loop should that ever fail.
                return played;
            }
            played += 1;
        }
    }

    pub(crate) fn play(&mut self, action: Action) -> Result<(), Illegal> {
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
        self.history.push(self.key());
        self.outcome = self.judge(mover);
        Ok(())
    }

    /// The end of the game, if `mover`'s action just ended it, in RULES.md's order: the mover's
    /// quint, the opponent's quint, the opponent without pieces or without a legal action in the
    /// move phase, the third repetition.
    fn judge(&self, mover: Color) -> Option<Outcome> {
        let opponent = mover.opponent();
        for color in [mover, opponent] {
            let line = quints(&self.board, color);
            if !line.is_empty() {
                return Some(Outcome::Win {
                    winner: color,
                    line,
                });
            }
        }
        let no_pieces = !self.dropping() && self.board.count()[opponent.index()] == 0;
        if no_pieces || !self.can_act(opponent) {
            return Some(Outcome::Win {
                winner: mover,
                line: PointSet::new(),
            });
        }
        let now = self.history.last()?;
        let seen = self.history.iter().filter(|k| *k == now).count();
        (seen >= REPETITIONS).then_some(Outcome::Draw)
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

/// Every `color` line of exactly five along a row or a column (a longer line does not count).
#[must_use]
pub fn quints(board: &Board, color: Color) -> PointSet {
    let n = board.size();
    // One bit per cell of each row, and of each column, read in one pass over the board.
    let mut rows = [0u32; MAX_SIZE];
    let mut columns = [0u32; MAX_SIZE];
    let piece = stone(color);
    for (row, bits) in rows.iter_mut().enumerate().take(n) {
        let first = Point::new(0, row).index();
        for (col, column) in columns.iter_mut().enumerate().take(n) {
            if board.cell(first + col) == piece {
                *bits |= 1 << col;
                *column |= 1 << row;
            }
        }
    }
    let mut found = PointSet::new();
    for i in 0..n {
        for start in exact_runs(rows[i], n) {
            (start..start + QUINT).for_each(|j| {
                found.insert(Point::new(j, i));
            });
        }
        for start in exact_runs(columns[i], n) {
            (start..start + QUINT).for_each(|j| {
                found.insert(Point::new(i, j));
            });
        }
    }
    found
}

/// Where the runs of exactly [`QUINT`] set bits of `line` (of `n` bits) start.
fn exact_runs(line: u32, n: usize) -> impl Iterator<Item = usize> {
    let five = (1u32 << QUINT) - 1;
    (0..=n.saturating_sub(QUINT)).filter(move |&start| {
        let run = (line >> start) & five == five;
        let before = start > 0 && line & (1 << (start - 1)) != 0;
        let after = line & (1 << (start + QUINT)) != 0;
        run && !before && !after
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Position, Setup};

    /// The position of `rows` (top row first) with `in_hand` (Black first) and `to_move`.
    fn position(rows: &str, in_hand: [usize; 2], to_move: Color) -> Position {
        let board = Board::from_rows(rows).unwrap();
        Setup::new(Game::Quint)
            .start_quint_from(&board, in_hand, to_move)
            .unwrap()
    }

    /// The position of `rows` after `tokens`.
    fn played(rows: &str, in_hand: [usize; 2], to_move: Color, tokens: &[&str]) -> Position {
        let mut pos = position(rows, in_hand, to_move);
        for token in tokens {
            act(&mut pos, token);
        }
        pos
    }

    /// The winning line, cell names in order.
    fn line(pos: &Position) -> Vec<String> {
        pos.outcome()
            .unwrap()
            .line()
            .iter()
            .map(|p| p.to_string())
            .collect()
    }

    fn act(pos: &mut Position, token: &str) {
        let action = Action::parse(token).unwrap();
        pos.play(action)
            .unwrap_or_else(|e| panic!("{token} is illegal: {e}"));
    }

    fn refused(pos: &Position, token: &str) -> String {
        let mut copy = pos.clone();
        let err = copy.play(Action::parse(token).unwrap()).unwrap_err();
        assert_eq!(copy.ply(), pos.ply(), "a refused action changes nothing");
        err.to_string()
    }

    fn at(pos: &Position, cell: &str) -> Option<Color> {
        pos.get(Point::parse(cell).unwrap())
    }

    fn winner(pos: &Position) -> Option<Color> {
        pos.outcome().and_then(Outcome::winner)
    }

    fn legal(pos: &Position) -> Vec<String> {
        let mut all: Vec<String> = pos.legal_actions().iter().map(|a| a.to_string()).collect();
        all.sort();
        all
    }

    const EMPTY: &str = "........|........|........|........|........|........|........|........";

    #[test]
    fn white_drops_first_and_steps_only_after_every_drop() {
        let mut pos = Setup {
            pieces: 15,
            ..Setup::new(Game::Quint)
        }
        .start()
        .unwrap();
        assert_eq!(pos.to_move(), Some(Color::White));
        assert_eq!(pos.in_hand(), Some([15, 15]));
        assert_eq!(pos.legal_actions().len(), 64);
        assert_eq!(refused(&pos, "a1-a2"), "white still has 15 pieces to drop");
        assert_eq!(
            refused(&pos, "pass"),
            "Quint has no pass: a player without a legal action loses"
        );
        assert!(refused(&pos, "swap").starts_with("swap is allowed only"));
        // Drops spread so that no line of five can form: every third cell of a row.
        let cells: Vec<Point> = (0..SIZE)
            .flat_map(|row| (0..SIZE).map(move |col| Point::new(col, row)))
            .filter(|p| (p.col() + p.row()) % 3 != 0)
            .take(30)
            .collect();
        for (i, &p) in cells.iter().enumerate() {
            assert!(
                pos.legal_actions()
                    .iter()
                    .all(|a| matches!(a, Action::Place(_)))
            );
            pos.play(Action::Place(p)).unwrap();
            let color = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            assert_eq!(pos.get(p), Some(color));
        }
        assert_eq!(pos.in_hand(), Some([0, 0]));
        assert_eq!(pos.to_move(), Some(Color::White));
        assert!(!pos.is_over());
        let free = Point::new(0, 0);
        assert_eq!(
            refused(&pos, &free.to_string()),
            "drops are over: move a piece"
        );
        assert!(
            pos.legal_actions()
                .iter()
                .all(|a| matches!(a, Action::Step { .. }))
        );
    }

    #[test]
    fn a_drop_that_sandwiches_captures_nothing() {
        let pos = played(
            "........|........|........|........|..WB....|........|........|........",
            [4, 4],
            Color::White,
            &["e4"],
        );
        assert_eq!(at(&pos, "d4"), Some(Color::Black));
        assert_eq!(pos.board().count(), [1, 2]);
    }

    #[test]
    fn a_drop_of_exactly_five_wins() {
        let pos = played(
            "........|........|........|........|........|........|BBBB....|WWWW....",
            [1, 1],
            Color::White,
            &["e1"],
        );
        assert_eq!(winner(&pos), Some(Color::White));
        assert_eq!(line(&pos), ["a1", "b1", "c1", "d1", "e1"]);
        assert!(pos.legal_actions().is_empty());
        assert_eq!(pos.to_move(), None);
    }

    #[test]
    fn an_overline_does_not_win() {
        // White closes a1-f1 into six: no win, in the drop phase and in the move phase.
        let dropping = played(
            "........|........|........|........|........|........|BBBB....|WWWW.W..",
            [1, 1],
            Color::White,
            &["e1"],
        );
        assert!(!dropping.is_over());
        let moving = played(
            "........|........|........|.......B|.......B|........|....W...|WWWW.W..",
            [0, 0],
            Color::White,
            &["e2-e1"],
        );
        assert!(!moving.is_over());
        // A vertical five does win.
        let mut column = played(
            "......B.|.......B|.......B|.......B|.......B|..W.....|..W.....|..W...W.",
            [0, 0],
            Color::White,
            &["g1-f1"],
        );
        assert!(!column.is_over());
        act(&mut column, "g8-h8");
        assert_eq!(
            winner(&column),
            Some(Color::Black),
            "h4-h8 is a vertical five"
        );
    }

    #[test]
    fn cutting_the_opponents_six_to_five_makes_the_opponent_win() {
        let rows = "........|........|.....W..|BBBBBB..|......W.|........|........|........";
        let declined = played(rows, [0, 0], Color::White, &["g4-f4"]);
        assert!(!declined.is_over());
        let cut = played(rows, [0, 0], Color::White, &["g4-f4xf5"]);
        assert_eq!(at(&cut, "f5"), None);
        assert_eq!(winner(&cut), Some(Color::Black));
        assert_eq!(line(&cut), ["a5", "b5", "c5", "d5", "e5"]);
    }

    #[test]
    fn the_movers_five_comes_before_the_opponents() {
        let rows = "........|........|.....W..|BBBBBB..|.WWWW.W.|........|........|........";
        let pos = played(rows, [0, 0], Color::White, &["g4-f4xf5"]);
        assert_eq!(winner(&pos), Some(Color::White));
        assert!(
            pos.outcome()
                .unwrap()
                .line()
                .contains(Point::parse("f4").unwrap())
        );
    }

    #[test]
    fn a_declined_capture_leaves_the_piece() {
        let rows = "........|........|.....W..|.....B..|......W.|........|.......B|........";
        let pos = position(rows, [0, 0], Color::White);
        let legal = legal(&pos);
        assert!(legal.contains(&"g4-f4".to_string()));
        assert!(legal.contains(&"g4-f4xf5".to_string()));
        let mut declined = pos.clone();
        act(&mut declined, "g4-f4");
        assert_eq!(at(&declined, "f5"), Some(Color::Black));
        assert_eq!(at(&declined, "f4"), Some(Color::White));
        assert_eq!(at(&declined, "g4"), None);
    }

    #[test]
    fn a_step_chooses_any_subset_of_its_captures() {
        // White arriving on d4 may take c4 (b4 beyond), e4 (f4 beyond) and d5 (d6 beyond).
        let rows = "........|........|...W....|...B....|.WB.BW..|...W....|........|.......B";
        let pos = position(rows, [0, 0], Color::White);
        let from_d3: Vec<String> = legal(&pos)
            .into_iter()
            .filter(|a| a.starts_with("d3-d4"))
            .collect();
        assert_eq!(
            from_d3,
            [
                "d3-d4",
                "d3-d4xc4",
                "d3-d4xc4xd5",
                "d3-d4xc4xd5xe4",
                "d3-d4xc4xe4",
                "d3-d4xd5",
                "d3-d4xd5xe4",
                "d3-d4xe4"
            ]
        );
        let mut pos = pos;
        act(&mut pos, "d3-d4XE4xC4");
        assert_eq!(pos.board().rows()[4], ".W.W.W..");
        assert_eq!(at(&pos, "d5"), Some(Color::Black));
    }

    #[test]
    fn stepping_between_two_enemies_is_safe() {
        let rows = "........|........|........|........|..B.B...|...W....|........|.......B";
        let pos = played(rows, [0, 0], Color::White, &["d3-d4"]);
        assert_eq!(at(&pos, "d4"), Some(Color::White));
        // No black step can take it: no black piece can arrive next to it with one beyond.
        assert!(!legal(&pos).iter().any(|a| a.ends_with("xd4")));
    }

    #[test]
    fn the_stalemated_side_loses() {
        let rows = "........|........|........|........|........|W.......|........|BW......";
        let pos = played(rows, [0, 0], Color::White, &["a3-a2"]);
        assert_eq!(at(&pos, "a1"), Some(Color::Black));
        assert_eq!(winner(&pos), Some(Color::White));
        assert!(pos.outcome().unwrap().line().is_empty());
        assert!(pos.legal_actions().is_empty());
    }

    #[test]
    fn a_position_set_up_stalemated_is_already_over() {
        let rows = "........|........|........|........|........|........|W.......|BW......";
        let pos = position(rows, [0, 0], Color::Black);
        assert_eq!(winner(&pos), Some(Color::White));
    }

    #[test]
    fn the_side_without_pieces_loses() {
        let rows = "........|........|........|........|...W....|...B....|........|...W...W";
        let pos = played(rows, [0, 0], Color::White, &["d1-d2xd3"]);
        assert_eq!(pos.board().count(), [0, 3]);
        assert_eq!(winner(&pos), Some(Color::White));
    }

    #[test]
    fn the_third_repetition_draws() {
        let rows = "W.......|........|........|........|........|........|........|.......B";
        let mut pos = position(rows, [0, 0], Color::White);
        let round = ["a8-b8", "h1-g1", "b8-a8", "g1-h1"];
        for token in round {
            act(&mut pos, token);
        }
        // The start is on the board for the second time.
        assert!(!pos.is_over());
        for token in &round[..3] {
            act(&mut pos, token);
            assert!(!pos.is_over());
        }
        act(&mut pos, "g1-h1");
        assert_eq!(pos.outcome(), Some(&Outcome::Draw));
        assert_eq!(winner(&pos), None);
        assert!(pos.outcome().unwrap().line().is_empty());
        assert!(pos.legal_actions().is_empty());
        assert_eq!(refused(&pos, "a8-b8"), "the game is over");
    }

    #[test]
    fn a_capture_starts_the_repetition_count_afresh() {
        // Positions before a drop or a capture can never come back: only what follows is kept.
        let board = Board::from_rows(
            "W.......|........|........|........|..W.....|..B.....|...W....|.......B",
        )
        .unwrap();
        let mut quint = Quint::from_position(board, [0, 0], Color::White);
        for token in ["a8-b8", "h1-g1", "b8-a8", "g1-h1"] {
            quint.play(Action::parse(token).unwrap()).unwrap();
        }
        assert_eq!(quint.history.len(), 5);
        quint.play(Action::parse("d2-c2xc3").unwrap()).unwrap();
        assert_eq!(quint.history.len(), 1);
        quint.play(Action::parse("h1-g1").unwrap()).unwrap();
        assert_eq!(quint.history.len(), 2);
        let mut dropping = Quint::new(15);
        dropping.play(Action::parse("c4").unwrap()).unwrap();
        assert_eq!(dropping.history.len(), 1);
    }

    #[test]
    fn illegal_actions_say_why() {
        let rows = "........|........|........|...W....|..B.B...|...W....|........|.......B";
        let pos = position(rows, [0, 0], Color::White);
        let cases = [
            ("c4-c5", "c4 holds no white piece"),
            ("d5-d7", "d5-d7 is not a one-step orthogonal move"),
            ("d5-e6", "d5-e6 is not a one-step orthogonal move"),
            ("d3-d3", "d3-d3 is not a one-step orthogonal move"),
            ("d3-c3xc5", "c5 cannot be captured: it is not next to c3"),
            ("d3-d4xd5", "d5 cannot be captured: it holds no black piece"),
            (
                "d3-d4xc4",
                "c4 cannot be captured: no white piece beyond it",
            ),
            (
                "d5-d4xc4xe4",
                "c4 cannot be captured: no white piece beyond it",
            ),
            ("d3-d2xi2", "i2 is off the board"),
            ("c6", "drops are over: move a piece"),
        ];
        for (token, reason) in cases {
            assert_eq!(refused(&pos, token), reason, "{token}");
        }
        let dropping = position(EMPTY, [3, 3], Color::White);
        assert_eq!(refused(&dropping, "i9"), "i9 is off the board");
        let mut occupied = dropping.clone();
        act(&mut occupied, "c4");
        assert_eq!(refused(&occupied, "c4"), "c4 is not empty");
        let mut moving = pos.clone();
        act(&mut moving, "d5-e5");
        assert_eq!(refused(&moving, "e4-e5"), "e5 is not empty");
    }

    #[test]
    fn set_up_positions_are_checked() {
        let board = Board::from_rows(EMPTY).unwrap();
        let quint = Setup::new(Game::Quint);
        assert!(
            quint
                .start_quint_from(&board, [20, 20], Color::White)
                .is_ok()
        );
        assert!(
            quint
                .start_quint_from(&board, [20, 19], Color::Black)
                .is_ok()
        );
        assert!(
            quint
                .start_quint_from(&board, [19, 19], Color::Black)
                .is_err()
        );
        assert!(
            quint
                .start_quint_from(&board, [21, 21], Color::White)
                .is_err()
        );
        assert!(
            quint
                .start_quint_from(&Board::new(9), [0, 0], Color::White)
                .is_err()
        );
        assert!(
            Setup::new(Game::Quentin)
                .start_quint_from(&board, [0, 0], Color::White)
                .is_err()
        );
        let pie = Setup { pie: true, ..quint };
        assert_eq!(
            pie.start().unwrap_err().to_string(),
            "Quint has no pie rule"
        );
        let pieces = Setup {
            pieces: 16,
            ..quint
        };
        assert_eq!(
            pieces.start().unwrap_err().to_string(),
            "16 pieces is not an option: Quint is played with 15, 20, 25 pieces"
        );
        let size = Setup { size: 9, ..quint };
        assert_eq!(
            size.start().unwrap_err().to_string(),
            "size 9 is out of range: Quint is played on size 8 only"
        );
    }
}
