//! A player's terminal over SSH: pick a name at the first login, then the lobby, the games and
//! the games watched, the puzzles, the operators' console. Every screen is the app crate's
//! (the game's own app and renderer, the lobby, a notice...), run by the one loop of
//! [`driver`] with its glue to the hub; this session feeds it the events parsed from the
//! channel's bytes and draws it into the channel.

mod course;
mod driver;
mod game;
mod lobby;
mod operators;
mod puzzle;
mod welcome;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
use crossterm::{cursor, event as ev, queue, terminal};
use quentin_app::input::Event;
use quentin_app::screen::lobby::Lobby;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{TerminalOptions, Viewport};

use super::channel::{Ended, Inbox, Input, Keys, Out};
use crate::context::{Context, Presence};
use crate::ids::{GameId, PlayerId};
use crate::who::Who;
use course::course_screen;
use driver::drive;
use game::game_screen;
use lobby::LobbyGlue;
use operators::operators_screen;
use puzzle::puzzle_screen;
use welcome::{notice, pick_name};

/// The client's terminal, as its pty request said.
#[derive(Clone, Debug)]
pub struct Terminal {
    /// `TERM`.
    pub name: String,
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
}

/// The largest screen drawn: a larger window gets its top-left part (a 10000×10000 window
/// would otherwise cost gigabytes).
const MAX_WIDTH: u16 = 400;
const MAX_HEIGHT: u16 = 150;

/// How often clocks are redrawn.
const CLOCK_TICK: Duration = Duration::from_millis(500);

