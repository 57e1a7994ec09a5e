//! The bot protocol's tournament commands: `tournament create ...` (`= ID`), `tournaments`,
//! `tournament ID` (a status line, then `player RANK NAME POINTS TIEBREAK...` lines, then
//! `game ROUND FIRST SECOND GAME-ID RESULT` lines, a bye `game ROUND NAME - - bye`), `join ID`,
//! `withdraw ID` and `tournament start ID`; in an arena, `tournament pause ID` and `tournament
//! resume ID`. Tournament numbers are written `t7`.

use super::super::Context;
use super::super::hub::{TournamentView, points_and_tiebreaks};
use super::super::tournament::standings::result_word;
use super::super::tournament::{Settings, TournamentId};
use super::Answer;

/// Runs a tournament command of `me`: `words` from the command's own word on.
pub(super) async fn command(ctx: &Context, me: i64, words: &[&str], now: i64) -> Answer {
    let hub = &ctx.hub;
    let id = |word: Option<&&str>, usage: &str| {
        let word = word.ok_or_else(|| usage.to_string())?;
        TournamentId::parse(word).ok_or_else(|| {
            format!(
                "bad tournament number {}: say t1, t2...",
                super::shown(word)
            )
        })
    };
    match (words[0], words.get(1).copied()) {
        ("tournaments", _) if words.len() > 1 => {
            Err("tournaments takes no words after it".to_string())
        }
        ("tournaments", _) => Ok(hub
            .tournaments(now)
            .iter()
            .map(summary)
            .collect::<Vec<_>>()
            .join("\n")),
        ("tournament", Some("create")) => {
            let settings = Settings::parse(&words[2..])?;
            hub.create_tournament(me, &settings, now)
                .await
                .map(|id| id.to_string())
                .map_err(|r| r.to_string())
        }
        ("tournament", Some("start")) if words.len() == 3 => {
            let id = id(words.get(2), "tournament start ID")?;
            hub.start_tournament(me, id, now)
                .await
                .map(|()| String::new())
                .map_err(|r| r.to_string())
        }
        ("tournament", Some(word @ ("pause" | "resume"))) if words.len() == 3 => {
            let id = id(words.get(2), "tournament pause ID")?;
            hub.pause_tournament(me, id, word == "pause")
                .await
                .map(|()| String::new())
                .map_err(|r| r.to_string())
        }
        ("tournament", Some(_)) if words.len() == 2 => {
            let id = id(words.get(1), "tournament ID")?;
            hub.tournament(id, now)
                .map(|view| lines(&view).join("\n"))
                .ok_or_else(|| format!("no tournament {id}"))
        }
        ("join", _) if words.len() == 2 => {
            let id = id(words.get(1), "join ID")?;
            hub.join_tournament(me, id)
                .await
                .map(|()| String::new())
                .map_err(|r| r.to_string())
        }
        ("withdraw", _) if words.len() == 2 => {
            let id = id(words.get(1), "withdraw ID")?;
            hub.withdraw_tournament(me, id, now)
                .await
                .map(|()| String::new())
                .map_err(|r| r.to_string())
        }
        ("join", _) => Err("join ID".to_string()),
        ("withdraw", _) => Err("withdraw ID".to_string()),
        _ => Err(
            "tournament create KIND GAME ..., tournament ID, tournament start ID, tournament \
             pause ID or tournament resume ID"
                .to_string(),
        ),
    }
}

/// A line of `tournaments`: `t3 swiss quentin 9 open 5/16 by ann`.
pub(crate) fn summary(view: &TournamentView) -> String {
    format!(
        "{} {} {} {} {} {}/{} by {}",
        view.id,
        view.settings.kind,
        view.settings.spec.setup.game,
        view.settings.spec.setup.size,
        view.status,
        view.entrants.len(),
        view.settings.max,
        view.creator
    )
}

/// The lines of `tournament ID`.
pub(crate) fn lines(view: &TournamentView) -> Vec<String> {
    let mut lines = vec![format!(
        "{} {} {} {} round {} of {}",
        view.settings.kind,
        view.settings.spec.setup.game,
        view.settings.spec.setup.size,
        view.status,
        view.round,
        view.rounds
    )];
    for (standing, name) in &view.standings {
        lines.push(format!(
            "player {} {name} {}",
            standing.rank,
            points_and_tiebreaks(standing)
        ));
    }
    for line in &view.games {
        let (round, first) = (line.round, &line.first);
        lines.push(match (&line.second, line.game) {
            (Some(second), Some(game)) => format!(
                "game {round} {first} {second} {game} {}",
                result_word(line.result)
            ),
            _ => format!("game {round} {first} - - bye"),
        });
    }
    lines
}
