//! `quentin serve`: the game server that any SSH client reaches (docs/server.md).

use std::path::PathBuf;

use anyhow::{Context as _, Result};
use clap::Args;

use crate::server::{ServeOptions, serve as run};

/// `quentin serve [--listen ADDR:PORT] [--data DIR] [--database URL] [--max-sessions N] ...`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, args_override_self = true)]
pub struct ServeArgs {
    #[command(subcommand)]
    command: Option<ServeCommand>,
    /// Read the options from this TOML file, a key an option (`max-sessions = 512`,
    /// `listen = "0.0.0.0:2222"`); the command line and the environment override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Where to listen; 0.0.0.0:2222 opens it to other machines, port 0 picks a free one.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:2222")]
    listen: String,
    /// The server's data: its host key and its store [default: the data directory's
    /// server/]. With --database, the host key only: several processes may share it.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Keep the store on this PostgreSQL database instead of SQLite in --data, shared with
    /// the other processes started on it: postgres://user@host:port/dbname.
    #[arg(
        long,
        value_name = "URL",
        env = "QUENTIN_DATABASE_URL",
        hide_env_values = true
    )]
    database: Option<String>,
    /// With --database: the connections to it this process pools for its changes and reads
    /// (and 3 more of its own: notifications, leases, presence). The default lets 8 processes
    /// share PostgreSQL's default max_connections (100).
    #[arg(long, value_name = "N", default_value_t = 8)]
    database_pool: usize,
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
    /// Challenges and accepts one player may make a minute.
    #[arg(long, value_name = "N", default_value_t = 20)]
    challenges_per_minute: usize,
    /// Live games (not correspondence) one player may have under way at once.
    #[arg(long, value_name = "N", default_value_t = 4)]
    live_games_per_player: usize,
    /// New players one network block (an IPv4 /24, an IPv6 /64) may register an hour.
    #[arg(long, value_name = "N", default_value_t = 20)]
    registrations_per_hour: usize,
    /// Days each login (its key, address and time, for the operators' `players`) is kept
    /// before it is deleted; a refused login is kept once a minute a network block.
    #[arg(long, value_name = "DAYS", default_value_t = 90)]
    keep_logins: u32,
    /// Vacation days each player has a year (renewed on 1 January): taken ahead with
    /// `vacation N`, or one by one when a correspondence clock runs out; 0 to 365.
    #[arg(long, value_name = "DAYS", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(0..=365))]
    vacation_days: u32,
    /// Rated games a day between the same two players; the next are played casual.
    #[arg(long, value_name = "N", default_value_t = 3)]
    rated_games_per_pair: usize,
    /// Reviews of finished games the server runs at once, each on one thread (`v` after a
    /// game); more wait their turn, and a player has one at a time. 0 turns them off.
    #[arg(long, value_name = "N", default_value_t = 1)]
    review_threads: usize,
    /// Seconds a session may send nothing (no key; no command from a bot, whose wait does not
    /// count) before it is told why and closed; its games wait.
    #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
    idle_timeout: u64,
    /// Only the keys or players this file lists may log in (a private server): one a line,
    /// an OpenSSH public key, a fingerprint (SHA256:...) or a player's name; re-read on SIGHUP.
    #[arg(long, value_name = "FILE")]
    allow: Option<PathBuf>,
    /// A message of the day, shown in the lobby and to bots (`motd`); re-read on SIGHUP.
    #[arg(long, value_name = "FILE")]
    motd: Option<PathBuf>,
    /// The operators, who may ban, rename, abort, close, reset and mark (docs/server.md,
    /// "Moderation"): one a line, an OpenSSH public key, a fingerprint (SHA256:...) or a
    /// player's name; re-read on SIGHUP. `quentin serve admin op NAME` names more, in the store.
    #[arg(long, value_name = "FILE")]
    operators: Option<PathBuf>,
    /// Serve the metrics in Prometheus's text format at http://ADDR:PORT/metrics (keep it on
    /// loopback or a private network; port 0 picks a free one, printed).
    #[arg(long, value_name = "ADDR:PORT")]
    metrics: Option<String>,
    /// Serve the read-only web pages and HTTP API at http://ADDR:PORT/ (docs/web.md): the
    /// games, players and tournaments for anyone without a terminal; port 0 picks a free one,
    /// printed.
    #[arg(long, value_name = "ADDR:PORT")]
    web: Option<String>,
    /// With --allow (a private server): serve the web all the same, its games, players and
    /// tournaments seen by anyone who reaches it.
    #[arg(long)]
    web_public: bool,
    /// What the log on standard error shows when RUST_LOG is not set: error, warn, info,
    /// debug or trace.
    #[arg(long, value_name = "LEVEL", default_value = "info")]
    log_level: String,
    /// For the tests only: a test server, whose clock the hook `clock advance SECONDS` moves on
    /// and whose sessions may inject faults (docs/development.md, "Test hooks"); its start
    /// lines say so.
    #[arg(long, hide = true)]
    test_hooks: bool,
}

