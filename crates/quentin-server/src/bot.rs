//! `ssh HOST bot`: the line protocol for programs, in GTP's style. Each command is one line;
//! each answer is `= RESULT` or `? REASON`, then an empty line. docs/server.md has the commands
//! and a transcript.

mod puzzle;

use std::fmt::Write as _;
use std::sync::Arc;

use tokio::sync::watch;

use quentin_rules::{Action, Game};

use super::channel::{Ended, Inbox, Input, Out};
use super::hub::{GameView, PAGE, Refusal, Rematch};
use super::moderation::{ORDER_WORDS, session};
use super::spec::{Spec, shown};
use super::{Context, Presence};

pub(crate) mod tournament;

/// The longest command line read, in bytes before its newline; a longer one is refused whole.
const MAX_LINE: usize = 4096;

/// Who the session is: the key's fingerprint and, once registered, the player.
pub struct Who {
    /// The SSH key's SHA-256 fingerprint.
    pub key: String,
    /// The address it connected from.
    pub address: Option<std::net::IpAddr>,
    /// The player's number and name.
    pub player: Option<(i64, String)>,
}

impl Who {
    /// Who this is, for the host's reports: the player's name, or the key of one unregistered.
    #[must_use]
    pub fn shown(&self) -> String {
        match &self.player {
            Some((_, name)) => name.clone(),
            None => format!("key {}", self.key),
        }
    }
}

