//! `quentin games` and `quentin resume` from the command line: the list of saved games, for
//! people and in JSON, and what `resume` refuses before any terminal is needed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::scratch;

use scratch::{Scratch, scratch};

/// A data directory for one test, holding `quentin/games`; returns it and the games directory.
fn data(name: &str) -> (Scratch, PathBuf) {
    let dir = scratch(name);
    let games = dir.join("quentin/games");
    fs::create_dir_all(&games).unwrap();
    (dir, games)
}

/// Writes `text` to `path`, last changed `secs` after 2026-01-01.
fn record(path: &Path, text: &str, secs: u64) {
    fs::write(path, text).unwrap();
    let when = SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600 + secs);
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(when)
        .unwrap();
}

fn quentin(data: &Path, args: &[&str]) -> Output {
    crate::isolated::quentin()
        .args(args)
        .env("XDG_DATA_HOME", data)
        // A terminal that could draw, whatever the tests' own: the refusals tested are others.
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Three games: a won one, an unfinished Konobi (the newest), and a faulty record.
fn three(name: &str) -> (Scratch, PathBuf) {
    let (dir, games) = data(name);
    record(
        &games.join("won.txt"),
        "size 3\npie off\nplayer2 computer, level 4, 2 s a move\nb1 a1 b2 a2 b3\n",
        60,
    );
    record(
        &games.join("open.txt"),
        "game konobi\nsize 5\nplayer1 alice\nplayer2 bob\nc3\n",
        180,
    );
    record(&games.join("bad.txt"), "size 5\nc3 c3\n", 120);
    (dir, games)
}

#[test]
fn games_lists_newest_first_with_result_and_unreadable_records() {
    let (dir, games) = three("text");
    let out = stdout(&quentin(&dir, &["games"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("2026-01-01 00:03 UTC"), "{out}");
    for (line, words) in lines.iter().zip([
        ["konobi", "5×5", "1 action ", "unfinished", "alice vs bob"],
        ["unreadable", "2:4:", "illegal", "bad.txt", ""],
        [
            "quentin",
            "3×3",
            "5 actions",
            "Black won",
            "you vs computer level 4",
        ],
    ]) {
        for word in words {
            assert!(line.contains(word), "{word:?} in {line:?}");
        }
    }
    assert!(lines[0].ends_with(&games.join("open.txt").display().to_string()));
}

#[test]
fn games_json_has_the_fields_programs_need() {
    let (dir, games) = three("json");
    let out = stdout(&quentin(&dir, &["games", "--json"]));
    let list: Value = serde_json::from_str(&out).unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 3);
    let open = &list[0];
    assert_eq!(open["path"], games.join("open.txt").display().to_string());
    assert_eq!(open["modified"], "2026-01-01T00:03:00Z");
    assert_eq!(open["game"], "konobi");
    assert_eq!(open["size"], 5);
    assert_eq!(open["actions"], 1);
    assert_eq!(open["winner"], Value::Null);
    assert_eq!(open["finished"], false);
    assert_eq!(open["error"], Value::Null);
    assert!(list[1]["error"].as_str().unwrap().contains("illegal"));
    assert_eq!(list[1]["game"], Value::Null);
    assert_eq!(open["players"], serde_json::json!(["alice", "bob"]));
    assert_eq!(list[2]["winner"], "black");
    assert_eq!(list[2]["finished"], true);
    assert_eq!(list[2]["size"], 3);
}

#[test]
fn games_shows_the_recent_ones_and_all_with_all() {
    let (dir, games) = data("all");
    for n in 0..23 {
        record(&games.join(format!("g{n:02}.txt")), "size 5\nc3\n", n * 60);
    }
    let out = stdout(&quentin(&dir, &["games"]));
    assert_eq!(out.lines().count(), 21, "{out}");
    assert!(out.lines().next().unwrap().ends_with("g22.txt"), "{out}");
    assert!(
        out.ends_with("… and 3 older games (--all lists them).\n"),
        "{out}"
    );
    let out = stdout(&quentin(&dir, &["games", "--all"]));
    assert_eq!(out.lines().count(), 23, "{out}");
    let out = stdout(&quentin(&dir, &["games", "--json", "--all"]));
    let list: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 23);
}

#[test]
fn games_in_an_empty_or_missing_directory_says_so() {
    let (dir, _) = data("empty");
    let out = stdout(&quentin(&dir, &["games"]));
    assert!(out.starts_with("No saved games in "), "{out}");
    let out = stdout(&quentin(&dir.join("nothing"), &["games", "--json"]));
    assert_eq!(out, "[]\n");
}

#[test]
fn an_empty_home_is_treated_as_unset() {
    let out = crate::isolated::quentin()
        .arg("games")
        .env("HOME", "")
        .env_remove("XDG_DATA_HOME")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("HOME is not set (or is empty)"), "{err}");
}

#[test]
fn resume_needs_a_terminal_and_writes_nothing_without_one() {
    let (dir, games) = three("resume-noterm");
    let before = fs::read(games.join("open.txt")).unwrap();
    let out = quentin(&dir, &["resume"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a terminal"));
    assert_eq!(fs::read(games.join("open.txt")).unwrap(), before);
}
