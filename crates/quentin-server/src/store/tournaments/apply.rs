//! Carrying out a tournament's change on SQLite: the facts its plan needs read, and the plan's
//! writes made (the rules are `plan.rs`'s, the writes' statements `plan/statements.rs`'s;
//! PostgreSQL's side is `crates/quentin-server/src/store/postgres/tournaments.rs`).

use anyhow::{Result, anyhow};
use rusqlite::Connection;

use super::plan::{self, Facts, Need, Write};
use super::{EntrantRow, TournamentChange};
use crate::ids::GameId;
use crate::store::sqlite::changes::run;
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
    conn: &Connection,
    change: &TournamentChange,
    mut start: impl FnMut(&Connection, &GameRow) -> Result<GameId>,
) -> Result<Applied> {
    let tournament = change.tournament();
    let facts = match (plan::need(change), tournament) {
        (Need::Nothing, _) => None,
        (need, Some(t)) => Some(facts(conn, t, need)?),
        (_, None) => anyhow::bail!("a change that needs a tournament names none"),
    };
    let decision = plan::decide(change, facts)?;
    let (mut created, mut games) = (None, Vec::new());
    for write in &decision.writes {
        let game = match write {
            Write::Game { game, .. } => Some(start(conn, game)?),
            _ => None,
        };
        games.extend(game);
        for sql in plan::statements(tournament, write, game) {
            created = run(conn, &sql)?.or(created);
        }
    }
    let applied = decision.applied(created, games)?;
    let Some(id) = super::changed(change, &applied) else {
        return Ok(applied);
    };
    if applied.wrote() {
        run(conn, &plan::counted(id))?;
    }
    let row = super::load_sqlite(conn, Some(id), &mut Vec::new())?.pop();
    Ok(Applied::tournament(applied, row))
}

/// The facts `need` names of tournament `t`. One process alone: nobody changes the rows
/// between the hub's read and this one, but the change reads them all the same, as on
/// PostgreSQL.
fn facts(conn: &Connection, t: TournamentId, need: Need) -> Result<Facts> {
    let word: String =
        conn.query_row("SELECT status FROM tournaments WHERE id = ?1", [t], |r| {
            r.get(0)
        })?;
    let status = Status::from_word(&word)
        .ok_or_else(|| anyhow!("tournament {t}: a status this version does not know: {word:?}"))?;
    if need != Need::Entrants {
        return Ok(Facts {
            status,
            entrants: Vec::new(),
            pairings: 0,
        });
    }
    let pairings: i64 = conn.query_row(
        "SELECT count(*) FROM tournament_pairings WHERE tournament = ?1",
        [t],
        |r| r.get(0),
    )?;
    let entrants = conn
        .prepare(
            "SELECT player, withdrawn, strikes, paused FROM tournament_entrants
             WHERE tournament = ?1 ORDER BY seq",
        )?
        .query_map([t], |r| {
            Ok(EntrantRow {
                player: r.get(0)?,
                withdrawn: r.get(1)?,
                strikes: r.get(2)?,
                paused: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Facts {
        status,
        entrants,
        pairings: usize::try_from(pairings)?,
    })
}
