//! `quentin solve` from the outside: the JSON object, the text for people, the refusals and
//! their exit statuses. Budgets in positions or generous times only: nothing here depends on
//! the machine's speed.

use std::process::Output;
use std::time::Duration;

use quentin::rules::{Action, Game, Setup};
use quentin::search::solver::{SolveLimits, solve};

use crate::common;
use crate::scratch::{scratch, scratch_file};

use common::stdout_json;

/// Long enough for a loaded 2-core machine; only there to turn a hang into a failure.
const HANG: Duration = Duration::from_secs(120);

fn quentin(args: &[&str]) -> Output {
    let mut cmd = crate::isolated::quentin();
    cmd.args(args);
    common::run_guarded(cmd, HANG)
}

fn solve_record(record: &str, extra: &[&str]) -> Output {
    let file = scratch_file("game.txt", record);
    let mut args = vec!["solve", file.to_str().unwrap()];
    if !extra.contains(&"--seconds") {
        args.extend_from_slice(&["--seconds", "600"]);
    }
    args.extend_from_slice(extra);
    quentin(&args)
}

/// Quentin 3×3, pie off, Black to move: a1 and a2 are Black's, so a3 joins the top and bottom
/// rows.
const WIN_IN_ONE: &str = "game quentin\nsize 3\npie off\na1\nb1\na2\nb2\n";