/// The session's input: the bytes that came and not yet read, and whether more may come.
struct Reader {
    input: Inbox,
    open: bool,
    pending: Vec<u8>,
    /// Ends (its sender dropped) when the channel closes or the connection goes.
    alive: watch::Receiver<()>,
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
        let words: Vec<&str> = text.split_ascii_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        // A challenge or game this process has not heard of may have been made on another a
        // moment ago: the database is asked before the command is answered.
        if who.player.is_some()
            && NAMES_AN_ID.contains(&words[0])
            && let Ok(id) = id_of(&words)
        {
            let game = !matches!(words[0], "accept" | "withdraw");
            ctx.hub.look_up(id, game).await;
        }
        let answer = match words[0] {
            "quit" => {
                let _ = out.send(b"=\n\n").await;
                break;
            }
            "wait" => wait(&ctx, &who, &words, &mut reader).await,
            "rematch" => rematch(&ctx, &who, &words, &mut reader).await,
            _ => command(&ctx, &mut who, &words).await,
        };
        presence.player = who.player.as_ref().map(|(id, _)| *id);
        // Registered in this session: a ban closes it from now on.
        if let Some(id) = presence.player
            && !reader.input.closes()
        {
            reader.input.close_when(session::banned(ctx.clone(), id));
        }
        let Some(answer) = answer else { break };
        let text = match answer {
            Ok(text) if text.is_empty() => "=\n\n".to_string(),
            Ok(text) => format!("= {text}\n\n"),
            Err(why) => format!("? {why}\n\n"),
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

type Answer = Result<String, String>;

/// The commands whose first word after them is a challenge's or a game's number.
const NAMES_AN_ID: [&str; 9] = [
    "accept", "withdraw", "wait", "play", "resign", "abort", "takeback", "rematch", "record",
];

fn id_of(words: &[&str]) -> Result<i64, String> {
    words
        .get(1)
        .ok_or_else(|| format!("{} needs a game number", words[0]))?
        .parse()
        .map_err(|_| "bad game number".to_string())
}

async fn command(ctx: &Context, who: &mut Who, words: &[&str]) -> Option<Answer> {
    let now = ctx.clock.now();
    let hub = &ctx.hub;
    let answer = match (words[0], &who.player) {
        ("register", None) => match words.get(1) {
            Some(name) if words.len() == 2 => match ctx.signups.may(who.address) {
                Err(why) => Err(why),
                Ok(()) => match hub.register(&who.key, name, now).await {
                    Ok((id, name)) => {
                        ctx.signups.counted(who.address);
                        if let Err(refusal) = hub.enter(id, ctx.limits.sessions_per_key) {
                            return Some(Err(refusal.to_string()));
                        }
                        who.player = Some((id, name));
                        Ok(String::new())
                    }
                    Err(refusal) => Err(refusal.to_string()),
                },
            },
            _ => Err("register NAME".to_string()),
        },
        ("register", Some((id, _))) if session::renamed(ctx, *id) => match words {
            [_, name] => session::pick(ctx, *id, name).await.map(|me| {
                who.player = Some(me);
                String::new()
            }),
            _ => Err("register NAME".to_string()),
        },
        ("register", Some((_, name))) => Err(format!("already registered as {name}")),
        ("whoami", _) if words.len() > 1 => Err("whoami takes no words after it".to_string()),
        ("whoami", Some((_, name))) => Ok(name.clone()),
        ("motd", _) if words.len() > 1 => Err("motd takes no words after it".to_string()),
        // The host's message of the day, a line a line (none: `=` alone), to anyone.
        ("motd", _) => Ok(ctx.access.lists().motd.join("\n")),
        (word, _) if ORDER_WORDS.contains(&word) => session::order(ctx, who, words).await,
        ("abort", _) if id_of(words).is_ok_and(|id| session::operator_abort(ctx, who, id)) => {
            session::order(ctx, who, words).await
        }
        (word, Some((id, _))) if word != "whoami" && session::renamed(ctx, *id) => {
            Err(session::RENAMED.to_string())
        }
        #[cfg(feature = "test-hooks")]
        ("clock", _) => advance(ctx, words).await,
        // Fault injection for the tests: a failing disk under SQLite (`store fail`, `store heal`).
        #[cfg(feature = "test-hooks")]
        ("store", _) => {
            let failing = words.get(1) == Some(&"fail");
            super::store::sqlite::FAILING.store(failing, std::sync::atomic::Ordering::SeqCst);
            Ok(String::new())
        }
        // Fault injection for the tests: a move's transaction left open on game ID.
        #[cfg(feature = "test-hooks")]
        ("hold", _) => match id_of(words) {
            Ok(id) => ctx.hub.hold(id).await.map(|()| String::new()),
            Err(why) => Err(why),
        },
        // Fault injection for the tests: the session's task panics.
        #[cfg(feature = "test-hooks")]
        ("panic", _) => panic!("the test hook `panic`, as asked"),
        (_, None) => Err("register first: register NAME".to_string()),
        ("challenge", Some((id, _))) => match Spec::parse(&words[1..]) {
            Ok(spec) => said(hub.challenge(*id, &spec, now).await.map(|n| n.to_string())),
            Err(why) => Err(why),
        },
        ("tournament", Some(_)) if words.get(1) == Some(&"cancel") => {
            tournament::cancel(ctx, who, words).await
        }
        ("messages", Some((me, _))) => tournament::messages(ctx, *me, words).await,
        ("tournament" | "tournaments" | "join", Some((me, _))) => {
            tournament::command(ctx, *me, words, now).await
        }
        ("withdraw", Some((me, _))) if words.get(1).is_some_and(|w| w.starts_with(['t', 'T'])) => {
            tournament::command(ctx, *me, words, now).await
        }
        ("withdraw", Some((me, _))) => match id_of(words) {
            Ok(id) => said(hub.withdraw(*me, id).await.map(|()| String::new())),
            Err(why) => Err(why),
        },
        ("challenges", Some(_)) => challenges(hub, &words[1..]),
        ("accept", Some((me, _))) => match id_of(words) {
            Ok(id) => said(
                hub.accept(*me, id, now)
                    .await
                    .map(|(id, color)| format!("{id} {color}")),
            ),
            Err(why) => Err(why),
        },
        ("play", Some((me, _))) => match play_words(words) {
            Ok((id, action)) => said(hub.play(*me, id, action, now).await.map(|()| String::new())),
            Err(why) => Err(why),
        },
        ("resign", Some((me, _))) => match id_of(words) {
            Ok(id) => said(hub.resign(*me, id, now).await.map(|()| String::new())),
            Err(why) => Err(why),
        },
        ("abort", Some((me, _))) => match id_of(words) {
            Ok(id) if words.len() == 2 => {
                said(hub.abort(*me, id, now).await.map(|()| String::new()))
            }
            Ok(_) => Err("abort ID".to_string()),
            Err(why) => Err(why),
        },
        ("takeback", Some((me, _))) => match id_of(words) {
            Ok(id) => takeback(ctx, *me, id, words.get(2..).unwrap_or_default()).await,
            Err(why) => Err(why),
        },
        ("record", Some(_)) => id_of(words).and_then(|id| {
            hub.record(id, now)
                .map(|r| r.trim_end().to_string())
                .ok_or_else(|| hub.missing(id).to_string())
        }),
        ("games", Some((me, _))) => games(hub, *me, now, &words[1..]),
        ("puzzle", Some((me, _))) => puzzle::puzzle(ctx, *me, &words[1..]).await,
        ("solve", Some((me, _))) => puzzle::solve(ctx, *me, &words[1..]).await,
        (word, Some(_)) => Err(format!("unknown command {}", shown(word))),
    };
    Some(answer)
}

/// The line that ends a page of a listing with `more` left: `more N: COMMAND`, the command
/// that asks for the next page.
fn more_line(more: usize, next: &str) -> String {
    format!("more {more}: {next}")
}

/// `challenges [GAME] [after ID]`: the open challenges numbered after ID, of GAME when given,
/// oldest first, a page at most ([`PAGE`] lines), then `more N: challenges [GAME] after LAST`
/// when there are more.
fn challenges(hub: &super::hub::Hub, words: &[&str]) -> Answer {
    let usage = || "challenges [GAME] [after ID]".to_string();
    let (mut game, mut after) = (None, 0);
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        match (*word, Game::from_name(word)) {
            ("after", _) => after = rest.next().and_then(|n| n.parse().ok()).ok_or_else(usage)?,
            (_, Some(g)) if game.is_none() => game = Some(g),
            _ => return Err(usage()),
        }
    }
    let (page, more) = hub.challenges_page(game, after, PAGE);
    let mut lines: Vec<String> = page.iter().map(super::hub::ChallengeView::line).collect();
    if more > 0
        && let Some(last) = page.last()
    {
        let game = game.map(|g| format!("{} ", g.name())).unwrap_or_default();
        lines.push(more_line(
            more,
            &format!("challenges {game}after {}", last.id),
        ));
    }
    Ok(lines.join("\n"))
}

/// `games [--json] [skip N]`: this player's games, the unfinished first, then the finished,
/// each newest first, N left out, a page at most ([`PAGE`]), then `more N: games [--json] skip
/// M` when there are more (after the JSON array's line, with `--json`).
fn games(hub: &super::hub::Hub, me: i64, now: i64, words: &[&str]) -> Answer {
    let usage = || "games [--json] [skip N]".to_string();
    let (mut json, mut skip) = (false, 0);
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        match *word {
            "--json" if !json => json = true,
            "skip" => skip = rest.next().and_then(|n| n.parse().ok()).ok_or_else(usage)?,
            _ => return Err(usage()),
        }
    }
    let (page, more) = hub.games_page(me, now, skip, PAGE);
    let mut lines = if json {
        vec![games_json(&page, me)]
    } else {
        page.iter().map(|g| game_line(g, me)).collect()
    };
    if more > 0 {
        let json = if json { "--json " } else { "" };
        let next = skip + page.len();
        lines.push(more_line(more, &format!("games {json}skip {next}")));
    }
    Ok(lines.join("\n"))
}

