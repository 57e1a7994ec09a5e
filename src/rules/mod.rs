//! The rules of the games, as a pure library: no terminal, no files, no command line.
//!
//! A [`Setup`] names a game and its options; [`Setup::start`] validates it into the empty
//! [`Position`]. A position lists its legal [`Action`]s, plays them (an illegal one is refused with
//! a readable [`Illegal`] reason and changes nothing), previews what one would do, and reports the
//! [`Outcome`] with the winning chain (or Quint's winning five, or a draw).

mod action;
mod bits;
mod board;
pub mod brique;
mod chains;
mod color;
mod connection;
pub mod konobi;
mod point;
pub mod quentin;
pub mod quint;

use std::fmt;

pub use action::{Action, Captures, MAX_CAPTURES, ParseActionError};
pub use board::{Board, DIAGONAL, ORTHOGONAL, PointSet};
pub use color::Color;
pub use konobi::KonobiViolation;
pub use point::{MAX_SIZE, MIN_SIZE, ParsePointError, Point};
pub use quentin::QuentinViolation;
pub use quint::QuintViolation;

use brique::Brique;
use connection::Connection;
use konobi::Konobi;
use quentin::Quentin;
use quint::Quint;

/// The games the program plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Luis Bolaños Mures's Quentin (2012).
    Quentin,
    /// Luis Bolaños Mures's Konobi (2012).
    Konobi,
    /// Luis Bolaños Mures's Brique (2012), played on squares.
    Brique,
    /// M. Winther's Quint (2005).
    Quint,
}

impl Game {
    /// Every game, in the order menus list them.
    pub const ALL: [Game; 4] = [Game::Quentin, Game::Konobi, Game::Brique, Game::Quint];

    /// The name used in records and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Game::Quentin => "quentin",
            Game::Konobi => "konobi",
            Game::Brique => "brique",
            Game::Quint => "quint",
        }
    }

    /// The name for people.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Game::Quentin => "Quentin",
            Game::Konobi => "Konobi",
            Game::Brique => "Brique",
            Game::Quint => "Quint",
        }
    }

    /// What the game's record tokens look like, for messages about a token that is none.
    #[must_use]
    pub const fn action_examples(self) -> &'static str {
        match self {
            Game::Quint => "a drop such as c4 or a step such as c4-c5 or c4-c5xc6",
            _ => "a point such as c4, swap or pass",
        }
    }

    /// The board side used when none is given.
    #[must_use]
    pub const fn default_size(self) -> usize {
        match self {
            Game::Quentin => 13,
            Game::Konobi => 11,
            Game::Brique => 15,
            Game::Quint => quint::SIZE,
        }
    }

    /// The board sides the game may be played on.
    #[must_use]
    pub const fn sizes(self) -> std::ops::RangeInclusive<usize> {
        match self {
            Game::Quint => quint::SIZE..=quint::SIZE,
            _ => MIN_SIZE..=MAX_SIZE,
        }
    }

    /// Whether the game offers the pie rule.
    #[must_use]
    pub const fn has_pie(self) -> bool {
        !matches!(self, Game::Quint)
    }

    /// The pieces each player starts with in hand when none is chosen: 0 for the games whose
    /// stones are unlimited.
    #[must_use]
    pub const fn default_pieces(self) -> usize {
        match self {
            Game::Quint => quint::DEFAULT_PIECES,
            _ => 0,
        }
    }

    /// The numbers of pieces in hand a game may start with; empty for the games whose stones
    /// are unlimited.
    #[must_use]
    pub const fn piece_options(self) -> &'static [usize] {
        match self {
            Game::Quint => &quint::PIECE_OPTIONS,
            _ => &[],
        }
    }

    /// Finds a game by its record name (case-insensitive).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Game> {
        Game::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game and its options, not yet validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Which game.
    pub game: Game,
    /// The board side.
    pub size: usize,
    /// Whether White may swap on its first turn (always off in Quint).
    pub pie: bool,
    /// The pieces each player starts with in hand: 15, 20 or 25 in Quint; 0 in the games whose
    /// stones are unlimited.
    pub pieces: usize,
}

