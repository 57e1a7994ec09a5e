//! End-to-end tests of the terminal interface: the real binary runs in a pseudo-terminal, keys
//! are typed into it and the screen is read back with a terminal emulator (vt100).
//!
//! Nothing here needs a terminal of its own, and nothing sleeps for a fixed time: every wait
//! polls the screen (or the process) until what it waits for shows, with a generous timeout.

use crate::pty;

use std::fs;
use std::path::{Path, PathBuf};

use portable_pty::PtySize;
use pty::{Session, first_move_on_5x5, nz, place, scratch};
use quentin::record::Record;
use quentin::rules::{Action, Point};
#[test]
fn a_game_played_with_keys_to_a_win_is_recorded_and_the_terminal_restored() {
    let dir = scratch("win");
    let record = dir.join("game.txt");
    let mut s = Session::start(
        &dir,
        &[
            "--size",
            "3",
            "--no-pie",
            "--record",
            record.to_str().unwrap(),
        ],
    );
    s.wait_for("Black to move");
    eprintln!("start to first frame: {:?}", s.started.elapsed());
    // The record exists from the start, headers only.
    assert_eq!(
        fs::read_to_string(&record).unwrap(),
        "game quentin\nsize 3\npie off\n"
    );
    assert!(s.alternate_screen());
    assert!(!s.cooked(), "the game runs in raw mode");
    s.win_3x3_as_black();
    let screen = s.wait_for("Black wins! Player 1");
    assert!(screen.contains("5 actions played"), "{screen}");
    assert_eq!(
        fs::read_to_string(&record).unwrap(),
        "game quentin\nsize 3\npie off\nb2\na1\nb1\nc1\nb3\n"
    );
    s.send("q");
    assert!(s.wait_exit());
    s.wait_output(&format!("Record saved in {}", record.display()));
    s.assert_restored();
    let record = Record::parse(&fs::read_to_string(&record).unwrap()).unwrap();
    assert!(record.final_position().is_over());
}

#[test]
fn a_game_killed_at_any_moment_leaves_a_record_of_every_completed_action() {
    let (mut s, record) = first_move_on_5x5("kill", "killed.txt");
    let dir = record.parent().unwrap().to_path_buf();
    s.send("s");
    s.wait_for("Action 3");
    s.send("ll\r");
    s.wait_for("Action 4");
    s.signal("KILL");
    let text = fs::read_to_string(&record).unwrap();
    let record = Record::parse(&text).unwrap();
    assert_eq!(
        record.actions(),
        [place("c3"), Action::Swap, place("e3")],
        "{text}"
    );
    // And the binary replays it.
    let out = crate::isolated::quentin()
        .args(["replay", "killed.txt", "--json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"ply\": 3"));
    // No temporary file is left beside it.
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "data")
        .collect();
    assert_eq!(names, ["killed.txt"]);
}

