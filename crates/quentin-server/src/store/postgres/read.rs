//! Reading the store's rows on PostgreSQL: everything at the start, and the rows that another
//! process's notifications name.

use anyhow::Result;
use tokio_postgres::{GenericClient, Row};

use quentin_rules::Game;

use crate::ids::{ChallengeId, GameId, PlayerId};
use crate::size_class::{RatingKey, SizeClass};
use crate::store::rows::{attach_moves, clock_of, end_of, first_of, setup_of};
use crate::store::{ChallengeRow, Damaged, GameRow, PlayerRow, RatingRow};

pub(super) const CHALLENGES: &str =
    "SELECT id, \"by\", game, size, pie, pieces, first, clock, rated, to_player
                          FROM challenges";

pub(super) fn player_of(r: &Row) -> PlayerRow {
    PlayerRow {
        id: r.get(0),
        name: r.get(1),
        key: r.get(2),
    }
}

pub(super) fn ratings_of(rows: &[Row]) -> Vec<(PlayerId, RatingKey, RatingRow)> {
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

pub(super) const RATINGS: &str =
    "SELECT player, game, class, rating, deviation, volatility, games FROM ratings";

pub(super) fn challenges_of(rows: Vec<Row>, damaged: &mut Vec<Damaged>) -> Vec<ChallengeRow> {
    let mut out = Vec::new();
    for r in rows {
        let id: i64 = r.get(0);
        let row = (|| {
            Ok::<_, anyhow::Error>(ChallengeRow {
                id: ChallengeId(id),
                by: r.try_get(1)?,
                setup: setup_of(r.try_get(2)?, r.try_get(3)?, r.try_get(4)?, r.try_get(5)?)?,
                first: first_of(r.try_get(6)?)?,
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

pub(super) fn game_of(r: &Row) -> Result<GameRow> {
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
        result: end_of(result, reason)?,
        ended: r.try_get(14)?,
    })
}

/// The games that `filter` (SQL over `games`, with `params`) picks, with their moves.
pub(super) async fn read_games(
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
    ids: &[GameId],
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
    ids: &[ChallengeId],
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
    ids: &[PlayerId],
) -> Result<(Vec<PlayerRow>, Vec<(PlayerId, RatingKey, RatingRow)>)> {
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
