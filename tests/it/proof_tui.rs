//! The proof browser (`b`, issue 61) through a real terminal: on a board a shipped book
//! solves, the panel shows the proven move of the side to move, or that it loses whatever it
//! plays, and follows every move and step; the winner playing the shown moves wins. Every wait
//! is for what the screen shows.

use crate::pty;

use std::fs;

use pty::{Session, scratch};
use quentin::rules::{Action, Color, Game, Point, Setup};

/// The move the browser shows as proven: the word after "Proof: " on the screen.
fn shown_move(screen: &str) -> Action {
    let at = screen.find("Proof: ").expect("the browser's line") + "Proof: ".len();
    let word: String = screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    match word.as_str() {
        "swap" => Action::Swap,
        name => Action::Place(Point::parse(name).unwrap_or_else(|e| panic!("{e:?}: {screen}"))),
    }
}

#[test]
fn the_second_player_playing_the_browser_s_moves_wins_konobi_4x4() {
    // Konobi 4×4 without the pie rule is lost by the first player whatever it plays: Black
    // plays its first legal move each turn, White the move the browser shows, to White's win.
    let dir = scratch("proof-konobi");
    let record = dir.join("k4.txt");
    let args = [
        "--game",
        "konobi",
        "--size",
        "4",
        "--no-pie",
        "--record",
        record.to_str().unwrap(),
    ];
    let mut s = Session::start_sized(&dir, &args, 32, 110);
    s.wait_for("Black to move");
    s.send("b");
    s.wait_for("Proof: Black to move loses");
    let mut pos = Setup {
        size: 4,
        pie: false,
        ..Setup::new(Game::Konobi)
    }
    .start()
    .unwrap();
    let mut plies = 0;
    while !pos.is_over() {
        let action = if pos.to_move() == Some(Color::Black) {
            let screen = s.wait_for("Proof: Black to move loses");
            assert!(screen.contains("positions"), "{screen}");
            pos.legal_actions()[0]
        } else {
            let screen = s.wait_for("wins for White (to move)");
            shown_move(&screen)
        };
        pos.play(action).unwrap();
        plies += 1;
        s.send(&format!(":{action}\r"));
        if !pos.is_over() {
            s.wait_for(&format!("Action {}", plies + 1));
        }
    }
    assert_eq!(pos.winner(), Some(Color::White));
    s.wait_for("White wins");
    s.wait_for("Proof: the game is over");
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn in_a_replay_the_browser_follows_each_step_and_b_turns_it_off() {
    // Quentin 4×4 without the pie rule: Black wins (the book), the whole proof from the
    // start; after a1 (a corner, a losing first move) the book's strategy is left.
    let dir = scratch("proof-replay");
    let file = dir.join("q4.txt");
    fs::write(&file, "game quentin\nsize 4\npie off\na1 b2\n").unwrap();
    let mut s = Session::start_sized(&dir, &["replay", file.to_str().unwrap()], 32, 110);
    s.wait_for("Showing action 2 of 2");
    s.send("gb");
    let screen = s.wait_for("wins for Black (to move)");
    // The book's walk from the empty board checks 1,920 positions (docs/solver.md).
    assert!(screen.contains("1,920"), "{screen}");
    s.send("l");
    s.wait_for("not cover");
    s.send("b");
    s.wait_for("Proof browser off.");
    // A board without a book says which boards have one.
    let other = dir.join("q7.txt");
    fs::write(&other, "game quentin\nsize 7\npie off\nd4\n").unwrap();
    s.send("q");
    assert!(s.wait_exit());
    let mut s = Session::start_sized(&dir, &["replay", other.to_str().unwrap()], 32, 110);
    s.wait_for("Showing action 1 of 1");
    s.send("b");
    s.wait_for("no book ships for Quentin 7×7");
    s.send("q");
    assert!(s.wait_exit());
}
