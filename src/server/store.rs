//! The server's store: one SQLite file in the data directory, in WAL mode with full sync, so
//! that a move is on disk before anyone is told of it. The rest of the server sees this small
//! interface only; docs/server.md plans how it moves to a database server.

mod sqlite;

use crate::rules::{Action, Setup};

use super::spec::TimeControl;

pub use sqlite::Store;

/// A player's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// The player's number.
    pub id: i64,
    /// The name they chose.
    pub name: String,
}

/// A rating: Glicko-2's three numbers and the games it counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRow {
    /// The rating, 1500 to start.
    pub rating: f64,
    /// Its deviation, 350 to start.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

impl Default for RatingRow {
    fn default() -> RatingRow {
        RatingRow {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            games: 0,
        }
    }
}

/// A game's row, and its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Its number (the challenge's).
    pub id: i64,
    /// The game and its setup.
    pub setup: Setup,
    /// Player 1 (who moves first) and player 2.
    pub players: [i64; 2],
    /// The time control.
    pub clock: TimeControl,
    /// Whether it counts for the ratings.
    pub rated: bool,
    /// Milliseconds left on each player's clock, at `turn_since`.
    pub left: [i64; 2],
    /// When the turn of the player to move began (ms since the epoch, server time).
    pub turn_since: i64,
    /// The actions played.
    pub actions: Vec<Action>,
    /// `black`, `white` or `draw` once over, and why.
    pub result: Option<(String, String)>,
    /// When it ended.
    pub ended: Option<i64>,
}

/// A challenge's row.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    /// Its number, which the game keeps.
    pub id: i64,
    /// Who made it.
    pub by: i64,
    /// The game and its setup.
    pub setup: Setup,
    /// `me`, `you` or `random`.
    pub first: String,
    /// The time control.
    pub clock: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The only player who may accept it.
    pub to: Option<i64>,
}
