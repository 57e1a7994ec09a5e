//! A book of proved strategies: for a solved board, the winning move at each of the winner's
//! turns, for every reply of the loser, so that a proof made once (hours of the solver) carries
//! over as a small file that anyone can check.
//!
//! A book holds one entry per position where the winner is to move and has no move that wins at
//! once: the position's least image under the game's board symmetries (those of
//! [`crate::puzzles::symmetry`]) and the winning move in that image. Where the winner has a
//! move that ends the game in its favour, the book holds nothing: [`walk`] finds that move by
//! trying every legal action with the rules.
//!
//! [`walk`] checks a book with the rules crate alone: from the book's position it plays, at
//! each of the winner's turns, the book's move (mapped back from the image), and at each of the
//! loser's turns every legal action, until every game has ended in the winner's win. The
//! symmetries serve only to find an entry; the walk plays every move on the real position and
//! judges it by the rules, so a book that a wrong symmetry (or a wrong entry) misleads fails the
//! walk: what passes is a proof whatever the symmetries. The walk remembers the positions it has
//! checked (the stones, the side to move, whether a swap is offered, who plays which colour),
//! which is sound in Quentin, Konobi and Brique, whose positions do not depend on their history.
//!
//! The file (`docs/solver.md` describes it): a text header of six lines (`quentin-book version
//! 1`, the game, the board's side, `pie on` or `pie off`, `winner first` or `winner second`, the
//! number of entries), then the entries sorted, each `2 × ceil(side²/8)` bytes of stones (the
//! black then the white stones of the image, a bit per point by `row × side + column`, least
//! significant bit first), a byte of flags (bit 0: White to move, bit 1: a swap is offered) and
//! a byte for the move (the point's index in the image, 255 for the swap).

mod browse;
mod format;
pub mod shipped;
mod walk;

use std::collections::HashMap;

use quentin_rules::{Action, Color, Game, Point, Position, Setup};

use crate::puzzles::symmetry::{self, Symmetry};

pub use browse::{Proof, proven, proven_by};
pub use format::BookError;
pub(crate) use walk::move_at_once;
pub use walk::{WalkError, Walked, walk, walk_from, walk_within};

/// The largest board a book holds (its images are kept as 128-bit words).
pub const MAX_SIZE: usize = 11;

/// The byte of the swap in an entry's move.
const SWAP: u8 = 255;

/// Who wins from the book's starting position: the person who moves first, or the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The person who makes the first move (Black at the start).
    First,
    /// The other person.
    Second,
}

impl Winner {
    /// `first` or `second`, as the file writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Winner::First => "first",
            Winner::Second => "second",
        }
    }

    /// The colour this person plays in `pos` (after a swap the first person plays White).
    #[must_use]
    pub fn color(self, pos: &Position) -> Color {
        let first = if pos.swapped() {
            Color::White
        } else {
            Color::Black
        };
        match self {
            Winner::First => first,
            Winner::Second => first.opponent(),
        }
    }
}

/// What a book proves about the side to move in a position it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The side to move wins (it is the book's winner), else it cannot win.
    pub wins: bool,
    /// The winner's move there: the book's, or one that wins at once (`None` when the side to
    /// move is the loser).
    pub action: Option<Action>,
    /// What the walk from the position saw, `None` when it stopped at its cap.
    pub walked: Option<Walked>,
}

/// What `book` proves about the side to move in `pos`, at once: `None` unless the book covers
/// the position (its entry, or a win at once, for the winner to move; for the loser, every
/// legal action meets one: see [`proven_by`]). The claim rests on the book's walk in CI (every
/// entry of a shipped book is a position of the winner's strategy, played through to the end of
/// every game), not on a walk here: the walk from `pos` that counts the positions and the
/// longest game checks at most `cap` positions, so that the answer stays quick however large
/// the strategy below the position is (`walk_from` walks it whole).
#[must_use]
pub fn answer(book: &Book, pos: &Position, cap: usize) -> Option<Answer> {
    let proof = proven_by(book, pos, 0)?;
    // A walk that fails would say the book does not prove its claim here: no answer then.
    let walked = walk_within(book, pos, cap).ok()?;
    Some(Answer {
        wins: proof.action.is_some(),
        action: proof.action,
        walked,
    })
}

/// A position's image under a symmetry: the stones of each colour and the flags.
pub(crate) type Image = ([u128; 2], u8);

