//! A pseudo-terminal running the real binary, for the end-to-end tests: keys are typed into
//! it and the screen is read back with a terminal emulator (vt100). Every wait polls with a
//! generous timeout; nothing sleeps for a fixed time.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use quentin::rules::{Action, Point};

/// The terminal the emulator stands for, whatever the tests' own environment says.
pub const TERM: &str = "xterm-256color";

/// How long any wait may take before the test fails: generous, for a loaded machine.
pub const TIMEOUT: Duration = Duration::from_secs(60);

pub fn nz(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).unwrap()
}

pub use crate::scratch::{Scratch, scratch};

/// What the program wrote: the raw bytes and the screen they draw.
pub struct Output {
    pub raw: Vec<u8>,
    pub screen: vt100::Parser,
    /// Whether the output has ended: the program, and whatever it started, closed the terminal.
    pub ended: bool,
}

/// The binary running in a pseudo-terminal.
pub struct Session {
    pub master: Box<dyn MasterPty + Send>,
    pub child: Box<dyn Child + Send + Sync>,
    pub writer: Box<dyn Write + Send>,
    pub output: Arc<Mutex<Output>>,
    pub started: Instant,
    /// The test's directory, when the session owns it: removed after the program has ended.
    pub dir: Option<Scratch>,
}

impl Drop for Session {
    /// Ends the program if it still runs (a failed test), so that nothing outlives the test
    /// and its directory can go.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The program draws each frame as one synchronized update (`CSI ?2026h` … `CSI ?2026l`), as a
/// terminal that knows the mode shows it: whole. The emulator is fed the same way, so that a
/// test never reads a screen half-drawn; what comes outside a frame goes through at once.
#[derive(Default)]
struct Frames {
    /// Bytes held back: a frame not yet ended, or what may be the start of its marker.
    held: Vec<u8>,
}

const BEGIN_FRAME: &[u8] = b"\x1b[?2026h";
const END_FRAME: &[u8] = b"\x1b[?2026l";

impl Frames {
    /// Takes the bytes read; returns those that may be shown now.
    fn push(&mut self, bytes: &[u8]) -> Vec<u8> {
        self.held.extend_from_slice(bytes);
        // Everything up to the last frame's end, or to the start of a frame not yet ended.
        let mut ready = 0;
        let mut inside = false;
        let mut at = 0;
        while at < self.held.len() {
            let rest = &self.held[at..];
            if rest.starts_with(BEGIN_FRAME) {
                inside = true;
                at += BEGIN_FRAME.len();
            } else if rest.starts_with(END_FRAME) {
                inside = false;
                at += END_FRAME.len();
                ready = at;
            } else if !inside && !BEGIN_FRAME.starts_with(rest) {
                at += 1;
                ready = at;
            } else {
                at += 1;
            }
        }
        self.held.drain(..ready).collect()
    }
}

impl Session {
    /// Starts `quentin ARGS` in an 80×24 terminal, its data directory inside `dir`.
    pub fn start(dir: &Path, args: &[&str]) -> Session {
        Session::start_sized(dir, args, 24, 80)
    }

    pub fn start_sized(dir: &Path, args: &[&str], rows: u16, cols: u16) -> Session {
        Session::start_with(dir, args, rows, cols, &[])
    }

    /// Starts `quentin ARGS` in a `rows`×`cols` terminal with extra environment variables.
    pub fn start_with(
        dir: &Path,
        args: &[&str],
        rows: u16,
        cols: u16,
        env: &[(&str, &str)],
    ) -> Session {
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_quentin"));
        command.args(args);
        command.env("TERM", TERM);
        // As installed: `quentin` on the PATH is this program (its exit message names it so).
        let exe = std::path::Path::new(env!("CARGO_BIN_EXE_quentin"));
        let path = std::env::var_os("PATH").unwrap_or_default();
        let dirs = std::iter::once(exe.parent().unwrap().to_path_buf())
            .chain(std::env::split_paths(&path));
        command.env("PATH", std::env::join_paths(dirs).unwrap());
        for (key, value) in env {
            command.env(key, value);
        }
        Session::spawn(dir, command, rows, cols)
    }

