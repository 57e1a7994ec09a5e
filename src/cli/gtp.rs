//! `quentin gtp`: the Go Text Protocol (version 2) engine on standard input and output, so that
//! any GTP controller can play the computer. Nothing but protocol goes to standard output.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result};
use clap::Args;

use crate::rules::{Action, Color, Game, Position, Setup};
use crate::search::{Budget, Level, Limits, Searcher};

use super::limits::{LimitArgs, parse_level};

#[derive(Args, Debug)]
pub(super) struct GtpArgs {
    #[command(flatten)]
    limits: LimitArgs,
    /// The computer's level, 1 to 10 (default 10, full strength); the command `level N`
    /// changes it.
    #[arg(long, value_name = "N", value_parser = parse_level)]
    level: Option<Level>,
}

/// The longest command line read; the rest of a longer line is skipped and refused.
const MAX_LINE: usize = 64 * 1024;

/// Every command, in the order `list_commands` gives them (the tests read it from here).
pub const COMMANDS: [&str; 20] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "set_game",
    "boardsize",
    "set_pie",
    "set_pieces",
    "clear_board",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "final_score",
    "showboard",
    "time_settings",
    "level",
    "explain_last_move",
    "quit",
];

pub(super) fn gtp(args: &GtpArgs) -> Result<()> {
    let mut engine = Gtp::new(Limits {
        level: args.level.unwrap_or(Level::FULL),
        ..args.limits.limits()
    });
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut stdout = std::io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        let (read, too_long) = read_line(&mut input, &mut line).context("cannot read input")?;
        if read == 0 {
            return Ok(());
        }
        let answer = if too_long {
            Some(Answer::failure(None, "line too long".into()))
        } else {
            engine.handle(&String::from_utf8_lossy(&line))
        };
        if let Some(answer) = answer {
            let written = stdout
                .write_all(answer.text.as_bytes())
                .and_then(|()| stdout.flush());
            match written {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                other => other.context("cannot write to standard output")?,
            }
            if answer.quit {
                return Ok(());
            }
        }
    }
}

/// Reads one line into `line` (without its end), at most [`MAX_LINE`] bytes kept. Returns the
/// bytes read in all (0 at the end of input) and whether the line was longer than allowed.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<(usize, bool)> {
    let mut read = 0;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((read, line.len() > MAX_LINE));
        }
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = (MAX_LINE + 1).saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = end.unwrap_or(buf.len());
        input.consume(used);
        read += used;
        if end.is_some() {
            return Ok((read, line.len() > MAX_LINE));
        }
    }
}

/// One answer: its text (with the closing empty line) and whether to quit after it.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Answer {
    pub(super) text: String,
    pub(super) quit: bool,
}

impl Answer {
    fn success(id: Option<&str>, result: &str) -> Answer {
        Answer::with('=', id, result)
    }

    fn failure(id: Option<&str>, error: String) -> Answer {
        Answer::with('?', id, &error)
    }

    fn with(mark: char, id: Option<&str>, body: &str) -> Answer {
        let mut text = String::from(mark);
        if let Some(id) = id {
            text.push_str(id);
        }
        if !body.is_empty() {
            text.push(' ');
            text.push_str(body);
        }
        text.push_str("\n\n");
        Answer { text, quit: false }
    }
}

/// What a GTP session holds: the game and options, the actions played, the computer.
pub(super) struct Gtp {
    setup: Setup,
    position: Position,
    actions: Vec<Action>,
    searcher: Searcher,
    /// The last action `genmove` or `reg_genmove` chose, with what it is worth to its mover
    /// in the interface's words (`e5, 61% for black`), for `explain_last_move`.
    explained: Option<String>,
}

impl Gtp {
    /// A Quentin game of the default size, pie on, searched within `limits`.
    pub(super) fn new(limits: Limits) -> Gtp {
        let setup = Setup::new(Game::Quentin);
        Gtp {
            setup,
            position: start(setup),
            actions: Vec::new(),
            searcher: Searcher::new(limits),
            explained: None,
        }
    }

