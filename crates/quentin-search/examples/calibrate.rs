//! The data behind the calibrated win chances ([`quentin_search::Calibration`]) and its fit.
//!
//! `play` plays self-play games of the search, one thread, a fixed number of playouts a move
//! and a seed per game (the same command gives the same games within one version of the
//! program), and prints one CSV line per position searched: the raw win share of the side to
//! move, whether it was proved, and how the game ended for that side.
//!
//! `fit` reads such files and prints, per game, the mapping fitted on the games of even seed,
//! the reliability table and Brier score of the raw and calibrated chances on the games of odd
//! seed (held out), and the mapping fitted on all games, which the program ships.
//!
//! ```text
//! cargo run --release -p quentin-search --example calibrate -- \
//!     play GAME SIZE PLAYOUTS FIRST_SEED GAMES > GAME.csv
//! cargo run --release -p quentin-search --example calibrate -- fit *.csv
//! ```
//!
//! docs/calibration.md records the commands run and their results.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::AtomicBool;

use quentin_rules::Game;
use quentin_search::{Calibration, Proven};

mod self_play;
use self_play::number;

/// The CSV header of `play`.
const HEADER: &str = "game,size,playouts,seed,ply,raw,proven,outcome";

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("play") => play(&args[1..]),
        Some("fit") => fit(&args[1..]),
        _ => Err("usage: calibrate play GAME SIZE PLAYOUTS FIRST_SEED GAMES | fit FILE…".into()),
    }
}

