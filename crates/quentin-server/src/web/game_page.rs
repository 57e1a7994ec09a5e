//! `/game/ID`: a game's page. The board as SVG, the players with their ratings, the clocks, the
//! moves (each a link to the board at that move: `/game/ID?ply=N`), the result as the terminal
//! says it, the watchers' count. A game under way updates by itself: its changing part comes
//! again from `/game/ID/live` (server-sent events) at each change, put in place by a few lines
//! of script; without script, the page is still whole, only not live.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use quentin_rules::{Action, Position};

use super::api::{game_id, keep_of};
use super::page::{escape, frame, html, not_found};
use super::{Web, board};
use crate::hub::GameView;
use crate::ids::{Millis, Seat};

/// The script of a live page: the changing part replaced at each event, nothing else.
pub(super) const LIVE: &str = "<script>\n\
    const live = document.getElementById('live');\n\
    const source = new EventSource(live.dataset.stream);\n\
    source.addEventListener('live', e => { live.innerHTML = e.data; });\n\
    </script>";

/// `/game/ID[?ply=N]`.
pub async fn game(
    State(web): State<Web>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    asked: HeaderMap,
) -> Response {
    let Some(view) = game_id(&id).and_then(|id| web.ctx.hub.game(id, web.ctx.clock.now())) else {
        return not_found(&format!("no game {}", shown(&id)));
    };
    let ply = query
        .get("ply")
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n <= view.actions.len());
    html(&asked, keep_of(&view), page(&view, ply))
}

/// A value of an address as a page quotes it: 40 characters at most.
fn shown(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The title of game `view`: `Game 12: ann vs bob, brique 15`.
#[must_use]
pub fn title(view: &GameView) -> String {
    format!(
        "Game {}: {} vs {}, {} {}",
        view.id, view.names[0], view.names[1], view.setup.game, view.setup.size
    )
}

/// The page of game `view`; at move `ply` when asked (a board of the past, not live).
fn page(view: &GameView, ply: Option<usize>) -> String {
    let description = match view.result_text() {
        Some(result) => result,
        None => format!("{} moves played, under way", view.actions.len()),
    };
    let mut body = format!("<h1>{}</h1>\n", escape(&title(view)));
    let following = ply.is_none() && view.result.is_none();
    if following {
        let _ = write!(
            body,
            "<div id=\"live\" data-stream=\"/game/{}/live\">{}</div>\n{LIVE}",
            view.id,
            live_at(view, None)
        );
    } else {
        let _ = write!(body, "<div id=\"live\">{}</div>", live_at(view, ply));
    }
    let _ = write!(
        body,
        "\n<p class=\"links\"><a href=\"/api/game/{id}\">JSON</a> · \
         <a href=\"/api/game/{id}.txt\">record</a></p>",
        id = view.id
    );
    frame(&title(view), &description, &body)
}

/// The changing part of a game's page as it stands now: what `/game/ID/live` sends.
#[must_use]
pub fn live(view: &GameView) -> String {
    live_at(view, None)
}

/// The changing part at move `ply` (the last when `None`): players, clocks, board, result,
/// moves, watchers.
fn live_at(view: &GameView, ply: Option<usize>) -> String {
    let shown = ply.unwrap_or(view.actions.len());
    let position = position_at(view, shown);
    let last = shown
        .checked_sub(1)
        .and_then(|n| view.actions.get(n))
        .and_then(|a| a.point());
    let mut out = players(view);
    out.push_str("<div class=\"board-wrap\">\n");
    out.push_str(&board::svg(&position, last));
    out.push_str("</div>\n");
    let status = match (view.result_text(), ply) {
        (_, Some(n)) if n < view.actions.len() => {
            format!("The board after move {n} of {}.", view.actions.len())
        }
        (Some(result), _) => result,
        (None, _) => format!("{} to move.", to_move(view)),
    };
    let _ = writeln!(out, "<p class=\"status\">{}</p>", escape(&status));
    out.push_str(&moves(view, shown));
    let _ = writeln!(out, "<p class=\"watchers\">{} watching</p>", view.watchers);
    out
}

/// The position after the first `n` actions, replayed by the rules from the setup.
fn position_at(view: &GameView, n: usize) -> Position {
    if n >= view.actions.len() {
        return view.position.clone();
    }
    let Ok(mut position) = view.setup.start() else {
        return view.position.clone();
    };
    for action in &view.actions[..n] {
        if position.play(*action).is_err() {
            break;
        }
    }
    position
}

/// Who moves now, by name.
fn to_move(view: &GameView) -> String {
    view.to_move
        .map_or_else(String::new, |seat| view.names[seat].clone())
}

/// The players, their colours (by shape and word), ratings and clocks.
fn players(view: &GameView) -> String {
    let mut out = String::from("<table class=\"players\">\n");
    for seat in Seat::BOTH {
        let color = view.color(seat).to_string();
        let turn = if view.to_move == Some(seat) {
            " class=\"turn\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr{turn}><td><span class=\"disc {color}\" title=\"{color}\"></span> {color}</td>\
             <td><a href=\"/player/{name}\">{name}</a></td><td>{rating}</td>\
             <td class=\"clock\">{clock}</td></tr>",
            name = escape(&view.names[seat]),
            rating = escape(&view.rating_text(seat)),
            clock = clock(view.left[seat]),
        );
    }
    out.push_str("</table>\n");
    out
}

/// Time left as a clock shows it: `4:05`, `1:02:03`, `2d 3h` by correspondence.
#[must_use]
pub fn clock(left: Millis) -> String {
    let s = left.whole_seconds().max(0);
    if s >= 86_400 {
        format!("{}d {}h", s / 86_400, (s % 86_400) / 3600)
    } else if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s % 3600) / 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The moves, numbered, each a link to the board after it; the one shown marked.
fn moves(view: &GameView, shown: usize) -> String {
    let mut out = String::from("<ol class=\"moves\">\n");
    for (i, action) in view.actions.iter().enumerate() {
        let n = i + 1;
        let here = if n == shown {
            " aria-current=\"step\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<li><a href=\"/game/{}?ply={n}\"{here}>{}</a></li>",
            view.id,
            escape(&word(*action))
        );
    }
    out.push_str("</ol>\n");
    out
}

/// An action as the record writes it.
fn word(action: Action) -> String {
    action.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_a_clock_shows_them() {
        assert_eq!(clock(Millis(245_000)), "4:05");
        assert_eq!(clock(Millis(3_723_000)), "1:02:03");
        assert_eq!(clock(Millis(2 * 86_400_000 + 3 * 3_600_000)), "2d 3h");
        assert_eq!(clock(Millis(-5)), "0:00");
    }
}