#[test]
fn a_game_told_to_stop_gives_the_terminal_back() {
    let (mut s, record) = first_move_on_5x5("term", "stopped.txt");
    assert!(!s.cooked());
    s.signal("TERM");
    s.assert_restored();
    let record = Record::parse(&fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(record.actions(), [place("c3")]);
}

#[test]
fn a_panic_gives_the_terminal_back_and_a_readable_message() {
    let dir = scratch("panic");
    let record = dir.join("panicked.txt");
    let mut s = Session::start_with(
        &dir,
        &["--size", "5", "--record", record.to_str().unwrap()],
        24,
        80,
        &[("QUENTIN_TEST_PANIC", "1")],
    );
    assert!(!s.wait_exit(), "a panic is a failure");
    s.assert_restored();
    let raw = s.wait_output("panicked");
    let raw = String::from_utf8_lossy(&raw);
    // The message comes after the terminal was first given back, so a person can read it.
    let restored = raw.find("\x1b[?1049l").unwrap();
    assert!(
        raw.find("QUENTIN_TEST_PANIC is set").unwrap() > restored,
        "{raw:?}"
    );
    // The record saved before the first frame is there.
    let record = Record::parse(&fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(record.setup().size, 5);
}

#[test]
fn without_a_terminal_the_game_refuses_to_start_and_writes_nothing() {
    let dir = scratch("noterm");
    let out = crate::isolated::quentin()
        .args(["--size", "5"])
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("TERM", pty::TERM)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{:?}", out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(!err.contains('\x1b'), "{err:?}");
    assert!(!dir.join("data").exists());
}

#[test]
fn a_dumb_terminal_is_refused_with_a_reason_and_nothing_drawn() {
    let dir = scratch("dumb");
    let mut s = Session::start_with(&dir, &["--size", "5"], 24, 80, &[("TERM", "dumb")]);
    assert!(!s.wait_exit());
    let raw = s.all_output();
    let raw = String::from_utf8_lossy(&raw);
    assert!(raw.contains("TERM=dumb"), "{raw}");
    assert!(raw.contains("quentin replay FILE --print"), "{raw}");
    assert!(!raw.contains('\x1b'), "nothing drawn: {raw:?}");
    assert!(!dir.join("data").exists());
}

/// `quentin replay FILE` on the record `text`, saved as `DIR/FILE`, once it shows the record's
/// last position; returns the session (which owns the directory) and the directory.
fn replaying(name: &str, file: &str, text: &str) -> (Session, PathBuf) {
    let dir = scratch(name);
    fs::write(dir.join(file), text).unwrap();
    let mut s = Session::start(&dir, &["replay", file]);
    let n = Record::parse(text).unwrap().actions().len();
    s.wait_for(&format!("Showing action {n} of {n}"));
    let path = dir.to_path_buf();
    s.dir = Some(dir);
    (s, path)
}

#[test]
fn a_replay_steps_back_and_plays_on_into_a_new_record() {
    let original = "game quentin\nsize 5\npie on\nc3\nswap\nb2\ne5\na5\n";
    let (mut s, dir) = replaying("replay", "old.txt", original);
    s.send("\x1b[D");
    s.wait_for("Showing action 4 of 5");
    s.send("\x1b[H");
    s.wait_for("Showing action 0 of 5");
    s.send("\x1b[F");
    s.wait_for("Showing action 5 of 5");
    s.send("hh");
    s.wait_for("Showing action 3 of 5");
    s.send("p");
    s.wait_for("Playing on after action 3");
    s.send("j\r");
    s.wait_for("Action 5");
    s.send("q");
    assert!(s.wait_exit());
    s.wait_output("Record saved in");
    assert_eq!(fs::read_to_string(dir.join("old.txt")).unwrap(), original);
    let new = the_new_record(&dir);
    assert_eq!(
        new.actions(),
        [place("c3"), Action::Swap, place("b2"), place("c2")]
    );
}

/// The one record the program made in the data directory under `dir`.
fn the_new_record(dir: &Path) -> Record {
    let games = dir.join("data/quentin/games");
    let files: Vec<_> = fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    Record::parse(&fs::read_to_string(&files[0]).unwrap()).unwrap()
}

#[test]
fn quint_starts_with_the_pieces_asked_for_and_white_drops_first() {
    let dir = scratch("quint-play");
    let record = dir.join("q.txt");
    let path = record.to_str().unwrap();
    let mut s = Session::start(
        &dir,
        &["--game", "quint", "--pieces", "15", "--record", path],
    );
    s.wait_for("Quint, 15 pieces each");
    s.wait_for("White to move: Player 1");
    s.wait_for("In hand:  White 15, Black 15");
    s.send("\r");
    s.wait_for("Black to move: Player 2");
    s.wait_for("In hand:  White 14, Black 15");
    s.send("q");
    assert!(s.wait_exit());
    s.assert_restored();
    assert_eq!(
        fs::read_to_string(&record).unwrap(),
        "game quint\npieces 15\ne5\n"
    );
}

/// Thirty Quint drops, 15 pieces each: White to move, and e1-f1 can take g1.
const QUINT_DROPS: &str = "game quint\npieces 15\n\
    g2 g1 h1 d3 a3 c1 e1 d8 d2 g3 g6 c4 d7 c7 e6 b6 h2 b1 c3 f7 a7 e8 h3 e3 e7 b2 g5 f4 a5 c6\n";

#[test]
fn quint_played_on_into_the_move_phase_records_a_capture_made_with_keys() {
    let (mut s, dir) = replaying("quint", "drops.txt", QUINT_DROPS);
    s.send("p");
    s.wait_for("Playing on after action 30");
    // The cursor starts on e5: down to e1, select it, then change our mind with Esc.
    s.send("jjjj\r");
    s.wait_for("Selected e1.");
    s.send("\x1b");
    s.wait_for("e1 is no longer selected.");
    // Select again, step to f1: g1 is capturable and marked to be taken.
    s.send("\r");
    s.wait_for("Selected e1.");
    s.send("l\r");
    s.wait_for("e1-f1 can take g1");
    let screen = s.wait_for("Enter plays e1-f1xg1");
    assert!(screen.contains("│>○<│[·]│ × │"), "{screen}");
    s.send("\r");
    s.wait_for("White played e1-f1xg1.");
    s.wait_for("Black to move: Player 2");
    s.send("q");
    assert!(s.wait_exit());
    s.wait_output("Record saved in");
    s.assert_restored();
    assert_eq!(
        fs::read_to_string(dir.join("drops.txt")).unwrap(),
        QUINT_DROPS
    );
    let new = the_new_record(&dir);
    assert_eq!(new.actions().len(), 31);
    assert_eq!(new.actions().last().unwrap().to_string(), "e1-f1xg1");
    assert_eq!(new.final_position().board().count(), [14, 15]);
}

#[test]
fn a_resize_redraws_and_a_small_window_asks_for_more_room() {
    let dir = scratch("resize");
    let record = dir.join("r.txt");
    let s = Session::start(&dir, &["--record", record.to_str().unwrap()]);
    s.wait_for("┌─┬─┬─┬─┬─┬─┬─┬─┬─┬─┬─┬─┐");
    eprintln!("start to first frame, 13×13: {:?}", s.started.elapsed());
    // The whole frame, up to its bottom-right corner, before the size changes under it.
    s.wait_for("─┘");
    let small = PtySize {
        rows: 10,
        cols: 40,
        ..PtySize::default()
    };
    s.output.lock().unwrap().screen.set_size(nz(10), nz(40));
    s.master.resize(small).unwrap();
    s.wait_for("too small");
    s.wait_for("quits).");
    s.output.lock().unwrap().screen.set_size(nz(24), nz(80));
    s.master.resize(PtySize::default()).unwrap();
    s.wait_for("┌─┬─┬─┬─┬─┬─┬─┬─┬─┬─┬─┬─┐");
    let mut s = s;
    s.send("\x1b");
    assert!(s.wait_exit());
}

#[test]
fn a_brique_game_fills_squares_and_records_them() {
    let dir = scratch("brique");
    let record = dir.join("brique.txt");
    // 30 rows: room for the legend under the nine actions.
    let mut s = Session::start_sized(
        &dir,
        &[
            "--game",
            "brique",
            "--size",
            "5",
            "--no-pie",
            "--record",
            record.to_str().unwrap(),
        ],
        30,
        80,
    );
    s.wait_for("Brique 5×5");
    // docs/rules.md's example, with White's a1 to give Black the move: d5 c3 e5 d3 a3 d2 b3 a1.
    let moves = ["lkk", "hjj", "llkk", "hjj", "hhh", "lllj", "hhk", "hjj"];
    for (n, keys) in moves.iter().enumerate() {
        s.send(keys);
        s.send("\r");
        s.wait_for(&format!("Action {}", n + 2));
    }
    s.send("llkkk");
    // The panel tells what c4 would do; the board marks c4's escorts c3 and d4.
    let screen = s.wait_for("c4: legal, fills 2 squares with black, removes");
    assert!(screen.contains(" 4 ▐      •+  ▌ 4"), "{screen}");
    assert!(screen.contains(" 3 ▐● ● ●×●   ▌ 3"), "{screen}");
    s.send("\r");
    let screen = s.wait_for("removing white c3.");
    assert!(
        screen.contains("Black played c4, filling 2 squares with black,"),
        "{screen}"
    );
    // c4 is the last stone; c3 and d4 are black now (and still c4's escorts).
    assert!(screen.contains(" 4 ▐    ◉ ●+  ▌ 4"), "{screen}");
    assert!(screen.contains(" 3 ▐● ● ●+●   ▌ 3"), "{screen}");
    // The list says how many squares c4 filled, and in which colour; the legend what that is.
    assert!(screen.contains("  9. P1 Black c4 +2 ●"), "{screen}");
    assert!(
        screen.contains("+N ●  +N ○  N squares filled, in that colour"),
        "{screen}"
    );
    assert_eq!(
        fs::read_to_string(&record).unwrap(),
        "game brique\nsize 5\npie off\nd5\nc3\ne5\nd3\na3\nd2\nb3\na1\nc4\n"
    );
    s.send("q");
    assert!(s.wait_exit());
    s.assert_restored();
    let record = Record::parse(&fs::read_to_string(&record).unwrap()).unwrap();
    let c3 = Point::parse("c3").unwrap();
    assert_eq!(
        record.final_position().get(c3),
        Some(quentin::rules::Color::Black)
    );
}

#[test]
fn konobi_and_brique_start_at_their_own_sizes_and_fit_80x24() {
    for (game, title, size) in [
        ("konobi", "Konobi 11×11", 11),
        ("brique", "Brique 15×15", 15),
    ] {
        let dir = scratch(game);
        let record = dir.join("r.txt");
        let mut s = Session::start(
            &dir,
            &["--game", game, "--record", record.to_str().unwrap()],
        );
        let screen = s.wait_for(title);
        assert!(!screen.contains("too small"), "{screen}");
        // The bottom row of coordinates, from a to the board's last column.
        let letters: String = ('a'..='z').take(size).map(|c| format!("{c} ")).collect();
        s.wait_for(letters.trim_end());
        assert_eq!(
            fs::read_to_string(&record).unwrap(),
            format!("game {game}\nsize {size}\npie on\n")
        );
        s.send("q");
        assert!(s.wait_exit());
    }
}

#[test]
fn the_help_teaches_the_rules_that_quentin_rules_prints_and_scrolls_to_the_keys() {
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| c.is_whitespace() || "│┌┐└┘─".contains(c))
            .filter(|w| !w.is_empty() && *w != "-")
            .map(str::to_string)
            .collect()
    };
    let printed = crate::isolated::quentin()
        .args(["rules", "konobi"])
        .output()
        .unwrap();
    let printed = words(&String::from_utf8(printed.stdout).unwrap());
    let dir = scratch("help-rules");
    let record = dir.join("r.txt");
    let mut s = Session::start(
        &dir,
        &["--game", "konobi", "--record", record.to_str().unwrap()],
    );
    s.wait_for("Konobi 11×11");
    s.send("?");
    // The help's bottom border is drawn last: once it shows, so does the whole first page.
    let screen = s.wait_for("PgUp PgDn scroll");
    assert!(screen.contains("Help: Konobi"), "{screen}");
    // Every line of rules on the first page of the help, word for word in `quentin rules`.
    let rules: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("Rules"))
        .skip(1)
        .filter(|l| !l.contains("lines 1"))
        .collect();
    assert!(rules.len() > 10, "{screen}");
    for line in rules {
        let line = words(line);
        assert!(
            line.is_empty() || printed.windows(line.len()).any(|w| w == line),
            "{line:?} is not in `quentin rules konobi`"
        );
    }
    // Scrolled to its end, the help shows the keys and the record; it stays open until `?`.
    s.send("\x1b[F");
    let screen = s.wait_for("Record: ");
    assert!(screen.contains("step through why it loses"), "{screen}");
    s.send("?");
    s.wait_for("Black to move");
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn hot_seat_players_named_are_named_on_screen_in_the_record_and_the_end_suggests_no_resume() {
    let dir = scratch("names");
    let record = dir.join("named.txt");
    let path = record.to_str().unwrap();
    let mut s = Session::start(
        &dir,
        &[
            "--size",
            "3",
            "--no-pie",
            "--names",
            "alice,bob",
            "--record",
            path,
        ],
    );
    s.wait_for("Black to move: alice");
    s.win_3x3_as_black();
    s.wait_for("Black wins! alice");
    s.send("q");
    assert!(s.wait_exit());
    let out = String::from_utf8_lossy(&s.wait_output("lists your games.")).to_string();
    assert!(!out.contains("quentin resume"), "a game over: {out}");
    s.assert_restored();
    let text = fs::read_to_string(&record).unwrap();
    assert!(text.contains("player1 alice\nplayer2 bob\n"), "{text}");
}