/// Why a [`Setup`] cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The board side is outside the game's range.
    SizeOutOfRange {
        /// The game.
        game: Game,
        /// The size asked for.
        size: u64,
    },
    /// The pie rule asked for in a game without one.
    NoPieRule(Game),
    /// A number of pieces the game does not offer.
    PiecesOutOfRange {
        /// The game.
        game: Game,
        /// The number asked for.
        pieces: u64,
    },
    /// A position given to [`Setup::start_quint_from`] that no Quint game can reach.
    BadPosition(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::SizeOutOfRange { game, size } => {
                let sizes = game.sizes();
                if sizes.start() == sizes.end() {
                    write!(
                        f,
                        "size {size} is out of range: {} is played on size {} only",
                        game.title(),
                        sizes.start()
                    )
                } else {
                    write!(
                        f,
                        "size {size} is out of range: {} is played on sizes {} to {}",
                        game.title(),
                        sizes.start(),
                        sizes.end()
                    )
                }
            }
            SetupError::NoPieRule(game) => write!(f, "{} has no pie rule", game.title()),
            SetupError::PiecesOutOfRange { game, pieces } => match game.piece_options() {
                [] => write!(f, "{} has no pieces in hand", game.title()),
                options => write!(
                    f,
                    "{pieces} pieces is not an option: {} is played with {} pieces",
                    game.title(),
                    options
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            },
            SetupError::BadPosition(why) => write!(f, "not a Quint position: {why}"),
        }
    }
}

impl std::error::Error for SetupError {}

impl Setup {
    /// The game with its default size and pieces, and the pie rule on where the game has one.
    #[must_use]
    pub const fn new(game: Game) -> Setup {
        Setup {
            game,
            size: game.default_size(),
            pie: game.has_pie(),
            pieces: game.default_pieces(),
        }
    }

    /// Checks that a board side is allowed for `game`.
    ///
    /// # Errors
    /// [`SetupError::SizeOutOfRange`] otherwise.
    pub fn check_size(game: Game, size: u64) -> Result<usize, SetupError> {
        match usize::try_from(size) {
            Ok(n) if game.sizes().contains(&n) => Ok(n),
            _ => Err(SetupError::SizeOutOfRange { game, size }),
        }
    }

    /// Checks that `game` may start with `pieces` in each hand.
    ///
    /// # Errors
    /// [`SetupError::PiecesOutOfRange`] otherwise.
    pub fn check_pieces(game: Game, pieces: u64) -> Result<usize, SetupError> {
        match usize::try_from(pieces) {
            Ok(n) if game.piece_options().contains(&n) => Ok(n),
            Ok(0) if game.piece_options().is_empty() => Ok(0),
            _ => Err(SetupError::PiecesOutOfRange { game, pieces }),
        }
    }

    /// Checks every option against the game.
    fn check(&self) -> Result<usize, SetupError> {
        if self.pie && !self.game.has_pie() {
            return Err(SetupError::NoPieRule(self.game));
        }
        Setup::check_pieces(self.game, self.pieces as u64)?;
        Setup::check_size(self.game, self.size as u64)
    }

    /// A Quint position set up by hand, for tests, puzzles and examples: `board` (8×8),
    /// `in_hand` (the pieces each side still has to drop, Black first) and the side to move.
    /// It is judged as if the other side had just acted, so a position that is already won,
    /// lost or stalemated comes back finished. Its ply count starts at 0.
    ///
    /// # Errors
    /// [`SetupError::BadPosition`] when the setup is not a valid Quint setup, the board is not
    /// 8×8, a side has more pieces on the board and in hand than the setup gives it, or the hands
    /// do not fit alternate drops with White first (White to move: equal hands; Black to move:
    /// one more in Black's hand, or both empty).
    ///
    /// # Example
    /// ```
    /// use quentin::rules::{Action, Board, Color, Game, Setup};
    /// let board = Board::from_rows(
    ///     "........|........|........|........|........|........|........|B.WB....",
    /// )
    /// .unwrap();
    /// let mut pos = Setup::new(Game::Quint)
    ///     .start_quint_from(&board, [0, 0], Color::Black)
    ///     .unwrap();
    /// // a1-a2, a1-b1, a1-b1xc1, d1-d2, d1-e1
    /// assert_eq!(pos.legal_actions().len(), 5);
    /// pos.play(Action::parse("a1-b1xc1").unwrap()).unwrap();
    /// // White has no piece left.
    /// assert_eq!(pos.outcome().and_then(|o| o.winner()), Some(Color::Black));
    /// ```
    pub fn start_quint_from(
        &self,
        board: &Board,
        in_hand: [usize; 2],
        to_move: Color,
    ) -> Result<Position, SetupError> {
        if self.game != Game::Quint {
            let why = format!("the setup is for {}", self.game.title());
            return Err(SetupError::BadPosition(why));
        }
        self.check()?;
        quint::check_position(board, in_hand, to_move, self.pieces)
            .map_err(SetupError::BadPosition)?;
        Ok(Position {
            setup: *self,
            state: State::Quint(Quint::from_position(board.clone(), in_hand, to_move)),
        })
    }

