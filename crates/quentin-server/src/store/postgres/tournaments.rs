//! The tournaments' rows on PostgreSQL: their schema step, everything read at the start (and
//! again when another process changed a tournament), and each change's statements. The rows
//! themselves, and SQLite's statements, are `crates/quentin-server/src/store/tournaments.rs`'s.

use anyhow::Result;

use super::LEASE_MS;
use crate::ids::{GameId, Moment};
use crate::store::Applied;
use crate::store::Damaged;
use crate::store::tournaments::{
    EntrantRow, PairingRow, Plan, Round, Stored, TournamentChange, TournamentRow, typed,
};
use crate::tournament::{Status, TournamentId};

/// The tables of the schema step that brings tournaments (SQLite's own is
/// `crate::store::tournaments::SQLITE_STEP`).
pub const POSTGRES_STEP: &str = "
CREATE TABLE tournaments(
    id BIGSERIAL PRIMARY KEY,
    \"by\" BIGINT NOT NULL, settings TEXT NOT NULL, created BIGINT NOT NULL,
    starts BIGINT NOT NULL, status TEXT NOT NULL, started BIGINT);
CREATE TABLE tournament_entrants(
    tournament BIGINT NOT NULL, player BIGINT NOT NULL, seq BIGINT NOT NULL,
    withdrawn BOOLEAN NOT NULL DEFAULT FALSE, strikes BIGINT NOT NULL DEFAULT 0,
    paused BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY(tournament, player));
CREATE TABLE tournament_pairings(
    id BIGSERIAL PRIMARY KEY,
    tournament BIGINT NOT NULL, round BIGINT NOT NULL, first BIGINT NOT NULL,
    second BIGINT, game BIGINT);
CREATE TABLE tournament_directors(
    tournament BIGINT PRIMARY KEY, process TEXT NOT NULL, expires BIGINT NOT NULL);
";

/// The schema step after the tournaments': the messages to players (a tournament cancelled),
/// kept until read (SQLite's own is `crate::store::tournaments::SQLITE_MESSAGES_STEP`).
pub const POSTGRES_MESSAGES_STEP: &str = "
CREATE TABLE messages(
    id BIGSERIAL PRIMARY KEY, player BIGINT NOT NULL, at BIGINT NOT NULL,
    text TEXT NOT NULL, seen BIGINT NOT NULL DEFAULT 0);
CREATE INDEX messages_player ON messages(player, seen);
";

/// The schema step that counts each tournament's changes (SQLite's own is
/// `crate::store::tournaments::SQLITE_VERSION_STEP`, which says what else the step brings).
pub const POSTGRES_VERSION_STEP: &str = "
ALTER TABLE tournaments ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
";

/// Every tournament, or only `only`; those that cannot be read are named in `damaged`.
///
/// # Errors
/// When the database cannot be read.
pub async fn load(
    client: &impl tokio_postgres::GenericClient,
    only: Option<TournamentId>,
    damaged: &mut Vec<Damaged>,
) -> Result<Vec<TournamentRow>> {
    // -1 names no tournament: every one.
    let only = only.map_or(-1, |t| t.0);
    let stored: Vec<Stored> = client
        .query(
            "SELECT id, \"by\", settings, created, starts, status, started, version
             FROM tournaments WHERE $1::BIGINT = -1 OR id = $1 ORDER BY id",
            &[&only],
        )
        .await?
        .iter()
        .map(|r| Stored {
            id: r.get(0),
            by: r.get(1),
            settings: r.get(2),
            created: r.get(3),
            starts: r.get(4),
            status: r.get(5),
            started: r.get(6),
            version: r.get(7),
        })
        .collect();
    let entrants = client
        .query(
            "SELECT tournament, player, withdrawn, strikes, paused FROM tournament_entrants
             WHERE $1::BIGINT = -1 OR tournament = $1 ORDER BY tournament, seq",
            &[&only],
        )
        .await?
        .iter()
        .map(|r| {
            (
                r.get(0),
                EntrantRow {
                    player: r.get(1),
                    withdrawn: r.get(2),
                    strikes: r.get(3),
                    paused: r.get(4),
                },
            )
        })
        .collect();
    let pairings = client
        .query(
            "SELECT tournament, round, first, second, game FROM tournament_pairings
             WHERE $1::BIGINT = -1 OR tournament = $1 ORDER BY tournament, id",
            &[&only],
        )
        .await?
        .iter()
        .map(|r| {
            (
                r.get(0),
                PairingRow {
                    round: r.get(1),
                    first: r.get(2),
                    second: r.get(3),
                    game: r.get(4),
                },
            )
        })
        .collect();
    Ok(typed(stored, entrants, pairings, damaged))
}

