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
//! - [`context`]: what every connection shares (the hub, the clock, the limits, the
//!   operators' ledger watched), and a session's side of moderation.
//! - [`clock`]: the server's time, which a test server moves on by command.
//! - [`report`]: what the server tells its host, and panics in its tasks caught and reported.
//! - [`web`]: the read-only web pages and HTTP API (`--web ADDR:PORT`).

#![forbid(unsafe_code)]

pub(crate) mod access;
pub(crate) mod bot;
pub(crate) mod channel;
pub(crate) mod clock;
pub(crate) mod cluster;
pub(crate) mod command;
pub mod context;
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
pub(crate) mod web;
pub(crate) mod who;

pub use access::AccessFiles;
pub use context::{Context, Limits, Presence};
pub use hub::FairLimits;
pub use maintenance::{backup, restore};
pub use run::admin::admin;
pub use run::{ServeOptions, serve};
pub use store::migrate::migrate;
