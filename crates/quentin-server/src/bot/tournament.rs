//! The bot protocol's tournament answers: to `tournament create ...` (`= ID`), `tournaments`,
//! `tournament ID` (a status line, then `player RANK NAME POINTS TIEBREAK...` lines, then
//! `game ROUND FIRST SECOND GAME-ID RESULT` lines, a bye `game ROUND NAME - - bye`), `join ID`,
//! `withdraw ID [now]`, `tournament start ID` and `tournament cancel ID`; in an arena,
//! `tournament pause ID` and `tournament resume ID`; `messages` (a tournament cancelled).
//! Tournament numbers are written `t7`.

use crate::hub::TournamentView;
use crate::tournament::points;
use crate::tournament::standings::{Standing, Tiebreak, result_word};

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

/// A standing's points and tie-breaks in words: `3 7.5 6.25`.
fn points_and_tiebreaks(line: &Standing) -> String {
    let mut words = points(line.halves);
    for t in &line.tiebreaks {
        words.push(' ');
        words += &Tiebreak::to_string(t);
    }
    words
}
