//! End-to-end tests of games against the computer: the real binary and its real search, in a
//! pseudo-terminal, on small boards with tiny budgets.
//!
//! The issue sets two bounds on the interface while the computer thinks: the screen answers an
//! arrow key within 300 ms, and `q` ends the program within 500 ms. Timings are not asserted
//! here (the machine is loaded and shared); the tests wait with a generous timeout and print
//! what they measured, for the report.

use crate::pty;

use std::fs;
use std::path::Path;
use std::time::Instant;

use pty::{Session, scratch, wait_until};
use quentin::record::Record;
use quentin::rules::{Action, Color, Point};

/// The record in `path`, once it can be read.
fn record(path: &Path) -> Option<Record> {
    Record::parse(&fs::read_to_string(path).ok()?).ok()
}

/// The keys that walk the cursor from `from` to `to`.
fn walk(from: Point, to: Point) -> String {
    let steps = |n: usize, c: char| std::iter::repeat_n(c, n);
    steps(to.col().saturating_sub(from.col()), 'l')
        .chain(steps(from.col().saturating_sub(to.col()), 'h'))
        .chain(steps(to.row().saturating_sub(from.row()), 'k'))
        .chain(steps(from.row().saturating_sub(to.row()), 'j'))
        .collect()
}

#[test]
fn a_whole_game_against_the_computer_ends_with_a_banner_and_a_record_naming_it() {
    let dir = scratch("versus-game");
    let path = dir.join("game.txt");
    let mut s = Session::start(
        &dir,
        &[
            "--size",
            "5",
            "--no-pie",
            "--computer",
            "--level",
            "3",
            "--think",
            "0.05",
            "--threads",
            "1",
            "--record",
            path.to_str().unwrap(),
        ],
    );
    s.wait_for("Black to move: Player 1");
    s.wait_for("White joins left and right");
    let mut cursor = Point::new(2, 2);
    let mut played = 0;
    loop {
        // Your turn (Black, player 1) once the computer has answered, or the end.
        let now = wait_until("your turn or the end", || {
            let r = record(&path)?;
            let position = r.final_position();
            let mine = position.to_move() == Some(Color::Black) && r.actions().len() >= played;
            (position.is_over() || mine).then_some(r)
        });
        let position = now.final_position();
        if position.is_over() {
            break;
        }
        // The legal point nearest the cursor.
        let target = position
            .legal_actions()
            .into_iter()
            .filter_map(Action::point)
            .min_by_key(|p| p.col().abs_diff(cursor.col()) + p.row().abs_diff(cursor.row()))
            .unwrap();
        s.send(&walk(cursor, target));
        s.send("\r");
        cursor = target;
        played = now.actions().len() + 2;
    }
    let screen = wait_until("the banner", || {
        let screen = s.screen();
        (screen.contains("You win!") || screen.contains("The computer wins (")).then_some(screen)
    });
    eprintln!("{screen}");
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with(
            "game quentin\nsize 5\npie off\nplayer2 computer, level 3, 0.05 s a move\n"
        ),
        "{text}"
    );
    let game = Record::parse(&text).unwrap();
    let winner = game.final_position().outcome().unwrap().winner().unwrap();
    let banner = if winner == Color::Black {
        "You win!"
    } else {
        "The computer wins (White)"
    };
    assert!(screen.contains(banner), "{winner}: {screen}");
    s.send("q");
    assert!(s.wait_exit());
    s.assert_restored();
    // The replay shows who played.
    let mut r = Session::start(&dir, &["replay", "game.txt"]);
    r.wait_for("Player 2: computer, level 3, 0.05 s a move");
    r.send("q");
    assert!(r.wait_exit());
}

/// A 5×5 game in which the computer, player 1, thinks over its first move; the session owns
/// the game's directory. A minute, at full strength (a lower level stops at its playouts):
/// longer than any test goes on, however loaded the machine, so that the think is still going
/// whatever the test does next.
fn computer_thinking(name: &str) -> (Session, std::path::PathBuf) {
    let dir = scratch(name);
    let path = dir.join("game.txt");
    let mut s = Session::start(
        &dir,
        &[
            "--size",
            "5",
            "--computer",
            "first",
            "--level",
            "10",
            "--think",
            "60",
            "--record",
            path.to_str().unwrap(),
        ],
    );
    s.wait_for("The computer (level 10) is thinking");
    // Its first report: the search is running.
    s.wait_for(" playouts; best so far ");
    s.dir = Some(dir);
    (s, path)
}

