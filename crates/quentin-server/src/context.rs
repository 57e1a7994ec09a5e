//! What every connection shares ([`Context`]: the hub, the clock, the limits, the places, the
//! host's lists, the operators' ledger), a player's session counted in ([`Presence`]), and
//! what a session does with the operators' powers: [`watch`] (an order carried out, the ledger
//! read again for the orders given elsewhere) and [`session`] (who is an operator, a ban said
//! at login, a name picked or renamed). Above the hub and the stores, below the sessions (the
//! bot protocol, the people's screens, SSH) and the server's start.

pub mod session;
pub mod watch;

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use tokio::sync::{Notify, watch as signal};

use crate::{access, clock, gate, hub, ids, reviews, signup};

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
    pub stop: signal::Sender<bool>,
    /// Turns true when the server, stopping, has waited enough: every connection left is cut.
    pub cut_all: signal::Sender<bool>,
    /// Told whenever a connection closes.
    pub closed: Notify,
    /// The reviews of finished games the server runs.
    pub reviews: reviews::Reviews,
    /// The host's lists (`--allow`, `--motd`, `--operators`), read again on SIGHUP.
    pub access: access::Access,
    /// The operators' ledger, and its reading again.
    pub moderation: watch::Moderation,
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
