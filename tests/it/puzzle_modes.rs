//! The ways of taking the puzzles through a real terminal (issue 60): `--streak`, `--storm`,
//! `--difficulty`, `--again`. Moves are typed (`:` and the move); Storm's clock is read from
//! the screen, never timed.

use crate::pty::{Session, panel_words, scratch, wait_words};
use crate::puzzle_tui::{progress, shown_puzzle, start};

use quentin::rules::Action;
use quentin::search::puzzles::Puzzle;

/// A legal move of the puzzle's side other than its solution's first: wrong, by the proof.
fn wrong_move(puzzle: &Puzzle) -> Action {
    let pos = puzzle.position().unwrap();
    pos.legal_actions()
        .into_iter()
        .find(|&a| a != puzzle.solution[0] && a.point().is_some())
        .expect("a wrong move")
}

/// Storm's clock as the panel shows it (`Storm 2:41, ...`), in seconds.
fn storm_seconds(s: &Session) -> u32 {
    let screen = s.wait_for("Storm ");
    let at = screen.find("Storm ").unwrap() + "Storm ".len();
    let clock: String = screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ':')
        .collect();
    let (m, sec) = clock.split_once(':').expect("a clock m:ss");
    m.parse::<u32>().unwrap() * 60 + sec.parse::<u32>().unwrap()
}

#[test]
fn a_streak_rises_until_one_mistake_ends_it_and_its_best_is_kept_unrated() {
    let dir = scratch("puzzle-streak");
    let mut s = start(&dir, &["--streak", "--game", "quentin", "--theme", "win1"]);
    s.wait_for("Streak 0 (best 0)");
    let first = shown_puzzle(&s);
    s.send(&format!(":{}\r", first.solution[0]));
    s.wait_for("Solved");
    s.wait_for("Streak 1 (best 1)");
    s.send("n");
    crate::pty::wait_gone(&s, "Solved");
    let second = shown_puzzle(&s);
    assert_ne!(second.id, first.id);
    s.send(&format!(":{}\r", wrong_move(&second)));
    let over = s.wait_for("Streak 1 (best 1), over");
    // The panel wraps its words where the refusal's length puts them.
    assert!(
        panel_words(&over).contains("The streak ends at 1."),
        "{over}"
    );
    // n starts a new one.
    s.send("n");
    s.wait_for("Streak 0 (best 1)");
    s.send("q");
    assert!(s.wait_exit());
    let kept = progress(&dir);
    assert_eq!(kept["best_streak"], 1, "{kept}");
    assert_eq!(kept["rating"], 1500.0, "unrated: {kept}");
    assert_eq!(kept["attempts"].as_array().unwrap().len(), 0, "{kept}");
}

#[test]
fn a_storm_shows_its_clock_takes_ten_seconds_for_a_wrong_move_and_goes_on_at_once() {
    let dir = scratch("puzzle-storm");
    let mut s = start(&dir, &["--storm", "--game", "quentin", "--theme", "win1"]);
    s.wait_for("Storm ");
    let first = shown_puzzle(&s);
    let before = storm_seconds(&s);
    assert!(before <= 180, "{before}");
    s.send(&format!(":{}\r", wrong_move(&first)));
    s.wait_for("10 s off the clock.");
    // The clock only runs down: at least the ten seconds are gone.
    let after = storm_seconds(&s);
    assert!(after + 10 <= before, "{before} then {after}");
    let second = shown_puzzle(&s);
    s.send(&format!(":{}\r", second.solution[0]));
    s.wait_for("Next puzzle: find the move.");
    s.wait_for(", 1 solved, run 1 (best 1)");
    s.send("q");
    assert!(s.wait_exit());
    let kept = progress(&dir);
    assert_eq!(kept["best_storm"], 1, "{kept}");
    assert_eq!(kept["attempts"].as_array().unwrap().len(), 0, "{kept}");
}

