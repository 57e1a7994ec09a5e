//! The `quentin` binary from the outside: `replay --json/--print`, exit statuses, and hostile
//! input that must end in exit 1 with a one-line reason, never a panic or a hang.

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common;
use crate::scratch;

use scratch::{ScratchFile, scratch, scratch_file};

/// Long enough for a loaded 2-core machine; only there to turn a hang into a failure.
const HANG: Duration = Duration::from_secs(20);

fn quentin() -> Command {
    crate::isolated::quentin()
}

/// Runs the command with no standard input and a guard against hanging.
fn run(cmd: Command) -> Output {
    common::run_guarded(cmd, HANG)
}

fn temp_file(name: &str, bytes: &[u8]) -> ScratchFile {
    scratch_file(name, bytes)
}

fn replay(path: &Path, args: &[&str]) -> Output {
    let mut cmd = quentin();
    cmd.arg("replay").arg(path).args(args);
    run(cmd)
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// Exit 1, nothing on standard output, and exactly one line on standard error.
fn assert_refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(out));
    assert!(out.stdout.is_empty(), "nothing on standard output");
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        !err.trim_end().chars().any(char::is_control),
        "no control characters: {err:?}"
    );
    err
}

#[test]
fn json_of_the_format_example() {
    let path = temp_file("example.txt", b"game quentin\nsize 5\nc3 swap b2\n");
    let out = replay(&path, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut value: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut legal: Vec<String> = value["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    legal.sort();
    let mut expected: Vec<String> = (0..5)
        .flat_map(|c| (1..=5).map(move |r| format!("{}{r}", (b'a' + c) as char)))
        // Occupied, or diagonal to Black's c3 with no shared black neighbour.
        .filter(|p| !["c3", "b2", "b4", "d4", "d2"].contains(&p.as_str()))
        .collect();
    expected.sort();
    assert_eq!(legal, expected);
    value["legal"] = json!("checked");
    assert_eq!(
        value,
        json!({
            "game": "quentin",
            "size": 5,
            "pie": true,
            "ply": 3,
            "moves": ["c3", "swap", "b2"],
            "to_move": "black",
            "winner": null,
            "board": [".....", ".....", "..B..", ".W...", "....."],
            "legal": "checked",
        })
    );
}

#[test]
fn json_at_an_earlier_action_and_after_a_win() {
    let path = temp_file("won.txt", b"size 3\npie off\nb1 a1 b2 a2 b3\n");
    let out = replay(&path, &["--json", "--at", "1"]);
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["ply"], 1);
    assert_eq!(value["moves"], json!(["b1"]));
    assert_eq!(value["to_move"], "white");
    assert_eq!(value["board"], json!(["...", "...", ".B."]));
    assert_eq!(value["legal"].as_array().unwrap().len(), 8);
    let out = replay(&path, &["--json"]);
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["winner"], "black");
    assert_eq!(value["to_move"], Value::Null);
    assert_eq!(value["legal"], json!([]));
    assert_eq!(value["pie"], false);
    let out = replay(&path, &["--json", "--at", "0"]);
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["ply"], 0);
    assert_eq!(value["legal"].as_array().unwrap().len(), 9);
}

#[test]
fn json_of_a_forced_pass() {
    let path = temp_file(
        "pass.txt",
        b"size 5\nd2 b1 a3 e3 a1 c3 b5 a4 e5 d5 c5 e1 c1 d3 c4\n",
    );
    let out = replay(&path, &["--json"]);
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["to_move"], "white");
    assert_eq!(value["legal"], json!(["pass"]));
}

