//! The SSH side: keys only (passwords are refused; keyboard-interactive, tried by a client only
//! once its keys are spent, is answered with how to make a key, then refused), no shell, no forwarding, no subsystem; a session channel runs the
//! game's interface (with a terminal), the bot protocol (`bot`) or prints a record
//! (`record ID`).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tracing::Instrument as _;

use russh::keys::HashAlg;
use russh::server::{Auth, ChannelOpenHandle, Msg, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, MethodKind, MethodSet, Pty};
use tokio::sync::watch;

use super::bot;
use super::channel::{Feed, Inbox, Out};
use super::context::session;
use super::gate::{KeySlot, Login, Startup};
use super::interactive::{self, Terminal};
use super::link::Link;
use super::metrics::{SessionCount, metrics};
use super::report::spawn_supervised;
use crate::context::Context;
use crate::ids::GameId;
use crate::who::Who;

/// What a client that could not log in with a key is told: OpenSSH shows keyboard-interactive's
/// instructions, and tries that method only after its keys, so a player whose key worked never
/// sees it (a banner before the login showed it to everyone: issue 46).
pub const NO_KEY: &str = "\
quentin: log in with an SSH key (no passwords). No key yet? Make one with
  ssh-keygen -t ed25519
and connect again. Your key is your identity here.
";

/// The most input a bot's session holds unread: a bot that sends more before reading its
/// answers is told so and closed.
const BOT_INPUT: usize = 64 * 1024;
/// The most input a terminal's session holds unread; what comes beyond is dropped (a paste of
/// megabytes, a flood): a person's keys are never that many, and the screen shows what came.
const TERMINAL_INPUT: usize = 16 * 1024;
/// The most output a bot's session leaves waiting for its client: a bot that does not read its
/// answers is cut once more waits (the longest answer, a record, is a few kilobytes).
const BOT_OUTPUT: usize = 256 * 1024;
/// The same for a terminal, whose frames replace each other while the client has not taken
/// them: room for the largest frame (400×150 cells) and the commands around it.
const TERMINAL_OUTPUT: usize = 4 * 1024 * 1024;
/// Channels one connection may have open.
const MAX_CHANNELS: usize = 4;

/// One connection.
pub struct Connection {
    ctx: Arc<Context>,
    link: Arc<Link>,
    /// Its place until it logs in; kept when a limit refuses the login, so that it still
    /// counts as not logged in (and the grace time still closes it).
    startup: Option<Startup>,
    /// Its places once logged in: the connection's, and one session's for its key.
    login: Option<(Login, KeySlot)>,
    /// Why its login was refused (a limit, a private server): every session it asks for is
    /// told so.
    refused: Option<String>,
    /// The key's fingerprint, once proved.
    key: Option<String>,
    channels: HashMap<ChannelId, ChannelState>,
}

#[derive(Default)]
struct ChannelState {
    term: Option<Terminal>,
    no_color: bool,
    /// Whether a session runs (or ran) on it.
    started: bool,
    /// Whether that session is a bot's.
    bot: bool,
    /// Where the channel's bytes go, once a session runs on it.
    feed: Option<Arc<Feed>>,
    /// Dropped when the channel closes (or the connection goes): a session waiting on
    /// something else then ends.
    alive: Option<watch::Sender<()>>,
}

impl Drop for ChannelState {
    fn drop(&mut self) {
        if let Some(feed) = &self.feed {
            feed.close();
        }
    }
}

impl Connection {
    /// A new connection from `link`'s address, holding `startup` until it logs in; counted
    /// until dropped.
    #[must_use]
    pub fn new(ctx: Arc<Context>, link: Arc<Link>, startup: Startup) -> Connection {
        ctx.connections.fetch_add(1, Ordering::SeqCst);
        Connection {
            ctx,
            link,
            startup: Some(startup),
            login: None,
            refused: None,
            key: None,
            channels: HashMap::new(),
        }
    }

    fn who(&self) -> Who {
        let key = self.key.clone().unwrap_or_default();
        let player = self.ctx.hub.player_of_key(&key);
        Who {
            key,
            address: Some(self.link.peer.ip()),
            player,
        }
    }

