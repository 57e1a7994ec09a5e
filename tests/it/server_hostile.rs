//! Hostile clients against a real `quentin serve`, through the real OpenSSH client: logins
//! without a key, a shell, sftp, forwarding, a megabyte of random bytes into a lobby and a game,
//! impossible window sizes, clients that vanish, and more sessions than allowed. Each gets a
//! clear refusal, and the players beside them never notice.

use crate::pty;
use crate::serve;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Stdio;

use portable_pty::{CommandBuilder, PtySize};
use pty::Session;
use serve::play::{Play, pair};
use serve::{Server, key, scratch};

/// An interactive `ssh` (no escape character: random bytes must reach the server) in an 80×24
/// pseudo-terminal.
fn login(server: &Server, dir: &Path, key: &Path) -> Session {
    let mut command = CommandBuilder::new(serve::ssh_program());
    command.args(["-e", "none"]);
    command.args(server.ssh_args(key));
    command.env("TERM", pty::TERM);
    Session::spawn(dir, command, 24, 80)
}

#[test]
fn logins_without_a_key_a_shell_sftp_and_forwarding_are_refused() {
    let dir = scratch("server-refusals");
    let server = Server::start(&dir, &[]);
    let ka = key(&dir, "alice");
    // A password: refused, with a banner that says how to make a key.
    // (Its own options first: ssh keeps the first value it reads of each, and the banner
    // shows at the INFO level.)
    let out = std::process::Command::new(serve::ssh_program())
        .args(["-o", "LogLevel=INFO", "-o", "PubkeyAuthentication=no"])
        // As a person runs it (the tests' own options say BatchMode=yes, which skips
        // keyboard-interactive, where the words come).
        .args(["-o", "BatchMode=no"])
        .args([
            "-o",
            "PreferredAuthentications=password,keyboard-interactive",
        ])
        .args(server.ssh_args(&ka))
        .arg("true")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(said.contains("ssh-keygen -t ed25519"), "{said}");
    assert!(said.contains("Permission denied (publickey)"), "{said}");
    // A key that works: logged in, and never told to make one (at the same log level).
    let out = std::process::Command::new(serve::ssh_program())
        .args(["-o", "LogLevel=INFO"])
        .args(server.ssh_args(&ka))
        .args(["record", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("no game 1"), "{said}");
    assert!(!said.contains("No key yet"), "{said}");
    // A shell command, sftp: refused; nothing runs.
    for args in [&["sh", "-c", "echo pwned"][..], &["-s", "sftp"], &["ls"]] {
        let out = server.ssh(&ka, args).stdin(Stdio::null()).output().unwrap();
        assert!(!out.status.success(), "{args:?}: {out:?}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("pwned"));
    }
    // A stdio forward to a port (a direct-tcpip channel), and a remote forward: refused.
    let target = format!("127.0.0.1:{}", server.port);
    let out = server
        .ssh(&ka, &["-W", &target])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success(), "{out:?}");
    let out = server
        .ssh(
            &ka,
            &[
                "-o",
                "ExitOnForwardFailure=yes",
                "-N",
                "-R",
                "0:127.0.0.1:9",
            ],
        )
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success(), "{out:?}");
    // Agent and X11 forwarding asked for: the session works, without them.
    let mut bot = server.bot(&ka);
    bot.ok("register alice");
    let out = server
        .ssh(&ka, &["-A", "-X", "record", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no game 1"),
        "{out:?}"
    );
    // A name with an escape sequence never reaches anyone's screen.
    let answer = bot.ask("challenge quentin to \x1b[2Jmallory");
    assert_eq!(answer, "? no player named \\u{1b}[2Jmallory");
    bot.finish();
}

/// A megabyte of random bytes, without those that would end the session (q, Ctrl-C, a lone Esc
/// at the end of a write): escape sequences, control characters, UTF-8 and not.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed;
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        for byte in x.to_le_bytes() {
            if !matches!(byte, b'q' | 0x03 | 0x1b) {
                out.push(byte);
            } else if byte == 0x1b {
                out.extend_from_slice(b"\x1b[");
            }
        }
    }
    out.truncate(len);
    if out.last() == Some(&0x1b) {
        out.pop();
    }
    out
}