#[test]
fn print_shows_the_board_with_coordinates() {
    let path = temp_file("print.txt", b"size 5\nc3 swap b2\n");
    let out = replay(&path, &["--print"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("    a b c d e\n"), "{text}");
    assert!(text.contains("  3 . . B . . 3\n"), "{text}");
    assert!(text.contains("  2 . W . . . 2\n"), "{text}");
    assert!(text.contains("Black to move"), "{text}");
}

#[test]
fn print_names_the_players_of_the_record() {
    let path = temp_file(
        "players.txt",
        b"size 5\nplayer1 Ann\nplayer2 computer, 2 s a move\nc3\n",
    );
    let out = replay(&path, &["--print"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("Player 1: Ann\nPlayer 2: computer, 2 s a move\n"),
        "{text}"
    );
}

#[test]
fn hostile_records_are_refused_in_one_line() {
    let big_comment = {
        let mut v = b"size 5\n".to_vec();
        v.resize(50 * 1024 * 1024, b'#');
        v
    };
    let big_actions = "a1 b2 ".repeat(50 * 1024 * 1024 / 6);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("size0.txt", b"size 0\n".to_vec(), "size 0 is out of range"),
        ("size1.txt", b"size 1\n".to_vec(), "size 1 is out of range"),
        (
            "size27.txt",
            b"size 27\n".to_vec(),
            "size 27 is out of range",
        ),
        (
            "size1e12.txt",
            b"size 1000000000000\n".to_vec(),
            "out of range",
        ),
        ("game.txt", b"game hex\n".to_vec(), "unknown game \"hex\""),
        (
            "late.txt",
            b"c3\nsize 5\n".to_vec(),
            "comes after the first action",
        ),
        ("empty.txt", b"".to_vec(), "the record is empty"),
        (
            "junk.bin",
            (0..=255u8).rev().cycle().take(10_000).collect(),
            "not UTF-8",
        ),
        ("big.txt", big_comment, "too large"),
        ("bigactions.txt", big_actions.into_bytes(), "too large"),
        (
            "escape.txt",
            b"size 5\nc3 \x1b[2J\x1b]0;x\x07\n".to_vec(),
            "\\u{1b}[2J",
        ),
        (
            "ended.txt",
            b"size 3\npie off\nb1 a1 b2 a2 b3 c1\n".to_vec(),
            "after the game ended",
        ),
    ];
    for (name, bytes, needle) in cases {
        let path = temp_file(name, &bytes);
        for args in [&["--json"][..], &["--print"]] {
            let out = replay(&path, args);
            let err = assert_refused(&out);
            assert!(err.contains(needle), "{name}: {err}");
            assert!(
                err.starts_with(&path.display().to_string()),
                "{name}: {err}"
            );
        }
    }
}

#[test]
fn at_beyond_the_end_is_refused() {
    let path = temp_file("short.txt", b"size 5\nc3 d4\n");
    let err = assert_refused(&replay(&path, &["--json", "--at", "3"]));
    assert!(
        err.contains("--at 3 is beyond the end of the record (2 actions)"),
        "{err}"
    );
    let err = assert_refused(&replay(&path, &["--json", "--at", "1000000000000000"]));
    assert!(err.contains("beyond the end"), "{err}");
}

#[test]
fn missing_files_are_refused() {
    let err = assert_refused(&replay(Path::new("/nonexistent/record.txt"), &["--json"]));
    assert!(err.contains("cannot open /nonexistent/record.txt"), "{err}");
}

#[test]
fn what_is_not_a_regular_file_is_refused_without_waiting() {
    // A FIFO with no writer: reading it would wait forever. Each command refuses it at once
    // (the guard turns a wait into a failure) and leaves it as it was, as `resume` does
    // (src/save/tests.rs).
    let dir = scratch("fifo");
    let fifo = dir.join("game.txt");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let fifo = fifo.to_str().unwrap();
    for args in [
        &["replay", fifo, "--print"][..],
        &["replay", fifo, "--json"],
        &["analyze", fifo],
        &["review", fifo],
    ] {
        let err = assert_refused(&quentin_with(args));
        assert!(
            err.contains(&format!("{fifo} is a FIFO with nothing to read")),
            "{args:?}: {err}"
        );
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_record_from_a_pipe_is_read_to_its_end() {
    // `quentin replay <(ssh host record 7)`: the shell hands over a pipe whose writer is still
    // writing; the record is read to the writer's end, not refused as a FIFO.
    let dir = scratch("pipe");
    let record = dir.join("game.txt");
    std::fs::write(&record, "game quentin\nsize 5\npie off\nc3 d3\n").unwrap();
    let script = format!(
        "exec \"$0\" replay <(sleep 0.2; cat {}) --print",
        record.display()
    );
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_quentin"));
    crate::isolated::isolate(&mut cmd);
    let out = run(cmd);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("after 2 actions") && stdout.contains("Last action: d3"),
        "{stdout}"
    );
}

/// Runs `quentin ARGS` with no standard input.
fn quentin_with(args: &[&str]) -> Output {
    let mut cmd = quentin();
    cmd.args(args);
    run(cmd)
}

#[test]
fn wrong_usage_exits_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["replay"], "required"),
        (
            &["replay", "x.txt", "--json", "--print"],
            "cannot be used with",
        ),
        (&["replay", "x.txt", "--at", "many"], "invalid digit"),
        (&["--size", "big"], "not a whole number"),
        (&["--size", "0"], "size 0 is out of range"),
        (
            &["--size", "2"],
            "size 2 is out of range: Quentin is played on sizes 3 to 26",
        ),
        (
            &["--size", "27"],
            "size 27 is out of range: Quentin is played on sizes 3 to 26",
        ),
        (&["--size", "1000000000000"], "out of range"),
        (
            &["--game", "quint", "--size", "9"],
            "Quint is played on size 8 only",
        ),
        (
            &["--game", "quint", "--pieces", "16"],
            "16 pieces is not an option",
        ),
        (&["--pieces", "16"], "Quentin has no pieces in hand"),
        (&["--pieces", "20"], "Quentin has no pieces in hand"),
        (
            &["play", "--game", "brique", "--pieces", "15"],
            "Brique has no pieces in hand",
        ),
        (&["--game", "chess"], "invalid value"),
        (&["frobnicate"], "unrecognized subcommand"),
        (&["bench", "--size", "27"], "out of range"),
        (
            &["bench", "--game", "quint", "--size", "9", "--playouts", "1"],
            "size 8 only",
        ),
        (&["bench", "--seconds", "100000"], "not a duration"),
        (&["rules", "chess"], "invalid value"),
        (&["completions"], "required"),
        (&["completions", "cmd.exe"], "invalid value"),
        (&["manual", "extra"], "unexpected argument"),
        (&["analyze", "x.txt", "--threads", "300"], "1..=256"),
        (&["analyze", "x.txt", "--playouts", "0"], "at least 1"),
        (&["analyze", "x.txt", "--seconds", "1e9"], "not a duration"),
        (&["analyze", "x.txt", "--nodes", "5"], "from 1000"),
        (&["gtp", "--threads", "0"], "1..=256"),
        (&["match", "--games", "0"], "at least 1"),
        (&["match", "--opponent-playouts", "0"], "at least 1"),
        (&["match", "--opponent-seconds", "-"], "not a duration"),
        (&["--computer", "--threads", "999"], "1..=256"),
    ];
    for (args, needle) in cases {
        let out = quentin_with(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(err.contains("--help"), "{args:?}: the usage hint: {err}");
    }
}

