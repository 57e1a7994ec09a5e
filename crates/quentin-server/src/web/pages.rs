//! The pages besides a game's: `/` (the games being played, the open tournaments, the
//! leaderboards per game and size class, the message of the day), `/player/NAME` (ratings,
//! recent games, tournaments; a banned player's says only that the account is closed) and
//! `/tournament/ID` (settings, status, standings with the tie-breaks named, crosstable, the
//! rounds' games; live while it is open or running, as a game's page is).

use std::fmt::Write as _;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;

use super::api::{Closed, player as named, tournament_id};
use super::json::tiebreak_names;
use super::page::{Keep, escape, frame, html, not_found};
use super::{Web, game_page};
use crate::hub::{GameView, TournamentView, shown_rating};
use crate::tournament::standings::result_word;
use crate::tournament::{Status, points};

/// Games listed on a page, at most.
const LISTED: usize = 50;

/// A line of a list of games: its link, players and result or state.
fn game_line(view: &GameView) -> String {
    let state = view
        .result_text()
        .unwrap_or_else(|| format!("{} moves, under way", view.actions.len()));
    format!(
        "<li><a href=\"/game/{id}\">Game {id}</a>: {a} ({ra}) vs {b} ({rb}), {game} {size} — {state}</li>\n",
        id = view.id,
        a = escape(&view.names[0]),
        b = escape(&view.names[1]),
        ra = escape(&view.rating_text(crate::ids::Seat::First)),
        rb = escape(&view.rating_text(crate::ids::Seat::Second)),
        game = view.setup.game,
        size = view.setup.size,
        state = escape(&state),
    )
}

/// `/`.
pub async fn home(State(web): State<Web>, asked: HeaderMap) -> Response {
    let ctx = &web.ctx;
    let now = ctx.clock.now();
    let mut body = String::from("<h1>quentin</h1>\n");
    for line in &ctx.access.lists().motd {
        let _ = writeln!(body, "<p class=\"motd\">{}</p>", escape(line));
    }
    body.push_str("<h2>Games being played</h2>\n<ul>\n");
    let live = ctx.hub.live_games(now, LISTED);
    for view in &live {
        body.push_str(&game_line(view));
    }
    body.push_str("</ul>\n<h2>Tournaments</h2>\n<ul>\n");
    for t in ctx.hub.tournaments(now).iter().take(LISTED) {
        let _ = writeln!(
            body,
            "<li><a href=\"/tournament/{id}\">{id}</a>: {kind} {game} {size}, {status}, {n}/{max}</li>",
            id = t.id,
            kind = t.settings.kind,
            game = t.settings.spec.setup.game,
            size = t.settings.spec.setup.size,
            status = t.status,
            n = t.entrants.len(),
            max = t.settings.max,
        );
    }
    body.push_str("</ul>\n<h2>Leaderboards</h2>\n<table class=\"leaders\">\n");
    for s in ctx.hub.leaderboard(10) {
        let _ = writeln!(
            body,
            "<tr><td>{} {}</td><td><a href=\"/player/{name}\">{name}</a></td><td>{}</td></tr>",
            s.game,
            s.class,
            s.rating,
            name = escape(&s.name)
        );
    }
    body.push_str("</table>\n");
    let description = format!("{} games being played", live.len());
    html(&asked, Keep::Check, frame("quentin", &description, &body))
}

/// `/player/NAME`.
pub async fn player(
    State(web): State<Web>,
    Path(name): Path<String>,
    asked: HeaderMap,
) -> Response {
    let id = match named(&web, &name) {
        Ok(id) => id,
        Err(Closed::Unknown) => {
            let shown: String = name.chars().take(40).collect();
            return not_found(&format!("no player {shown}"));
        }
        Err(Closed::Banned) => {
            let body = "<h1>Account closed</h1>\n<p>This account is closed.</p>";
            return html(
                &asked,
                Keep::Check,
                frame("Account closed", "This account is closed.", body),
            );
        }
    };
    let ctx = &web.ctx;
    let name = ctx.hub.name(id).unwrap_or(name);
    let now = ctx.clock.now();
    let mut body = format!("<h1>{}</h1>\n<h2>Ratings</h2>\n<table>\n", escape(&name));
    // Every rating, the provisional ones too, written as the screens write them (`1512?`).
    for s in ctx.hub.ratings_of(id) {
        let _ = writeln!(
            body,
            "<tr><td>{} {}</td><td>{}</td><td>{} game{}</td></tr>",
            s.game,
            s.class,
            shown_rating(s.rating, s.provisional),
            s.games,
            if s.games == 1 { "" } else { "s" }
        );
    }
    body.push_str("</table>\n<h2>Recent games</h2>\n<ul>\n");
    for view in ctx.hub.games_of(id, now, LISTED) {
        body.push_str(&game_line(&view));
    }
    body.push_str("</ul>\n<h2>Tournaments</h2>\n<ul>\n");
    for t in ctx.hub.tournaments(now) {
        if t.entrants.contains(&name) {
            let _ = writeln!(
                body,
                "<li><a href=\"/tournament/{id}\">{id}</a>: {} {}, {}</li>",
                t.settings.kind,
                t.settings.spec.setup.game,
                t.status,
                id = t.id
            );
        }
    }
    body.push_str("</ul>\n");
    let description = format!("{name}'s ratings and games");
    html(&asked, Keep::Check, frame(&name, &description, &body))
}

