//! `quentin gtp` from the outside: a scripted session through every command of the protocol,
//! hostile input, and whole games against a random player, all with playout budgets.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quentin::rules::{Action, Game, Setup};
use quentin::search::rng::Rng;

/// Long enough for a loaded 2-core machine; only there to turn a hang into a failure.
const HANG: Duration = Duration::from_secs(120);

fn gtp(args: &[&str]) -> Child {
    crate::isolated::quentin()
        .arg("gtp")
        .args(["--playouts", "100", "--threads", "1", "--seed", "3"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Kills `child` should it outlive [`HANG`]; returns a flag the test clears when done.
fn watchdog(child: &Child) -> Arc<Mutex<bool>> {
    let pid = child.id();
    let running = Arc::new(Mutex::new(true));
    let flag = Arc::clone(&running);
    std::thread::spawn(move || {
        let start = Instant::now();
        while *flag.lock().unwrap() {
            if start.elapsed() > HANG {
                let _ = Command::new("kill").arg(pid.to_string()).status();
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    running
}

/// Sends the whole `script`, closes the input, and returns the exit status and output.
fn session(script: &[u8]) -> (Option<i32>, String, String) {
    let mut child = gtp(&[]);
    let guard = watchdog(&child);
    let mut stdin = child.stdin.take().unwrap();
    let script = script.to_vec();
    let writer = std::thread::spawn(move || {
        // The engine may quit before reading it all.
        let _ = stdin.write_all(&script);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    *guard.lock().unwrap() = false;
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The answers of a session's output, each without its closing empty line.
fn answers(stdout: &str) -> Vec<&str> {
    assert!(stdout.ends_with("\n\n"), "{stdout:?}");
    stdout.trim_end_matches('\n').split("\n\n").collect()
}

#[test]
fn a_scripted_session_through_every_command() {
    let script = "\
protocol_version
1 name
version
known_command genmove
known_command komi
list_commands
set_game konobi
boardsize 5
showboard
play b c3
play b c4
2 reg_genmove w
genmove w
undo
undo
undo
clear_board
set_pie off
set_game quint
set_pieces 15
set_pie on
time_settings 0 1 1
play w a1
genmove b
final_score
set_game quentin
boardsize 3
play b a1
play w b1
play b a2
play w b2
play b a3
final_score
genmove b
play w c3
level 3
level 11
quit
name
";
    let (status, stdout, _) = session(script.as_bytes());
    assert_eq!(status, Some(0));
    let a = answers(&stdout);
    let list = format!("= {}", quentin::cli::gtp::COMMANDS.join("\n"));
    assert_eq!(a[0], "= 2");
    assert_eq!(a[1], "=1 quentin");
    assert_eq!(a[2], format!("= {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(a[3], "= true");
    assert_eq!(a[4], "= false");
    assert_eq!(a[5], list);
    assert_eq!(a[6], "=");
    assert_eq!(a[7], "=");
    assert!(
        a[8].starts_with("= \n") && a[8].contains("a b c d e"),
        "{}",
        a[8]
    );
    assert_eq!(a[9], "=");
    assert_eq!(a[10], "? illegal move: it is white's turn");
    // reg_genmove does not play: genmove then plays for White again.
    let considered = a[11].strip_prefix("=2 ").unwrap();
    Action::parse(considered).unwrap();
    let played = a[12].strip_prefix("= ").unwrap();
    Action::parse(played).unwrap();
    assert_eq!(&a[13..16], ["=", "=", "? cannot undo"]);
    assert_eq!(&a[16..20], ["=", "=", "=", "="]);
    assert_eq!(a[20], "? Quint has no pie rule");
    assert_eq!(a[21], "=");
    assert_eq!(a[22], "=");
    let quint_move = a[23].strip_prefix("= ").unwrap();
    assert!(matches!(Action::parse(quint_move), Ok(Action::Place(_))));
    assert_eq!(a[24], "? game not over");
    assert_eq!(&a[25..32], ["=", "=", "=", "=", "=", "=", "="]);
    assert_eq!(a[32], "= B+");
    assert_eq!(a[33], "? the game is over");
    assert_eq!(a[34], "? illegal move: the game is over");
    assert_eq!(a[35], "=");
    assert!(a[36].starts_with("? \"11\" is not a level"), "{}", a[36]);
    assert_eq!(a[37], "=");
    // Nothing is read after quit.
    assert_eq!(a.len(), 38, "{a:?}");
}

#[test]
fn hostile_input_gets_answers_never_a_panic() {
    let mut script = Vec::new();
    script.extend_from_slice(b"\n\n   \n# just a comment\n");
    script.extend_from_slice(b"play\nplay b\nplay b zz99\nplay b a1 a2\nplay purple a1\n");
    script.extend_from_slice(b"boardsize -3\nboardsize 99999999999999999999\nboardsize x\n");
    script.extend_from_slice(b"set_game chess\nset_pieces 7\nset_pie maybe\n");
    script.extend_from_slice(b"time_settings a b c\ntime_settings -1 5 1\nundo\n");
    script.extend_from_slice(b"genmove\ngenmove b b\n12345\n99999999999999999999999 name\n");
    script.extend_from_slice(b"\x00\x01\x02name\x7f\n\xff\xfe\xfd\n");
    script.extend_from_slice(b"play b a1-a2xa3xa4xa5xa6\nplay b swap\nplay b pass\n");
    script.extend_from_slice(&vec![b'x'; 200_000]);
    script.extend_from_slice(b"\nname\t\tfoo\r\nname");
    let (status, stdout, stderr) = session(&script);
    assert_eq!(status, Some(0), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let a = answers(&stdout);
    for answer in &a {
        assert!(
            answer.starts_with('=') || answer.starts_with('?'),
            "{answer:?}"
        );
    }
    // Every line with a command got one answer; the last, without a newline, too.
    assert_eq!(a.len(), 26, "{a:?}");
    assert_eq!(a[0], "? wrong arguments for play");
    assert_eq!(a[4], "? purple is not a colour");
    assert_eq!(a[5], "? unacceptable size");
    assert_eq!(a[9], "? Quentin has no pieces in hand");
    assert_eq!(a[16], "?12345 missing command");
    assert_eq!(a[17], "=99999999999999999999999 quentin");
    assert_eq!(a[18], "= quentin");
    assert_eq!(a[23], "? line too long");
    assert_eq!(a[24], "? wrong arguments for name");
    assert_eq!(a[25], "= quentin");
}

/// Reads one answer (up to its empty line) from the engine.
fn read_answer(out: &mut BufReader<ChildStdout>) -> String {
    let mut answer = String::new();
    loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "the engine stopped");
        if line == "\n" {
            return answer;
        }
        answer.push_str(&line);
    }
}

fn ask(stdin: &mut ChildStdin, out: &mut BufReader<ChildStdout>, command: &str) -> String {
    writeln!(stdin, "{command}").unwrap();
    stdin.flush().unwrap();
    read_answer(out).trim_end().to_string()
}

#[test]
fn whole_games_against_a_random_player() {
    for (game, size) in [(Game::Quentin, 5), (Game::Brique, 5), (Game::Quint, 8)] {
        let mut child = gtp(&[]);
        let guard = watchdog(&child);
        let mut stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        assert_eq!(ask(&mut stdin, &mut out, &format!("set_game {game}")), "=");
        assert_eq!(ask(&mut stdin, &mut out, &format!("boardsize {size}")), "=");
        if game == Game::Quint {
            assert_eq!(ask(&mut stdin, &mut out, "set_pieces 15"), "=");
        }
        let setup = Setup {
            size,
            pieces: if game == Game::Quint { 15 } else { 0 },
            ..Setup::new(game)
        };
        let mut pos = setup.start().unwrap();
        let mut rng = Rng::new(11);
        // The computer moves first in the connection games (Black), second in Quint; the
        // people alternate with every action, a swap included.
        let first = pos.to_move().unwrap();
        let (computer, parity) = if game == Game::Quint {
            (first.opponent(), 1)
        } else {
            (first, 0)
        };
        while let Some(color) = pos.to_move() {
            let name = color.name();
            let action = if pos.ply() % 2 == parity {
                let answer = ask(&mut stdin, &mut out, &format!("genmove {name}"));
                Action::parse(answer.strip_prefix("= ").unwrap()).unwrap()
            } else {
                let legal = pos.legal_actions();
                let action = legal[rng.below(legal.len())];
                assert_eq!(
                    ask(&mut stdin, &mut out, &format!("play {name} {action}")),
                    "="
                );
                action
            };
            pos.play(action).unwrap();
            assert!(pos.ply() < 2_000, "{game}: the game does not end");
        }
        let score = ask(&mut stdin, &mut out, "final_score");
        let winner = pos.outcome().unwrap().winner();
        let expected = match winner {
            Some(c) => format!("= {}+", c.letter()),
            None => "= 0".into(),
        };
        assert_eq!(score, expected, "{game}");
        // The computer beats a random player on these boards.
        let computer_colour = if pos.swapped() {
            computer.opponent()
        } else {
            computer
        };
        assert_eq!(winner, Some(computer_colour), "{game}");
        drop(stdin);
        assert_eq!(child.wait().unwrap().code(), Some(0));
        *guard.lock().unwrap() = false;
    }
}
