//! quentin: Luis Bolaños Mures's connection games in a terminal.
//!
//! - [`rules`]: the pure rules library (positions, actions, outcomes).
//! - [`rules_text`]: the short rules and board marks of each game, for the help and `quentin
//!   rules`.
//! - [`search`]: the computer player and its random playouts.
//! - [`record`]: reading and writing game records, the plain-text move lists.
//! - [`saved_games`]: the records on disk: listing them, finding the game to resume.
//! - [`save`]: one game's record file, locked and written atomically, so that no game is lost.
//! - [`position_view`]: the JSON and text views of a replayed position.
//! - [`puzzle_progress`]: the player's puzzle rating, streak and attempts, kept in the data
//!   directory.
//! - [`puzzles`]: the puzzle set that ships with the program, embedded.
//! - [`tui`]: the terminal interface, hot-seat play and interactive replay.

#![forbid(unsafe_code)]

pub mod bench;
pub mod cli;
pub mod learn;
pub mod position_view;
pub mod puzzle_progress;
pub mod puzzles;
pub mod save;
pub mod saved_games;
pub mod tui;

/// `quentin serve`, the server crate (`quentin-server`; the `server` feature, on by default).
#[cfg(feature = "server")]
pub use quentin_server as server;

/// The records' text format and the rules' text, from the app crate (`quentin-app`), under the
/// names the program's modules use.
pub use quentin_app::{record, rules_text};
/// The rules crate, `quentin-rules`, under the name the program's modules use.
pub use quentin_rules as rules;
/// The search crate, `quentin-search`, under the name the program's modules use.
pub use quentin_search as search;
