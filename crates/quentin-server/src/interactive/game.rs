//! A game on a player's terminal, played or watched: the game's own app and renderer, fed the
//! hub's committed game and the player's keys, its requests carried out by the hub.
//!
//! A screen is drawn again only when something it shows changed: the game's news, a key of
//! its own, or the moment the running clock's text changes (each second of a live clock, each
//! hour of a correspondence one, looked at each second in case the clock jumped); never on a
//! tick with nothing new. A watcher's screen draws
//! at most one frame each [`WATCHER_FRAME`], and none while its last frame waits for the
//! client: what it draws then is the latest state, the states between never drawn.

use std::time::Duration;

use tokio::time::Instant;

use quentin_app::app::{App, Effect, Input as AppInput, Look, Online, Request};
use quentin_app::input::Event;
use quentin_app::layout::Geometry;
use quentin_app::render;
use quentin_record::game_line::GameLine;

use super::super::Context;
use super::super::channel::Inbox;
use super::super::hub::{GameView, Rematch};
use super::super::reviews::Reviewer;
use super::{CLOCK_TICK, Next, Screen};

/// The shortest time between two frames of a watcher's screen: a game played fast is shown
/// to its watchers ten times a second at most, each frame its latest state.
pub const WATCHER_FRAME: Duration = Duration::from_millis(100);

/// How long until the text of a clock with `left` milliseconds changes (`9:58` each second,
/// `2 d 03 h` each hour, as `render::clock_text` writes it), or its `low time!` mark
/// (below `low`) comes; `None` for a clock at 0, which changes no more.
fn until_shown_changes(left: i64, low: i64) -> Option<i64> {
    if left <= 0 {
        return None;
    }
    let unit = if left >= 86_400_000 { 3_600_000 } else { 1_000 };
    let text = left % unit + 1;
    Some(if left >= low {
        text.min(left - low + 1)
    } else {
        text
    })
}

/// How long until what `view` shows of time changes: the running clock, or the timer of a
/// first move; `None` when no clock runs.
fn next_change(view: &GameView) -> Option<Duration> {
    if view.result.is_some() {
        return None;
    }
    let ms = match (view.first_move, view.to_move) {
        (Some(first), _) => until_shown_changes(first, 0),
        (None, Some(seat)) => until_shown_changes(view.left[seat], view.clock.low_ms()),
        (None, None) => None,
    }?;
    // Looked at each second at least: a clock that jumps (the host's, or a test's) is seen.
    Some(Duration::from_millis(
        u64::try_from(ms).unwrap_or(1).min(1_000),
    ))
}

/// What a screen shows of time: each clock's text, its `low time!` mark, a first move's timer.
fn shown_time(view: &GameView) -> (Vec<String>, Option<String>) {
    let low = view.clock.low_ms();
    let clocks = (0..2)
        .map(|seat| {
            let running = view.to_move == Some(seat) && view.result.is_none();
            let mark = if running && view.left[seat] < low {
                "!"
            } else {
                ""
            };
            format!("{}{mark}", render::clock_text(view.left[seat]))
        })
        .collect();
    (clocks, view.first_move.map(render::clock_text))
}

fn online_of(view: &GameView, me: i64) -> Online {
    Online {
        seat: view.seat(me),
        names: view.names.clone(),
        ratings: [0, 1].map(|seat| view.rating_text(seat)),
        changes: view.changes,
        clock: view.clock.to_string(),
        left: view.left,
        low: view.clock.low_ms(),
        running: view.to_move,
        rated: view.rated,
        result: view.finish(),
        takeback: view.takeback,
        first_move: view.first_move,
        rematch: view.rematch,
        connected: view.connected,
        watchers: view.watchers,
    }
}

