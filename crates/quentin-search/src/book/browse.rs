//! The proof browser's question: what a shipped book proves about the side to move of one
//! position, at once (no solver): the winner's proven move, or that every reply of the loser
//! meets one, and how many positions the proof holds from there.
//!
//! A book's entries are positions of its winner's strategy that the walk in CI plays through
//! (`every_shipped_book_is_walked_to_the_end_of_every_game_by_the_rules`), so an entry's move
//! is a proven win for whoever is to move there. A position without an entry is proven when its
//! mover wins at once, or when every legal action of its mover leads to an entry of the other
//! person or to that person's win. The positions the proof holds are counted by the book's walk
//! from the position ([`walk_within`]), up to a cap, so that the answer stays quick.

use quentin_rules::{Action, Color, Position};

use super::walk::walk_within;
use super::{Book, shipped};

/// What a shipped book proves about the side to move of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The side to move.
    pub mover: Color,
    /// Its proven winning move, `None` when it loses whatever it plays.
    pub action: Option<Action>,
    /// The positions the proof holds from here (the book's walk), `None` beyond the cap.
    pub positions: Option<usize>,
}

/// What the shipped book of `pos`'s board proves about its side to move, `None` when no book
/// ships for the board or the book does not cover the position; the walk that counts the
/// proof's positions stops after `cap` of them.
#[must_use]
pub fn proven(pos: &Position, cap: usize) -> Option<Proof> {
    proven_by(shipped::for_position(pos)?, pos, cap)
}

/// [`proven`] with the given book.
#[must_use]
pub fn proven_by(book: &Book, pos: &Position, cap: usize) -> Option<Proof> {
    if !book.is_about(pos) {
        return None;
    }
    let mover = pos.to_move()?;
    let action = match winning_move(book, pos, mover) {
        Some(action) => Some(action),
        None if every_reply_loses(book, pos, mover) => None,
        None => return None,
    };
    // A walk that fails would say the book does not cover the position after all.
    let positions = walk_within(book, pos, cap).ok()?.map(|w| w.positions);
    Some(Proof {
        mover,
        action,
        positions,
    })
}

/// The book's move for `mover` in `pos`, or a move that wins at once.
fn winning_move(book: &Book, pos: &Position, mover: Color) -> Option<Action> {
    book.get(pos).or_else(|| {
        pos.legal_actions().into_iter().find(|&a| {
            let mut trial = pos.clone();
            trial.play(a).is_ok() && trial.winner() == Some(mover)
        })
    })
}

/// Whether every legal action of `mover` in `pos` leaves the other person a proven win: an end
/// in its favour, or its move to play from the book (or one that wins at once).
fn every_reply_loses(book: &Book, pos: &Position, mover: Color) -> bool {
    let other = mover.opponent();
    pos.legal_actions().into_iter().all(|a| {
        let mut next = pos.clone();
        if next.play(a).is_err() {
            return false;
        }
        match next.winner() {
            Some(w) => w == other,
            None if next.is_over() => false,
            None => next.to_move() == Some(other) && winning_move(book, &next, other).is_some(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::{Game, Point, Setup};

    fn start(game: Game, size: usize) -> Position {
        Setup {
            size,
            pie: false,
            ..Setup::new(game)
        }
        .start()
        .unwrap()
    }

    #[test]
    fn the_winner_s_move_and_every_reply_of_the_loser_are_proven_along_a_game() {
        // Quentin 4×4 without the pie rule: Black wins; play the book's moves against the
        // first legal reply, and check each claim with the book's walk from there.
        let book = shipped::shipped(Game::Quentin, 4, false).unwrap();
        let mut pos = start(Game::Quentin, 4);
        let whole = super::super::walk(book).unwrap().positions;
        let first = proven(&pos, usize::MAX).unwrap();
        assert_eq!(first.mover, Color::Black);
        assert_eq!(first.positions, Some(whole));
        while !pos.is_over() {
            let p = proven(&pos, usize::MAX).unwrap();
            assert!(super::super::walk_from(book, &pos).is_ok());
            let action = match p.action {
                Some(a) => {
                    assert_eq!(p.mover, Color::Black);
                    a
                }
                None => {
                    assert_eq!(p.mover, Color::White);
                    pos.legal_actions()[0]
                }
            };
            pos.play(action).unwrap();
        }
        assert_eq!(pos.winner(), Some(Color::Black));
    }

    #[test]
    fn off_the_strategy_or_without_a_book_nothing_is_claimed() {
        // Quentin 4×4: a1, a corner, loses for Black: White wins there, which the book (Black's
        // strategy) does not cover.
        let mut pos = start(Game::Quentin, 4);
        pos.play(Action::Place(Point::parse("a1").unwrap()))
            .unwrap();
        assert_eq!(proven(&pos, usize::MAX), None);
        // No book ships for Quentin 7×7.
        assert_eq!(proven(&start(Game::Quentin, 7), usize::MAX), None);
    }

    #[test]
    fn a_capped_walk_still_proves_the_move_but_leaves_the_count_open() {
        let pos = start(Game::Konobi, 4);
        let p = proven(&pos, 100).unwrap();
        // Konobi 4×4: the first player loses whatever it plays.
        assert_eq!((p.mover, p.action, p.positions), (Color::Black, None, None));
    }
}