    /// Refuses a request on `channel` with `why` on its standard error, and closes it.
    fn refuse(&self, channel: ChannelId, session: &mut Session, why: &str) {
        let _ = session.channel_failure(channel);
        let out = Out::new(
            session.handle(),
            channel,
            self.link.clone(),
            BOT_OUTPUT,
            self.ctx.limits.idle,
        );
        let why = format!("quentin: {why}\r\n");
        tokio::spawn(async move {
            let _ = out.send_err(&why).await;
            out.close(1).await;
        });
    }

    /// The place for one more session on this connection: the login's for the first, one
    /// more of the key's for each other at once.
    fn place(&self) -> Result<Option<KeySlot>, String> {
        if let Some(refused) = &self.refused {
            return Err(refused.clone());
        }
        if self.link.sessions() == 0 {
            return Ok(None);
        }
        let key = self.key.as_deref().unwrap_or_default();
        self.ctx
            .gate
            .another(key)
            .map(Some)
            .map_err(|r| r.to_string())
    }

    /// Starts what runs on `channel`, its input from now on sent to it.
    fn start(&mut self, channel: ChannelId, session: &mut Session, exec: Option<&str>) {
        let _ = session.channel_success(channel);
        let bot = exec == Some("bot");
        let out = Out::new(
            session.handle(),
            channel,
            self.link.clone(),
            if exec.is_none() {
                TERMINAL_OUTPUT
            } else {
                BOT_OUTPUT
            },
            self.ctx.limits.idle,
        );
        let ctx = self.ctx.clone();
        let who = self.who();
        let (place, refused) = match self.place() {
            Ok(place) => (place, None),
            Err(refused) => {
                tracing::warn!(peer = %self.link.peer, key = %who.key, "session refused: {refused}");
                (None, Some(refused))
            }
        };
        let running = self.link.session();
        let state = self.channels.entry(channel).or_default();
        let feed = Feed::new();
        state.started = true;
        state.bot = bot;
        state.feed = Some(feed.clone());
        let mut rx = Inbox::new(feed, ctx.limits.idle, ctx.stop.subscribe());
        // A ban closes the player's sessions, with its reason.
        if let Some((id, _)) = &who.player {
            rx.close_when(session::banned(ctx.clone(), *id));
        }
        let (alive, alive_rx) = watch::channel(());
        state.alive = Some(alive);
        let term = state.term.clone();
        let no_color = state.no_color;
        let exec = exec.map(str::to_string);
        let what = format!(
            "the {} session of {}",
            match exec.as_deref() {
                None => "terminal",
                Some("bot") => "bot",
                Some(_) => "command",
            },
            who.shown()
        );
        let closing = out.clone();
        let link = self.link.clone();
        let span = link.span.clone();
        // A panic in the session ends it alone: it is reported, and the channel closed.
        spawn_supervised(
            what,
            async move {
                // Held while the session runs: its place, and its count on the connection.
                let _held = (place, running);
                let _counted = refused.is_none().then(|| {
                    SessionCount::new(match exec.as_deref() {
                        None => "terminal",
                        Some("bot") => "bot",
                        Some(_) => "command",
                    })
                });
                let mut flooded = false;
                let status = match (refused, exec.as_deref()) {
                    (Some(refused), Some("bot")) => {
                        let _ = out.send(format!("? {refused}\n\n").as_bytes()).await;
                        0
                    }
                    (Some(refused), None) => {
                        let _ = out
                            .send(format!("quentin: {refused}.\r\n").as_bytes())
                            .await;
                        0
                    }
                    (Some(refused), Some(_)) => {
                        let _ = out.send_err(&format!("quentin: {refused}\n")).await;
                        1
                    }
                    (None, Some("bot")) => {
                        if let Some(refusal) = enter(&ctx, &who) {
                            let _ = out.send(format!("? {refusal}\n\n").as_bytes()).await;
                        } else {
                            flooded = bot::run(ctx, who, rx, alive_rx, out.clone()).await;
                        }
                        0
                    }
                    (None, Some(command)) => match record(&ctx, command) {
                        Ok(text) => u32::from(out.send(text.as_bytes()).await.is_err()),
                        Err(why) => {
                            let _ = out.send_err(&format!("quentin: {why}\n")).await;
                            1
                        }
                    },
                    (None, None) => {
                        if let Some(term) = term {
                            interactive::run(ctx, who, term, no_color, rx, out.clone()).await;
                        } else {
                            let _ = out
                            .send(b"quentin: the game needs a terminal: ssh -t, or `ssh HOST bot` for programs\r\n")
                            .await;
                        }
                        0
                    }
                };
                // A connection whose login a limit refused is closed by its client once told, or
                // else at the end of the grace time: it still counts as not logged in.
                out.close(status).await;
                // A bot that flooded its input is not left to linger once told why: its client
                // may never read what is left (OpenSSH waits to write it out before it goes),
                // and the connection would hold its place until the idle timeout.
                if flooded {
                    link.end();
                }
            }
            .instrument(span),
            move || async move { closing.close(1).await },
        );
    }
}

