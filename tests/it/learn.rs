//! The course (`quentin learn`, issue 60): every shipped level's answers against the rules
//! (computed here from the rules crate, not copied), the export, a level file edited into a
//! wrong line refused by its number; and through a real terminal, the first stage of each game
//! completed by typed moves, a wrong move answered, progress kept across a restart, and a
//! damaged progress file set aside.

use crate::pty;

use std::fs;
use std::path::Path;

use pty::{Session, scratch};
use quentin::rules::{Action, Game, Outcome, Position};
use quentin_app::course::{Kind, Level};
use serde_json::Value;

/// Whether `action` wins at once for the side to move of `pos`.
fn wins(pos: &Position, action: Action) -> bool {
    let mover = pos.to_move().unwrap();
    let mut next = pos.clone();
    next.play(action).unwrap();
    next.winner() == Some(mover)
}

/// What a level's kind says its answers are, from the rules alone.
fn expected(level: &Level, pos: &Position) -> Vec<Action> {
    let mover = pos.to_move().unwrap();
    let legal = pos.legal_actions();
    let after = |a: Action| {
        let mut next = pos.clone();
        next.play(a).unwrap();
        next
    };
    let mut right: Vec<Action> = match level.kind {
        Kind::Win => legal.into_iter().filter(|&a| wins(pos, a)).collect(),
        Kind::Win2 => legal
            .into_iter()
            .filter(|&a| {
                let next = after(a);
                let win_now = |p: &Position| {
                    p.to_move() == Some(mover) && p.legal_actions().into_iter().any(|b| wins(p, b))
                };
                if next.is_over() {
                    false
                } else if next.to_move() == Some(mover) {
                    win_now(&next)
                } else {
                    next.legal_actions().into_iter().all(|r| {
                        let mut k = next.clone();
                        k.play(r).unwrap();
                        !k.is_over() && win_now(&k)
                    })
                }
            })
            .collect(),
        Kind::Block => legal
            .into_iter()
            .filter(|&a| {
                let next = after(a);
                match next.to_move() {
                    None => next.winner() == Some(mover),
                    Some(c) if c == mover => true,
                    Some(_) => !next.legal_actions().into_iter().any(|b| wins(&next, b)),
                }
            })
            .collect(),
        Kind::Legal => level
            .points
            .iter()
            .map(|&p| Action::Place(p))
            .filter(|&a| pos.is_legal(a))
            .collect(),
        Kind::Fill => legal
            .into_iter()
            .filter(|&a| pos.preview(a).unwrap().fills().any(|(_, c)| c == mover))
            .collect(),
        Kind::Take => legal
            .into_iter()
            .filter(|a| matches!(a, Action::Step { captures, .. } if !captures.is_empty()))
            .collect(),
        Kind::Draw => legal
            .into_iter()
            .filter(|&a| matches!(after(a).outcome(), Some(Outcome::Draw)))
            .collect(),
        Kind::Pass => legal
            .into_iter()
            .filter(|&a| {
                let next = after(a);
                !next.is_over() && next.legal_actions() == [Action::Pass]
            })
            .collect(),
        Kind::Move => {
            assert!(
                level.answers.iter().all(|&a| pos.is_legal(a)),
                "{}",
                level.key()
            );
            level.answers.clone()
        }
    };
    right.sort();
    right
}

#[test]
fn every_level_s_answers_are_exactly_what_its_kind_says() {
    let courses = quentin::learn::shipped().unwrap();
    assert_eq!(courses.len(), 4);
    for course in &courses {
        assert!(course.levels.len() >= 12, "{:?}", course.game);
        assert!(course.stages() >= 4, "{:?}", course.game);
        for level in &course.levels {
            let pos = level.position().unwrap();
            assert!(!pos.is_over() && pos.to_move().is_some(), "{}", level.key());
            let size = pos.size();
            match level.game {
                Game::Quint => assert_eq!(size, 8),
                _ => assert!((3..=7).contains(&size), "{}", level.key()),
            }
            let mut answers = level.answers.clone();
            answers.sort();
            assert!(!answers.is_empty(), "{}", level.key());
            assert_eq!(answers, expected(level, &pos), "{}", level.key());
            assert!(level.par >= 1 && !level.goal.is_empty(), "{}", level.key());
        }
        // Every kind a game's rules need is there: a legal level where a point is refused.
        let kinds: Vec<Kind> = course.levels.iter().map(|l| l.kind).collect();
        assert!(kinds.contains(&Kind::Win) && kinds.contains(&Kind::Block));
        if course.game != Game::Quint {
            assert!(kinds.contains(&Kind::Move), "the pie rule's level");
        }
    }
}

