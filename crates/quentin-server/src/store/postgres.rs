//! The store on PostgreSQL (`quentin serve --database URL`): the same rows as on SQLite, on a
//! database server that several server processes share. Each change is a transaction of its
//! own, committed before anyone is told of it; the changes of a batch run side by side on the
//! pool's connections (PostgreSQL shares one flush among the commits that come together). Each
//! transaction also says what it changed on the channel `quentin` (NOTIFY, delivered on
//! commit), so that the other processes read it; and the moves of a game are written only by
//! the process that owns the game (`owners`), checked in the move's own transaction.

mod schema;

use std::str::FromStr as _;
use std::sync::Arc;

use anyhow::{Context as _, Result, anyhow};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::{GenericClient, NoTls, Row, Transaction};

use quentin_rules::Game;

use super::super::size_class::{RatingKey, SizeClass};
use super::rows::{attach_moves, clock_of, setup_of};
use super::{
    Applied, Backend, ChallengeRow, Change, Damaged, GameRow, LeaseLost, Loaded, PlayerRow,
    RatingRow, StoreDown, TournamentChange, tournaments,
};

/// How long an owner's lease on a game lasts without renewal, in milliseconds.
pub const LEASE_MS: i64 = 3_000;

/// The channel the processes tell each other on.
pub const CHANNEL: &str = "quentin";

