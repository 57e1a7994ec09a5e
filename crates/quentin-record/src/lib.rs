//! A game of quentin as text and as a line of play, below any interface: the terminal's app,
//! the SSH server's hub and the command line all read, replay and write games with it.
//!
//! - [`record`]: the records' plain-text format, read (every action checked by the rules) and
//!   written.
//! - [`game_line`]: a game's line of play: its positions and actions and the shown one;
//!   replay, undo and redo, catching up with a server.
//! - [`spec`]: what a challenge asks for (the game and its setup, who moves first, the clock,
//!   rated or casual, an opponent), read from the bot protocol's words or built by a form.

#![forbid(unsafe_code)]

pub mod game_end;
pub mod game_line;
pub mod record;
pub mod spec;
