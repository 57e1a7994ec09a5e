//! A game on a player's terminal, played or watched: the game's own app and renderer, fed the
//! hub's committed game and the player's keys, its requests carried out by the hub.
//!
//! A screen is drawn again only when something it shows changed: the game's news, a key of
//! its own, or the moment the running clock's text changes (each second of a live clock, each
//! hour of a correspondence one, looked at each second in case the clock jumped); never on a
//! tick with nothing new. A watcher's screen draws
//! at most one frame each [`WATCHER_FRAME`], and none while its last frame waits for the
//! client: what it draws then is the latest state, the states between never drawn.

use std::convert::Infallible;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::{Instant, Interval};

use quentin_app::app::{App, Effect, Input as AppInput, Look, Online, Request};
use quentin_app::render;
use quentin_record::game_line::GameLine;

use super::driver::{Glue, Refresh, Wake, drive};
use super::{CLOCK_TICK, Next, Screen};
use crate::channel::Inbox;
use crate::context::Context;
use crate::hub::{GameView, Rematch};
use crate::ids::{GameId, PlayerId, Seat};
use crate::reviews::Reviewer;

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
        (Some(first), _) => until_shown_changes(first.0, 0),
        (None, Some(seat)) => until_shown_changes(view.left[seat].0, view.clock.low_ms()),
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
    let clocks = Seat::BOTH
        .into_iter()
        .map(|seat| {
            let running = view.to_move == Some(seat) && view.result.is_none();
            let mark = if running && view.left[seat].0 < low {
                "!"
            } else {
                ""
            };
            format!("{}{mark}", render::clock_text(view.left[seat].0))
        })
        .collect();
    (clocks, view.first_move.map(|ms| render::clock_text(ms.0)))
}

fn online_of(view: &GameView, me: PlayerId) -> Online {
    Online {
        seat: view.seat(me).map(Seat::index),
        names: view.names.clone(),
        ratings: Seat::BOTH.map(|seat| view.rating_text(seat)),
        changes: view.changes,
        clock: view.clock.to_string(),
        left: view.left.map(|ms| ms.0),
        low: view.clock.low_ms(),
        running: view.to_move.map(Seat::index),
        rated: view.rated,
        result: view.finish(),
        takeback: view.takeback.map(Seat::index),
        first_move: view.first_move.map(|ms| ms.0),
        rematch: view.rematch.map(Seat::index),
        connected: view.connected,
        watchers: view.watchers,
        tournament: view.tournament.map(|t| t.to_string()),
    }
}

/// A game, played or watched, until the player goes back to the lobby.
pub(super) async fn game_screen(
    ctx: &Context,
    me: &(PlayerId, String),
    id: GameId,
    seen: &mut super::Seen,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Next {
    // A tournament game's first move is timed from now, when it is shown to its player (a
    // watcher's screen, or any other game, changes nothing).
    let _ = ctx.hub.shown(me.0, id, ctx.clock.now()).await;
    // This one is seen: not told of again.
    seen.insert(id);
    let look = Look {
        ascii: false,
        color: screen.color,
    };
    let Some(mut glue) = Playing::open(ctx, me.0, id, look, seen) else {
        return Next::Lobby;
    };
    // Counted among the game's watchers while the screen is open, when not a player of it.
    let _watching = ctx.hub.watching(id, me.0);
    drive(&mut glue, screen, input).await
}

/// A game's screen on the server: the game's app, fed the hub's committed game before each
/// frame, its requests carried out by the hub.
struct Playing<'a> {
    ctx: &'a Context,
    /// The tournament games the session took the player to or told them of.
    seen: &'a mut super::Seen,
    /// A tournament game of the player's begun meanwhile, told of: `o` goes to it.
    summons: Option<GameId>,
    me: PlayerId,
    id: GameId,
    app: App,
    side: Side,
    news: watch::Receiver<u64>,
    /// Only a review in progress is drawn on a beat of its own (its search's news).
    tick: Interval,
    /// When the text of the running clock changes next.
    change_in: Option<Duration>,
    /// What the last frame showed of time, and when it was drawn.
    shown: Option<(Vec<String>, Option<String>)>,
    drawn_at: Instant,
    /// Whether the last wait ended on the clock alone (no news, no key, no review).
    clock_only: bool,
    /// Whether the player watches (is not one of its players).
    watcher: bool,
}

impl<'a> Playing<'a> {
    /// Game `id` for player `me`, or `None` if there is no such game.
    fn open(
        ctx: &'a Context,
        me: PlayerId,
        id: GameId,
        look: Look,
        seen: &'a mut super::Seen,
    ) -> Option<Playing<'a>> {
        let (Ok(news), Some(view)) = (ctx.hub.watch_game(id), ctx.hub.game(id, ctx.clock.now()))
        else {
            return None;
        };
        let mut app = app_of(&view, me, look);
        if ctx.reviews.on() && view.seat(me).is_some() {
            app.allow_reviews();
        }
        Some(Playing {
            ctx,
            seen,
            summons: None,
            me,
            id,
            app,
            side: Side::default(),
            news,
            tick: tokio::time::interval(CLOCK_TICK),
            change_in: next_change(&view),
            shown: None,
            drawn_at: Instant::now(),
            clock_only: false,
            watcher: view.seat(me).is_none(),
        })
    }

    async fn carry_out(&mut self, input: AppInput) -> Carried {
        let effects = self.app.step(input);
        self.carry(effects).await
    }

    async fn carry(&mut self, effects: Vec<Effect>) -> Carried {
        carry_out(
            self.ctx,
            self.me,
            self.id,
            &mut self.app,
            effects,
            &mut self.side,
        )
        .await
    }
}