/// Applies `change` on PostgreSQL in `tx`, for `process`; of a [`TournamentChange::Pair`] or
/// a [`TournamentChange::Round`], the pairings only: the caller starts their games first
/// (their numbers in `games`, in order), in the same transaction.
///
/// # Errors
/// When the database cannot be written.
pub async fn apply(
    tx: &tokio_postgres::Transaction<'_>,
    process: &str,
    change: &TournamentChange,
    games: &[GameId],
) -> Result<Applied> {
    let id = match change {
        TournamentChange::Create(t) => Some(
            tx.query_one(
                "INSERT INTO tournaments(\"by\", settings, created, starts, status)
                 VALUES ($1, $2, $3, $4, 'open') RETURNING id",
                &[&t.by, &t.settings.words(), &t.created, &t.starts],
            )
            .await?
            .get(0),
        ),
        TournamentChange::Join {
            tournament,
            player,
            max,
        } => {
            // Fenced to an open tournament: a start on another process either came first
            // (the join is refused) or waits for this join and pairs it. The maximum is
            // checked in the statement that writes the join, against the entrants the
            // database holds (the row's lock puts the joins of every process in a line).
            let status = lock(tx, *tournament).await?;
            if status != Status::Open {
                return Ok(Applied::Status(status));
            }
            let written = tx
                .execute(
                    "INSERT INTO tournament_entrants(tournament, player, seq)
                     SELECT $1, $2, COALESCE(MAX(seq), 0) + 1 FROM tournament_entrants
                     WHERE tournament = $1
                     HAVING COUNT(*) < $3",
                    &[tournament, player, max],
                )
                .await?;
            if written == 0 {
                return Ok(Applied::Taken);
            }
            None
        }
        TournamentChange::Leave { tournament, player } => {
            // Before the start, as if never joined; started meanwhile on another process
            // (this one had not heard of it yet), withdrawn from the pairings to come.
            let statement = match lock(tx, *tournament).await? {
                Status::Open => {
                    "DELETE FROM tournament_entrants WHERE tournament = $1 AND player = $2"
                }
                Status::Running => {
                    "UPDATE tournament_entrants SET withdrawn = TRUE
                     WHERE tournament = $1 AND player = $2"
                }
                status => return Ok(Applied::Status(status)),
            };
            tx.execute(statement, &[tournament, player]).await?;
            None
        }
        TournamentChange::Entrant {
            tournament,
            entrant,
        } => {
            // After a round being paired, or before it and read by it.
            lock(tx, *tournament).await?;
            tx.execute(
                "UPDATE tournament_entrants SET withdrawn = $3, strikes = $4, paused = $5
                 WHERE tournament = $1 AND player = $2",
                &[
                    tournament,
                    &entrant.player,
                    &entrant.withdrawn,
                    &entrant.strikes,
                    &entrant.paused,
                ],
            )
            .await?;
            None
        }
        TournamentChange::Status {
            tournament,
            status,
            at,
        } => {
            tx.execute(
                "UPDATE tournaments SET status = $2,
                     started = CASE WHEN $2 = 'running' THEN $3 ELSE started END
                 WHERE id = $1",
                &[tournament, &status.word(), at],
            )
            .await?;
            None
        }
        TournamentChange::Pair {
            tournament,
            round,
            game: row,
        } => {
            let game = games.first().copied();
            tx.execute(
                "INSERT INTO tournament_pairings(tournament, round, first, second, game)
                 VALUES ($1, $2, $3, $4, $5)",
                &[tournament, round, &row.players[0], &row.players[1], &game],
            )
            .await?;
            game.map(|g| g.0)
        }
        TournamentChange::Cancel {
            tournament,
            at,
            text,
            running,
        } => {
            // Open (or, by an operator, running) in the database, or left as it is: a start
            // on another process and this cancel exclude each other (the row's lock).
            let status = lock(tx, *tournament).await?;
            if !(status == Status::Open || (*running && status == Status::Running)) {
                return Ok(Applied::Status(status));
            }
            tx.execute(
                "UPDATE tournaments SET status = 'cancelled' WHERE id = $1",
                &[tournament],
            )
            .await?;
            tx.execute(
                "INSERT INTO messages(player, at, text)
                 SELECT player, $2, $3 FROM tournament_entrants WHERE tournament = $1
                 ORDER BY seq",
                &[tournament, at, text],
            )
            .await?;
            None
        }
        TournamentChange::Round {
            tournament,
            byes,
            games: rows,
        } => {
            for (round, player) in byes {
                tx.execute(
                    "INSERT INTO tournament_pairings(tournament, round, first) VALUES ($1, $2, $3)",
                    &[tournament, round, player],
                )
                .await?;
            }
            for ((round, row), game) in rows.iter().zip(games) {
                tx.execute(
                    "INSERT INTO tournament_pairings(tournament, round, first, second, game)
                     VALUES ($1, $2, $3, $4, $5)",
                    &[tournament, round, &row.players[0], &row.players[1], game],
                )
                .await?;
            }
            return Ok(Applied::Ids(games.to_vec()));
        }
        TournamentChange::Bye {
            tournament,
            round,
            player,
        } => {
            tx.execute(
                "INSERT INTO tournament_pairings(tournament, round, first) VALUES ($1, $2, $3)",
                &[tournament, round, player],
            )
            .await?;
            None
        }
        // Planned by [`plan`], then written as a round.
        TournamentChange::Paired { .. } => anyhow::bail!("a paired round is written as a round"),
        TournamentChange::Direct(tournament) => {
            let held = tx
                .query_opt(
                    "INSERT INTO tournament_directors(tournament, process, expires)
                     VALUES ($1, $2, quentin_now() + $3)
                     ON CONFLICT (tournament) DO UPDATE SET process = excluded.process,
                         expires = excluded.expires
                     WHERE tournament_directors.process = excluded.process
                        OR tournament_directors.expires < quentin_now()
                     RETURNING process",
                    &[tournament, &process, &LEASE_MS],
                )
                .await?;
            return Ok(if held.is_some() {
                Applied::Done
            } else {
                Applied::Taken
            });
        }
    };
    Ok(id.map_or(Applied::Done, Applied::Id))
}