/// `/tournament/ID`.
pub async fn tournament(
    State(web): State<Web>,
    Path(id): Path<String>,
    asked: HeaderMap,
) -> Response {
    let Some(view) =
        tournament_id(&id).and_then(|t| web.ctx.hub.tournament(t, web.ctx.clock.now()))
    else {
        let shown: String = id.chars().take(40).collect();
        return not_found(&format!("no tournament {shown}"));
    };
    let title = format!(
        "Tournament {}: {} {} {}",
        view.id, view.settings.kind, view.settings.spec.setup.game, view.settings.spec.setup.size
    );
    let description = format!(
        "{}, round {} of {}, {} players",
        view.status,
        view.round,
        view.rounds,
        view.entrants.len()
    );
    let mut body = format!(
        "<h1>{}</h1>\n<p>{}; clock {}, {}; created by {}.</p>\n",
        escape(&title),
        escape(&description),
        view.settings.spec.clock,
        if view.settings.spec.rated {
            "rated"
        } else {
            "casual"
        },
        escape(&view.creator)
    );
    if matches!(view.status, Status::Open | Status::Running) {
        let _ = write!(
            body,
            "<div id=\"live\" data-stream=\"/tournament/{}/live\">{}</div>\n{}",
            view.id,
            tournament_live(&view),
            game_page::LIVE
        );
    } else {
        body.push_str(&tournament_live(&view));
    }
    html(&asked, Keep::Check, frame(&title, &description, &body))
}

/// The changing part of a tournament's page: its status, the standings, the crosstable, the
/// rounds' games; what `/tournament/ID/live` sends at each change.
#[must_use]
pub fn tournament_live(view: &TournamentView) -> String {
    let mut out = format!(
        "<p class=\"status\">{}, round {} of {}.</p>\n",
        view.status, view.round, view.rounds
    );
    out.push_str(&standings(view));
    out.push_str(&games(view));
    out
}

/// The standings with the tie-breaks named, then the crosstable.
fn standings(view: &TournamentView) -> String {
    let names = tiebreak_names(view.settings.kind);
    let mut out = String::from(
        "<h2>Standings</h2>\n<table class=\"standings\">\n<tr><th>#</th><th>Player</th><th>Points</th>",
    );
    for n in names {
        let _ = write!(out, "<th>{n}</th>");
    }
    out.push_str("</tr>\n");
    for (standing, name) in &view.standings {
        let _ = write!(
            out,
            "<tr><td>{}</td><td><a href=\"/player/{name}\">{name}</a></td><td>{}</td>",
            standing.rank,
            points(standing.halves),
            name = escape(name)
        );
        for t in &standing.tiebreaks {
            let _ = write!(out, "<td>{t}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n<h2>Crosstable</h2>\n<table class=\"crosstable\">\n");
    for (row, (_, name)) in view.crosstable.iter().zip(&view.standings) {
        let _ = write!(out, "<tr><th>{}</th>", escape(name));
        for cell in row {
            let _ = write!(out, "<td>{}</td>", escape(cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

/// The rounds' games, each a link.
fn games(view: &TournamentView) -> String {
    let mut out = String::from("<h2>Games</h2>\n<ul>\n");
    for g in &view.games {
        let line = match (&g.second, g.game) {
            (Some(second), Some(id)) => format!(
                "round {}: <a href=\"/game/{id}\">{} vs {}</a> {}",
                g.round,
                escape(&g.first),
                escape(second),
                result_word(g.result)
            ),
            _ => format!("round {}: {} has a bye", g.round, escape(&g.first)),
        };
        let _ = writeln!(out, "<li>{line}</li>");
    }
    out.push_str("</ul>\n");
    out
}
