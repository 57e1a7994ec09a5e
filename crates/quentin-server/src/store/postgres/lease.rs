//! The leases on PostgreSQL: which process owns which game (`owners`), which processes are
//! alive (`processes`), a change's check that its game is still this process's, and the
//! takeover of a game whose owner's lease ran out. The cluster (`crates/quentin-server/src/cluster/lease.rs`)
//! decides when; the statements are here.

use std::collections::HashSet;

use anyhow::Result;
use deadpool_postgres::Pool;
use tokio_postgres::{Client, GenericClient, Transaction};

use super::{LEASE_MS, pool_error, read::games};
use crate::ids::{GameId, Moment};
use crate::store::{GameRow, LeaseLost, StoreDown};

/// The renewals' connection's own bounds: a renewal that cannot run at once is given up
/// (tried again a second later) rather than left to wait past the lease.
pub const RENEWAL_BOUNDS: &str = "SET lock_timeout = 500; SET statement_timeout = 1500";

/// The one upsert of a lease: `process` owns game `game` from now for [`LEASE_MS`]; unless
/// `always`, only if the lease there ran out. The number of rows written (0 or 1).
async fn claim(tx: &impl GenericClient, game: GameId, process: &str, always: bool) -> Result<u64> {
    Ok(tx
        .execute(
            "INSERT INTO owners(game, process, taken, renewed, expires)
             VALUES ($1, $2, quentin_now(), quentin_now(), quentin_now() + $3)
             ON CONFLICT (game) DO UPDATE SET process = excluded.process,
                 taken = excluded.taken, renewed = excluded.renewed,
                 expires = excluded.expires
             WHERE $4 OR owners.expires < quentin_now()",
            &[&game, &process, &LEASE_MS, &always],
        )
        .await?)
}

/// The process that starts a game owns it first.
pub(super) async fn start(tx: &Transaction<'_>, game: GameId, process: &str) -> Result<()> {
    claim(tx, game, process, true).await?;
    Ok(())
}

/// Checks, in `tx`, that `process` holds a lease on game `game` that has not run out by the
/// database's clock, and holds the lease's row until the end of the transaction: no other
/// process can take the game over meanwhile (a takeover locks the row for update).
///
/// A key-share lock: the lease's own renewal (an update of its times, not its key) does not
/// wait for a move, and a move never waits for a renewal; a takeover waits for neither, it
/// tries again at its next round (`NOWAIT`).
///
/// # Errors
/// [`LeaseLost`] when the lease is another's or has run out.
pub async fn owned(tx: &impl GenericClient, process: &str, game: GameId) -> Result<()> {
    let held = tx
        .query_opt(
            "SELECT 1 FROM owners WHERE game = $1 AND process = $2 AND expires > quentin_now()
             FOR KEY SHARE",
            &[&game, &process],
        )
        .await?;
    if held.is_none() {
        return Err(LeaseLost(game).into());
    }
    Ok(())
}

/// The fence just before a game's change commits: the lease, still held since [`owned`]
/// locked it, must not have run out meanwhile (a process frozen between its statements), by
/// the database's clock. With `end`, the lease goes with the game's end.
///
/// # Errors
/// [`LeaseLost`] when it ran out.
pub(super) async fn fence(
    tx: &Transaction<'_>,
    process: &str,
    game: GameId,
    end: bool,
) -> Result<()> {
    let sql = if end {
        "DELETE FROM owners WHERE game = $1 AND process = $2 AND expires > quentin_now()
         RETURNING 1"
    } else {
        "SELECT 1 FROM owners WHERE game = $1 AND process = $2 AND expires > quentin_now()"
    };
    if tx.query_opt(sql, &[&game, &process]).await?.is_none() {
        return Err(LeaseLost(game).into());
    }
    Ok(())
}

