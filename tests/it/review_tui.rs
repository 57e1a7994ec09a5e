//! The review of a game in the terminal interface, end to end in a pseudo-terminal: started
//! after a game or in a replay, its progress, the win-chance graph, the marks beside the
//! actions, the best action of the shown position and the keys that jump between the marks.
//! Every wait is for what the screen shows.

use crate::pty;

use std::fs;

use pty::{Session, scratch};

/// Quentin 5×5 without the swap: Black, able to win at once with action 15, plays a1 instead,
/// and White wins at once with d5.
const THROWN: &str = "game quentin\nsize 5\npie off\n\
                      c3 e4 d3 d4 e1 e3 c4 d1 c2 a4 b3 b2 c1 b5 a1 d5\n";

#[test]
fn a_review_started_after_a_game_draws_the_graph() {
    let dir = scratch("review-after");
    let record = dir.join("game.txt");
    let mut s = Session::start_sized(
        &dir,
        &[
            "--size",
            "3",
            "--no-pie",
            "--record",
            record.to_str().unwrap(),
        ],
        30,
        100,
    );
    s.wait_for("Black to move");
    s.win_3x3_as_black();
    s.wait_for("Black wins! Player 1");
    s.send("v");
    let screen = s.wait_for("Review done");
    assert!(screen.contains("Black's chance, action 5"), "{screen}");
    // The graph: its axis from 0 to the last action, and a curve of Braille dots.
    assert!(
        screen.contains('⠀')
            || screen
                .chars()
                .any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)),
        "{screen}"
    );
    // The keys work on: a step back moves the graph's mark and shows the best action there.
    s.send("h");
    let screen = s.wait_for("Black's chance, action 4");
    assert!(screen.contains("Best here ◇: "), "{screen}");
    // Unmarked, it still says what it lost.
    assert!(screen.contains("Played b3: lost "), "{screen}");
    assert!(
        screen.contains('◇'),
        "the best action marked on the board, apart from a hint's ◆: {screen}"
    );
    s.send("q");
    assert!(s.wait_exit());
    // Its progress was drawn before it ended (the first search starts after the frame that
    // shows the key's effect is drawn).
    let raw = String::from_utf8_lossy(&s.all_output()).to_string();
    assert!(
        raw.contains("Reviewing the game...") && raw.contains("0/5"),
        "no progress drawn"
    );
    // The review changes no record.
    assert_eq!(
        fs::read_to_string(&record).unwrap(),
        "game quentin\nsize 3\npie off\nb2\na1\nb1\nc1\nb3\n"
    );
}

#[test]
fn in_a_replay_the_jump_keys_find_the_thrown_away_win() {
    let dir = scratch("review-replay");
    fs::write(dir.join("thrown.txt"), THROWN).unwrap();
    let mut s = Session::start_sized(&dir, &["replay", "thrown.txt"], 32, 100);
    s.wait_for("Showing action 16 of 16");
    // Before a review the jump keys say what they need.
    s.send("m");
    s.wait_for("No review yet: v reviews the game.");
    s.send("v");
    let screen = s.wait_for("Review done");
    assert!(screen.contains("Black's chance, action 16"), "{screen}");
    // Action 15 is marked beside the list.
    let line = screen
        .lines()
        .find(|l| l.contains(" 15. P1 Black a1"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(line.trim_end_matches([' ', '│']).ends_with(" ??"), "{line}");
    // White's winning d5 is the search's own choice or as good: never marked.
    assert!(
        screen.contains(" 16. P2 White d5") && !screen.contains("d5 ?"),
        "{screen}"
    );
    s.send("M");
    let screen = s.wait_for("Action 15, a1: blunder; better ");
    assert!(screen.contains("Showing action 14 of 16"), "{screen}");
    assert!(
        screen.contains("Played a1: blunder, lost 100% (100% → 0%)"),
        "{screen}"
    );
    assert!(screen.contains("Best here ◇: "), "{screen}");
    assert!(screen.contains("Black's chance, action 14"), "{screen}");
    s.send("m");
    s.wait_for("No marked action after this one.");
    // From the start, m goes to the first marked action, whichever it is.
    s.send("g");
    s.wait_for("Showing action 0 of 16");
    s.send("m");
    let screen = s.wait_for("; better ");
    assert!(screen.contains("Showing action "), "{screen}");
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn w_steps_through_why_a_marked_action_loses_and_the_summary_is_on_the_screen() {
    let dir = scratch("review-why");
    fs::write(dir.join("thrown.txt"), THROWN).unwrap();
    let mut s = Session::start_sized(&dir, &["replay", "thrown.txt"], 40, 110);
    s.wait_for("Showing action 16 of 16");
    s.send("v");
    let screen = s.wait_for("Review done");
    // The per-player summary, as `quentin review` prints it.
    assert!(screen.contains("Player 1: 8 actions"), "{screen}");
    assert!(screen.contains("Player 2: 8 actions"), "{screen}");
    s.send("M");
    // Black could win at once and played a1: said as a proven win thrown away.
    let screen = s.wait_for("Black had a proven win: ");
    assert!(screen.contains(" wins in 1"), "{screen}");
    assert!(screen.contains("Why: d5"), "{screen}");
    assert!(screen.contains("(w steps through it)"), "{screen}");
    s.send("w");
    let screen = s.wait_for("Why a1 loses");
    assert!(screen.contains("→ steps through them"), "{screen}");
    s.send("l");
    s.wait_for("1 of 2: a1");
    s.send("l");
    let screen = s.wait_for("2 of 2: a1, d5 (White wins)");
    assert!(screen.contains("White wins"), "{screen}");
    // Back: the game as it was, before the marked action.
    s.send("w");
    let screen = s.wait_for("Back where you were.");
    assert!(screen.contains("Showing action 14 of 16"), "{screen}");
    s.send("q");
    assert!(s.wait_exit());
    // Nothing of it was written to the record.
    assert_eq!(fs::read_to_string(dir.join("thrown.txt")).unwrap(), THROWN);
}