#[test]
fn the_cursor_moves_at_once_while_the_computer_thinks() {
    let (mut s, _) = computer_thinking("versus-cursor");
    let mut latencies = Vec::new();
    // c3 to d3, e3, then back: each arrow shows its point's preview in the panel.
    for (key, point) in [
        ("\x1b[C", "d3: legal"),
        ("\x1b[C", "e3: legal"),
        ("\x1b[A", "e4: legal"),
        ("\x1b[D", "d4: legal"),
    ] {
        let sent = Instant::now();
        s.send(key);
        s.wait_for(point);
        latencies.push(sent.elapsed());
    }
    let screen = s.screen();
    eprintln!("arrow key to screen during a think: {latencies:?}");
    assert!(screen.contains("is thinking"), "still thinking: {screen}");
    // Enter on the board does nothing but say so.
    s.send("\r");
    s.wait_for("is thinking: wait");
    // The progress goes on while the keys come: count the different progress labels seen.
    let mut labels = std::collections::BTreeSet::new();
    let started = Instant::now();
    while labels.len() < 5 {
        let screen = s.screen();
        if let Some(label) = screen
            .lines()
            .find_map(|l| l.split_once("/60 s"))
            .map(|(a, _)| a.rsplit(' ').next().unwrap_or_default().to_string())
        {
            labels.insert(label);
        }
        assert!(
            started.elapsed() < pty::TIMEOUT,
            "the progress does not move"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    eprintln!("progress labels {labels:?} seen in {:?}", started.elapsed());
    // A resize is answered too: too small, then the board again.
    s.resize(10, 40);
    s.wait_for("too small");
    s.resize(24, 80);
    s.wait_for("┌─┬─┬─┬─┐");
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn q_while_the_computer_thinks_quits_at_once_with_the_record_saved() {
    let dir = scratch("versus-quit");
    let path = dir.join("game.txt");
    let mut s = Session::start(
        &dir,
        &[
            "--size",
            "5",
            "--computer",
            "--level",
            "10",
            "--think",
            "60",
            "--record",
            path.to_str().unwrap(),
        ],
    );
    s.wait_for("Black to move: Player 1");
    s.send("\r");
    s.wait_for("The computer (level 10) is thinking");
    s.wait_for(" playouts; best so far ");
    let sent = Instant::now();
    s.send("q");
    assert!(s.wait_exit());
    eprintln!("q to exit during a think: {:?}", sent.elapsed());
    s.assert_restored();
    s.wait_output("Record saved in");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "game quentin\nsize 5\npie on\nplayer2 computer, level 10, 60 s a move\nc3\n"
    );
}

#[test]
fn a_hint_and_the_live_analysis_come_from_the_real_search() {
    let dir = scratch("versus-hint");
    let path = dir.join("game.txt");
    let mut s = Session::start(
        &dir,
        &[
            "--size",
            "5",
            "--think",
            "0.2",
            "--record",
            path.to_str().unwrap(),
        ],
    );
    s.wait_for("Black to move: Player 1");
    s.send("\r");
    s.wait_for("White to move: Player 2");
    s.send("t");
    // Said from the side of the one asking: `Hint for White: b2, 42% for you.`
    let screen = s.wait_for("Hint for White: ");
    assert!(screen.contains("for you"), "{screen}");
    s.wait_for("Hint ◆: ");
    // Between people the hint plays nothing.
    assert_eq!(record(&path).unwrap().actions().len(), 1);
    s.send("a");
    s.wait_for("Analysis: Black ");
    s.wait_for("Best for White: win, visits, line");
    // Playing on re-analyses the new position, for the new side to move.
    s.send("l\r");
    s.wait_for("Best for Black: win, visits, line");
    s.send("a");
    s.wait_for("Analysis off.");
    s.send("q");
    assert!(s.wait_exit());
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "game quentin\nsize 5\npie on\nc3\nd3\n"
    );
}

#[test]
fn a_resumed_game_takes_the_computer_too_and_its_record_names_it() {
    let dir = scratch("versus-resume");
    let path = dir.join("game.txt");
    fs::write(&path, "game quentin\nsize 5\npie off\nc3\n").unwrap();
    let mut s = Session::start(
        &dir,
        &["resume", "game.txt", "--computer", "--think", "0.05"],
    );
    s.wait_for("Computer played ");
    s.wait_for("Black to move: Player 1");
    s.send("q");
    assert!(s.wait_exit());
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with(
            "game quentin\nsize 5\npie off\nplayer2 computer, level 5, 0.05 s a move\nc3\n"
        ),
        "{text}"
    );
    assert_eq!(Record::parse(&text).unwrap().actions().len(), 2, "{text}");
}

