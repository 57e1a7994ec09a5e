//! The store on PostgreSQL (`quentin serve --database URL`): the same rows as on SQLite, on a
//! database server that several server processes share. The moves that arrive together commit
//! in one transaction (`postgres/batch.rs`), every other change in one of its own beside them
//! (`postgres/commit.rs`), each committed before anyone is told of it. Each transaction also
//! says what it changed on the channel `quentin` (NOTIFY, delivered on commit), so that the
//! other processes read it (`postgres/read.rs`); and the moves of a game are written only by
//! the process that owns the game (`owners`), checked in the move's own transaction.

mod batch;
mod changes;
mod commit;
pub mod lease;
pub mod ledger;
mod own;
pub mod presence;
mod puzzles;
mod read;
pub mod relay;
mod schema;
pub mod tournaments;
mod writer;

pub use lease::owned;
pub use own::Own;
pub use read::{games, open_challenges, players};

use read::{CHALLENGES, RATINGS, challenges_of, player_of, ratings_of, read_games};

use std::str::FromStr as _;
use std::sync::Arc;

use anyhow::{Context as _, Result, anyhow};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::NoTls;

#[cfg(doc)]
use super::Backend;
use super::puzzles::{PuzzleFound, PuzzleQuery};
use super::{Applied, Change, Loaded, StoreDown};

/// How long an owner's lease on a game lasts without renewal, in milliseconds.
pub const LEASE_MS: i64 = 3_000;

/// The channel the processes tell each other on.
pub const CHANNEL: &str = "quentin";

/// The store on a PostgreSQL database.
pub struct Postgres {
    pool: Pool,
    /// This process's name in `owners`, `processes` and the notifications.
    process: Arc<str>,
}

/// The URL with its password hidden, for messages.
#[must_use]
pub fn shown_url(url: &str) -> String {
    match tokio_postgres::Config::from_str(url) {
        Ok(config) => shown_config(&config),
        Err(_) => "(a URL that cannot be read)".to_string(),
    }
}

/// The bounds every connection to the database carries, so that no frozen or vanished
/// process can hold up the others (docs/server.md, "Bounds on the database"):
///
/// - `idle_in_transaction_session_timeout`: a transaction left open by a process that stopped
///   (SIGSTOP, a paused machine, a cut network) is ended by the database, its locks let go;
/// - `lock_timeout`: no statement waits longer than this for a row another holds;
/// - `statement_timeout`: no statement runs longer;
/// - TCP keepalives both ways: a peer that vanished is noticed in seconds, not hours.
pub const SESSION_BOUNDS: &str = "-c idle_in_transaction_session_timeout=5000 \
     -c lock_timeout=2000 -c statement_timeout=30000 -c tcp_keepalives_idle=5 \
     -c tcp_keepalives_interval=1 -c tcp_keepalives_count=5";

/// Lifts [`SESSION_BOUNDS`] for the rest of one transaction: for the schema's steps and a
/// migration's copy, which may wait and run long, and are no move's.
pub const UNBOUNDED: &str = "SET LOCAL idle_in_transaction_session_timeout = 0;
     SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 0";

/// How a connection to `url` is made, for the process `process`: with [`SESSION_BOUNDS`],
/// client keepalives, a deadline for the connection itself, and the process's name as the
/// application's (in `pg_stat_activity`).
///
/// # Errors
/// A URL that cannot be read.
pub fn config(url: &str, process: &str) -> Result<tokio_postgres::Config> {
    let shown = shown_url(url);
    let mut config = tokio_postgres::Config::from_str(url).with_context(|| {
        format!("cannot read the database URL {shown}: write postgres://user@host:port/dbname")
    })?;
    let options = match config.get_options() {
        Some(theirs) => format!("{SESSION_BOUNDS} {theirs}"),
        None => SESSION_BOUNDS.to_string(),
    };
    let name: String = format!("quentin {process}").chars().take(63).collect();
    config
        .options(options)
        .application_name(name)
        .connect_timeout(std::time::Duration::from_secs(10))
        .keepalives(true)
        .keepalives_idle(std::time::Duration::from_secs(5))
        .keepalives_interval(std::time::Duration::from_secs(1))
        .keepalives_retries(5)
        // Data sent and not acknowledged for this long: the database is gone.
        .tcp_user_timeout(std::time::Duration::from_secs(10));
    Ok(config)
}

/// The error of a pool, with the database's own reason (`too many clients already`), which
/// the pool's own words leave out.
pub fn pool_error(e: &deadpool_postgres::PoolError) -> anyhow::Error {
    let mut words = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        let said = cause.to_string();
        if !words.contains(&said) {
            words = format!("{words}: {said}");
        }
        source = cause.source();
    }
    if let deadpool_postgres::PoolError::Backend(db) = e
        && let Some(db) = db.as_db_error()
        && !words.contains(db.message())
    {
        words = format!("{words}: {}", db.message());
    }
    anyhow!(words)
}

