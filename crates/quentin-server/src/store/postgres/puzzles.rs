//! The puzzles' rows on PostgreSQL ([`crate::store::puzzles`]), which several processes
//! share: an attempt locks the player's puzzle rating and the puzzle's rating (in that order:
//! an attempt locks one of each, so two never wait on each other in a circle) and computes
//! both anew from the rows as they are, so that attempts at one puzzle from two processes at
//! once both count, one after the other. A player's first attempt is the one whose row goes
//! in: a second, on another process at the same moment, waits for it and finds it there.

use anyhow::{Context as _, Result};
use tokio_postgres::{GenericClient, Row, Transaction};

use quentin_rules::Game;

use crate::ids::PlayerId;
use crate::store::puzzles::{
    self, Attempt, AttemptFacts, PuzzleFound, PuzzleQuery, PuzzleRow, decide, wanted,
};
use crate::store::rows::shown;
use crate::store::{Applied, RatingRow};
use crate::store::{bests, course};
use quentin_app::puzzle_rating::PROVISIONAL;

/// Adds the puzzles the database does not hold yet (by id), in one statement; those it holds
/// keep their ratings. Processes starting together each add what is missing.
pub(super) async fn add(tx: &Transaction<'_>, rows: &[PuzzleRow]) -> Result<Applied> {
    let ids: Vec<&str> = rows.iter().map(|p| p.id.as_str()).collect();
    let games: Vec<&str> = rows.iter().map(|p| p.game.name()).collect();
    let lines: Vec<&str> = rows.iter().map(|p| p.line.as_str()).collect();
    let ratings: Vec<f64> = rows.iter().map(|p| p.rating.rating).collect();
    let deviations: Vec<f64> = rows.iter().map(|p| p.rating.deviation).collect();
    let volatilities: Vec<f64> = rows.iter().map(|p| p.rating.volatility).collect();
    let attempts: Vec<i64> = rows.iter().map(|p| p.rating.games).collect();
    tx.execute(
        "INSERT INTO puzzles(id, game, line, rating, deviation, volatility, attempts)
         SELECT * FROM unnest($1::TEXT[], $2::TEXT[], $3::TEXT[], $4::DOUBLE PRECISION[],
                              $5::DOUBLE PRECISION[], $6::DOUBLE PRECISION[], $7::BIGINT[])
         ON CONFLICT (id) DO NOTHING",
        &[
            &ids,
            &games,
            &lines,
            &ratings,
            &deviations,
            &volatilities,
            &attempts,
        ],
    )
    .await?;
    Ok(Applied::Done)
}

const PUZZLE: &str = "SELECT id, game, line, rating, deviation, volatility, attempts FROM puzzles";

fn row_of(r: &Row) -> Result<PuzzleRow> {
    let id: String = r.try_get(0)?;
    let game: String = r.try_get(1)?;
    let game = Game::from_name(&game)
        .with_context(|| format!("puzzle {}: unknown game {}", shown(&id), shown(&game)))?;
    Ok(PuzzleRow {
        id,
        game,
        line: r.try_get(2)?,
        rating: RatingRow {
            rating: r.try_get(3)?,
            deviation: r.try_get(4)?,
            volatility: r.try_get(5)?,
            games: r.try_get(6)?,
        },
    })
}

/// The rating in the four columns from `at`: rating, deviation, volatility, attempts.
fn rating_at(r: &Row, at: usize) -> RatingRow {
    RatingRow {
        rating: r.get(at),
        deviation: r.get(at + 1),
        volatility: r.get(at + 2),
        games: r.get(at + 3),
    }
}

/// `player`'s puzzle rating, the starting one when they have none; locked with `lock`.
async fn rating(client: &impl GenericClient, player: PlayerId, lock: &str) -> Result<RatingRow> {
    Ok(client
        .query_opt(
            &format!(
                "SELECT rating, deviation, volatility, attempts FROM puzzle_ratings
                 WHERE player = $1 {lock}"
            ),
            &[&player],
        )
        .await?
        .map_or_else(RatingRow::default, |r| rating_at(&r, 0)))
}

async fn one(client: &impl GenericClient, id: &str, lock: &str) -> Result<Option<PuzzleRow>> {
    client
        .query_opt(&format!("{PUZZLE} WHERE id = $1 {lock}"), &[&id])
        .await?
        .as_ref()
        .map(row_of)
        .transpose()
}