/// The bytes of a frame, shared by the ratatui backend that writes them and the session that
/// sends them.
#[derive(Clone, Default)]
struct Sink(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn bytes(&self) -> std::sync::MutexGuard<'_, Vec<u8>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The screen: a ratatui terminal drawing into bytes for the channel.
struct Screen {
    terminal: ratatui::Terminal<CrosstermBackend<Sink>>,
    sink: Sink,
    out: Out,
    keys: Keys,
    color: bool,
    size: (u16, u16),
}

fn capped(width: u16, height: u16) -> Rect {
    Rect::new(0, 0, width.min(MAX_WIDTH), height.min(MAX_HEIGHT))
}

/// Why a screen stopped.
enum Next {
    Lobby,
    Operators,
    Game(GameId),
    /// A tournament game of the player's has begun: it opens with a bell.
    Summoned(GameId),
    Puzzles,
    /// The course (`l`).
    Course,
    Quit,
}

impl Screen {
    fn new(term: &Terminal, no_color: bool, out: Out) -> Option<Screen> {
        let sink = Sink::default();
        let terminal = ratatui::Terminal::with_options(
            CrosstermBackend::new(sink.clone()),
            TerminalOptions {
                viewport: Viewport::Fixed(capped(term.width, term.height)),
            },
        )
        .ok()?;
        Some(Screen {
            terminal,
            sink,
            out,
            keys: Keys::default(),
            color: !no_color && term.name != "dumb",
            size: (term.width, term.height),
        })
    }

    async fn send_commands(&mut self, enter: bool) -> bool {
        let mut bytes = Vec::new();
        let _ = if enter {
            queue!(
                bytes,
                terminal::EnterAlternateScreen,
                ev::EnableMouseCapture,
                cursor::Hide,
                terminal::Clear(terminal::ClearType::All)
            )
        } else {
            queue!(
                bytes,
                ev::DisableMouseCapture,
                cursor::Show,
                terminal::LeaveAlternateScreen
            )
        };
        self.out.send(&bytes).await.is_ok()
    }

    fn resize(&mut self, width: u16, height: u16) {
        self.size = (width, height);
        let _ = self.terminal.resize(capped(width, height));
        self.repaint();
    }

    /// Makes the next frame whole: the client's screen cleared, then every cell drawn.
    /// (Not ratatui's `clear`, which asks the backend for its cursor and size: this backend is
    /// a channel, not the server's own terminal.)
    fn repaint(&mut self) {
        let mut sink = self.sink.clone();
        let _ = queue!(sink, terminal::Clear(terminal::ClearType::All));
        // Both of ratatui's buffers emptied: the next frame is drawn against nothing.
        self.terminal.swap_buffers();
        self.terminal.swap_buffers();
    }

    /// Draws one frame with `draw`, whole (a synchronized update), into the channel. A frame
    /// the client has not taken yet is replaced, and then this one is drawn in full (the one
    /// it replaces never reaches the client, so a difference from it would be wrong).
    #[allow(clippy::unused_async)] // Kept async: its callers are written as if it may wait.
    async fn draw(&mut self, draw: impl FnOnce(Rect, &mut ratatui::buffer::Buffer)) -> bool {
        if self.out.frame_waiting() {
            self.repaint();
        }
        let mut sink = self.sink.clone();
        let _ = queue!(sink, BeginSynchronizedUpdate);
        let drawn = self.terminal.draw(|frame| {
            let area = frame.area();
            draw(area, frame.buffer_mut());
        });
        let _ = queue!(sink, EndSynchronizedUpdate);
        let bytes = std::mem::take(&mut *self.sink.bytes());
        drawn.is_ok() && self.out.frame(bytes).is_ok()
    }

    /// The events in what came, or `None` when the client has gone.
    async fn events(&mut self, input: Option<Input>) -> Option<Vec<Event>> {
        let mut events = Vec::new();
        match input? {
            Input::Bytes(bytes) => self.keys.feed(&bytes, &mut events),
            Input::Resize(w, h) => {
                self.resize(w, h);
                events.push(Event::Resize(w, h));
            }
        }
        Some(events)
    }

    /// Waits for what changes the screen: the player's input (its events), or the hub's
    /// `news`, the moment `change_in` from now when a clock's text changes, or the `beat` of
    /// what is drawn on one (no events: the screen is drawn again), and whether it was the
    /// clock alone (`change_in`) that woke it. `None` when the client has gone. The lobby and
    /// a game's screen wait alike.
    async fn wait(
        &mut self,
        input: &mut Inbox,
        news: Option<&mut watch::Receiver<u64>>,
        change_in: Option<Duration>,
        beat: Option<&mut tokio::time::Interval>,
    ) -> Option<(Vec<Event>, bool)> {
        let changes = async {
            match change_in {
                Some(wait) => tokio::time::sleep(wait).await,
                None => std::future::pending().await,
            }
        };
        let news = async {
            match news {
                Some(news) => news.changed().await.is_ok(),
                None => std::future::pending().await,
            }
        };
        let beats = async {
            match beat {
                Some(beat) => beat.tick().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            got = input.recv() => self.events(got).await.map(|events| (events, false)),
            _ = news => Some((Vec::new(), false)),
            () = changes => Some((Vec::new(), true)),
            _ = beats => Some((Vec::new(), false)),
        }
    }

    /// Waits until `not_before` and until the client has taken the last frame, so that the
    /// next frame is drawn from the latest state; the events of input that comes meanwhile
    /// (then at once). `None` when the client has gone.
    async fn settle(&mut self, input: &mut Inbox, not_before: Instant) -> Option<Vec<Event>> {
        let out = self.out.clone();
        let ready = async move {
            tokio::time::sleep_until(not_before).await;
            out.frame_taken().await;
        };
        tokio::select! {
            got = input.recv() => self.events(got).await,
            () = ready => Some(Vec::new()),
        }
    }
}

/// Runs a player's terminal session until they leave or the connection goes.
pub async fn run(
    ctx: Arc<Context>,
    who: Who,
    term: Terminal,
    no_color: bool,
    mut input: Inbox,
    out: Out,
) {
    let Some(mut screen) = Screen::new(&term, no_color, out) else {
        return;
    };
    if !screen.send_commands(true).await {
        return;
    }
    let me = match who.player.clone() {
        Some((id, _)) if super::context::session::renamed(&ctx, id) => {
            pick_name(&ctx, &who, Some(id), &mut screen, &mut input).await
        }
        Some(me) => Some(me),
        None => pick_name(&ctx, &who, None, &mut screen, &mut input).await,
    };
    // Whose ban the session's end may tell: the player it has now.
    let who_id = me.as_ref().map(|(id, _)| *id);
    if let Some(me) = me {
        // A name picked in this session: a ban closes it from now on.
        if !input.closes() {
            input.close_when(super::context::session::banned(ctx.clone(), me.0));
        }
        match ctx.hub.enter(me.0, ctx.limits.sessions_per_key) {
            Ok(()) => {
                let _presence = Presence::counted(&ctx.hub, Some(me.0));
                // A live game that goes on opens at once (its clock runs); the lobby is one
                // key away. Correspondence games wait in the lobby's list.
                let mut next = running_live_game(&ctx, me.0).map_or(Next::Lobby, Next::Game);
                let mut lobby = Lobby::new((me.0.0, me.1.clone())).colored(screen.color);
                // The tournament games this session has taken the player to, or told of.
                let mut seen = Seen::default();
                // Who the operators' screen asks for: this key, with the name it has now.
                let operator = Who {
                    key: who.key.clone(),
                    address: who.address,
                    player: Some(me.clone()),
                };
                loop {
                    next = match next {
                        Next::Lobby => {
                            let mut glue = LobbyGlue::open(&ctx, &mut lobby, &mut seen).await;
                            drive(&mut glue, &mut screen, &mut input).await
                        }
                        Next::Game(id) if watching(&ctx, me.0, id) => {
                            match watch_apart(&ctx, &me, id, screen, input).await {
                                Some((next, back, inbox)) => {
                                    (screen, input) = (back, inbox);
                                    next
                                }
                                // The server's runtimes are stopping.
                                None => return,
                            }
                        }
                        Next::Summoned(id) => {
                            if screen.out.send(b"\x07").await.is_err() {
                                break;
                            }
                            game_screen(&ctx, &me, id, &mut seen, &mut screen, &mut input).await
                        }
                        Next::Game(id) => {
                            game_screen(&ctx, &me, id, &mut seen, &mut screen, &mut input).await
                        }
                        Next::Puzzles => {
                            puzzle_screen(&ctx, &me, who.address, &mut screen, &mut input).await
                        }
                        Next::Course => course_screen(&ctx, me.0, &mut screen, &mut input).await,
                        Next::Operators
                            if super::context::session::is_operator(&ctx, &operator) =>
                        {
                            operators_screen(&ctx, &operator, &mut screen, &mut input).await
                        }
                        Next::Operators => {
                            lobby.say(crate::moderation::NOT_AN_OPERATOR, true);
                            Next::Lobby
                        }
                        Next::Quit => break,
                    };
                }
            }
            Err(refusal) => {
                let text = format!("{refusal}. Press any key.");
                notice(&mut screen, &mut input, &text).await;
            }
        }
    }
    screen.send_commands(false).await;
    // Why the server ended the session, on the terminal the player has back.
    let why = match input.ended() {
        Some(Ended::Idle) => format!(
            "quentin: closed after {} without a key; your games wait for you.\r\n",
            input.idle_words()
        ),
        Some(Ended::Stopping) => STOPPING.to_string(),
        Some(Ended::Banned) => format!(
            "quentin: {}.\r\n",
            super::context::session::ban_words(&ctx, who_id)
        ),
        Some(Ended::Gone | Ended::Flooded) | None => return,
    };
    let _ = screen.out.send(why.as_bytes()).await;
}

/// Whether `me` would watch game `id` (it is not one of its players), on a server that draws
/// watchers apart.
fn watching(ctx: &Context, me: PlayerId, id: GameId) -> bool {
    ctx.watchers.is_some()
        && ctx
            .hub
            .game(id, ctx.clock.now())
            .is_some_and(|view| view.seat(me).is_none())
}

/// Game `id` watched by `me` on the watchers' runtime ([`Context::watchers`]): where the
/// screen goes next, and the screen and input back; `None` if that runtime stopped first. A
/// panic there is this session's, as if it ran here.
async fn watch_apart(
    ctx: &Arc<Context>,
    me: &(PlayerId, String),
    id: GameId,
    mut screen: Screen,
    mut input: Inbox,
) -> Option<(Next, Screen, Inbox)> {
    let handle = ctx.watchers.as_ref()?;
    let (ctx, me) = (ctx.clone(), me.clone());
    let task = handle.spawn(async move {
        // A watcher told of a tournament game of theirs goes to it with one key; back in the
        // lobby, one not gone to is opened then.
        let mut seen = Seen::default();
        let next = game_screen(&ctx, &me, id, &mut seen, &mut screen, &mut input).await;
        (next, screen, input)
    });
    match task.await {
        Ok(back) => Some(back),
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => None,
    }
}

/// The tournament games a session has taken its player to, or told them of: each once.
pub(crate) type Seen = std::collections::HashSet<GameId>;

/// The first live tournament game of `me` that the session has not taken them to or told
/// them of yet, now counted as such.
fn summons(
    ctx: &Context,
    me: PlayerId,
    seen: &mut Seen,
) -> Option<(GameId, super::hub::InTournament)> {
    let (id, t) = ctx
        .hub
        .live_tournament_games(me)
        .into_iter()
        .find(|(g, _)| !seen.contains(g))?;
    seen.insert(id);
    Some((id, t))
}

/// What a player's terminal says when the server stops.
const STOPPING: &str = "quentin: the server is shutting down; your games are saved.\r\n";

/// The player's live game that goes on, if any: the one whose turn came last.
fn running_live_game(ctx: &Context, me: PlayerId) -> Option<GameId> {
    ctx.hub
        .games_of(me, ctx.clock.now(), 100)
        .into_iter()
        .filter(|g| g.result.is_none() && !g.clock.correspondence())
        .map(|g| g.id)
        .next()
}