impl Glue for Playing<'_> {
    type Screen = App;
    type Done = Next;

    fn screen(&mut self) -> &mut App {
        &mut self.app
    }

    fn gone(&self) -> Next {
        Next::Quit
    }

    async fn refresh(&mut self) -> Refresh<Next> {
        let (ctx, me, id) = (self.ctx, self.me, self.id);
        loop {
            // News come since the last wait (which, woken by the clock, did not take them).
            let fresh = self.news.has_changed().unwrap_or(true);
            self.news.borrow_and_update();
            // The review's news first, as the terminal's loop gives the search's.
            if let Some(searched) = self.side.reviewer.news(&ctx.reviews, me, &mut self.app)
                && let Carried::Leave = self.carry_out(searched).await
            {
                return Refresh::Leave(Next::Lobby);
            }
            let mut unchanged = false;
            if let Some(view) = ctx.hub.game(id, ctx.clock.now()) {
                self.change_in = next_change(&view);
                let time = shown_time(&view);
                unchanged = self.clock_only && !fresh && self.shown.as_ref() == Some(&time);
                self.shown = Some(time);
                // A rematch both players asked for: its game opens at once, for its players.
                if let (Some(Rematch::Started(next)), Some(_)) = (view.rematch_state, view.seat(me))
                    && self.side.asked_rematch
                {
                    return Refresh::Leave(Next::Game(next));
                }
                let server = AppInput::Server(view.actions.clone(), Box::new(online_of(&view, me)));
                match self.carry_out(server).await {
                    Carried::Leave => return Refresh::Leave(Next::Lobby),
                    // What was sent comes back in the hub's game: read it before drawing.
                    Carried::Sent => continue,
                    Carried::Nothing => {}
                }
            }
            // A tournament game of the player's begun meanwhile: told, one key away.
            if let Some((next, t)) = super::summons(ctx, me, self.seen) {
                self.summons = Some(next);
                self.app
                    .warn(format!("Tournament {} game #{next}: o opens it.", t.id));
                return Refresh::Draw;
            }
            // Woken by the clock when its text had not changed yet: nothing to draw.
            return if unchanged {
                Refresh::Skip
            } else {
                Refresh::Draw
            };
        }
    }

    fn drawn(&mut self) {
        self.drawn_at = Instant::now();
    }

    fn wake(&mut self) -> Wake<'_> {
        Wake {
            news: Some(&mut self.news),
            change_in: self.change_in,
            beat: self.side.reviewer.busy().then_some(&mut self.tick),
        }
    }

    /// A watcher's next frame waits its turn (news of several moves make one frame) and for
    /// the client to take the last; a key of its own is answered meanwhile.
    fn settle(&mut self, quiet: bool) -> Option<Instant> {
        (self.watcher && quiet).then_some(self.drawn_at + WATCHER_FRAME)
    }

    fn woke(&mut self, clock_only: bool) {
        self.clock_only = clock_only;
    }

    /// `o` goes to the tournament game the player was told of.
    fn before(&mut self, event: &quentin_app::input::Event) -> Option<Next> {
        use quentin_app::input::{Event, KeyCode, KeyEventKind};
        match event {
            Event::Key(key)
                if key.kind == KeyEventKind::Press && key.code == KeyCode::Char('o') =>
            {
                self.summons.take().map(Next::Game)
            }
            _ => None,
        }
    }

    async fn act(&mut self, effects: Vec<Effect>) -> Option<Next> {
        match self.carry(effects).await {
            Carried::Leave => Some(Next::Lobby),
            Carried::Sent | Carried::Nothing => None,
        }
    }

    fn left(&mut self, never: Infallible) -> Next {
        match never {}
    }
}

/// The app of game `view` for player `me` (a watcher when not one of its players).
fn app_of(view: &GameView, me: PlayerId, look: Look) -> App {
    let start = view.setup.start().unwrap_or_else(|_| view.position.clone());
    // The hub commits only what the rules accept; were it otherwise, the board shows the game
    // up to the refused action.
    let line = GameLine::replay(start, &view.actions).unwrap_or_else(|stopped| stopped.line);
    App::online(line, online_of(view, me), look)
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

/// Carries out every effect the game's app asked for, in order: requests go to the hub (a
/// refusal is said on the screen).
async fn carry_out(
    ctx: &Context,
    me: PlayerId,
    id: GameId,
    app: &mut App,
    effects: Vec<Effect>,
    side: &mut Side,
) -> Carried {
    let mut carried = Carried::Nothing;
    for effect in effects {
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
mod tests;
