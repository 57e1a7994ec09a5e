//! The statements of each write a tournament's change makes, stated once for both stores
//! (`crate::store::sql`).

use super::Write;
use crate::ids::GameId;
use crate::store::sql::{Sql, values};
use crate::tournament::TournamentId;

/// The statements that make `write` of tournament `t` (none for a new one); a game's
/// pairing names `game`, the game begun for it. A new tournament's number is given back by
/// the statement that says `RETURNING`.
#[must_use]
pub fn statements(t: Option<TournamentId>, write: &Write, game: Option<GameId>) -> Vec<Sql> {
    let one = |text, values| vec![Sql::new(text, values)];
    match write {
        Write::Create {
            by,
            settings,
            created,
            starts,
        } => one(
            "INSERT INTO tournaments(\"by\", settings, created, starts, status)
             VALUES ($1, $2, $3, $4, 'open') RETURNING id",
            values![*by, settings.as_str(), *created, *starts],
        ),
        Write::Join(player) => one(
            "INSERT INTO tournament_entrants(tournament, player, seq)
             SELECT $1, $2, COALESCE(MAX(seq), 0) + 1 FROM tournament_entrants
             WHERE tournament = $1",
            values![t, *player],
        ),
        Write::Remove(player) => one(
            "DELETE FROM tournament_entrants WHERE tournament = $1 AND player = $2",
            values![t, *player],
        ),
        Write::Withdraw(player) => one(
            "UPDATE tournament_entrants SET withdrawn = TRUE WHERE tournament = $1 AND player = $2",
            values![t, *player],
        ),
        Write::Entrant(e) => one(
            "UPDATE tournament_entrants SET withdrawn = $3, strikes = $4, paused = $5
             WHERE tournament = $1 AND player = $2",
            values![t, e.player, e.withdrawn, e.strikes, e.paused],
        ),
        Write::Status { status, started } => one(
            "UPDATE tournaments SET status = $2, started = COALESCE($3, started) WHERE id = $1",
            values![t, status.word(), *started],
        ),
        Write::Bye { round, player } => one(
            "INSERT INTO tournament_pairings(tournament, round, first) VALUES ($1, $2, $3)",
            values![t, *round, *player],
        ),
        Write::Game { round, game: row } => one(
            "INSERT INTO tournament_pairings(tournament, round, first, second, game)
             VALUES ($1, $2, $3, $4, $5)",
            values![t, *round, row.players[0], row.players[1], game],
        ),
        Write::Message { at, text } => one(
            "INSERT INTO messages(player, at, text)
             SELECT player, $2, $3 FROM tournament_entrants WHERE tournament = $1 ORDER BY seq",
            values![t, *at, text.as_str()],
        ),
    }
}

/// The statement that counts a change of tournament `t` (its `version`).
#[must_use]
pub fn counted(t: TournamentId) -> Sql {
    Sql::new(
        "UPDATE tournaments SET version = version + 1 WHERE id = $1",
        values![t],
    )
}
