//! The books that ship with the program (the files of `books/` at the top of the repository,
//! built into it), found by board.

use std::sync::OnceLock;

use quentin_rules::{Action, Game, Position};

use super::{Answer, Book, answer};

/// A shipped book's file: the game, the board's side, the pie rule, the bytes.
type File = (Game, usize, bool, &'static [u8]);

macro_rules! shipped {
    ($(($game:ident, $size:literal, $pie:literal, $name:literal)),* $(,)?) => {
        &[$((
            Game::$game,
            $size,
            $pie,
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../books/", $name)),
        )),*]
    };
}

/// Every shipped book's file.
const FILES: &[File] = shipped![
    (Quentin, 3, false, "quentin-3-pie-off.book"),
    (Quentin, 3, true, "quentin-3-pie-on.book"),
    (Quentin, 4, false, "quentin-4-pie-off.book"),
    (Quentin, 4, true, "quentin-4-pie-on.book"),
    (Quentin, 5, false, "quentin-5-pie-off.book"),
    (Quentin, 5, true, "quentin-5-pie-on.book"),
    (Konobi, 3, false, "konobi-3-pie-off.book"),
    (Konobi, 3, true, "konobi-3-pie-on.book"),
    (Konobi, 4, false, "konobi-4-pie-off.book"),
    (Konobi, 4, true, "konobi-4-pie-on.book"),
    (Konobi, 5, false, "konobi-5-pie-off.book"),
    (Konobi, 5, true, "konobi-5-pie-on.book"),
    (Brique, 3, false, "brique-3-pie-off.book"),
    (Brique, 3, true, "brique-3-pie-on.book"),
    (Brique, 4, false, "brique-4-pie-off.book"),
    (Brique, 4, true, "brique-4-pie-on.book"),
    (Brique, 5, false, "brique-5-pie-off.book"),
    (Brique, 5, true, "brique-5-pie-on.book"),
];

/// The boards the shipped books are about: game, side, pie rule.
pub fn boards() -> impl Iterator<Item = (Game, usize, bool)> {
    FILES.iter().map(|&(game, size, pie, _)| (game, size, pie))
}

/// Every shipped book, read once (a file that cannot be read is no book: the walk test in CI
/// reads each).
fn books() -> &'static [Option<Book>] {
    static BOOKS: OnceLock<Vec<Option<Book>>> = OnceLock::new();
    BOOKS.get_or_init(|| {
        FILES
            .iter()
            .map(|(_, _, _, bytes)| Book::from_bytes(bytes).ok())
            .collect()
    })
}

/// The shipped book of `game` on a board of side `size` with the pie rule on or off, if one
/// ships.
#[must_use]
pub fn shipped(game: Game, size: usize, pie: bool) -> Option<&'static Book> {
    let i = FILES
        .iter()
        .position(|&(g, s, p, _)| (g, s, p) == (game, size, pie))?;
    books()[i].as_ref()
}

/// The shipped book of the board `pos` is played on, if one ships.
#[must_use]
pub fn for_position(pos: &Position) -> Option<&'static Book> {
    shipped(pos.game(), pos.size(), pos.setup().pie)
}

/// What the shipped book of `pos`'s board proves about its side to move, if one ships and
/// covers the position, at once, its walk from there held to `cap` positions (see [`answer`]).
#[must_use]
pub fn answer_for(pos: &Position, cap: usize) -> Option<Answer> {
    answer(for_position(pos)?, pos, cap)
}

/// The winning move of the side to move in `pos` that a shipped book holds, at once (no walk):
/// the book's entry, where it has one. Every entry of a shipped book is a position of its
/// winner's strategy that the walk in CI plays through, so its move wins.
#[must_use]
pub fn winning_move(pos: &Position) -> Option<Action> {
    for_position(pos)?.get(pos)
}
