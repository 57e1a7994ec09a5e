//! A GTP engine as the opponent of `quentin match`: a child process spoken to over its standard
//! input and output, one process a game. The referee sets the game up, tells the engine the
//! other side's moves (`play`) and asks for its own (`genmove`); every answer has a deadline.
//! The child and everything it started (its own process group) are killed and reaped when the
//! game ends, however it ends: a finished game, a forfeit, an interruption or an error.
//!
//! The engine hears only commands that the build of commit d5e668d knew (`set_game`,
//! `boardsize`, `set_pie`, `set_pieces`, `time_settings`, `play`, `genmove`, `quit`), and
//! `level` only when `--opponent-level` asks for it, so that an older build can be the opponent.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use crate::rules::{Action, Color, Setup};
use crate::search::Level;

/// The longest line of an answer; a longer one is a broken answer.
const MAX_LINE: usize = 64 * 1024;

/// The most lines of an answer; an engine that goes on past them is broken.
const MAX_LINES: usize = 1000;

/// The lines read ahead of the referee; beyond them the engine waits to write.
const READ_AHEAD: usize = 64;

/// How often a wait for an answer looks whether the match was interrupted.
const POLL: Duration = Duration::from_millis(50);

/// How long the referee waits for the answer to `quit`, and for a process whose output ended
/// to say how it exited.
const GRACE: Duration = Duration::from_secs(1);

/// The terms a GTP opponent plays by.
#[derive(Debug, Clone)]
pub(super) struct Terms {
    /// The program and its arguments.
    pub(super) words: Vec<String>,
    /// Seconds a move, told by `time_settings 0 S 1`.
    pub(super) seconds: f64,
    /// The level, told by `level N` (a command of ours that d5e668d's build does not know).
    pub(super) level: Option<Level>,
}

impl Terms {
    /// How long an answer may take: ten times the time a move, and five seconds more for the
    /// start of the process and a loaded machine. Only a hang runs into it.
    pub(super) fn deadline(&self) -> Duration {
        Duration::from_secs_f64(5.0 + 10.0 * self.seconds)
    }
}

/// Why the engine could not go on.
#[derive(Debug)]
pub(super) enum Failure {
    /// It cannot be started or refuses the terms of the match: no game can be played.
    Stop(String),
    /// It broke the protocol, exited, hung or refused a legal move: it loses the game.
    Forfeit(String),
    /// The match was interrupted (Ctrl-C, SIGTERM, SIGHUP).
    Interrupted,
}

/// What the thread reading the engine's output passes on.
enum Output {
    Line(String),
    TooLong,
    End,
}

/// One running engine.
pub(super) struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Output>,
    next_id: u64,
    deadline: Duration,
    /// Whether the child has been waited for already (then it must not be signalled).
    reaped: bool,
}

impl Engine {
    /// Starts the engine of `terms` and sets up a game of `setup`.
    ///
    /// # Errors
    /// [`Failure::Stop`] when the program cannot be started or refuses a command of the setup,
    /// [`Failure::Forfeit`] when it breaks down during it.
    pub(super) fn start(terms: &Terms, setup: Setup, stop: &AtomicBool) -> Result<Engine, Failure> {
        let mut engine = Engine::spawn(terms)?;
        let game = setup.game;
        let mut commands = vec![
            format!("set_game {}", game.name()),
            format!("boardsize {}", setup.size),
        ];
        if game.has_pie() {
            commands.push(format!("set_pie {}", if setup.pie { "on" } else { "off" }));
        }
        if setup.pieces > 0 {
            commands.push(format!("set_pieces {}", setup.pieces));
        }
        commands.push(format!("time_settings 0 {} 1", terms.seconds));
        if let Some(level) = terms.level {
            commands.push(format!("level {}", level.get()));
        }
        for command in commands {
            engine
                .ask(&command, stop)?
                .map_err(|why| Failure::Stop(format!("the opponent refused `{command}`: {why}")))?;
        }
        Ok(engine)
    }

