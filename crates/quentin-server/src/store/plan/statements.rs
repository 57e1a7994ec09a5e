//! The statements of each write a game's change makes, stated once for both stores
//! (`crate::store::sql`).

use super::Write;
use crate::store::sql::{Sql, values};
use crate::store::{ChallengeRow, GameRow};

/// The statements that make `write`, in order. A new row's number is given back by the one
/// that says `RETURNING`.
#[must_use]
pub fn statements(write: &Write) -> Vec<Sql> {
    let one = |text, values| vec![Sql::new(text, values)];
    match write {
        Write::Player { key, name, at } => one(
            "INSERT INTO players(name, key, created) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING RETURNING id",
            values![name.as_str(), key.as_str(), *at],
        ),
        Write::Challenge(c) => vec![challenge(c)],
        Write::Close(id) => one(
            "UPDATE challenges SET open = FALSE WHERE id = $1",
            values![*id],
        ),
        Write::Game(game) => vec![game_row(game)],
        Write::Move {
            game,
            index,
            action,
            at,
        } => one(
            "INSERT INTO moves(game, idx, action, at) VALUES ($1, $2, $3, $4)",
            values![*game, *index, action.to_string(), *at],
        ),
        Write::Clocks { game, left, at } => one(
            "UPDATE games SET left1 = $2, left2 = $3, turn_since = $4 WHERE id = $1",
            values![*game, left[0], left[1], *at],
        ),
        Write::End {
            game,
            result,
            reason,
            at,
        } => one(
            "UPDATE games SET result = $2, reason = $3, ended = $4 WHERE id = $1",
            values![*game, result.as_str(), reason.as_str(), *at],
        ),
        Write::Rating(player, (game, class), r) => one(
            "INSERT INTO ratings(player, game, class, rating, deviation, volatility, games)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (player, game, class) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 games = excluded.games",
            values![
                *player,
                game.name(),
                class.name(),
                r.rating,
                r.deviation,
                r.volatility,
                r.games
            ],
        ),
        Write::Unmove { game, from } => one(
            "DELETE FROM moves WHERE game = $1 AND idx >= $2",
            values![*game, *from],
        ),
        Write::Heartbeat(at) => one(
            "INSERT INTO meta(key, value) VALUES ('alive', $1)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            values![*at],
        ),
        Write::Forgive(by) => one(
            "UPDATE games SET turn_since = turn_since + $1 WHERE result IS NULL",
            values![*by],
        ),
        Write::Vacation {
            player,
            year,
            taken,
        } => one(
            "INSERT INTO vacations(player, year, taken) VALUES ($1, $2, $3)
             ON CONFLICT (player, year) DO UPDATE SET taken = excluded.taken",
            values![*player, i64::from(*year), i64::from(*taken)],
        ),
        Write::Message { player, at, text } => one(
            "INSERT INTO messages(player, at, text) VALUES ($1, $2, $3)",
            values![*player, *at, text.as_str()],
        ),
        // The best stars kept: a worse solve of a level solved before changes nothing.
        Write::Course(solved) => one(
            "INSERT INTO course_levels(player, level, stars, at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player, level) DO UPDATE SET stars = excluded.stars, at = excluded.at
             WHERE excluded.stars > course_levels.stars",
            values![
                solved.player,
                solved.level.as_str(),
                i64::from(solved.stars),
                solved.at
            ],
        ),
        // Each best kept where the run's is not higher; the puzzle shown to the block.
        Write::PuzzleBests(r) => vec![
            Sql::new(
                crate::store::bests::RAISE,
                values![
                    r.player,
                    i64::from(r.runs.streak),
                    i64::from(r.runs.storm),
                    r.at
                ],
            ),
            Sql::new(
                crate::store::bests::SHOWN,
                values![r.puzzle.as_str(), r.block.as_str(), r.at],
            ),
        ],
    }
}

/// A new open challenge's row: its number given back.
fn challenge(c: &ChallengeRow) -> Sql {
    Sql::new(
        "INSERT INTO challenges(\"by\", game, size, pie, pieces, first, clock, rated, to_player)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        values![
            c.by,
            c.setup.game.name(),
            c.setup.size,
            c.setup.pie,
            c.setup.pieces,
            c.first.name(),
            c.clock.stored(),
            c.rated,
            c.to
        ],
    )
}

/// A game's row, as it begins.
fn game_row(game: &GameRow) -> Sql {
    Sql::new(
        "INSERT INTO games(id, game, size, pie, pieces, player1, player2, clock, rated,
                           left1, left2, turn_since)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        values![
            game.id,
            game.setup.game.name(),
            game.setup.size,
            game.setup.pie,
            game.setup.pieces,
            game.players[0],
            game.players[1],
            game.clock.stored(),
            game.rated,
            game.left[0],
            game.left[1],
            game.turn_since
        ],
    )
}