/// `takeback ID` asks (`= asked N`, the number of actions it would take back), `takeback ID
/// yes` agrees to the opponent's asking (`= taken N`), `takeback ID no` declines it.
async fn takeback(ctx: &Context, me: i64, id: i64, rest: &[&str]) -> Answer {
    let now = ctx.clock.now();
    let hub = &ctx.hub;
    let view = hub
        .game(id, now)
        .ok_or_else(|| hub.missing(id).to_string())?;
    let seat = view.seat(me).ok_or("not your game")?;
    let theirs = view.takeback_asked().filter(|(asker, _)| *asker != seat);
    match (rest, theirs) {
        ([], Some(_)) => Err(format!(
            "your opponent asked for a takeback: takeback {id} yes, or takeback {id} no"
        )),
        ([], None) => {
            hub.takeback(me, id, now).await.map_err(|r| r.to_string())?;
            let asked = hub
                .game(id, ctx.clock.now())
                .and_then(|v| v.takeback_asked())
                .map_or(0, |(_, n)| n);
            Ok(format!("asked {asked}"))
        }
        (["yes"], Some((_, n))) => {
            hub.takeback(me, id, now).await.map_err(|r| r.to_string())?;
            Ok(format!("taken {n}"))
        }
        (["no"], Some(_)) => said(
            hub.decline_takeback(me, id, now)
                .await
                .map(|()| String::new()),
        ),
        (["yes" | "no"], None) => Err("no takeback asked".to_string()),
        _ => Err("takeback ID [yes|no]".to_string()),
    }
}