#[test]
fn a_megabyte_of_random_bytes_into_a_lobby_and_a_game_disturbs_nobody() {
    let dir = scratch("server-noise");
    // The honest pair starts a game after each one that ends, for as long as the noise takes
    // to go in: on a loaded machine, more than fair play's 20 challenges a minute, which is
    // not what this test is about (tests/it/server_fair.rs is).
    let server = Server::start(&dir, &["--challenges-per-minute", "1000"]);
    let (mut players, id) = pair(&server, &dir, ["alice", "bob"]);
    // Mallory has a game too, with carol; her terminal opens it.
    let (mut mallory_game, mid) = pair(&server, &dir, ["mallory", "carol"]);
    // Her running game opens at login.
    let mut mallory = login(&server, &dir, &dir.join("mallory"));
    mallory.wait_for("mallory (you)");
    let noise = noise(0x5eed, 1 << 20);
    let writer = {
        let mut writer = std::mem::replace(&mut mallory.writer, Box::new(std::io::sink()));
        std::thread::spawn(move || {
            for chunk in noise.chunks(4096) {
                if writer.write_all(chunk).is_err() {
                    return false;
                }
            }
            writer.flush().is_ok()
        })
    };
    // Meanwhile the others play on, move after move, each answered. (The time limit is only
    // there to fail rather than hang should the server stop reading Mallory.)
    let mut play = Play::new(id);
    let mut done = 0;
    let started = std::time::Instant::now();
    while !writer.is_finished() || done < 20 {
        play.moves(&mut players, 2);
        done += 2;
        assert!(
            started.elapsed() < std::time::Duration::from_secs(600),
            "the noise takes too long to send"
        );
    }
    assert!(writer.join().unwrap(), "the whole megabyte went in");
    // Mallory's opponent is untouched by what she typed unless it was a legal move of hers.
    let view = mallory_game[1].ok("games");
    assert!(
        view.starts_with(&format!("{mid} brique 15 mallory")),
        "{view}"
    );
    // The server still answers everyone, Mallory too.
    assert_eq!(players[0].ask("whoami"), "= alice");
    let mut again = server.bot(&dir.join("mallory"));
    assert_eq!(again.ask("whoami"), "= mallory");
    again.finish();
    drop(mallory);
    let _ = &mut mallory_game;
}

#[test]
fn windows_from_nothing_to_ten_thousand_columns_and_vanishing_clients() {
    let dir = scratch("server-windows");
    let server = Server::start(&dir, &[]);
    let (mut players, id) = pair(&server, &dir, ["alice", "bob"]);
    // Both first moves now, before their timers could run out on a loaded machine.
    let mut play = Play::new(id.clone());
    play.moves(&mut players, 2);
    // Her running game opens at login.
    let mut alice = login(&server, &dir, &dir.join("alice"));
    alice.wait_for("alice (you)");
    for (rows, cols) in [
        (0, 0),
        (1, 1),
        (5, 20),
        (10000, 10000),
        (24, 10000),
        (10000, 80),
    ] {
        alice
            .master
            .resize(PtySize {
                rows,
                cols,
                ..PtySize::default()
            })
            .unwrap();
        // Each size is drawn (or said too small) before the next: the server answers a bot.
        assert_eq!(players[1].ask("whoami"), "= bob");
    }
    alice.resize(24, 80);
    alice.wait_for("alice (you)");
    // A move played now (by her own bot session, as Black) still reaches her screen.
    play.moves(&mut players, 1);
    alice.wait_for("You played");

    // Clients that vanish: mid-handshake, mid-frame (a terminal killed while drawing), mid-move.
    let mut raw = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    raw.write_all(b"SSH-2.0-vanishing\r\n\x00\x00\x01").unwrap();
    let mut banner = [0u8; 4];
    raw.read_exact(&mut banner).unwrap();
    drop(raw);
    alice.send("jjjj");
    let pid = alice.child.process_id().unwrap().to_string();
    std::process::Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .unwrap();
    let _ = alice.wait_exit();
    players[1].send(&format!("wait {id}"));
    drop(players);
    let mut bob = server.bot(&dir.join("bob"));
    let games = bob.ok("games");
    assert!(
        games.starts_with(&format!("{id} brique 15 alice white turn")),
        "{games}"
    );
    bob.finish();
}

#[test]
fn more_sessions_than_allowed_are_told_so() {
    let dir = scratch("server-limits");
    let per_key = Server::start(&dir, &["--sessions-per-key", "1"]);
    let ka = key(&dir, "alice");
    let mut first = per_key.bot(&ka);
    first.ok("register alice");
    let mut second = per_key.bot(&ka);
    assert_eq!(
        second.answer(),
        "? too many sessions: at most 1 for one key"
    );
    second.finish();
    first.finish();
    // A new session once the first has ended.
    let mut third = per_key.bot(&ka);
    // It may come before the server has counted the first one out: ask until it is in.
    let mut answer = third.ask("whoami");
    let mut tries = 0;
    while answer != "= alice" {
        assert!(
            answer.starts_with("? too many sessions") && tries < 100,
            "{answer}"
        );
        third.finish();
        third = per_key.bot(&ka);
        answer = third.ask("whoami");
        tries += 1;
    }
    third.finish();

    let dir2 = dir.join("second");
    std::fs::create_dir(&dir2).unwrap();
    let full = Server::start(&dir2, &["--max-sessions", "2"]);
    let kb = key(&dir, "bob");
    let kc = key(&dir, "carol");
    let mut a = full.bot(&ka);
    a.ok("register alice");
    let mut b = full.bot(&kb);
    b.ok("register bob");
    let mut c = full.bot(&kc);
    assert_eq!(c.answer(), "? the server is full: try again later");
    assert_eq!(a.ask("whoami"), "= alice");
    for bot in [a, b, c] {
        bot.finish();
    }
}
