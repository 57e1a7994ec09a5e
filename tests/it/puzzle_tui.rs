//! `quentin puzzle` through a real terminal: the real binary in a pseudo-terminal, its data
//! directory a scratch directory, the puzzle shown read back from the screen and looked up in
//! the shipped set, its moves typed with the cursor keys.

use crate::pty;

use std::fs;
use std::path::Path;

use pty::{Session, scratch};
use quentin::rules::{Action, Point};
use quentin::search::puzzles::Puzzle;
use serde_json::Value;

/// A terminal wide and tall enough for the board and the puzzle's panel.
const ROWS: u16 = 32;
const COLS: u16 = 110;

pub(crate) fn start(dir: &Path, args: &[&str]) -> Session {
    let mut all = vec!["puzzle"];
    all.extend_from_slice(args);
    Session::start_sized(dir, &all, ROWS, COLS)
}

/// The puzzle the screen shows (`Puzzle quentin-0017 (rated 1240)`), from the shipped set.
pub(crate) fn shown_puzzle(s: &Session) -> Puzzle {
    let screen = s.wait_for("(rated ");
    let at = screen.find("Puzzle ").expect("the puzzle's id") + "Puzzle ".len();
    let id: String = screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    quentin::puzzles::shipped()
        .unwrap()
        .into_iter()
        .flat_map(|set| set.puzzles)
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("{id} is not a shipped puzzle; the screen:\n{screen}"))
}

/// The keys that take the cursor from the board's centre, where a puzzle opens with it, to
/// `to`, and play there.
fn play_keys(size: usize, to: Point) -> String {
    let from = Point::new(size / 2, size / 2);
    let mut keys = String::new();
    let cols = to.col() as isize - from.col() as isize;
    let rows = to.row() as isize - from.row() as isize;
    keys.extend(std::iter::repeat_n(
        if cols < 0 { 'h' } else { 'l' },
        cols.unsigned_abs(),
    ));
    keys.extend(std::iter::repeat_n(
        if rows < 0 { 'j' } else { 'k' },
        rows.unsigned_abs(),
    ));
    keys.push('\r');
    keys
}

