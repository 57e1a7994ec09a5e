//! `/puzzles`: the puzzle of the day of each game, shown and solvable in the page; and
//! `/puzzles/ID`: one puzzle, its answer checked by the server move by move against the proved
//! solution (the search crate's `answer::judge`), a wrong move answered with the reply that
//! refutes it, as the terminal's and the lobby's puzzles answer.
//!
//! Nothing is recorded: a visitor of the web is nobody, so no rating moves. A page's state is
//! all in its address (`?done=c3&move=e4`: the moves made before, the one made now), so that
//! any process of a cluster answers it, and a link shows what its sender saw. A move is made
//! by a click on its point (a link) or typed in the form (`swap`, a Quint step `h2-h3`).

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse as _, Response};
use quentin_app::app::goal_text;
use quentin_app::search::puzzles::answer::{self, Judged, LineError, REFUTATION_NODES, Refuted};
use quentin_app::search::puzzles::{Goal, Puzzle};
use quentin_rules::{Action, Color, Game, Point, Position};

use super::Web;
use super::board;
use super::page::{Keep, bad_request, escape, frame, html, not_found};
use crate::puzzles::{self, PuzzleRefusal, Served};
use crate::spec::shown;

/// The games whose puzzle of the day the page shows, in this order.
const GAMES: [Game; 4] = [Game::Quentin, Game::Konobi, Game::Brique, Game::Quint];
/// A day, in milliseconds: the puzzle of the day changes at midnight UTC.
const DAY_MS: i64 = 86_400_000;
/// The most moves an address may carry (no puzzle's side has as many).
const MOST_MOVES: usize = 40;

/// Where a puzzle stands on its page.
enum Stage {
    /// Not begun: the puzzle's position, its side to move.
    Fresh,
    /// Every move right so far; the next is awaited (`done` the side's moves).
    Going { done: Vec<Action>, reply: Action },
    /// Solved by `done`.
    Solved { done: Vec<Action> },
    /// `done`'s last move is wrong: the opponent's refutation, when one was proved.
    Wrong {
        done: Vec<Action>,
        refutation: Option<answer::Refutation>,
    },
    /// The move after `done` is not legal there: why; `done` stands, the move is awaited.
    Illegal {
        done: Vec<Action>,
        action: Action,
        why: String,
    },
    /// The solution, asked for.
    Solution,
}

/// `/puzzles`.
pub async fn daily(State(web): State<Web>, asked: HeaderMap) -> Response {
    let day = web.ctx.clock.now().0.div_euclid(DAY_MS);
    let mut body = String::from(
        "<h1>The puzzles of the day</h1>\n<p>One puzzle of each game a day, the same for \
         everyone: click a point to play it there, or type the move. The server checks each \
         move against the puzzle's proved solution.</p>\n",
    );
    let mut titles = Vec::new();
    for game in GAMES {
        match puzzles::daily(&web.ctx.hub, game, day).await {
            Ok(served) => {
                titles.push(served.puzzle.id.clone());
                section(&mut body, &served, &Stage::Fresh, 2);
            }
            Err(PuzzleRefusal::NoneLeft(_)) => {
                let _ = writeln!(
                    body,
                    "<h2>{}</h2>\n<p>This server has no {} puzzle.</p>",
                    game.title(),
                    game.title()
                );
            }
            Err(refusal) => return unavailable(&refusal),
        }
    }
    let description = format!("Today's puzzles: {}", titles.join(", "));
    html(
        &asked,
        Keep::Check,
        frame("The puzzles of the day", &description, &body),
    )
}

