//! Starting and stopping the server: the host's log, the data directory and its host key, the
//! store, the SSH listener and each connection's task (its places, its deadlines, the line that
//! says how it ended), the clock's ticks, and a clean stop on SIGINT or SIGTERM.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use russh::keys::ssh_key::LineEnding;
use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
use russh::keys::{HashAlg, PrivateKey};
use russh::{MethodKind, MethodSet};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tracing::Instrument as _;

use super::access::{Access, AccessFiles, KeyList, Lists};
use super::clock::Clock;
use super::cluster::Cluster;
use super::gate::{Bounds, Gate};
use super::hub::{FairLimits, Hub, HubLimits};
use super::link::{Cut, Link};
use super::metrics::metrics;
use super::moderation::Ledger;
use super::moderation::watch::Moderation;
use super::report::{say, survive};
use super::ssh::Connection;
use super::store::Sqlite;
use super::store::postgres::{self, Postgres};
use super::store::puzzles::PuzzleRow;
use super::{Context, Limits};

/// How long a stop waits for the clients to take their last words and close.
const STOP_WAIT: Duration = Duration::from_secs(3);

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
    /// Where to serve the metrics (Prometheus's text format at `/metrics`), if anywhere.
    pub metrics: Option<String>,
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

/// Runs `quentin serve` until SIGINT or SIGTERM.
///
/// # Errors
/// A data directory, store or address that cannot be used.
pub fn serve(options: &ServeOptions) -> Result<()> {
    if options.max_sessions == 0
        || options.sessions_per_key == 0
        || options.max_startups == 0
        || options.max_startups_per_address == 0
        || options.login_grace_time == 0
        || options.database_pool == 0
        || options.fair.asks_per_minute == 0
        || options.fair.live_games == 0
        || options.registrations_per_hour == 0
        || options.keep_logins == 0
    {
        bail!(
            "--max-sessions, --sessions-per-key, --max-startups, --max-startups-per-address, \
             --login-grace-time, --database-pool, --challenges-per-minute, \
             --live-games-per-player, --registrations-per-hour and --keep-logins must be at \
             least 1"
        );
    }
    start_log(&options.log_level)?;
    // A bad list stops the start, before anything is opened.
    let access = Access::load(options.access.clone())?;
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(&options.data)
        .with_context(|| format!("cannot make the data directory {}", options.data.display()))?;
    // Held until the server stops: a second server on this directory's store is refused.
    // Processes on one database share it, and the directory holds only the host key.
    let _lock = match options.database {
        None => Some(lock_data(&options.data)?),
        Some(_) => None,
    };
    let key = host_key(&options.data)?;
    let fingerprint = key.public_key().fingerprint(HashAlg::Sha256);
    let clock = if options.test_hooks {
        Clock::for_tests()
    } else {
        Clock::new()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    // The watchers' screens are drawn on a thread of their own: the players' work (their
    // moves, their answers, every SSH connection) never queues behind a crowd's frames.
    let watchers = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("quentin-watchers")
        .enable_all()
        .build()
        .context("cannot start the watchers' runtime")?;
    let hub_limits = HubLimits {
        challenges_per_player: options.challenges_per_player,
        fair: options.fair,
    };
    let name = cluster_name(&options.listen);
    let (hub, pool) = match &options.database {
        None => {
            let store = Sqlite::open(&options.data.join("server.db"))?;
            (Hub::open(store, hub_limits, clock.now())?, None)
        }
        Some(url) => {
            let what = postgres::shown_url(url);
            let config = postgres::config(url, &name)?;
            let (hub, pool) = runtime.block_on(async {
                let pool = postgres::pool(config.clone(), options.database_pool).await?;
                let store = Postgres::open(pool.clone(), &name, &what).await?;
                let hub = Hub::open_postgres(store, hub_limits, clock.now()).await?;
                Ok::<_, anyhow::Error>((hub, pool))
            })?;
            (hub, Some((pool, config)))
        }
    };
    let ledger = match &pool {
        None => Ledger::sqlite(&options.data.join("server.db"))?,
        Some((pool, _)) => Ledger::postgres(pool.clone()),
    };
    for damaged in hub.damaged() {
        // Said to the host at the start: these stay out of play until repaired.
        tracing::warn!("{damaged}; it stays out of play");
    }
    let limits = Limits {
        max_sessions: options.max_sessions,
        sessions_per_key: options.sessions_per_key,
        idle: Duration::from_secs(options.idle_timeout.max(1)),
        login_grace: Duration::from_secs(options.login_grace_time),
    };
    let ctx = Arc::new(Context {
        hub,
        clock,
        limits,
        gate: Gate::new(Bounds {
            max_startups: options.max_startups,
            startups_per_address: options.max_startups_per_address,
            max_sessions: options.max_sessions,
            sessions_per_key: options.sessions_per_key,
            login_grace: Duration::from_secs(options.login_grace_time),
        }),
        connections: AtomicUsize::new(0),
        stop: watch::channel(false).0,
        cut_all: watch::channel(false).0,
        closed: Notify::new(),
        reviews: super::reviews::Reviews::new(options.review_threads),
        access,
        moderation: Moderation::new(ledger).keeping_logins(options.keep_logins),
        signups: super::signup::Signups::new(options.registrations_per_hour),
        watchers: Some(watchers.handle().clone()),
    });
    let config = Arc::new(russh::server::Config {
        // Keys only; keyboard-interactive is offered only to tell a client that has no key
        // how to make one (`ssh.rs`), then refused.
        methods: MethodSet::from(&[MethodKind::PublicKey, MethodKind::KeyboardInteractive][..]),
        keys: vec![key],
        // The sessions close themselves after the idle timeout without input, and each
        // connection's task closes it when it has not logged in within the grace time or runs
        // no session for the idle timeout; this closes a connection that sends nothing at all,
        // not even an answer to a keepalive (frames and keepalives start this time afresh).
        inactivity_timeout: Some(Duration::from_secs(options.idle_timeout.max(60))),
        keepalive_interval: Some(Duration::from_secs(30)),
        keepalive_max: 3,
        auth_rejection_time: Duration::from_millis(300),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        ..Default::default()
    });
    runtime.block_on(async move {
        // The shipped puzzles in the store, those it holds keeping their ratings.
        let rows: Vec<PuzzleRow> = options.puzzles.iter().map(PuzzleRow::shipped).collect();
        ctx.hub
            .add_puzzles(rows)
            .await
            .map_err(|refusal| anyhow::anyhow!("cannot add the puzzles to the store: {refusal}"))?;
        if let Some((pool, config)) = pool {
            Cluster::join(&ctx, pool, config, name)
                .await
                .context("cannot join the other server processes on the database")?;
        }
        // The sanctions in force before anyone logs in; then read again every half second.
        ctx.moderation
            .start(&ctx.hub, ctx.clock.now())
            .await
            .context("cannot read the operators' ledger")?;
        tokio::spawn(super::moderation::watch::run(ctx.clone()));
        let listener = TcpListener::bind(&options.listen)
            .await
            .with_context(|| format!("cannot listen on {}", options.listen))?;
        let address = listener.local_addr()?;
        let metrics_at = match &options.metrics {
            None => None,
            Some(at) => {
                let metrics = TcpListener::bind(at)
                    .await
                    .with_context(|| format!("cannot serve the metrics on {at}"))?;
                let bound = metrics.local_addr()?;
                tokio::spawn(super::metrics::serve(
                    ctx.clone(),
                    metrics,
                    ctx.stop.subscribe(),
                ));
                Some(bound)
            }
        };
        // Nothing written for the host can stop the server: its reader may be gone.
        say(format_args!("quentin serve: listening on {address}"));
        say(format_args!("host key fingerprint: {fingerprint}"));
        say(format_args!("data: {}", options.data.display()));
        if let Some(url) = &options.database {
            say(format_args!("database: {}", postgres::shown_url(url)));
        }
        if let Some(at) = metrics_at {
            say(format_args!("metrics: http://{at}/metrics"));
        }
        if options.test_hooks {
            // Never on a server for people: any session may fail the store or stop the clock.
            say(format_args!(
                "test hooks: ON (clock advance, store fail, hold, notes, panic): a server for \
                 tests only, never for play"
            ));
            tracing::warn!("started with --test-hooks: a server for tests only, never for play");
        }
        let ticker = ctx.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            loop {
                tick.tick().await;
                // A tick that fails (its writes are retried by the next one) or panics does
                // not end the ticks: the clocks keep running out.
                let ctx = ticker.clone();
                survive("the clock's tick", async move {
                    ctx.hub.tick(ctx.clock.now()).await;
                    ctx.hub.direct(ctx.clock.now()).await;
                })
                .await;
            }
        });
        tracing::info!(%address, "listening; {}", summary(&ctx.access.lists()));
        let accepting = tokio::spawn(accept(ctx.clone(), config, listener, ctx.stop.subscribe()));
        let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
        let reader = ctx.clone();
        tokio::spawn(async move {
            while hangup.recv().await.is_some() {
                match reader.access.reload() {
                    Ok(lists) => tracing::info!("the lists read again: {}", summary(&lists)),
                    Err(e) => tracing::warn!("{e:#}; the lists stay as they were"),
                }
            }
        });
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        tracing::info!("stopping");
        // Every session gives its client's terminal back and says why; the clients then
        // close their connections. A client that does not is left to the disconnect below.
        ctx.stop.send_replace(true);
        let _ = accepting.await;
        let all_closed = || async {
            loop {
                let closed = ctx.closed.notified();
                if ctx.connections.load(Ordering::SeqCst) == 0 {
                    break;
                }
                closed.await;
            }
        };
        let _ = tokio::time::timeout(STOP_WAIT, all_closed()).await;
        // The connections left are cut (each says so in the log).
        ctx.cut_all.send_replace(true);
        let _ = tokio::time::timeout(Duration::from_secs(1), all_closed()).await;
        // Everything is committed as it happens; the last heartbeat says when the server went.
        let last = ctx.clone();
        survive("the last tick", async move {
            last.hub.tick(last.clock.now()).await;
        })
        .await;
        ctx.hub.close().await;
        say("quentin serve: stopped");
        Ok(())
    })
}
