//! The puzzles in the store (issue 49): the shipped set, loaded at every start (by puzzle id:
//! a puzzle the store holds keeps its rating); each player's puzzle rating; each player's first
//! attempt at each puzzle. Both ratings move after a player's first attempt at a puzzle only,
//! as on lichess, computed by the store from its own rows in the attempt's transaction, so
//! that attempts from several processes at one puzzle all count.

use quentin_rules::Game;

use super::RatingRow;
use crate::ids::{Moment, PlayerId};

/// A puzzle's rating deviation at the start: its shipped rating is an estimate (the computer
/// level that finds the move), surer than nothing known, so it starts below a player's 350
/// and a newcomer's first attempt moves it less than their own.
pub const PUZZLE_DEVIATION: f64 = 200.0;

/// A puzzle as the store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// Its id in the shipped set, `quentin-0017`.
    pub id: String,
    /// Its game.
    pub game: Game,
    /// The puzzle, as its line in the set's file (docs/puzzles.md).
    pub line: String,
    /// Its rating now; `games` counts the first attempts.
    pub rating: RatingRow,
}

impl PuzzleRow {
    /// A puzzle of the shipped set as the store starts it: at its shipped rating.
    #[must_use]
    pub fn shipped(puzzle: &quentin_app::search::puzzles::Puzzle) -> PuzzleRow {
        PuzzleRow {
            id: puzzle.id.clone(),
            game: puzzle.setup.game,
            line: puzzle.to_line(),
            rating: RatingRow {
                rating: f64::from(puzzle.rating),
                deviation: PUZZLE_DEVIATION,
                ..RatingRow::default()
            },
        }
    }
}

/// A player's answer to a puzzle, once it is decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The player.
    pub player: PlayerId,
    /// The puzzle's id.
    pub puzzle: String,
    /// Solved, or failed.
    pub solved: bool,
    /// When (ms since the epoch).
    pub at: Moment,
}

/// What an attempt did to the ratings: each before and after (equal when not the first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    /// Whether it was the player's first attempt at the puzzle: only that one moves them.
    pub first: bool,
    /// The player's puzzle rating, before and after.
    pub player: [RatingRow; 2],
    /// The puzzle's rating, before and after.
    pub puzzle: [RatingRow; 2],
}

/// A question about puzzles, answered from the store's rows as they are now (several
/// processes share them).
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleQuery {
    /// The puzzle, of `game` if given, whose rating is nearest to the player's puzzle rating
    /// and that the player has not attempted; among equals, the first by id.
    Next {
        /// The player.
        player: PlayerId,
        /// Only this game's.
        game: Option<Game>,
    },
    /// The puzzle of this id.
    One(String),
    /// The player's puzzle rating (1500, RD 350 before any attempt).
    Rating(PlayerId),
    /// The players of the best puzzle ratings, best first, at most `most`, those whose rating
    /// deviation is above `provisional` left off.
    Leaders {
        /// How many at most.
        most: usize,
        /// The deviation above which a rating is provisional.
        provisional: f64,
    },
}

/// The store's answer to a [`PuzzleQuery`].
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleFound {
    /// A puzzle, if there is one.
    Puzzle(Option<PuzzleRow>),
    /// A rating.
    Rating(RatingRow),
    /// The leaderboard: names and ratings, best first.
    Leaders(Vec<(String, RatingRow)>),
}
