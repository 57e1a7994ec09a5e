//! Applying a tournament's change on SQLite (PostgreSQL's is in
//! `crates/quentin-server/src/store/postgres/tournaments.rs`).

use anyhow::Result;

use super::super::{Applied, GameRow};
use super::TournamentChange;
use crate::ids::GameId;

/// Applies `change` on SQLite, inside the batch's transaction; `start` starts a game as
/// [`super::super::Change::StartGame`] does, and gives its number.
///
/// # Errors
/// When the file cannot be written.
pub fn apply_sqlite(
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
            Some(id.0)
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
