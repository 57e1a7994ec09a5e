//! Applying a tournament's change on SQLite (PostgreSQL's is in
//! `crates/quentin-server/src/store/postgres/tournaments.rs`).

use anyhow::Result;

use super::{EntrantRow, Paired, TournamentChange};
use crate::ids::{GameId, PlayerId};
use crate::store::{Applied, GameRow};
use crate::tournament::{Status, TournamentId};

/// Applies `change` on SQLite, inside the batch's transaction; `start` starts a game as
/// [`crate::store::Change::StartGame`] does, and gives its number. The change is counted in
/// the tournament's `version` when it wrote anything, and given back with the tournament's
/// rows as the file holds them after it (as on PostgreSQL).
///
/// # Errors
/// When the file cannot be written.
pub fn apply_sqlite(
    conn: &rusqlite::Connection,
    change: &TournamentChange,
    start: impl FnMut(&rusqlite::Connection, &GameRow) -> Result<GameId>,
) -> Result<Applied> {
    let applied = applied(conn, change, start)?;
    let Some(id) = super::changed(change, &applied) else {
        return Ok(applied);
    };
    if applied.wrote() {
        conn.execute(
            "UPDATE tournaments SET version = version + 1 WHERE id = ?1",
            [id],
        )?;
    }
    let row = super::load_sqlite(conn, Some(id), &mut Vec::new())?.pop();
    Ok(Applied::tournament(applied, row))
}

/// Applies `change` on SQLite.
fn applied(
    conn: &rusqlite::Connection,
    change: &TournamentChange,
    mut start: impl FnMut(&rusqlite::Connection, &GameRow) -> Result<GameId>,
) -> Result<Applied> {
    use rusqlite::params;
    let id = match change {
        TournamentChange::Create(t) => {
            conn.execute(
                "INSERT INTO tournaments(by, settings, created, starts, status)
                 VALUES (?1, ?2, ?3, ?4, 'open')",
                params![t.by, t.settings.words(), t.created, t.starts],
            )?;
            Some(conn.last_insert_rowid())
        }
        TournamentChange::Join {
            tournament,
            player,
            max,
        } => {
            // Fenced to an open tournament, as on PostgreSQL, and to its maximum, in the
            // statement that writes the join.
            let status = status_of(conn, *tournament)?;
            if status != Status::Open {
                return Ok(Applied::Status(status));
            }
            let written = conn.execute(
                "INSERT INTO tournament_entrants(tournament, player, seq)
                 SELECT ?1, ?2, COALESCE(MAX(seq), 0) + 1 FROM tournament_entrants
                 WHERE tournament = ?1
                 HAVING COUNT(*) < ?3",
                params![tournament, player, max],
            )?;
            if written == 0 {
                return Ok(Applied::Taken);
            }
            None
        }
        TournamentChange::Leave { tournament, player } => {
            // Before the start, as if never joined; once running, withdrawn (as on
            // PostgreSQL, where a process may not have heard of the start yet).
            let statement = match status_of(conn, *tournament)? {
                Status::Open => {
                    "DELETE FROM tournament_entrants WHERE tournament = ?1 AND player = ?2"
                }
                Status::Running => {
                    "UPDATE tournament_entrants SET withdrawn = 1
                     WHERE tournament = ?1 AND player = ?2"
                }
                status => return Ok(Applied::Status(status)),
            };
            conn.execute(statement, params![tournament, player])?;
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
                params![tournament, status.word(), at],
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
            Some(id.0)
        }
        TournamentChange::Cancel {
            tournament,
            at,
            text,
            running,
        } => {
            // Open (or, by an operator, running) in the store, or left as it is: a start and
            // a cancel exclude each other.
            let status = status_of(conn, *tournament)?;
            if !(status == Status::Open || (*running && status == Status::Running)) {
                return Ok(Applied::Status(status));
            }
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
            let ids = write_round(conn, *tournament, byes, games, start)?;
            return Ok(Applied::Ids(ids));
        }
        TournamentChange::Paired {
            tournament,
            start: starts,
            known,
            plan,
        } => {
            // One process alone: nobody changes the rows between the hub's read and this one,
            // but the change reads them all the same, as on PostgreSQL.
            let status = status_of(conn, *tournament)?;
            if status
                != if starts.is_some() {
                    Status::Open
                } else {
                    Status::Running
                }
            {
                return Ok(Applied::Status(status));
            }
            let count: i64 = conn.query_row(
                "SELECT count(*) FROM tournament_pairings WHERE tournament = ?1",
                [tournament],
                |r| r.get(0),
            )?;
            if usize::try_from(count).ok() != Some(*known) {
                return Ok(Applied::Taken);
            }
            let entrants = entrants_of(conn, *tournament)?;
            let Some(mut round) = (plan.0)(&entrants) else {
                return Ok(Applied::Paired(Paired {
                    entrants,
                    round: None,
                }));
            };
            if let Some(at) = starts {
                conn.execute(
                    "UPDATE tournaments SET status = 'running', started = ?2 WHERE id = ?1",
                    params![tournament, at],
                )?;
            }
            let ids = write_round(conn, *tournament, &round.byes, &round.games, start)?;
            for ((_, game), id) in round.games.iter_mut().zip(ids) {
                game.id = id;
            }
            return Ok(Applied::Paired(Paired {
                entrants,
                round: Some(round),
            }));
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

/// Tournament `tournament`'s status.
fn status_of(conn: &rusqlite::Connection, tournament: TournamentId) -> Result<Status> {
    let word: String = conn.query_row(
        "SELECT status FROM tournaments WHERE id = ?1",
        [tournament],
        |r| r.get(0),
    )?;
    Status::from_word(&word).ok_or_else(|| {
        anyhow::anyhow!("tournament {tournament}: a status this version does not know: {word:?}")
    })
}

/// Tournament `tournament`'s entrants, in the order they joined.
fn entrants_of(conn: &rusqlite::Connection, tournament: TournamentId) -> Result<Vec<EntrantRow>> {
    Ok(conn
        .prepare(
            "SELECT player, withdrawn, strikes, paused FROM tournament_entrants
             WHERE tournament = ?1 ORDER BY seq",
        )?
        .query_map([tournament], |r| {
            Ok(EntrantRow {
                player: r.get(0)?,
                withdrawn: r.get(1)?,
                strikes: r.get(2)?,
                paused: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?)
}

/// Writes a round's byes, then its games (each started by `start`, which gives its number):
/// the games' numbers, in order.
fn write_round(
    conn: &rusqlite::Connection,
    tournament: TournamentId,
    byes: &[(i64, PlayerId)],
    games: &[(i64, GameRow)],
    mut start: impl FnMut(&rusqlite::Connection, &GameRow) -> Result<GameId>,
) -> Result<Vec<GameId>> {
    use rusqlite::params;
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
    Ok(ids)
}
