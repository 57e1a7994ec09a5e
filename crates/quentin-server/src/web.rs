//! `quentin serve --web ADDR:PORT`: a read-only window onto the server for everyone without a
//! terminal (docs/web.md). Pages drawn on the server ([`pages`]; the puzzles of the day,
//! solvable, in [`puzzles`]), an HTTP API for tools
//! ([`api`]), a game's moves as they come ([`stream`]); everything read from the hub's views
//! and listings, as the SSH side reads them: the rules and records decide, the web only shows.
//!
//! Above the hub, the store and the shared [`Context`], beside `run/` which starts it; nothing
//! below imports from here. What it never shows: keys, fingerprints, addresses, the audit log,
//! marks (the views it reads hold none of them but the names).
//!
//! Each connection is bounded as the SSH side's are ([`bounds`]): places per network block and
//! in all, a deadline on the request's head, a request's size, a rate of requests per block,
//! and a number of live streams per block.

mod api;
mod board;
mod bounds;
mod game_page;
mod json;
mod page;
mod pages;
mod puzzles;
mod stream;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse as _, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::ServiceExt as _;

use crate::context::Context;
use crate::metrics::metrics;

pub use bounds::Bounds;

/// The longest a request's head may take to come.
const HEAD_TIME: Duration = Duration::from_secs(5);
/// The longest a request may take to be answered (a live stream excepted).
const ANSWER_TIME: Duration = Duration::from_secs(10);
/// The largest request head read.
const MOST_HEAD: usize = 8 * 1024;

/// What every handler reads: the server's context and the web's own bounds.
#[derive(Clone)]
pub(crate) struct Web {
    ctx: Arc<Context>,
    bounds: Arc<Bounds>,
}

/// The address of the client a request came from: never shown, only counted.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Peer(pub IpAddr);

/// Serves the web on `listener` until `stop` turns true.
pub async fn serve(ctx: Arc<Context>, listener: TcpListener, mut stop: watch::Receiver<bool>) {
    let web = Web {
        ctx,
        bounds: Arc::new(Bounds::default()),
    };
    let app = router(web.clone());
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.wait_for(|stop| *stop) => return,
        };
        let Ok((socket, peer)) = accepted else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        // One more from a full block, or past all places, is closed at once.
        let Some(place) = web.bounds.admit(peer.ip()) else {
            continue;
        };
        let app = app.clone();
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let _place = place;
            let service = hyper::service::service_fn(move |mut request: Request<_>| {
                request.extensions_mut().insert(Peer(peer.ip()));
                app.clone().oneshot(request.map(axum::body::Body::new))
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_TIME)
                .max_buf_size(MOST_HEAD)
                .serve_connection(TokioIo::new(socket), service);
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = async { let _ = stop.wait_for(|stop| *stop).await; } => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(1), connection).await;
                }
            }
        });
    }
}

/// Every route, with the rate per client, the deadline and the count by route and status.
fn router(web: Web) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/style.css", get(page::stylesheet))
        .route("/game/{id}", get(game_page::game))
        .route("/game/{id}/live", get(stream::page))
        .route("/player/{name}", get(pages::player))
        .route("/tournament/{id}", get(pages::tournament))
        .route("/tournament/{id}/live", get(stream::tournament))
        .route("/puzzles", get(puzzles::daily))
        .route("/puzzles/{id}", get(puzzles::one))
        .route("/api/game/{id}", get(api::game))
        .route("/api/games/player/{name}", get(api::games_of))
        .route("/api/tournament/{id}", get(api::tournament))
        .route("/api/stream/game/{id}", get(stream::game))
        .fallback(page::not_found_route)
        .layer(middleware::from_fn_with_state(web.clone(), bounded))
        .with_state(web)
}

/// The rate of requests per client (429 past it), the deadline of an answer (a stream's
/// head only), and the count of each answer by route and status.
async fn bounded(State(web): State<Web>, request: Request, next: Next) -> Response {
    let route = route_of(request.uri().path());
    let peer = request.extensions().get::<Peer>().map(|p| p.0);
    let response = if peer.is_some_and(|p| !web.bounds.take(p)) {
        page::too_many()
    } else {
        match tokio::time::timeout(ANSWER_TIME, next.run(request)).await {
            Ok(response) => response,
            Err(_) => (axum::http::StatusCode::SERVICE_UNAVAILABLE, "too slow\n").into_response(),
        }
    };
    metrics()
        .web_requests
        .with_label_values(&[route, response.status().as_str()])
        .inc();
    response
}

/// The route a path is counted under: its pattern, never its ids (so the series stay few).
fn route_of(path: &str) -> &'static str {
    let routes: [(&str, &'static str); 9] = [
        ("/api/games/player/", "/api/games/player/NAME"),
        ("/api/stream/game/", "/api/stream/game/ID"),
        ("/api/tournament/", "/api/tournament/ID"),
        ("/api/game/", "/api/game/ID"),
        (
            "/game/",
            if path.ends_with("/live") {
                "/game/ID/live"
            } else {
                "/game/ID"
            },
        ),
        ("/player/", "/player/NAME"),
        (
            "/tournament/",
            if path.ends_with("/live") {
                "/tournament/ID/live"
            } else {
                "/tournament/ID"
            },
        ),
        ("/style.css", "/style.css"),
        ("/puzzles/", "/puzzles/ID"),
    ];
    match path {
        "/" => return "/",
        "/puzzles" => return "/puzzles",
        _ => {}
    }
    routes
        .iter()
        .find(|(prefix, _)| path.starts_with(prefix))
        .map_or("other", |(_, route)| route)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_is_counted_by_its_pattern_not_its_ids() {
        assert_eq!(route_of("/"), "/");
        assert_eq!(route_of("/game/12"), "/game/ID");
        assert_eq!(route_of("/api/game/12.txt"), "/api/game/ID");
        assert_eq!(route_of("/api/games/player/ann"), "/api/games/player/NAME");
        assert_eq!(route_of("/puzzles"), "/puzzles");
        assert_eq!(route_of("/puzzles/konobi-0003"), "/puzzles/ID");
        assert_eq!(route_of("/wp-admin"), "other");
    }
}
