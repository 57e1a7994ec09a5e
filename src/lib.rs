//! quentin: Luis Bolaños Mures's connection games in a terminal.
//!
//! - [`rules`]: the pure rules library (positions, actions, outcomes).
//! - [`search`]: the computer player and its random playouts.
//! - [`record`]: reading and writing game records, the plain-text move lists.
//! - [`report`]: the JSON and text views of a replayed position.
//! - [`tui`]: the terminal interface, hot-seat play and interactive replay.

pub mod bench;
pub mod cli;
pub mod record;
pub mod report;
pub mod rng;
pub mod rules;
pub mod search;
pub mod tui;
