//! The rules of the games, as a pure library: no terminal, no files, no command line.
//!
//! A [`Setup`] names a game and its options; [`Setup::start`] validates it into the empty
//! [`Position`]. A position lists its legal [`Action`]s, plays them (an illegal one is refused with
//! a readable [`Illegal`] reason and changes nothing), previews what one would do, and reports the
//! [`Outcome`] with the winning chain (or Quint's winning five, or a draw).

#![forbid(unsafe_code)]

mod action;
mod bits;
mod board;
pub mod brique;
mod chains;
mod color;
mod connection;
mod decisive;
pub mod konobi;
mod point;
pub mod quentin;
pub mod quint;
mod setup;
#[cfg(test)]
mod xorshift;

use std::fmt;

pub use action::{Action, Captures, MAX_CAPTURES, ParseActionError};
pub use board::{Board, DIAGONAL, ORTHOGONAL, PointSet};
pub use color::Color;
pub use decisive::Threats;
pub use konobi::KonobiViolation;
pub use point::{MAX_SIZE, MIN_SIZE, ParsePointError, Point};
pub use quentin::{QuentinBoard, QuentinBoards, QuentinStones, QuentinViolation};
pub use quint::QuintViolation;
pub use setup::{Game, Setup, SetupError};

use brique::Brique;
use connection::Connection;
use konobi::Konobi;
use quentin::Quentin;
use quint::Quint;

/// One point changed by an action: a placement, a fill or a removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// Where.
    pub point: Point,
    /// What stood there before.
    pub before: Option<Color>,
    /// What stands there after.
    pub after: Option<Color>,
}

impl Change {
    /// A stone of `color` placed on the empty point `p`.
    pub(crate) const fn placement(p: Point, color: Color) -> Change {
        Change {
            point: p,
            before: None,
            after: Some(color),
        }
    }
}

/// What an action would do, as told by [`Position::preview`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    /// Every changed point, the placement first.
    pub changes: Vec<Change>,
}

impl Preview {
    /// The points filled by the game's rule (the placement itself excluded), with their colour.
    pub fn fills(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.changes
            .iter()
            .skip(1)
            .filter_map(|c| c.after.map(|color| (c.point, color)))
    }

    /// The stones the action would remove (or replace by the other colour).
    pub fn removals(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.changes.iter().filter_map(|c| {
            c.before
                .filter(|&b| c.after != Some(b))
                .map(|b| (c.point, b))
        })
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` has won with the stones of `line` (the winning chain), for the reason `ending`.
    Win {
        /// Who won.
        winner: Color,
        /// The winning chain, to highlight.
        line: PointSet,
        /// Why the game ended.
        ending: Ending,
    },
    /// Nobody won: Quint's third repetition of a position ([`Ending::ThirdRepetition`]).
    Draw,
}

/// Why a game ended, as the rules say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A chain joins the winner's two edges (Quentin, Konobi, Brique).
    Connection,
    /// The winner has five in a row, exactly (Quint).
    Quint,
    /// The loser has no piece left on the board in the move phase (Quint).
    NoPieceLeft,
    /// The loser, to move, has no legal action (Quint).
    NoLegalAction,
    /// The position came for the third time: a draw (Quint).
    ThirdRepetition,
}

/// The line of an outcome without one.
static NO_LINE: PointSet = PointSet::new();

impl Outcome {
    /// The winner.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw => None,
        }
    }

    /// Why the game ended.
    ///
    /// ```
    /// use quentin_rules::{Action, Ending, Game, Point, Setup};
    ///
    /// let setup = Setup { size: 3, pie: false, ..Setup::new(Game::Quentin) };
    /// let mut position = setup.start().unwrap();
    /// for point in ["b1", "a2", "b2", "a3", "b3"] {
    ///     position.play(Action::Place(Point::parse(point).unwrap())).unwrap();
    /// }
    /// assert_eq!(position.outcome().unwrap().ending(), Ending::Connection);
    /// ```
    #[must_use]
    pub fn ending(&self) -> Ending {
        match self {
            Outcome::Win { ending, .. } => *ending,
            Outcome::Draw => Ending::ThirdRepetition,
        }
    }

    /// The winning chain or line (Quint: every exact five of the winner); empty for a draw and
    /// for a Quint win by the loser having no piece or no legal action.
    #[must_use]
    pub fn line(&self) -> &PointSet {
        match self {
            Outcome::Win { line, .. } => line,
            Outcome::Draw => &NO_LINE,
        }
    }
}

/// Why an action is illegal, in words a player can read (its `Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// The point is not on this board.
    OffBoard(Point),
    /// The point already holds a stone of that colour.
    Occupied(Point, Color),
    /// `swap` outside White's first turn, or with the pie rule off.
    SwapNotOffered,
    /// `pass` while a placement is legal.
    PassWithLegalPlacement,
    /// Quentin's own rule.
    Quentin(QuentinViolation),
    /// Konobi's own rules.
    Konobi(KonobiViolation),
    /// A step in a game whose stones never move.
    StepNotOffered,
    /// Quint's own rules.
    Quint(QuintViolation),
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::OffBoard(p) => write!(f, "{p} is off the board"),
            Illegal::Occupied(p, c) => write!(f, "{p} is occupied by a {c} stone"),
            Illegal::SwapNotOffered => {
                f.write_str("swap is allowed only on White's first turn, with the pie rule on")
            }
            Illegal::PassWithLegalPlacement => {
                f.write_str("pass is allowed only when no placement is legal")
            }
            Illegal::Quentin(v) => v.fmt(f),
            Illegal::Konobi(v) => v.fmt(f),
            Illegal::StepNotOffered => f.write_str("stones never move in this game"),
            Illegal::Quint(v) => v.fmt(f),
        }
    }
}

