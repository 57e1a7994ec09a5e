//! Carrying out a change on SQLite: the facts its plan needs read, and the plan's writes made
//! in SQLite's SQL, inside the batch's transaction (the rules are `crate::store::plan`'s, a
//! tournament's `crate::store::tournaments::plan`'s).

use anyhow::Result;
use rusqlite::{Connection, OptionalExtension, params};

use super::puzzles;
use crate::ids::GameId;
use crate::store::plan::{self, Facts, Need, Write};
use crate::store::sql::Sql;
use crate::store::{Applied, Change, GameRow, RatingRow, tournaments};

/// Applies one change inside the batch's transaction.
pub(super) fn apply(conn: &Connection, change: &Change) -> Result<Applied> {
    match change {
        Change::AddPuzzles(rows) => return puzzles::add(conn, rows),
        Change::Attempt(attempt) => return puzzles::attempt(conn, attempt),
        Change::Tournament(change) => return tournaments::apply_sqlite(conn, change, start),
        _ => {}
    }
    let facts = facts(conn, &plan::need(change))?;
    let decision = plan::decide(change, &facts)?;
    let mut added = None;
    for write in &decision.writes {
        if let Some(id) = written(conn, write)? {
            added = Some(id);
        }
    }
    Ok(decision.applied(added))
}

/// A tournament's game takes a challenge's number, as every game does: its number.
fn start(conn: &Connection, game: &GameRow) -> Result<GameId> {
    let Applied::Id(id) = apply(conn, &Change::AddChallenge(tournaments::challenge_of(game)))?
    else {
        anyhow::bail!("a challenge without a number");
    };
    let started = GameRow {
        id: GameId(id),
        ..game.clone()
    };
    match apply(conn, &Change::StartGame(started))? {
        Applied::Done => Ok(GameId(id)),
        other => anyhow::bail!("a tournament's game did not start: {other:?}"),
    }
}

/// The facts `need` names.
fn facts(conn: &Connection, need: &Need) -> Result<Facts> {
    let open = match need.open {
        Some(id) => Some(
            conn.query_row("SELECT open FROM challenges WHERE id = ?1", [id], |r| {
                r.get::<_, bool>(0)
            })
            .optional()?
            .unwrap_or(false),
        ),
        None => None,
    };
    let turn = match need.turn {
        Some(game) => Some(conn.query_row(
            "SELECT turn_since FROM games WHERE id = ?1",
            [game],
            |r| r.get(0),
        )?),
        None => None,
    };
    let ratings = match need.ratings {
        Some((players, (game, class))) => {
            let mut rows = [RatingRow::default(); 2];
            for (row, player) in rows.iter_mut().zip(players) {
                let stored = conn
                    .query_row(
                        "SELECT rating, deviation, volatility, games FROM ratings
                         WHERE player = ?1 AND game = ?2 AND class = ?3",
                        params![player, game.name(), class.name()],
                        |r| {
                            Ok(RatingRow {
                                rating: r.get(0)?,
                                deviation: r.get(1)?,
                                volatility: r.get(2)?,
                                games: r.get(3)?,
                            })
                        },
                    )
                    .optional()?;
                *row = stored.unwrap_or_default();
            }
            Some(rows)
        }
        None => None,
    };
    let vacation = match need.vacation {
        Some((player, year)) => {
            let sql = Sql::new(crate::store::vacation::TAKEN, Vec::new()).sqlite();
            let taken: Option<i64> = conn
                .query_row(&sql, params![player, i64::from(year)], |r| r.get(0))
                .optional()?;
            Some(u32::try_from(taken.unwrap_or(0)).unwrap_or(u32::MAX))
        }
        None => None,
    };
    Ok(Facts {
        open,
        turn,
        ratings,
        vacation,
    })
}

/// Makes `write`: the new row's number, for a write that gives one (none: a player whose name
/// or key is taken).
fn written(conn: &Connection, write: &Write) -> Result<Option<i64>> {
    let mut added = None;
    for sql in plan::statements(write) {
        added = run(conn, &sql)?.or(added);
    }
    Ok(added)
}

/// Runs `sql` in `conn` (a statement both stores share, with SQLite's parameters): the number
/// it gives back, if it says `RETURNING` and a row came.
pub(in crate::store) fn run(conn: &Connection, sql: &Sql) -> Result<Option<i64>> {
    let mut statement = conn.prepare_cached(&sql.sqlite())?;
    let values = rusqlite::params_from_iter(&sql.values);
    if sql.returns() {
        return Ok(statement.query_row(values, |r| r.get(0)).optional()?);
    }
    statement.execute(values)?;
    Ok(None)
}