/// `/puzzles/ID[?done=MOVES&move=MOVE]` (`?solution` shows the solution).
pub async fn one(
    State(web): State<Web>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    asked: HeaderMap,
) -> Response {
    let served = match puzzles::one(&web.ctx.hub, &id).await {
        Ok(served) => served,
        Err(PuzzleRefusal::NoSuchPuzzle(_)) => {
            return not_found(&format!("no puzzle {}", shown(&id)));
        }
        Err(refusal) => return unavailable(&refusal),
    };
    let stage = if query.contains_key("solution") {
        Stage::Solution
    } else {
        let moves = match asked_moves(&query) {
            Ok(moves) => moves,
            Err(why) => return bad_request(&why),
        };
        let puzzle = served.puzzle.clone();
        // The refutation's solves take a moment of work: off the server's threads.
        match tokio::task::spawn_blocking(move || check(&puzzle, moves)).await {
            Ok(Ok(stage)) => stage,
            Ok(Err(why)) => return bad_request(&why),
            Err(_) => return unavailable(&PuzzleRefusal::Damaged(id, "not checked".into())),
        }
    };
    let p = &served.puzzle;
    let mut body = String::new();
    section(&mut body, &served, &stage, 1);
    let description = format!(
        "{} {}×{} puzzle: {}",
        p.setup.game.title(),
        p.setup.size,
        p.setup.size,
        side_of(p).map_or_else(String::new, |side| goal_text(p, side))
    );
    html(
        &asked,
        Keep::Check,
        frame(&format!("Puzzle {}", p.id), &description, &body),
    )
}

/// The moves an address carries: `done` (the side's moves made before, separated by spaces
/// or commas) then `move` (the one made now), each a record's action.
fn asked_moves(query: &HashMap<String, String>) -> Result<Vec<Action>, String> {
    let words = |key: &str| -> Vec<String> {
        query.get(key).map_or_else(Vec::new, |text| {
            text.split([' ', ','])
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect()
        })
    };
    let mut all = words("done");
    all.extend(words("move"));
    if all.len() > MOST_MOVES {
        return Err(format!("at most {MOST_MOVES} moves, not {}", all.len()));
    }
    all.iter()
        .map(|w| Action::parse(w).map_err(|e| format!("{} is not a move: {e}", shown(w))))
        .collect()
}

/// `moves`, the side's moves, judged: where the puzzle stands after them.
///
/// # Errors
/// More moves than the solution has, or a puzzle that does not replay: why.
fn check(puzzle: &Puzzle, moves: Vec<Action>) -> Result<Stage, String> {
    match answer::judge(puzzle, &moves) {
        Err(LineError::NoMove) => Ok(Stage::Fresh),
        Err(LineError::Illegal { at, action, why }) => Ok(Stage::Illegal {
            done: moves[..at].to_vec(),
            action,
            why,
        }),
        Err(e) => Err(e.to_string()),
        Ok(Judged::Right { reply }) => Ok(Stage::Going { done: moves, reply }),
        Ok(Judged::Solved { .. }) => Ok(Stage::Solved { done: moves }),
        Ok(Judged::Wrong { at, after }) => Ok(Stage::Wrong {
            refutation: answer::refutation(puzzle, at, &after, REFUTATION_NODES),
            done: moves[..=at].to_vec(),
        }),
    }
}

/// The side to move in the puzzle's position.
fn side_of(puzzle: &Puzzle) -> Option<Color> {
    puzzle.position().ok().and_then(|p| p.to_move())
}

/// The actions played on the board from the puzzle's position: the side's moves `done`, each
/// right one followed by the solution's reply (the last one's only when `replied`).
fn played(puzzle: &Puzzle, done: &[Action], replied: bool) -> Vec<Action> {
    let mut line = Vec::new();
    for (j, &m) in done.iter().enumerate() {
        line.push(m);
        let last = j + 1 == done.len();
        if m == puzzle.solution[2 * j]
            && (!last || replied)
            && let Some(&reply) = puzzle.solution.get(2 * j + 1)
        {
            line.push(reply);
        }
    }
    line
}

