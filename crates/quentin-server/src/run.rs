//! Starting and stopping the server: the host's log, the data directory and its host key, the
//! store, the SSH listener and each connection's task (its places, its deadlines, the line that
//! says how it ended), the clock's ticks, and a clean stop on SIGINT or SIGTERM.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use russh::keys::PrivateKey;
use russh::keys::ssh_key::LineEnding;
use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tracing::Instrument as _;

use super::access::{AccessFiles, KeyList, Lists};
use super::hub::FairLimits;
use super::link::{Cut, Link};
use super::metrics::metrics;
use super::ssh::Connection;
use crate::context::Context;

pub mod admin;
mod scrape;
mod serve;

pub use serve::serve;

/// What `quentin serve` was asked.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Where to listen: `127.0.0.1:2222`; port 0 picks a free one (printed).
    pub listen: String,
    /// The data directory: the host key and the store.
    pub data: PathBuf,
    /// A PostgreSQL database to keep the store on, shared with other processes.
    pub database: Option<String>,
    /// The connections to the database pooled for changes and reads.
    pub database_pool: usize,
    /// Logged-in connections in all.
    pub max_sessions: usize,
    /// Connections not yet logged in, in all.
    pub max_startups: usize,
    /// Connections not yet logged in from one address.
    pub max_startups_per_address: usize,
    /// Seconds a connection has to finish the handshake and log in.
    pub login_grace_time: u64,
    /// Sessions a key may have at once.
    pub sessions_per_key: usize,
    /// Open challenges a player may have.
    pub challenges_per_player: usize,
    /// Seconds a session may send nothing while the server waits for it (a key, a bot's
    /// command) before it is closed.
    pub idle_timeout: u64,
    /// Reviews of finished games run at once (0: none).
    pub review_threads: usize,
    /// The limits of fair play: challenges and accepts a minute, live games at once, rated
    /// games a day between two players.
    pub fair: FairLimits,
    /// The host's lists: who may log in, the message of the day.
    pub access: AccessFiles,
    /// New players a network block may register an hour.
    pub registrations_per_hour: usize,
    /// Days each login's key, address and time are kept (`--keep-logins`).
    pub keep_logins: u32,
    /// Vacation days each player has a year (`--vacation-days`).
    pub vacation_days: u32,
    /// Where to serve the metrics (Prometheus's text format at `/metrics`), if anywhere.
    pub metrics: Option<String>,
    /// Where to serve the web pages and the HTTP API, if anywhere (`--web`).
    pub web: Option<String>,
    /// Whether a private server (`--allow`) may serve the web (`--web-public`): its games are
    /// then seen by anyone who has the address.
    pub web_public: bool,
    /// A test server (the hidden `--test-hooks`): a clock that the hook `clock advance` moves
    /// on, and the other test hooks answered (`crate::bot` hook module); said at the start.
    pub test_hooks: bool,
    /// What the log shows when `RUST_LOG` is not set: `info`, `warn`, a filter of
    /// `tracing-subscriber`'s.
    pub log_level: String,
    /// The puzzle set to serve: the store adds those it does not hold yet, by id, at the start.
    pub puzzles: Vec<quentin_app::search::puzzles::Puzzle>,
}

/// The host key of `dir`, made on the first start (readable by its owner only).
fn host_key(dir: &Path) -> Result<PrivateKey> {
    let path = dir.join("host_ed25519");
    if path.exists() {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read the host key {}", path.display()))?;
        return PrivateKey::from_openssh(text.trim())
            .with_context(|| format!("{} is not an OpenSSH private key", path.display()));
    }
    let mut seed = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut seed))
        .context("cannot read random bytes for the host key")?;
    let key = PrivateKey::new(
        KeypairData::Ed25519(Ed25519Keypair::from_seed(&seed)),
        "quentin serve host key",
    )?;
    let text = key.to_openssh(LineEnding::LF)?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(&path)
        .with_context(|| format!("cannot write the host key {}", path.display()))?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    Ok(key)
}

/// This process's name among those on one database: the address it was asked to listen on,
/// its process number and a random tag (a process started again is another).
fn cluster_name(listen: &str) -> String {
    let random = std::collections::hash_map::RandomState::new();
    let tag = std::hash::BuildHasher::hash_one(&random, std::process::id()) & 0xffff_ffff;
    let listen: String = listen.chars().filter(|c| !c.is_whitespace()).collect();
    format!("{listen}/{}/{tag:08x}", std::process::id())
}

