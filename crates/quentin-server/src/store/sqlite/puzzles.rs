//! The puzzles' rows on SQLite ([`crate::store::puzzles`]): one process writes the file, so an
//! attempt reads and writes its two ratings in the batch's transaction with nothing between.

use anyhow::{Context as _, Result};
use rusqlite::{Connection, OptionalExtension, Row, params};

use quentin_rules::Game;

use crate::ids::PlayerId;
use crate::store::puzzles::{
    self, Attempt, AttemptFacts, PuzzleFound, PuzzleQuery, PuzzleRow, decide, wanted,
};
use crate::store::rows::shown;
use crate::store::sql::Sql;
use crate::store::{Applied, RatingRow};
use crate::store::{bests, course};
use quentin_app::puzzle_rating::{Bests, PROVISIONAL};

/// Adds the puzzles the store does not hold yet (by id); those it holds keep their ratings.
pub(super) fn add(conn: &Connection, rows: &[PuzzleRow]) -> Result<Applied> {
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO puzzles(id, game, line, rating, deviation, volatility, attempts)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for p in rows {
        insert.execute(params![
            p.id,
            p.game.name(),
            p.line,
            p.rating.rating,
            p.rating.deviation,
            p.rating.volatility,
            p.rating.games
        ])?;
    }
    Ok(Applied::Done)
}

const PUZZLE: &str = "SELECT id, game, line, rating, deviation, volatility, attempts FROM puzzles";

/// The rating in the four columns from `at`: rating, deviation, volatility, attempts.
fn rating_at(r: &Row<'_>, at: usize) -> rusqlite::Result<RatingRow> {
    Ok(RatingRow {
        rating: r.get(at)?,
        deviation: r.get(at + 1)?,
        volatility: r.get(at + 2)?,
        games: r.get(at + 3)?,
    })
}

fn puzzle_of(r: &Row<'_>) -> rusqlite::Result<(String, String, String, RatingRow)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, rating_at(r, 3)?))
}

/// The row's puzzle, its game's name read back.
fn row_of((id, game, line, rating): (String, String, String, RatingRow)) -> Result<PuzzleRow> {
    let game = Game::from_name(&game)
        .with_context(|| format!("puzzle {}: unknown game {}", shown(&id), shown(&game)))?;
    Ok(PuzzleRow {
        id,
        game,
        line,
        rating,
    })
}

/// `player`'s puzzle rating, the starting one when they have none.
fn rating(conn: &Connection, player: PlayerId) -> Result<RatingRow> {
    Ok(conn
        .query_row(
            "SELECT rating, deviation, volatility, attempts FROM puzzle_ratings WHERE player = ?1",
            [player],
            |r| rating_at(r, 0),
        )
        .optional()?
        .unwrap_or_default())
}

fn one(conn: &Connection, id: &str) -> Result<Option<PuzzleRow>> {
    conn.query_row(&format!("{PUZZLE} WHERE id = ?1"), [id], puzzle_of)
        .optional()?
        .map(row_of)
        .transpose()
}

/// Records the player's attempt: reads the facts ([`AttemptFacts`]), writes what
/// [`decide`] gives, and keeps a failed attempt's block as one the solution was shown to.
pub(super) fn attempt(conn: &Connection, a: &Attempt) -> Result<Applied> {
    let first = conn.execute(
        "INSERT OR IGNORE INTO puzzle_attempts(player, puzzle, solved, at)
         VALUES (?1, ?2, ?3, ?4)",
        params![a.player, a.puzzle, a.solved, a.at],
    )? == 1;
    let puzzle = one(conn, &a.puzzle)?
        .with_context(|| format!("no puzzle {} in the store", shown(&a.puzzle)))?
        .rating;
    let facts = AttemptFacts {
        first,
        shown_nearby: conn.query_row(
            "SELECT EXISTS(SELECT 1 FROM puzzle_reveals WHERE puzzle = ?1 AND block = ?2)",
            params![a.puzzle, a.block],
            |r| r.get(0),
        )?,
        player: rating(conn, a.player)?,
        puzzle,
    };
    let rated = decide(facts, a.solved, PROVISIONAL);
    if !a.solved {
        conn.execute(
            "INSERT INTO puzzle_reveals(puzzle, block, at) VALUES (?1, ?2, ?3)",
            params![a.puzzle, a.block, a.at],
        )?;
    }
    if rated.first && rated.unrated.is_none() {
        let [p, q] = [rated.player[1], rated.puzzle[1]];
        conn.execute(
            "INSERT OR REPLACE INTO puzzle_ratings(player, rating, deviation, volatility, attempts)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![a.player, p.rating, p.deviation, p.volatility, p.games],
        )?;
        conn.execute(
            "UPDATE puzzles SET rating = ?2, deviation = ?3, volatility = ?4, attempts = ?5
             WHERE id = ?1",
            params![a.puzzle, q.rating, q.deviation, q.volatility, q.games],
        )?;
    }
    Ok(Applied::Attempted(rated))
}