/// Thirty Quint drops, 15 pieces each: White has a4 b4 c4 d4, and e3-e4 makes five.
const QUINT_FIVE: &str = "game quint\npieces 15\n\
    a4 b8 b4 d8 c4 f8 d4 h8 e3 b6 a8 d6 c8 f6 e8 h6 g8 a2 a6 b2 c6 c2 e6 d2 g6 f1 h1 g1 h3 f3\n";

#[test]
fn quint_s_step_preview_says_when_the_step_wins() {
    let (mut s, _dir) = replaying("quint-wins", "five.txt", QUINT_FIVE);
    s.send("p");
    s.wait_for("Playing on after action 30");
    // The cursor starts on e5: down to e3, select it, up to e4.
    s.send("jj\r");
    s.wait_for("Selected e3.");
    s.send("k");
    // The panel wraps it: `e3-e4: Enter moves here, wins for` / `White`.
    let screen = s.wait_for("e3-e4: Enter moves here, wins for");
    assert!(screen.contains("│ White "), "{screen}");
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn a_replay_of_a_record_with_names_names_its_players() {
    let text = "game quentin\nsize 3\npie off\nplayer1 alice\nplayer2 bob\nb2 a1 b1 c1 b3\n";
    let (mut s, _dir) = replaying("named-replay", "named.txt", text);
    s.wait_for("Black wins! alice");
    s.send("hh");
    let screen = s.wait_for("Showing action 3 of 5");
    assert!(screen.contains("White to move: bob"), "{screen}");
    assert!(screen.contains("  3. alice Black b1"), "{screen}");
    s.send("q");
    assert!(s.wait_exit());
}
