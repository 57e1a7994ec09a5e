//! Typing a move (issue 60) through a real terminal: `:` opens the prompt on a game's board and
//! on a replay's; a point's name, `swap` and a Quint drop play as the cursor and Enter would;
//! a text that is not a move, a point off the board and an illegal point say why; Esc closes.

use crate::pty;

use std::fs;

use pty::{Session, place, scratch, wait_gone};
use quentin::record::Record;

#[test]
fn moves_typed_at_the_prompt_play_or_say_why_not() {
    let dir = scratch("typed-game");
    let record = dir.join("typed.txt");
    let mut s = Session::start_sized(
        &dir,
        &["--size", "5", "--record", record.to_str().unwrap()],
        32,
        120,
    );
    s.wait_for("Black to move");
    s.send(":");
    s.wait_for("Move: _");
    s.send("c3\r");
    s.wait_for("Black played c3.");
    // White swaps by typing it, as `s` would.
    s.send(":swap\r");
    s.wait_for("Swap: the players");
    s.send(":hello\r");
    s.wait_for("\"hello\" is not a move");
    s.send(":z9\r");
    s.wait_for("z9 is not a point of this");
    // Occupied: the rules' own reason, at the point.
    s.send(":c3\r");
    s.wait_for("cannot play c3: c3 is occupied");
    // Esc closes the prompt and plays nothing; Backspace mends a typo.
    s.send(":b4");
    s.wait_for("Move: b4_");
    s.send("\x1b");
    wait_gone(&s, "Move: b4_");
    s.send(":b5\x7f4\r");
    s.wait_for("played b4.");
    s.send("q");
    assert!(s.wait_exit());
    let record = Record::parse(&fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(
        record.actions(),
        [place("c3"), quentin::rules::Action::Swap, place("b4")]
    );
}

#[test]
fn a_typed_move_in_a_replay_and_in_quint() {
    let dir = scratch("typed-replay");
    let file = dir.join("game.txt");
    fs::write(&file, "game quentin\nsize 5\npie off\n1. c3 b2\n").unwrap();
    let mut s = Session::start(&dir, &["replay", file.to_str().unwrap()]);
    s.wait_for("Showing action 2 of 2");
    s.send(":d4\r");
    s.wait_for("This is a replay: press p to play on");
    s.send("q");
    assert!(s.wait_exit());

    let mut s = Session::start(&dir, &["--game", "quint"]);
    s.wait_for("White to move");
    s.send(":d4\r");
    s.wait_for("White played d4.");
    s.send(":d4-d5\r");
    s.wait_for("Black cannot play d4-d5");
    s.send("q");
    assert!(s.wait_exit());
}
