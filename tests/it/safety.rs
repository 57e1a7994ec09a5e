//! End-to-end tests of what keeps games and the terminal safe: signals, keys that must not act,
//! record files that are not plain or are in use, resuming, and kills during a burst of moves.
//! The real binary runs in a pseudo-terminal (see `pty`).

use crate::pty;

use std::fs;
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize};
use pty::{
    Session, TIMEOUT, first_move_on_5x5, given_back, nz, place, scratch, wait_gone, wait_until,
};
use quentin::record::Record;

/// What the help's frame shows while it is open: its scroll line (the help is longer than 24 rows).
const HELP_SHOWN: &str = "PgUp PgDn scroll";

#[test]
fn esc_closes_the_help_and_only_q_quits_from_it() {
    let (mut s, record) = first_move_on_5x5("help-esc", "h.txt");
    s.send("?");
    s.wait_for(HELP_SHOWN);
    s.send("\x1b");
    wait_gone(&s, HELP_SHOWN);
    // Still playing: the next key acts.
    s.send("l\r");
    s.wait_for("Action 3");
    assert!(s.child.try_wait().unwrap().is_none(), "Esc quit the game");
    s.send("?");
    s.wait_for(HELP_SHOWN);
    s.send("q");
    assert!(s.wait_exit());
    let record = Record::parse(&fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(record.actions().len(), 2);
}

#[test]
fn keys_do_not_act_while_the_window_is_too_small_for_the_board() {
    let (mut s, record) = first_move_on_5x5("small-keys", "small.txt");
    let resize = |s: &Session, rows: u16, cols: u16| {
        s.output.lock().unwrap().screen.set_size(nz(rows), nz(cols));
        s.master
            .resize(PtySize {
                rows,
                cols,
                ..PtySize::default()
            })
            .unwrap();
    };
    resize(&s, 10, 80);
    s.wait_for("quits).");
    // Enter, Space and s would play, the arrows move the cursor, unseen.
    s.send("\r s\x1b[D ");
    // The keys come through the terminal's input and the resize as a signal, and nothing
    // orders the two: the program's count of the keys it ignored says they have all been read
    // while the board was hidden, before the window grows.
    s.wait_for("5 keys ignored.");
    resize(&s, 24, 80);
    s.wait_for("Action 2");
    // The cursor did not move: Enter now plays where it was, refused on the occupied c3.
    s.send("\r");
    s.wait_for("occupied");
    assert_eq!(
        Record::parse(&fs::read_to_string(&record).unwrap())
            .unwrap()
            .actions(),
        [place("c3")]
    );
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn sigint_and_other_signals_from_outside_give_the_terminal_back_like_sigterm() {
    for signal in ["INT", "USR1", "USR2", "ALRM"] {
        let (mut s, record) = first_move_on_5x5(&format!("sig-{signal}"), "sig.txt");
        assert!(!s.cooked());
        s.signal(signal);
        s.assert_restored();
        let record = Record::parse(&fs::read_to_string(&record).unwrap()).unwrap();
        assert_eq!(record.actions(), [place("c3")], "SIG{signal}");
    }
}

#[test]
fn ctrl_z_in_a_shell_gives_the_terminal_back_and_fg_takes_it_again() {
    let dir = scratch("tstp");
    let record = dir.join("tstp.txt");
    // An interactive shell with job control runs the game, as a player's shell does.
    let mut bash = CommandBuilder::new("bash");
    bash.args(["--norc", "--noprofile", "-i"]);
    bash.env("PS1", "shell$ ");
    bash.env("TERM", pty::TERM);
    let mut s = Session::spawn(&dir, bash, 24, 80);
    s.wait_for("shell$");
    s.send(&format!(
        "'{}' --size 5 --record '{}'\r",
        env!("CARGO_BIN_EXE_quentin"),
        record.display()
    ));
    s.wait_for("Black to move");
    s.send("\r");
    s.wait_for("Action 2");
    // Ctrl-Z: SIGTSTP. The game stops and the shell has its terminal back.
    s.send("\x1a");
    s.wait_for("Stopped");
    let raw = s.output.lock().unwrap().raw.clone();
    assert!(given_back(&raw), "{:?}", String::from_utf8_lossy(&raw));
    assert!(!s.alternate_screen());
    // fg: SIGCONT. The game takes the terminal again, redraws, and keys work.
    s.send("fg\r");
    s.wait_for("Action 2");
    assert!(s.alternate_screen());
    assert!(!s.cooked(), "raw mode again");
    s.send("l\r");
    s.wait_for("Action 3");
    s.send("q");
    s.wait_output("Record saved in");
    s.wait_for("shell$");
    s.send("exit\r");
    s.wait_exit();
    let record = Record::parse(&fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(record.actions(), [place("c3"), place("d3")]);
}

#[test]
fn sigtstp_and_sigcont_from_outside_give_the_terminal_back_and_take_it_again() {
    let (mut s, record) = first_move_on_5x5("tstp-kill", "k.txt");
    let pid = s.child.process_id().unwrap().to_string();
    let kill = |name: &str| {
        let sent = std::process::Command::new("kill")
            .args([format!("-{name}"), pid.clone()])
            .status()
            .unwrap();
        assert!(sent.success());
    };
    kill("TSTP");
    // Given back before the program stops: the alternate screen left, mouse capture off.
    let deadline = Instant::now() + TIMEOUT;
    while !given_back(&s.output.lock().unwrap().raw.clone()) {
        assert!(Instant::now() < deadline, "the terminal was not given back");
        thread::sleep(Duration::from_millis(1));
    }
    // The terminal comes back before the program stops, and a SIGCONT sent before the stop
    // would be lost in it: the kernel's word that the program is stopped orders the two.
    wait_until("the program to stop", || stopped(&pid).then_some(()));
    s.output.lock().unwrap().raw.clear();
    kill("CONT");
    // Taken again: back on the alternate screen, redrawn, and keys work.
    s.wait_output("\x1b[?1049h");
    s.wait_for("Action 2");
    s.send("l\r");
    s.wait_for("Action 3");
    assert!(!s.cooked());
    s.send("q");
    assert!(s.wait_exit());
    let record = Record::parse(&fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(record.actions(), [place("c3"), place("d3")]);
}

/// Whether the process `pid` is stopped (state `T` in `/proc/PID/stat`).
fn stopped(pid: &str) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name, which is in parentheses and may hold spaces.
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('T'))
    })
}