/// A book: the board it is about, who wins from the empty board, and the winner's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    game: Game,
    size: usize,
    pie: bool,
    winner: Winner,
    /// The winner's move at each image (a point's index in the image, or [`SWAP`]).
    moves: HashMap<Image, u8>,
}

impl Book {
    /// An empty book of `game` on boards of side `size`, the pie rule on or off, claiming that
    /// `winner` wins from the empty board.
    ///
    /// # Errors
    /// A board larger than [`MAX_SIZE`], or Quint (whose positions depend on their history).
    pub fn new(game: Game, size: usize, pie: bool, winner: Winner) -> Result<Book, BookError> {
        if game == Game::Quint {
            return Err(BookError::Unsupported("Quint has no book".to_string()));
        }
        if size > MAX_SIZE {
            return Err(BookError::Unsupported(format!(
                "a book holds boards of up to {MAX_SIZE}×{MAX_SIZE}, not {size}×{size}"
            )));
        }
        Ok(Book {
            game,
            size,
            pie,
            winner,
            moves: HashMap::new(),
        })
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> Game {
        self.game
    }

    /// The board's side.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether the pie rule is on.
    #[must_use]
    pub fn pie(&self) -> bool {
        self.pie
    }

    /// Who wins from the empty board, as the book claims.
    #[must_use]
    pub fn winner(&self) -> Winner {
        self.winner
    }

    /// The entries it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether it holds no entry.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The empty board the book starts from.
    ///
    /// # Errors
    /// Never for a book made by [`Book::new`] (its size was checked then).
    pub fn start(&self) -> Result<Position, BookError> {
        let mut setup = Setup::new(self.game);
        setup.size = self.size;
        setup.pie = self.pie;
        setup
            .start()
            .map_err(|e| BookError::Unsupported(e.to_string()))
    }

    /// Whether `pos` is a position of the book's board (game, size and pie rule).
    #[must_use]
    pub fn is_about(&self, pos: &Position) -> bool {
        let setup = pos.setup();
        pos.game() == self.game && pos.size() == self.size && setup.pie == self.pie
    }

    /// Records `action` as the move of the side to move in `pos`.
    pub fn insert(&mut self, pos: &Position, action: Action) {
        let (image, sym) = self.image(pos);
        let code = match action {
            Action::Place(p) => {
                let q = sym.point(p, self.size);
                (q.row() * self.size + q.col()) as u8
            }
            _ => SWAP,
        };
        self.moves.insert(image, code);
    }

    /// The book's move for the side to move in `pos`, if it holds one.
    #[must_use]
    pub fn get(&self, pos: &Position) -> Option<Action> {
        let (image, sym) = self.image(pos);
        let code = *self.moves.get(&image)?;
        if code == SWAP {
            return Some(Action::Swap);
        }
        let size = self.size;
        let target = usize::from(code);
        // The point whose image is the entry's.
        (0..size * size)
            .map(|i| Point::new(i % size, i / size))
            .find(|&p| {
                let q = sym.point(p, size);
                q.row() * size + q.col() == target
            })
            .map(Action::Place)
    }

    /// Whether the book holds an entry for the side to move in `pos`.
    #[must_use]
    pub fn contains(&self, pos: &Position) -> bool {
        self.moves.contains_key(&self.image(pos).0)
    }

    /// The least image of `pos` under the game's symmetries (the key of its entry).
    pub(crate) fn image_of(&self, pos: &Position) -> Image {
        self.image(pos).0
    }

    /// The least image of `pos` under the game's symmetries, and the symmetry that gives it.
    fn image(&self, pos: &Position) -> (Image, Symmetry) {
        let size = self.size;
        let board = pos.board();
        let white = pos.to_move() == Some(Color::White);
        let offered = u8::from(pos.swap_available()) << 1;
        symmetry::symmetries(self.game)
            .into_iter()
            .map(|s| {
                let mut stones = [0u128; 2];
                for p in board.points() {
                    if let Some(c) = board.get(p) {
                        let q = s.point(p, size);
                        stones[s.color(c).index()] |= 1 << (q.row() * size + q.col());
                    }
                }
                let flags = u8::from(white != s.swaps_colors()) | offered;
                ((stones, flags), s)
            })
            .min_by_key(|((stones, flags), _)| (*flags, *stones))
            .unwrap_or((([0; 2], offered), Symmetry::IDENTITY))
    }
}

#[cfg(test)]
mod tests;
