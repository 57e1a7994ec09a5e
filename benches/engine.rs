//! criterion benchmarks of the rules engine through its public API, for Quentin 13×13, Konobi
//! 11×11 and Brique 15×15: one legality check, one `play`, all legal actions of a mid-game
//! position, the play of a winning move (where the win is detected), and one random playout.
//! Run with `cargo bench --bench engine`.
//!
//! The positions are fixed: a mid-game position is the one after 60 actions of a random game
//! (pie rule off), and the winning move is the last action of such a game played to its end.
//! Their actions are picked by a xorshift sequence written here, not by the program's own
//! generator, so that the positions stay the same when that generator changes and a version
//! can be compared with an earlier one on the very same positions.

/// The integration tests' `common` module (the reference games), from its own folder.
#[path = "../tests/it"]
mod it {
    pub mod common;
}

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use it::common::random_game;
use quentin::rules::{Action, Game, Position, Setup};
use quentin::search::playout;
use quentin::search::rng::Rng;

/// Actions played before the mid-game position.
const MID_GAME: usize = 60;

/// The setups measured: each game on its default board, pie rule off.
fn setups() -> [Setup; 3] {
    [Game::Quentin, Game::Konobi, Game::Brique].map(|game| Setup {
        pie: false,
        ..Setup::new(game)
    })
}

/// A random game of `setup` from `seed`, of at most `max_actions` actions: every position from
/// the start, and the actions.
fn fixed_game(setup: Setup, seed: u64, max_actions: usize) -> (Vec<Position>, Vec<Action>) {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let choices: Vec<u32> = (0..max_actions.min(4 * 26 * 26))
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u32
        })
        .collect();
    random_game(setup, &choices)
}

/// The position after `MID_GAME` actions of the first fixed random game still going then.
fn mid_game(setup: Setup) -> Position {
    (0..)
        .map(|seed| fixed_game(setup, seed, MID_GAME).0)
        .find(|positions| positions.len() == MID_GAME + 1 && !positions[MID_GAME].is_over())
        .and_then(|mut positions| positions.pop())
        .expect("some fixed game lasts past the mid-game")
}

/// The position before the last action of a fixed random game, and that winning action.
fn before_the_win(setup: Setup) -> (Position, Action) {
    let (mut positions, actions) = fixed_game(setup, 1, usize::MAX);
    let end = positions.pop().expect("a game has an end");
    assert!(end.is_over(), "the game ends in a win");
    let before = positions.pop().expect("a game has a last action");
    let action = *actions.last().expect("a game has a last action");
    (before, action)
}

/// A legal placement of `pos`, the middle one of its list: not a corner case.
fn some_placement(pos: &Position) -> Action {
    let placements: Vec<Action> = pos
        .legal_actions()
        .into_iter()
        .filter(|a| a.point().is_some())
        .collect();
    placements[placements.len() / 2]
}

fn engine(c: &mut Criterion) {
    for setup in setups() {
        let mut group = c.benchmark_group(format!("{}-{}", setup.game, setup.size));
        let mid = mid_game(setup);
        let placement = some_placement(&mid);
        group.bench_function("is_legal", |b| {
            b.iter(|| black_box(&mid).is_legal(black_box(placement)));
        });
        group.bench_function("preview", |b| {
            b.iter(|| black_box(&mid).preview(black_box(placement)));
        });
        group.bench_function("clone", |b| b.iter(|| black_box(&mid).clone()));
        group.bench_function("play", |b| {
            b.iter_batched_ref(
                || mid.clone(),
                |pos| pos.play(black_box(placement)),
                BatchSize::SmallInput,
            );
        });
        group.bench_function("legal_actions", |b| {
            b.iter(|| black_box(&mid).legal_actions());
        });
        let (before, winning) = before_the_win(setup);
        group.bench_function("play_winning_move", |b| {
            b.iter_batched_ref(
                || before.clone(),
                |pos| {
                    pos.play(black_box(winning))
                        .expect("the winning move plays");
                    pos.outcome().is_some()
                },
                BatchSize::SmallInput,
            );
        });
        let start = setup.start().expect("default setups are valid");
        let mut rng = Rng::new(7);
        group.bench_function("playout", |b| {
            b.iter_batched_ref(
                || start.clone(),
                |pos| playout::uniform(pos, &mut rng),
                BatchSize::SmallInput,
            );
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = engine
}
criterion_main!(benches);
