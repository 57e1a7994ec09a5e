//! The course's progress in the store (issue 60): the best stars of each level of the course
//! (`quentin_app::course`) a player solved, by the level's key (`quentin/1/2`), as the
//! terminal keeps them in `learn.json`. A level solved is a [`Change::Course`](super::Change)
//! decided once for both stores (`crate::store::plan`): its row written, or its stars raised
//! when better than those kept, never lowered. The player's stars are read back whole when
//! their course opens ([`STARS`], one statement for both stores), so that a level solved on
//! any process of the server counts.

use crate::ids::{Moment, PlayerId};

/// A level of the course solved by a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The player.
    pub player: PlayerId,
    /// The level's key, `game/stage/level` (`quentin/1/2`).
    pub level: String,
    /// The stars of this solve, 1 to 3.
    pub stars: u8,
    /// When (ms since the epoch).
    pub at: Moment,
}

/// A player's stars, each level solved by its key, in the keys' order.
pub type Stars = Vec<(String, u8)>;

/// The statement that reads a player's stars (`$1` the player), for both stores: each row the
/// level's key and its stars.
pub const STARS: &str = "SELECT level, stars FROM course_levels WHERE player = $1 ORDER BY level";

/// A row's stars as the course counts them: 1 to 3, anything else an error naming the level.
///
/// # Errors
/// A number of stars that is not 1, 2 or 3.
pub fn stars_of(level: &str, stars: i64) -> anyhow::Result<u8> {
    u8::try_from(stars)
        .ok()
        .filter(|s| (1..=3).contains(s))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "the course level {} has {stars} stars, not 1, 2 or 3",
                super::rows::shown(level)
            )
        })
}

/// SQLite's schema step of the course's progress (`crate::store::schema`).
pub const SQLITE_STEP: &str = "
CREATE TABLE course_levels(
    player INTEGER NOT NULL, level TEXT NOT NULL, stars INTEGER NOT NULL, at INTEGER NOT NULL,
    PRIMARY KEY(player, level));
";

/// PostgreSQL's schema step of the course's progress (`crate::store::postgres::schema`).
pub const POSTGRES_STEP: &str = "
CREATE TABLE course_levels(
    player BIGINT NOT NULL, level TEXT NOT NULL, stars BIGINT NOT NULL, at BIGINT NOT NULL,
    PRIMARY KEY(player, level));
";
