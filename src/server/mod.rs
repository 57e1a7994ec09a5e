//! `quentin serve`: the game server that any SSH client reaches. Two people at different places
//! play live or one move a day, others watch, programs play through a line protocol.
//!
//! - [`spec`]: what a challenge asks for.
//! - [`store`]: the SQLite file every move is committed to before anyone hears of it.
//! - [`hub`]: players, challenges and games, behind one lock; the rules decide every move.
//! - [`ssh`]: keys, channels and what runs on them; [`channel`]: a channel's two ends;
//!   [`translate`]: the keys read from a channel, in the app's input.
//! - [`bot`]: the line protocol for programs; [`interactive`] and [`lobby`]: people's screens.
//! - [`clock`]: the server's time, which a test server moves on by command.

pub mod bot;
pub mod channel;
pub mod clock;
pub mod hub;
pub mod interactive;
pub mod lobby;
mod run;
pub mod spec;
pub mod ssh;
pub mod store;
pub mod translate;

use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use tokio::sync::{Notify, watch};

pub use run::{ServeOptions, serve};

/// The limits of a running server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections in all.
    pub max_sessions: usize,
    /// Sessions a player (a key) may have at once.
    pub sessions_per_key: usize,
    /// How long a session may send nothing while the server waits for it.
    pub idle: Duration,
}

/// What every connection shares.
pub struct Context {
    /// Players, challenges, games.
    pub hub: hub::Hub,
    /// The time.
    pub clock: clock::Clock,
    /// The limits.
    pub limits: Limits,
    /// Connections open now.
    pub connections: AtomicUsize,
    /// Turns true when the server stops: every session then tells its client and ends.
    pub stop: watch::Sender<bool>,
    /// Told whenever a connection closes.
    pub closed: Notify,
}