/// What else `quentin serve` does.
#[derive(clap::Subcommand, Debug)]
enum ServeCommand {
    /// Copy a server's SQLite store into a PostgreSQL database (empty, or made by quentin
    /// with no rows yet): players, keys, ratings, challenges, games and moves; the counts are
    /// checked. Stop the server first.
    Migrate {
        /// The SQLite store: DIR/server.db.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// The database: postgres://user@host:port/dbname.
        #[arg(long, value_name = "URL")]
        to: String,
    },
    /// Copy the SQLite store to FILE while the server runs (SQLite's online backup: the store
    /// as it was at one commit), checked before it is renamed into place. PostgreSQL's store
    /// is backed up with pg_dump.
    Backup {
        /// The backup to write (replaced if there).
        #[arg(long, value_name = "FILE")]
        to: PathBuf,
        /// The server's data directory [default: the data directory's server/].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Put a backup in the place of the store, the server stopped; the store it replaces is
    /// kept beside it as server.db.replaced-SECONDS.
    Restore {
        /// The backup, made by `quentin serve backup`.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// The server's data directory [default: the data directory's server/].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Carry out an operator's order against the server's store, whether the server runs or
    /// not (a running one reads it within a second): `ban NAME [until YYYY-MM-DD]
    /// REASON...`, `unban NAME`, `rename NAME`, `abort GAME`, `close CHALLENGE`, `reset NAME`,
    /// `mark NAME`, `unmark NAME`, `players [NAME]`, `log`, and `op NAME`, `deop NAME`
    /// (docs/server.md, "Moderation"). The audit log says `host` did it.
    Admin {
        /// The server's data directory, for its SQLite store [default: the data directory's
        /// server/].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
        /// The server's PostgreSQL database instead: postgres://user@host:port/dbname.
        #[arg(
            long,
            value_name = "URL",
            env = "QUENTIN_DATABASE_URL",
            hide_env_values = true
        )]
        database: Option<String>,
        /// The order's words.
        #[arg(required = true, trailing_var_arg = true, value_name = "WORDS")]
        words: Vec<String>,
    },
}

/// Runs the server until SIGINT or SIGTERM.
///
/// # Errors
/// A data directory, store or address that cannot be used.
pub fn serve(args: &ServeArgs) -> Result<()> {
    match &args.command {
        Some(ServeCommand::Migrate { from, to }) => return crate::server::migrate(from, to),
        Some(ServeCommand::Backup { to, data }) => {
            return crate::server::backup(&data_dir(data.as_ref())?, to);
        }
        Some(ServeCommand::Restore { from, data }) => {
            return crate::server::restore(&data_dir(data.as_ref())?, from);
        }
        Some(ServeCommand::Admin {
            data,
            database,
            words,
        }) => {
            let said = crate::server::admin(&data_dir(data.as_ref())?, database.as_deref(), words)?;
            if !said.is_empty() {
                println!("{said}");
            }
            return Ok(());
        }
        None => {}
    }
    if let Some(file) = &args.config {
        return serve_options(&with_config(file)?);
    }
    serve_options(args)
}

/// The options again, the file's first and the command line's after them, so that the command
/// line overrides the file ([`super::serve_config`]).
fn with_config(file: &std::path::Path) -> Result<ServeArgs> {
    use clap::{Command, FromArgMatches};
    let command = ServeArgs::augment_args(Command::new("serve"));
    let from_file = super::serve_config::words(file, &command)?;
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let given = argv
        .iter()
        .position(|a| a == "serve")
        .map_or(&argv[argv.len()..], |at| &argv[at + 1..]);
    let words = std::iter::once("serve".into())
        .chain(from_file)
        .chain(given.iter().cloned());
    let matches = command.try_get_matches_from(words)?;
    Ok(ServeArgs::from_arg_matches(&matches)?)
}

/// Runs the server with `args`.
fn serve_options(args: &ServeArgs) -> Result<()> {
    let data = data_dir(args.data.as_ref())?;
    run(&ServeOptions {
        listen: args.listen.clone(),
        data,
        database: args.database.clone(),
        database_pool: args.database_pool,
        max_sessions: args.max_sessions,
        max_startups: args.max_startups,
        max_startups_per_address: args.max_startups_per_address,
        login_grace_time: args.login_grace_time,
        sessions_per_key: args.sessions_per_key,
        challenges_per_player: args.challenges_per_player,
        idle_timeout: args.idle_timeout,
        review_threads: args.review_threads,
        fair: crate::server::FairLimits {
            asks_per_minute: args.challenges_per_minute,
            live_games: args.live_games_per_player,
            rated_per_pair: args.rated_games_per_pair,
        },
        access: crate::server::AccessFiles {
            allow: args.allow.clone(),
            motd: args.motd.clone(),
            operators: args.operators.clone(),
        },
        metrics: args.metrics.clone(),
        web: args.web.clone(),
        web_public: args.web_public,
        registrations_per_hour: args.registrations_per_hour,
        keep_logins: args.keep_logins,
        vacation_days: args.vacation_days,
        test_hooks: args.test_hooks,
        log_level: args.log_level.clone(),
        puzzles: crate::puzzles::shipped()
            .context("cannot read the shipped puzzles")?
            .into_iter()
            .flat_map(|set| set.puzzles)
            .collect(),
    })
}

/// The server's data directory: `given`, or the data directory's `server/`.
fn data_dir(given: Option<&PathBuf>) -> Result<PathBuf> {
    match given {
        Some(dir) => Ok(dir.clone()),
        None => Ok(crate::saved_games::data_dir()?.join("server")),
    }
}
