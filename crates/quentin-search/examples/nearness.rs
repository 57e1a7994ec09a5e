//! How near the fight each level plays: a level against itself, one thread, its own playouts,
//! a seed per game; printed per level, the share of its placements next to a stone already on
//! the board (one of the eight points around), and within two points. The first placement of
//! a game (on an empty board) is not counted.
//!
//! ```text
//! cargo run --release -p quentin-search --example nearness -- GAME SIZE GAMES [LEVEL...]
//! ```
//!
//! docs/engine-strength.md records the command run and its result.

use std::sync::atomic::AtomicBool;

use quentin_rules::{Action, Game, Setup};
use quentin_search::{Budget, Level, Limits, Searcher, near_stones};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = match args.first().map(String::as_str) {
        Some("konobi") => Game::Konobi,
        Some("brique") => Game::Brique,
        Some("quint") => Game::Quint,
        _ => Game::Quentin,
    };
    let size: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(9);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut levels: Vec<u8> = args[3.min(args.len())..]
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect();
    if levels.is_empty() {
        levels = (1..=10).collect();
    }
    println!("level,placements,next_to_a_stone,within_two");
    for n in levels {
        let Some(level) = Level::new(n) else {
            continue;
        };
        let (mut placed, mut next, mut two) = (0u64, 0u64, 0u64);
        for seed in 1..=games {
            let mut pos = Setup {
                size,
                ..Setup::new(game)
            }
            .start()
            .expect("a size of the game");
            let mut searcher = Searcher::new(Limits {
                // Level 10 at a fixed budget, so that the figure does not hang on the load.
                budget: Budget::Playouts(if level.is_full() { 100_000 } else { u64::MAX }),
                threads: 1,
                seed: Some(seed),
                nodes: 0,
                level,
            });
            while !pos.is_over() {
                let report = searcher.search(&pos, &AtomicBool::new(false), |_| {});
                let Some(action) = report.best else { break };
                if matches!(action, Action::Place(_)) && pos.board().count() != [0, 0] {
                    placed += 1;
                    next += u64::from(near_stones(&pos, action, 1));
                    two += u64::from(near_stones(&pos, action, 2));
                }
                pos.play(action).expect("the search plays legal actions");
                searcher.advance(action);
            }
        }
        let share = |k: u64| k as f64 / placed.max(1) as f64;
        println!("{n},{placed},{:.3},{:.3}", share(next), share(two));
    }
}