/// `rematch ID`: offers a rematch of a finished game, or accepts the opponent's offer; the
/// first to ask waits until the other asks too (`= NEW-ID`) or declines (`= declined`).
/// `rematch ID no` declines the opponent's offer. `None` when the session ended while waiting.
async fn rematch(ctx: &Context, who: &Who, words: &[&str], reader: &mut Reader) -> Option<Answer> {
    let Some((me, _)) = who.player else {
        return Some(Err("register first: register NAME".to_string()));
    };
    let id = match id_of(words) {
        Ok(id) => id,
        Err(e) => return Some(Err(e)),
    };
    match words.get(2..).unwrap_or_default() {
        [] => {}
        ["no"] => {
            return Some(said(
                ctx.hub.decline_rematch(me, id).map(|()| String::new()),
            ));
        }
        _ => return Some(Err("rematch ID [no]".to_string())),
    }
    let mut news = match ctx.hub.watch_game(id) {
        Ok(news) => news,
        Err(refusal) => return Some(Err(refusal.to_string())),
    };
    if let Err(refusal) = ctx.hub.rematch(me, id, ctx.clock.now()).await {
        return Some(Err(refusal.to_string()));
    }
    loop {
        news.borrow_and_update();
        match ctx
            .hub
            .game(id, ctx.clock.now())
            .and_then(|g| g.rematch_state)
        {
            Some(Rematch::Started(next)) => return Some(Ok(next.to_string())),
            Some(Rematch::Declined) | None => return Some(Ok("declined".to_string())),
            Some(Rematch::Offered) => {}
        }
        tokio::select! {
            changed = news.changed() => if changed.is_err() { return None },
            gone = reader.alive.changed() => if gone.is_err() { return None },
            () = reader.input.stopping() => return None,
        }
    }
}

/// A hub's answer in the protocol's words.
fn said(answer: Result<String, Refusal>) -> Answer {
    answer.map_err(|refusal| refusal.to_string())
}

/// `play ID ACTION`'s game and action.
fn play_words(words: &[&str]) -> Result<(i64, Action), String> {
    let id = id_of(words)?;
    let token = words.get(2).ok_or("play ID ACTION")?;
    let action = Action::parse(token)
        .map_err(|e| format!("illegal move: {} is not an action ({e})", shown(token)))?;
    Ok((id, action))
}

/// `clock advance SECONDS`, on a test server only (built with the `test-hooks` feature).
#[cfg(feature = "test-hooks")]
async fn advance(ctx: &Context, words: &[&str]) -> Answer {
    let seconds: f64 = match words {
        [_, "advance", s] => s.parse().map_err(|_| "clock advance SECONDS")?,
        _ => return Err("clock advance SECONDS".to_string()),
    };
    if !ctx.clock.advance((seconds * 1000.0) as i64) {
        return Err("unknown command clock".to_string());
    }
    ctx.hub.tick(ctx.clock.now()).await;
    ctx.hub.direct(ctx.clock.now()).await;
    Ok(String::new())
}

