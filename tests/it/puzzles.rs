//! `quentin puzzles` from the outside: the generator's set file, the shipped set exported as
//! JSON and proved again (a seeded random sample at every run), and the refusals of bad input,
//! each with nothing written. Budgets in positions only: nothing here depends on the machine's
//! speed.

use std::collections::HashSet;
use std::process::Output;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use quentin::rules::{Action, Game, Setup};
use quentin::search::puzzles::{Goal, PuzzleSet, check};

use crate::common;
use crate::scratch::{scratch, scratch_file};

/// Long enough for a loaded 2-core machine; only there to turn a hang into a failure.
const HANG: Duration = Duration::from_secs(300);

fn quentin(args: &[&str]) -> Output {
    let mut cmd = crate::isolated::quentin();
    cmd.args(args);
    common::run_guarded(cmd, HANG)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that `out` succeeded, and gives its standard output.
fn succeeded(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
}

const GENERATE: [&str; 12] = [
    "puzzles",
    "generate",
    "--game",
    "brique",
    "--size",
    "5",
    "--no-pie",
    "--count",
    "2",
    "--depth",
    "1-2",
    "--nodes=50000",
];

#[test]
fn puzzles_generate_prints_a_set_that_reads_back_and_proves_again() {
    let args: Vec<&str> = GENERATE.iter().copied().chain(["--seed", "7"]).collect();
    let out = succeeded(&quentin(&args));
    let set = PuzzleSet::parse(&out, "stdout").unwrap();
    assert_eq!(set.game, Game::Brique);
    assert_eq!(
        set.commands,
        [
            "quentin puzzles generate --game brique --size 5 --no-pie --goal win --depth 1-2 \
          --count 2 --seed 7 --nodes 50000"
        ]
    );
    assert_eq!(set.puzzles.len(), 2);
    for p in &set.puzzles {
        assert_eq!(p.goal, Goal::Win);
        check(p).unwrap();
    }
    assert_eq!(set.puzzles[1].id, "brique-0002");
    // The same seed, the same puzzles.
    assert_eq!(succeeded(&quentin(&args)), out);
}

#[test]
fn puzzles_generate_into_a_file_adds_to_it_and_verify_proves_it() {
    let dir = scratch("puzzles");
    let file = dir.join("brique.txt");
    let path = file.to_str().unwrap();
    for seed in ["7", "8"] {
        let args: Vec<&str> = GENERATE
            .iter()
            .copied()
            .chain(["--seed", seed, "--into", path])
            .collect();
        assert_eq!(succeeded(&quentin(&args)), "");
    }
    let set = PuzzleSet::parse(&std::fs::read_to_string(&file).unwrap(), path).unwrap();
    assert_eq!(set.commands.len(), 2);
    assert!(set.commands[1].contains("--seed 8"));
    let ids: Vec<&str> = set.puzzles.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        ["brique-0001", "brique-0002", "brique-0003", "brique-0004"]
    );
    let out = succeeded(&quentin(&["puzzles", "verify", path]));
    assert!(
        out.starts_with("brique: 4 proved (win 4, defend 0, swap 0), 0 failed\n"),
        "{out}"
    );
    // Another game's puzzles are refused, and the file is left as it was.
    let before = std::fs::read(&file).unwrap();
    let out = quentin(&[
        "puzzles", "generate", "--game", "konobi", "--size", "5", "--count", "1", "--into", path,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("holds Brique puzzles, not Konobi"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

/// The lines of `quentin puzzles export ARGS`, as JSON.
fn export(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["puzzles", "export"];
    all.extend_from_slice(args);
    succeeded(&quentin(&all))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_shipped_set_exports_every_puzzle_as_json_that_replays() {
    let all = export(&[]);
    let mut ids = HashSet::new();
    let mut per_game: Vec<(String, usize, HashSet<String>)> = Vec::new();
    for v in &all {
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "id", "game", "size", "pie", "setup", "solution", "goal", "themes", "rating"
            ]
        );
        let id = v["id"].as_str().unwrap();
        let game = Game::from_name(v["game"].as_str().unwrap()).unwrap();
        assert!(id.starts_with(&format!("{}-", game.name())) && ids.insert(id.to_string()));
        // The setup replays with the program's rules, and the solution starts with the side to
        // move.
        let mut pos = Setup {
            size: v["size"].as_u64().unwrap() as usize,
            pie: v["pie"].as_bool().unwrap(),
            ..Setup::new(game)
        }
        .start()
        .unwrap();
        let actions = |key: &str| -> Vec<Action> {
            v[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| Action::parse(t.as_str().unwrap()).unwrap())
                .collect()
        };
        for a in actions("setup") {
            pos.play(a).unwrap();
        }
        let solution = actions("solution");
        assert!(pos.is_legal(solution[0]), "{v}");
        let goal = v["goal"].as_str().unwrap();
        let themes: Vec<&str> = v["themes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert!(
            themes
                .iter()
                .any(|t| t.starts_with(goal) || (goal == "defend" && *t == "defend"))
        );
        let rating = v["rating"].as_u64().unwrap();
        assert!((1000..=2200).contains(&rating), "{v}");
        match per_game.iter_mut().find(|(g, _, _)| g == game.name()) {
            Some((_, n, goals)) => {
                *n += 1;
                goals.insert(goal.to_string());
            }
            None => per_game.push((game.name().into(), 1, HashSet::from([goal.to_string()]))),
        }
    }
    // At least 300 puzzles a game, with defences, and swaps where the game has the pie rule.
    assert_eq!(per_game.len(), 4, "{per_game:?}");
    for (game, n, goals) in &per_game {
        assert!(*n >= 300, "{game}: {n}");
        assert!(
            goals.contains("win") && goals.contains("defend"),
            "{game}: {goals:?}"
        );
        assert_eq!(goals.contains("swap"), game != "quint", "{game}: {goals:?}");
    }
    // The filters.
    let quint = export(&["--game", "quint"]);
    assert!(quint.iter().all(|v| v["game"] == "quint"));
    assert_eq!(
        quint.len(),
        per_game.iter().find(|g| g.0 == "quint").unwrap().1
    );
    let captures = export(&["--theme", "capture"]);
    assert!(!captures.is_empty());
    assert!(
        captures
            .iter()
            .all(|v| v["themes"].as_array().unwrap().contains(&"capture".into()))
    );
}

#[test]
fn every_shipped_file_names_the_commands_and_seeds_that_made_it() {
    for (path, body) in quentin::puzzles::FILES {
        let set = PuzzleSet::parse(body, path).unwrap();
        assert!(!set.commands.is_empty(), "{path}");
        for c in &set.commands {
            assert!(
                c.starts_with(&format!(
                    "quentin puzzles generate --game {}",
                    set.game.name()
                )) && c.contains(" --seed "),
                "{path}: {c}"
            );
        }
    }
}

/// The seed of this run's sample: QUENTIN_PUZZLE_SEED when set (to run a failed sample again),
/// else the time, so that each run proves other puzzles.
fn sample_seed() -> u64 {
    std::env::var("QUENTIN_PUZZLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        })
}

#[test]
fn a_random_sample_of_the_shipped_set_proves_again() {
    let seed = sample_seed().to_string();
    let out = quentin(&["puzzles", "verify", "--sample", "40", "--seed", &seed]);
    let printed = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "QUENTIN_PUZZLE_SEED={seed}: {printed}{}",
        text(&out.stderr)
    );
    assert!(printed.contains("40 puzzles in"), "{printed}");
    assert!(
        printed
            .lines()
            .all(|l| !l.contains("failed") || l.ends_with(" 0 failed")),
        "{printed}"
    );
}

/// A set file of Quentin 3×3 with one puzzle line, `line`.
fn one_line_set(line: &str) -> String {
    format!("game quentin\ncommand quentin puzzles generate --game quentin --seed 1\n{line}\n")
}

/// A real puzzle: Quentin 3×3 with the pie rule, after b1 White swaps (b1 wins for Black).
const SWAP: &str =
    "quentin-0001; size 3; pie on; goal swap; rating 1240; themes swap; setup b1; solution swap";

#[test]
fn verify_refuses_a_bad_file_naming_the_line_and_the_puzzle() {
    let good = scratch_file("good.txt", one_line_set(SWAP));
    let out = succeeded(&quentin(&["puzzles", "verify", good.to_str().unwrap()]));
    assert!(
        out.starts_with("quentin: 1 proved (win 0, defend 0, swap 1), 0 failed"),
        "{out}"
    );
    // An illegal action: the message names the file, the line and the action.
    let illegal = scratch_file(
        "illegal.txt",
        one_line_set(&SWAP.replace("setup b1", "setup b1 b1")),
    );
    let name = illegal.to_str().unwrap();
    let out = quentin(&["puzzles", "verify", name]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        text(&out.stderr).contains(&format!("{name} line 3: b1 is not legal after b1")),
        "{}",
        text(&out.stderr)
    );
    // A legal line whose answer is wrong: the puzzle is named.
    let wrong = scratch_file(
        "wrong.txt",
        one_line_set(&SWAP.replace("solution swap", "solution b2")),
    );
    let out = quentin(&["puzzles", "verify", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("quentin-0001: the answer should be swap"),
        "{err}"
    );
    assert!(text(&out.stdout).contains("1 failed"));
    // An unknown theme, and the same position twice (a mirror image: b3 for b1).
    let theme = scratch_file(
        "theme.txt",
        one_line_set(&SWAP.replace("themes swap", "themes swap fork")),
    );
    let out = quentin(&["puzzles", "verify", theme.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("line 3: \"fork\" is no theme"),
        "{}",
        text(&out.stderr)
    );
    let mirror = SWAP.replace("0001", "0002").replace("setup b1", "setup b3");
    let twice = scratch_file("twice.txt", one_line_set(&format!("{SWAP}\n{mirror}")));
    let out = quentin(&["puzzles", "verify", twice.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("quentin-0002: the same position as quentin-0001"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn generate_refuses_bad_options_and_a_bad_file_writing_nothing() {
    for (args, status) in [
        (vec!["--depth", "5"], 2),
        (vec!["--depth", "0"], 2),
        (vec!["--depth", "3-2"], 2),
        (vec!["--nodes", "0"], 2),
        (vec!["--nodes", "5000001"], 2),
        (vec!["--count", "0"], 2),
        (vec!["--goal", "mate"], 2),
        (vec!["--game", "chess"], 2),
        (vec!["--goal", "swap", "--no-pie"], 2),
        (vec!["--size", "2"], 2),
    ] {
        let mut all = vec!["puzzles", "generate"];
        all.extend_from_slice(&args);
        let out = quentin(&all);
        assert_eq!(
            out.status.code(),
            Some(status),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    for args in [
        vec!["puzzles", "export", "--theme", "fork"],
        vec!["puzzles", "export", "--game", "chess"],
        vec!["puzzles", "verify", "--sample", "0"],
    ] {
        let out = quentin(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // A file edited by hand into an illegal line: refused, and left as it was.
    let body = one_line_set(&SWAP.replace("solution swap", "solution b1"));
    let file = scratch_file("quentin.txt", &body);
    let out = quentin(&[
        "puzzles",
        "generate",
        "--game",
        "quentin",
        "--size",
        "3",
        "--goal",
        "swap",
        "--into",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("line 3: in the solution, b1 is not legal after the setup"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&*file).unwrap(), body);
}