#[test]
fn a_difficulty_draws_puzzles_above_or_below_the_rating() {
    for (difficulty, shown) in [
        ("harder", "Difficulty: harder"),
        ("easier", "Difficulty: easier"),
    ] {
        let dir = scratch(&format!("puzzle-{difficulty}"));
        let mut s = start(&dir, &["--difficulty", difficulty, "--game", "quentin"]);
        s.wait_for(shown);
        let puzzle = shown_puzzle(&s);
        // At 1500 the aim is 1800 or 1200: the set's nearest ratings are on that side.
        match difficulty {
            "harder" => assert!(puzzle.rating > 1500, "{puzzle:?}"),
            _ => assert!(puzzle.rating < 1500, "{puzzle:?}"),
        }
        s.send("q");
        assert!(s.wait_exit());
    }
}

#[test]
fn again_offers_the_failed_puzzles_and_says_so_when_there_is_none() {
    let dir = scratch("puzzle-again");
    let mut s = start(&dir, &["--again", "--game", "konobi"]);
    assert!(!s.wait_exit());
    let out = String::from_utf8_lossy(&s.all_output()).to_string();
    assert!(out.contains("no failed puzzle to play again"), "{out}");
    // A puzzle given up (v) is failed; --again brings it back.
    let mut s = start(&dir, &["--game", "konobi"]);
    let failed = shown_puzzle(&s);
    s.send("v");
    s.wait_for("Solution:");
    s.send("q");
    assert!(s.wait_exit());
    let mut s = start(&dir, &["--again", "--game", "konobi"]);
    s.wait_for("Your failed puzzles again");
    assert_eq!(shown_puzzle(&s).id, failed.id);
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn once_a_defence_is_solved_w_plays_out_the_threat_it_stopped() {
    let dir = scratch("puzzle-threat");
    let mut s = start(&dir, &["--game", "quentin", "--theme", "defend"]);
    let puzzle = shown_puzzle(&s);
    s.wait_for("to move: defend");
    // The puzzle is one of those nearest the rating, so its sentences' lengths, and where
    // the panel breaks them, vary: they are read as words.
    // Before it is over, w refuses: it would give the answer away.
    s.send("w");
    wait_words(&s, "Stop the threat first");
    s.send(&format!(":{}\r", puzzle.solution[0]));
    let screen = s.wait_for("Solved");
    assert!(
        panel_words(&screen).contains("w plays out the threat"),
        "{screen}"
    );
    s.send("w");
    let screen = wait_words(&s, "s threat, had ");
    assert!(panel_words(&screen).contains("not stopped it"), "{screen}");
    // The threat from its start: End shows its end, the opponent's win.
    s.send("G");
    let screen = wait_words(&s, " wins). ← → step");
    assert!(panel_words(&screen).contains("threat"), "{screen}");
    s.send("w");
    wait_words(&s, "Back where you were.");
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn the_ways_are_chosen_on_the_puzzle_screen_too() {
    let dir = scratch("puzzle-ways");
    let mut s = start(&dir, &["--game", "quentin"]);
    shown_puzzle(&s);
    s.send("o");
    s.wait_for("Take the puzzles: 1 normal");
    s.send("4");
    let screen = s.wait_for("Streak, any theme. Find the move.");
    assert!(screen.contains("Streak 0 (best 0)"), "{screen}");
    // A theme: the next one the puzzles have, shown beside the way, and the puzzle has it.
    s.send("o");
    s.send("7");
    let screen = s.wait_for("Streak, theme ");
    assert!(screen.contains("; Theme "), "{screen}");
    let at = screen.find("Streak, theme ").unwrap() + "Streak, theme ".len();
    let theme: String = screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let puzzle = shown_puzzle(&s);
    assert!(
        puzzle.themes.contains(&theme.as_str()),
        "{theme} {puzzle:?}"
    );
    // Storm, with its clock; then the harder rated puzzles, any theme.
    s.send("o");
    s.send("5");
    s.wait_for("Storm (3 minutes)");
    s.wait_for("Storm 2:5");
    s.send("o8");
    s.wait_for("Storm (3 minutes), any theme");
    s.send("o3");
    let screen = s.wait_for("Rated puzzles, harder, any theme");
    assert!(screen.contains("Difficulty: harder"), "{screen}");
    // Again with nothing failed: refused, and the puzzles go on as they were.
    s.send("o6");
    s.wait_for("no failed puzzle to play again");
    s.send("q");
    assert!(s.wait_exit());
}