impl std::error::Error for Illegal {}

enum State {
    Quentin(Connection<Quentin>),
    Konobi(Connection<Konobi>),
    Brique(Connection<Brique>),
    Quint(Quint),
}

// Written by hand for `clone_from`: the search copies a position into one it keeps, once for
// every action of every node it expands (to see which end the game), and the derived
// `clone_from` builds a whole new state (about 3 kB, the padded grid of the largest board) and
// moves it in; this one copies into the state in place.
impl Clone for State {
    fn clone(&self) -> Self {
        match self {
            State::Quentin(g) => State::Quentin(g.clone()),
            State::Konobi(g) => State::Konobi(g.clone()),
            State::Brique(g) => State::Brique(g.clone()),
            State::Quint(g) => State::Quint(g.clone()),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (State::Quentin(g), State::Quentin(s)) => g.clone_from(s),
            (State::Konobi(g), State::Konobi(s)) => g.clone_from(s),
            (State::Brique(g), State::Brique(s)) => g.clone_from(s),
            (state, source) => *state = source.clone(),
        }
    }
}

/// Calls the same method on whichever game the state holds.
macro_rules! dispatch {
    ($state:expr, $g:ident => $body:expr) => {
        match $state {
            State::Quentin($g) => $body,
            State::Konobi($g) => $body,
            State::Brique($g) => $body,
            State::Quint($g) => $body,
        }
    };
}

/// A position of one of the games: board, side to move and outcome.
///
/// # Example
/// ```
/// use quentin_rules::{Action, Game, Point, Setup};
/// let mut pos = Setup::new(Game::Quentin).start().unwrap();
/// pos.play(Action::Place(Point::parse("g7").unwrap())).unwrap();
/// assert!(pos.legal_actions().contains(&Action::Swap));
/// // An occupied point is refused with a reason, and nothing changes.
/// let err = pos.play(Action::Place(Point::parse("g7").unwrap())).unwrap_err();
/// assert_eq!(err.to_string(), "g7 is occupied by a black stone");
/// assert_eq!(pos.ply(), 1);
/// ```
pub struct Position {
    setup: Setup,
    state: State,
}

// Written by hand for `clone_from`, which copies the state in place (see `State`'s).
impl Clone for Position {
    fn clone(&self) -> Self {
        Position {
            setup: self.setup,
            state: self.state.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.setup = source.setup;
        self.state.clone_from(&source.state);
    }
}

impl Position {
    /// The setup this game started from.
    #[must_use]
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// Which game.
    #[must_use]
    pub fn game(&self) -> Game {
        self.setup.game
    }

    /// The board side.
    #[must_use]
    pub fn size(&self) -> usize {
        self.setup.size
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        dispatch!(&self.state, g => g.board())
    }

    /// What stands on `p`.
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.board().get(p)
    }