    /// Answers one line of input; `None` for a line with no command (empty or a comment).
    pub(super) fn handle(&mut self, raw: &str) -> Option<Answer> {
        // GTP: control characters other than tab and newline go; a tab is a space; `#` starts
        // a comment.
        let cleaned: String = raw
            .chars()
            .filter(|&c| !c.is_control() || c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let text = cleaned.split('#').next().unwrap_or("");
        let mut words = text.split_whitespace();
        let mut first = words.next()?;
        let mut id = None;
        if first.bytes().all(|b| b.is_ascii_digit()) {
            id = Some(first);
            match words.next() {
                Some(w) => first = w,
                None => return Some(Answer::failure(id, "missing command".into())),
            }
        }
        let args: Vec<&str> = words.collect();
        Some(match self.command(first, &args) {
            Ok(Reply::Text(result)) => Answer::success(id, &result),
            Ok(Reply::Quit) => Answer {
                quit: true,
                ..Answer::success(id, "")
            },
            Err(error) => Answer::failure(id, error),
        })
    }

    fn command(&mut self, name: &str, args: &[&str]) -> Result<Reply, String> {
        let text = |s: String| Ok(Reply::Text(s));
        match (name, args) {
            ("protocol_version", []) => text("2".into()),
            ("name", []) => text("quentin".into()),
            ("version", []) => text(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [command]) => text(COMMANDS.contains(command).to_string()),
            ("list_commands", []) => text(COMMANDS.join("\n")),
            ("set_game", [game]) => {
                let game = Game::from_name(game).ok_or_else(|| format!("unknown game {game}"))?;
                self.new_game(Setup::new(game))
            }
            ("boardsize", [n]) => {
                let size = n
                    .parse::<u64>()
                    .ok()
                    .and_then(|n| Setup::check_size(self.setup.game, n).ok())
                    .ok_or("unacceptable size")?;
                self.new_game(Setup { size, ..self.setup })
            }
            ("set_pie", [on]) => {
                let pie = match *on {
                    "on" => true,
                    "off" => false,
                    _ => return Err("set_pie takes on or off".into()),
                };
                if pie && !self.setup.game.has_pie() {
                    return Err(format!("{} has no pie rule", self.setup.game.title()));
                }
                self.new_game(Setup { pie, ..self.setup })
            }
            ("set_pieces", [n]) => {
                let n = n
                    .parse::<u64>()
                    .map_err(|_| format!("{n} is not a number"))?;
                let pieces = Setup::check_pieces(self.setup.game, n).map_err(|e| e.to_string())?;
                self.new_game(Setup {
                    pieces,
                    ..self.setup
                })
            }
            ("clear_board", []) => self.new_game(self.setup),
            ("play", [color, token]) => {
                let color = parse_color(color)?;
                self.check_side(color)
                    .map_err(|e| format!("illegal move: {e}"))?;
                let action = Action::parse(token).map_err(|e| format!("illegal move: {e}"))?;
                self.play(action).map(|()| Reply::Text(String::new()))
            }
            ("genmove", [color]) => {
                self.check_turn(color)?;
                let action = self.choose()?;
                self.play(action)?;
                text(action.to_string())
            }
            ("reg_genmove", [color]) => {
                self.check_turn(color)?;
                text(self.choose()?.to_string())
            }
            ("undo", []) => {
                if self.actions.pop().is_none() {
                    return Err("cannot undo".into());
                }
                self.position = replay(self.setup, &self.actions);
                text(String::new())
            }
            ("final_score", []) => match self.position.outcome() {
                None => Err("game not over".into()),
                Some(outcome) => text(match outcome.winner() {
                    Some(Color::Black) => "B+".into(),
                    Some(Color::White) => "W+".into(),
                    None => "0".into(),
                }),
            },
            ("showboard", []) => {
                // An empty line would end the answer early: GTP answers have none.
                let board = crate::position_view::text(&self.position, &self.actions);
                let lines: Vec<&str> = board.lines().filter(|l| !l.trim().is_empty()).collect();
                text(format!("\n{}", lines.join("\n")))
            }
            ("time_settings", [main, byo, stones]) => {
                let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
                let (Some(main), Some(byo), Some(stones)) =
                    (number(main), number(byo), number(stones))
                else {
                    return Err("time_settings takes three numbers".into());
                };
                // An engine started with `--playouts N` keeps them, as a fixed-playout engine
                // of other programs does: the controller's time would silently turn it into a
                // timed one, its moves no longer the same on every run.
                if matches!(self.searcher.limits().budget, Budget::Playouts(_)) {
                    return text(String::new());
                }
                let seconds = if byo > 0.0 && stones > 0.0 {
                    byo / stones
                } else {
                    main / 30.0
                };
                let limits = Limits {
                    budget: Budget::Seconds((seconds * 0.9).clamp(0.01, 86_400.0)),
                    ..self.searcher.limits()
                };
                self.searcher.set_limits(limits);
                text(String::new())
            }
            ("level", [n]) => {
                let level = parse_level(n)?;
                self.searcher.set_limits(Limits {
                    level,
                    ..self.searcher.limits()
                });
                text(String::new())
            }
            ("explain_last_move", []) => self
                .explained
                .clone()
                .map(Reply::Text)
                .ok_or_else(|| "no move chosen yet".to_string()),
            ("quit", []) => Ok(Reply::Quit),
            (name, _) if COMMANDS.contains(&name) => Err(format!("wrong arguments for {name}")),
            _ => Err("unknown command".into()),
        }
    }

    fn new_game(&mut self, setup: Setup) -> Result<Reply, String> {
        let position = setup.start().map_err(|e| e.to_string())?;
        self.setup = setup;
        self.position = position;
        self.actions.clear();
        self.explained = None;
        Ok(Reply::Text(String::new()))
    }

    /// Checks that `color` names the side to move.
    fn check_turn(&self, color: &str) -> Result<(), String> {
        self.check_side(parse_color(color)?)
    }

    /// Checks that `color` is the side to move.
    fn check_side(&self, color: Color) -> Result<(), String> {
        match self.position.to_move() {
            None => Err("the game is over".into()),
            Some(c) if c == color => Ok(()),
            Some(c) => Err(format!("it is {c}'s turn")),
        }
    }

    fn play(&mut self, action: Action) -> Result<(), String> {
        self.position
            .play(action)
            .map_err(|e| format!("illegal move: {e}"))?;
        self.actions.push(action);
        self.searcher.advance(action);
        Ok(())
    }

    fn choose(&mut self) -> Result<Action, String> {
        let report = self
            .searcher
            .search(&self.position, &AtomicBool::new(false), |_| {});
        let best = report.best.ok_or_else(|| "the game is over".to_string())?;
        let mover = report.to_move.map_or("nobody", Color::name);
        self.explained = Some(format!("{best}{}", report.worth(&format!("for {mover}"))));
        Ok(best)
    }
}

/// The colour a GTP argument names: `b`, `black`, `w` or `white`, in any case.
fn parse_color(word: &str) -> Result<Color, String> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("{word} is not a colour")),
    }
}

