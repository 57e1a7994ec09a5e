//! The computer's command-line entry points other than GTP, from the outside: `analyze` (JSON
//! fields, text, the exit statuses of `replay`), `match` and `bench --policy`. Playout budgets
//! only.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use quentin::rules::{Action, Game, Setup};
use quentin::search::Calibration;
use quentin::search::players::wins_at_once;
use quentin::search::rng::Rng;

use crate::common;
use crate::scratch;

use common::stdout_json;

use scratch::{ScratchFile, scratch_file};

/// Long enough for a loaded 2-core machine; only there to turn a hang into a failure.
const HANG: Duration = Duration::from_secs(120);

fn quentin(args: &[&str]) -> Output {
    let mut cmd = crate::isolated::quentin();
    cmd.args(args);
    common::run_guarded(cmd, HANG)
}

fn temp_file(name: &str, text: &str) -> ScratchFile {
    scratch_file(name, text)
}

const BUDGET: [&str; 6] = ["--playouts", "2000", "--threads", "1", "--seed", "5"];

fn analyze(file: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["analyze", file.to_str().unwrap()];
    args.extend_from_slice(&BUDGET);
    args.extend_from_slice(extra);
    quentin(&args)
}

#[test]
fn analyze_json_has_the_fields_of_the_interface() {
    let file = temp_file("mid.txt", "game konobi\nsize 7\nd4\nswap\nc3\n");
    let v = stdout_json(&analyze(&file, &["--json"]));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "to_move", "playouts", "best", "win", "raw_win", "proven", "moves"
        ]
    );
    // After the swap White moved again (c3): Black is to move.
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["playouts"], 2000);
    assert!(v["proven"].is_null());
    let win = v["win"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&win));
    // `win` is the search's raw figure calibrated for Konobi (both rounded to three decimals).
    let raw = v["raw_win"].as_f64().unwrap();
    let calibration = Calibration::of(Setup {
        size: 7,
        ..Setup::new(Game::Konobi)
    });
    assert!((calibration.chance(raw) - win).abs() < 0.01, "{v}");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 10);
    assert_eq!(moves[0]["action"], v["best"]);
    let mut last = u64::MAX;
    for m in moves {
        let keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["action", "visits", "win", "raw_win", "pv"]);
        // The mapping is increasing: the calibrated chances rank as the raw ones.
        if let (Some(w), Some(r)) = (m["win"].as_f64(), m["raw_win"].as_f64()) {
            assert!((calibration.chance(r) - w).abs() < 0.01, "{m}");
        }
        let visits = m["visits"].as_u64().unwrap();
        assert!(visits <= last, "most visited first");
        last = visits;
        let pv = m["pv"].as_array().unwrap();
        assert_eq!(pv[0], m["action"]);
        for a in pv {
            Action::parse(a.as_str().unwrap()).unwrap();
        }
    }
    // The same seed and budget give the same analysis.
    assert_eq!(v, stdout_json(&analyze(&file, &["--json"])));
    // --at looks at an earlier position.
    let v = stdout_json(&analyze(&file, &["--json", "--at", "1"]));
    assert_eq!(v["to_move"], "white");
    let swap = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["action"] == "swap");
    assert!(swap, "the swap is among White's first actions");
}

#[test]
fn analyze_proves_a_won_position() {
    // The position before the last action of a random game: the side to move wins at once.
    let setup = Setup {
        size: 4,
        pie: false,
        ..Setup::new(Game::Quentin)
    };
    let mut pos = setup.start().unwrap();
    let mut rng = Rng::new(9);
    let mut actions = Vec::new();
    while !pos.is_over() {
        let legal = pos.legal_actions();
        let a = legal[rng.below(legal.len())];
        pos.play(a).unwrap();
        actions.push(a);
    }
    let file = temp_file("won.txt", &quentin::record::write(setup, &actions));
    let at = (actions.len() - 1).to_string();
    let v = stdout_json(&analyze(&file, &["--json", "--at", &at]));
    assert_eq!(v["proven"], "win");
    assert_eq!(v["win"], 1.0);
    assert_eq!(v["raw_win"], 1.0);
    let mut before = setup.start().unwrap();
    for &a in &actions[..actions.len() - 1] {
        before.play(a).unwrap();
    }
    let best = Action::parse(v["best"].as_str().unwrap()).unwrap();
    assert!(wins_at_once(&before, best), "{best}");
}

