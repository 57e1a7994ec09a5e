//! The games and their options: a [`Setup`] names a game, its board and its options, and
//! [`Setup::start`] validates it into the empty [`Position`] (or a position set up on a given
//! board).

use std::fmt;

use super::{Board, Color, Connection, MAX_SIZE, MIN_SIZE, Position, Quint, State, quint};

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

    /// The colour that moves first: Black, but White in Quint.
    ///
    /// ```
    /// use quentin_rules::{Color, Game};
    ///
    /// assert_eq!(Game::Quentin.first_color(), Color::Black);
    /// assert_eq!(Game::Quint.first_color(), Color::White);
    /// ```
    #[must_use]
    pub const fn first_color(self) -> Color {
        match self {
            Game::Quint => Color::White,
            Game::Quentin | Game::Konobi | Game::Brique => Color::Black,
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
    /// use quentin_rules::{Action, Board, Color, Game, Setup};
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
    /// use quentin_rules::{Action, Board, Color, Game, Point, Setup};
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