    /// Starts the program in a process group of its own, its output read by a thread.
    fn spawn(terms: &Terms) -> Result<Engine, Failure> {
        let Some((program, args)) = terms.words.split_first() else {
            return Err(Failure::Stop("the opponent's command is empty".into()));
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        {
            // Its own group: one signal reaches whatever it starts, and a Ctrl-C at the
            // terminal reaches only the referee, which then ends the engine itself.
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Failure::Stop(format!("cannot start {program}: {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (sender, output) = mpsc::sync_channel(READ_AHEAD);
        let engine = Engine {
            child,
            stdin,
            output,
            next_id: 0,
            deadline: terms.deadline(),
            reaped: false,
        };
        if let Some(stdout) = stdout {
            // The thread ends when the output does, at the latest when the group is killed.
            std::thread::Builder::new()
                .name("gtp-opponent".into())
                .spawn(move || read_lines(stdout, &sender))
                .map_err(|e| Failure::Stop(format!("cannot read the opponent: {e}")))?;
        }
        Ok(engine)
    }

    /// Asks the engine to choose and play a move for `colour`; returns its answer as given.
    ///
    /// # Errors
    /// A forfeit when it refuses or breaks down, or the interruption of the match.
    pub(super) fn genmove(&mut self, colour: Color, stop: &AtomicBool) -> Result<String, Failure> {
        let command = format!("genmove {}", gtp_colour(colour));
        self.ask(&command, stop)?
            .map_err(|why| Failure::Forfeit(format!("refused `{command}`: {why}")))
    }

    /// Tells the engine that `colour` played `action`, a legal move.
    ///
    /// # Errors
    /// A forfeit when it refuses or breaks down, or the interruption of the match.
    pub(super) fn play(
        &mut self,
        colour: Color,
        action: Action,
        stop: &AtomicBool,
    ) -> Result<(), Failure> {
        let command = format!("play {} {action}", gtp_colour(colour));
        self.ask(&command, stop)?
            .map(drop)
            .map_err(|why| Failure::Forfeit(format!("refused `{command}`, a legal move: {why}")))
    }

    /// Says goodbye at the end of a game, waiting a moment for the answer; the process is
    /// ended when the engine is dropped, whatever it answered.
    pub(super) fn quit(mut self, stop: &AtomicBool) {
        self.deadline = GRACE;
        let _ = self.ask("quit", stop);
    }

    /// Sends `command` and waits for its answer: `Ok` with the text of a success, `Err` with
    /// that of a failure (`? …`).
    fn ask(&mut self, command: &str, stop: &AtomicBool) -> Result<Result<String, String>, Failure> {
        self.next_id += 1;
        let id = self.next_id;
        let sent = match self.stdin.as_mut() {
            // One write for the whole line: a pipe takes it at once, so an engine (or a logger
            // before it) killed mid-match never holds half a command.
            Some(stdin) => stdin
                .write_all(format!("{id} {command}\n").as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if let Err(e) = sent {
            return Err(Failure::Forfeit(self.ended(command, &e.to_string())));
        }
        let started = Instant::now();
        let mut head = None;
        let mut lines = Vec::new();
        loop {
            let line = self.next_line(command, started, stop)?;
            let blank = line.trim().is_empty();
            match head {
                // Blank lines before an answer are tolerated.
                None if blank => {}
                None => {
                    let (success, first) = parse_head(&line, id).ok_or_else(|| {
                        Failure::Forfeit(format!(
                            "answered `{command}` with {:?}, which is not a GTP answer",
                            shortened(&line)
                        ))
                    })?;
                    head = Some(success);
                    lines.push(first.to_string());
                }
                Some(success) if blank => {
                    let text = lines.join("\n");
                    return Ok(if success { Ok(text) } else { Err(text) });
                }
                Some(_) if lines.len() >= MAX_LINES => {
                    return Err(Failure::Forfeit(format!(
                        "answered `{command}` with more than {MAX_LINES} lines"
                    )));
                }
                Some(_) => lines.push(line),
            }
        }
    }

    /// The next line of the engine's output, waiting at most until the deadline of the
    /// command sent at `started`.
    fn next_line(
        &mut self,
        command: &str,
        started: Instant,
        stop: &AtomicBool,
    ) -> Result<String, Failure> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(Failure::Interrupted);
            }
            let Some(left) = self.deadline.checked_sub(started.elapsed()) else {
                return Err(Failure::Forfeit(format!(
                    "did not answer `{command}` within {:.1} s",
                    self.deadline.as_secs_f64()
                )));
            };
            match self.output.recv_timeout(left.min(POLL)) {
                Ok(Output::Line(line)) => return Ok(line),
                Ok(Output::TooLong) => {
                    return Err(Failure::Forfeit(format!(
                        "answered `{command}` with a line longer than {MAX_LINE} bytes"
                    )));
                }
                Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Forfeit(self.ended(command, "its output ended")));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Why the engine stopped listening or answering during `command`: how it exited, if it
    /// did within a moment, else `what` happened.
    fn ended(&mut self, command: &str, what: &str) -> String {
        let started = Instant::now();
        while started.elapsed() < GRACE {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    // Whatever it started goes with it.
                    kill_group(&self.child);
                    return format!("exited ({status}) during `{command}`");
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        format!("stopped answering during `{command}`: {what}")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Its input ends, then the process and its whole group are killed and reaped: nothing
        // of it is left running, and no zombie.
        drop(self.stdin.take());
        if !self.reaped {
            kill_group(&self.child);
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Kills the process group the child leads (Unix; elsewhere the child alone is killed). The
/// group is the child's own (`process_group(0)` at the spawn), and the child is not reaped yet
/// (or was reaped just now, while its group may still have members that keep the group's id
/// from being reused).
#[cfg(unix)]
fn kill_group(child: &Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

#[cfg(not(unix))]
fn kill_group(_child: &Child) {}

/// Reads the engine's output line by line (without the line's end) until it ends or the
/// referee stops listening.
fn read_lines(stdout: impl Read, sender: &SyncSender<Output>) {
    let mut input = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line);
        let message = match read {
            Ok(0) | Err(_) => Output::End,
            Ok(_) if line.last() != Some(&b'\n') && line.len() > MAX_LINE => Output::TooLong,
            Ok(_) => {
                while matches!(line.last(), Some(b'\n' | b'\r')) {
                    line.pop();
                }
                Output::Line(String::from_utf8_lossy(&line).into_owned())
            }
        };
        let last = !matches!(message, Output::Line(_));
        if sender.send(message).is_err() || last {
            return;
        }
    }
}

/// Reads the first line of an answer: `=` or `?`, the id if given (it must be `id`), then the
/// text. Returns whether it is a success, and the text.
fn parse_head(line: &str, id: u64) -> Option<(bool, &str)> {
    let success = match line.as_bytes().first()? {
        b'=' => true,
        b'?' => false,
        _ => return None,
    };
    let rest = &line[1..];
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (given, text) = rest.split_at(digits);
    if !given.is_empty() && given.parse::<u64>().ok()? != id {
        return None;
    }
    if !text.is_empty() && !text.starts_with([' ', '\t']) {
        return None;
    }
    Some((success, text.trim()))
}

/// A line cut to a length fit for a message.
fn shortened(line: &str) -> String {
    const KEEP: usize = 80;
    match line.char_indices().nth(KEEP) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

/// A colour as GTP names it.
fn gtp_colour(colour: Color) -> &'static str {
    match colour {
        Color::Black => "b",
        Color::White => "w",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_with_their_ids() {
        assert_eq!(parse_head("=3 c4", 3), Some((true, "c4")));
        assert_eq!(parse_head("= c4", 3), Some((true, "c4")));
        assert_eq!(parse_head("=", 3), Some((true, "")));
        assert_eq!(
            parse_head("?7 unknown command", 7),
            Some((false, "unknown command"))
        );
        assert_eq!(parse_head("=4 c4", 3), None, "another command's answer");
        assert_eq!(parse_head("=c4", 3), None);
        assert_eq!(parse_head("c4", 3), None);
        assert_eq!(parse_head("", 3), None);
    }

    #[test]
    fn long_lines_are_cut_for_messages() {
        assert_eq!(shortened("c4"), "c4");
        let long = "é".repeat(100);
        assert_eq!(shortened(&long).chars().count(), 81);
    }

    #[test]
    fn output_is_read_in_lines_and_a_runaway_line_stops_it() {
        let (sender, receiver) = mpsc::sync_channel(8);
        read_lines(&b"= c4\r\n\nlast"[..], &sender);
        let got: Vec<String> = receiver
            .try_iter()
            .map(|m| match m {
                Output::Line(l) => l,
                Output::TooLong => "<too long>".into(),
                Output::End => "<end>".into(),
            })
            .collect();
        assert_eq!(got, ["= c4", "", "last", "<end>"]);
        let (sender, receiver) = mpsc::sync_channel(8);
        read_lines(&vec![b'x'; MAX_LINE * 2][..], &sender);
        assert!(matches!(receiver.try_iter().next(), Some(Output::TooLong)));
    }
}
