//! `ssh HOST bot`: the line protocol for programs, in GTP's style. Each command is one line;
//! each answer is `= RESULT` or `? REASON`, then an empty line. docs/server.md has the commands
//! and a transcript.

mod answer;
mod command;
mod hook;
mod puzzle;
mod run;
pub(crate) mod tournament;
mod wait;

use std::sync::Arc;

use tokio::sync::watch;

use super::channel::{Ended, Inbox, Input, Out};
use super::context::session;
use crate::context::{Context, Presence};
use crate::ids::GameId;
use crate::who::Who;

use command::BotCommand;

/// The longest command line read, in bytes before its newline; a longer one is refused whole.
const MAX_LINE: usize = 4096;

/// The session's input: the bytes that came and not yet read, and whether more may come.
struct Reader {
    input: Inbox,
    open: bool,
    pending: Vec<u8>,
    /// Ends (its sender dropped) when the channel closes or the connection goes.
    alive: watch::Receiver<()>,
    /// The connection's run of puzzles, once `puzzle streak`, `storm`, `again` or `theme`
    /// started one (its Streak or Storm lasts as long as the connection).
    puzzles: Option<crate::puzzles::run::Run>,
}

impl Reader {
    /// Waits for more input; false when none will come. The idle time counts from here: the
    /// server waits for the client.
    async fn more(&mut self) -> bool {
        self.input.restart();
        while self.open {
            match self.input.recv().await {
                Some(Input::Bytes(bytes)) => {
                    self.pending.extend_from_slice(&bytes);
                    return true;
                }
                Some(Input::Resize(..)) => {}
                None => self.open = false,
            }
        }
        false
    }
}

/// Runs the protocol until `quit`, the end of the input (after the commands that came before
/// it are answered) or a closed channel. Whether the client sent more than the session may
/// hold before reading its answers (its connection is then to be closed).
pub async fn run(
    ctx: Arc<Context>,
    mut who: Who,
    input: Inbox,
    alive: watch::Receiver<()>,
    out: Out,
) -> bool {
    let mut reader = Reader {
        input,
        open: true,
        pending: Vec::new(),
        alive,
        puzzles: None,
    };
    // Counted in already (by the caller, or by `register` below); counted out at the end.
    let mut presence = Presence::counted(&ctx.hub, who.player.as_ref().map(|(id, _)| *id));
    let mut skipping = false;
    loop {
        let pending = &mut reader.pending;
        // One whole line from what came, or more input.
        let Some(end) = pending.iter().position(|b| *b == b'\n') else {
            if pending.len() > MAX_LINE {
                pending.clear();
                skipping = true;
            }
            if !reader.more().await {
                break;
            }
            continue;
        };
        let line: Vec<u8> = pending.drain(..=end).collect();
        // However it came (in one piece or in many), a line too long is refused whole; its
        // newline is not counted.
        if std::mem::take(&mut skipping) || end > MAX_LINE {
            if out.send(b"? line too long\n\n").await.is_err() {
                break;
            }
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        // Split at ASCII whitespace only: a line of other spaces (no-break ones) is a word,
        // answered as unknown, never a silence a client that counts answers would wait on.
        if text.split_ascii_whitespace().next().is_none() {
            continue;
        }
        // A test server's hooks, apart from the protocol's commands (unknown words elsewhere).
        if ctx.clock.is_test()
            && let Some(hook) = hook::Hook::parse(&text)
        {
            let answer = match hook {
                Ok(hook) => hook::run(&ctx, &who, hook).await,
                Err(usage) => Err(answer::Refused::Said(usage)),
            };
            match answer::framed(&answer) {
                Some(text) if out.send(text.as_bytes()).await.is_ok() => continue,
                _ => break,
            }
        }
        let command = BotCommand::parse(&text);
        if command == Ok(BotCommand::Quit) {
            let _ = out.send(b"=\n\n").await;
            break;
        }
        // A challenge or game this process has not heard of may have been made on another a
        // moment ago: the database is asked before the command is answered.
        if who.player.is_some()
            && let Some((id, game)) = looked_up(&command)
        {
            ctx.hub.look_up(id, game).await;
        }
        let answer = run::line(&ctx, &mut who, &mut reader, command).await;
        presence.player = who.player.as_ref().map(|(id, _)| *id);
        // Registered in this session: a ban closes it from now on.
        if let Some(id) = presence.player
            && !reader.input.closes()
        {
            reader.input.close_when(session::banned(ctx.clone(), id));
        }
        let Some(text) = answer::framed(&answer) else {
            break;
        };
        if out.send(text.as_bytes()).await.is_err() {
            break;
        }
    }
    let why = match reader.input.ended() {
        Some(Ended::Idle) => format!(
            "? no command for {}: the connection is closed\n\n",
            reader.input.idle_words()
        ),
        Some(Ended::Stopping) => "? the server is shutting down\n\n".to_string(),
        Some(Ended::Banned) => {
            let id = who.player.as_ref().map(|(id, _)| *id);
            format!("? {}\n\n", session::ban_words(&ctx, id))
        }
        Some(Ended::Flooded) => {
            "? too much input before the answers were read: the connection is closed\n\n"
                .to_string()
        }
        Some(Ended::Gone) | None => String::new(),
    };
    let _ = out.send(why.as_bytes()).await;
    reader.input.ended() == Some(Ended::Flooded)
}

/// The game (`true`) or challenge (`false`) a line names, to be looked up first: a
/// command's, or an abort's that did not parse (an operator's abort depends on the game).
fn looked_up(command: &Result<BotCommand, command::ParseError>) -> Option<(GameId, bool)> {
    match command {
        Ok(command) => command.names(),
        Err(error) => match error.gate {
            command::Gate::Abort(id) => Some((id, true)),
            _ => None,
        },
    }
}