#[test]
fn a_bad_record_exits_1_and_a_good_one_0() {
    let bad = temp_file("bad.txt", b"size 5\nc3 c3\n");
    for args in [&["--json"][..], &["--print"]] {
        let err = assert_refused(&replay(&bad, args));
        assert!(
            err.contains("bad.txt:2:4: action 2 (white c3) is illegal"),
            "{err}"
        );
    }
    let good = temp_file("good.txt", b"size 5\nc3\n");
    assert_eq!(replay(&good, &["--print"]).status.code(), Some(0));
}

#[test]
fn rules_prints_the_text_of_the_help_overlay() {
    use quentin::rules::Game;
    use quentin::rules_text::guide;
    let words = |text: &str| -> Vec<String> {
        text.split_whitespace()
            .filter(|w| *w != "-")
            .map(str::to_string)
            .collect()
    };
    let mut all = Vec::new();
    for game in Game::ALL {
        let out = quentin_with(&["rules", game.name()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        let guide = guide(game);
        // The rules, word for word and in order, then the marks.
        let expected: Vec<String> = std::iter::once(guide.heading())
            .chain(guide.rules.iter().map(|r| (*r).to_string()))
            .flat_map(|r| words(&r))
            .collect();
        let printed = words(&text);
        assert_eq!(printed[..expected.len()], expected[..], "{game}");
        for mark in guide.marks {
            assert!(text.contains(mark.unicode), "{game}: {}", mark.unicode);
        }
        all.push(text);
    }
    let out = quentin_with(&["rules"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), all.join("\n"));
    let out = quentin_with(&["rules", "quint", "--ascii"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("(X)") && !text.contains("(●)"), "{text}");
}

#[test]
fn completions_and_the_manual_come_from_the_command_line() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = quentin_with(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["replay", "rules", "pieces", "no-pie"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    let out = quentin_with(&["manual"]);
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.starts_with(".ie"), "{page}");
    for word in [".TH quentin 1", "replay", "\\-\\-pieces", "M. Winther"] {
        assert!(page.contains(word), "{word}: {page}");
    }
    // With --dir, the main page and one for each subcommand it refers to.
    let dir = scratch("man");
    let out = quentin_with(&["manual", "--dir", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let main_page = std::fs::read_to_string(dir.join("quentin.1")).unwrap();
    assert!(main_page.starts_with(".ie") && main_page.contains("M. Winther"));
    for sub in ["play", "replay", "bench", "rules", "completions", "manual"] {
        let sub_page = std::fs::read_to_string(dir.join(format!("quentin-{sub}.1"))).unwrap();
        assert!(
            sub_page.contains(&format!(".TH quentin-{sub} 1")),
            "{sub_page}"
        );
    }
}

#[test]
fn help_and_version() {
    for args in [
        &["--help"][..],
        &["play", "--help"],
        &["replay", "--help"],
        &["help", "replay"],
    ] {
        let mut cmd = quentin();
        cmd.args(args);
        let out = run(cmd);
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Usage: quentin"), "{args:?}: {text}");
    }
    let text = String::from_utf8(quentin_with(&["--help"]).stdout).unwrap();
    for needle in [
        "M. Winther's Quint",
        "Keys in a game:",
        "undo, redo",
        "Records: the game is saved after every action",
        "~/.local/share/quentin",
        "Examples:",
        "quentin rules brique",
        "2 wrong command line",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let mut cmd = quentin();
    cmd.arg("--version");
    let out = run(cmd);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("quentin {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn file_names_with_control_characters_are_printed_escaped() {
    let err = assert_refused(&replay(
        Path::new("/nonexistent/\x1b[31mred\x07.txt"),
        &["--json"],
    ));
    assert!(
        err.contains(r"/nonexistent/\u{1b}[31mred\u{7}.txt"),
        "{err}"
    );
    let path = temp_file("bad\x1b]0;title\x07.txt", b"size 5\nc3 c3\n");
    let err = assert_refused(&replay(&path, &["--json"]));
    assert!(err.contains(r"bad\u{1b}]0;title\u{7}.txt:2:4:"), "{err}");
}

#[test]
fn help_is_a_subcommand_like_the_others_and_a_zero_budget_is_refused() {
    // `quentin help` takes --help as every subcommand does, and names the subcommand asked for.
    for args in [&["help", "--help"][..], &["help"], &["help", "analyze"]] {
        let out = quentin_with(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Usage: quentin"), "{args:?}: {text}");
    }
    let text = String::from_utf8(quentin_with(&["help", "analyze"]).stdout).unwrap();
    assert!(text.contains("Usage: quentin analyze"), "{text}");
    let out = quentin_with(&["help", "nothing"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("there is no subcommand \"nothing\""));
    // No time is no search: refused as a wrong command line, not answered with 0 playouts.
    let record = temp_file("open.txt", b"size 5\nc3\n");
    for budget in ["0", "-1"] {
        let out = quentin_with(&["analyze", record.to_str().unwrap(), "--seconds", budget]);
        assert_eq!(out.status.code(), Some(2), "--seconds {budget}");
        assert!(
            stderr(&out).contains("more than 0 and at most 86400 seconds"),
            "{}",
            stderr(&out)
        );
    }
}