/// Counts the session in for its player; the refusal when the key has too many.
fn enter(ctx: &Context, who: &Who) -> Option<String> {
    let (id, _) = who.player.as_ref()?;
    ctx.hub
        .enter(*id, ctx.limits.sessions_per_key)
        .err()
        .map(|r| r.to_string())
}

/// `record ID`'s text, or why not.
fn record(ctx: &Context, command: &str) -> Result<String, String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    match words.as_slice() {
        ["record", id] => {
            let id = GameId(id.parse().map_err(|_| "bad game number".to_string())?);
            ctx.hub
                .record(id, ctx.clock.now())
                .ok_or_else(|| format!("no game {id}"))
        }
        _ => Err(format!(
            "no shell here, and no command {}: the commands are `bot` and `record ID`",
            super::spec::shown(command)
        )),
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        // The sessions' input ends; the places are given back with the fields.
        self.channels.clear();
        self.ctx.connections.fetch_sub(1, Ordering::SeqCst);
        self.ctx.closed.notify_waiters();
    }
}

fn clamp(n: u32) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

impl russh::server::Handler for Connection {
    type Error = russh::Error;

    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        Ok(keys_or_help())
    }

    async fn auth_password(&mut self, _user: &str, _password: &str) -> Result<Auth, Self::Error> {
        Ok(keys_or_help())
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        _user: &str,
        _submethods: &str,
        response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        // The first ask gets the words and no prompt; the (empty) answer, the refusal.
        Ok(match response {
            None => Auth::Partial {
                name: "".into(),
                instructions: NO_KEY.into(),
                prompts: Vec::new().into(),
            },
            Some(_) => only_keys(),
        })
    }

    async fn auth_publickey(
        &mut self,
        _user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        // Whatever user name the command line gives: the key is the player.
        let key = key.public_key.fingerprint(HashAlg::Sha256).to_string();
        let player_of_key = self.ctx.hub.player_of_key(&key);
        let name = player_of_key.as_ref().map(|(_, name)| name.clone());
        let ban = session::ban_at_login(&self.ctx, player_of_key.map(|(id, _)| id));
        self.link.know(Some(&key), name.as_deref());
        let player = name.as_deref().unwrap_or("-");
        let lists = self.ctx.access.lists();
        let private = lists
            .allow
            .as_ref()
            .is_some_and(|allow| !allow.has(&key, name.as_deref()));
        let login = if private {
            metrics().refused.with_label_values(&["private"]).inc();
            Err(format!(
                "this server is private: only the keys its host lists may log in (yours is {key})"
            ))
        } else if let Some(ban) = ban {
            metrics().refused.with_label_values(&["banned"]).inc();
            Err(ban)
        } else {
            self.ctx.gate.login(&key).map_err(|r| {
                metrics().refused.with_label_values(&[r.label()]).inc();
                r.to_string()
            })
        };
        match login {
            Ok(places) => {
                self.login = Some(places);
                if let Some(startup) = self.startup.take() {
                    startup.logged_in();
                }
                self.link.logged_in();
                metrics().logins.inc();
                session::keep_login(&self.ctx, &key, self.link.peer.ip());
                tracing::info!(peer = %self.link.peer, %key, player = %player, "logged in");
            }
            Err(refused) => {
                // Let in only to be told why, and closed.
                self.link.ending(format!("login refused: {refused}"));
                // Kept too, for `players`, but once a minute a network block: a flood of
                // refused logins does not grow the store.
                if self
                    .ctx
                    .moderation
                    .keep_refused(self.link.peer.ip(), self.ctx.clock.now())
                {
                    session::keep_login(&self.ctx, &key, self.link.peer.ip());
                }
                tracing::warn!(peer = %self.link.peer, %key, player = %player, "login refused: {refused}");
                self.refused = Some(refused);
            }
        }
        self.key = Some(key);
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.channels.len() >= MAX_CHANNELS {
            return Ok(());
        }
        self.channels.insert(channel.id(), ChannelState::default());
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(state) = self.channels.get_mut(&channel) {
            state.term = Some(Terminal {
                name: term.chars().take(40).collect(),
                width: clamp(col_width),
                height: clamp(row_height),
            });
            session.channel_success(channel)?;
        } else {
            session.channel_failure(channel)?;
        }
        Ok(())
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        match self.channels.get_mut(&channel) {
            Some(state) if name == "NO_COLOR" => {
                state.no_color = !value.is_empty();
                session.channel_success(channel)?;
            }
            _ => session.channel_failure(channel)?,
        }
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(state) = self.channels.get_mut(&channel) {
            let size = (clamp(col_width), clamp(row_height));
            if let Some(term) = &mut state.term {
                (term.width, term.height) = size;
            }
            if let Some(feed) = &state.feed {
                // Only the latest size waits: the screen must fit the window, not follow
                // every size it had.
                feed.resize(size.0, size.1);
            }
        }
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.channels.get(&channel).is_some_and(|s| !s.started) {
            self.start(channel, session, None);
        } else {
            session.channel_failure(channel)?;
        }
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let command = String::from_utf8_lossy(data).trim().to_string();
        let known = command == "bot" || command.starts_with("record ");
        if !known {
            self.refuse(
                channel,
                session,
                &format!(
                    "no shell here, and no command {}: the commands are `bot` and `record ID`",
                    super::spec::shown(&command)
                ),
            );
        } else if self.channels.get(&channel).is_some_and(|s| !s.started) {
            self.start(channel, session, Some(&command));
        } else {
            session.channel_failure(channel)?;
        }
        Ok(())
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse(
            channel,
            session,
            &format!("no subsystem {} here", super::spec::shown(name)),
        );
        Ok(())
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)?;
        Ok(())
    }

    async fn agent_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<bool, Self::Error> {
        session.channel_failure(channel)?;
        Ok(false)
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Never waits: the session's output may be waiting for this very client to read.
        let Some(state) = self.channels.get(&channel) else {
            return Ok(());
        };
        let Some(feed) = &state.feed else {
            return Ok(());
        };
        if state.bot {
            if !feed.push(data, BOT_INPUT) {
                feed.flood();
                let why = format!("too much input: {BOT_INPUT} bytes before reading the answers");
                tracing::warn!(peer = %self.link.peer, "a bot closed: {why}");
                self.link.ending(why);
            }
        } else if !feed.push(data, TERMINAL_INPUT) {
            tracing::debug!(peer = %self.link.peer, "terminal input beyond {TERMINAL_INPUT} bytes dropped");
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(feed) = self.channels.get(&channel).and_then(|s| s.feed.as_ref()) {
            feed.close();
        }
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.channels.remove(&channel);
        Ok(())
    }
}

/// A refusal that tells the client to use a key, or to ask how to make one
/// (keyboard-interactive, which OpenSSH tries after its keys).
fn keys_or_help() -> Auth {
    Auth::Reject {
        proceed_with_methods: Some(MethodSet::from(
            &[MethodKind::PublicKey, MethodKind::KeyboardInteractive][..],
        )),
        partial_success: false,
    }
}

/// A refusal that tells the client to use a key: after the help was shown.
fn only_keys() -> Auth {
    Auth::Reject {
        proceed_with_methods: Some(MethodSet::from(&[MethodKind::PublicKey][..])),
        partial_success: false,
    }
}