/// A pool of at most `size` connections made as `config` says, checked with one connection.
///
/// # Errors
/// A database that cannot be reached (with its reason).
pub async fn pool(config: tokio_postgres::Config, size: usize) -> Result<Pool> {
    let shown = shown_config(&config);
    let manager = Manager::from_config(
        config,
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    let pool = Pool::builder(manager)
        .max_size(size)
        .runtime(deadpool_postgres::Runtime::Tokio1)
        .wait_timeout(Some(std::time::Duration::from_secs(10)))
        .create_timeout(Some(std::time::Duration::from_secs(10)))
        .build()
        .context("cannot make the database's pool")?;
    drop(
        pool.get()
            .await
            .map_err(|e| pool_error(&e))
            .with_context(|| format!("cannot reach the database {shown}"))?,
    );
    Ok(pool)
}

/// Whether `e` says the database cannot be reached (no connection to be had, one lost), not
/// that it refused something.
#[must_use]
pub fn unreachable(e: &anyhow::Error) -> bool {
    e.downcast_ref::<StoreDown>().is_some()
        || e.downcast_ref::<tokio_postgres::Error>()
            .is_some_and(|e| e.is_closed() || e.as_db_error().is_none())
}

/// The database `config` reaches, as [`shown_url`] writes it.
fn shown_config(config: &tokio_postgres::Config) -> String {
    let user = config.get_user().unwrap_or("");
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(host)) => host.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(path)) => path.display().to_string(),
        None => String::new(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let db = config.get_dbname().unwrap_or("");
    format!("postgres://{user}@{host}:{port}/{db}")
}

impl Postgres {
    /// Opens the store on `pool`'s database, bringing it to the current version.
    ///
    /// # Errors
    /// A database that cannot be reached or written, or from a newer quentin.
    pub async fn open(pool: Pool, process: &str, what: &str) -> Result<Postgres> {
        let mut client = pool.get().await.map_err(|e| pool_error(&e))?;
        schema::migrate(&mut client, what).await?;
        schema::check(&client, what).await?;
        Ok(Postgres {
            pool,
            process: process.into(),
        })
    }

    /// The database's version.
    ///
    /// # Errors
    /// When it cannot be read.
    pub async fn version(&self) -> Result<i64> {
        let client = self.pool.get().await.map_err(|e| pool_error(&e))?;
        schema::version(&client).await
    }

    /// Everything, as [`Backend::load`] gives it.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn load(&self) -> Result<Loaded> {
        let client = self.pool.get().await.map_err(|e| pool_error(&e))?;
        let mut damaged = Vec::new();
        let players = client
            .query("SELECT id, name, key FROM players ORDER BY id", &[])
            .await?
            .iter()
            .map(player_of)
            .collect();
        let ratings = ratings_of(&client.query(RATINGS, &[]).await?);
        let challenges = challenges_of(
            client
                .query(&format!("{CHALLENGES} WHERE open ORDER BY id"), &[])
                .await?,
            &mut damaged,
        );
        let games = read_games(&**client, "TRUE", &[], &mut damaged).await?;
        // No downtime to forgive at the start: the takeovers do it, game by game.
        let heartbeat = None;
        let tournaments = tournaments::load(&**client, None, &mut damaged).await?;
        Ok(Loaded {
            tournaments,
            players,
            ratings,
            challenges,
            games,
            damaged,
            heartbeat,
        })
    }
}

// No `Backend` here: its calls wait on a thread, and this store's writer is a task that
// awaits the client (`postgres/writer.rs`). What the hub asks of it, it asks here.
impl Postgres {
    /// Commits `changes` as one batch ([`Backend::commit`] says how): each change's outcome,
    /// in order.
    ///
    /// # Errors
    /// None today: a batch that fails as a whole fails each of its changes.
    pub async fn commit(&self, changes: &[&Change]) -> Result<Vec<Result<Applied>>> {
        self.commit_all(changes.iter().map(|c| (*c).clone()).collect())
            .await
    }

    /// Its pool and its process's name, for a commit on a task of its own.
    pub(super) fn parts(&self) -> (Pool, Arc<str>) {
        (self.pool.clone(), self.process.clone())
    }

    /// [`Postgres::commit`] of changes it may keep.
    async fn commit_all(&self, changes: Vec<Change>) -> Result<Vec<Result<Applied>>> {
        let (pool, process) = (self.pool.clone(), self.process.clone());
        Ok(batch::commit_all(pool, process, changes).await)
    }

    /// The answer to a question about puzzles, from the rows as they are now.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn puzzles(&self, query: &PuzzleQuery) -> Result<PuzzleFound> {
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreDown(format!("{:#}", pool_error(&e))))?;
        puzzles::query(&**client, query).await
    }

    /// A check of the store: `ok` when sound.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn integrity(&self) -> Result<String> {
        // PostgreSQL checks its own pages; what is ours to check is that every move belongs
        // to a game.
        let client = self.pool.get().await.map_err(|e| pool_error(&e))?;
        let orphans: i64 = client
            .query_one(
                "SELECT count(*) FROM moves WHERE game NOT IN (SELECT id FROM games)",
                &[],
            )
            .await?
            .get(0);
        Ok(if orphans == 0 {
            "ok".to_string()
        } else {
            format!("{orphans} moves of games the database does not have")
        })
    }
}
