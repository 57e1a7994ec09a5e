//! The API's JSON, written in one place: a game as `/api/game/ID` gives it (and each line of
//! `/api/games/player/NAME`), a tournament as `/api/tournament/ID` gives it. Names and
//! numbers only: no key, fingerprint or address is in the views they are written from.

use serde_json::{Value, json};

use crate::hub::{GameView, TournamentView};
use crate::ids::Seat;
use crate::tournament::points;
use crate::tournament::settings::Kind;
use crate::tournament::standings::result_word;

/// Game `view` as JSON: its id, game, size, pie, pieces, players, moves (the record's action
/// names), result, clocks, and the rest of what its record and its row say.
#[must_use]
pub fn game(view: &GameView) -> Value {
    let players: Vec<Value> = Seat::BOTH
        .into_iter()
        .map(|seat| {
            json!({
                "name": view.names[seat],
                "rating": view.ratings[seat],
                "provisional": view.provisional[seat],
                "shown": view.rating_text(seat),
                "color": view.color(seat).to_string(),
                "change": view.changes.map(|c| c[seat]),
            })
        })
        .collect();
    json!({
        "id": view.id.0,
        "game": view.setup.game.to_string(),
        "size": view.setup.size,
        "pie": view.setup.pie,
        "pieces": view.setup.pieces,
        "players": players,
        "moves": view.actions.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "result": view.result_words(),
        "result_text": view.result_text(),
        "status": if view.result.is_some() { "over" } else { "started" },
        "to_move": view.to_move.map(|s| s.index() + 1),
        "clocks": {
            "control": view.clock.to_string(),
            "left_ms": [view.left[Seat::First].0, view.left[Seat::Second].0],
        },
        "rated": view.rated,
        "ended": view.ended.map(|m| m.0),
        "tournament": view.tournament.map(|t| json!({
            "id": t.id.to_string(),
            "round": t.round,
        })),
        "watchers": view.watchers,
    })
}

/// The names of a tournament's tie-breaks, in the order they count.
#[must_use]
pub fn tiebreak_names(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Arena => &["performance"],
        Kind::Swiss | Kind::RoundRobin => &["Buchholz", "Sonneborn-Berger"],
    }
}

/// Tournament `view` as JSON: its settings, status, standings (with the tie-breaks named),
/// crosstable and games.
#[must_use]
pub fn tournament(view: &TournamentView) -> Value {
    let names = tiebreak_names(view.settings.kind);
    let standings: Vec<Value> = view
        .standings
        .iter()
        .map(|(standing, name)| {
            let tiebreaks: serde_json::Map<String, Value> = names
                .iter()
                .zip(&standing.tiebreaks)
                .map(|(n, t)| ((*n).to_string(), Value::String(t.to_string())))
                .collect();
            json!({
                "rank": standing.rank,
                "name": name,
                "points": points(standing.halves),
                "tiebreaks": tiebreaks,
            })
        })
        .collect();
    let games: Vec<Value> = view
        .games
        .iter()
        .map(|g| {
            json!({
                "round": g.round,
                "first": g.first,
                "second": g.second,
                "game": g.game.map(|id| id.0),
                "result": if g.second.is_some() { result_word(g.result) } else { "bye" },
            })
        })
        .collect();
    let s = &view.settings;
    json!({
        "id": view.id.to_string(),
        "kind": s.kind.to_string(),
        "game": s.spec.setup.game.to_string(),
        "size": s.spec.setup.size,
        "pie": s.spec.setup.pie,
        "clock": s.spec.clock.to_string(),
        "rated": s.spec.rated,
        "rounds": view.rounds,
        "round": view.round,
        "min": s.min,
        "max": s.max,
        "status": view.status.to_string(),
        "creator": view.creator,
        "starts": view.starts.0,
        "entrants": view.entrants,
        "tiebreaks": names,
        "standings": standings,
        "crosstable": view.crosstable,
        "games": games,
    })
}
