//! Applying a tournament's change, on SQLite and on PostgreSQL, side by side.

use anyhow::Result;

use super::super::postgres::LEASE_MS;
use super::super::{Applied, GameRow};
use super::TournamentChange;

/// Applies `change` on SQLite, inside the batch's transaction; `start` starts a game as
/// [`super::super::Change::StartGame`] does, and gives its number.
///
/// # Errors
/// When the file cannot be written.
pub fn apply_sqlite(
    conn: &rusqlite::Connection,
    change: &TournamentChange,
    mut start: impl FnMut(&rusqlite::Connection, &GameRow) -> Result<i64>,
) -> Result<Applied> {
    use rusqlite::params;
    let id = match change {
        TournamentChange::Create(t) => {
            conn.execute(
                "INSERT INTO tournaments(by, settings, created, starts, status)
                 VALUES (?1, ?2, ?3, ?4, 'open')",
                params![t.by, t.settings, t.created, t.starts],
            )?;
            Some(conn.last_insert_rowid())
        }
        TournamentChange::Join { tournament, player } => {
            conn.execute(
                "INSERT INTO tournament_entrants(tournament, player, seq)
                 VALUES (?1, ?2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM tournament_entrants
                                  WHERE tournament = ?1))",
                params![tournament, player],
            )?;
            None
        }
        TournamentChange::Leave { tournament, player } => {
            conn.execute(
                "DELETE FROM tournament_entrants WHERE tournament = ?1 AND player = ?2",
                params![tournament, player],
            )?;
            None
        }
        TournamentChange::Entrant {
            tournament,
            entrant,
        } => {
            conn.execute(
                "UPDATE tournament_entrants SET withdrawn = ?3, strikes = ?4, paused = ?5
                 WHERE tournament = ?1 AND player = ?2",
                params![
                    tournament,
                    entrant.player,
                    entrant.withdrawn,
                    entrant.strikes,
                    entrant.paused
                ],
            )?;
            None
        }
        TournamentChange::Status {
            tournament,
            status,
            at,
        } => {
            conn.execute(
                "UPDATE tournaments SET status = ?2,
                     started = CASE WHEN ?2 = 'running' THEN ?3 ELSE started END
                 WHERE id = ?1",
                params![tournament, status, at],
            )?;
            None
        }
        TournamentChange::Pair {
            tournament,
            round,
            game,
        } => {
            let id = start(conn, game)?;
            conn.execute(
                "INSERT INTO tournament_pairings(tournament, round, first, second, game)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![tournament, round, game.players[0], game.players[1], id],
            )?;
            Some(id)
        }
        TournamentChange::Cancel {
            tournament,
            at,
            text,
        } => {
            conn.execute(
                "UPDATE tournaments SET status = 'cancelled' WHERE id = ?1",
                params![tournament],
            )?;
            conn.execute(
                "INSERT INTO messages(player, at, text)
                 SELECT player, ?2, ?3 FROM tournament_entrants WHERE tournament = ?1
                 ORDER BY seq",
                params![tournament, at, text],
            )?;
            None
        }
        TournamentChange::Round {
            tournament,
            byes,
            games,
        } => {
            // One change: its savepoint undoes the whole round when a row of it fails.
            for (round, player) in byes {
                conn.execute(
                    "INSERT INTO tournament_pairings(tournament, round, first) VALUES (?1, ?2, ?3)",
                    params![tournament, round, player],
                )?;
            }
            let mut ids = Vec::with_capacity(games.len());
            for (round, game) in games {
                let id = start(conn, game)?;
                conn.execute(
                    "INSERT INTO tournament_pairings(tournament, round, first, second, game)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![tournament, round, game.players[0], game.players[1], id],
                )?;
                ids.push(id);
            }
            return Ok(Applied::Ids(ids));
        }
        TournamentChange::Bye {
            tournament,
            round,
            player,
        } => {
            conn.execute(
                "INSERT INTO tournament_pairings(tournament, round, first) VALUES (?1, ?2, ?3)",
                params![tournament, round, player],
            )?;
            None
        }
        // One process alone directs every tournament.
        TournamentChange::Direct(_) => None,
    };
    Ok(id.map_or(Applied::Done, Applied::Id))
}

/// Applies `change` on PostgreSQL in `tx`, for `process`; of a [`TournamentChange::Pair`] or
/// a [`TournamentChange::Round`], the pairings only: the caller starts their games first
/// (their numbers in `games`, in order), in the same transaction.
///
/// # Errors
/// When the database cannot be written.
pub async fn apply_postgres(
    tx: &tokio_postgres::Transaction<'_>,
    process: &str,
    change: &TournamentChange,
    games: &[i64],
) -> Result<Applied> {
    let id = match change {
        TournamentChange::Create(t) => Some(
            tx.query_one(
                "INSERT INTO tournaments(\"by\", settings, created, starts, status)
                 VALUES ($1, $2, $3, $4, 'open') RETURNING id",
                &[&t.by, &t.settings, &t.created, &t.starts],
            )
            .await?
            .get(0),
        ),
        TournamentChange::Join { tournament, player } => {
            tx.execute(
                "INSERT INTO tournament_entrants(tournament, player, seq)
                 VALUES ($1, $2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM tournament_entrants
                                  WHERE tournament = $1))",
                &[tournament, player],
            )
            .await?;
            None
        }
        TournamentChange::Leave { tournament, player } => {
            tx.execute(
                "DELETE FROM tournament_entrants WHERE tournament = $1 AND player = $2",
                &[tournament, player],
            )
            .await?;
            None
        }
        TournamentChange::Entrant {
            tournament,
            entrant,
        } => {
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
                &[tournament, status, at],
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
            game
        }
        TournamentChange::Cancel {
            tournament,
            at,
            text,
        } => {
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