/// Locks tournament `tournament`'s row until the commit (`FOR UPDATE`: its joins, leaves,
/// entrants' changes and rounds one after the other) and gives its status. A statement after
/// this one reads what those before it committed.
async fn lock(tx: &tokio_postgres::Transaction<'_>, tournament: TournamentId) -> Result<Status> {
    let row = tx
        .query_opt(
            "SELECT status FROM tournaments WHERE id = $1 FOR UPDATE",
            &[&tournament],
        )
        .await?
        .ok_or_else(|| anyhow::anyhow!("no tournament {tournament}"))?;
    let word: String = row.get(0);
    Status::from_word(&word).ok_or_else(|| {
        anyhow::anyhow!("tournament {tournament}: a status this version does not know: {word:?}")
    })
}

/// Counts a change of tournament `tournament` (its `version`), in the change's transaction.
///
/// # Errors
/// When the database cannot be written.
pub async fn count_change(
    tx: &tokio_postgres::Transaction<'_>,
    tournament: TournamentId,
) -> Result<()> {
    tx.execute(
        "UPDATE tournaments SET version = version + 1 WHERE id = $1",
        &[&tournament],
    )
    .await?;
    Ok(())
}

/// The first part of a [`TournamentChange::Paired`]: the tournament's row locked, its status
/// (`open` to start it at `start`, `running` otherwise) and count of pairings (`known`)
/// checked, its entrants read and given to `plan`; when it starts, its status written. The
/// entrants and the round to write (the caller starts its games and writes it), or the outcome
/// when nothing is to be written ([`Applied::Status`], [`Applied::Taken`]).
///
/// # Errors
/// When the database cannot be read or written.
pub async fn plan(
    tx: &tokio_postgres::Transaction<'_>,
    tournament: TournamentId,
    start: Option<Moment>,
    known: usize,
    plan: &Plan,
) -> Result<Result<(Vec<EntrantRow>, Option<Round>), Applied>> {
    let status = lock(tx, tournament).await?;
    if status
        != if start.is_some() {
            Status::Open
        } else {
            Status::Running
        }
    {
        return Ok(Err(Applied::Status(status)));
    }
    let count: i64 = tx
        .query_one(
            "SELECT count(*) FROM tournament_pairings WHERE tournament = $1",
            &[&tournament],
        )
        .await?
        .get(0);
    if usize::try_from(count).ok() != Some(known) {
        return Ok(Err(Applied::Taken));
    }
    let entrants: Vec<EntrantRow> = tx
        .query(
            "SELECT player, withdrawn, strikes, paused FROM tournament_entrants
             WHERE tournament = $1 ORDER BY seq",
            &[&tournament],
        )
        .await?
        .iter()
        .map(|r| EntrantRow {
            player: r.get(0),
            withdrawn: r.get(1),
            strikes: r.get(2),
            paused: r.get(3),
        })
        .collect();
    let round = (plan.0)(&entrants);
    if let (Some(at), Some(_)) = (start, &round) {
        tx.execute(
            "UPDATE tournaments SET status = 'running', started = $2 WHERE id = $1",
            &[&tournament, &at],
        )
        .await?;
    }
    Ok(Ok((entrants, round)))
}