#[test]
fn a_game_against_the_computer_resumes_against_it_without_being_told() {
    let dir = scratch("versus-resume-recorded");
    let path = dir.join("game.txt");
    let header = "game quentin\nsize 5\npie off\nplayer2 computer, level 2, 0.05 s a move\n";
    fs::write(&path, format!("{header}c3\n")).unwrap();
    let mut s = Session::start(&dir, &["resume", "game.txt"]);
    s.wait_for("Computer played ");
    s.wait_for("Black to move: Player 1");
    // Your move, the point nearest the cursor (at c3): the computer answers it too.
    let position = record(&path).unwrap().final_position();
    let cursor = Point::new(2, 2);
    let target = position
        .legal_actions()
        .into_iter()
        .filter_map(Action::point)
        .min_by_key(|p| p.col().abs_diff(cursor.col()) + p.row().abs_diff(cursor.row()))
        .unwrap();
    s.send(&walk(cursor, target));
    s.send("\r");
    wait_until("the computer's answer", || {
        (record(&path)?.actions().len() == 4).then_some(())
    });
    s.wait_for("Black to move: Player 1");
    s.send("q");
    assert!(s.wait_exit());
    s.wait_output("Play on with `quentin resume game.txt`");
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(&format!("{header}c3\n")), "{text}");
    assert_eq!(Record::parse(&text).unwrap().actions().len(), 4, "{text}");
    // A record from before the levels comes back at full strength; the options override.
    fs::write(
        &path,
        "game quentin\nsize 5\npie off\nplayer2 computer, 0.05 s a move\nc3\n",
    )
    .unwrap();
    let mut s = Session::start(&dir, &["resume", "game.txt", "--level", "7"]);
    s.wait_for("Computer played ");
    s.send("q");
    assert!(s.wait_exit());
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with(
            "game quentin\nsize 5\npie off\nplayer2 computer, level 7, 0.05 s a move\nc3\n"
        ),
        "{text}"
    );
}

/// After your first move on 5×5 against the computer at `level`, a second a move: its line
/// `Computer played ...`, and the whole screen.
fn computer_said(level: &str) -> (String, String) {
    let dir = scratch(&format!("versus-figure-{level}"));
    let args = ["--size", "5", "--no-pie", "--computer", "--level", level];
    let mut s = Session::start(&dir, &[&args[..], &["--think", "1"]].concat());
    s.wait_for("Black to move: Player 1");
    s.send("\r");
    let screen = s.wait_for("Computer played ");
    let said = screen
        .lines()
        .find(|l| l.contains("Computer played "))
        .unwrap()
        .to_string();
    s.send("q");
    assert!(s.wait_exit());
    (said, screen)
}

#[test]
fn the_computer_s_figure_is_yours_at_full_strength_and_not_given_below() {
    // Full strength, a second a move on 5×5: tens of thousands of playouts, so a figure.
    let (said, screen) = computer_said("10");
    assert!(
        said.contains("% for you") || said.contains("proven"),
        "{screen}"
    );
    assert!(
        !screen.contains("for it") && !screen.contains("playout"),
        "{screen}"
    );
    // Level 3: the move, and no figure.
    let (said, screen) = computer_said("3");
    assert!(!said.contains('%') && !said.contains("proven"), "{screen}");
}