/// A game, played or watched, until the player goes back to the lobby.
pub(super) async fn game_screen(
    ctx: &Context,
    me: &(i64, String),
    id: i64,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Next {
    let (Ok(mut news), Some(view)) = (ctx.hub.watch_game(id), ctx.hub.game(id, ctx.clock.now()))
    else {
        return Next::Lobby;
    };
    let look = Look {
        ascii: false,
        color: screen.color,
    };
    let mut app = app_of(&view, me.0, look);
    if ctx.reviews.on() && view.seat(me.0).is_some() {
        app.allow_reviews();
    }
    // Counted among the game's watchers while the screen is open, when not a player of it.
    let watcher = view.seat(me.0).is_none();
    let _watching = ctx.hub.watching(id, me.0);
    // Only a review in progress is drawn on a beat of its own (its search's news).
    let mut tick = tokio::time::interval(CLOCK_TICK);
    let mut side = Side::default();
    let mut change_in = next_change(&view);
    // What the last frame showed of time, and when it was drawn; whether the last wait ended
    // on the clock alone (no news, no key, no review).
    let mut shown = None;
    let mut drawn_at = Instant::now();
    let mut clock_only = false;
    loop {
        // News come since the last wait (which, woken by the clock, did not take them).
        let fresh = news.has_changed().unwrap_or(true);
        news.borrow_and_update();
        // The review's news first, as the terminal's loop gives the search's.
        if let Some(searched) = side.reviewer.news(&ctx.reviews, me.0, &mut app)
            && let Carried::Leave = carry_out(ctx, me.0, id, &mut app, searched, &mut side).await
        {
            return Next::Lobby;
        }
        let mut unchanged = false;
        if let Some(view) = ctx.hub.game(id, ctx.clock.now()) {
            change_in = next_change(&view);
            let time = shown_time(&view);
            unchanged = clock_only && !fresh && shown.as_ref() == Some(&time);
            shown = Some(time);
            // A rematch both players asked for: its game opens at once, for its players.
            if let (Some(Rematch::Started(next)), Some(_)) = (view.rematch_state, view.seat(me.0))
                && side.asked_rematch
            {
                return Next::Game(next);
            }
            let server = AppInput::Server(view.actions.clone(), Box::new(online_of(&view, me.0)));
            match carry_out(ctx, me.0, id, &mut app, server, &mut side).await {
                Carried::Leave => return Next::Lobby,
                // What was sent comes back in the hub's game: read it before drawing.
                Carried::Sent => continue,
                Carried::Nothing => {}
            }
        }
        // Woken by the clock when its text had not changed yet: nothing to draw.
        if !unchanged {
            let mut geometry = Geometry::default();
            if !screen
                .draw(|area, buf| geometry = render::draw(&app, area, buf))
                .await
            {
                return Next::Quit;
            }
            drawn_at = Instant::now();
            if let Carried::Leave = carry_out(
                ctx,
                me.0,
                id,
                &mut app,
                AppInput::Drawn(geometry),
                &mut side,
            )
            .await
            {
                return Next::Lobby;
            }
        }
        let beat = side.reviewer.busy().then_some(&mut tick);
        let Some((mut events, clock)) = screen.wait(input, &mut news, change_in, beat).await else {
            return Next::Quit;
        };
        clock_only = clock;
        // A watcher's next frame waits its turn (news of several moves make one frame) and
        // for the client to take the last; a key of its own is answered meanwhile.
        if watcher && events.is_empty() {
            let Some(typed) = screen.settle(input, drawn_at + WATCHER_FRAME).await else {
                return Next::Quit;
            };
            events = typed;
        }
        clock_only &= events.is_empty();
        if let Some(next) = feed(ctx, me.0, id, &mut app, events, &mut side).await {
            return next;
        }
    }
}

/// The app of game `view` for player `me` (a watcher when not one of its players).
fn app_of(view: &GameView, me: i64, look: Look) -> App {
    let start = view.setup.start().unwrap_or_else(|_| view.position.clone());
    // The hub commits only what the rules accept; were it otherwise, the board shows the game
    // up to the refused action.
    let line = GameLine::replay(start, &view.actions).unwrap_or_else(|stopped| stopped.line);
    App::online(line, online_of(view, me), look)
}

/// Feeds `events` to the game's app one by one, each one's effects carried out before the
/// next event (a move typed just before `q` still reaches the server); where the screen goes
/// when the player leaves it.
async fn feed(
    ctx: &Context,
    me: i64,
    id: i64,
    app: &mut App,
    events: Vec<Event>,
    side: &mut Side,
) -> Option<Next> {
    for event in events {
        if let Carried::Leave = carry_out(ctx, me, id, app, AppInput::Event(event), side).await {
            return Some(Next::Lobby);
        }
    }
    None
}

/// What a game screen keeps beside its app: whether this session asked for a rematch (only
/// then does the rematch's game open here), and the review the server runs for it.
#[derive(Default)]
struct Side {
    asked_rematch: bool,
    reviewer: Reviewer,
}

/// What carrying out the app's effects came to.
enum Carried {
    /// Nothing for the session to follow up.
    Nothing,
    /// A request went to the hub.
    Sent,
    /// The player leaves the game for the lobby.
    Leave,
}

/// Steps the game's app with `input` and carries out every effect it asks for, in order:
/// requests go to the hub (a refusal is said on the screen).
async fn carry_out(
    ctx: &Context,
    me: i64,
    id: i64,
    app: &mut App,
    input: AppInput,
    side: &mut Side,
) -> Carried {
    let mut carried = Carried::Nothing;
    for effect in app.step(input) {
        match effect {
            Effect::Send(request) => {
                let now = ctx.clock.now();
                let done = match request {
                    Request::Play(action) => ctx.hub.play(me, id, action, now).await,
                    Request::Resign => ctx.hub.resign(me, id, now).await,
                    Request::Takeback => ctx.hub.takeback(me, id, now).await.map(|_| ()),
                    Request::Decline => {
                        let rematch = ctx
                            .hub
                            .game(id, now)
                            .is_some_and(|v| v.finish().is_some() && v.rematch.is_some());
                        if rematch {
                            ctx.hub.decline_rematch(me, id)
                        } else {
                            ctx.hub.decline_takeback(me, id, now).await
                        }
                    }
                    Request::Abort => ctx.hub.abort(me, id, now).await,
                    Request::Rematch => {
                        side.asked_rematch = true;
                        ctx.hub.rematch(me, id, now).await.map(|_| ())
                    }
                };
                if let Err(refusal) = done {
                    app.warn(format!("The server refused: {refusal}."));
                }
                carried = Carried::Sent;
            }
            Effect::Quit => return Carried::Leave,
            Effect::None => {}
            // An online app's line changes only by what the hub committed, which the store has
            // saved already: its keys send requests instead of playing, and a new game or
            // playing on is refused online. It never asks to save.
            Effect::Save | Effect::NewRecord => {}
            // The one search an online app asks for is the review of a finished game, when
            // the server runs reviews (`App::allow_reviews`).
            Effect::Search(order) => side.reviewer.obey(&ctx.reviews, me, order, app),
            // The player's terminal is the ssh client's: the server has no terminal to give
            // back, and cannot stop the client (its own escape, `~^Z`, does).
            Effect::Suspend => {}
            // Only the puzzle mode's app (`App::puzzle`) tells of puzzles: an online game's
            // never does.
            Effect::Puzzle(_) => {}
            // A local game's `P`: an online app warns instead of asking.
            Effect::Puzzles(_) => {}
        }
    }
    carried
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::Limits;
    use crate::clock::Clock;
    use crate::gate::{Bounds, Gate};
    use crate::hub::{Hub, HubLimits};
    use crate::spec::Spec;
    use crate::store::Sqlite;
    use quentin_app::input::{KeyCode, KeyEvent};

    /// A server's shared state on a fresh store in `dir`.
    fn context(dir: &std::path::Path) -> Context {
        let store = Sqlite::open(&dir.join("server.db")).unwrap();
        Context {
            hub: Hub::open(store, HubLimits::default(), 0).unwrap(),
            clock: Clock::new(),
            limits: Limits {
                max_sessions: 4,
                sessions_per_key: 2,
                idle: Duration::from_secs(60),
                login_grace: Duration::from_secs(20),
            },
            gate: Gate::new(Bounds {
                max_startups: 4,
                startups_per_address: 4,
                max_sessions: 4,
                sessions_per_key: 2,
                login_grace: Duration::from_secs(20),
            }),
            connections: std::sync::atomic::AtomicUsize::new(0),
            stop: tokio::sync::watch::channel(false).0,
            cut_all: tokio::sync::watch::channel(false).0,
            closed: tokio::sync::Notify::new(),
            reviews: crate::reviews::Reviews::new(1),
            access: crate::access::Access::load(Default::default()).unwrap(),
            moderation: crate::moderation::watch::Moderation::new(
                crate::moderation::Ledger::sqlite(&dir.join("server.db")).unwrap(),
            ),
            signups: crate::signup::Signups::new(20),
            watchers: None,
        }
    }

    /// A screen is woken when the text of the running clock changes, not before: the next
    /// second of a live clock, the next hour of a correspondence one, the moment `low time!`
    /// comes; a clock at 0 wakes nothing more.
    #[test]
    fn the_clock_wakes_a_screen_when_its_text_changes() {
        assert_eq!(until_shown_changes(59_999, 10_000), Some(1_000));
        assert_eq!(until_shown_changes(59_000, 10_000), Some(1));
        // 10.4 s left with the mark at 10 s: the mark comes before the next second's text.
        assert_eq!(until_shown_changes(10_400, 10_000), Some(401));
        assert_eq!(until_shown_changes(9_400, 10_000), Some(401));
        // Two days: the text says hours.
        assert_eq!(
            until_shown_changes(2 * 86_400_000 + 1_800_000, 0),
            Some(1_800_001)
        );
        assert_eq!(until_shown_changes(0, 10_000), None);
    }

    /// A move typed just before `q`, in the same chunk of bytes, still reaches the server: the
    /// session carries out each event's effects before it reads the next event (it used to
    /// leave on `q` with the move's request still in the app).
    #[tokio::test]
    async fn a_move_typed_just_before_leaving_reaches_the_server() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = context(dir.path());
        let now = ctx.clock.now();
        let (alice, _) = ctx.hub.register("ka", "alice", now).await.unwrap();
        let (bob, _) = ctx.hub.register("kb", "bob", now).await.unwrap();
        let words = ["quentin", "size", "3", "pie", "off", "first", "me"];
        let id = ctx
            .hub
            .challenge(alice, &Spec::parse(&words).unwrap(), 0)
            .await
            .unwrap();
        let (id, _) = ctx.hub.accept(bob, id, now).await.unwrap();
        let view = ctx.hub.game(id, now).unwrap();
        let mut app = app_of(&view, alice, Look::FULL);
        let events = vec![
            Event::Key(KeyEvent::from(KeyCode::Enter)),
            Event::Key(KeyEvent::from(KeyCode::Char('q'))),
        ];
        let next = feed(&ctx, alice, id, &mut app, events, &mut Side::default()).await;
        assert!(matches!(next, Some(Next::Lobby)));
        let actions = ctx.hub.game(id, ctx.clock.now()).unwrap().actions;
        assert_eq!(actions, [quentin_rules::Action::parse("b2").unwrap()]);
    }
}
