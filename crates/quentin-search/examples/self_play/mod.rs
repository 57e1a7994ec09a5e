//! What the examples that learn from the search's own games share: their arguments, and the
//! search that plays a game of a given seed the same way on every run.

use quentin_rules::{Game, Position, Setup};
use quentin_search::{Budget, Limits, Searcher};

/// The argument at `i`, as a number.
pub fn number<T: std::str::FromStr>(args: &[String], i: usize, what: &str) -> Result<T, String> {
    args.get(i)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{what}: a number expected"))
}

/// The empty board of `game` at side `size`, pie rule as the game's default.
pub fn start(game: Game, size: usize) -> Result<Position, String> {
    let setup = Setup {
        size,
        ..Setup::new(game)
    };
    setup.start().map_err(|e| e.to_string())
}

/// The search of the game of seed `seed`: one thread, `playouts` a move, so that the same
/// command plays the same games within one version of the program.
pub fn searcher(playouts: u64, seed: u64) -> Searcher {
    Searcher::new(Limits {
        budget: Budget::Playouts(playouts),
        threads: 1,
        seed: Some(seed),
        nodes: 0,
        ..Limits::default()
    })
}
