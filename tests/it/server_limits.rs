//! Clients that try to hold the server's places, against a real `quentin serve`, through the
//! real OpenSSH client and raw sockets: a terminal that floods window-size changes and never
//! reads, a bot that writes megabytes of commands and never reads, sockets that never finish
//! the handshake, a socket that never sends its version line (closed in a few seconds, a
//! greeted one left the login's grace), and one key with sessions of every kind. Each is closed or bounded, the
//! players beside it play on, and every place comes back.

use crate::pty;
use crate::serve;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use portable_pty::CommandBuilder;
use pty::Session;
use serve::http::{closed, connect_from};
use serve::play::{Play, pair};
use serve::{Server, TIMEOUT, key, scratch};

/// The SHA-256 fingerprint of the key at `path`, as the server logs it.
fn fingerprint(path: &Path) -> String {
    let out = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_whitespace().nth(1).unwrap().to_string()
}

/// Reads the server's log until a line has every one of `words`; returns it. Fails with the
/// lines read meanwhile.
fn wait_log(server: &Server, words: &[&str]) -> String {
    let deadline = Instant::now() + TIMEOUT;
    let mut read = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = server.stderr.recv_timeout(left).unwrap_or_else(|e| {
            panic!(
                "no log line with {words:?} ({e}); the lines read meanwhile:\n{}",
                read.join("\n")
            )
        });
        if words.iter().all(|w| line.contains(w)) {
            return line;
        }
        read.push(line);
    }
}

/// Asks `whoami` of new bot sessions with `key` until one is let in (the place the test freed
/// may come back a moment after the client saw its connection end); its answer.
fn let_in(server: &Server, key: &Path) -> String {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let mut bot = server.bot(key);
        let answer = bot.ask("whoami");
        bot.finish();
        if !answer.starts_with("? the server is full") && !answer.starts_with("? too many") {
            return answer;
        }
        assert!(Instant::now() < deadline, "never let in again: {answer}");
    }
}

#[test]
fn a_terminal_that_floods_window_changes_and_never_reads_wedges_nothing() {
    let dir = scratch("server-resize-flood");
    let server = Server::start(&dir, &["--max-sessions", "3"]);
    let (mut players, id) = pair(&server, &dir, ["alice", "bob"]);
    let mallory = key(&dir, "mallory");
    // Mallory's terminal: `ssh` in a pseudo-terminal (whose size it sends as window changes),
    // its output into a FIFO that nobody reads.
    let fifo = dir.join("unread");
    let ssh = server.ssh_args(&mallory).join(" ");
    let mut command = CommandBuilder::new("sh");
    command.args([
        "-c",
        &format!(
            "mkfifo {0} && exec 3<>{0} && exec ssh -tt -e none {ssh} >&3",
            fifo.display()
        ),
    ]);
    command.env("TERM", pty::TERM);
    let terminal = Session::spawn(&dir, command, 24, 80);
    wait_log(&server, &["logged in", &fingerprint(&mallory)]);
    // Hundreds of window changes between large sizes, each a whole frame to draw, while the
    // others play on: more than the client's window and the FIFO hold.
    let mut play = Play::new(id);
    for round in 0..300u16 {
        for i in 0..4u16 {
            terminal.resize(100 + (round + i) % 50, 300 + (round * 7 + i) % 100);
        }
        if round % 30 == 0 {
            play.moves(&mut players, 1);
        } else {
            assert_eq!(players[0].ask("whoami"), "= alice");
        }
    }
    play.moves(&mut players, 4);
    // Mallory leaves (her ssh killed): her place comes back, for a new player.
    drop(terminal);
    wait_log(&server, &["connection ended", &fingerprint(&mallory)]);
    let carol = key(&dir, "carol");
    assert_eq!(let_in(&server, &carol), "? register first: register NAME");
    play.moves(&mut players, 2);
}

