//! The bot protocol's puzzle answers (docs/server.md): to `puzzle [GAME]`, `puzzle ID`,
//! `puzzle rating`, `puzzle leaders`, and `solve ID MOVE...`, in the protocol's words.

use quentin_app::search::puzzles::Goal;
use quentin_rules::{Action, Game};

use crate::puzzles::run::Counted;
use crate::puzzles::{Outcome, Served, change, shown_puzzle_rating};
use crate::store::RatingRow;
use crate::store::puzzles::Rated;

/// The most lines `puzzle leaders` gives.
pub const LEADERS: usize = 20;

/// `puzzle rating`: `RATING DEVIATION GAMES` (the rating `?`-marked while provisional).
pub(super) fn rating(r: &RatingRow) -> String {
    format!(
        "{} {} {}",
        shown_puzzle_rating(r),
        r.deviation.round() as i64,
        r.games
    )
}

/// `puzzle leaders`: a line a player, `RANK NAME RATING DEVIATION GAMES`.
pub(super) fn leaders(rows: &[(String, RatingRow)]) -> String {
    rows.iter()
        .enumerate()
        .map(|(i, (name, r))| {
            format!(
                "{} {name} {} {} {}",
                i + 1,
                r.rating.round() as i64,
                r.deviation.round() as i64,
                r.games
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A puzzle as `puzzle` gives it, one line: `ID GAME SIZE pie on|off GOAL COLOUR rating R
/// setup ACTION...` (Quint: `pieces N` for `pie on|off`; GOAL `goal win N`, `goal defend N`
/// or `goal swap`; COLOUR the colour to move).
pub(super) fn offer(s: &Served) -> String {
    let p = &s.puzzle;
    let options = match p.setup.game {
        Game::Quint => format!("pieces {}", p.setup.pieces),
        _ => format!("pie {}", if p.setup.pie { "on" } else { "off" }),
    };
    let goal = match p.goal {
        Goal::Swap => "goal swap".to_string(),
        goal => format!("goal {goal} {}", p.depth),
    };
    let colour = p
        .position()
        .ok()
        .and_then(|pos| pos.to_move())
        .map_or("-", |c| c.name());
    format!(
        "{} {} {} {options} {goal} {colour} rating {} setup {}",
        p.id,
        p.setup.game.name(),
        p.setup.size,
        s.rating.rating.round() as i64,
        joined(&p.line)
    )
}

fn joined(actions: &[Action]) -> String {
    actions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `solve ID MOVE...`: `right REPLY`, `solved LAST rating R ±N puzzle P ±M [retry|unrated]` or
/// `wrong REFUTATION rating R ±N puzzle P ±M [retry|unrated] solution MOVE...` (`-` for no
/// reply; `unrated`: a first attempt whose solution was shown to the network block).
pub(super) fn solved(outcome: &Outcome) -> String {
    let dash = |a: &Option<Action>| a.map_or("-".to_string(), |a| a.to_string());
    let ratings = |rated: &Rated| {
        let retry = match (rated.first, rated.unrated) {
            (false, _) => " retry",
            (true, Some(_)) => " unrated",
            (true, None) => "",
        };
        format!(
            "rating {} {} puzzle {} {}{retry}",
            shown_puzzle_rating(&rated.player[1]),
            change(&rated.player[0], &rated.player[1]),
            rated.puzzle[1].rating.round() as i64,
            change(&rated.puzzle[0], &rated.puzzle[1]),
        )
    };
    match outcome {
        Outcome::Right { reply } => format!("right {reply}"),
        Outcome::Solved { reply, rated } => format!("solved {} {}", dash(reply), ratings(rated)),
        Outcome::Wrong {
            refutation,
            rated,
            solution,
        } => format!(
            "wrong {} {} solution {}",
            dash(refutation),
            ratings(rated),
            joined(solution)
        ),
    }
}

/// `solve ID MOVE...` in a Streak or a Storm: `right REPLY`, `solved LAST RUN` or `wrong
/// REFUTATION RUN solution MOVE...`, RUN the run's standing (`streak 3 best 5`, `storm 2:41
/// solved 6 missed 1 run 2 best 14`, `over` at its end).
pub(super) fn counted(counted: &Counted) -> String {
    let dash = |a: &Option<Action>| a.map_or("-".to_string(), |a| a.to_string());
    match counted {
        Counted::Right { reply } => format!("right {reply}"),
        Counted::Solved { reply, run } => format!("solved {} {run}", dash(reply)),
        Counted::Wrong {
            refutation,
            run,
            solution,
        } => format!(
            "wrong {} {run} solution {}",
            dash(refutation),
            joined(solution)
        ),
    }
}