#[test]
fn solve_json_is_one_object_with_every_winning_move() {
    let v = stdout_json(&solve_record(WIN_IN_ONE, &["--json", "--depth", "2"]));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["result", "depth", "winning_moves", "nodes", "seconds"]
    );
    assert_eq!(v["result"], "win");
    // The quickest win needs one move; the moves listed win within the asked two.
    assert_eq!(v["depth"], 1);
    let moves: Vec<&str> = v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(moves.contains(&"a3"), "{v}");
    // The same moves as the library's solver proves, in the order of the legal actions.
    let mut pos = Setup {
        size: 3,
        pie: false,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    for a in ["a1", "b1", "a2", "b2"] {
        pos.play(Action::parse(a).unwrap()).unwrap();
    }
    let limits = SolveLimits {
        depth: Some(2),
        ..SolveLimits::default()
    };
    let expected: Vec<String> = solve(&pos, &limits)
        .winning
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(moves, expected);
    assert!(v["nodes"].as_u64().is_some());
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn solve_proves_no_win_and_says_unknown_when_the_budget_runs_out() {
    // White to move after Black's centre on 5×5 cannot win with one stone.
    let record = "game konobi\nsize 5\npie off\nc3\n";
    let v = stdout_json(&solve_record(record, &["--json", "--depth", "1"]));
    assert_eq!(v["result"], "no-win");
    assert_eq!(v["depth"], 1);
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    // 13×13 to the end in 100 positions: not proved either way.
    let v = stdout_json(&solve_record(
        "game quentin\nsize 13\n",
        &["--json", "--nodes", "100"],
    ));
    assert_eq!(v["result"], "unknown");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
}

#[test]
fn solve_text_is_for_people() {
    let out = solve_record(WIN_IN_ONE, &["--depth", "1"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Black to move wins within 1 move (proved)"),
        "{text}"
    );
    // c1 and c3 win too, within two moves: not listed at depth 1.
    assert!(text.contains("Winning moves: c2 a3 b3\n"), "{text}");
    assert!(text.contains("positions in"), "{text}");
}

#[test]
fn solve_refuses_bad_depths_budgets_records_and_finished_games() {
    for (args, needle) in [
        (&["--depth", "0"][..], "not a depth"),
        (&["--depth", "65"], "not a depth"),
        (&["--depth", "two"], "not a depth"),
        (&["--seconds", "0"], "not a duration"),
        (&["--seconds", "1e9"], "not a duration"),
        (&["--nodes", "0"], "not a number of positions"),
    ] {
        let out = solve_record(WIN_IN_ONE, args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let out = solve_record("game quentin\nsize 5\nc3\nc3\n", &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let out = solve_record("game quentin\nsize 3\npie off\na1\nb1\na2\nb2\na3\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("the game is over"), "{err}");
    let out = solve_record(WIN_IN_ONE, &["--at", "9"]);
    assert_eq!(out.status.code(), Some(1));
}

/// Quentin 4×4 with the pie rule off, to the end: a first-player win (docs/solver.md).
const QUENTIN_4: &str = "game quentin\nsize 4\npie off\n";

fn winning(v: &serde_json::Value) -> Vec<String> {
    v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn solve_stopped_by_its_budget_goes_on_from_its_store() {
    let fresh = stdout_json(&solve_record(QUENTIN_4, &["--json", "--no-book"]));
    assert_eq!(fresh["result"], "win");
    let dir = scratch("store");
    let store = dir.join("quentin-4");
    let store = store.to_str().unwrap();
    // Stopped part way: a third of the positions the whole proof takes.
    let budget = (fresh["nodes"].as_u64().unwrap() / 3).to_string();
    let stopped = stdout_json(&solve_record(
        QUENTIN_4,
        &["--json", "--nodes", &budget, "--store", store],
    ));
    assert_ne!(stopped["result"], "win", "{stopped}");
    assert_eq!(stopped["store"]["loaded"], 0);
    let kept = stopped["store"]["saved"].as_u64().unwrap();
    assert!(kept > 0, "{stopped}");
    // Resumed: the same answer, with fewer new positions than from nothing.
    let resumed = stdout_json(&solve_record(QUENTIN_4, &["--json", "--store", store]));
    assert_eq!(resumed["result"], "win");
    assert_eq!(winning(&resumed), winning(&fresh));
    assert_eq!(resumed["store"]["loaded"], kept);
    assert!(
        resumed["nodes"].as_u64() < fresh["nodes"].as_u64(),
        "{resumed} {fresh}"
    );
    // Once proved, the store answers at once (the first moves and their entries), on two
    // threads as on one.
    let again = stdout_json(&solve_record(
        QUENTIN_4,
        &["--json", "--store", store, "--threads", "2"],
    ));
    assert_eq!(winning(&again), winning(&fresh));
    assert!(again["nodes"].as_u64().unwrap() <= 16, "{again}");
    // Two threads from nothing: the same answer.
    let two = stdout_json(&solve_record(
        QUENTIN_4,
        &["--json", "--threads", "2", "--no-book"],
    ));
    assert_eq!(winning(&two), winning(&fresh));
}

#[test]
fn solve_refuses_a_store_of_another_game_or_version_and_leaves_it_as_it_is() {
    let dir = scratch("store");
    let store = dir.join("s");
    let store_arg = store.to_str().unwrap();
    let v = stdout_json(&solve_record(
        "game quentin\nsize 3\npie off\n",
        &["--json", "--store", store_arg],
    ));
    assert_eq!(v["result"], "win");
    let before = std::fs::read(store.join("proofs")).unwrap();
    for (record, needle) in [
        (
            "game brique\nsize 3\npie off\n",
            "a store of quentin 3×3, not of brique 3×3",
        ),
        (
            "game quentin\nsize 4\npie off\n",
            "a store of quentin 3×3, not of quentin 4×4",
        ),
    ] {
        let out = solve_record(record, &["--json", "--store", store_arg]);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(out.stdout.is_empty());
        assert!(err.contains(needle), "{err}");
        assert_eq!(std::fs::read(store.join("proofs")).unwrap(), before);
    }
    // Another version of the format: refused, untouched.
    let mut other = before.clone();
    other.splice(
        0..before.iter().position(|&b| b == b'\n').unwrap(),
        *b"quentin-solver-store version 999",
    );
    std::fs::write(store.join("proofs"), &other).unwrap();
    let out = solve_record("game quentin\nsize 3\npie off\n", &["--store", store_arg]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("a store of version 999"), "{err}");
    assert_eq!(std::fs::read(store.join("proofs")).unwrap(), other);
}

#[test]
fn the_empty_konobi_5x5_board_is_answered_from_its_book() {
    // Konobi 5×5 without the pie rule: a first-player win (docs/solver.md), the book's move
    // one of the eight winning first moves.
    let v = stdout_json(&solve_record("game konobi\nsize 5\npie off\n", &["--json"]));
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["book"], true, "{v}");
    let moves = winning(&v);
    assert_eq!(moves.len(), 1, "{v}");
    let proved = ["a2", "e2", "a3", "b3", "d3", "e3", "a4", "e4"];
    assert!(proved.contains(&moves[0].as_str()), "{v}");
    // After the centre, a losing first move (docs/solver.md), the book of Black's win does
    // not cover the position: the solver answers (here within one move, no win).
    let v = stdout_json(&solve_record(
        "game konobi\nsize 5\npie off\nc3\n",
        &["--json", "--depth", "1"],
    ));
    assert!(v.get("book").is_none(), "{v}");
}

#[test]
fn the_empty_5x5_boards_with_the_pie_rule_are_answered_from_their_books() {
    // The second player wins each (docs/solver.md): the first cannot win. Konobi's strategy
    // below the empty board is 12,001,540 positions: the answer comes from the book's entries,
    // its walk stopped at its cap, so no depth is told (`book verify` walks it whole).
    for game in ["quentin", "konobi", "brique"] {
        let v = stdout_json(&solve_record(
            &format!("game {game}\nsize 5\n"),
            &["--json"],
        ));
        assert_eq!(v["result"], "no-win", "{game}: {v}");
        assert_eq!(v["book"], true, "{game}: {v}");
        assert!(winning(&v).is_empty(), "{game}: {v}");
        if game == "konobi" {
            assert!(v["depth"].is_null(), "{v}");
        }
    }
    let out = solve_record("game konobi\nsize 5\n", &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Black to move cannot win (proved, from the book).\nThe book's strategy from here holds more than 100000 positions"),
        "{text}"
    );
}

#[test]
fn solve_answers_from_a_shipped_book_where_one_covers_the_position() {
    // Konobi 4×4 without the pie rule: the first player cannot win (docs/solver.md).
    let v = stdout_json(&solve_record("game konobi\nsize 4\npie off\n", &["--json"]));
    assert_eq!(v["result"], "no-win", "{v}");
    assert_eq!(v["book"], true, "{v}");
    // Quentin 4×4: the book's one move, among those the solver proves to win.
    let v = stdout_json(&solve_record(QUENTIN_4, &["--json"]));
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["book"], true, "{v}");
    let from_book = winning(&v);
    assert_eq!(from_book.len(), 1, "{v}");
    let solved = stdout_json(&solve_record(QUENTIN_4, &["--json", "--no-book"]));
    assert!(solved.get("book").is_none(), "{solved}");
    assert!(winning(&solved).contains(&from_book[0]), "{solved}");
    let out = solve_record(QUENTIN_4, &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Black to move wins (proved, from the book).\nThe book's move: "),
        "{text}"
    );
    // a1, a corner, loses for Black (docs/solver.md): off the book's strategy, the solver
    // answers.
    let v = stdout_json(&solve_record(
        "game quentin\nsize 4\npie off\na1\n",
        &["--json"],
    ));
    assert!(v.get("book").is_none(), "{v}");
}

#[test]
fn solve_book_make_and_verify_prove_and_refuse() {
    let dir = scratch("book");
    let book = dir.join("q3.book");
    let book_arg = book.to_str().unwrap();
    let out = quentin(&["solve", "book", "make", "quentin", "3", "--out", book_arg]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("quentin 3×3, pie off: the first player wins"),
        "{text}"
    );
    let out = quentin(&["solve", "book", "verify", book_arg]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("proves it: quentin 3×3, pie off: the first player wins."),
        "{text}"
    );
    // The claim turned round: refused, with where the walk failed.
    let bytes = std::fs::read(&book).unwrap();
    let turned = String::from_utf8_lossy(&bytes).replacen("winner first", "winner secnd", 1);
    let mut bad = turned.into_bytes();
    bad.truncate(bytes.len());
    let bad_path = dir.join("bad.book");
    std::fs::write(&bad_path, &bad).unwrap();
    let out = quentin(&["solve", "book", "verify", bad_path.to_str().unwrap()]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("neither `winner first` nor `winner second`"),
        "{err}"
    );
    // A file that is not a book is not written over.
    let other = dir.join("notes.txt");
    std::fs::write(&other, "mine").unwrap();
    let out = quentin(&[
        "solve",
        "book",
        "make",
        "quentin",
        "3",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&other).unwrap(), b"mine");
}