/// Takes the data directory's lock (the file `lock` in it) for as long as the returned file is
/// open: one server per directory. The lock goes with the process, however it ends.
pub(super) fn lock_data(dir: &Path) -> Result<std::fs::File> {
    let path = dir.join("lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open the lock file {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "another quentin serve is using the data directory {} (it holds {}): stop it \
             first, or give this one another --data",
            dir.display(),
            path.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}

/// Standard error for the log: a write that fails (its reader gone) is dropped, never a panic
/// and never a stop.
struct Stderr;

impl std::io::Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Starts the host's log on standard error: `RUST_LOG` if set, else `level` (for this
/// program; other crates' warnings and errors only).
fn start_log(level: &str) -> Result<()> {
    use tracing_subscriber::EnvFilter;
    let filter = match std::env::var("RUST_LOG") {
        Ok(filter) if !filter.trim().is_empty() => EnvFilter::try_new(filter),
        _ => EnvFilter::try_new(format!("warn,quentin={level}")),
    }
    .context("a bad log filter (RUST_LOG or --log-level): say info, debug, warn, ...")?;
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    // Already set (a second server in one process, in tests): the first one's log serves.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| Stderr)
        .with_ansi(ansi)
        .with_target(false)
        .log_internal_errors(false)
        .try_init();
    Ok(())
}

/// Accepts connections until `stop` turns true: one refused at once (its socket closed) when
/// too many are not logged in yet, in all or from its address; each other one runs in its own
/// task.
async fn accept(
    ctx: Arc<Context>,
    config: Arc<russh::server::Config>,
    listener: TcpListener,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.wait_for(|stop| *stop) => return,
        };
        let (socket, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, or the like: the next accept may succeed.
                tracing::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let link = Link::new(peer);
        let evicted = Arc::downgrade(&link);
        let evict = Box::new(move || {
            if let Some(link) = evicted.upgrade() {
                link.cut("its place went to a newcomer from a less crowded network block");
            }
        });
        match ctx.gate.admit(peer.ip(), evict) {
            Ok(startup) => {
                let handler = Connection::new(ctx.clone(), link.clone(), startup);
                let span = link.span.clone();
                tokio::spawn(
                    connection(ctx.clone(), config.clone(), socket, link, handler).instrument(span),
                );
            }
            Err(refused) => {
                metrics()
                    .refused
                    .with_label_values(&[refused.label()])
                    .inc();
                tracing::warn!(%peer, "connection refused at once: {refused}");
                drop(socket);
            }
        }
    }
}

/// One connection, from its accept to its end, with the line that says how it ended.
async fn connection(
    ctx: Arc<Context>,
    config: Arc<russh::server::Config>,
    socket: TcpStream,
    link: Arc<Link>,
    handler: Connection,
) {
    let _ = socket.set_nodelay(true);
    let stream = Cut::new(socket, &link);
    let run = async {
        match russh::server::run_stream(config, stream, handler).await {
            Ok(session) => session.await,
            Err(e) => Err(e),
        }
    };
    tokio::pin!(run);
    let limits = ctx.limits;
    let deadline = link.deadline(limits.login_grace, limits.idle, ctx.cut_all.subscribe());
    let ended = tokio::select! {
        ended = &mut run => ended,
        _ = deadline => {
            // A socket that sent nothing at all: its block waits a while, as for a place
            // held for the whole grace.
            if link.version_missed() {
                ctx.gate.strike(link.peer.ip());
            }
            run.await
        }
    };
    let known = link.known();
    let why = match (link.cut_why().or(known.ending), ended) {
        (Some(why), _) => why,
        (None, Ok(())) => "closed by the client".to_string(),
        (None, Err(e)) => e.to_string(),
    };
    let key = known.key.unwrap_or_else(|| "-".to_string());
    let player = known
        .name
        .or_else(|| ctx.hub.player_of_key(&key).map(|(_, name)| name))
        .unwrap_or_else(|| "-".to_string());
    let seconds = link.since.elapsed().as_secs();
    tracing::info!(peer = %link.peer, %key, %player, seconds, "connection ended: {why}");
}

/// What the lists hold, for the log.
fn summary(lists: &Lists) -> String {
    let allow = match &lists.allow {
        Some(list) => format!("{} keys or names may log in", list.len()),
        None => "anyone may log in".to_string(),
    };
    let operators = lists.operators.as_ref().map_or(0, KeyList::len);
    format!(
        "{allow}, a message of the day of {} lines, {operators} operators named by a file",
        lists.motd.len()
    )
}