/// What the board shows at `stage`: the actions from the puzzle's position.
fn line_at(puzzle: &Puzzle, stage: &Stage) -> Vec<Action> {
    match stage {
        Stage::Fresh => Vec::new(),
        Stage::Going { done, .. } | Stage::Illegal { done, .. } => played(puzzle, done, true),
        Stage::Solved { done } => played(puzzle, done, true),
        Stage::Wrong { done, refutation } => {
            let mut line = played(puzzle, done, false);
            line.extend(refutation.map(|r| r.reply));
            line
        }
        Stage::Solution => puzzle.solution.clone(),
    }
}

/// The side's moves made before the one awaited, when a move is awaited.
fn awaiting(stage: &Stage) -> Option<&[Action]> {
    match stage {
        Stage::Fresh => Some(&[]),
        Stage::Going { done, .. } | Stage::Illegal { done, .. } => Some(done),
        Stage::Solved { .. } | Stage::Wrong { .. } | Stage::Solution => None,
    }
}

/// One puzzle's part of a page: its title (a heading of `level`), the task, the verdict, the
/// board (its points links while a move is awaited), the form, and the ways on.
fn section(body: &mut String, served: &Served, stage: &Stage, level: u8) {
    let p = &served.puzzle;
    let Ok(mut position) = p.position() else {
        let _ = writeln!(body, "<p>Puzzle {} cannot be read.</p>", escape(&p.id));
        return;
    };
    let side = position.to_move();
    let line = line_at(p, stage);
    for &a in &line {
        if position.play(a).is_err() {
            break;
        }
    }
    let base = format!("/puzzles/{}", escape(&p.id));
    let _ = writeln!(
        body,
        "<section class=\"puzzle\" data-puzzle=\"{id}\">\n<h{level}>{game}: <a href=\"{base}\">puzzle {id}</a></h{level}>\n\
         <p>{game} {size}×{size}, {options}, rated {rating}</p>",
        id = escape(&p.id),
        game = p.setup.game.title(),
        size = p.setup.size,
        options = options(p),
        rating = served.rating.rating.round() as i64,
    );
    if let Some(side) = side {
        let _ = writeln!(body, "<p class=\"goal\">{}</p>", escape(&task(p, side)));
    }
    let _ = writeln!(
        body,
        "<p class=\"verdict\">{}</p>",
        escape(&verdict(p, stage, side))
    );
    let awaited = awaiting(stage);
    let done_text = awaited.map(|done| words(done, " "));
    let link = |point: Point| -> Option<String> {
        let done = done_text.as_ref()?;
        // Every empty point: one the rules refuse is answered with their reason.
        position
            .get(point)
            .is_none()
            .then(|| escape(&move_link(&base, done, &point.to_string())))
    };
    let last = line.last().and_then(|a| a.point());
    let _ = writeln!(
        body,
        "<div class=\"board-wrap\">{}</div>",
        board::svg_linked(&position, last, &link)
    );
    if !line.is_empty() {
        let _ = writeln!(body, "<p>Played: {}.</p>", words(&line, ", "));
    }
    if let Some(done) = &done_text {
        form(body, &base, done, &position);
    }
    let _ = writeln!(
        body,
        "<p class=\"links\"><a href=\"{base}\">start again</a> · <a href=\"{base}?solution\">the solution</a> · \
         <a href=\"/puzzles\">the puzzles of the day</a></p>\n</section>"
    );
}

/// The form that sends the next move, with the moves made before; the legal actions that
/// are no point's (a swap, a pass) as links beside it.
fn form(body: &mut String, base: &str, done: &str, position: &Position) {
    let _ = writeln!(
        body,
        "<form method=\"get\" action=\"{base}\"><input type=\"hidden\" name=\"done\" value=\"{}\">\
         <label>Your move <input type=\"text\" name=\"move\" autocomplete=\"off\"></label> \
         <button type=\"submit\">Play</button></form>",
        escape(done)
    );
    let others: Vec<String> = position
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Swap | Action::Pass))
        .map(|a| {
            format!(
                "<a href=\"{}\">{a}</a>",
                escape(&move_link(base, done, &a.to_string()))
            )
        })
        .collect();
    if !others.is_empty() {
        let _ = writeln!(body, "<p>Or: {}</p>", others.join(" · "));
    }
}

