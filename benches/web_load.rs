//! The web window under load (issue 62): a real `quentin serve --web` process, two bots playing
//! Quentin 13×13 over the real OpenSSH client, and
//!
//! - `--watchers N` (500): live streams of their game (`/api/stream/game/ID`, NDJSON) opened
//!   from 127.0.0.1 as browsers' stand-ins, 32 a network block (the web's share per block) on
//!   loopback addresses 127.0.B.1; for each of `--moves M` (30) moves, the delay from the bot's
//!   `play` sent to each watcher's line of that move: p50, p90, p99, max;
//! - then the game resigned, `/game/ID` of the finished game asked for `--seconds S` (10) from
//!   `--blocks B` (32) network blocks at 19 requests a second each (the web's rate is 20 a
//!   block): the pages served a second, and the server's CPU time per page, which is what
//!   bounds the pages a second one core can serve.
//!
//! `cargo bench --bench web_load -- [--watchers N] [--moves M] [--seconds S] [--blocks B]`;
//! `QUENTIN_BENCH_PROGRAM=PATH` runs another build of the program, side by side.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quentin::rules::{Color, Game, Setup};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

/// What the bench is asked.
struct Options {
    watchers: usize,
    moves: usize,
    seconds: u64,
    blocks: usize,
}

fn options() -> Options {
    let mut o = Options {
        watchers: 500,
        moves: 30,
        seconds: 10,
        blocks: 32,
    };
    let args: Vec<String> = std::env::args().collect();
    for pair in args.windows(2) {
        let n = || pair[1].parse::<usize>().expect("a number");
        match pair[0].as_str() {
            "--watchers" => o.watchers = n(),
            "--moves" => o.moves = n(),
            "--seconds" => o.seconds = n() as u64,
            "--blocks" => o.blocks = n().clamp(1, 200),
            _ => {}
        }
    }
    o
}

/// A bot over the real `ssh`: a command in, its answer's first line out.
struct Bot {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Bot {
    fn new(dir: &Path, port: u16, name: &str) -> Bot {
        let key = dir.join(name);
        let made = Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", "", "-f"])
            .arg(&key)
            .status()
            .expect("ssh-keygen, of the OpenSSH client");
        assert!(made.success());
        let mut child = Command::new("ssh")
            .args(["-F", "/dev/null", "-o", "StrictHostKeyChecking=no"])
            .args([
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "LogLevel=ERROR",
                "-T",
            ])
            .arg("-i")
            .arg(&key)
            .args(["-p", &port.to_string(), &format!("{name}@127.0.0.1"), "bot"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("ssh, of the OpenSSH client");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut bot = Bot {
            _child: child,
            stdin,
            stdout,
        };
        bot.ask(&format!("register {name}"));
        bot
    }

    /// Sends `command`; the answer's first line (an answer ends with an empty line).
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.stdin, "{command}").unwrap();
        let mut first = None;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "ssh closed");
            let line = line.trim_end().to_string();
            if line.is_empty() {
                return first.unwrap_or_default();
            }
            first.get_or_insert(line);
        }
    }
}

/// Starts the server with the web: the child, its SSH port and its web port.
fn start(dir: &Path) -> (Child, u16, u16) {
    let program = std::env::var_os("QUENTIN_BENCH_PROGRAM")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_quentin").into());
    let mut server = Command::new(program)
        .args(["serve", "--listen", "127.0.0.1:0", "--web", "127.0.0.1:0"])
        .args(["--log-level", "error", "--data"])
        .arg(dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let (mut ssh, mut web) = (0, 0);
    while ssh == 0 || web == 0 {
        let line = lines.next().expect("the server's addresses").unwrap();
        let port = |a: &str| {
            a.trim_end_matches('/')
                .rsplit(':')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        if let Some(a) = line.strip_prefix("quentin serve: listening on ") {
            ssh = port(a);
        } else if let Some(a) = line.strip_prefix("web: http://") {
            web = port(a);
        }
    }
    std::thread::spawn(move || for _ in lines {});
    (server, ssh, web)
}

/// The server's CPU time so far, in clock ticks of 10 ms (user and system, /proc; Linux's
/// `USER_HZ` is 100).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or_default();
    let fields: Vec<&str> = after.split_whitespace().collect();
    fields
        .get(11)
        .and_then(|u| u.parse::<u64>().ok())
        .unwrap_or(0)
        + fields
            .get(12)
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(0)
}

/// A connection to the web from the loopback address of block `block` (127.0.B.1).
async fn connect(block: usize, port: u16) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    let b = u8::try_from(10 + block).unwrap();
    socket.bind(([127, 0, b, 1], 0).into()).unwrap();
    socket.connect(([127, 0, 0, 1], port).into()).await.unwrap()
}

/// The value at `q` (0 to 1) of sorted `v`, in milliseconds.
fn at(v: &[Duration], q: f64) -> f64 {
    let i = ((v.len() as f64 - 1.0) * q).round() as usize;
    v[i].as_secs_f64() * 1000.0
}