    /// Starts `command` in `dir`, in a `rows`×`cols` terminal, its data directory inside `dir`;
    /// the command says which terminal it is in (`TERM`).
    pub fn spawn(dir: &Path, mut command: CommandBuilder, rows: u16, cols: u16) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                ..PtySize::default()
            })
            .unwrap();
        command.cwd(dir);
        crate::isolated::isolate_pty(&mut command, &dir.join("data"));
        command.env_remove("NO_COLOR");
        let started = Instant::now();
        let child = pty.slave.spawn_command(command).unwrap();
        // Only the child keeps the terminal's other end open, so its exit ends the output.
        drop(pty.slave);
        let output = Arc::new(Mutex::new(Output {
            raw: Vec::new(),
            screen: vt100::Parser::new(nz(rows), nz(cols), 0),
            ended: false,
        }));
        let mut reader = pty.master.try_clone_reader().unwrap();
        let sink = Arc::clone(&output);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            let mut frames = Frames::default();
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut out = sink.lock().unwrap();
                out.raw.extend_from_slice(&buf[..n]);
                let whole = frames.push(&buf[..n]);
                out.screen.process(&whole);
            }
            sink.lock().unwrap().ended = true;
        });
        let writer = pty.master.take_writer().unwrap();
        Session {
            master: pty.master,
            child,
            writer,
            output,
            started,
            dir: None,
        }
    }

    /// Types `keys`.
    pub fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// The screen's text.
    pub fn screen(&self) -> String {
        self.output.lock().unwrap().screen.screen().contents()
    }

    /// Waits until the screen shows `text`; returns the screen.
    pub fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {text:?}; the screen shows:\n{screen}"
            );
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Waits for the program to end; returns whether it succeeded.
    pub fn wait_exit(&mut self) -> bool {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            assert!(Instant::now() < deadline, "the program did not end");
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Waits until the output ends with `text` (all of it read after the program ended).
    pub fn wait_output(&self, text: &str) -> Vec<u8> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let raw = self.output.lock().unwrap().raw.clone();
            if String::from_utf8_lossy(&raw).contains(text) {
                return raw;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {text:?} in the output:\n{}",
                String::from_utf8_lossy(&raw)
            );
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Everything the program wrote, once its output has ended: for checking what it did not
    /// write.
    pub fn all_output(&self) -> Vec<u8> {
        wait_until("the end of the output", || {
            let out = self.output.lock().unwrap();
            out.ended.then(|| out.raw.clone())
        })
    }

    /// Plays a 3×3 game of Quentin without the pie rule from its first position, cursor in the
    /// centre, with the game's keys: b2, then White a1, Black b1, White c1, Black b3, so that
    /// Black joins top and bottom; the caller waits for the win.
    pub fn win_3x3_as_black(&mut self) {
        self.send("\r");
        self.wait_for("White to move");
        self.send("hj\r");
        self.wait_for("Action 3");
        self.send("l ");
        self.wait_for("Action 4");
        self.send("l\r");
        self.wait_for("Action 5");
        self.send("hkk\r");
    }

    /// Sends the program the signal `name` (`KILL`, `TERM`…) and waits for it to end.
    pub fn signal(&mut self, name: &str) {
        let pid = self.child.process_id().unwrap();
        let sent = std::process::Command::new("kill")
            .args([format!("-{name}"), pid.to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        assert!(!self.wait_exit(), "the program ended well after SIG{name}");
    }

    /// Checks, once the program has ended, that the terminal is as a shell expects it: the
    /// output after the last switch to the alternate screen switches back, turns mouse capture
    /// off and shows the cursor; and the terminal is out of raw mode.
    ///
    /// It reads the whole output, once it has ended: the program may have shown the cursor
    /// earlier too, so waiting for that alone could read the output before its last bytes came
    /// (a failure seen under load, in a quit during a think).
    pub fn assert_restored(&self) {
        let raw = self.all_output();
        let raw = String::from_utf8_lossy(&raw);
        let tail = &raw[raw.rfind("\x1b[?1049h").unwrap()..];
        for (sequence, what) in [
            ("\x1b[?1049l", "alternate screen left"),
            ("\x1b[?1000l", "mouse capture off"),
            ("\x1b[?25h", "cursor shown"),
        ] {
            assert!(tail.contains(sequence), "{what}: {tail:?}");
        }
        assert!(!self.alternate_screen());
        assert!(self.cooked(), "raw mode is off again");
    }

    /// Whether the terminal is in canonical (cooked) mode, as a shell expects it.
    pub fn cooked(&self) -> bool {
        let termios = self.master.get_termios().unwrap();
        format!("{:?}", termios.local_flags).contains("ICANON")
    }

    pub fn alternate_screen(&self) -> bool {
        self.output
            .lock()
            .unwrap()
            .screen
            .screen()
            .alternate_screen()
    }
}

pub fn place(name: &str) -> Action {
    Action::Place(Point::parse(name).unwrap())
}

/// A 5×5 game recorded in `DIR/FILE`, after Black's first stone on c3; the session owns DIR.
pub fn first_move_on_5x5(name: &str, file: &str) -> (Session, PathBuf) {
    let dir = scratch(name);
    let record = dir.join(file);
    let mut s = Session::start(&dir, &["--size", "5", "--record", record.to_str().unwrap()]);
    s.dir = Some(dir);
    s.wait_for("Black to move");
    s.send("\r");
    s.wait_for("Action 2");
    (s, record)
}

/// Waits until the screen no longer shows `text`; returns the screen.
/// Waits until the words of `s`'s panel, joined across the lines it wraps them on
/// ([`panel_words`]), say `text`: what a sentence says, wherever its length breaks it. The
/// screen.
pub fn wait_words(s: &Session, text: &str) -> String {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let screen = s.screen();
        if panel_words(&screen).contains(text) {
            return screen;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {text:?} in the panel's words; the screen shows:\n{screen}"
        );
        thread::sleep(Duration::from_millis(1));
    }
}

pub fn wait_gone(s: &Session, text: &str) -> String {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let screen = s.screen();
        if !screen.contains(text) {
            return screen;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {text:?} to go; the screen shows:\n{screen}"
        );
        thread::sleep(Duration::from_millis(1));
    }
}

