//! `quentin replay FILE --json` on Konobi and Brique records, run as the binary: the JSON object
//! of docs/records.md, field by field.

use std::process::Output;

use serde_json::{Value, json};

use crate::scratch;

use scratch::scratch_file;

/// Writes `text` to a record file of its own and runs `quentin replay` on it with `args`.
fn replay(name: &str, text: &str, args: &[&str]) -> Output {
    let path = scratch_file(&format!("{name}.txt"), text);
    crate::isolated::quentin()
        .arg("replay")
        .arg(&path)
        .args(args)
        .output()
        .unwrap()
}

/// The JSON object printed for the record, its `legal` list sorted (docs/records.md: any order).
fn replay_json(name: &str, text: &str, args: &[&str]) -> Value {
    let output = replay(name, text, &[&["--json"], args].concat());
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty());
    let mut value: Value = serde_json::from_slice(&output.stdout).unwrap();
    let legal = value["legal"].as_array_mut().unwrap();
    legal.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    value
}

/// The expected `legal` list, sorted as `replay_json` sorts.
fn sorted(actions: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = actions.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

#[test]
fn brique_fill_removes_the_enemy_stone() {
    let value = replay_json(
        "brique-fill",
        "game brique\nsize 3\npie off\nb3 b2 a2\n",
        &[],
    );
    assert_eq!(
        value,
        json!({
            "game": "brique",
            "size": 3,
            "pie": false,
            "ply": 3,
            "moves": ["b3", "b2", "a2"],
            "to_move": "white",
            "winner": null,
            "board": [".B.", "BB.", "..."],
            "legal": sorted(&["a1", "a3", "b1", "c1", "c2", "c3"]),
        })
    );
}

#[test]
fn brique_win_through_a_fill() {
    let record = "game brique\nsize 3\nb3 c1 a2 a1 b1\n";
    let value = replay_json("brique-win", record, &[]);
    assert_eq!(
        value,
        json!({
            "game": "brique",
            "size": 3,
            "pie": true,
            "ply": 5,
            "moves": ["b3", "c1", "a2", "a1", "b1"],
            "to_move": null,
            "winner": "black",
            "board": [".B.", "BB.", "WBW"],
            "legal": [],
        })
    );
    let first = replay_json("brique-first", record, &["--at", "1"]);
    assert_eq!(
        first["legal"],
        json!(sorted(&[
            "a1", "a2", "a3", "b1", "b2", "c1", "c2", "c3", "swap"
        ]))
    );
    assert_eq!(first["to_move"], json!("white"));
}

const SAMPLE: &str = "c3 d4 c4 c1 c2 a1 e1 d1 e2 d2 e3 d5 e4 e5 d3 c5 a5 b5 a4 b4 a3 b3 a2 b1 b2";

#[test]
fn konobi_sample_game_before_the_last_moves_and_at_the_end() {
    let record = format!("game konobi\nsize 5\n{SAMPLE}\n");
    let moves: Vec<&str> = SAMPLE.split(' ').collect();
    let at23 = replay_json("konobi-23", &record, &["--at", "23"]);
    assert_eq!(
        at23,
        json!({
            "game": "konobi",
            "size": 5,
            "pie": true,
            "ply": 23,
            "moves": moves[..23],
            "to_move": "white",
            "winner": null,
            "board": ["BWWWW", "BWBWB", "BWBBB", "B.BWB", "W.WWB"],
            "legal": ["b1"],
        })
    );
    let end = replay_json("konobi-end", &record, &[]);
    assert_eq!(
        end,
        json!({
            "game": "konobi",
            "size": 5,
            "pie": true,
            "ply": 25,
            "moves": moves,
            "to_move": null,
            "winner": "black",
            "board": ["BWWWW", "BWBWB", "BWBBB", "BBBWB", "WWWWB"],
            "legal": [],
        })
    );
}

#[test]
fn konobi_after_a_swap_and_with_illegal_points_left_out() {
    let value = replay_json("konobi-swap", "game konobi\nsize 3\nc3 swap\n", &[]);
    assert_eq!(
        value,
        json!({
            "game": "konobi",
            "size": 3,
            "pie": true,
            "ply": 2,
            "moves": ["c3", "swap"],
            "to_move": "white",
            "winner": null,
            "board": ["..B", "...", "..."],
            "legal": sorted(&["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2"]),
        })
    );
    // Black a1, White c1, Black b2 would connect weakly to a1 while a2 and b1 are clean.
    let value = replay_json("konobi-weak", "game konobi\nsize 3\npie off\na1 c1\n", &[]);
    assert_eq!(
        value["legal"],
        json!(sorted(&["a2", "a3", "b1", "b3", "c2", "c3"]))
    );
}

#[test]
fn an_illegal_konobi_record_fails_with_the_reason() {
    let output = replay(
        "konobi-bad",
        "game konobi\nsize 3\npie off\na1 c1 b2\n",
        &["--json"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.ends_with(
            ":4:7: action 3 (black b2) is illegal: b2 would join a1 only corner to corner, but \
             a2 would join a1 side by side\n"
        ),
        "{stderr}"
    );
}