fn main() {
    let o = options();
    let dir = tempfile::tempdir().unwrap();
    let (mut server, ssh, web) = start(dir.path());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut bots = [
        Bot::new(dir.path(), ssh, "ann"),
        Bot::new(dir.path(), ssh, "bob"),
    ];
    let id = bots[0].ask("challenge quentin size 13 pie off first me casual clock 60+0");
    let id = id.trim_start_matches("= ").to_string();
    bots[1].ask(&format!("accept {id}"));

    // The watchers: each records when it saw each move.
    let seen: Arc<Mutex<Vec<Vec<Option<Instant>>>>> =
        Arc::new(Mutex::new(vec![vec![None; o.moves + 1]; o.watchers]));
    let ready = Arc::new(AtomicUsize::new(0));
    for w in 0..o.watchers {
        let (seen, ready, id) = (seen.clone(), ready.clone(), id.clone());
        runtime.spawn(async move {
            let mut s = connect(w / 32, web).await;
            let request = format!("GET /api/stream/game/{id} HTTP/1.0\r\nHost: x\r\n\r\n");
            s.write_all(request.as_bytes()).await.unwrap();
            let mut lines = tokio::io::BufReader::new(s).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if line.starts_with("{\"") && line.contains("\"type\":\"game\"") {
                    ready.fetch_add(1, Ordering::SeqCst);
                } else if let Some(rest) = line.split("\"ply\":").nth(1) {
                    let ply: usize = rest
                        .split(|c: char| !c.is_ascii_digit())
                        .next()
                        .unwrap()
                        .parse()
                        .unwrap();
                    if let Some(slot) = seen.lock().unwrap()[w].get_mut(ply) {
                        *slot = Some(Instant::now());
                    }
                }
            }
        });
    }
    let waited = Instant::now();
    while ready.load(Ordering::SeqCst) < o.watchers {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "the watchers did not all open"
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    // The moves: the middle legal action each time, as the tests' bots play.
    let setup = Setup {
        game: Game::Quentin,
        size: 13,
        pie: false,
        pieces: 0,
    };
    let mut position = setup.start().unwrap();
    let mut delays = Vec::new();
    for ply in 1..=o.moves {
        let turn = usize::from(position.to_move() == Some(Color::White));
        let legal = position.legal_actions();
        let action = legal[legal.len() / 2];
        let sent = Instant::now();
        assert_eq!(bots[turn].ask(&format!("play {id} {action}")), "=");
        position.play(action).unwrap();
        loop {
            let all: Option<Vec<Duration>> = seen
                .lock()
                .unwrap()
                .iter()
                .map(|w| w[ply].map(|t| t - sent))
                .collect();
            if let Some(all) = all {
                delays.extend(all);
                break;
            }
            assert!(
                sent.elapsed() < Duration::from_secs(60),
                "move {ply} never reached every watcher"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    delays.sort();
    println!(
        "live stream, {} watchers, {} moves: delay from play sent to each watcher's line p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        o.watchers,
        o.moves,
        at(&delays, 0.5),
        at(&delays, 0.9),
        at(&delays, 0.99),
        at(&delays, 1.0)
    );

    // The finished game's page, asked at the web's rate from each block.
    let turn = usize::from(position.to_move() == Some(Color::White));
    bots[turn].ask(&format!("resign {id}"));
    let pid = server.id();
    let (served, refused) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let cpu = cpu_ticks(pid);
    let started = Instant::now();
    let end = started + Duration::from_secs(o.seconds);
    runtime.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for b in 0..o.blocks {
            let (served, refused, id) = (served.clone(), refused.clone(), id.clone());
            tasks.spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_millis(1000 / 19));
                while Instant::now() < end {
                    tick.tick().await;
                    let mut s = connect(b, web).await;
                    let request = format!("GET /game/{id} HTTP/1.0\r\nHost: x\r\n\r\n");
                    s.write_all(request.as_bytes()).await.unwrap();
                    let mut answer = Vec::new();
                    let _ = s.read_to_end(&mut answer).await;
                    if answer.starts_with(b"HTTP/1.0 200") || answer.starts_with(b"HTTP/1.1 200") {
                        served.fetch_add(1, Ordering::Relaxed);
                    } else {
                        refused.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
        while tasks.join_next().await.is_some() {}
    });
    let seconds = started.elapsed().as_secs_f64();
    let ticks = cpu_ticks(pid) - cpu;
    let pages = served.load(Ordering::Relaxed);
    let cpu_ms = ticks as f64 * 10.0;
    println!(
        "/game/ID of a finished game: {pages} pages in {seconds:.1} s ({:.0} a second) from {} blocks, {} refused; server CPU {:.0} ms, {:.2} ms a page ({:.0} pages a CPU-second)",
        pages as f64 / seconds,
        o.blocks,
        refused.load(Ordering::Relaxed),
        cpu_ms,
        cpu_ms / pages.max(1) as f64,
        pages as f64 / (cpu_ms / 1000.0).max(1e-9)
    );
    runtime.shutdown_background();
    let _ = server.kill();
    let _ = server.wait();
}
