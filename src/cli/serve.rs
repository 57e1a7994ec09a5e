//! `quentin serve`: the game server that any SSH client reaches (docs/server.md).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::server::{ServeOptions, serve as run};

/// `quentin serve [--listen ADDR:PORT] [--data DIR] [--max-sessions N] ...`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Where to listen; 0.0.0.0:2222 opens it to other machines, port 0 picks a free one.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:2222")]
    listen: String,
    /// The server's data: its host key and its store [default: the data directory's
    /// server/].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Logged-in connections at once, in all.
    #[arg(long, value_name = "N", default_value_t = 256)]
    max_sessions: usize,
    /// Connections not yet logged in, in all: one more is closed at once. They never take a
    /// player's place.
    #[arg(long, value_name = "N", default_value_t = 100)]
    max_startups: usize,
    /// Connections not yet logged in from one address: one more from there is closed at once.
    #[arg(long, value_name = "N", default_value_t = 10)]
    max_startups_per_address: usize,
    /// Seconds a connection has to finish the SSH handshake and log in before it is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 20)]
    login_grace_time: u64,
    /// Sessions one key (one player) may have at once.
    #[arg(long, value_name = "N", default_value_t = 4)]
    sessions_per_key: usize,
    /// Open challenges one player may have at once.
    #[arg(long, value_name = "N", default_value_t = 10)]
    challenges_per_player: usize,
    /// Seconds a session may send nothing (no key; no command from a bot, whose wait does not
    /// count) before it is told why and closed; its games wait.
    #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
    idle_timeout: u64,
    /// What the log on standard error shows when RUST_LOG is not set: error, warn, info,
    /// debug or trace.
    #[arg(long, value_name = "LEVEL", default_value = "info")]
    log_level: String,
    /// For tests: a clock that the bot command `clock advance SECONDS` moves on (with the
    /// `test-hooks` feature only: docs/development.md).
    #[cfg(feature = "test-hooks")]
    #[arg(long, hide = true)]
    test_clock: bool,
}

/// Runs the server until SIGINT or SIGTERM.
///
/// # Errors
/// A data directory, store or address that cannot be used.
pub fn serve(args: &ServeArgs) -> Result<()> {
    let data = match &args.data {
        Some(dir) => dir.clone(),
        None => crate::library::data_dir()?.join("server"),
    };
    run(&ServeOptions {
        listen: args.listen.clone(),
        data,
        max_sessions: args.max_sessions,
        max_startups: args.max_startups,
        max_startups_per_address: args.max_startups_per_address,
        login_grace_time: args.login_grace_time,
        sessions_per_key: args.sessions_per_key,
        challenges_per_player: args.challenges_per_player,
        idle_timeout: args.idle_timeout,
        #[cfg(feature = "test-hooks")]
        test_clock: args.test_clock,
        log_level: args.log_level.clone(),
    })
}
