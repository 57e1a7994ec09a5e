//! A puzzle's starting difficulty: the lowest computer level whose search, with a fixed seed,
//! plays the key move, mapped to a Glicko-style number.
//!
//! Levels 1 to 9 search their own number of playouts (`level.rs`), one thread, the seed
//! [`SEED`], and draw their move as they do in a game; level 10 is full strength with
//! [`FULL_PLAYOUTS`] playouts. The first level that plays the key move gives the rating
//! `1000 + 120 × (level − 1)`: 1000 for level 1, 2080 for level 10; a puzzle no level
//! solves gets 2200. The search and the draw are deterministic with the seed, so the rating
//! is a function of the position (within one version of the program). It is a start: the
//! players' attempts move it, as on lichess.

use std::sync::atomic::AtomicBool;

use quentin_rules::{Action, Position};

use crate::{Budget, Level, Limits, Searcher};

/// The seed of every rating search.
pub const SEED: u64 = 0x7075_7a7a_6c65;

/// Full strength's playouts when it rates a puzzle.
pub const FULL_PLAYOUTS: u64 = 20_000;

/// The rating of the level that first plays the key move: level 1.
pub const LOWEST: u16 = 1000;
/// What each level adds.
pub const STEP: u16 = 120;
/// The rating of a puzzle no level solves.
pub const HIGHEST: u16 = 2200;

/// The rating of `level` (1 to 10), or of no level.
#[must_use]
pub fn of_level(level: Option<Level>) -> u16 {
    level.map_or(HIGHEST, |l| LOWEST + STEP * (u16::from(l.get()) - 1))
}

/// The lowest level whose search plays `key` at `pos`, if any.
#[must_use]
pub fn solving_level(pos: &Position, key: Action) -> Option<Level> {
    (1..=10).filter_map(Level::new).find(|&level| {
        let budget = match level.playouts(pos.size()) {
            Some(n) => Budget::Playouts(n),
            None => Budget::Playouts(FULL_PLAYOUTS),
        };
        let limits = Limits {
            budget,
            threads: 1,
            seed: Some(SEED),
            nodes: 1 << 20,
            level,
        };
        let report = Searcher::new(limits).search(pos, &AtomicBool::new(false), |_| {});
        report.best == Some(key)
    })
}

/// The starting rating of a puzzle at `pos` whose key move is `key`.
#[must_use]
pub fn rating(pos: &Position, key: Action) -> u16 {
    of_level(solving_level(pos, key))
}
