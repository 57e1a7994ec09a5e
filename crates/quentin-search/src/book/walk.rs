//! The walk that checks a book with the rules alone (see the parent module).

use std::collections::HashSet;
use std::fmt;

use quentin_rules::{Action, Color, Position};

use super::{Book, Image, Winner};

/// What a walk that proved its book saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// The distinct positions it checked.
    pub positions: usize,
    /// The book's entries it played from.
    pub entries_used: usize,
    /// The most actions a game of the walk took (from where the walk began).
    pub longest: usize,
}

/// Why a book does not prove what it claims: where, after which actions from where the walk
/// began.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalkError {
    /// The position is not of the book's board (game, size, pie rule).
    NotAbout(String),
    /// The winner is to move, and the book has no move and no move wins at once.
    NoMove {
        /// The actions that led there.
        line: Vec<Action>,
        /// The winner's colour there.
        mover: Color,
    },
    /// The book's move is not legal there.
    Illegal {
        /// The actions that led there.
        line: Vec<Action>,
        /// The book's move.
        action: Action,
    },
    /// A game ended in the other person's win.
    Lost {
        /// The actions of that game.
        line: Vec<Action>,
    },
}

/// The actions of a line, as a record writes them, or "the start" when there are none.
fn line_text(line: &[Action]) -> String {
    if line.is_empty() {
        "at the start".to_string()
    } else {
        let moves: Vec<String> = line.iter().map(ToString::to_string).collect();
        format!("after {}", moves.join(" "))
    }
}

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkError::NotAbout(why) => f.write_str(why),
            WalkError::NoMove { line, mover } => write!(
                f,
                "{}, {} (the winner) is to move and the book has no move for it",
                line_text(line),
                mover.name()
            ),
            WalkError::Illegal { line, action } => write!(
                f,
                "{}, the book's move {action} is not legal",
                line_text(line)
            ),
            WalkError::Lost { line } => write!(
                f,
                "the game {} is lost by the book's winner",
                line_text(line).replacen("after", "ending with", 1)
            ),
        }
    }
}

impl std::error::Error for WalkError {}

/// The walk's state: the book, the positions checked, the entries played from.
struct Walker<'a> {
    book: &'a Book,
    winner: Winner,
    seen: HashSet<Image>,
    used: HashSet<Image>,
    longest: usize,
    line: Vec<Action>,
    /// The most positions to check ([`walk_within`]); past it the walk stops, `cut`.
    cap: usize,
    cut: bool,
}

/// Walks `book` from its empty board: at the winner's turns the book's move (or a move that
/// wins at once, or the forced pass), at the loser's every legal action, every game to its end,
/// judged by the rules.
///
/// # Errors
/// Where the book fails to prove its claim (see [`WalkError`]).
pub fn walk(book: &Book) -> Result<Walked, WalkError> {
    let start = book
        .start()
        .map_err(|e| WalkError::NotAbout(e.to_string()))?;
    walk_from(book, &start)
}

/// Walks `book` from `pos`, a position of its board (see [`walk`]): whether the book's winner
/// wins from there by the book.
///
/// # Errors
/// Where the book fails to win from `pos` (see [`WalkError`]).
pub fn walk_from(book: &Book, pos: &Position) -> Result<Walked, WalkError> {
    walk_within(book, pos, usize::MAX).map(|walked| walked.unwrap_or_default())
}

/// [`walk_from`] with at most `cap` positions checked: `None` when the walk stopped there
/// (nothing proved or disproved), else what it saw.
///
/// # Errors
/// Where the book fails to win from `pos` within the positions checked (see [`WalkError`]).
pub fn walk_within(book: &Book, pos: &Position, cap: usize) -> Result<Option<Walked>, WalkError> {
    if !book.is_about(pos) {
        return Err(WalkError::NotAbout(format!(
            "the position is not of the book's board ({} {}×{}, pie {})",
            book.game,
            book.size,
            book.size,
            if book.pie { "on" } else { "off" }
        )));
    }
    let mut walker = Walker {
        book,
        winner: book.winner,
        seen: HashSet::new(),
        used: HashSet::new(),
        longest: 0,
        line: Vec::new(),
        cap,
        cut: false,
    };
    walker.node(pos)?;
    Ok((!walker.cut).then_some(Walked {
        positions: walker.seen.len(),
        entries_used: walker.used.len(),
        longest: walker.longest,
    }))
}

/// The winner's move in `pos` without the book: one that ends the game in its favour, or the
/// forced pass.
pub(crate) fn move_at_once(pos: &Position, winner: Color) -> Option<Action> {
    let actions = pos.legal_actions();
    if actions == [Action::Pass] {
        return Some(Action::Pass);
    }
    actions.into_iter().find(|&a| {
        let mut trial = pos.clone();
        trial.play(a).is_ok() && trial.winner() == Some(winner)
    })
}

impl Walker<'_> {
    /// The exact position (not an image): its stones, who moves, the swap's offer, and who
    /// plays which colour.
    fn exact(pos: &Position) -> Image {
        let board = pos.board();
        let size = board.size();
        let mut stones = [0u128; 2];
        for p in board.points() {
            if let Some(c) = board.get(p) {
                stones[c.index()] |= 1 << (p.row() * size + p.col());
            }
        }
        let flags = u8::from(pos.to_move() == Some(Color::White))
            | u8::from(pos.swap_available()) << 1
            | u8::from(pos.swapped()) << 2;
        (stones, flags)
    }

    fn node(&mut self, pos: &Position) -> Result<(), WalkError> {
        let winner = self.winner.color(pos);
        if pos.is_over() {
            self.longest = self.longest.max(self.line.len());
            return if pos.winner() == Some(winner) {
                Ok(())
            } else {
                Err(WalkError::Lost {
                    line: self.line.clone(),
                })
            };
        }
        if self.cut || !self.seen.insert(Self::exact(pos)) {
            return Ok(());
        }
        if self.seen.len() > self.cap {
            self.cut = true;
            return Ok(());
        }
        let actions = if pos.to_move() == Some(winner) {
            let action = match self.book.get(pos) {
                Some(a) => {
                    self.used.insert(self.book.image(pos).0);
                    a
                }
                None => move_at_once(pos, winner).ok_or_else(|| WalkError::NoMove {
                    line: self.line.clone(),
                    mover: winner,
                })?,
            };
            vec![action]
        } else {
            pos.legal_actions()
        };
        for action in actions {
            let mut next = pos.clone();
            if next.play(action).is_err() {
                return Err(WalkError::Illegal {
                    line: self.line.clone(),
                    action,
                });
            }
            self.line.push(action);
            self.node(&next)?;
            self.line.pop();
        }
        Ok(())
    }
}
