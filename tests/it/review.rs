//! `quentin review` from the outside: a record in which Black throws away an immediate win is
//! reviewed, as text and as JSON, the same every run with one thread, a seed and playouts.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use quentin::record::Record;
use quentin::rules::Action;
use quentin::search::players::wins_at_once;
use serde_json::Value;

use crate::common;
use crate::scratch;

use scratch::scratch_file;

/// Long enough for a loaded 2-core machine; only there to turn a hang into a failure.
const HANG: Duration = Duration::from_secs(120);

/// Quentin 5×5 without the swap: Black, able to win at once with action 15, plays a1 instead,
/// and White wins at once with d5.
const THROWN: &str = "game quentin\nsize 5\npie off\nplayer1 alice\nplayer2 bob\n\
                      c3 e4 d3 d4 e1 e3 c4 d1 c2 a4 b3 b2 c1 b5 a1 d5\n";

const BUDGET: [&str; 6] = ["--playouts", "2000", "--threads", "1", "--seed", "1"];

fn quentin(args: &[&str]) -> Output {
    let mut cmd = crate::isolated::quentin();
    cmd.args(args);
    common::run_guarded(cmd, HANG)
}

fn review(file: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["review", file.to_str().unwrap()];
    args.extend_from_slice(&BUDGET);
    args.extend_from_slice(extra);
    quentin(&args)
}

