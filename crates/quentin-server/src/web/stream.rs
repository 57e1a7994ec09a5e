//! A game followed live: `/api/stream/game/ID` (NDJSON, or server-sent events when the client
//! accepts `text/event-stream`) gives the game, then each move as it comes, the watchers'
//! count when it changes, and the result, then ends; `/game/ID/live` gives a game page's
//! changing part, drawn again at each change, as server-sent events; `/tournament/ID/live` a
//! tournament page's (its standings after each game, each round), until it is over. Each
//! stream is counted in the metrics and bounded per network block; a game's, among its
//! watchers.

use std::convert::Infallible;
use std::time::Duration;

use axum::Extension;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse as _, Response};
use futures_util::stream::{self, Stream, StreamExt as _};
use quentin_rules::Action;
use serde_json::{Value, json};
use tokio::sync::watch;

use super::bounds::Place;
use super::page::api_not_found;
use super::{Peer, Web, api, game_page, json as game_json, pages};
use crate::hub::{GameView, Watching};
use crate::ids::{GameId, Seat, TournamentId};
use crate::metrics::metrics;
use crate::tournament::Status;

/// How often a quiet stream says it is still there.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A stream counted open: in the metrics, among the game's watchers, in its block's share.
struct Counted {
    _place: Place,
    _watching: Option<Watching>,
}

impl Counted {
    fn new(place: Place, watching: Option<Watching>) -> Counted {
        metrics().web_streams.inc();
        Counted {
            _place: place,
            _watching: watching,
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        metrics().web_streams.dec();
    }
}

/// A game followed: its news, and whether its first view or its end was given.
struct Follow {
    web: Web,
    id: GameId,
    news: watch::Receiver<u64>,
    first: bool,
    over: bool,
    _counted: Counted,
}

/// The views of game `id`: as it stands, then again at each change, the last one its end.
fn views(follow: Follow) -> impl Stream<Item = GameView> {
    stream::unfold(follow, |mut f| async move {
        if f.over {
            return None;
        }
        if f.first {
            f.first = false;
        } else {
            f.news.changed().await.ok()?;
        }
        let view = f.web.ctx.hub.game(f.id, f.web.ctx.clock.now())?;
        f.over = view.result.is_some();
        Some((view, f))
    })
}

/// Starts following game `id` for `peer`: the answer to give instead when there is no such
/// game or the block has its share of streams.
fn follow(web: &Web, id: &str, peer: Peer) -> Result<Follow, Response> {
    let Some(id) = api::game_id(id) else {
        return Err(api_not_found("no such game"));
    };
    let Ok(news) = web.ctx.hub.watch_game(id) else {
        return Err(api_not_found(&format!("no game {id}")));
    };
    let Some(place) = web.bounds.stream(peer.0) else {
        return Err((
            StatusCode::TOO_MANY_REQUESTS,
            "too many live streams from one network\n",
        )
            .into_response());
    };
    let watching = web.ctx.hub.watching_unnamed(id);
    Ok(Follow {
        web: web.clone(),
        id,
        news,
        first: true,
        over: false,
        _counted: Counted::new(place, watching),
    })
}

/// What a client was told of a game so far.
#[derive(Default)]
struct Told {
    actions: Option<Vec<Action>>,
    watchers: Option<usize>,
}

/// What changed since `told`, as the stream's lines: the whole game first (and again after a
/// takeback), then a line a move, the watchers' count, the result.
fn lines(told: &mut Told, view: &GameView) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    let clocks = [view.left[Seat::First].0, view.left[Seat::Second].0];
    match &told.actions {
        Some(before) if view.actions.starts_with(before) => {
            for (ply, action) in view.actions.iter().enumerate().skip(before.len()) {
                out.push((
                    "move",
                    json!({"type": "move", "ply": ply + 1, "move": action.to_string(), "clocks": clocks}),
                ));
            }
        }
        _ => {
            let mut game = game_json::game(view);
            game["type"] = json!("game");
            out.push(("game", game));
            told.watchers = Some(view.watchers);
        }
    }
    told.actions = Some(view.actions.clone());
    if told.watchers != Some(view.watchers) {
        told.watchers = Some(view.watchers);
        out.push((
            "watchers",
            json!({"type": "watchers", "watchers": view.watchers}),
        ));
    }
    if view.result.is_some() {
        out.push((
            "result",
            json!({"type": "result", "result": view.result_words(), "result_text": view.result_text()}),
        ));
    }
    out
}

/// `/api/stream/game/ID`.
pub async fn game(
    State(web): State<Web>,
    Path(id): Path<String>,
    Extension(peer): Extension<Peer>,
    asked: HeaderMap,
) -> Response {
    let follow = match follow(&web, &id, peer) {
        Ok(follow) => follow,
        Err(response) => return response,
    };
    let changes = views(follow).scan(Told::default(), |told, view| {
        std::future::ready(Some(lines(told, &view)))
    });
    let events = asked
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"));
    if events {
        let events = changes.flat_map(|lines| {
            stream::iter(lines.into_iter().map(|(kind, line)| {
                Ok::<_, Infallible>(Event::default().event(kind).data(line.to_string()))
            }))
        });
        return Sse::new(events)
            .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
            .into_response();
    }
    let body = changes.map(|lines| {
        let text: String = lines.into_iter().map(|(_, l)| format!("{l}\n")).collect();
        Ok::<_, Infallible>(text)
    });
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(body),
    )
        .into_response()
}

/// `/game/ID/live`: the page's changing part, drawn again at each change.
pub async fn page(
    State(web): State<Web>,
    Path(id): Path<String>,
    Extension(peer): Extension<Peer>,
) -> Response {
    let follow = match follow(&web, &id, peer) {
        Ok(follow) => follow,
        Err(response) => return response,
    };
    let events = views(follow).map(|view| {
        Ok::<_, Infallible>(Event::default().event("live").data(game_page::live(&view)))
    });
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}

/// A tournament followed: the lobby's news (every tournament change is one), what was sent
/// last, and whether it is over.
struct Standing {
    web: Web,
    id: TournamentId,
    news: watch::Receiver<u64>,
    sent: Option<String>,
    over: bool,
    _counted: Counted,
}

/// `/tournament/ID/live`: the page's changing part, sent first and again whenever it changes,
/// the last time when the tournament is over or cancelled.
pub async fn tournament(
    State(web): State<Web>,
    Path(id): Path<String>,
    Extension(peer): Extension<Peer>,
) -> Response {
    let now = web.ctx.clock.now();
    let Some(id) = api::tournament_id(&id).filter(|&t| web.ctx.hub.tournament(t, now).is_some())
    else {
        return api_not_found("no such tournament");
    };
    let Some(place) = web.bounds.stream(peer.0) else {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            "too many live streams from one network\n",
        )
            .into_response();
    };
    let standing = Standing {
        news: web.ctx.hub.watch_lobby(),
        web,
        id,
        sent: None,
        over: false,
        _counted: Counted::new(place, None),
    };
    let events = stream::unfold(standing, |mut s| async move {
        loop {
            if s.over {
                return None;
            }
            if s.sent.is_some() {
                s.news.changed().await.ok()?;
            }
            let view = s.web.ctx.hub.tournament(s.id, s.web.ctx.clock.now())?;
            s.over = !matches!(view.status, Status::Open | Status::Running);
            let part = pages::tournament_live(&view);
            if s.sent.as_ref() != Some(&part) {
                s.sent = Some(part.clone());
                let event = Event::default().event("live").data(part);
                return Some((Ok::<_, Infallible>(event), s));
            }
        }
    });
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}
