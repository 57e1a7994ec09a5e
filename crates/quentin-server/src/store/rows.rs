//! What both stores do with the rows they read: a row's text made into the rules' types, and a
//! game's moves put in order, with the games that cannot be read named rather than loaded.

use anyhow::{Context as _, Result};

use quentin_rules::{Action, Game, Setup};

use super::{Damaged, GameRow};
use crate::ids::GameId;
use crate::spec::{First, TimeControl};
use quentin_record::game_end::GameEnd;

/// The setup of a row's columns.
pub(super) fn setup_of(game: &str, size: i64, pie: bool, pieces: i64) -> Result<Setup> {
    let game = Game::from_name(game).with_context(|| format!("unknown game {}", shown(game)))?;
    Ok(Setup {
        game,
        size: usize::try_from(size).with_context(|| format!("size {size}"))?,
        pie,
        pieces: usize::try_from(pieces).with_context(|| format!("{pieces} pieces"))?,
    })
}

/// The time control of a row's column.
/// The ending stored as `result` and `reason` (none while the game goes on).
pub(super) fn end_of(result: Option<String>, reason: Option<String>) -> Result<Option<GameEnd>> {
    match (result, reason) {
        (Some(result), Some(reason)) => Ok(Some(GameEnd::from_words(&result, &reason)?)),
        (None, None) => Ok(None),
        (result, reason) => anyhow::bail!("half an ending: result {result:?}, reason {reason:?}"),
    }
}

/// Who moves first, from its stored word (`me`, `you`, `random`).
pub(super) fn first_of(word: &str) -> Result<First> {
    First::from_name(word).with_context(|| format!("who moves first: {}", shown(word)))
}

pub(super) fn clock_of(text: &str) -> Result<TimeControl> {
    TimeControl::from_stored(text).with_context(|| format!("a bad clock {}", shown(text)))
}

/// Text from the store, safe to print: control characters escaped, at most 40 characters.
pub(super) fn shown(text: &str) -> String {
    text.chars().take(40).flat_map(char::escape_debug).collect()
}

/// Puts `moves` (game, index, action; ordered by game, then index) into `games` (ordered by
/// number). A game whose moves do not follow one another from 0, or hold what is not an
/// action, is taken out of `games` and named in `damaged`, as are moves of a game not there.
pub(super) fn attach_moves(
    games: &mut Vec<GameRow>,
    moves: impl IntoIterator<Item = (i64, i64, String)>,
    damaged: &mut Vec<Damaged>,
) {
    let mut at = 0;
    let mut bad: Vec<(GameId, String)> = Vec::new();
    for (id, index, action) in moves {
        let id = GameId(id);
        while games.get(at).is_some_and(|g| g.id < id) {
            at += 1;
        }
        let Some(game) = games.get_mut(at).filter(|g| g.id == id) else {
            // A move of a game that is not here (or already found damaged).
            if !damaged.iter().any(|d| d.kind == "game" && d.id == id.0)
                && !bad.iter().any(|(b, _)| *b == id)
            {
                bad.push((id, "moves of a game the store does not have".to_string()));
            }
            continue;
        };
        if bad.iter().any(|(b, _)| *b == id) {
            continue;
        }
        let number = game.actions.len();
        if index != number as i64 {
            bad.push((id, format!("move {} is missing", number + 1)));
            continue;
        }
        match Action::parse(&action) {
            Ok(action) => game.actions.push(action),
            Err(e) => bad.push((
                id,
                format!(
                    "move {}, {}, is not an action ({e})",
                    number + 1,
                    shown(&action)
                ),
            )),
        }
    }
    games.retain(|g| !bad.iter().any(|(b, _)| *b == g.id));
    damaged.extend(bad.into_iter().map(|(id, why)| Damaged {
        kind: "game",
        id: id.0,
        why,
    }));
}
