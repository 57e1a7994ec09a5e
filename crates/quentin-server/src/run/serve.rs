//! `quentin serve`, phase by phase: the options checked, the data directory and its host key,
//! the runtimes, the store and the ledger opened, the shared context, then on the runtime the
//! start (the shipped puzzles, the cluster, the sanctions, the listeners), the background
//! tasks (the clock's ticks, the lists read again on SIGHUP), and the stop on SIGINT or
//! SIGTERM.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use deadpool_postgres::Pool;
use russh::keys::{HashAlg, PrivateKey};
use russh::{MethodKind, MethodSet};
use tokio::net::TcpListener;
use tokio::runtime::Runtime;
use tokio::sync::{Notify, watch};

use super::{ServeOptions, accept, cluster_name, host_key, lock_data, start_log, summary};
use crate::access::Access;
use crate::clock::Clock;
use crate::cluster::Cluster;
use crate::context::watch::Moderation;
use crate::context::{Context, Limits};
use crate::gate::{Bounds, Gate};
use crate::hub::{Hub, HubLimits};
use crate::ids::Moment;
use crate::moderation::Ledger;
use crate::report::{say, survive};
use crate::store::Sqlite;
use crate::store::postgres::{self, Postgres};
use crate::store::puzzles::PuzzleRow;

/// How long a stop waits for the clients to take their last words and close.
const STOP_WAIT: Duration = Duration::from_secs(3);

/// The database's pool and configuration, when the store is PostgreSQL's.
type Database = Option<(Pool, tokio_postgres::Config)>;

/// Runs `quentin serve` until SIGINT or SIGTERM.
///
/// # Errors
/// A data directory, store or address that cannot be used.
pub fn serve(options: &ServeOptions) -> Result<()> {
    check(options)?;
    start_log(&options.log_level)?;
    // A bad list stops the start, before anything is opened.
    let access = Access::load(options.access.clone())?;
    // Held until the server stops: a second server on this directory's store is refused.
    let _lock = data_directory(options)?;
    let key = host_key(&options.data)?;
    let fingerprint = key.public_key().fingerprint(HashAlg::Sha256).to_string();
    let clock = if options.test_hooks {
        Clock::for_tests()
    } else {
        Clock::new()
    };
    let (runtime, watchers) = runtimes()?;
    let name = cluster_name(&options.listen);
    let (hub, database, ledger) = open_store(options, &runtime, &name, clock.now())?;
    for damaged in hub.damaged() {
        // Said to the host at the start: these stay out of play until repaired.
        tracing::warn!("{damaged}; it stays out of play");
    }
    let ctx = context(options, hub, clock, access, ledger, &watchers);
    let config = ssh_config(options, key);
    runtime.block_on(async move {
        let (listener, metrics) = start(&ctx, options, database, name).await?;
        let web = start_web(&ctx, options).await?;
        banner(options, listener.local_addr()?, metrics, &fingerprint);
        if let Some(at) = web {
            say(format_args!("web: http://{at}/"));
        }
        spawn_ticks(&ctx);
        tracing::info!(address = %listener.local_addr()?, "listening; {}", summary(&ctx.access.lists()));
        let accepting = tokio::spawn(accept(ctx.clone(), config, listener, ctx.stop.subscribe()));
        spawn_reload(&ctx)?;
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        stop(&ctx, accepting).await;
        Ok(())
    })
}

/// Every bound at least 1.
fn check(options: &ServeOptions) -> Result<()> {
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
    if options.web.is_some() && options.access.allow.is_some() && !options.web_public {
        bail!(
            "--web with --allow: a private server's games would be seen by anyone who reaches \
             the web; add --web-public to serve them all the same"
        );
    }
    Ok(())
}

/// The data directory, made (only its owner may read it), and its lock when the store is in
/// it: processes on one database share the directory, which holds only the host key.
fn data_directory(options: &ServeOptions) -> Result<Option<std::fs::File>> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(&options.data)
        .with_context(|| format!("cannot make the data directory {}", options.data.display()))?;
    match options.database {
        None => Ok(Some(lock_data(&options.data)?)),
        Some(_) => Ok(None),
    }
}

/// The server's runtime, and the watchers' one: their screens are drawn on a thread of their
/// own, so the players' work (their moves, their answers, every SSH connection) never queues
/// behind a crowd's frames.
fn runtimes() -> Result<(Runtime, Runtime)> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let watchers = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("quentin-watchers")
        .enable_all()
        .build()
        .context("cannot start the watchers' runtime")?;
    Ok((runtime, watchers))
}

/// The hub on its store (SQLite's file in the data directory, or the database), the
/// database's pool, and the moderation ledger on the same store.
fn open_store(
    options: &ServeOptions,
    runtime: &Runtime,
    name: &str,
    now: Moment,
) -> Result<(Hub, Database, Ledger)> {
    let limits = HubLimits {
        challenges_per_player: options.challenges_per_player,
        fair: options.fair,
        vacation_days: options.vacation_days,
    };
    let Some(url) = &options.database else {
        let path = options.data.join("server.db");
        let hub = Hub::open(Sqlite::open(&path)?, limits, now)?;
        return Ok((hub, None, Ledger::sqlite(&path)?));
    };
    let what = postgres::shown_url(url);
    let config = postgres::config(url, name)?;
    let (hub, pool) = runtime.block_on(async {
        let pool = postgres::pool(config.clone(), options.database_pool).await?;
        let store = Postgres::open(pool.clone(), name, &what).await?;
        let hub = Hub::open_postgres(store, limits, now).await?;
        Ok::<_, anyhow::Error>((hub, pool))
    })?;
    let ledger = Ledger::postgres(pool.clone());
    Ok((hub, Some((pool, config)), ledger))
}

