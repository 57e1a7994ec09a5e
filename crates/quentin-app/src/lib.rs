//! quentin's interface, apart from any terminal: the app as a state machine and its drawing.
//!
//! - [`input`]: the app's own input events, which each front end translates into.
//! - [`game_line`] and [`record`]: a game's line of play and its records' text format, from the
//!   record crate (`quentin-record`), which the server and the command line share.
//! - [`app`]: the state machine: input events and the search's news in, effects out.
//! - [`layout`]: where things are on the screen, which the renderer finds and the app reads.
//! - [`render`]: drawing the app's state, a pure function into a ratatui buffer.
//! - [`screen`]: the one contract of every screen (events in, what the driver must do out,
//!   drawn into a buffer), and the screens a server shows beside the game: the lobby, its
//!   challenge form and tournaments, a notice, the pick of a name.
//! - [`commands`]: the one table of keys, which the app dispatches and the help lists.
//! - [`search_handle`]: how a front end runs the search the app asks for; [`searching`]: the
//!   program's own search behind it, each search on a thread of its own.
//! - [`mistakes`]: the person's own mistakes in a reviewed game, as exercises.
//! - [`puzzle_rating`]: a player's puzzle rating (Glicko-2), streak and attempts, and the
//!   choice of the next puzzle near the rating.
//! - [`review_words`]: the words of a review that the screen and `quentin review` share.
//! - [`rules_text`]: the short rules and board marks of each game, for the help and `quentin
//!   rules`.
//! - [`wrap`]: text broken into lines by the columns a terminal shows.
//! - [`escape`]: text from outside (a path, a name) made safe to print on a terminal.
//!
//! The front ends (the terminal loop, the SSH server) live in the program crate; this crate
//! knows no terminal library, no network and no file.

#![forbid(unsafe_code)]

pub mod app;
pub mod commands;
pub mod course;
pub mod escape;
pub mod input;
pub mod layout;
pub mod mistakes;
pub mod puzzle_modes;
pub mod puzzle_rating;
pub mod render;
pub mod review_words;
pub mod rules_text;
pub mod screen;
pub mod search_handle;
pub mod searching;
pub mod wrap;

/// A game's record and its line of play, from the record crate (`quentin-record`), under the
/// names the modules use.
pub use quentin_record::{game_end, game_line, record};
/// The rules crate, `quentin-rules`, under the name the modules use.
pub use quentin_rules as rules;
/// The search crate, `quentin-search`, under the name the modules use.
pub use quentin_search as search;