/// Plays the games and prints their positions.
fn play(args: &[String]) -> Result<(), String> {
    let game = args
        .first()
        .and_then(|g| Game::from_name(g))
        .ok_or("GAME: quentin, konobi, brique or quint")?;
    let size: usize = number(args, 1, "SIZE")?;
    let playouts: u64 = number(args, 2, "PLAYOUTS")?;
    let first: u64 = number(args, 3, "FIRST_SEED")?;
    let games: u64 = number(args, 4, "GAMES")?;
    let start = self_play::start(game, size)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{HEADER}").map_err(|e| e.to_string())?;
    let stop = AtomicBool::new(false);
    for seed in first..first + games {
        let mut searcher = self_play::searcher(playouts, seed);
        let mut position = start.clone();
        // (ply, side to move, raw share, proved)
        let mut seen = Vec::new();
        while !position.is_over() {
            let report = searcher.search(&position, &stop, |_| {});
            let Some(best) = report.best else { break };
            seen.push((
                position.ply(),
                position.to_move(),
                report.win,
                report.proven,
            ));
            position.play(best).map_err(|e| e.to_string())?;
            searcher.advance(best);
        }
        let winner = position.outcome().and_then(|o| o.winner());
        for (ply, mover, raw, proven) in seen {
            let outcome = match winner {
                None => 0.5,
                Some(w) if Some(w) == mover => 1.0,
                Some(_) => 0.0,
            };
            let proven = proven.map_or("", Proven::name);
            writeln!(
                out,
                "{game},{size},{playouts},{seed},{ply},{raw:.4},{proven},{outcome}"
            )
            .map_err(|e| e.to_string())?;
        }
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// One position of the data.
struct Sample {
    seed: u64,
    raw: f64,
    outcome: f64,
}

/// Reads the files, fits and prints the tables.
fn fit(files: &[String]) -> Result<(), String> {
    let mut by_game: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for line in text.lines().filter(|l| *l != HEADER && !l.is_empty()) {
            let f: Vec<&str> = line.split(',').collect();
            let [game, _size, _playouts, seed, _ply, raw, proven, outcome] = f[..] else {
                return Err(format!("{file}: a bad line: {line}"));
            };
            // A proof is shown as it is: only the estimates are calibrated.
            if !proven.is_empty() {
                continue;
            }
            let parse = |s: &str| s.parse::<f64>().map_err(|e| format!("{file}: {e}"));
            by_game.entry(game.to_string()).or_default().push(Sample {
                seed: seed.parse().map_err(|_| format!("{file}: a bad seed"))?,
                raw: parse(raw)?,
                outcome: parse(outcome)?,
            });
        }
    }
    for (game, samples) in &by_game {
        let pairs = |odd: Option<bool>| -> Vec<(f64, f64)> {
            samples
                .iter()
                .filter(|s| odd.is_none_or(|o| (s.seed % 2 == 1) == o))
                .map(|s| (s.raw, s.outcome))
                .collect()
        };
        let (train, test) = (pairs(Some(false)), pairs(Some(true)));
        let games = |odd: bool| {
            let mut seeds: Vec<u64> = samples
                .iter()
                .filter(|s| (s.seed % 2 == 1) == odd)
                .map(|s| s.seed)
                .collect();
            seeds.dedup();
            seeds.len()
        };
        let half = Calibration::fit(&train);
        let all = Calibration::fit(&pairs(None));
        println!("## {game}\n");
        println!(
            "Fitted on {} positions of {} games (even seeds): slope {:.3}, offset {:.3}.",
            train.len(),
            games(false),
            half.slope,
            half.offset
        );
        println!(
            "Held out: {} positions of {} games (odd seeds).\n",
            test.len(),
            games(true)
        );
        table(&test, half);
        // The other way round: fitted on the odd seeds, judged on the even ones.
        let other = Calibration::fit(&test);
        let brier = |samples: &[(f64, f64)], c: Option<Calibration>| {
            let total: f64 = samples
                .iter()
                .map(|&(r, y)| (c.map_or(r, |c| c.chance(r)) - y).powi(2))
                .sum();
            total / samples.len().max(1) as f64
        };
        println!(
            "\nThe other way round (fitted on the odd seeds: slope {:.3}, offset {:.3}), on the \
             even seeds: raw {:.4}, calibrated {:.4}.",
            other.slope,
            other.offset,
            brier(&train, None),
            brier(&train, Some(other))
        );
        println!(
            "\nShipped, fitted on all {} positions: slope {:.3}, offset {:.3}.\n",
            samples.len(),
            all.slope,
            all.offset
        );
    }
    Ok(())
}

/// The reliability table of `samples` before and after `c`, and their Brier scores.
fn table(samples: &[(f64, f64)], c: Calibration) {
    const BINS: usize = 10;
    let bin = |p: f64| ((p * BINS as f64) as usize).min(BINS - 1);
    // per bin: count, sum of predictions, sum of outcomes; raw then calibrated
    let mut raw = [(0usize, 0.0, 0.0); BINS];
    let mut cal = [(0usize, 0.0, 0.0); BINS];
    let (mut brier_raw, mut brier_cal) = (0.0, 0.0);
    for &(r, y) in samples {
        let p = c.chance(r);
        brier_raw += (r - y) * (r - y);
        brier_cal += (p - y) * (p - y);
        for (bins, x) in [(&mut raw, r), (&mut cal, p)] {
            let b = &mut bins[bin(x)];
            b.0 += 1;
            b.1 += x;
            b.2 += y;
        }
    }
    let n = samples.len().max(1) as f64;
    println!(
        "| predicted | raw: n | raw: mean | raw: won | calibrated: n | calibrated: mean | calibrated: won |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let cell = |b: (usize, f64, f64)| {
        if b.0 == 0 {
            "0 | | ".to_string()
        } else {
            let k = b.0 as f64;
            format!(
                "{} | {:.0}% | {:.0}%",
                b.0,
                100.0 * b.1 / k,
                100.0 * b.2 / k
            )
        }
    };
    for i in 0..BINS {
        println!(
            "| {}–{}% | {} | {} |",
            i * 100 / BINS,
            (i + 1) * 100 / BINS,
            cell(raw[i]),
            cell(cal[i])
        );
    }
    println!(
        "\nBrier score on the held-out games: raw {:.4}, calibrated {:.4}.",
        brier_raw / n,
        brier_cal / n
    );
}