/// Whether the output after the last switch to the alternate screen gives the terminal back.
pub fn given_back(raw: &[u8]) -> bool {
    let raw = String::from_utf8_lossy(raw);
    raw.rfind("\x1b[?1049h").is_some_and(|at| {
        let tail = &raw[at..];
        tail.contains("\x1b[?1049l") && tail.contains("\x1b[?1000l") && tail.contains("\x1b[?25h")
    })
}

/// Waits until `ready` gives something; returns it.
pub fn wait_until<T>(what: &str, mut ready: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Some(value) = ready() {
            return value;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        thread::sleep(Duration::from_millis(1));
    }
}

impl Session {
    /// Resizes the terminal to `rows`×`cols`, the emulator reading the screen first.
    pub fn resize(&self, rows: u16, cols: u16) {
        self.output
            .lock()
            .unwrap()
            .screen
            .set_size(nz(rows), nz(cols));
        let size = PtySize {
            rows,
            cols,
            ..PtySize::default()
        };
        self.master.resize(size).unwrap();
    }
}

/// The panel's words (right of its left border), a line's end read as a space: what the
/// panel says, however its lines were wrapped.
pub fn panel_words(screen: &str) -> String {
    let words: Vec<&str> = screen
        .lines()
        .filter_map(|line| line.split_once('│').map(|(_, panel)| panel))
        .flat_map(|panel| panel.trim_end().trim_end_matches('│').split_whitespace())
        .collect();
    words.join(" ")
}