/// Records the player's attempt: reads the facts ([`AttemptFacts`]) from the rows locked until
/// the commit (the player's puzzle rating, then the puzzle's, so that attempts and the
/// solutions they were shown follow each other), writes what [`decide`] gives, and keeps a
/// failed attempt's block as one the solution was shown to.
pub(super) async fn attempt(tx: &Transaction<'_>, a: &Attempt) -> Result<Applied> {
    let first = tx
        .query_opt(
            "INSERT INTO puzzle_attempts(player, puzzle, solved, at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player, puzzle) DO NOTHING RETURNING 1",
            &[&a.player, &a.puzzle, &a.solved, &a.at],
        )
        .await?
        .is_some();
    let missing = || format!("no puzzle {} in the store", shown(&a.puzzle));
    let fresh = RatingRow::default();
    tx.execute(
        "INSERT INTO puzzle_ratings(player, rating, deviation, volatility, attempts)
         VALUES ($1, $2, $3, $4, 0) ON CONFLICT (player) DO NOTHING",
        &[
            &a.player,
            &fresh.rating,
            &fresh.deviation,
            &fresh.volatility,
        ],
    )
    .await?;
    let player = rating(tx, a.player, "FOR UPDATE").await?;
    let puzzle = one(tx, &a.puzzle, "FOR UPDATE")
        .await?
        .with_context(missing)?
        .rating;
    let shown = tx
        .query_one(
            "SELECT EXISTS(SELECT 1 FROM puzzle_reveals WHERE puzzle = $1 AND block = $2)",
            &[&a.puzzle, &a.block],
        )
        .await?;
    let facts = AttemptFacts {
        first,
        shown_nearby: shown.try_get(0)?,
        player,
        puzzle,
    };
    let rated = decide(facts, a.solved, PROVISIONAL);
    if !a.solved {
        tx.execute(
            "INSERT INTO puzzle_reveals(puzzle, block, at) VALUES ($1, $2, $3)",
            &[&a.puzzle, &a.block, &a.at],
        )
        .await?;
    }
    if rated.first && rated.unrated.is_none() {
        let [p, q] = [rated.player[1], rated.puzzle[1]];
        tx.execute(
            "UPDATE puzzle_ratings SET rating = $2, deviation = $3, volatility = $4, attempts = $5
             WHERE player = $1",
            &[&a.player, &p.rating, &p.deviation, &p.volatility, &p.games],
        )
        .await?;
        tx.execute(
            "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4, attempts = $5
             WHERE id = $1",
            &[&a.puzzle, &q.rating, &q.deviation, &q.volatility, &q.games],
        )
        .await?;
    }
    Ok(Applied::Attempted(rated))
}

/// Answers `query` from the rows as they are now.
pub(super) async fn query(client: &impl GenericClient, query: &PuzzleQuery) -> Result<PuzzleFound> {
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
                None => rating(client, *player, "").await?.rating,
            };
            // Without a theme or puzzles to leave out, the nearest is the first row.
            let limit = if theme.is_none() && skip.is_empty() {
                " LIMIT 1"
            } else {
                ""
            };
            let rows = client
                .query(
                    &format!(
                        "{PUZZLE} p WHERE ($2::TEXT IS NULL OR game = $2) AND {}
                         ORDER BY abs(rating - $3), id{limit}",
                        pool.condition()
                    ),
                    &[player, &game.map(Game::name), &aim],
                )
                .await?;
            let mut found = None;
            for row in &rows {
                let (id, line): (String, String) = (row.try_get(0)?, row.try_get(2)?);
                if wanted(&id, &line, theme.as_deref(), skip) {
                    found = Some(row_of(row)?);
                    break;
                }
            }
            PuzzleFound::Puzzle(found)
        }
        PuzzleQuery::One(id) => PuzzleFound::Puzzle(one(client, id, "").await?),
        PuzzleQuery::Rating(player) => PuzzleFound::Rating(rating(client, *player, "").await?),
        PuzzleQuery::Leaders { most, provisional } => {
            let rows = client
                .query(
                    "SELECT p.name, r.rating, r.deviation, r.volatility, r.attempts
                     FROM puzzle_ratings r JOIN players p ON p.id = r.player
                     WHERE r.deviation <= $1 ORDER BY r.rating DESC, p.name LIMIT $2",
                    &[provisional, &(*most as i64)],
                )
                .await?;
            PuzzleFound::Leaders(rows.iter().map(|r| (r.get(0), rating_at(r, 1))).collect())
        }
        PuzzleQuery::Course(player) => {
            let mut stars = Vec::new();
            for row in client.query(course::STARS, &[player]).await? {
                let level: String = row.try_get(0)?;
                let n = course::stars_of(&level, row.try_get(1)?)?;
                stars.push((level, n));
            }
            PuzzleFound::Course(stars)
        }
        PuzzleQuery::Daily { game, day } => {
            let name = game.name();
            let count: i64 = client
                .query_one(puzzles::DAILY_COUNT, &[&name])
                .await?
                .try_get(0)?;
            let at = puzzles::daily_offset(*day, count);
            let found = client.query_opt(puzzles::DAILY_AT, &[&name, &at]).await?;
            PuzzleFound::Puzzle(found.as_ref().map(row_of).transpose()?)
        }
        PuzzleQuery::Vacation(player, year) => {
            let taken: Option<i64> = client
                .query_opt(crate::store::vacation::TAKEN, &[player, &i64::from(*year)])
                .await?
                .map(|r| r.get(0));
            PuzzleFound::Vacation(u32::try_from(taken.unwrap_or(0)).unwrap_or(u32::MAX))
        }
        PuzzleQuery::Bests(player) => {
            PuzzleFound::Bests(match client.query_opt(bests::BESTS, &[player]).await? {
                Some(row) => bests::bests_of(row.try_get(0)?, row.try_get(1)?)?,
                None => quentin_app::puzzle_rating::Bests::default(),
            })
        }
    })
}
