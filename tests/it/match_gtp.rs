//! `quentin match --opponent gtp` from the outside: a match against our own `quentin gtp` (its
//! conversation logged, the swap both ways, only commands that d5e668d's build knew), and fake
//! engines written as tiny shell scripts that play an illegal action, send garbage or answers to
//! nothing, exit, resign, hang or refuse the setup. Each loses its game with the reason named, and no process of the
//! engine's is left running, also when the match is interrupted.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common;
use crate::scratch;

use common::stdout_json;

use scratch::{Scratch, scratch};

/// Long enough for a loaded 2-core machine; only there to turn a hang into a failure.
const HANG: Duration = Duration::from_secs(120);

/// The commands of the GTP engine of commit d5e668d (`git show d5e668d:src/cli/gtp.rs`): the
/// referee must speak no other, so that a build of it can be the opponent.
const OLD_COMMANDS: [&str; 18] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "set_game",
    "boardsize",
    "set_pie",
    "set_pieces",
    "clear_board",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "final_score",
    "showboard",
    "time_settings",
    "quit",
];

/// A fake engine: every command succeeds, `genmove` does what its argument says. It notes its
/// process id in `pids`, and the id of the `sleep` it starts when it hangs in `sleepers`. At
/// its start it notes in `unreaped` every engine before it that still exists, even as a zombie:
/// the referee must have waited for it.
const FAKE: &str = r#"
for p in $(cat pids 2>/dev/null); do [ -e /proc/$p ] && echo $p >> unreaped; done
echo $$ >> pids
while read -r id cmd rest; do
  case "$cmd" in
    genmove)
      case "$1" in
        illegal|chatter) printf '=%s a1\n\n' "$id" ;;
        garbage) printf 'hello there\n\n' ;;
        exit) exit 3 ;;
        resign) printf '=%s resign\n\n' "$id" ;;
        hang) sleep 997 & echo $! >> sleepers; wait ;;
      esac ;;
    boardsize)
      if [ "$1" = refuse ]; then printf '?%s unacceptable size\n\n' "$id"
      else printf '=%s\n\n' "$id"; fi ;;
    play)
      printf '=%s\n\n' "$id"
      if [ "$1" = chatter ]; then printf '=999 c3\n\n'; fi ;;
    quit) printf '=%s\n\n' "$id"; exit 0 ;;
    *) printf '=%s\n\n' "$id" ;;
  esac
done
"#;

/// A `quentin match` on Quentin 5×5 at 2000 playouts a move, run in `dir`.
fn match_command(dir: &Path, opponent: &str, extra: &[&str]) -> Command {
    match_command_at(dir, opponent, "5", extra)
}

/// [`match_command`] on a board of `size`.
fn match_command_at(dir: &Path, opponent: &str, size: &str, extra: &[&str]) -> Command {
    let mut cmd = crate::isolated::quentin();
    cmd.current_dir(dir)
        .args(["match", "--game", "quentin", "--size", size])
        .args(["--playouts", "2000", "--threads", "1", "--seed", "3"])
        .args(["--opponent", "gtp", "--opponent-command", opponent])
        .args(extra);
    cmd
}

/// A scratch directory holding the fake engine.
fn with_fake() -> Scratch {
    let dir = scratch("match-gtp");
    std::fs::write(dir.join("fake.sh"), FAKE).unwrap();
    dir
}

/// Plays `games` games against the fake engine in mode `mode`; returns the JSON report.
fn fake_match(dir: &Path, mode: &str, games: &str, seconds: &str) -> Value {
    let out = common::run_guarded(
        match_command(
            dir,
            &format!("sh fake.sh {mode}"),
            &["--games", games, "--opponent-seconds", seconds, "--json"],
        ),
        HANG,
    );
    stdout_json(&out)
}

/// The process ids a fake engine noted in `file` of `dir`.
fn noted(dir: &Path, file: &str) -> Vec<u32> {
    std::fs::read_to_string(dir.join(file))
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

/// Whether process `pid` is alive and is still the one whose command line holds `mark`
/// (a process id can be used again by another program).
fn running(pid: u32, mark: &str) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let ours = String::from_utf8_lossy(&cmdline).contains(mark);
    // After the name in parentheses: the state; Z is a dead process not yet reaped.
    let state = stat.rsplit(')').next().unwrap_or("").trim_start();
    ours && !state.starts_with('Z')
}