#[test]
fn analyze_gives_no_number_without_playouts_and_no_first_listed_move() {
    let file = temp_file("empty.txt", "game quentin\nsize 9\n");
    let out = quentin(&[
        "analyze",
        file.to_str().unwrap(),
        "--playouts",
        "1",
        "--threads",
        "1",
        "--seed",
        "1",
        "--json",
    ]);
    let v = stdout_json(&out);
    // One playout: the centre, and no win chance (it would read 0 or 100 %).
    assert_eq!(v["best"], "e5");
    assert!(v["win"].is_null(), "{v}");
    assert!(v["moves"][0]["win"].is_null(), "{v}");
    assert!(v["raw_win"].is_null(), "{v}");
    assert!(v["moves"][0]["raw_win"].is_null(), "{v}");
    let out = quentin(&[
        "analyze",
        file.to_str().unwrap(),
        "--playouts",
        "1",
        "--threads",
        "1",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Best: e5 (no figure: 1 playout through it, 50 needed)"),
        "{text}"
    );
    assert!(!text.contains('%'), "{text}");
}

#[test]
fn analyze_text_is_for_people() {
    let file = temp_file("text.txt", "game brique\nsize 5\nc3\n");
    let out = analyze(&file, &[]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("2000 playouts"), "{text}");
    assert!(text.contains("Best: "), "{text}");
    assert!(
        text.contains("% for white") || text.contains("a proven"),
        "{text}"
    );
    assert!(text.contains("action") && text.contains("visits"), "{text}");
}

#[test]
fn analyze_refuses_what_replay_refuses_and_finished_games() {
    let bad = temp_file("bad.txt", "game quentin\nsize 5\nc3\nc3\n");
    let out = analyze(&bad, &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(&format!("{}:4:1:", bad.display())), "{err}");
    assert_eq!(err.lines().count(), 1);

    let file = temp_file("short.txt", "game quentin\nsize 5\nc3\n");
    let out = analyze(&file, &["--at", "2"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--at 2 is beyond the end of the record"),
        "{err}"
    );

    let over = temp_file(
        "over.txt",
        "game quentin\nsize 3\npie off\na1\nb1\na2\nb2\na3\n",
    );
    let out = analyze(&over, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("the game is over"), "{err}");

    let out = quentin(&["analyze", "/nonexistent/record.txt"]);
    assert_eq!(out.status.code(), Some(1));
    // A wrong budget is a wrong command line (status 2), not a failure.
    let out = quentin(&["analyze", file.to_str().unwrap(), "--seconds=-1"]);
    assert_eq!(out.status.code(), Some(2));
    let out = quentin(&[
        "analyze",
        file.to_str().unwrap(),
        "--seconds",
        "1",
        "--playouts",
        "5",
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "conflicting budgets are a usage error"
    );
}

#[test]
fn a_short_match_reports_its_tally() {
    let out = quentin(&[
        "match",
        "--game",
        "quentin",
        "--size",
        "5",
        "--opponent",
        "random",
        "--games",
        "2",
        "--playouts",
        "300",
        "--threads",
        "1",
        "--seed",
        "2",
        "--json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["games"], 2);
    assert_eq!(v["opponent"], "random");
    let (w, l, d) = (
        v["wins"].as_u64().unwrap(),
        v["losses"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
    );
    assert_eq!(w + l + d, 2);
    assert_eq!(v["win_rate"], (w as f64 + d as f64 / 2.0) / 2.0);
    // Not a terminal: no progress on standard error.
    assert!(out.stderr.is_empty());

    let out = quentin(&[
        "match",
        "--size",
        "4",
        "--opponent",
        "engine",
        "--opponent-playouts",
        "20",
        "--playouts",
        "200",
        "--games",
        "2",
        "--threads",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("against computer at 20 playouts a move, 2 games"),
        "{text}"
    );
    assert!(text.contains("Elo difference"), "{text}");
}

#[test]
fn a_match_between_levels_names_them_and_repeats_with_its_seed() {
    let args = [
        "match",
        "--size",
        "5",
        "--level",
        "2",
        "--opponent",
        "engine",
        "--opponent-level",
        "1",
        "--games",
        "6",
        "--threads",
        "1",
        "--seed",
        "4",
        "--json",
    ];
    let v = stdout_json(&quentin(&args));
    assert_eq!(v["level"], 2);
    assert_eq!(v["opponent_level"], 1);
    assert_eq!(v["computer"], "level 2 (at most 1 s a move)");
    assert_eq!(v["opponent"], "computer at level 1 (at most 1 s a move)");
    assert_eq!(v["games"], 6);
    // A level's playouts do not depend on the machine: the same seed, the same games.
    assert_eq!(stdout_json(&quentin(&args)), v);
    // The opponent's options are a computer's.
    for option in [
        &["--opponent-level", "3"][..],
        &["--opponent-playouts", "10"],
        &["--level", "11"],
        &["--level", "0"],
    ] {
        let mut args = vec!["match", "--size", "5", "--games", "1"];
        args.extend_from_slice(option);
        let out = quentin(&args);
        assert_eq!(out.status.code(), Some(2), "{option:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("add --opponent engine") || err.contains("is not a level"),
            "{err}"
        );
    }
}

#[test]
fn bench_reports_its_policy() {
    for policy in ["uniform", "search"] {
        let out = quentin(&[
            "bench",
            "--game",
            "quint",
            "--playouts",
            "20",
            "--policy",
            policy,
            "--json",
        ]);
        let v = stdout_json(&out);
        assert_eq!(v["policy"], policy);
        assert_eq!(v["playouts"], 20);
    }
}