#[test]
fn a_bot_that_writes_megabytes_and_never_reads_is_closed_and_its_place_comes_back() {
    let dir = scratch("server-bot-flood");
    let server = Server::start(&dir, &["--max-sessions", "3", "--sessions-per-key", "1"]);
    let (mut players, id) = pair(&server, &dir, ["alice", "bob"]);
    let mallory = key(&dir, "mallory");
    let print = fingerprint(&mallory);
    let mut first = server.bot(&mallory);
    first.ok("register mallory");
    first.finish();
    wait_log(&server, &["connection ended", &print]);
    // A bot whose answers go into a pipe that nobody reads, writing megabytes of commands.
    let mut flood = server
        .ssh(&mallory, &["bot"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = flood.stdin.take().unwrap();
    let _unread = flood.stdout.take().unwrap();
    let writer = std::thread::spawn(move || {
        let lines = "whoami\n".repeat(1 << 12);
        for _ in 0..(8 << 20) / lines.len() {
            if input.write_all(lines.as_bytes()).is_err() {
                return;
            }
        }
    });
    // The others play on meanwhile.
    let mut play = Play::new(id);
    play.moves(&mut players, 4);
    // Its connection is closed, with the reason in the log; the server does not wait for it
    // to read or to go. (The ssh client itself may wait on: it still has answers to write
    // into the pipe that nobody reads.)
    let line = wait_log(&server, &["connection ended", &print]);
    assert!(
        ["too much input", "not read", "did not take"]
            .iter()
            .any(|why| line.contains(why)),
        "{line}"
    );
    // The line says whose connection it was by the connection's span, as every line of its
    // tasks does: the peer, the key and the player.
    assert!(
        line.contains("connection{peer=127.0.0.1:") && line.contains("player=mallory}"),
        "{line}"
    );
    let _ = flood.kill();
    let _ = flood.wait();
    let _ = writer.join();
    // Mallory's place (one session for her key) comes back.
    assert_eq!(let_in(&server, &mallory), "= mallory");
    play.moves(&mut players, 2);
}

/// A raw socket to the server from `source`, which sends `hello` and then nothing.
fn half_open(server: &Server, source: [u8; 4], hello: &[u8]) -> TcpStream {
    let socket = connect_from(source, server.port);
    let mut stream = socket;
    let _ = stream.write_all(hello);
    stream
}

#[test]
fn sockets_that_never_finish_the_handshake_keep_no_player_out() {
    let dir = scratch("server-half-open");
    let server = Server::start(
        &dir,
        &[
            "--max-sessions",
            "2",
            "--max-startups",
            "30",
            "--max-startups-per-address",
            "10",
            "--login-grace-time",
            "2",
        ],
    );
    // Forty sockets from one address (another network block than the players': a block's
    // places are its own), more than the players' places: half say nothing, half
    // send SSH's greeting and stop there.
    let flood: Vec<TcpStream> = (0..40)
        .map(|i| {
            let hello: &[u8] = if i % 2 == 0 { b"" } else { b"SSH-2.0-half\r\n" };
            half_open(&server, [127, 0, 1, 2], hello)
        })
        .collect();
    wait_log(&server, &["refused at once", "127.0.1.2"]);
    // Two players log in and play, as many as the server has places for.
    let (mut players, id) = pair(&server, &dir, ["alice", "bob"]);
    Play::new(id).moves(&mut players, 4);
    // Every socket of the flood is closed: the ones beyond the bound at once, the others
    // after the grace time.
    for stream in flood {
        assert!(closed(stream), "a half-open socket was never closed");
    }
    wait_log(&server, &["not logged in within 2 s"]);
}

#[test]
fn a_socket_that_sends_no_version_line_is_closed_long_before_the_login_grace() {
    let dir = scratch("server-version-grace");
    let server = Server::start(&dir, &["--login-grace-time", "600"]);
    // First a socket that sends SSH's version line and stops there, then one that sends
    // nothing at all, each from a network block of its own.
    let greeted = half_open(&server, [127, 0, 3, 1], b"SSH-2.0-half\r\n");
    let silent = half_open(&server, [127, 0, 2, 1], b"");
    // The silent one is closed after the version line's few seconds, not the login's 600.
    assert!(closed(silent), "a silent socket was never closed");
    wait_log(
        &server,
        &[
            "127.0.2.1",
            "connection ended: no SSH version line within 5 s",
        ],
    );
    // The one that sent its version line, though older, was left its grace: it is open
    // until it closes itself, and its end says so.
    greeted.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match (&greeted).read(&mut buf) {
            Ok(0) => panic!("the server closed a socket that sent its version line"),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) => panic!("{e}"),
        }
    }
    drop(greeted);
    let line = wait_log(&server, &["127.0.3.1", "connection ended"]);
    assert!(
        !line.contains("version line") && !line.contains("not logged in within"),
        "{line}"
    );
}

#[test]
fn one_key_holds_at_most_its_sessions_of_any_kind() {
    let dir = scratch("server-per-key");
    let server = Server::start(&dir, &["--sessions-per-key", "2"]);
    let alice = key(&dir, "alice");
    let print = fingerprint(&alice);
    // A session not yet named, and a connection with no session at all (`ssh -N`).
    let mut unnamed = server.bot(&alice);
    assert_eq!(unnamed.ask("whoami"), "? register first: register NAME");
    let mut bare = server
        .ssh(&alice, &["-N"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_log(&server, &["logged in", &print]);
    wait_log(&server, &["logged in", &print]);
    // A third, of any kind, is refused: a bot, a record, a terminal.
    let mut third = server.bot(&alice);
    assert_eq!(third.answer(), "? too many sessions: at most 2 for one key");
    third.finish();
    let out = server
        .ssh(&alice, &["record", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("too many sessions: at most 2"),
        "{out:?}"
    );
    // The connection without a session goes: its place comes back (a moment after).
    let _ = bare.kill();
    let _ = bare.wait();
    let deadline = Instant::now() + TIMEOUT;
    let mut again = loop {
        let mut again = server.bot(&alice);
        let answer = again.ask("register alice");
        if answer == "=" {
            break again;
        }
        assert!(
            answer.starts_with("? too many sessions") && Instant::now() < deadline,
            "{answer}"
        );
        again.finish();
    };
    assert_eq!(again.ask("whoami"), "= alice");
    again.finish();
    unnamed.finish();
}

#[test]
fn a_log_that_cannot_be_written_stops_nothing() {
    let dir = scratch("server-log-closed");
    let mut server = Server::start_with_log_closed(&dir, &["--log-level", "debug"]);
    // Logins, refusals and ends, each logged into a closed pipe.
    let (mut players, id) = pair(&server, &dir, ["alice", "bob"]);
    for _ in 0..3 {
        let mut raw = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        let _ = raw.write_all(b"SSH-2.0-x\r\n");
    }
    Play::new(id).moves(&mut players, 4);
    let mut carol = server.registered(&dir, "carol");
    assert_eq!(carol.ask("whoami"), "= carol");
    carol.finish();
    drop(players);
    assert!(server.stop().success());
}