/// The progress file of the scratch directory `dir`, read as JSON.
pub(crate) fn progress(dir: &Path) -> Value {
    let path = dir.join("data").join("quentin").join("puzzles.json");
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn point(action: Action) -> Point {
    action.point().expect("a placement")
}

#[test]
fn a_puzzle_solved_in_the_terminal_raises_the_rating_which_a_restart_keeps() {
    let dir = scratch("puzzle-solved");
    let mut s = start(&dir, &["--game", "quentin", "--theme", "win1"]);
    s.wait_for("Your rating 1500?, streak 0");
    let puzzle = shown_puzzle(&s);
    assert_eq!(puzzle.solution.len(), 1, "{puzzle:?}");
    s.wait_for("to move: win in 1");
    s.send(&play_keys(puzzle.setup.size, point(puzzle.solution[0])));
    let screen = s.wait_for("Solved");
    assert!(screen.contains("streak 1"), "{screen}");
    assert!(screen.contains("(+"), "the rating rose:\n{screen}");
    s.send("q");
    assert!(s.wait_exit());
    let kept = progress(&dir);
    assert_eq!(kept["streak"], 1);
    let rating = kept["rating"].as_f64().unwrap();
    assert!(rating > 1500.0, "{kept}");
    assert_eq!(kept["attempts"][0]["id"], puzzle.id.as_str());
    assert_eq!(kept["attempts"][0]["solved"], true);
    // Started again, the program shows the rating kept, and another puzzle.
    let mut s = start(&dir, &["--game", "quentin", "--theme", "win1"]);
    let screen = s.wait_for(&format!("Your rating {}?, streak 1", rating.round()));
    assert!(
        !screen.contains(&format!("Puzzle {} ", puzzle.id)),
        "{screen}"
    );
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn a_wrong_move_in_the_terminal_is_refuted_on_the_board_then_the_solution_and_the_next_puzzle_come()
{
    let dir = scratch("puzzle-failed");
    let mut s = start(&dir, &["--game", "quentin", "--theme", "defend"]);
    let puzzle = shown_puzzle(&s);
    s.wait_for("to move: defend");
    // A legal placement other than the one that saves: every other loses (the puzzle's proof).
    let pos = puzzle.position().unwrap();
    let wrong = pos
        .legal_actions()
        .into_iter()
        .find(|&a| a != puzzle.solution[0] && a.point().is_some())
        .expect("a wrong move");
    let actions_before = puzzle.line.len();
    s.send(&play_keys(puzzle.setup.size, point(wrong)));
    let screen = s.wait_for("Failed");
    assert!(screen.contains("Wrong:"), "{screen}");
    assert!(
        screen.contains("answers"),
        "the refutation is played:\n{screen}"
    );
    // The wrong move and the answer are on the board: two actions more than the setup.
    assert!(
        screen.contains(&format!("{} actions played", actions_before + 2))
            || screen.contains(&format!("Action {}", actions_before + 3)),
        "{screen}"
    );
    assert!(screen.contains("streak 0"), "{screen}");
    assert!(screen.contains("(-"), "the rating fell:\n{screen}");
    s.send("v");
    s.wait_for("Solution:");
    s.send("n");
    pty::wait_gone(&s, "Solution:");
    let next = shown_puzzle(&s);
    assert_ne!(next.id, puzzle.id);
    s.send("q");
    assert!(s.wait_exit());
    let kept = progress(&dir);
    assert_eq!(kept["attempts"][0]["solved"], false);
    assert!(kept["rating"].as_f64().unwrap() < 1500.0, "{kept}");
}

#[test]
fn a_hint_names_the_area_then_the_move_and_the_puzzle_then_counts_as_failed() {
    let dir = scratch("puzzle-hint");
    let mut s = start(&dir, &["--game", "brique", "--theme", "win1"]);
    let puzzle = shown_puzzle(&s);
    s.send("t");
    s.wait_for("the move is in");
    s.send("t");
    let key = puzzle.solution[0];
    s.wait_for(&format!("play {key}"));
    // The cursor is on the move: Enter plays it.
    s.send("\r");
    let screen = s.wait_for("Solved");
    assert!(screen.contains("streak 0"), "{screen}");
    assert!(
        screen.contains("(-"),
        "a hinted puzzle counts as failed:\n{screen}"
    );
    s.send("q");
    assert!(s.wait_exit());
    let kept = progress(&dir);
    assert_eq!(kept["attempts"][0]["solved"], false);
}

#[test]
fn a_damaged_rating_file_is_refused_and_left_as_it_is() {
    let dir = scratch("puzzle-damaged");
    let path = dir.join("data").join("quentin").join("puzzles.json");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, "{\"rating\": 15").unwrap();
    let mut s = start(&dir, &[]);
    assert!(!s.wait_exit());
    let out = String::from_utf8_lossy(&s.all_output()).to_string();
    assert!(out.contains("is damaged"), "{out}");
    assert!(out.contains("puzzles.json"), "{out}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "{\"rating\": 15");
}

#[test]
fn an_unknown_theme_is_refused_listing_the_themes() {
    let out = crate::isolated::quentin()
        .args(["puzzle", "--theme", "fork"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"fork\" is not a theme"), "{err}");
    assert!(err.contains("win1"), "{err}");
}

#[test]
fn from_a_game_p_opens_the_puzzles_of_its_game_and_the_game_stays_saved() {
    let dir = scratch("puzzle-from-game");
    let record = dir.join("game.txt");
    let mut s = Session::start_sized(
        &dir,
        &[
            "--game",
            "konobi",
            "--size",
            "9",
            "--record",
            record.to_str().unwrap(),
        ],
        ROWS,
        COLS,
    );
    s.wait_for("Konobi 9×9");
    s.send("\r");
    s.wait_for("White to move");
    s.send("P");
    let puzzle = shown_puzzle(&s);
    assert_eq!(
        puzzle.setup.game,
        quentin::rules::Game::Konobi,
        "{puzzle:?}"
    );
    s.wait_for("Your rating 1500?, streak 0");
    // In the puzzles, P again opens nothing new.
    s.send("P");
    s.wait_for("These are the puzzles");
    s.send("q");
    assert!(s.wait_exit());
    // The game's one move is in its record, which the exit names.
    let text = fs::read_to_string(&record).unwrap();
    let game = quentin::record::Record::parse(&text).unwrap();
    assert_eq!(game.actions().len(), 1, "{text}");
    let out = String::from_utf8_lossy(&s.all_output()).to_string();
    assert!(out.contains("game.txt"), "{out}");
}
