//! The best runs of the unrated ways of taking the puzzles on the server (issue 60): each
//! player's longest Streak and most puzzles solved in one Storm, as the terminal keeps them
//! in `puzzles.json` (`"best_streak"`, `"best_storm"`). Each attempt of such a run is a
//! [`Change::PuzzleBests`](super::Change) decided once for both stores (`crate::store::plan`):
//! each best raised when the run's is higher, never lowered; and the puzzle counted as shown
//! to the player's network block (`puzzle_reveals`), so that a later first attempt at it from
//! there is not rated, as after a failed rated attempt (a run's answer is no rated one). Read
//! back when the puzzle screen opens or a bot asks ([`BESTS`], one statement for both
//! stores), so that a run on any process of the server counts.

use quentin_app::puzzle_rating::Bests;

use crate::ids::{Moment, PlayerId};

/// A player's runs to keep where better than their bests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Runs {
    /// The player.
    pub player: PlayerId,
    /// Their runs: a Streak's puzzles solved, a Storm's (0 for the way not run).
    pub runs: Bests,
    /// The puzzle just attempted in the run.
    pub puzzle: String,
    /// The network block the player answered from (`crate::gate::block_of`), `-` unknown.
    pub block: String,
    /// When (ms since the epoch).
    pub at: Moment,
}

/// The statement that reads a player's bests (`$1` the player), for both stores: no row
/// before their first run.
pub const BESTS: &str = "SELECT streak, storm FROM puzzle_bests WHERE player = $1";

/// The statement that keeps a player's runs where better (`$1` the player, `$2` the Streak,
/// `$3` the Storm, `$4` when), for both stores.
pub const RAISE: &str =
    "INSERT INTO puzzle_bests(player, streak, storm, at) VALUES ($1, $2, $3, $4)
 ON CONFLICT (player) DO UPDATE SET
 streak = CASE WHEN excluded.streak > puzzle_bests.streak
          THEN excluded.streak ELSE puzzle_bests.streak END,
 storm = CASE WHEN excluded.storm > puzzle_bests.storm
         THEN excluded.storm ELSE puzzle_bests.storm END,
 at = excluded.at";

/// The statement that counts the run's puzzle as shown to the block (`$1` the puzzle, `$2`
/// the block, `$3` when), for both stores.
pub const SHOWN: &str = "INSERT INTO puzzle_reveals(puzzle, block, at) VALUES ($1, $2, $3)";

/// The bests of a row's two numbers, each a count of puzzles.
///
/// # Errors
/// A negative number, or one too large for a count.
pub fn bests_of(streak: i64, storm: i64) -> anyhow::Result<Bests> {
    let count = |n: i64, what: &str| {
        u32::try_from(n).map_err(|_| anyhow::anyhow!("a best {what} of {n} puzzles"))
    };
    Ok(Bests {
        streak: count(streak, "Streak")?,
        storm: count(storm, "Storm")?,
    })
}

/// SQLite's schema step of the bests (`crate::store::schema`).
pub const SQLITE_STEP: &str = "
CREATE TABLE puzzle_bests(
    player INTEGER PRIMARY KEY, streak INTEGER NOT NULL, storm INTEGER NOT NULL,
    at INTEGER NOT NULL);
";

/// PostgreSQL's schema step of the bests (`crate::store::postgres::schema`).
pub const POSTGRES_STEP: &str = "
CREATE TABLE puzzle_bests(
    player BIGINT PRIMARY KEY, streak BIGINT NOT NULL, storm BIGINT NOT NULL,
    at BIGINT NOT NULL);
";
