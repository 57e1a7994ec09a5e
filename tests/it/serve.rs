//! A real `quentin serve` on 127.0.0.1 (a free port), reached with the real OpenSSH client, for
//! the server's end-to-end tests. Every wait has a generous limit and reads what the server
//! answers; nothing sleeps for a fixed time. Nothing outlives a test: the server and the ssh
//! clients are killed when their handles drop, and the scratch directory goes.
#![allow(dead_code)]

pub mod http;
pub mod pg;
pub mod play;
pub mod webdriver;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

#[allow(unused_imports)]
pub use crate::scratch::{Scratch, scratch};

/// How long any answer may take before the test fails: generous, for a loaded machine.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The OpenSSH client, which `bash .ci/run` installs (package openssh-client).
pub fn ssh_program() -> &'static str {
    let found = Command::new("ssh")
        .arg("-V")
        .stderr(Stdio::null())
        .status()
        .is_ok();
    assert!(
        found,
        "the server's tests need the OpenSSH client: apt-get install openssh-client \
         (bash .ci/run installs it)"
    );
    "ssh"
}

/// A running `quentin serve`.
pub struct Server {
    child: Child,
    pub port: u16,
    /// The host key's fingerprint, as it printed it: `SHA256:...`.
    pub fingerprint: String,
    pub data: PathBuf,
    /// Its standard error, read on its own thread.
    pub stderr: mpsc::Receiver<String>,
}

impl Server {
    /// Starts a test server (its clock moved by `clock advance`) with its data in `dir/data`.
    pub fn start(dir: &Path, extra: &[&str]) -> Server {
        Server::start_with(dir, extra, Pipes::Read)
    }

    /// The same, with its standard error closed at once: its log has no reader.
    pub fn start_with_log_closed(dir: &Path, extra: &[&str]) -> Server {
        Server::start_with(dir, extra, Pipes::StderrClosed)
    }

    /// A server as people run it, without the test hooks (`--test-hooks` left out).
    pub fn start_for_people(dir: &Path, extra: &[&str]) -> Server {
        Server::start_as(dir, extra, Pipes::Read, false)
    }

    /// [`Server::start`], its standard output and error left as `pipes` says.
    pub fn start_with(dir: &Path, extra: &[&str], pipes: Pipes) -> Server {
        Server::start_as(dir, extra, pipes, true)
    }

    /// [`Server::start_with`], a test server (`--test-hooks`) or not.
    fn start_as(dir: &Path, extra: &[&str], pipes: Pipes, hooks: bool) -> Server {
        let data = dir.join("data");
        // With no output to read the port from, the server is given one that was free.
        let chosen = (pipes == Pipes::StdoutClosed).then(free_port);
        let listen = format!("127.0.0.1:{}", chosen.unwrap_or(0));
        let mut child = crate::isolated::quentin()
            .args(["serve", "--listen", &listen])
            .args(hooks.then_some("--test-hooks"))
            .arg("--data")
            .arg(&data)
            .args(extra)
            // Its log at its default level, whatever the tests' environment says.
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
        let stderr = if pipes == Pipes::StderrClosed {
            drop(stderr);
            lines(None::<std::process::ChildStderr>)
        } else {
            lines(stderr)
        };
        if let Some(port) = chosen {
            drop(stdout);
            wait_listening(&mut child, port);
            return Server {
                child,
                port,
                fingerprint: String::new(),
                data,
                stderr,
            };
        }
        let lines = output(stdout, pipes == Pipes::StdoutClosedAfterStart);
        let port = loop {
            let line = lines
                .recv_timeout(TIMEOUT)
                .expect("quentin serve printed no address");
            if let Some(address) = line.strip_prefix("quentin serve: listening on ") {
                break address.rsplit(':').next().unwrap().parse().unwrap();
            }
        };
        let fingerprint = lines
            .recv_timeout(TIMEOUT)
            .expect("quentin serve printed no fingerprint")
            .strip_prefix("host key fingerprint: ")
            .expect("the fingerprint follows the address")
            .to_string();
        // The rest of its output is not needed; reading it on keeps the pipe from filling.
        std::thread::spawn(move || for _ in lines {});
        Server {
            child,
            port,
            fingerprint,
            data,
            stderr,
        }
    }

    /// Whether it is still running.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Its process number.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills it with SIGKILL and waits for it.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops it with SIGTERM and waits; its exit status.
    pub fn stop(&mut self) -> std::process::ExitStatus {
        self.signal("TERM")
    }