fn succeeded(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Not a terminal: no progress on standard error.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn a_thrown_away_win_is_a_blunder_with_the_win_named_best() {
    let file = scratch_file("thrown.txt", THROWN);
    let v: Value = serde_json::from_str(&succeeded(&review(&file, &["--json"]))).unwrap();
    let actions = v["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 16);
    let fields = [
        "index",
        "player",
        "colour",
        "action",
        "win_before",
        "win_after",
        "best",
        "best_win",
        "mark",
        "loss",
    ];
    for a in actions {
        let keys: Vec<&str> = a.as_object().unwrap().keys().map(String::as_str).collect();
        let mut expected = fields.to_vec();
        // A marked action says why: the better action, the refutation, a proof when found.
        if !a["mark"].is_null() {
            expected.extend(["better", "line"]);
            if a.get("proven").is_some() {
                expected.push("proven");
            }
        }
        expected.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(keys, expected);
    }
    let blunder = &actions[14];
    assert_eq!(blunder["index"], 15);
    assert_eq!(blunder["player"], 1);
    assert_eq!(blunder["colour"], "black");
    assert_eq!(blunder["action"], "a1");
    assert_eq!(blunder["mark"], "blunder");
    assert_eq!(blunder["win_before"], 1.0);
    assert_eq!(blunder["best_win"], 1.0);
    assert_eq!(blunder["win_after"], 0.0);
    let record = Record::parse(THROWN).unwrap();
    let before = record.position_at(14);
    let best = Action::parse(blunder["best"].as_str().unwrap()).unwrap();
    assert!(wins_at_once(&before, best), "{best}");
    assert_eq!(blunder["better"], blunder["best"]);
    // The win thrown away is proved, and the refutation is legal after a1: White's d5 wins.
    let proven = &blunder["proven"];
    assert_eq!(
        (proven["winner"].clone(), proven["thrown"].clone()),
        ("black".into(), true.into())
    );
    assert_eq!(proven["moves"], 1);
    let first = Action::parse(proven["first"].as_str().unwrap()).unwrap();
    assert!(wins_at_once(&before, first), "{first}");
    let mut after = record.position_at(15);
    let line = blunder["line"].as_array().unwrap();
    assert!(!line.is_empty() && line.len() <= 6, "{line:?}");
    for a in line {
        after
            .play(Action::parse(a.as_str().unwrap()).unwrap())
            .unwrap();
    }
    // Every other marked action's line is legal from the position after it, 3 to 6 long
    // unless the game ends first.
    for a in actions.iter().filter(|a| !a["mark"].is_null()) {
        let n = a["index"].as_u64().unwrap() as usize;
        let mut pos = record.position_at(n);
        let line = a["line"].as_array().unwrap();
        for step in line {
            pos.play(Action::parse(step.as_str().unwrap()).unwrap())
                .unwrap();
        }
        assert!(
            (3..=6).contains(&line.len()) || pos.is_over(),
            "action {n}: {line:?}"
        );
    }
    // White's win ends the game: its chance after is 1, and it is not marked.
    let last = &actions[15];
    assert_eq!(
        (last["win_after"].clone(), last["mark"].clone()),
        (1.0.into(), Value::Null)
    );
    let alice = &v["summary"]["player1"];
    assert_eq!(alice["name"], "alice");
    assert_eq!(alice["actions"], 8);
    assert!(alice["blunders"].as_u64().unwrap() >= 1);
    assert!(alice["average_loss"].as_f64().unwrap() > 1.0 / 16.0);
    assert_eq!(v["summary"]["player2"]["name"], "bob");
    let marks = actions.iter().filter(|a| !a["mark"].is_null()).count() as u64;
    let counted: u64 = ["player1", "player2"]
        .iter()
        .flat_map(|p| ["inaccuracies", "mistakes", "blunders"].map(|k| (p, k)))
        .map(|(p, k)| v["summary"][p][k].as_u64().unwrap())
        .sum();
    assert_eq!(marks, counted);
}

#[test]
fn the_text_names_the_marked_actions_and_the_better_one() {
    let file = scratch_file("thrown.txt", THROWN);
    let text = succeeded(&review(&file, &[]));
    assert!(
        text.starts_with("Quentin 5×5, 16 actions, White won\n"),
        "{text}"
    );
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("15. Black a1"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("?? blunder    100% → 0%; better "), "{line}");
    // Under it, the refutation and the win thrown away.
    assert!(text.contains("(a proven win thrown away: "), "{text}");
    let best = line
        .split("better ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let record = Record::parse(THROWN).unwrap();
    assert!(wins_at_once(
        &record.position_at(14),
        Action::parse(best).unwrap()
    ));
    assert!(text.contains("Player 1 \"alice\": 8 actions, "), "{text}");
    assert!(text.contains("Player 2 \"bob\": 8 actions, "), "{text}");
    assert!(text.contains("average loss "), "{text}");
}

#[test]
fn the_same_record_gives_the_same_review_every_run() {
    let file = scratch_file("thrown.txt", THROWN);
    let first = succeeded(&review(&file, &["--json"]));
    assert_eq!(first, succeeded(&review(&file, &["--json"])));
    let text = succeeded(&review(&file, &[]));
    assert_eq!(text, succeeded(&review(&file, &[])));
}

#[test]
fn analyze_of_a_finished_game_points_to_the_review() {
    let file = scratch_file("thrown.txt", THROWN);
    let out = quentin(&["analyze", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("the game is over after 16 actions"), "{err}");
    assert!(
        err.contains(&format!("quentin review {}", file.display())),
        "{err}"
    );
}

#[test]
fn an_empty_record_a_bad_one_and_a_wrong_command_line() {
    let empty = scratch_file("empty.txt", "game konobi\nsize 5\n");
    let text = succeeded(&review(&empty, &[]));
    assert!(text.contains("0 actions, unfinished"), "{text}");
    assert!(text.contains("Player 1: 0 actions"), "{text}");
    let v: Value = serde_json::from_str(&succeeded(&review(&empty, &["--json"]))).unwrap();
    assert_eq!(v["actions"], Value::Array(Vec::new()));
    assert!(v["summary"]["player1"]["average_loss"].is_null());

    let bad = scratch_file("bad.txt", "game quentin\nsize 5\nc3\nc3\n");
    let out = review(&bad, &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(&format!("{}:4:1:", bad.display())), "{err}");

    let out = quentin(&["review", empty.to_str().unwrap(), "--playouts", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn without_options_the_review_is_the_interface_s_the_same_every_run() {
    // The interface's `v` reviews with 20,000 playouts a position, one thread, seed 1
    // (`review::standard_limits`, whose sameness with `v` a unit test of the interface checks):
    // `quentin review` without options gives that review, every run.
    let file = scratch_file("standard.txt", THROWN);
    let plain = |extra: &[&str]| {
        let mut args = vec!["review", file.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        succeeded(&quentin(&args))
    };
    let first = plain(&[]);
    assert_eq!(first, plain(&[]));
    assert_eq!(
        first,
        plain(&["--playouts", "20000", "--threads", "1", "--seed", "1"])
    );
    let v: Value = serde_json::from_str(&first).unwrap();
    // Each action says what it lost; the thrown-away win all of it.
    let actions = v["actions"].as_array().unwrap();
    assert!(actions.iter().all(|a| a.get("loss").is_some()), "{v}");
    assert_eq!(actions[14]["loss"], 1.0);
}