/// [`owned`] for several games at once: those of `games` whose lease `process` holds, held
/// (as [`owned`] holds one) until the commit.
pub(super) async fn owned_of(
    tx: &Transaction<'_>,
    process: &str,
    games: &[GameId],
) -> Result<HashSet<GameId>> {
    Ok(tx
        .query(
            "SELECT game FROM owners
             WHERE game = ANY($1) AND process = $2 AND expires > quentin_now()
             FOR KEY SHARE",
            &[&games, &process],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect())
}

/// [`fence`] for several games at once: how many of `games` `process` still holds.
pub(super) async fn still_held(
    tx: &Transaction<'_>,
    process: &str,
    games: &[GameId],
) -> Result<i64> {
    Ok(tx
        .query_one(
            "SELECT count(*) FROM owners
             WHERE game = ANY($1) AND process = $2 AND expires > quentin_now()",
            &[&games, &process],
        )
        .await?
        .get(0))
}

/// The database's time (ms since the epoch), the one clock of every process.
///
/// # Errors
/// A database that cannot be reached.
pub async fn now(client: &impl GenericClient) -> Result<Moment> {
    Ok(client.query_one("SELECT quentin_now()", &[]).await?.get(0))
}

/// Says that `process` (listening at `listen`) is alive, and renews its leases that have not
/// run out. A lease that ran out is not renewed: the game is taken over, and the takeover
/// charges nobody for the time the lease was out.
///
/// # Errors
/// A database that cannot be reached.
pub async fn renew(client: &Client, process: &str, listen: &str) -> Result<()> {
    client
        .execute(
            "INSERT INTO processes(id, listen, started, expires)
             VALUES ($1, $2, quentin_now(), quentin_now() + $3)
             ON CONFLICT (id) DO UPDATE SET expires = excluded.expires",
            &[&process, &listen, &LEASE_MS],
        )
        .await?;
    client
        .execute(
            "UPDATE owners SET renewed = quentin_now(), expires = quentin_now() + $2
             WHERE process = $1 AND expires > quentin_now()",
            &[&process, &LEASE_MS],
        )
        .await?;
    Ok(())
}

/// The running games that nobody owns any more (no lease, or one that ran out), at most 200,
/// by number.
///
/// # Errors
/// A database that cannot be reached.
pub async fn orphans(client: &impl GenericClient) -> Result<Vec<GameId>> {
    Ok(client
        .query(
            "SELECT g.id FROM games g LEFT JOIN owners o ON o.game = g.id
             WHERE g.result IS NULL AND (o.game IS NULL OR o.expires < quentin_now())
             ORDER BY g.id LIMIT 200",
            &[],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect())
}

/// What a takeover found, or did.
#[derive(Debug)]
pub enum Takeover {
    /// No such game.
    NoGame,
    /// The game is over: its lease, if any, is gone now.
    Over,
    /// Another process, or this one, holds a live lease: its name.
    Held(String),
    /// The game ended, or was taken, meanwhile: nothing done.
    Missed,
    /// Taken by this process from `from` (`-`: never owned), the game as it is now.
    Taken {
        /// The process that held it before.
        from: String,
        /// The game's row, read after the takeover.
        rows: Vec<GameRow>,
    },
}

/// Takes game `id` over for `process` if nobody holds a live lease on it. The mover's clock
/// is charged only up to the old owner's last renewal; the other processes are told.
///
/// # Errors
/// A database that cannot be reached, or a lock held ([`is_locked`]).
pub async fn take_over(pool: &Pool, id: GameId, process: &str) -> Result<Takeover> {
    let mut client = pool
        .get()
        .await
        .map_err(|e| StoreDown(format!("{:#}", pool_error(&e))))?;
    if let Some(settled) = glance(&client, id).await? {
        return Ok(settled);
    }
    // The lease ran out, or there is none: taken in a transaction that locks the lease
    // first and then the game, in the order a move's own transaction locks them. It never
    // waits for a lock (`NOWAIT`): a move in flight, or a frozen process's transaction,
    // holds the game until it ends (the database ends a transaction left idle: see
    // `SESSION_BOUNDS`), and the next round tries again. Only a lease that ran out is
    // locked: a live one is never held up by a takeover.
    let tx = client.transaction().await?;
    let lease = tx
        .query_opt(
            "SELECT process, renewed FROM owners
             WHERE game = $1 AND expires < quentin_now() FOR UPDATE NOWAIT",
            &[&id],
        )
        .await?;
    if lease.is_none()
        && let Some(row) = tx
            .query_opt("SELECT process FROM owners WHERE game = $1", &[&id])
            .await?
    {
        // Renewed or taken meanwhile.
        return Ok(Takeover::Held(row.get(0)));
    }
    let game = tx
        .query_one(
            "SELECT turn_since, result IS NOT NULL FROM games WHERE id = $1 FOR UPDATE NOWAIT",
            &[&id],
        )
        .await?;
    if game.get::<_, bool>(1) {
        return Ok(Takeover::Missed);
    }
    let turn_since: Moment = game.get(0);
    let (from, renewed) = match lease {
        Some(row) => (row.get::<_, String>(0), row.get::<_, Moment>(1)),
        // Never owned here (a store moved from SQLite): its server's last heartbeat.
        None => (
            "-".to_string(),
            tx.query_opt("SELECT value FROM meta WHERE key = 'alive'", &[])
                .await?
                .map_or(turn_since, |r| r.get(0)),
        ),
    };
    if claim(&*tx, id, process, false).await? == 0 {
        return Ok(Takeover::Missed);
    }
    // The time the mover had used while the old owner lived is kept; the rest is forgiven.
    tx.execute(
        "UPDATE games SET turn_since =
             (SELECT taken FROM owners WHERE game = $1) - GREATEST(0, $2 - turn_since)
         WHERE id = $1",
        &[&id, &renewed],
    )
    .await?;
    super::relay::notify(&*tx, process, &crate::note::Note::Game(id)).await?;
    tx.commit().await?;
    let rows = games(&**client, &[id], &mut Vec::new()).await?;
    Ok(Takeover::Taken { from, rows })
}

/// What a look without a lock settles of a takeover of game `id` (most often somebody holds a
/// live lease): no such game, a game over (its lease let go), or a live owner; none when the
/// lease ran out or there is none.
async fn glance(client: &deadpool_postgres::Object, id: GameId) -> Result<Option<Takeover>> {
    // Most often somebody holds a live lease: read without a lock.
    let now = client
        .query_opt(
            "SELECT o.process, o.expires < quentin_now(), g.result IS NOT NULL
             FROM games g LEFT JOIN owners o ON o.game = g.id WHERE g.id = $1",
            &[&id],
        )
        .await?;
    let Some(now) = now else {
        return Ok(Some(Takeover::NoGame));
    };
    if now.get::<_, bool>(2) {
        client
            .execute("DELETE FROM owners WHERE game = $1", &[&id])
            .await?;
        return Ok(Some(Takeover::Over));
    }
    if let (Some(owner), Some(false)) = (
        now.get::<_, Option<String>>(0),
        now.get::<_, Option<bool>>(1),
    ) {
        return Ok(Some(Takeover::Held(owner)));
    }
    Ok(None)
}

/// For the tests (`hold ID`): a connection of its own, made with `config`, in a transaction
/// that locks game `id`'s lease as a move's does, left open; the future it gives ends when
/// the database ends that connection (its idle-in-transaction timeout), and holds it open
/// until then.
///
/// # Errors
/// A database that cannot be reached, or a lease that is not `process`'s.
pub async fn hold(
    config: &tokio_postgres::Config,
    process: &str,
    id: GameId,
) -> Result<impl std::future::Future<Output = ()> + Send + 'static> {
    let (client, connection) = config.connect(tokio_postgres::NoTls).await?;
    let ended = tokio::spawn(connection);
    client.batch_execute("BEGIN").await?;
    owned(&client, process, id).await?;
    Ok(async move {
        let _ = ended.await;
        drop(client);
    })
}

/// Whether `e` is the database's refusal to wait for a lock (`NOWAIT`, `lock_timeout`).
#[must_use]
pub fn is_locked(e: &anyhow::Error) -> bool {
    e.downcast_ref::<tokio_postgres::Error>()
        .and_then(tokio_postgres::Error::code)
        .is_some_and(|code| *code == tokio_postgres::error::SqlState::LOCK_NOT_AVAILABLE)
}
