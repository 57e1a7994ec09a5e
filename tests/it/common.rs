//! Helpers shared by the integration tests and benchmarks: random games, and straightforward
//! reference implementations of the connection games to compare the library against.
#![allow(dead_code)]

pub mod naive;
pub mod naive_brique;
pub mod naive_konobi;
pub mod reference;

use std::process::Output;

use quentin::rules::{Action, Game, Position, Setup};
use quentin::search::rng::Rng;

/// The games of Luis Bolaños Mures played by placing stones on points, which the naive
/// references cover.
pub const CONNECTION_GAMES: [Game; 3] = [Game::Quentin, Game::Konobi, Game::Brique];

/// Plays a random game: at each turn the action at `choice % legal.len()`, until the choices run
/// out or the game ends. Returns every position from the start and the actions played.
pub fn random_game(setup: Setup, choices: &[u32]) -> (Vec<Position>, Vec<Action>) {
    let mut choices = choices.iter();
    play_randomly(setup, |n| choices.next().map(|&c| c as usize % n))
}

/// Plays a game from `seed`, every legal action of a turn equally likely, for at most
/// `max_actions` actions or until the game ends. The same seed plays the same game. Returns
/// every position from the start and the actions played.
pub fn seeded_game(setup: Setup, seed: u64, max_actions: usize) -> (Vec<Position>, Vec<Action>) {
    let mut rng = Rng::new(seed);
    let mut left = max_actions;
    play_randomly(setup, |n| {
        left = left.checked_sub(1)?;
        Some(rng.below(n))
    })
}

/// Plays from the start of `setup`, `choose(n)` picking the index among the `n` legal actions,
/// until it returns `None` or the game ends.
fn play_randomly(
    setup: Setup,
    mut choose: impl FnMut(usize) -> Option<usize>,
) -> (Vec<Position>, Vec<Action>) {
    let mut pos = setup.start().expect("valid setup");
    let mut positions = vec![pos.clone()];
    let mut actions = Vec::new();
    loop {
        let legal = pos.legal_actions();
        if legal.is_empty() {
            break;
        }
        let Some(choice) = choose(legal.len()) else {
            break;
        };
        let action = legal[choice];
        pos.play(action).expect("a listed action plays");
        actions.push(action);
        positions.push(pos.clone());
    }
    (positions, actions)
}

/// A Quentin setup of `size` with the pie rule as given.
pub fn quentin(size: usize, pie: bool) -> Setup {
    Setup {
        size,
        pie,
        ..Setup::new(Game::Quentin)
    }
}

/// Runs `cmd` with no standard input, its output captured, and fails the test if it has not
/// ended after `hang` (long enough for a loaded machine: only there to turn a hang into a
/// failure). The output is drained while it runs, so a long output never blocks the program.
pub fn run_guarded(
    mut cmd: std::process::Command,
    hang: std::time::Duration,
) -> std::process::Output {
    use std::process::Stdio;
    use std::sync::mpsc;
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (done, finished) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let hung = finished.recv_timeout(hang).is_err();
        if hung {
            // The test fails below; end the program so that it does not outlive it.
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
        }
        hung
    });
    let output = child.wait_with_output().unwrap();
    let _ = done.send(());
    assert!(!watchdog.join().unwrap(), "quentin hung: {cmd:?}");
    output
}

/// The JSON a command printed, once it has succeeded (its error output shown when it has not).
pub fn stdout_json(out: &Output) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
