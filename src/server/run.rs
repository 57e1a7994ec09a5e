//! Starting and stopping the server: the data directory and its host key, the store, the SSH
//! listener, the clock's ticks, and a clean stop on SIGINT or SIGTERM.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use russh::keys::ssh_key::LineEnding;
use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
use russh::keys::{HashAlg, PrivateKey};
use russh::server::Server as _;
use russh::{MethodKind, MethodSet};
use tokio::sync::{Notify, watch};

use super::clock::Clock;
use super::hub::{Hub, HubLimits};
use super::report::{say, survive};
use super::ssh::Connection;
use super::store::Sqlite;
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
    /// Connections in all.
    pub max_sessions: usize,
    /// Sessions a key may have at once.
    pub sessions_per_key: usize,
    /// Open challenges a player may have.
    pub challenges_per_player: usize,
    /// Seconds a session may send nothing while the server waits for it (a key, a bot's
    /// command) before it is closed.
    pub idle_timeout: u64,
    /// A clock that `clock advance` moves on (for tests).
    #[cfg(feature = "test-hooks")]
    pub test_clock: bool,
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

/// Takes the data directory's lock (the file `lock` in it) for as long as the returned file is
/// open: one server per directory. The lock goes with the process, however it ends.
fn lock_data(dir: &Path) -> Result<std::fs::File> {
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

struct Server {
    ctx: Arc<Context>,
}

impl russh::server::Server for Server {
    type Handler = Connection;

    fn new_client(&mut self, _peer: Option<std::net::SocketAddr>) -> Connection {
        Connection::new(self.ctx.clone())
    }
}

/// Runs `quentin serve` until SIGINT or SIGTERM.
///
/// # Errors
/// A data directory, store or address that cannot be used.
pub fn serve(options: &ServeOptions) -> Result<()> {
    if options.max_sessions == 0 || options.sessions_per_key == 0 {
        bail!("--max-sessions and --sessions-per-key must be at least 1");
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(&options.data)
        .with_context(|| format!("cannot make the data directory {}", options.data.display()))?;
    // Held until the server stops: a second server on this directory is refused.
    let _lock = lock_data(&options.data)?;
    let key = host_key(&options.data)?;
    let fingerprint = key.public_key().fingerprint(HashAlg::Sha256);
    #[cfg(feature = "test-hooks")]
    let clock = if options.test_clock {
        Clock::for_tests()
    } else {
        Clock::new()
    };
    #[cfg(not(feature = "test-hooks"))]
    let clock = Clock::new();
    let store = Sqlite::open(&options.data.join("server.db"))?;
    let hub = Hub::open(
        store,
        HubLimits {
            challenges_per_player: options.challenges_per_player,
        },
        clock.now(),
    )?;
    for damaged in hub.damaged() {
        // Said to the host at the start: these stay out of play until repaired.
        let _ = writeln!(
            std::io::stderr(),
            "quentin serve: {damaged}; it stays out of play"
        );
    }
    let ctx = Arc::new(Context {
        hub,
        clock,
        limits: Limits {
            max_sessions: options.max_sessions,
            sessions_per_key: options.sessions_per_key,
            idle: Duration::from_secs(options.idle_timeout.max(1)),
        },
        connections: AtomicUsize::new(0),
        stop: watch::channel(false).0,
        closed: Notify::new(),
    });
    let config = Arc::new(russh::server::Config {
        methods: MethodSet::from(&[MethodKind::PublicKey][..]),
        keys: vec![key],
        // The sessions close themselves after the idle timeout without input; this closes a
        // connection that sends nothing at all, not even an answer to a keepalive (frames
        // and keepalives start this time afresh).
        inactivity_timeout: Some(Duration::from_secs(options.idle_timeout.max(60))),
        keepalive_interval: Some(Duration::from_secs(30)),
        keepalive_max: 3,
        auth_rejection_time: Duration::from_millis(300),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        nodelay: true,
        ..Default::default()
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&options.listen)
            .await
            .with_context(|| format!("cannot listen on {}", options.listen))?;
        let address = listener.local_addr()?;
        // Nothing written for the host can stop the server: its reader may be gone.
        say(format_args!("quentin serve: listening on {address}"));
        say(format_args!("host key fingerprint: {fingerprint}"));
        say(format_args!("data: {}", options.data.display()));
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
                })
                .await;
            }
        });
        let mut server = Server { ctx: ctx.clone() };
        let running = server.run_on_socket(config, &listener);
        let handle = running.handle();
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            result = running => result.context("the server stopped")?,
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        // Every session gives its client's terminal back and says why; the clients then
        // close their connections. A client that does not is left to the disconnect below.
        ctx.stop.send_replace(true);
        let _ = tokio::time::timeout(STOP_WAIT, async {
            loop {
                let closed = ctx.closed.notified();
                if ctx.connections.load(Ordering::SeqCst) == 0 {
                    break;
                }
                closed.await;
            }
        })
        .await;
        handle.shutdown("the quentin server is shutting down; your games are saved".to_string());
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