    /// The colour to move, `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        dispatch!(&self.state, g => g.to_move())
    }

    /// How many actions have been played.
    #[must_use]
    pub fn ply(&self) -> usize {
        dispatch!(&self.state, g => g.ply())
    }

    /// Whether the players have exchanged colours by the pie rule: then the person who moved
    /// first plays White.
    #[must_use]
    pub fn swapped(&self) -> bool {
        dispatch!(&self.state, g => g.swapped())
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn outcome(&self) -> Option<&Outcome> {
        dispatch!(&self.state, g => g.outcome())
    }

    /// The pieces each side still has to drop, Black first (index by [`Color::index`]); `None`
    /// in the games without pieces in hand.
    #[must_use]
    pub fn in_hand(&self) -> Option<[usize; 2]> {
        match &self.state {
            State::Quint(q) => Some(q.in_hand()),
            _ => None,
        }
    }

    /// Whether the game is over.
    #[must_use]
    #[inline]
    pub fn is_over(&self) -> bool {
        dispatch!(&self.state, g => g.is_over())
    }

    /// The winner once the game is over; `None` while it goes on, and after a draw. What a
    /// playout asks at its end: unlike [`Position::outcome`], no winning line is worked out.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        dispatch!(&self.state, g => g.winner())
    }

    /// Whether the side to move may swap now (White's first turn with the pie rule on).
    #[must_use]
    #[inline]
    pub fn swap_available(&self) -> bool {
        match &self.state {
            State::Quentin(g) => g.swap_available(),
            State::Konobi(g) => g.swap_available(),
            State::Brique(g) => g.swap_available(),
            State::Quint(_) => false,
        }
    }

    /// Every legal action of the side to move; `[pass]` when it must pass, empty once the game
    /// is over.
    #[must_use]
    pub fn legal_actions(&self) -> Vec<Action> {
        dispatch!(&self.state, g => g.legal_actions())
    }

    /// [`Position::legal_actions`] appended to `out`, in the same order: a caller that keeps
    /// `out` (cleared) from turn to turn lists Quint's actions without allocating.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        match &self.state {
            State::Quint(q) => q.legal_actions_into(out),
            _ => out.extend(self.legal_actions()),
        }
    }

    /// Whether `action` is legal now.
    #[must_use]
    pub fn is_legal(&self, action: Action) -> bool {
        self.preview(action).is_ok()
    }

    /// What `action` would change, without playing it: the placement first, then the points the
    /// game's rule fills or empties. A Quint step gives its destination first, then the cell it
    /// leaves, then the captured pieces.
    ///
    /// # Errors
    /// The reason `action` is illegal.
    pub fn preview(&self, action: Action) -> Result<Preview, Illegal> {
        dispatch!(&self.state, g => g.preview(action)).map(|changes| Preview { changes })
    }

    /// Places a stone of the side to move on `p` if that is legal, with the same effect as
    /// `play(Action::Place(p))`, and writes what changed into `changes` (cleared first; the
    /// placement first, then the fills and removals). An illegal placement changes nothing.
    ///
    /// The primitive of random playouts, which the computer player runs by the million: it
    /// neither lists the legal actions nor allocates, so a playout can draw an empty point,
    /// try it here, and draw again among the others when it is refused. The rules hold no
    /// randomness: the caller chooses.
    ///
    /// # Errors
    /// The reason the placement is illegal.
    pub fn place(&mut self, p: Point, changes: &mut Vec<Change>) -> Result<(), Illegal> {
        match &mut self.state {
            State::Quentin(g) => g.place(p, changes),
            State::Konobi(g) => g.place(p, changes),
            State::Brique(g) => g.place(p, changes),
            State::Quint(g) => g.place(p, changes),
        }
    }

    /// [`Position::place`] answering only whether it placed, for the playouts, which need no
    /// reason: it is not built, nor carried back through the calls.
    pub fn place_if_legal(&mut self, p: Point, changes: &mut Vec<Change>) -> bool {
        match &mut self.state {
            State::Quentin(g) => g.place_if_legal(p, changes),
            State::Konobi(g) => g.place_if_legal(p, changes),
            State::Brique(g) => g.place_if_legal(p, changes),
            State::Quint(g) => g.place(p, changes).is_ok(),
        }
    }

    /// Quint's move phase: the one-cell steps (from, to) of the side to move, appended to `out`;
    /// nothing in the other games, in the drop phase or once the game is over. With
    /// [`Position::capturable`], a playout picks a step and its captures without listing every
    /// capture subset as an action.
    pub fn steps_into(&self, out: &mut Vec<(Point, Point)>) {
        if let State::Quint(q) = &self.state {
            q.steps_into(out);
        }
    }

    /// Quint's move phase: the step that [`Position::steps_into`] would list at index `pick(n)`,
    /// `n` being how many it would list (`pick` must return an index below `n`), found without
    /// listing them; `None`, without calling `pick`, when it would list none. A playout picks a
    /// random step with `pos.pick_step(|n| rng.below(n))`.
    pub fn pick_step(&self, pick: impl FnOnce(usize) -> usize) -> Option<(Point, Point)> {
        match &self.state {
            State::Quint(q) => q.pick_step(pick),
            _ => None,
        }
    }

    /// Quint: the enemy pieces the side to move may capture with a step to `to` (any subset
    /// makes a legal step); none in the other games.
    #[must_use]
    pub fn capturable(&self, to: Point) -> Captures {
        match &self.state {
            State::Quint(q) => q.capturable_from(to),
            _ => Captures::NONE,
        }
    }

    /// How many stones or pieces of each colour stand on the board, Black first: as
    /// [`Board::count`], in Quint by two popcounts.
    #[must_use]
    pub fn on_board(&self) -> [usize; 2] {
        match &self.state {
            State::Quint(q) => q.on_board(),
            _ => self.board().count(),
        }
    }

    /// Plays `action` for the side to move.
    ///
    /// # Errors
    /// The reason the action is illegal; the position is then exactly as it was.
    pub fn play(&mut self, action: Action) -> Result<(), Illegal> {
        dispatch!(&mut self.state, g => g.play(action))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("setup", &self.setup)
            .field("board", self.board())
            .field("to_move", &self.to_move())
            .field("ply", &self.ply())
            .field("outcome", &self.outcome())
            .finish()
    }
}
