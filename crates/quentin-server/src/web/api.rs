//! The API for tools (docs/web.md): `/api/game/ID` (JSON), `/api/game/ID.txt` (the record
//! that `quentin replay` reads), `/api/games/player/NAME` (NDJSON, newest first, `max` and
//! `since`), `/api/tournament/ID` (JSON). The live stream is [`super::stream`]'s.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;

use super::page::{Keep, answer, api_not_found, bad_request};
use super::{Web, json};
use crate::hub::GameView;
use crate::ids::{GameId, Moment, PlayerId, TournamentId};

/// The most games one request of `/api/games/player/NAME` gives.
pub const MOST_GAMES: usize = 1000;
/// What it gives when `max` is not asked.
pub const DEFAULT_GAMES: usize = 100;

/// A game's number as an address gives it: `12`; `None` for anything else.
#[must_use]
pub fn game_id(text: &str) -> Option<GameId> {
    if text.is_empty() || text.len() > 18 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|n| *n > 0).map(GameId)
}

/// A tournament's number as an address gives it: `t3` (or `3`).
#[must_use]
pub fn tournament_id(text: &str) -> Option<TournamentId> {
    TournamentId::parse(text).or_else(|| TournamentId::parse(&format!("t{text}")))
}

/// Whether a finished game's answers can be kept a while.
#[must_use]
pub fn keep_of(view: &GameView) -> Keep {
    if view.result.is_some() {
        Keep::Settled
    } else {
        Keep::Check
    }
}

/// The player named `name`, unless there is none or their account is closed (banned): then
/// what to say instead.
pub fn player(web: &Web, name: &str) -> Result<PlayerId, Closed> {
    let id = web.ctx.hub.player_named(name).ok_or(Closed::Unknown)?;
    if web
        .ctx
        .hub
        .sanctions()
        .ban_of(id, web.ctx.clock.now())
        .is_some()
    {
        return Err(Closed::Banned);
    }
    Ok(id)
}

/// Why a player's games or page are not shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// Nobody is named so.
    Unknown,
    /// The account is closed (the player is banned): nothing more is said.
    Banned,
}

/// `/api/game/ID` and `/api/game/ID.txt`.
pub async fn game(State(web): State<Web>, Path(id): Path<String>, asked: HeaderMap) -> Response {
    let (number, text) = match id.strip_suffix(".txt") {
        Some(number) => (number, true),
        None => (id.as_str(), false),
    };
    let Some(id) = game_id(number) else {
        return api_not_found("no such game");
    };
    let Some(view) = web.ctx.hub.game(id, web.ctx.clock.now()) else {
        return api_not_found(&format!("no game {id}"));
    };
    if text {
        // The record never changes once the game is over.
        let keep = if view.result.is_some() {
            Keep::Forever
        } else {
            Keep::Check
        };
        return answer(&asked, "text/plain; charset=utf-8", keep, view.record());
    }
    let body = format!("{}\n", json::game(&view));
    answer(&asked, "application/json", keep_of(&view), body)
}

/// What `?max=N&since=MOMENT` asks of `/api/games/player/NAME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The most games to give.
    pub max: usize,
    /// Only games under way or ended at or after this moment (ms since the epoch).
    pub since: Option<Moment>,
}

/// Reads `max` and `since`; a bad value's reason.
///
/// # Errors
/// The reason, in words: `max must be a number from 1 to 1000, not "x"`.
pub fn asked(query: &HashMap<String, String>) -> Result<Asked, String> {
    let max = match query.get("max") {
        None => DEFAULT_GAMES,
        Some(text) => text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MOST_GAMES).contains(n))
            .ok_or_else(|| {
                format!(
                    "max must be a number from 1 to {MOST_GAMES}, not {:?}",
                    shown(text)
                )
            })?,
    };
    let since = match query.get("since") {
        None => None,
        Some(text) => Some(Moment(text.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(
            || {
                format!(
                    "since must be a moment in milliseconds since 1970 (a number from 0), not {:?}",
                    shown(text)
                )
            },
        )?)),
    };
    Ok(Asked { max, since })
}

/// A value as a reason quotes it: its first 40 characters, control characters dropped.
fn shown(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(40).collect()
}

/// `/api/games/player/NAME`: NDJSON, one game a line as `/api/game/ID` gives it, newest
/// first (those under way, then those ended).
pub async fn games_of(
    State(web): State<Web>,
    Path(name): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    asked_headers: HeaderMap,
) -> Response {
    let asked = match asked(&query) {
        Ok(asked) => asked,
        Err(reason) => return bad_request(&reason),
    };
    let id = match player(&web, &name) {
        Ok(id) => id,
        Err(Closed::Unknown) => return api_not_found(&format!("no player {}", shown(&name))),
        Err(Closed::Banned) => return api_not_found("this account is closed"),
    };
    let now = web.ctx.clock.now();
    let (all, _) = web.ctx.hub.games_page(id, now, 0, usize::MAX);
    let mut body = String::new();
    for view in all
        .iter()
        .filter(|v| asked.since.is_none_or(|s| v.ended.is_none_or(|e| e >= s)))
        .take(asked.max)
    {
        body.push_str(&json::game(view).to_string());
        body.push('\n');
    }
    answer(&asked_headers, "application/x-ndjson", Keep::Check, body)
}

/// `/api/tournament/ID`.
pub async fn tournament(
    State(web): State<Web>,
    Path(id): Path<String>,
    asked: HeaderMap,
) -> Response {
    let Some(id) = tournament_id(&id) else {
        return api_not_found("no such tournament");
    };
    let Some(view) = web.ctx.hub.tournament(id, web.ctx.clock.now()) else {
        return api_not_found(&format!("no tournament {id}"));
    };
    let body = format!("{}\n", json::tournament(&view));
    answer(&asked, "application/json", Keep::Check, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    #[test]
    fn max_and_since_are_read_or_refused_with_the_reason() {
        assert_eq!(
            asked(&query(&[])),
            Ok(Asked {
                max: DEFAULT_GAMES,
                since: None
            })
        );
        assert_eq!(
            asked(&query(&[("max", "3"), ("since", "1700000000000")])),
            Ok(Asked {
                max: 3,
                since: Some(Moment(1_700_000_000_000))
            })
        );
        assert_eq!(
            asked(&query(&[("max", "0")])),
            Err("max must be a number from 1 to 1000, not \"0\"".to_string())
        );
        assert!(
            asked(&query(&[("since", "yesterday")]))
                .unwrap_err()
                .starts_with("since must be")
        );
    }

    #[test]
    fn ids_are_read_as_addresses_give_them() {
        assert_eq!(game_id("12"), Some(GameId(12)));
        assert_eq!(game_id("0"), None);
        assert_eq!(game_id("-1"), None);
        assert_eq!(game_id("99999999999999999999999"), None);
        assert_eq!(tournament_id("t3"), Some(TournamentId(3)));
        assert_eq!(tournament_id("3"), Some(TournamentId(3)));
        assert_eq!(tournament_id("x"), None);
    }
}
