//! The bot protocol's puzzle commands (docs/server.md): `puzzle [GAME]`, `puzzle ID`,
//! `puzzle rating`, `puzzle leaders`, and `solve ID MOVE...`, in the protocol's words.

use quentin_app::search::puzzles::Goal;
use quentin_rules::{Action, Game};

use super::super::Context;
use super::super::puzzles::{self, Outcome, PuzzleRefusal, Served, change, shown_puzzle_rating};
use super::super::spec::shown;
use super::Answer;

/// The most lines `puzzle leaders` gives.
pub const LEADERS: usize = 20;

/// `puzzle [GAME]`, `puzzle ID`, `puzzle rating`, `puzzle leaders`.
pub(super) async fn puzzle(ctx: &Context, me: i64, words: &[&str]) -> Answer {
    let usage = || "puzzle [GAME], puzzle ID, puzzle rating or puzzle leaders".to_string();
    let hub = &ctx.hub;
    let said = |r: PuzzleRefusal| r.to_string();
    match words {
        [] => puzzles::next(hub, me, None)
            .await
            .map(|s| offer(&s))
            .map_err(said),
        ["rating"] => {
            let r = puzzles::rating(hub, me).await.map_err(said)?;
            Ok(format!(
                "{} {} {}",
                shown_puzzle_rating(&r),
                r.deviation.round() as i64,
                r.games
            ))
        }
        ["leaders"] => {
            let rows = puzzles::leaders(hub, LEADERS).await.map_err(said)?;
            Ok(rows
                .iter()
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
                .join("\n"))
        }
        [word] => match Game::from_name(word) {
            Some(game) => puzzles::next(hub, me, Some(game))
                .await
                .map(|s| offer(&s))
                .map_err(said),
            None if word.contains('-') => puzzles::one(hub, word)
                .await
                .map(|s| offer(&s))
                .map_err(said),
            None => Err(format!(
                "no game {}: quentin, konobi, brique or quint; or {}",
                shown(word),
                usage()
            )),
        },
        _ => Err(usage()),
    }
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

/// `solve ID MOVE...`: `right REPLY`, `solved LAST rating R ±N puzzle P ±M [retry]` or `wrong
/// REFUTATION rating R ±N puzzle P ±M [retry] solution MOVE...` (`-` for no reply).
pub(super) async fn solve(ctx: &Context, me: i64, words: &[&str]) -> Answer {
    let usage = || "solve ID MOVE...".to_string();
    let (id, moves) = match words {
        [id, moves @ ..] if !moves.is_empty() => (*id, moves),
        _ => return Err(usage()),
    };
    let mut actions = Vec::with_capacity(moves.len());
    for (i, word) in moves.iter().enumerate() {
        let action = Action::parse(word)
            .map_err(|e| format!("illegal move: move {}, {}: {e}", i + 1, shown(word)))?;
        actions.push(action);
    }
    let outcome = puzzles::solve(&ctx.hub, me, id, &actions, ctx.clock.now())
        .await
        .map_err(|r| r.to_string())?;
    let dash = |a: Option<Action>| a.map_or("-".to_string(), |a| a.to_string());
    let ratings = |rated: &super::super::store::puzzles::Rated| {
        let retry = if rated.first { "" } else { " retry" };
        format!(
            "rating {} {} puzzle {} {}{retry}",
            shown_puzzle_rating(&rated.player[1]),
            change(&rated.player[0], &rated.player[1]),
            rated.puzzle[1].rating.round() as i64,
            change(&rated.puzzle[0], &rated.puzzle[1]),
        )
    };
    Ok(match outcome {
        Outcome::Right { reply } => format!("right {reply}"),
        Outcome::Solved { reply, rated } => format!("solved {} {}", dash(reply), ratings(&rated)),
        Outcome::Wrong {
            refutation,
            rated,
            solution,
            ..
        } => format!(
            "wrong {} {} solution {}",
            dash(refutation),
            ratings(&rated),
            joined(&solution)
        ),
    })
}
