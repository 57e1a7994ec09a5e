//! A player's terminal over SSH: pick a name at the first login, then the lobby, the games and
//! the games watched. The game screen is the local game's app and renderer; this session only
//! feeds it the events parsed from the channel's bytes and draws it into the channel.

mod asks;
mod game;
mod operators;
mod puzzle;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
use crossterm::{cursor, event as ev, queue, terminal};
use quentin_app::input::{Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};
use ratatui::{TerminalOptions, Viewport};

use super::bot::Who;
use super::channel::{Ended, Inbox, Input, Keys, Out};
use super::lobby::{Board, Lobby, Rows};
use super::spec::TimeControl;
use super::{Context, Presence};
use game::game_screen;
use operators::operators_screen;
use puzzle::puzzle_screen;

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
    Game(i64),
    Puzzles,
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
        news: &mut watch::Receiver<u64>,
        change_in: Option<Duration>,
        beat: Option<&mut tokio::time::Interval>,
    ) -> Option<(Vec<Event>, bool)> {
        let changes = async {
            match change_in {
                Some(wait) => tokio::time::sleep(wait).await,
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
            _ = news.changed() => Some((Vec::new(), false)),
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

fn quit_key(event: &Event) -> bool {
    matches!(event, Event::Key(k) if k.kind == KeyEventKind::Press
        && (k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL)))
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
        Some((id, _)) if super::moderation::session::renamed(&ctx, id) => {
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
            input.close_when(super::moderation::session::banned(ctx.clone(), me.0));
        }
        match ctx.hub.enter(me.0, ctx.limits.sessions_per_key) {
            Ok(()) => {
                let _presence = Presence::counted(&ctx.hub, Some(me.0));
                // A live game that goes on opens at once (its clock runs); the lobby is one
                // key away. Correspondence games wait in the lobby's list.
                let mut next = running_live_game(&ctx, me.0).map_or(Next::Lobby, Next::Game);
                let mut lobby = Lobby::new(me.clone());
                // Who the operators' screen asks for: this key, with the name it has now.
                let operator = Who {
                    key: who.key.clone(),
                    address: who.address,
                    player: Some(me.clone()),
                };
                loop {
                    next = match next {
                        Next::Lobby => {
                            lobby_screen(&ctx, &mut lobby, &mut screen, &mut input).await
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
                        Next::Game(id) => game_screen(&ctx, &me, id, &mut screen, &mut input).await,
                        Next::Puzzles => puzzle_screen(&ctx, &me, &mut screen, &mut input).await,
                        Next::Operators
                            if super::moderation::session::is_operator(&ctx, &operator) =>
                        {
                            operators_screen(&ctx, &operator, &mut screen, &mut input).await
                        }
                        Next::Operators => {
                            lobby.say(super::moderation::session::NOT_AN_OPERATOR, true);
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
            super::moderation::session::ban_words(&ctx, who_id)
        ),
        Some(Ended::Gone | Ended::Flooded) | None => return,
    };
    let _ = screen.out.send(why.as_bytes()).await;
}

/// Whether `me` would watch game `id` (it is not one of its players), on a server that draws
/// watchers apart.
fn watching(ctx: &Context, me: i64, id: i64) -> bool {
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
    me: &(i64, String),
    id: i64,
    mut screen: Screen,
    mut input: Inbox,
) -> Option<(Next, Screen, Inbox)> {
    let handle = ctx.watchers.as_ref()?;
    let (ctx, me) = (ctx.clone(), me.clone());
    let task = handle.spawn(async move {
        let next = game_screen(&ctx, &me, id, &mut screen, &mut input).await;
        (next, screen, input)
    });
    match task.await {
        Ok(back) => Some(back),
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => None,
    }
}

/// What a player's terminal says when the server stops.
const STOPPING: &str = "quentin: the server is shutting down; your games are saved.\r\n";

/// Shows `text` until a key comes (or the client goes).
async fn notice(screen: &mut Screen, input: &mut Inbox, text: &str) {
    loop {
        let shown = screen
            .draw(|area, buf| {
                Paragraph::new(text.to_string())
                    .wrap(Wrap { trim: false })
                    .render(area, buf);
            })
            .await;
        if !shown {
            return;
        }
        match screen.events(input.recv().await).await {
            Some(events) if events.iter().any(|e| matches!(e, Event::Key(_))) => return,
            Some(_) => {}
            None => return,
        }
    }
}

/// The first login with a new key: the player picks a name.
async fn pick_name(
    ctx: &Context,
    who: &Who,
    renamed: Option<i64>,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Option<(i64, String)> {
    let mut name = String::new();
    let mut said = String::new();
    loop {
        let text = vec![
            Line::from(if renamed.is_some() {
                "The server's operators took your name away: pick a new one."
            } else {
                "Welcome to quentin. This key is new here: pick a name."
            }),
            Line::from("2 to 20 letters, digits, - and _; Enter to take it, Esc to leave."),
            Line::default(),
            Line::from(format!("Name: {name}_")),
            Line::default(),
            Line::from(said.clone()),
        ];
        if !screen
            .draw(|area, buf| {
                Paragraph::new(text)
                    .wrap(Wrap { trim: false })
                    .render(area, buf)
            })
            .await
        {
            return None;
        }
        for event in screen.events(input.recv().await).await? {
            let Event::Key(k) = event else { continue };
            if k.kind != KeyEventKind::Press {
                continue;
            }
            match k.code {
                _ if quit_key(&event) => return None,
                KeyCode::Esc => return None,
                KeyCode::Enter if renamed.is_some() => {
                    let id = renamed.unwrap_or_default();
                    match super::moderation::session::pick(ctx, id, &name).await {
                        Ok(me) => return Some(me),
                        Err(why) => said = format!("{why}: try another."),
                    }
                }
                KeyCode::Enter => match ctx.signups.may(who.address) {
                    Err(why) => said = format!("{why}."),
                    Ok(()) => match ctx.hub.register(&who.key, &name, ctx.clock.now()).await {
                        Ok(me) => {
                            ctx.signups.counted(who.address);
                            return Some(me);
                        }
                        Err(refusal) => said = format!("{refusal}: try another."),
                    },
                },
                KeyCode::Backspace => {
                    name.pop();
                }
                // Ctrl-L, Ctrl-A and the like are keys, not letters of the name.
                KeyCode::Char(_)
                    if k.modifiers.contains(KeyModifiers::CONTROL)
                        || k.modifiers.contains(KeyModifiers::ALT) => {}
                KeyCode::Char(c)
                    if name.len() < 20 && (c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
                {
                    name.push(c);
                }
                KeyCode::Char(_) => said = "Letters, digits, - and _ only.".to_string(),
                _ => {}
            }
        }
    }
}

/// The player's live game that goes on, if any: the one whose turn came last.
fn running_live_game(ctx: &Context, me: i64) -> Option<i64> {
    ctx.hub
        .games_of(me, ctx.clock.now(), 100)
        .into_iter()
        .filter(|g| g.result.is_none() && matches!(g.clock, TimeControl::Live { .. }))
        .map(|g| g.id)
        .next()
}

/// The most open challenges a lobby lists.
const LOBBY_CHALLENGES: usize = 100;

fn board(ctx: &Context, me: i64) -> Board {
    let now = ctx.clock.now();
    let hub = &ctx.hub;
    let (challenges, more_challenges) = hub.lobby_challenges(me, LOBBY_CHALLENGES);
    Board {
        motd: ctx.access.lists().motd.clone(),
        online: hub.online_with_ratings(),
        challenges,
        more_challenges,
        mine: hub.games_of(me, now, 10),
        live: hub.live_games(now, 10),
        recent: hub.recent_results(now, 5),
        leaders: hub.leaderboard(5),
        puzzle_leaders: hub.puzzle_leaders(),
        tournaments: hub.tournaments(now),
    }
}

async fn lobby_screen(
    ctx: &Context,
    lobby: &mut Lobby,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Next {
    let mut news = ctx.hub.watch_lobby();
    // The puzzle leaderboard as the store has it now, other processes' attempts too.
    ctx.hub.refresh_puzzle_leaders().await;
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    // The player's open challenges: when one is accepted, its game opens at once.
    let mut waiting: Vec<i64> = Vec::new();
    // The messages left to the player (a tournament of theirs cancelled): read at the lobby's
    // opening (those left while they were away), then whenever one of their tournaments is.
    let mut cancelled = None;
    loop {
        news.borrow_and_update();
        let now_cancelled = ctx.hub.cancelled_for(lobby.me.0);
        if cancelled != Some(now_cancelled) {
            cancelled = Some(now_cancelled);
            match ctx.moderation.ledger().messages(lobby.me.0).await {
                Ok(lines) if !lines.is_empty() => lobby.say(lines.join(". "), false),
                Ok(_) => {}
                Err(e) => tracing::warn!("cannot read a player's messages: {e:#}"),
            }
        }
        lobby.board = board(ctx, lobby.me.0);
        let open: Vec<i64> = lobby
            .board
            .challenges
            .iter()
            .filter(|c| c.by == lobby.me.0)
            .map(|c| c.id)
            .collect();
        if let Some(id) = waiting.iter().find(|id| {
            !open.contains(id)
                && lobby
                    .board
                    .mine
                    .iter()
                    .any(|g| g.id == **id && g.result.is_none())
        }) {
            // What the lobby said is old news once the game opens.
            lobby.message = None;
            return Next::Game(*id);
        }
        waiting = open;
        let color = screen.color;
        let mut rows = Rows::default();
        if !screen
            .draw(|area, buf| rows = lobby.draw(area, buf, color))
            .await
        {
            return Next::Quit;
        }
        lobby.set_rows(rows);
        let Some((events, _)) = screen.wait(input, &mut news, None, Some(&mut tick)).await else {
            return Next::Quit;
        };
        let now = ctx.clock.now();
        for event in events {
            let ask = lobby.handle(&event);
            if let Some(next) = asks::answer(ctx, lobby, ask, now).await {
                return next;
            }
        }
    }
}