    /// The empty starting position.
    ///
    /// # Errors
    /// When the setup is not valid, for instance a size out of range.
    pub fn start(&self) -> Result<Position, SetupError> {
        let size = self.check()?;
        let state = match self.game {
            Game::Quentin => State::Quentin(Connection::new(size, self.pie)),
            Game::Konobi => State::Konobi(Connection::new(size, self.pie)),
            Game::Brique => State::Brique(Connection::new(size, self.pie)),
            Game::Quint => State::Quint(Quint::new(self.pieces)),
        };
        Ok(Position {
            setup: *self,
            state,
        })
    }

    /// A position of this game with `board` on the board and `to_move` to move, as in the worked
    /// examples of the rules: for tests, puzzles and studies. The board's side replaces the
    /// setup's, and the pie rule is off (the returned position's setup says so): no first move
    /// has been played to swap. The board is taken as it is, not checked against the game's
    /// rules; a chain already joining its two edges has won.
    ///
    /// # Errors
    /// When the setup is not valid for this board, for instance a size out of range.
    ///
    /// # Example
    /// ```
    /// use quentin::rules::{Action, Board, Color, Game, Point, Setup};
    /// // Konobi, Black to move: b2 would connect weakly to a3 while a2 connects cleanly.
    /// let board = Board::from_rows(".....|W.W..|B.W.B|..B..|..BW.").unwrap();
    /// let pos = Setup::new(Game::Konobi).start_from(board, Color::Black).unwrap();
    /// let b2 = Action::Place(Point::parse("b2").unwrap());
    /// assert_eq!(
    ///     pos.preview(b2).unwrap_err().to_string(),
    ///     "b2 would join a3 only corner to corner, but a2 would join a3 side by side"
    /// );
    /// ```
    pub fn start_from(&self, board: Board, to_move: Color) -> Result<Position, SetupError> {
        let size = Setup::check_size(self.game, board.size() as u64)?;
        let state = match self.game {
            Game::Quentin => State::Quentin(Connection::from_board(board, to_move)),
            Game::Konobi => State::Konobi(Connection::from_board(board, to_move)),
            Game::Brique => State::Brique(Connection::from_board(board, to_move)),
            Game::Quint => {
                return Err(SetupError::BadPosition(
                    "a Quint position also needs the pieces in hand: use start_quint_from".into(),
                ));
            }
        };
        Ok(Position {
            setup: Setup {
                game: self.game,
                size,
                pie: false,
                pieces: self.pieces,
            },
            state,
        })
    }
}

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
pub struct Effect {
    /// Every changed point, the placement first.
    pub changes: Vec<Change>,
}

impl Effect {
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
    /// `winner` has won with the stones of `line` (the winning chain).
    Win {
        /// Who won.
        winner: Color,
        /// The winning chain, to highlight.
        line: PointSet,
    },
    /// Nobody won: Quint's third repetition of a position.
    Draw,
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

#[derive(Clone)]
enum State {
    Quentin(Connection<Quentin>),
    Konobi(Connection<Konobi>),
    Brique(Connection<Brique>),
    Quint(Quint),
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
/// use quentin::rules::{Action, Game, Point, Setup};
/// let mut pos = Setup::new(Game::Quentin).start().unwrap();
/// pos.play(Action::Place(Point::parse("g7").unwrap())).unwrap();
/// assert!(pos.legal_actions().contains(&Action::Swap));
/// // An occupied point is refused with a reason, and nothing changes.
/// let err = pos.play(Action::Place(Point::parse("g7").unwrap())).unwrap_err();
/// assert_eq!(err.to_string(), "g7 is occupied by a black stone");
/// assert_eq!(pos.ply(), 1);
/// ```
#[derive(Clone)]
pub struct Position {
    setup: Setup,
    state: State,
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
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether the side to move may swap now (White's first turn with the pie rule on).
    #[must_use]
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
    pub fn preview(&self, action: Action) -> Result<Effect, Illegal> {
        dispatch!(&self.state, g => g.preview(action)).map(|changes| Effect { changes })
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
            State::Quint(g) => {
                let action = Action::Place(p);
                let effect = g.preview(action)?;
                g.play(action)?;
                changes.clear();
                changes.extend(effect);
                Ok(())
            }
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

    /// Quint: the enemy pieces the side to move may capture with a step to `to` (any subset
    /// makes a legal step); none in the other games.
    #[must_use]
    pub fn capturable(&self, to: Point) -> Captures {
        match &self.state {
            State::Quint(q) => q.capturable_from(to),
            _ => Captures::NONE,
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