/// Answers `query` from the rows as they are.
pub(super) fn query(conn: &Connection, query: &PuzzleQuery) -> Result<PuzzleFound> {
    Ok(match query {
        PuzzleQuery::Next {
            player,
            game,
            target,
            theme,
            pool,
            skip,
        } => {
            let aim = match target {
                Some(target) => *target,
                None => rating(conn, *player)?.rating,
            };
            let sql = format!(
                "{PUZZLE} p WHERE (?2 IS NULL OR game = ?2) AND {}
                 ORDER BY abs(rating - ?3), id",
                pool.condition().replace('$', "?")
            );
            let mut statement = conn.prepare_cached(&sql)?;
            let mut rows =
                statement.query_map(params![player, game.map(Game::name), aim], puzzle_of)?;
            // Nearest first: the first the theme and the visit keep.
            let found = rows.find(|row| {
                row.as_ref().map_or(true, |(id, _, line, _)| {
                    wanted(id, line, theme.as_deref(), skip)
                })
            });
            PuzzleFound::Puzzle(found.transpose()?.map(row_of).transpose()?)
        }
        PuzzleQuery::One(id) => PuzzleFound::Puzzle(one(conn, id)?),
        PuzzleQuery::Rating(player) => PuzzleFound::Rating(rating(conn, *player)?),
        PuzzleQuery::Leaders { most, provisional } => {
            let mut statement = conn.prepare(
                "SELECT p.name, r.rating, r.deviation, r.volatility, r.attempts
                 FROM puzzle_ratings r JOIN players p ON p.id = r.player
                 WHERE r.deviation <= ?1 ORDER BY r.rating DESC, p.name LIMIT ?2",
            )?;
            let rows = statement.query_map(params![provisional, *most as i64], |r| {
                Ok((r.get(0)?, rating_at(r, 1)?))
            })?;
            PuzzleFound::Leaders(rows.collect::<rusqlite::Result<_>>()?)
        }
        PuzzleQuery::Course(player) => {
            let sql = Sql::new(course::STARS, Vec::new()).sqlite();
            let mut statement = conn.prepare_cached(&sql)?;
            let rows: Vec<(String, i64)> = statement
                .query_map([player], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?;
            let stars = rows
                .into_iter()
                .map(|(level, n)| {
                    let n = course::stars_of(&level, n)?;
                    Ok((level, n))
                })
                .collect::<Result<_>>()?;
            PuzzleFound::Course(stars)
        }
        PuzzleQuery::Daily { game, day } => {
            let name = game.name();
            let count: i64 = conn.query_row(
                &Sql::new(puzzles::DAILY_COUNT, Vec::new()).sqlite(),
                [name],
                |r| r.get(0),
            )?;
            let at = puzzles::daily_offset(*day, count);
            let found = conn
                .query_row(
                    &Sql::new(puzzles::DAILY_AT, Vec::new()).sqlite(),
                    params![name, at],
                    puzzle_of,
                )
                .optional()?;
            PuzzleFound::Puzzle(found.map(row_of).transpose()?)
        }
        PuzzleQuery::Vacation(player, year) => {
            let sql = Sql::new(crate::store::vacation::TAKEN, Vec::new()).sqlite();
            let taken: Option<i64> = conn
                .query_row(&sql, params![player, i64::from(*year)], |r| r.get(0))
                .optional()?;
            PuzzleFound::Vacation(u32::try_from(taken.unwrap_or(0)).unwrap_or(u32::MAX))
        }
        PuzzleQuery::Bests(player) => {
            let sql = Sql::new(bests::BESTS, Vec::new()).sqlite();
            let found: Option<(i64, i64)> = conn
                .query_row(&sql, [player], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            PuzzleFound::Bests(match found {
                Some((streak, storm)) => bests::bests_of(streak, storm)?,
                None => Bests::default(),
            })
        }
    })
}