/// The address that plays `action` after `done`.
fn move_link(base: &str, done: &str, action: &str) -> String {
    if done.is_empty() {
        format!("{base}?move={action}")
    } else {
        format!("{base}?done={}&move={action}", done.replace(' ', "+"))
    }
}

/// `actions` in record notation, joined by `sep`.
fn words(actions: &[Action], sep: &str) -> String {
    actions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// `pie rule off`, `pie rule on`, or Quint's pieces.
fn options(p: &Puzzle) -> String {
    match p.setup.game {
        Game::Quint => format!("{} pieces", p.setup.pieces),
        _ => format!("pie rule {}", if p.setup.pie { "on" } else { "off" }),
    }
}

/// The task, as the terminal says it (a swap's in the page's own words).
fn task(p: &Puzzle, side: Color) -> String {
    match p.goal {
        Goal::Swap => format!(
            "{} to move: swap or not (swap, or place a stone)",
            side.capitalised()
        ),
        Goal::Win | Goal::Defend => goal_text(p, side),
    }
}

/// The verdict on `stage`'s moves.
fn verdict(p: &Puzzle, stage: &Stage, side: Option<Color>) -> String {
    let opponent = side.map_or("The opponent", |s| s.opponent().capitalised());
    match stage {
        Stage::Fresh => "Your move.".to_string(),
        Stage::Going { reply, .. } => format!("Right. {opponent} replied {reply}. Your move."),
        Stage::Solved { done } => format!("Solved: {}. {}", words(done, ", "), achieved(p)),
        Stage::Wrong { done, refutation } => {
            let wrong = done.last().map_or_else(String::new, ToString::to_string);
            let reply = refutation.map_or_else(String::new, |r| refuted(opponent, side, r));
            format!("Not the move: {wrong} does not {}.{reply}", goal_verb(p))
        }
        Stage::Illegal { action, why, .. } => format!("{action} is not legal: {why}"),
        Stage::Solution => format!("The solution: {}.", words(&p.solution, ", ")),
    }
}

/// What a solved puzzle achieved.
fn achieved(p: &Puzzle) -> String {
    match p.goal {
        Goal::Win => format!("The win in {} is yours.", p.depth),
        Goal::Defend => "The threat is stopped.".to_string(),
        Goal::Swap => "The right choice: the win is kept.".to_string(),
    }
}

/// What a wrong move failed to do.
fn goal_verb(p: &Puzzle) -> String {
    match p.goal {
        Goal::Win => format!("win in {}", p.depth),
        Goal::Defend => "stop the threat".to_string(),
        Goal::Swap => "keep the win".to_string(),
    }
}

/// The refutation in words, as the terminal's puzzles say it: ` White replies a3: it wins
/// in 3.`
fn refuted(opponent: &str, side: Option<Color>, r: answer::Refutation) -> String {
    let side = side.map_or("You", Color::capitalised);
    let why = match r.why {
        Refuted::Wins(1) => "it wins at once".to_string(),
        Refuted::Wins(n) => format!("it wins in {n}"),
        Refuted::NoLongerWins(0) | Refuted::Ends => format!("{side} can no longer win"),
        Refuted::NoLongerWins(n) => format!("{side} no longer wins in {n}"),
    };
    format!(" {opponent} replies {}: {why}.", r.reply)
}

/// `503`: the store cannot answer now.
fn unavailable(refusal: &PuzzleRefusal) -> Response {
    tracing::warn!("the puzzles' page: {refusal}");
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "the puzzles cannot be read now; try again in a moment\n",
    )
        .into_response()
}
