//! `quentin serve`: the game server that any SSH client reaches. Two people at different places
//! play live or one move a day, others watch, programs play through a line protocol.
//!
//! - [`spec`]: what a challenge asks for.
//! - [`store`]: the store every change is committed to before anyone hears of it (an SQLite
//!   file, or a PostgreSQL database that several processes share).
//! - [`cluster`]: several processes on one PostgreSQL database: who owns each game, commands
//!   passed to the owner, and what the others changed, copied in; [`note`]: the messages
//!   between processes, their words written and read in one place.
//! - [`command`] and [`refusal`]: what a player asks of a game, and why a request is refused.
//! - [`hub`]: players, challenges and games, behind one lock; the rules decide every move.
//! - [`ssh`]: keys, channels and what runs on them; [`channel`]: a channel's two ends;
//!   [`translate`]: the keys read from a channel, in the app's input.
//! - [`gate`]: the places of connections and sessions, and their bounds; [`link`]: one
//!   connection's deadlines and the switch that cuts it.
//! - [`bot`]: the line protocol for programs; [`interactive`]: people's screens (the app crate's, run by one driver).
//! - [`puzzles`]: the puzzles a player is given and answers, rated, for both.
//! - [`clock`]: the server's time, which a test server moves on by command.
//! - [`report`]: what the server tells its host, and panics in its tasks caught and reported.

#![forbid(unsafe_code)]

pub(crate) mod access;
pub(crate) mod bot;
pub(crate) mod channel;
pub(crate) mod clock;
pub(crate) mod cluster;
pub(crate) mod command;
pub(crate) mod game_end;
pub(crate) mod gate;
pub(crate) mod hub;
pub mod ids;
pub(crate) mod interactive;
pub(crate) mod link;
mod maintenance;
pub(crate) mod metrics;
pub(crate) mod moderation;
pub(crate) mod note;
pub(crate) mod present;
pub(crate) mod puzzles;
pub(crate) mod rating;
pub(crate) mod refusal;
pub(crate) mod report;
mod reviews;
mod run;
pub(crate) mod signup;
pub(crate) mod size_class;
pub mod spec;
pub(crate) mod ssh;
pub mod store;
pub mod tournament;
pub(crate) mod translate;
pub(crate) mod who;

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use tokio::sync::{Notify, watch};

pub use access::AccessFiles;
pub use hub::FairLimits;
pub use maintenance::{backup, restore};
pub use moderation::admin;
pub use run::{ServeOptions, serve};
pub use store::migrate::migrate;

/// The limits of a running server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Logged-in connections in all.
    pub max_sessions: usize,
    /// Sessions a player (a key) may have at once.
    pub sessions_per_key: usize,
    /// How long a session may send nothing while the server waits for it (and a client may
    /// take nothing that the server sends, and a logged-in connection may run no session).
    pub idle: Duration,
    /// How long a connection has to finish the handshake and log in.
    pub login_grace: Duration,
}

/// What every connection shares.
pub struct Context {
    /// Players, challenges, games.
    pub hub: hub::Hub,
    /// The time.
    pub clock: clock::Clock,
    /// The limits.
    pub limits: Limits,
    /// The places of connections and sessions.
    pub gate: Arc<gate::Gate>,
    /// Connections open now.
    pub connections: AtomicUsize,
    /// Turns true when the server stops: every session then tells its client and ends.
    pub stop: watch::Sender<bool>,
    /// Turns true when the server, stopping, has waited enough: every connection left is cut.
    pub cut_all: watch::Sender<bool>,
    /// Told whenever a connection closes.
    pub closed: Notify,
    /// The reviews of finished games the server runs.
    pub reviews: reviews::Reviews,
    /// The host's lists (`--allow`, `--motd`, `--operators`), read again on SIGHUP.
    pub access: access::Access,
    /// The operators' ledger, and its reading again.
    pub moderation: moderation::watch::Moderation,
    /// Registrations of each network block in the last hour.
    pub signups: signup::Signups,
    /// The runtime that draws the screens watching a game, on a thread of its own apart from
    /// the players' work, so that a move's answer never waits behind its watchers' frames
    /// (`None`: the session's own runtime).
    pub watchers: Option<tokio::runtime::Handle>,
}

/// A player's session counted in by [`hub::Hub::enter`]; counted out when this is dropped,
/// however the session ends (a panic in it too, which must not take a slot of the player's
/// for good).
pub struct Presence<'a> {
    hub: &'a hub::Hub,
    /// The player counted in, if any.
    pub player: Option<ids::PlayerId>,
}

impl<'a> Presence<'a> {
    /// The session of `player` (if any), already counted in.
    #[must_use]
    pub fn counted(hub: &'a hub::Hub, player: Option<ids::PlayerId>) -> Presence<'a> {
        Presence { hub, player }
    }
}

impl Drop for Presence<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.player {
            self.hub.leave(id);
        }
    }
}