/// The store on a PostgreSQL database.
pub struct Postgres {
    pool: Pool,
    handle: tokio::runtime::Handle,
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
    /// Opens the store on `pool`'s database, bringing it to the current version. Must be
    /// called inside the server's runtime, whose `handle` the store's thread then uses.
    ///
    /// # Errors
    /// A database that cannot be reached or written, or from a newer quentin.
    pub async fn open(pool: Pool, process: &str, what: &str) -> Result<Postgres> {
        let mut client = pool.get().await.map_err(|e| pool_error(&e))?;
        schema::migrate(&mut client, what).await?;
        schema::check(&client, what).await?;
        Ok(Postgres {
            pool,
            handle: tokio::runtime::Handle::current(),
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
    pub async fn load_async(&self) -> Result<Loaded> {
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
        let tournaments = tournaments::load_postgres(&**client).await?;
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

const CHALLENGES: &str =
    "SELECT id, \"by\", game, size, pie, pieces, first, clock, rated, to_player
                          FROM challenges";

fn player_of(r: &Row) -> PlayerRow {
    PlayerRow {
        id: r.get(0),
        name: r.get(1),
        key: r.get(2),
    }
}

fn ratings_of(rows: &[Row]) -> Vec<(i64, RatingKey, RatingRow)> {
    rows.iter()
        .filter_map(|r| {
            let game = Game::from_name(r.get::<_, &str>(1))?;
            let class = SizeClass::from_name(r.get::<_, &str>(2))?;
            Some((
                r.get(0),
                (game, class),
                RatingRow {
                    rating: r.get(3),
                    deviation: r.get(4),
                    volatility: r.get(5),
                    games: r.get(6),
                },
            ))
        })
        .collect()
}

const RATINGS: &str =
    "SELECT player, game, class, rating, deviation, volatility, games FROM ratings";

fn challenges_of(rows: Vec<Row>, damaged: &mut Vec<Damaged>) -> Vec<ChallengeRow> {
    let mut out = Vec::new();
    for r in rows {
        let id: i64 = r.get(0);
        let row = (|| {
            Ok::<_, anyhow::Error>(ChallengeRow {
                id,
                by: r.try_get(1)?,
                setup: setup_of(r.try_get(2)?, r.try_get(3)?, r.try_get(4)?, r.try_get(5)?)?,
                first: r.try_get(6)?,
                clock: clock_of(r.try_get(7)?)?,
                rated: r.try_get(8)?,
                to: r.try_get(9)?,
            })
        })();
        match row {
            Ok(row) => out.push(row),
            Err(e) => damaged.push(Damaged {
                kind: "challenge",
                id,
                why: format!("{e:#}"),
            }),
        }
    }
    out
}

fn game_of(r: &Row) -> Result<GameRow> {
    let result: Option<String> = r.try_get(12)?;
    let reason: Option<String> = r.try_get(13)?;
    Ok(GameRow {
        id: r.try_get(0)?,
        setup: setup_of(r.try_get(1)?, r.try_get(2)?, r.try_get(3)?, r.try_get(4)?)?,
        players: [r.try_get(5)?, r.try_get(6)?],
        clock: clock_of(r.try_get(7)?)?,
        rated: r.try_get(8)?,
        left: [r.try_get(9)?, r.try_get(10)?],
        turn_since: r.try_get(11)?,
        actions: Vec::new(),
        result: result.zip(reason),
        ended: r.try_get(14)?,
    })
}

/// The games that `filter` (SQL over `games`, with `params`) picks, with their moves.
async fn read_games(
    client: &impl GenericClient,
    filter: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    damaged: &mut Vec<Damaged>,
) -> Result<Vec<GameRow>> {
    let rows = client
        .query(
            &format!(
                "SELECT id, game, size, pie, pieces, player1, player2, clock, rated, left1,
                        left2, turn_since, result, reason, ended
                 FROM games WHERE {filter} ORDER BY id"
            ),
            params,
        )
        .await?;
    let mut games = Vec::new();
    for r in &rows {
        match game_of(r) {
            Ok(game) => games.push(game),
            Err(e) => damaged.push(Damaged {
                kind: "game",
                id: r.get(0),
                why: format!("{e:#}"),
            }),
        }
    }
    let moves = client
        .query(
            &format!(
                "SELECT game, idx, action FROM moves
                 WHERE game IN (SELECT id FROM games WHERE {filter}) ORDER BY game, idx"
            ),
            params,
        )
        .await?;
    attach_moves(
        &mut games,
        moves.iter().map(|r| (r.get(0), r.get(1), r.get(2))),
        damaged,
    );
    Ok(games)
}

/// The games of numbers `ids`, as they are now, with their moves; a game that cannot be read
/// is named in `damaged`.
///
/// # Errors
/// When the database cannot be read.
pub async fn games(
    client: &impl GenericClient,
    ids: &[i64],
    damaged: &mut Vec<Damaged>,
) -> Result<Vec<GameRow>> {
    read_games(client, "id = ANY($1)", &[&ids], damaged).await
}

/// The open challenges among `ids`.
///
/// # Errors
/// When the database cannot be read.
pub async fn open_challenges(
    client: &impl GenericClient,
    ids: &[i64],
) -> Result<Vec<ChallengeRow>> {
    let rows = client
        .query(
            &format!("{CHALLENGES} WHERE open AND id = ANY($1)"),
            &[&ids],
        )
        .await?;
    Ok(challenges_of(rows, &mut Vec::new()))
}

/// The players `ids` and their ratings.
///
/// # Errors
/// When the database cannot be read.
pub async fn players(
    client: &impl GenericClient,
    ids: &[i64],
) -> Result<(Vec<PlayerRow>, Vec<(i64, RatingKey, RatingRow)>)> {
    let players = client
        .query(
            "SELECT id, name, key FROM players WHERE id = ANY($1)",
            &[&ids],
        )
        .await?
        .iter()
        .map(player_of)
        .collect();
    let ratings = client
        .query(&format!("{RATINGS} WHERE player = ANY($1)"), &[&ids])
        .await?;
    Ok((players, ratings_of(&ratings)))
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
pub async fn owned(tx: &impl GenericClient, process: &str, game: i64) -> Result<()> {
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
async fn fence(tx: &Transaction<'_>, process: &str, game: i64, end: bool) -> Result<()> {
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

/// The new ratings of a rated game's two players (`hub`'s, player 1's first, name them and
/// their game and class), computed from their rows as they are now, locked until the commit:
/// two games of one player that end at once on two processes both count, one after the other.
/// The rows are locked in the players' order, so two such transactions never deadlock.
async fn rate(
    tx: &Transaction<'_>,
    hub: &[(i64, RatingKey, RatingRow)],
    winner: Option<usize>,
) -> Result<Vec<(i64, RatingKey, RatingRow)>> {
    let ([(p1, key, _), (p2, _, _)], fresh) = (
        <[_; 2]>::try_from(hub).map_err(|_| anyhow!("a rated game has two players"))?,
        RatingRow::default(),
    );
    let (game, class) = (key.0.name(), key.1.name());
    tx.execute(
        "INSERT INTO ratings(player, game, class, rating, deviation, volatility, games)
         SELECT p, $2, $3, $4, $5, $6, 0 FROM unnest($1::BIGINT[]) AS p
         ON CONFLICT (player, game, class) DO NOTHING",
        &[
            &vec![p1, p2],
            &game,
            &class,
            &fresh.rating,
            &fresh.deviation,
            &fresh.volatility,
        ],
    )
    .await?;
    let rows = tx
        .query(
            "SELECT player, rating, deviation, volatility, games FROM ratings
             WHERE player = ANY($1) AND game = $2 AND class = $3 ORDER BY player FOR UPDATE",
            &[&vec![p1, p2], &game, &class],
        )
        .await?;
    let of = |p: i64| {
        rows.iter()
            .find(|r| r.get::<_, i64>(0) == p)
            .map_or(fresh, |r| RatingRow {
                rating: r.get(1),
                deviation: r.get(2),
                volatility: r.get(3),
                games: r.get(4),
            })
    };
    let after = crate::rating::after_game([of(p1), of(p2)], winner);
    let mut out = Vec::with_capacity(2);
    for (player, r) in [p1, p2].into_iter().zip(after) {
        tx.execute(
            "UPDATE ratings SET rating = $4, deviation = $5, volatility = $6, games = $7
             WHERE player = $1 AND game = $2 AND class = $3",
            &[
                &player,
                &game,
                &class,
                &r.rating,
                &r.deviation,
                &r.volatility,
                &r.games,
            ],
        )
        .await?;
        out.push((player, key, r));
    }
    Ok(out)
}

/// Applies one change in `tx`: its outcome, and what to tell the other processes.
async fn apply(
    tx: &Transaction<'_>,
    process: &str,
    change: &Change,
) -> Result<(Applied, Vec<String>)> {
    Ok(match change {
        Change::AddPlayer { key, name, at } => {
            let row = tx
                .query_opt(
                    "INSERT INTO players(name, key, created) VALUES ($1, $2, $3)
                     ON CONFLICT DO NOTHING RETURNING id",
                    &[name, key, at],
                )
                .await?;
            match row {
                Some(r) => {
                    let id: i64 = r.get(0);
                    (Applied::Id(id), vec![format!("player {id}")])
                }
                None => (Applied::Taken, Vec::new()),
            }
        }
        Change::AddChallenge(c) => {
            let id: i64 = tx
                .query_one(
                    "INSERT INTO challenges(\"by\", game, size, pie, pieces, first, clock, rated,
                                            to_player)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
                    &[
                        &c.by,
                        &c.setup.game.name(),
                        &(c.setup.size as i64),
                        &c.setup.pie,
                        &(c.setup.pieces as i64),
                        &c.first,
                        &c.clock.stored(),
                        &c.rated,
                        &c.to,
                    ],
                )
                .await?
                .get(0);
            (Applied::Id(id), vec![format!("challenge {id}")])
        }
        Change::CloseChallenge(id) => {
            let n = tx
                .execute(
                    "UPDATE challenges SET open = FALSE WHERE id = $1 AND open",
                    &[id],
                )
                .await?;
            if n == 0 {
                (Applied::Taken, Vec::new())
            } else {
                (Applied::Done, vec![format!("challenge {id}")])
            }
        }
        Change::StartGame(game) => {
            let n = tx
                .execute(
                    "UPDATE challenges SET open = FALSE WHERE id = $1 AND open",
                    &[&game.id],
                )
                .await?;
            if n == 0 {
                // Accepted or withdrawn on another process meanwhile.
                return Ok((Applied::Taken, Vec::new()));
            }
            tx.execute(
                "INSERT INTO games(id, game, size, pie, pieces, player1, player2, clock, rated,
                                   left1, left2, turn_since)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                &[
                    &game.id,
                    &game.setup.game.name(),
                    &(game.setup.size as i64),
                    &game.setup.pie,
                    &(game.setup.pieces as i64),
                    &game.players[0],
                    &game.players[1],
                    &game.clock.stored(),
                    &game.rated,
                    &game.left[0],
                    &game.left[1],
                    &game.turn_since,
                ],
            )
            .await?;
            // The process that starts a game owns it first.
            tx.execute(
                "INSERT INTO owners(game, process, taken, renewed, expires)
                 VALUES ($1, $2, quentin_now(), quentin_now(), quentin_now() + $3)
                 ON CONFLICT (game) DO UPDATE SET process = excluded.process,
                     taken = excluded.taken, renewed = excluded.renewed,
                     expires = excluded.expires",
                &[&game.id, &process, &LEASE_MS],
            )
            .await?;
            (
                Applied::Done,
                vec![
                    format!("challenge {}", game.id),
                    format!("game {}", game.id),
                ],
            )
        }
        Change::AddAction {
            game,
            index,
            action,
            left,
            at,
            end,
            winner,
            ratings,
        } => {
            owned(tx, process, *game).await?;
            if let Some(action) = action {
                tx.execute(
                    "INSERT INTO moves(game, idx, action, at) VALUES ($1, $2, $3, $4)",
                    &[game, &(*index as i64), &action.to_string(), at],
                )
                .await?;
            }
            tx.execute(
                "UPDATE games SET left1 = $2, left2 = $3, turn_since = $4 WHERE id = $1",
                &[game, &left[0], &left[1], at],
            )
            .await?;
            if let Some((result, reason)) = end {
                tx.execute(
                    "UPDATE games SET result = $2, reason = $3, ended = $4 WHERE id = $1",
                    &[game, result, reason, at],
                )
                .await?;
            }
            let rated = if ratings.is_empty() {
                None
            } else {
                Some(rate(tx, ratings, *winner).await?)
            };
            fence(tx, process, *game, end.is_some()).await?;
            // The move itself goes with the news, so that the others need not read it back;
            // an end (with its ratings) is read back.
            let note = match (action, end) {
                (Some(action), None) => format!(
                    "game {game} move {index} {action} {} {} {at}",
                    left[0], left[1]
                ),
                _ => format!("game {game}"),
            };
            (rated.map_or(Applied::Done, Applied::Rated), vec![note])
        }
        Change::TakeBack {
            game,
            index,
            left,
            at,
        } => {
            owned(tx, process, *game).await?;
            tx.execute(
                "DELETE FROM moves WHERE game = $1 AND idx >= $2",
                &[game, &(*index as i64)],
            )
            .await?;
            tx.execute(
                "UPDATE games SET left1 = $2, left2 = $3, turn_since = $4 WHERE id = $1",
                &[game, &left[0], &left[1], at],
            )
            .await?;
            fence(tx, process, *game, false).await?;
            (Applied::Done, vec![format!("game {game}")])
        }
        // Several processes keep no one heartbeat, and forgive no downtime all at once: each
        // game's owner renews its lease, and a takeover forgives the time since the last
        // renewal (docs/server.md). A heartbeat copied from SQLite stays, for the
        // games that were never owned here.
        Change::Beat(_) | Change::Forgive(_) => (Applied::Done, Vec::new()),
        Change::Tournament(change) => {
            let mut notes = Vec::new();
            let mut game = None;
            if let TournamentChange::Pair { game: row, .. } = change {
                // A tournament's game takes a challenge's number, as every game does.
                let challenge = Change::AddChallenge(tournaments::challenge_of(row));
                let (Applied::Id(id), _) = Box::pin(apply(tx, process, &challenge)).await? else {
                    anyhow::bail!("a challenge without a number");
                };
                let start = Change::StartGame(GameRow { id, ..row.clone() });
                notes = Box::pin(apply(tx, process, &start)).await?.1;
                game = Some(id);
            }
            let applied = tournaments::apply_postgres(tx, process, change, game).await?;
            // The other processes read the tournament again.
            let id = match (&applied, change) {
                (_, TournamentChange::Direct(_)) => None,
                (Applied::Id(id), TournamentChange::Create(_)) => Some(*id),
                _ => change.tournament(),
            };
            notes.extend(id.map(|id| format!("tournament {id}")));
            (applied, notes)
        }
    })
}

/// One change in a transaction of its own, with its notifications. A database that cannot be
/// reached (no connection, one lost, the pool's wait over) fails it with [`StoreDown`].
async fn commit_one(pool: &Pool, process: &str, change: &Change) -> Result<Applied> {
    let committed = async {
        let mut client = pool
            .get()
            .await
            .map_err(|e| StoreDown(format!("{:#}", pool_error(&e))))?;
        commit_on(&mut client, process, change).await
    };
    committed.await.map_err(|e| {
        let lost = e
            .downcast_ref::<tokio_postgres::Error>()
            .is_some_and(|e| e.is_closed() || e.as_db_error().is_none());
        if lost {
            StoreDown(format!("{e:#}")).into()
        } else {
            e
        }
    })
}

async fn commit_on(
    client: &mut deadpool_postgres::Object,
    process: &str,
    change: &Change,
) -> Result<Applied> {
    let tx = client.transaction().await?;
    let (applied, notes) = apply(&tx, process, change).await?;
    for note in notes {
        tx.execute(
            "SELECT pg_notify($1, $2)",
            &[&CHANNEL, &format!("{process} {note}")],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(applied)
}

impl Backend for Postgres {
    fn load(&mut self) -> Result<Loaded> {
        self.handle.block_on(self.load_async())
    }

    fn commit(&mut self, changes: &[&Change]) -> Result<Vec<Result<Applied>>> {
        let tasks: Vec<_> = changes
            .iter()
            .map(|change| {
                let (pool, process, change) =
                    (self.pool.clone(), self.process.clone(), (*change).clone());
                self.handle
                    .spawn(async move { commit_one(&pool, &process, &change).await })
            })
            .collect();
        Ok(self.handle.block_on(async {
            let mut outcomes = Vec::with_capacity(tasks.len());
            for task in tasks {
                outcomes.push(task.await.unwrap_or_else(|e| Err(anyhow!("{e}"))));
            }
            outcomes
        }))
    }

    fn integrity(&mut self) -> Result<String> {
        // PostgreSQL checks its own pages; what is ours to check is that every move belongs
        // to a game.
        self.handle.block_on(async {
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
        })
    }
}
