//! Every program a test starts runs with its own home, data, configuration, state and cache
//! directories, whatever the caller's `HOME` and `XDG_*` say: a test of the suite never reads
//! or writes a user's games, puzzle rating or settings. Unless a test names its own (a scratch
//! directory, or an empty value to test the refusal), each is a path below `/dev/null`, which
//! nobody can make, root included: a program that would write there fails the test instead of
//! writing into somebody's files. The test at the end runs part of the suite again with the
//! caller's directories pointed at a watched directory and finds it untouched.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

use portable_pty::CommandBuilder;

use crate::scratch::scratch;

/// The variables every program of the tests gets, and their values when a test names none.
pub const ISOLATED: [(&str, &str); 5] = [
    ("HOME", "/dev/null/quentin-tests/home"),
    ("XDG_DATA_HOME", "/dev/null/quentin-tests/data"),
    ("XDG_CONFIG_HOME", "/dev/null/quentin-tests/config"),
    ("XDG_STATE_HOME", "/dev/null/quentin-tests/state"),
    ("XDG_CACHE_HOME", "/dev/null/quentin-tests/cache"),
];

/// The program under test, isolated: a test's own `.env(…)` calls after this one win.
pub fn quentin() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_quentin"));
    isolate(&mut command);
    command
}

/// Gives `command` (a shell that starts the program, say) the isolated directories it was not
/// given.
pub fn isolate(command: &mut Command) {
    let given: Vec<&OsStr> = command.get_envs().map(|(key, _)| key).collect();
    let missing: Vec<(&str, &str)> = ISOLATED
        .into_iter()
        .filter(|(key, _)| !given.contains(&OsStr::new(key)))
        .collect();
    command.envs(missing);
}

/// The same for a command run in a pseudo-terminal, whose data directory is `data` unless
/// the test named one. A `CommandBuilder` starts with a copy of the caller's environment: a
/// value the same as the caller's is the caller's, not the test's, and is replaced.
pub fn isolate_pty(command: &mut CommandBuilder, data: &Path) {
    for (key, value) in ISOLATED {
        let inherited = command.get_env(key).map(OsStr::to_os_string) == std::env::var_os(key);
        if inherited {
            match key {
                "XDG_DATA_HOME" => command.env(key, data),
                _ => command.env(key, value),
            }
        }
    }
}

/// Set in the copy of the suite that the test below runs, so that it does not run itself.
const CHILD: &str = "QUENTIN_TESTS_WATCHED";

/// The parts of the suite that play, save, resume, rate puzzles, keep a course's stars and review: those that would
/// touch a user's data if anything did. The servers keep their data where they are told.
const PARTS: [&str; 9] = [
    "games::",
    "learn::",
    "tui::",
    "puzzle_tui::",
    "puzzles::",
    "review_tui::",
    "start_from::",
    "safety::",
    "cli::",
];

#[test]
fn the_suite_leaves_the_callers_home_and_data_directories_untouched() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let watched = scratch("watched-home");
    let mut before = Vec::new();
    for (key, _) in ISOLATED {
        let dir = watched.join(key);
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("mine.txt"), key).unwrap();
    }
    listing(&watched, &mut before);
    let mut run = Command::new(std::env::current_exe().unwrap());
    run.args(PARTS)
        .arg("--test-threads=2")
        .env(CHILD, "1")
        .envs(ISOLATED.map(|(key, _)| (key, watched.join(key))));
    let out = crate::common::run_guarded(run, std::time::Duration::from_secs(600));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the suite's parts failed:\n{said}");
    assert!(said.contains("test result: ok"), "{said}");
    let mut after = Vec::new();
    listing(&watched, &mut after);
    assert_eq!(
        after, before,
        "the suite wrote into the caller's directories"
    );
}

/// Every file below `dir` with its contents, in order.
fn listing(dir: &Path, into: &mut Vec<(String, Vec<u8>)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            into.push((path.display().to_string(), Vec::new()));
            listing(&path, into);
        } else {
            into.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
}