/// `wait ID`: until it is this player's turn (`= turn LAST`) or the game is over (`= over
/// RESULT`). `None` when the session ended while waiting.
async fn wait(ctx: &Context, who: &Who, words: &[&str], reader: &mut Reader) -> Option<Answer> {
    let Some((me, _)) = who.player else {
        return Some(Err("register first: register NAME".to_string()));
    };
    let id = match id_of(words) {
        Ok(id) => id,
        Err(e) => return Some(Err(e)),
    };
    // One's own open challenge: its game, once accepted (it keeps the number).
    let mut news = loop {
        match ctx.hub.watch_game(id) {
            Ok(news) => break news,
            Err(refusal) => match waiting_challenge(ctx, me, id, reader).await {
                Waited::Accepted => {}
                Waited::Withdrawn => return Some(Ok("withdrawn".to_string())),
                Waited::NotOpen => return Some(Err(refusal.to_string())),
                Waited::Gone => return None,
            },
        }
    };
    loop {
        news.borrow_and_update();
        let Some(game) = ctx.hub.game(id, ctx.clock.now()) else {
            return Some(Err(ctx.hub.missing(id).to_string()));
        };
        let Some(seat) = game.seat(me) else {
            return Some(Err("not your game".to_string()));
        };
        if let Some(result) = game.result_words() {
            return Some(Ok(format!("over {result}")));
        }
        // The opponent asks for a takeback: the answer waits on this player.
        if let Some((_, n)) = game.takeback_asked().filter(|(asker, _)| *asker != seat) {
            return Some(Ok(format!("takeback {n}")));
        }
        if game.to_move == Some(seat) {
            let last = game
                .actions
                .last()
                .map_or("-".to_string(), Action::to_string);
            return Some(Ok(format!("turn {last}")));
        }
        // Input that comes meanwhile waits in the channel's queue for after the answer.
        tokio::select! {
            changed = news.changed() => if changed.is_err() { return None },
            gone = reader.alive.changed() => if gone.is_err() { return None },
            () = reader.input.stopping() => return None,
        }
    }
}

/// How the wait for one's own challenge ended.
enum Waited {
    /// Its game has started.
    Accepted,
    /// It was withdrawn (by another session of the player).
    Withdrawn,
    /// It is no open challenge of this player.
    NotOpen,
    /// The session ended meanwhile.
    Gone,
}

/// Waits while `me`'s challenge `id` is open: until it is accepted or withdrawn.
async fn waiting_challenge(ctx: &Context, me: i64, id: i64, reader: &mut Reader) -> Waited {
    let mut lobby = ctx.hub.watch_lobby();
    let mut seen = false;
    loop {
        lobby.borrow_and_update();
        let mine = ctx.hub.has_open_challenge(me, id);
        if !mine {
            return match (seen, ctx.hub.game(id, ctx.clock.now()).is_some()) {
                (_, true) => Waited::Accepted,
                (true, false) => Waited::Withdrawn,
                (false, false) => Waited::NotOpen,
            };
        }
        seen = true;
        tokio::select! {
            changed = lobby.changed() => if changed.is_err() { return Waited::Gone },
            gone = reader.alive.changed() => if gone.is_err() { return Waited::Gone },
            () = reader.input.stopping() => return Waited::Gone,
        }
    }
}

fn state(game: &GameView, seat: usize) -> String {
    let asked = game.takeback_asked().filter(|(asker, _)| *asker != seat);
    match (game.result_words(), game.to_move) {
        (Some(result), _) => format!("over {result}"),
        (None, _) if asked.is_some() => format!("takeback {}", asked.map_or(0, |(_, n)| n)),
        (None, Some(s)) if s == seat => "turn".to_string(),
        _ => "waiting".to_string(),
    }
}

/// `ID GAME SIZE OPPONENT COLOUR STATE LEFT`: `12 quentin 5 bob black turn 598s`.
fn game_line(game: &GameView, me: i64) -> String {
    let seat = game.seat(me).unwrap_or(0);
    let mut line = format!(
        "{} {} {} {} {} {}",
        game.id,
        game.setup.game,
        game.setup.size,
        game.names[1 - seat],
        game.color(seat),
        state(game, seat)
    );
    let _ = write!(line, " {}s", game.left[seat] / 1000);
    line
}

fn games_json(games: &[GameView], me: i64) -> String {
    let list: Vec<serde_json::Value> = games
        .iter()
        .map(|g| {
            let seat = g.seat(me).unwrap_or(0);
            serde_json::json!({
                "id": g.id,
                "game": g.setup.game.name(),
                "size": g.setup.size,
                "opponent": g.names[1 - seat],
                "colour": g.color(seat).name(),
                "state": state(g, seat),
                "actions": g.actions.len(),
                "clock": g.clock.to_string(),
                "rated": g.rated,
                "my_time_ms": g.left[seat],
                "their_time_ms": g.left[1 - seat],
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}