/// The records in `dir` (the files whose name ends in `.txt`), sorted.
fn txt_files(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|list| {
            list.map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|n| n.ends_with(".txt"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The temporary files in `dir`.
fn temporaries(dir: &std::path::Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn resume_appends_to_the_same_record_and_holds_it_locked() {
    let dir = scratch("resume");
    let path = dir.join("mine.txt");
    fs::write(&path, "# my game\nsize 5\nc3\n").unwrap();
    let mut s = Session::start(&dir, &["resume", "mine.txt"]);
    s.wait_for("Resumed after 1 action;");
    s.wait_for("White to move");
    s.send("l\r");
    s.wait_for("Action 3");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "# my game\nsize 5\nc3\nd3\n"
    );
    // While it plays, a second program on the same record refuses, naming it.
    for args in [&["resume", "mine.txt"][..], &["--record", "mine.txt"]] {
        let mut second = Session::start(&dir, args);
        assert!(!second.wait_exit());
        second.wait_output("mine.txt is in use");
    }
    // An undo rewrites the record, still locked.
    s.send("u");
    s.wait_for("Undone: d3.");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "game quentin\nsize 5\npie on\nc3\n"
    );
    let mut second = Session::start(&dir, &["resume", "mine.txt"]);
    assert!(!second.wait_exit());
    second.wait_output("mine.txt is in use");
    s.send("r");
    s.wait_for("Redone: d3.");
    s.send("q");
    assert!(s.wait_exit());
    s.wait_output("Record saved in mine.txt");
    s.wait_output("Play on with `quentin resume mine.txt`; `quentin games` lists your games.");
    assert!(fs::read_to_string(&path).unwrap().ends_with("c3\nd3\n"));
    assert!(temporaries(&dir).is_empty());
}

#[test]
fn before_installing_the_exit_message_names_the_command_that_started_it() {
    // `cargo run --release` from a fresh clone: no `quentin` on the PATH, Cargo's variables
    // set (as `cargo test` sets them for this test too). The way back names `cargo run`.
    let dir = scratch("exit-cargo-run");
    let path = std::env::var("PATH").unwrap_or_default();
    let exe_dir = Path::new(env!("CARGO_BIN_EXE_quentin")).parent().unwrap();
    let without: Vec<_> = std::env::split_paths(&path)
        .filter(|d| d.canonicalize().ok() != exe_dir.canonicalize().ok())
        .collect();
    let without = std::env::join_paths(without).unwrap();
    let mut s = Session::start_with(
        &dir,
        &["--size", "5", "--record", "mine.txt"],
        24,
        100,
        &[
            ("PATH", without.to_str().unwrap()),
            ("CARGO", "cargo"),
            ("CARGO_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR")),
        ],
    );
    s.wait_for("Black to move");
    s.send("\r");
    s.wait_for("White to move");
    s.send("q");
    assert!(s.wait_exit());
    let release = exe_dir.ends_with("release");
    let program = if release {
        "cargo run --release --"
    } else {
        "cargo run --"
    };
    s.wait_output(&format!("Play on with `{program} resume mine.txt`"));
}

#[test]
fn resume_without_a_file_takes_the_latest_unfinished_game() {
    let dir = scratch("resume-latest");
    let games = dir.join("data/quentin/games");
    fs::create_dir_all(&games).unwrap();
    fs::write(games.join("older.txt"), "size 5\nc3\n").unwrap();
    // Written later, but finished: not the one to play on.
    fs::write(games.join("won.txt"), "size 3\npie off\nb1 a1 b2 a2 b3\n").unwrap();
    let mut s = Session::start(&dir, &["resume"]);
    s.wait_for("Resumed after 1 action;");
    s.send("q");
    assert!(s.wait_exit());
    s.wait_output("older.txt");
}

#[test]
fn a_finished_game_resumes_as_a_replay() {
    let dir = scratch("resume-won");
    let won = "size 3\npie off\nb1 a1 b2 a2 b3\n";
    fs::write(dir.join("won.txt"), won).unwrap();
    let mut s = Session::start(&dir, &["resume", "won.txt"]);
    s.wait_for("This game is over, so it opens as a replay");
    s.wait_for("Showing action 5 of 5");
    s.send("q");
    assert!(s.wait_exit());
    assert_eq!(fs::read_to_string(dir.join("won.txt")).unwrap(), won);
}

#[test]
fn a_game_quit_before_its_first_action_leaves_no_record() {
    let dir = scratch("unplayed");
    let games = dir.join("data/quentin/games");
    for args in [
        &["--size", "5"][..],
        &["--size", "5", "--record", "new.txt"],
    ] {
        let mut s = Session::start(&dir, args);
        s.wait_for("Black to move");
        assert_eq!(txt_files(&games).len() + txt_files(&dir).len(), 1);
        s.send("q");
        assert!(s.wait_exit());
        s.assert_restored();
        assert!(txt_files(&games).is_empty(), "{:?}", txt_files(&games));
        assert!(txt_files(&dir).is_empty(), "{:?}", txt_files(&dir));
        let raw = s.all_output();
        assert!(!String::from_utf8_lossy(&raw).contains("Record saved"));
    }
    // Nor when it is closed or killed by a signal that can be caught.
    for signal in ["TERM", "HUP"] {
        let mut s = Session::start(&dir, &["--size", "5", "--record", "new.txt"]);
        s.wait_for("Black to move");
        assert!(dir.join("new.txt").exists());
        s.signal(signal);
        assert!(!dir.join("new.txt").exists(), "after SIG{signal}");
    }
}

#[test]
fn playing_on_from_a_replay_with_nowhere_to_save_is_refused_in_the_panel() {
    let dir = scratch("replay-nowhere");
    fs::write(dir.join("old.txt"), "size 5\nc3\n").unwrap();
    let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_quentin"));
    command.args(["replay", "old.txt"]);
    command.env("HOME", "");
    command.env("TERM", pty::TERM);
    command.env("XDG_DATA_HOME", "");
    let mut s = Session::spawn(&dir, command, 24, 80);
    s.wait_for("Showing action 1 of 1");
    s.send("p");
    s.wait_for("Cannot play on");
    s.wait_for("Showing action 1 of 1");
    // Still a replay: keys that would play are refused.
    s.send("\r");
    s.wait_for("This is a replay");
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn a_record_name_with_control_characters_is_printed_escaped() {
    let dir = scratch("escape");
    let name = "\x1b[31mred\x07.txt";
    let (mut s, _) = {
        let mut s = Session::start(&dir, &["--size", "5", "--record", name]);
        s.wait_for("Black to move");
        s.send("\r");
        s.wait_for("Action 2");
        (s, ())
    };
    s.send("q");
    assert!(s.wait_exit());
    s.wait_output(r"Record saved in \u{1b}[31mred\u{7}.txt");
    let raw = s.all_output();
    let raw = String::from_utf8_lossy(&raw);
    let after = &raw[raw.rfind("\x1b[?1049l").unwrap()..];
    assert!(!after.contains("\x1b[31m"), "{after:?}");
    assert!(!after.contains('\x07'), "{after:?}");
    assert!(dir.join(name).exists());
}

/// A small random number generator for the kill test (xorshift), seeded from the clock and
/// printed, so that a failure can be repeated.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// How many actions the panel shows as played: `Action N` is the next one, so N - 1.
fn shown_played(screen: &str) -> Option<usize> {
    let at = screen.find("Action ")?;
    let digits: String = screen[at + 7..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse::<usize>().ok().map(|n| n - 1)
}

#[test]
fn kills_at_random_moments_of_a_burst_of_moves_lose_nothing_shown() {
    let dir = scratch("burst");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("kill test seed: {seed}");
    let mut dice = Dice(seed);
    let mut game = 0;
    let mut file = format!("burst-{game}.txt");
    let mut before: Vec<quentin::rules::Action> = Vec::new();
    let mut temporaries_left = 0;
    let mut played = 0;
    for round in 0..30 {
        let path = dir.join(&file);
        let mut s = if path.exists() {
            Session::start(&dir, &["resume", &file])
        } else {
            Session::start(&dir, &["--size", "9", "--no-pie", "--record", &file])
        };
        let screen = s.wait_for(" to move");
        let start = shown_played(&screen).unwrap();
        assert_eq!(start, before.len(), "round {round}: {screen}");
        // Odd rounds undo and redo (whole rewrites through a temporary file); even rounds place
        // stones (appends). All the keys go at once, and the kill comes at a random moment.
        let undoing = round % 2 == 1 && start > 0;
        let keys: String = if undoing {
            "ur".repeat(10)
        } else {
            (0..10)
                .map(|_| {
                    let step = ["h", "j", "k", "l", "ll", "jj"][dice.roll(6) as usize];
                    format!("{step}\r")
                })
                .collect()
        };
        s.send(&keys);
        thread::sleep(Duration::from_micros(dice.roll(60_000)));
        let shown = shown_played(&s.screen());
        s.signal("KILL");
        temporaries_left += temporaries(&dir).len();
        let text = fs::read_to_string(&path).unwrap();
        let record = Record::parse(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
        let now = record.actions();
        if undoing {
            // Between an undo and its redo at most the last action is missing.
            assert!(now.len() + 1 >= before.len(), "round {round}: {text}");
            assert!(before.starts_with(now), "round {round}: {text}");
        } else {
            assert!(now.starts_with(&before), "round {round}: {text}");
            if let Some(shown) = shown {
                assert!(now.len() >= shown, "round {round}: showed {shown}: {text}");
            }
            played += now.len() - before.len();
        }
        let out = crate::isolated::quentin()
            .args(["replay", &file, "--json"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        before = now.to_vec();
        if record.final_position().is_over() {
            game += 1;
            file = format!("burst-{game}.txt");
            before.clear();
        }
    }
    eprintln!(
        "actions played in bursts: {played}; temporary files seen right after the 30 kills: \
         {temporaries_left}"
    );
    // The next start in the directory removes every temporary file the kills left.
    let mut s = Session::start(&dir, &["--size", "5", "--record", "last.txt"]);
    s.wait_for("Black to move");
    assert_eq!(temporaries(&dir), Vec::<String>::new());
    s.send("q");
    assert!(s.wait_exit());
}

#[test]
fn two_games_started_together_on_one_record_never_both_run() {
    let dir = scratch("two");
    for n in 0..10 {
        let file = format!("same-{n}.txt");
        let args = ["--size", "5", "--record", file.as_str()];
        let mut both = [Session::start(&dir, &args), Session::start(&dir, &args)];
        // Each one either shows the board or ends with a refusal.
        let deadline = Instant::now() + TIMEOUT;
        let running: Vec<bool> = both
            .iter_mut()
            .map(|s| {
                loop {
                    if s.screen().contains("Black to move") {
                        break true;
                    }
                    if s.child.try_wait().unwrap().is_some() {
                        break false;
                    }
                    assert!(Instant::now() < deadline, "neither board nor refusal");
                    thread::sleep(Duration::from_millis(1));
                }
            })
            .collect();
        assert_eq!(running.iter().filter(|&&r| r).count(), 1, "try {n}");
        for (s, running) in both.iter_mut().zip(running) {
            if running {
                s.send("\r");
                s.wait_for("Action 2");
                s.send("q");
                assert!(s.wait_exit());
            } else {
                let raw = s.wait_output(&file);
                let raw = String::from_utf8_lossy(&raw);
                assert!(
                    raw.contains("is in use")
                        || raw.contains("already exists")
                        || raw.contains("changed while"),
                    "{raw}"
                );
            }
        }
        let record = Record::parse(&fs::read_to_string(dir.join(&file)).unwrap()).unwrap();
        assert_eq!(record.actions(), [place("c3")]);
    }
}

#[test]
fn quitting_with_actions_not_saved_asks_twice_and_fails() {
    let dir = scratch("unsaved");
    let games = dir.join("games");
    fs::create_dir_all(&games).unwrap();
    let mut s = Session::start(&dir, &["--size", "5", "--record", "games/g.txt"]);
    s.wait_for("Black to move");
    s.send("\r");
    s.wait_for("Action 2");
    // The directory goes away: an undo, which rewrites the record beside it, cannot be saved.
    let moved = dir.join("moved");
    fs::rename(&games, &moved).unwrap();
    s.send("u");
    s.wait_for("cannot save");
    s.send("q");
    s.wait_for("NOT SAVED");
    assert!(
        s.child.try_wait().unwrap().is_none(),
        "the first q is refused"
    );
    s.send("q");
    assert!(!s.wait_exit(), "exit status 1");
    s.assert_restored();
    let raw = s.wait_output("the record is not complete");
    let raw = String::from_utf8_lossy(&raw);
    assert!(!raw.contains("Record saved"), "{raw}");
    // The file holds the game up to the last action saved.
    let text = fs::read_to_string(moved.join("g.txt")).unwrap();
    assert_eq!(Record::parse(&text).unwrap().actions(), [place("c3")]);
}