/// What a command answers.
enum Reply {
    Text(String),
    Quit,
}

/// The start of a valid setup.
fn start(setup: Setup) -> Position {
    // Every setup the engine keeps was started once already, by `new_game` or `Setup::new`.
    setup
        .start()
        .unwrap_or_else(|_| unreachable!("a kept setup starts"))
}

/// The position after `actions` from the start of `setup`, every one of which played before.
fn replay(setup: Setup, actions: &[Action]) -> Position {
    let mut position = start(setup);
    for &a in actions {
        // Each was played from this very position before.
        let _ = position.play(a);
    }
    position
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gtp() -> Gtp {
        Gtp::new(Limits {
            budget: Budget::Playouts(50),
            threads: 1,
            seed: Some(1),
            nodes: 0,
            level: Level::FULL,
        })
    }

    fn ask(e: &mut Gtp, line: &str) -> String {
        e.handle(line).map(|a| a.text).unwrap_or_default()
    }

    #[test]
    fn ids_comments_and_errors() {
        let mut e = gtp();
        assert_eq!(ask(&mut e, "12 protocol_version"), "=12 2\n\n");
        assert_eq!(ask(&mut e, "  # only a comment"), "");
        assert_eq!(ask(&mut e, "name # the name"), "= quentin\n\n");
        assert_eq!(ask(&mut e, "frobnicate"), "? unknown command\n\n");
        assert_eq!(ask(&mut e, "boardsize 99"), "? unacceptable size\n\n");
        assert_eq!(
            ask(&mut e, "7 boardsize"),
            "?7 wrong arguments for boardsize\n\n"
        );
        assert_eq!(ask(&mut e, "undo"), "? cannot undo\n\n");
        assert_eq!(ask(&mut e, "final_score"), "? game not over\n\n");
        assert!(ask(&mut e, "play w a1").starts_with("? illegal move: it is black's turn"));
    }

    #[test]
    fn time_settings_give_a_timed_engine_its_time_and_leave_fixed_playouts_alone() {
        let mut fixed = gtp();
        assert_eq!(ask(&mut fixed, "time_settings 0 2 1"), "=\n\n");
        assert_eq!(fixed.searcher.limits().budget, Budget::Playouts(50));
        let mut timed = Gtp::new(Limits {
            budget: Budget::Seconds(1.0),
            ..gtp().searcher.limits()
        });
        assert_eq!(ask(&mut timed, "time_settings 0 2 1"), "=\n\n");
        assert_eq!(timed.searcher.limits().budget, Budget::Seconds(1.8));
        assert_eq!(ask(&mut timed, "time_settings 300 0 0"), "=\n\n");
        assert_eq!(timed.searcher.limits().budget, Budget::Seconds(9.0));
    }

    #[test]
    fn long_lines_are_cut_and_refused() {
        let mut input = std::io::Cursor::new(format!("{}\nname\n", "x".repeat(MAX_LINE * 2)));
        let mut line = Vec::new();
        assert!(read_line(&mut input, &mut line).unwrap().1);
        assert!(line.len() <= MAX_LINE + 1);
        line.clear();
        assert_eq!(read_line(&mut input, &mut line).unwrap(), (5, false));
        assert_eq!(line, b"name");
    }
}