/// What every session shares.
fn context(
    options: &ServeOptions,
    hub: Hub,
    clock: Clock,
    access: Access,
    ledger: Ledger,
    watchers: &Runtime,
) -> Arc<Context> {
    let login_grace = Duration::from_secs(options.login_grace_time);
    Arc::new(Context {
        hub,
        clock,
        limits: Limits {
            max_sessions: options.max_sessions,
            sessions_per_key: options.sessions_per_key,
            idle: Duration::from_secs(options.idle_timeout.max(1)),
            login_grace,
        },
        gate: Gate::new(Bounds {
            max_startups: options.max_startups,
            startups_per_address: options.max_startups_per_address,
            max_sessions: options.max_sessions,
            sessions_per_key: options.sessions_per_key,
            login_grace,
        }),
        connections: AtomicUsize::new(0),
        stop: watch::channel(false).0,
        cut_all: watch::channel(false).0,
        closed: Notify::new(),
        reviews: crate::reviews::Reviews::new(options.review_threads),
        access,
        moderation: Moderation::new(ledger).keeping_logins(options.keep_logins),
        signups: crate::signup::Signups::new(options.registrations_per_hour),
        watchers: Some(watchers.handle().clone()),
    })
}

/// The SSH server's settings.
fn ssh_config(options: &ServeOptions, key: PrivateKey) -> Arc<russh::server::Config> {
    Arc::new(russh::server::Config {
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
    })
}

/// On the runtime, before anyone logs in: the shipped puzzles in the store (those it holds
/// keeping their ratings), the other processes joined, the sanctions in force read (then
/// again every half second), and the SSH and metrics listeners bound: the SSH listener, and
/// where the metrics are served.
async fn start(
    ctx: &Arc<Context>,
    options: &ServeOptions,
    database: Database,
    name: String,
) -> Result<(TcpListener, Option<SocketAddr>)> {
    let rows: Vec<PuzzleRow> = options.puzzles.iter().map(PuzzleRow::shipped).collect();
    ctx.hub
        .add_puzzles(rows)
        .await
        .map_err(|refusal| anyhow::anyhow!("cannot add the puzzles to the store: {refusal}"))?;
    if let Some((pool, config)) = database {
        Cluster::join(ctx, pool, config, name)
            .await
            .context("cannot join the other server processes on the database")?;
    }
    ctx.moderation
        .start(&ctx.hub, ctx.clock.now())
        .await
        .context("cannot read the operators' ledger")?;
    tokio::spawn(crate::context::watch::run(ctx.clone()));
    let listener = TcpListener::bind(&options.listen)
        .await
        .with_context(|| format!("cannot listen on {}", options.listen))?;
    let Some(at) = &options.metrics else {
        return Ok((listener, None));
    };
    let metrics = TcpListener::bind(at)
        .await
        .with_context(|| format!("cannot serve the metrics on {at}"))?;
    let bound = metrics.local_addr()?;
    tokio::spawn(super::scrape::serve(
        ctx.clone(),
        metrics,
        ctx.stop.subscribe(),
    ));
    Ok((listener, Some(bound)))
}

/// The web's listener bound and served (`--web`): where, if anywhere.
async fn start_web(ctx: &Arc<Context>, options: &ServeOptions) -> Result<Option<SocketAddr>> {
    let Some(at) = &options.web else {
        return Ok(None);
    };
    let listener = TcpListener::bind(at)
        .await
        .with_context(|| format!("cannot serve the web on {at}"))?;
    let bound = listener.local_addr()?;
    tokio::spawn(crate::web::serve(
        ctx.clone(),
        listener,
        ctx.stop.subscribe(),
    ));
    Ok(Some(bound))
}

/// What the host is told at the start. Nothing written for the host can stop the server: its
/// reader may be gone.
fn banner(options: &ServeOptions, address: SocketAddr, metrics: Option<SocketAddr>, key: &str) {
    say(format_args!("quentin serve: listening on {address}"));
    say(format_args!("host key fingerprint: {key}"));
    say(format_args!("data: {}", options.data.display()));
    if let Some(url) = &options.database {
        say(format_args!("database: {}", postgres::shown_url(url)));
    }
    if let Some(at) = metrics {
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
}

/// The clock's tick, every second: a tick that fails (its writes are retried by the next one)
/// or panics does not end the ticks, and the clocks keep running out.
fn spawn_ticks(ctx: &Arc<Context>) {
    let ticker = ctx.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tick.tick().await;
            let ctx = ticker.clone();
            survive("the clock's tick", async move {
                ctx.hub.tick(ctx.clock.now()).await;
                ctx.hub.direct(ctx.clock.now()).await;
            })
            .await;
        }
    });
}

/// The lists read again on SIGHUP; a bad one leaves them as they were.
fn spawn_reload(ctx: &Arc<Context>) -> Result<()> {
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
    Ok(())
}

/// The stop: every session gives its client's terminal back and says why, and the clients
/// close their connections; those that do not are cut (each says so in the log). Everything is
/// committed as it happens; the last heartbeat says when the server went.
async fn stop(ctx: &Arc<Context>, accepting: tokio::task::JoinHandle<()>) {
    tracing::info!("stopping");
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
    ctx.cut_all.send_replace(true);
    let _ = tokio::time::timeout(Duration::from_secs(1), all_closed()).await;
    let last = ctx.clone();
    survive("the last tick", async move {
        last.hub.tick(last.clock.now()).await;
    })
    .await;
    ctx.hub.close().await;
    say("quentin serve: stopped");
}
