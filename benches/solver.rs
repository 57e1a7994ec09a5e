//! criterion benchmarks of the exact solver: a fixed set of positions of each game, from
//! seeded random games, each solved at a fixed depth. Each game is measured twice over the same
//! work, so that criterion reports both rates: positions proved (or refuted) a second, and
//! positions created (the solver's nodes) a second. Run with `cargo bench --bench solver`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quentin::rules::{Game, Position, Setup};
use quentin::search::rng::Rng;
use quentin::search::solver::{SolveLimits, SolveOptions, solve, solve_in};

/// Positions in each game's set.
const POSITIONS: usize = 24;

/// The set of `game`: positions of seeded random games (pie off), taken once a third of the
/// board is covered (Quint: once the pieces are dropped), one a game, and the depth they are
/// solved at.
fn positions(game: Game) -> (Vec<Position>, usize) {
    let (setup, depth) = match game {
        Game::Quint => (
            Setup {
                pieces: 15,
                ..Setup::new(game)
            },
            2,
        ),
        _ => (
            Setup {
                size: 7,
                pie: false,
                ..Setup::new(game)
            },
            3,
        ),
    };
    let mut rng = Rng::new(0x5017_be4c);
    let mut set = Vec::new();
    while set.len() < POSITIONS {
        // ok: the bench's setups are the games' own, which always start.
        let mut pos = setup.start().unwrap();
        while !pos.is_over() {
            let ready = match pos.in_hand() {
                Some(hand) => hand == [0, 0],
                None => pos.on_board().iter().sum::<usize>() * 3 >= 49,
            };
            if ready {
                set.push(pos);
                break;
            }
            let legal = pos.legal_actions();
            // ok: one of the position's own legal actions.
            pos.play(legal[rng.below(legal.len())]).unwrap();
        }
    }
    (set, depth)
}

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver");
    group.measurement_time(Duration::from_secs(5));
    group.sample_size(10);
    for game in Game::ALL {
        let (set, depth) = positions(game);
        let limits = SolveLimits {
            depth: Some(depth),
            ..SolveLimits::default()
        };
        let nodes: u64 = set.iter().map(|p| solve(p, &limits).nodes).sum();
        let run = || {
            for p in &set {
                black_box(solve(p, &limits));
            }
        };
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_function(format!("{game}_depth_{depth}_positions"), |b| b.iter(run));
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{game}_depth_{depth}_nodes"), |b| b.iter(run));
    }
    group.finish();
}

/// The solve of `pos` on `threads` threads (each with its own table, sharing the first moves).
fn on_threads(pos: &Position, limits: &SolveLimits, threads: usize) -> u64 {
    let options = SolveOptions {
        threads,
        ..SolveOptions::default()
    };
    solve_in(pos, limits, options).nodes
}

/// The connection games' sets on one thread and on two, through the same entry point: nodes a
/// second for each (two threads make more nodes for the same set, each with its own table).
fn threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver_threads");
    group.measurement_time(Duration::from_secs(5));
    group.sample_size(10);
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let (set, depth) = positions(game);
        let limits = SolveLimits {
            depth: Some(depth),
            ..SolveLimits::default()
        };
        for threads in [1, 2] {
            let nodes: u64 = set.iter().map(|p| on_threads(p, &limits, threads)).sum();
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(
                format!("{game}_depth_{depth}_nodes_{threads}_threads"),
                |b| {
                    b.iter(|| {
                        for p in &set {
                            black_box(on_threads(p, &limits, threads));
                        }
                    });
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, solver, threads);
criterion_main!(benches);
