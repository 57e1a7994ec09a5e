//! The SSH side: keys only (passwords and keyboard-interactive are refused, with a banner that
//! says how to make a key), no shell, no forwarding, no subsystem; a session channel runs the
//! game's interface (with a terminal), the bot protocol (`bot`) or prints a record
//! (`record ID`).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use russh::keys::HashAlg;
use russh::server::{Auth, ChannelOpenHandle, Msg, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, MethodKind, MethodSet, Pty};
use tokio::sync::{mpsc, watch};

use super::Context;
use super::bot::{self, Who};
use super::channel::{Inbox, Input, Out};
use super::interactive::{self, Terminal};
use super::report::spawn_supervised;

/// What the banner says before the login.
pub const BANNER: &str = "\
quentin: log in with an SSH key (no passwords). No key yet? Make one with
  ssh-keygen -t ed25519
and connect again. Your key is your identity here.
";

/// How many chunks of input wait for a session before the client is slowed down.
const INPUT_QUEUE: usize = 64;

/// One connection.
pub struct Connection {
    ctx: Arc<Context>,
    /// The key's fingerprint, once proved.
    key: Option<String>,
    channels: HashMap<ChannelId, ChannelState>,
}

#[derive(Default)]
struct ChannelState {
    term: Option<Terminal>,
    no_color: bool,
    /// Where the channel's bytes go, once a session runs on it.
    input: Option<mpsc::Sender<Input>>,
    /// Dropped when the channel closes (or the connection goes): a session waiting on
    /// something else then ends.
    alive: Option<watch::Sender<()>>,
}

impl Connection {
    /// A new connection; counted until dropped.
    #[must_use]
    pub fn new(ctx: Arc<Context>) -> Connection {
        ctx.connections.fetch_add(1, Ordering::SeqCst);
        Connection {
            ctx,
            key: None,
            channels: HashMap::new(),
        }
    }

    /// Whether the server holds more connections than it may.
    fn full(&self) -> bool {
        self.ctx.connections.load(Ordering::SeqCst) > self.ctx.limits.max_sessions
    }

    fn who(&self) -> Who {
        let key = self.key.clone().unwrap_or_default();
        let player = self.ctx.hub.player_of_key(&key);
        Who { key, player }
    }

    /// Refuses a request on `channel` with `why` on its standard error, and closes it.
    fn refuse(channel: ChannelId, session: &mut Session, why: &str) {
        let _ = session.channel_failure(channel);
        let handle = session.handle();
        let why = format!("quentin: {why}\r\n");
        tokio::spawn(async move {
            let out = Out::new(handle, channel);
            let _ = out.send_err(&why).await;
            out.close(1).await;
        });
    }

    /// Starts what runs on `channel`, its input from now on sent to it.
    fn start(&mut self, channel: ChannelId, session: &mut Session, exec: Option<&str>) {
        let _ = session.channel_success(channel);
        let out = Out::new(session.handle(), channel);
        let ctx = self.ctx.clone();
        let who = self.who();
        let full = self.full();
        let state = self.channels.entry(channel).or_default();
        let (tx, rx) = mpsc::channel(INPUT_QUEUE);
        state.input = Some(tx);
        let rx = Inbox::new(rx, ctx.limits.idle, ctx.stop.subscribe());
        let (alive, alive_rx) = watch::channel(());
        state.alive = Some(alive);
        match exec {
            Some("bot") => {
                let what = format!("the bot session of {}", who.shown());
                let closing = out.clone();
                spawn_supervised(
                    what,
                    async move {
                        if full {
                            let _ = out.send(b"? the server is full: try again later\n\n").await;
                        } else if let Some(refusal) = enter(&ctx, &who) {
                            let _ = out.send(format!("? {refusal}\n\n").as_bytes()).await;
                        } else {
                            bot::run(ctx, who, rx, alive_rx, out.clone()).await;
                        }
                        out.close(0).await;
                    },
                    move || async move { closing.close(1).await },
                );
            }
            Some(command) => {
                let answer = record(&ctx, command);
                tokio::spawn(async move {
                    let status = match answer {
                        Ok(text) => u32::from(out.send(text.as_bytes()).await.is_err()),
                        Err(why) => {
                            let _ = out.send_err(&format!("quentin: {why}\n")).await;
                            1
                        }
                    };
                    out.close(status).await;
                });
            }
            None => {
                let term = state.term.clone();
                let no_color = state.no_color;
                let what = format!("the terminal session of {}", who.shown());
                let closing = out.clone();
                spawn_supervised(
                    what,
                    async move {
                        if full {
                            let _ = out.send(b"The server is full: try again later.\r\n").await;
                        } else if let Some(term) = term {
                            interactive::run(ctx, who, term, no_color, rx, out.clone()).await;
                        } else {
                            let _ = out
                            .send(b"quentin: the game needs a terminal: ssh -t, or `ssh HOST bot` for programs\r\n")
                            .await;
                        }
                        out.close(0).await;
                    },
                    move || async move { closing.close(1).await },
                );
            }
        }
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
            let id: i64 = id.parse().map_err(|_| "bad game number".to_string())?;
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
        self.ctx.connections.fetch_sub(1, Ordering::SeqCst);
        self.ctx.closed.notify_waiters();
    }
}

fn clamp(n: u32) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

impl russh::server::Handler for Connection {
    type Error = russh::Error;

    async fn authentication_banner(&mut self) -> Result<Option<String>, Self::Error> {
        Ok(Some(BANNER.to_string()))
    }

    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        Ok(only_keys())
    }

    async fn auth_password(&mut self, _user: &str, _password: &str) -> Result<Auth, Self::Error> {
        Ok(only_keys())
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        _user: &str,
        _submethods: &str,
        _response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        Ok(only_keys())
    }

    async fn auth_publickey(
        &mut self,
        _user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        // Whatever user name the command line gives: the key is the player.
        self.key = Some(key.public_key.fingerprint(HashAlg::Sha256).to_string());
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.channels.len() >= 4 {
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
            if let Some(input) = &state.input {
                // A resize is never dropped: the screen must fit the window.
                let _ = input.send(Input::Resize(size.0, size.1)).await;
            }
        }
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self
            .channels
            .get(&channel)
            .is_some_and(|s| s.input.is_none())
        {
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
            Self::refuse(
                channel,
                session,
                &format!(
                    "no shell here, and no command {}: the commands are `bot` and `record ID`",
                    super::spec::shown(&command)
                ),
            );
        } else if self
            .channels
            .get(&channel)
            .is_some_and(|s| s.input.is_none())
        {
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
        Self::refuse(
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
        if let Some(input) = self.channels.get(&channel).and_then(|s| s.input.as_ref()) {
            // Waits while the session is behind: a flood slows its own connection only.
            let _ = input.send(Input::Bytes(data.to_vec())).await;
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(state) = self.channels.get_mut(&channel) {
            state.input = None;
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

/// A refusal that tells the client to use a key.
fn only_keys() -> Auth {
    Auth::Reject {
        proceed_with_methods: Some(MethodSet::from(&[MethodKind::PublicKey][..])),
        partial_success: false,
    }
}
