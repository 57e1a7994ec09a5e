//! criterion benchmarks of the search: one search of a fixed number of playouts from the empty
//! 9×9 board of each connection game and from Quint's start, and how long a running search takes
//! to end once stopped. Run with `cargo bench --bench search`.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use quentin::rules::{Game, Setup};
use quentin::search::{Budget, Limits, Searcher, Thinker};

/// Playouts of the measured search.
const PLAYOUTS: u64 = 2_000;

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.measurement_time(Duration::from_secs(5));
    group.sample_size(20);
    for game in Game::ALL {
        let setup = Setup {
            size: if game == Game::Quint { 8 } else { 9 },
            ..Setup::new(game)
        };
        let start = setup.start().unwrap();
        let limits = Limits {
            budget: Budget::Playouts(PLAYOUTS),
            threads: 1,
            seed: Some(1),
            nodes: 0,
            ..Limits::default()
        };
        group.bench_function(format!("{game}_{PLAYOUTS}_playouts"), |b| {
            b.iter(|| {
                let mut searcher = Searcher::new(limits);
                black_box(searcher.search(&start, &AtomicBool::new(false), |_| {}))
            });
        });
    }
    group.finish();
}

/// From `stop()` to the final report in hand, for a search of Quentin 13×13 on two threads.
fn stop_latency(c: &mut Criterion) {
    let start = Setup::new(Game::Quentin).start().unwrap();
    let mut group = c.benchmark_group("stop");
    group.sample_size(20);
    group.bench_function("stop_to_report", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let limits = Limits {
                    budget: Budget::Unlimited,
                    threads: 2,
                    ..Limits::default()
                };
                let thinker = Thinker::start(start.clone(), limits);
                while thinker.report().is_none() {
                    std::thread::yield_now();
                }
                let clock = Instant::now();
                thinker.stop();
                black_box(thinker.finish());
                total += clock.elapsed();
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, search, stop_latency);
criterion_main!(benches);