/// Checks that no engine of `dir`'s fake is left: each engine dead, and reaped before the next
/// game's started, each `sleep` it started dead.
fn nothing_left(dir: &Path) {
    let engines = noted(dir, "pids");
    assert!(!engines.is_empty(), "the fake engine never started");
    for pid in engines {
        assert!(!running(pid, "fake.sh"), "engine {pid} left running");
    }
    assert_eq!(
        noted(dir, "unreaped"),
        Vec::<u32>::new(),
        "an engine left as a zombie"
    );
    for pid in noted(dir, "sleepers") {
        assert!(
            !running(pid, "997"),
            "the engine's sleep {pid} left running"
        );
    }
}

/// The forfeits of a report: (game, loser, reason).
fn forfeits(v: &Value) -> Vec<(u64, String, String)> {
    v["forfeits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["game"].as_u64().unwrap(),
                f["loser"].as_str().unwrap().to_string(),
                f["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Every game was lost by the opponent, by forfeit, for a reason containing each of `words`.
fn every_game_forfeited(v: &Value, games: u64, words: &[&str]) {
    assert_eq!(v["games"], games);
    assert_eq!(v["wins"], games);
    let forfeits = forfeits(v);
    assert_eq!(forfeits.len() as u64, games, "{forfeits:?}");
    for (i, (game, loser, reason)) in forfeits.iter().enumerate() {
        assert_eq!(*game, i as u64 + 1);
        assert_eq!(loser, "opponent");
        for word in words {
            assert!(reason.contains(word), "{reason:?} lacks {word:?}");
        }
    }
}

#[test]
fn a_match_against_our_own_gtp_engine_swaps_both_ways_in_the_old_commands() {
    let dir = scratch("match-gtp");
    // The engine behind a shell pipeline that logs what it hears and what it says. A level below
    // full strength plays the same moves on every run (one thread, fixed playouts, the seed),
    // and keeps the search its ladder was measured with as full strength changes: level 7's
    // openings on 6×6, on both sides, are ones each side swaps in these four games. (On 5×5,
    // solved, level 7 plays the book's moves, which swap only the nine winning openings.)
    let engine = format!(
        "sh -c 'tee -a in.log | \"{}\" gtp --level 7 --threads 1 --seed 1 | tee -a out.log'",
        env!("CARGO_BIN_EXE_quentin")
    );
    let out = common::run_guarded(
        match_command_at(
            &dir,
            &engine,
            "6",
            &[
                "--level",
                "7",
                "--games",
                "4",
                "--opponent-seconds",
                "10",
                "--json",
            ],
        ),
        HANG,
    );
    let v = stdout_json(&out);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "game",
            "size",
            "pie",
            "computer",
            "level",
            "opponent",
            "opponent_command",
            "opponent_level",
            "games",
            "wins",
            "losses",
            "draws",
            "win_rate",
            "elo",
            "elo_low",
            "elo_high",
            "forfeits"
        ]
    );
    assert_eq!(v["opponent_command"], engine.as_str());
    assert_eq!(
        v["opponent"],
        format!("GTP engine `{engine}` at 10 s a move").as_str()
    );
    assert!(v["opponent_level"].is_null());
    assert_eq!(v["games"], 4);
    let (w, l, d) = (
        v["wins"].as_u64().unwrap(),
        v["losses"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
    );
    assert_eq!(w + l + d, 4);
    assert_eq!(forfeits(&v), Vec::new());
    let heard = std::fs::read_to_string(dir.join("in.log")).unwrap();
    let said = std::fs::read_to_string(dir.join("out.log")).unwrap();
    // Each game its own engine, set up and told the time. (Whether `quit` reaches the log
    // before the engine's group is killed is a race of `tee`'s, not counted.)
    for (command, count) in [
        ("set_game quentin", 4),
        ("boardsize 6", 4),
        ("set_pie on", 4),
        ("time_settings 0 10 1", 4),
    ] {
        let n = heard.lines().filter(|l| l.ends_with(command)).count();
        assert_eq!(n, count, "{command}");
    }
    for line in heard.lines() {
        let name = line.split_whitespace().nth(1).unwrap();
        assert!(OLD_COMMANDS.contains(&name), "{line}");
    }
    // The swap both ways: the computer's told to the engine, the engine's accepted.
    assert!(heard.contains(" play w swap\n"), "{heard}");
    assert!(said.lines().any(|l| l.ends_with(" swap")), "{said}");
}

#[test]
fn an_illegal_action_loses_the_game() {
    let dir = with_fake();
    let v = fake_match(&dir, "illegal", "2", "1");
    every_game_forfeited(&v, 2, &["illegal action a1", "occupied"]);
    nothing_left(&dir);
}

#[test]
fn garbage_for_an_answer_loses_the_game() {
    let dir = with_fake();
    let v = fake_match(&dir, "garbage", "2", "1");
    every_game_forfeited(&v, 2, &["genmove", "\"hello there\"", "not a GTP answer"]);
    nothing_left(&dir);
}

#[test]
fn an_answer_to_no_command_loses_the_game() {
    let dir = with_fake();
    // After each `play` the engine says more: the next answer read has another command's id.
    let v = fake_match(&dir, "chatter", "2", "1");
    every_game_forfeited(&v, 2, &["genmove", "\"=999 c3\"", "not a GTP answer"]);
    nothing_left(&dir);
}

#[test]
fn an_engine_that_exits_mid_game_loses_it_and_the_match_goes_on() {
    let dir = with_fake();
    let out = common::run_guarded(
        match_command(&dir, "sh fake.sh exit", &["--games", "2"]),
        HANG,
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("2 won, 0 lost, 0 drawn"), "{text}");
    for game in ["Game 1", "Game 2"] {
        let line = text.lines().find(|l| l.starts_with(game)).unwrap();
        assert!(
            line.contains("the opponent lost by forfeit: exited (exit status: 3) during `genmove"),
            "{line}"
        );
    }
    assert_eq!(noted(&dir, "pids").len(), 2, "one engine a game");
    nothing_left(&dir);
}

#[test]
fn a_resignation_loses_the_game() {
    let dir = with_fake();
    let v = fake_match(&dir, "resign", "1", "1");
    every_game_forfeited(&v, 1, &["resigned"]);
    nothing_left(&dir);
}

#[test]
fn a_hang_loses_the_game_at_the_deadline_and_the_engine_and_its_children_are_killed() {
    let dir = with_fake();
    // 0.01 s a move: the deadline is 5.1 s.
    let v = fake_match(&dir, "hang", "1", "0.01");
    every_game_forfeited(&v, 1, &["did not answer `genmove", "within 5.1 s"]);
    assert_eq!(noted(&dir, "sleepers").len(), 1);
    nothing_left(&dir);
}

#[test]
fn an_interrupted_match_ends_its_engine_and_reports_the_games_played() {
    let dir = with_fake();
    // Ten seconds a move: the deadline is far, the engine hangs until the interruption.
    let child = match_command(
        &dir,
        "sh fake.sh hang",
        &["--games", "2", "--opponent-seconds", "10", "--json"],
    )
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let started = Instant::now();
    while noted(&dir, "sleepers").is_empty() {
        assert!(started.elapsed() < HANG, "the engine never hung");
        std::thread::sleep(Duration::from_millis(20));
    }
    // A signal to the child this test started and has not yet waited for.
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = wait_guarded(child);
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("match interrupted after 0 of 2 games"),
        "{err}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 0);
    nothing_left(&dir);
}

/// Waits for `child`, killing it should it outlive [`HANG`].
fn wait_guarded(child: std::process::Child) -> Output {
    let pid = child.id();
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let hung = finished.recv_timeout(HANG).is_err();
        if hung {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
        hung
    });
    let out = child.wait_with_output().unwrap();
    let _ = done.send(());
    assert!(!watchdog.join().unwrap(), "quentin hung");
    out
}

#[test]
fn an_engine_that_refuses_the_setup_or_cannot_start_stops_the_match() {
    let dir = with_fake();
    let out = common::run_guarded(
        match_command(&dir, "sh fake.sh refuse", &["--games", "3"]),
        HANG,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the opponent refused `boardsize 5`: unacceptable size"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert_eq!(noted(&dir, "pids").len(), 1, "no second engine");
    nothing_left(&dir);
    let out = common::run_guarded(
        match_command(&dir, "./no-such-engine gtp", &["--games", "1"]),
        HANG,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot start ./no-such-engine"), "{err}");
}

#[test]
fn wrong_opponent_options_are_usage_errors() {
    let dir = scratch("match-gtp");
    for (args, expected) in [
        (
            vec!["match", "--opponent", "gtp"],
            "--opponent gtp needs --opponent-command",
        ),
        (
            vec!["match", "--opponent-command", "x"],
            "add --opponent gtp",
        ),
        (
            vec!["match", "--opponent", "gtp", "--opponent-command", "'x"],
            "cannot read --opponent-command",
        ),
        (
            vec![
                "match",
                "--opponent",
                "gtp",
                "--opponent-command",
                "x",
                "--opponent-playouts",
                "5",
            ],
            "a GTP engine is given seconds a move",
        ),
    ] {
        let mut cmd = crate::isolated::quentin();
        cmd.current_dir(&dir).args(&args);
        let out = common::run_guarded(cmd, HANG);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}