    /// Sends it the signal `name` (`INT`, `TERM`) and waits; its exit status.
    pub fn signal(&mut self, name: &str) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        Command::new("kill")
            .args([&format!("-{name}"), &pid])
            .status()
            .unwrap();
        self.child.wait().unwrap()
    }

    /// `ssh -p PORT -i KEY 127.0.0.1 ARGS`, with no configuration of the machine's or the
    /// user's: no known hosts kept, no agent, no other key.
    pub fn ssh(&self, key: &Path, args: &[&str]) -> Command {
        let mut command = Command::new(ssh_program());
        command.args(self.ssh_args(key)).args(args);
        command
    }

    /// The options of [`Server::ssh`], for a command built elsewhere.
    pub fn ssh_args(&self, key: &Path) -> Vec<String> {
        ssh_args_at(key, self.port)
    }

    /// Opens a bot session with `key`.
    pub fn bot(&self, key: &Path) -> Bot {
        bot_at(key, self.port)
    }

    /// A bot session with a new key `dir/name`, registered as `name`.
    pub fn registered(&self, dir: &Path, name: &str) -> Bot {
        let mut bot = self.bot(&key(dir, name));
        bot.ok(&format!("register {name}"));
        bot
    }

    /// `ssh ... record ID`: the record text.
    pub fn record(&self, key: &Path, id: &str) -> String {
        let out = self.ssh(key, &["record", id]).output().unwrap();
        assert!(out.status.success(), "record {id}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    }
}

/// The options of `ssh` to a server on 127.0.0.1:`port` (a server's, or a balancer's in front
/// of servers), with `key` and no configuration of the machine's or the user's.
pub fn ssh_args_at(key: &Path, port: u16) -> Vec<String> {
    let mut args: Vec<String> = [
        "-F",
        "/dev/null",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-o",
        "BatchMode=yes",
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "IdentityAgent=none",
        "-o",
        "ConnectTimeout=30",
        "-p",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    args.push(port.to_string());
    args.push("-i".to_string());
    args.push(key.display().to_string());
    args.push("player@127.0.0.1".to_string());
    args
}

/// A bot session with `key` to 127.0.0.1:`port`.
pub fn bot_at(key: &Path, port: u16) -> Bot {
    bot_from(key, port, None)
}

/// A bot session with `key` to 127.0.0.1:`port`, from the loopback address `from` when given
/// (`127.0.5.1`: another network block than the tests' 127.0.0.1, as the server counts them).
pub fn bot_from(key: &Path, port: u16, from: Option<&str>) -> Bot {
    let mut command = Command::new(ssh_program());
    if let Some(from) = from {
        command.args(["-b", from]);
    }
    let mut child = command
        .args(ssh_args_at(key, port))
        .arg("bot")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    let lines = lines(child.stdout.take());
    Bot {
        child,
        stdin,
        lines,
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// How a test server's standard output and error are left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipes {
    /// Both read by the test, the standard error line by line into [`Server::stderr`].
    Read,
    /// The standard error closed from the start: every write to it fails.
    StderrClosed,
    /// The standard output closed once the server has said where it listens and what its data
    /// is: every later write to it fails.
    StdoutClosedAfterStart,
    /// The standard output closed from the start; the server listens on a port that was free.
    StdoutClosed,
}

/// A port of 127.0.0.1 free now (nothing else in the tests asks for a fixed one).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits until the server `child` takes connections on `port`; fails if it ends first.
fn wait_listening(child: &mut Child, port: u16) {
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("quentin serve ended before it listened: {status}");
        }
        assert!(started.elapsed() < TIMEOUT, "quentin serve does not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The server's standard output, line by line, read on a thread of its own; with `close`, the
/// pipe is closed once the lines of the start (up to `data: DIR`) are read.
fn output(pipe: Option<std::process::ChildStdout>, close: bool) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    if let Some(pipe) = pipe {
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                let last = close && line.starts_with("data: ");
                if tx.send(line).is_err() || last {
                    break;
                }
            }
        });
    }
    rx
}

/// The lines of a pipe, read on a thread of their own.
fn lines(pipe: Option<impl std::io::Read + Send + 'static>) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    if let Some(pipe) = pipe {
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    rx
}

/// A new SSH key in `dir`, named `name`.
pub fn key(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let status = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
        .arg(&path)
        .stdin(Stdio::null())
        .status()
        .expect("ssh-keygen, of the OpenSSH client");
    assert!(status.success());
    path
}

/// A bot session: commands in, answers out.
pub struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Bot {
    /// Sends `line` and returns the answer: its lines up to the empty one, joined.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer()
    }

    /// Sends `line` and returns the answer; `None` when the session ended first (the server
    /// went away).
    pub fn try_ask(&mut self, line: &str) -> Option<String> {
        let stdin = self.stdin.as_mut()?;
        writeln!(stdin, "{line}").ok()?;
        stdin.flush().ok()?;
        let mut answer = Vec::new();
        loop {
            let line = self.lines.recv_timeout(TIMEOUT).ok()?;
            if line.is_empty() && !answer.is_empty() {
                return Some(answer.join("\n"));
            }
            if !line.is_empty() {
                answer.push(line);
            }
        }
    }

    /// Sends `line` without reading the answer.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the bot's input is open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next answer.
    pub fn answer(&mut self) -> String {
        let mut answer = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(TIMEOUT)
                .unwrap_or_else(|e| panic!("no answer ({e}) after {answer:?}"));
            if line.is_empty() && !answer.is_empty() {
                return answer.join("\n");
            }
            if !line.is_empty() {
                answer.push(line);
            }
        }
    }

    /// Asks and checks the answer begins with `=`; the rest after `= `.
    pub fn ok(&mut self, line: &str) -> String {
        let answer = self.ask(line);
        assert!(answer.starts_with('='), "{line}: {answer}");
        answer.trim_start_matches('=').trim_start().to_string()
    }

    /// Closes its input and waits for the session to end.
    pub fn finish(mut self) -> std::process::ExitStatus {
        self.stdin = None;
        self.child.wait().unwrap()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
