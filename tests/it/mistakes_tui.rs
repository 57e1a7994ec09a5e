//! Learn from your mistakes (issue 60) through a real terminal: a game against the computer
//! resumed from a record, the person's move a blunder, the computer's win, the review, `L`;
//! the mistake kept with the failed puzzles, and `quentin puzzle --again` offering it after a
//! restart, solved by a move the review's search judged good. Every wait is for the screen.

use crate::pty::{Session, scratch};
use crate::puzzle_tui::progress;

use std::fs;

/// Quentin 5×5 without the swap, 14 actions in: Black (the person) to move can win at once;
/// White is the computer. The review marks Black's e1 (action 5) a blunder too.
const GAME: &str = "game quentin\nsize 5\npie off\nplayer2 computer, level 10, 1 s a move\n\
                    c3 e4 d3 d4 e1 e3 c4 d1 c2 a4 b3 b2 c1 b5\n";

/// The mistake the exercise on the screen asks to better (`find a better move than a1`).
fn shown_mistake(s: &Session) -> String {
    let screen = s.wait_for("find a better move than ");
    let at = screen.find("find a better move than ").unwrap() + "find a better move than ".len();
    screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect()
}

#[test]
fn the_mistakes_of_a_game_against_the_computer_become_exercises_kept_with_the_failed_puzzles() {
    let dir = scratch("mistakes");
    fs::write(dir.join("game.txt"), GAME).unwrap();
    let mut s = Session::start_sized(&dir, &["resume", "game.txt"], 40, 110);
    s.wait_for("Black to move");
    // The person throws the win away; the computer wins at once.
    s.send(":a1\r");
    s.wait_for("The computer wins");
    s.send("v");
    let screen = s.wait_for("Review done");
    // Black's blunders: a1, and e1 earlier (the review marks both).
    assert!(screen.contains("L: learn from your"), "{screen}");
    s.send("L");
    let first = shown_mistake(&s);
    assert!(["a1", "e1"].contains(&first.as_str()), "{first}");
    let screen = s.wait_for(&format!("In your game you played {first} here"));
    assert!(screen.contains("Your failed puzzles again"), "{screen}");
    // The move played in the game is not better.
    s.send(&format!(":{first}\r"));
    s.wait_for("That is the move you played in the game");
    // n: the other one (the one tried longest ago).
    s.send("n");
    let other = if first == "a1" { "e1" } else { "a1" };
    s.wait_for(&format!("find a better move than {other}"));
    s.send("q");
    assert!(s.wait_exit());
    // Kept with the failed puzzles, each with the moves the review's search judged good.
    let kept = progress(&dir);
    let mistakes = kept["mistakes"].as_array().unwrap().clone();
    assert_eq!(mistakes.len(), 2, "{kept}");
    let a1 = mistakes
        .iter()
        .find(|m| m["played"] == "a1")
        .unwrap_or_else(|| panic!("{kept}"));
    let id = a1["id"].as_str().unwrap().to_string();
    assert!(id.starts_with("mistake-quentin-"), "{id}");
    let answers: Vec<String> = a1["answers"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect();
    assert!(
        !answers.is_empty() && !answers.contains(&"a1".to_string()),
        "{kept}"
    );
    // After a restart, --again offers them; the a1 one is solved by a move that wins at once.
    let mut s = crate::puzzle_tui::start(&dir, &["--again", "--game", "quentin"]);
    if shown_mistake(&s) != "a1" {
        s.send("v");
        s.wait_for("Solution:");
        s.send("n");
    }
    let screen = s.wait_for("find a better move than a1");
    assert!(screen.contains(&id), "{screen}");
    s.send(&format!(":{}\r", answers[0]));
    let screen = s.wait_for("Solved");
    assert!(screen.contains("Right: the search judges"), "{screen}");
    s.send("q");
    assert!(s.wait_exit());
    let kept = progress(&dir);
    let last = kept["attempts"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["id"], id.as_str(), "{kept}");
    assert_eq!(last["solved"], true, "{kept}");
}