fn quentin(args: &[&str]) -> std::process::Output {
    crate::isolated::quentin().args(args).output().unwrap()
}

#[test]
fn the_export_gives_every_level_one_json_object_a_line() {
    let out = quentin(&["learn", "export"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() >= 48, "{}", lines.len());
    for v in &lines {
        for field in [
            "game", "stage", "level", "title", "goal", "size", "pie", "setup", "kind", "answers",
            "par",
        ] {
            assert!(v.get(field).is_some(), "{field} in {v}");
        }
        assert_eq!(v["game"] == "quint", v.get("pieces").is_some(), "{v}");
        assert_eq!(v["kind"] == "legal", v.get("points").is_some(), "{v}");
    }
    let konobi = quentin(&["learn", "export", "--game", "konobi"]);
    let text = String::from_utf8(konobi.stdout).unwrap();
    assert!(text.lines().all(|l| l.contains("\"game\":\"konobi\"")));
}

#[test]
fn a_level_file_edited_into_a_wrong_line_is_refused_naming_it() {
    let dir = scratch("learn-edited");
    let shipped = quentin::learn::FILES[0].1;
    // An illegal setup: the first level's c5 played twice.
    let edited = shipped.replacen("setup c5 a3 c4", "setup c5 c5 c4", 1);
    let line = edited
        .lines()
        .position(|l| l.starts_with("setup c5 c5"))
        .unwrap()
        + 1;
    let file = dir.join("quentin.txt");
    fs::write(&file, &edited).unwrap();
    let out = quentin(&["learn", "check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("line {line}:")), "{err}");
    assert!(err.contains("c5 is occupied"), "{err}");
    // Answers that are not what the kind says.
    let edited = shipped.replacen("answers c3", "answers c3 b4", 1);
    fs::write(&file, &edited).unwrap();
    let out = quentin(&["learn", "check", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the answers of a win level here are"), "{err}");
}

/// `quentin learn ARGS` in a terminal big enough for the panel, its data, config and home
/// directories in `dir`.
fn learn(dir: &Path, args: &[&str]) -> Session {
    let mut all = vec!["learn"];
    all.extend_from_slice(args);
    let home = dir.join("home");
    let config = dir.join("config");
    Session::start_with(
        dir,
        &all,
        34,
        120,
        &[
            ("HOME", home.to_str().unwrap()),
            ("XDG_CONFIG_HOME", config.to_str().unwrap()),
        ],
    )
}

fn progress(dir: &Path) -> Value {
    let path = dir.join("data").join("quentin").join("learn.json");
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_first_stage_of_each_game_is_completed_by_typed_moves() {
    for course in quentin::learn::shipped().unwrap() {
        let game = course.game.name();
        let dir = scratch(&format!("learn-stage-{game}"));
        let mut s = learn(&dir, &["--game", game]);
        let count = course.levels.len();
        for level in course.stage(1) {
            s.wait_for(&format!(
                "Level {} of {count}: {}",
                level.level, level.title
            ));
            s.send(&format!(":{}\r", level.answers[0]));
            s.wait_for("Right!");
            s.wait_for("Solved ***");
            s.send("n");
        }
        s.wait_for("stage 2 of");
        s.send("q");
        assert!(s.wait_exit());
        let stars = progress(&dir);
        for level in course.stage(1) {
            assert_eq!(stars["levels"][level.key()], 3, "{stars}");
        }
    }
}

#[test]
fn a_wrong_move_is_answered_and_progress_is_kept_across_a_restart() {
    let dir = scratch("learn-wrong");
    let mut s = learn(&dir, &["--game", "konobi"]);
    s.wait_for("Level 1 of 13: Your first stone");
    // A point outside those the level names is not judged.
    s.send(":a1\r");
    s.wait_for("The level asks about the marked points: c3.");
    s.send(":c3\r");
    s.wait_for("Solved ***");
    s.send("\r");
    s.wait_for("Level 2 of 13: One stone to win");
    // The level's setup is the position given, never listed as the players' moves.
    s.wait_for("Actions from the position given");
    let screen = s.wait_for("none yet");
    assert!(!screen.contains("P1 Black"), "{screen}");
    // Illegal: refused with the rules' reason, and not counted.
    s.send(":c5\r");
    s.wait_for("c5 is occupied");
    // Legal but wrong: played, and answered on the board.
    s.send(":e5\r");
    s.wait_for("Not that: Black played e5.");
    s.wait_for("White answers c3:");
    s.wait_for("Not yet");
    s.send(":c3\r");
    s.wait_for("Solved **");
    s.send("q");
    assert!(s.wait_exit());
    assert_eq!(progress(&dir)["levels"]["konobi/1/2"], 2);
    // Restarted, the course goes on at the first level not solved.
    let mut s = learn(&dir, &["--game", "konobi"]);
    s.wait_for("Level 3 of 13: White's edges");
    s.send("q");
    assert!(s.wait_exit());
    // A stage is replayed on asking.
    let mut s = learn(&dir, &["--game", "konobi", "--stage", "1"]);
    s.wait_for("Level 1 of 13: Your first stone");
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn a_damaged_progress_file_is_set_aside_and_the_course_starts_again() {
    let dir = scratch("learn-damaged");
    let data = dir.join("data").join("quentin");
    fs::create_dir_all(&data).unwrap();
    fs::write(data.join("learn.json"), "{not json").unwrap();
    let mut s = learn(&dir, &["--game", "brique"]);
    s.wait_for("Level 1 of 13");
    s.wait_for("did not read");
    s.send("q");
    assert!(s.wait_exit());
    let aside: Vec<String> = fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("learn.json.damaged-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(
        fs::read_to_string(data.join(&aside[0])).unwrap(),
        "{not json"
    );
}

/// The level of `game` titled `title`, with the panel's line that names it
/// (`Level 11 of 15: A double threat (par 2)`).
fn level(game: Game, title: &str) -> (Level, String) {
    let courses = quentin::learn::shipped().unwrap();
    let course = courses.into_iter().find(|c| c.game == game).unwrap();
    let count = course.levels.len();
    let (n, level) = course
        .levels
        .into_iter()
        .enumerate()
        .find(|(_, l)| l.title == title)
        .unwrap();
    let named = format!("Level {} of {count}: {title} (par {})", n + 1, level.par);
    (level, named)
}

#[test]
fn a_double_threat_takes_two_moves_and_the_opponent_answers_between() {
    let (double, named) = level(Game::Quentin, "A double threat");
    assert_eq!((double.kind, double.par), (Kind::Win2, 2));
    // The program's answer is the defence leaving the fewest wins; any of them is met.
    let mut pos = double.position().unwrap();
    pos.play(double.answers[0]).unwrap();
    let answer = quentin_app::course::defence(&pos).unwrap();
    pos.play(answer).unwrap();
    let win = quentin_app::course::winning(&pos)[0];
    let dir = scratch("learn-win2");
    let stage = double.stage.to_string();
    let mut s = learn(&dir, &["--game", "quentin", "--stage", &stage]);
    s.wait_for(&named);
    s.send(&format!(":{}\r", double.answers[0]));
    s.wait_for(&format!("White answers {answer}. Now win at once"));
    s.send(&format!(":{win}\r"));
    s.wait_for("Solved ***");
    s.send("q");
    assert!(s.wait_exit());
    assert_eq!(progress(&dir)["levels"][double.key()], 3);
}

#[test]
fn a_move_that_leaves_no_legal_point_makes_the_opponent_pass() {
    let (pass, named) = level(Game::Quentin, "No legal point: a pass");
    assert_eq!(pass.kind, Kind::Pass);
    let dir = scratch("learn-pass");
    let stage = pass.stage.to_string();
    let mut s = learn(&dir, &["--game", "quentin", "--stage", &stage]);
    // The stage's levels before it, solved on the way.
    for before in ["The pie rule", "Small board, same rule"] {
        let (earlier, _) = level(Game::Quentin, before);
        s.wait_for(before);
        s.send(&format!(":{}\r", earlier.answers[0]));
        s.wait_for("Solved ***");
        s.send("n");
    }
    s.wait_for(&named);
    s.send(&format!(":{}\r", pass.answers[0]));
    s.wait_for("Black has no legal placement and");
    s.wait_for("Solved ***");
    s.send("q");
    assert!(s.wait_exit());
}
