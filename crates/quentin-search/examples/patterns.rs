//! The data behind the search's learned patterns ([`quentin_search::patterns`]) and their fit.
//!
//! `play` plays self-play games of the search, one thread, a fixed number of playouts a move
//! and a seed per game (the same command gives the same games within one version of the
//! program), and counts for every pattern (its canonical key, and whether the placement is
//! next to the stone placed last) how often a placement of it was legal and how often the
//! search chose one: lines `key,near,chosen,legal`.
//!
//! `fit` adds up such files and prints each pattern's share of virtual wins, the table the
//! program ships (`src/patterns/GAME.txt`). A pattern's rate (chosen over legal, drawn towards
//! its kind's rate by `PSEUDO` placements) is mapped on a log scale onto the shares of the
//! prior without patterns: a placement as likely to be chosen as the average one next to the
//! last stone gets that prior's near share, one as likely as the average one further away its
//! far share, and the others in proportion, within 0.25 and 0.85.
//!
//! ```text
//! cargo run --release -p quentin-search --example patterns -- \
//!     play GAME SIZE PLAYOUTS FIRST_SEED GAMES > GAME.counts
//! cargo run --release -p quentin-search --example patterns -- fit NEAR FAR *.counts
//! ```
//!
//! docs/engine-strength.md records the commands run and the matches that judged the table.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::AtomicBool;

use quentin_rules::{Action, Game, Point};
use quentin_search::patterns::{canonical, key};

mod self_play;
use self_play::number;

/// Placements at the kind's rate a pattern's rate is drawn towards.
const PSEUDO: f64 = 20.0;
/// Patterns seen legal fewer times are left out of the table (the kind's share stands).
const MIN_LEGAL: u64 = 30;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("play") => play(&args[1..]),
        Some("fit") => fit(&args[1..]),
        _ => Err(
            "usage: patterns play GAME SIZE PLAYOUTS FIRST_SEED GAMES | fit NEAR FAR FILE…".into(),
        ),
    }
}

/// Whether `p` is within a king's step of the stone placed last (the prior's reach of Quentin
/// and Brique).
fn is_near(p: Point, last: Option<Point>) -> bool {
    last.is_some_and(|l| l.col().abs_diff(p.col()) <= 1 && l.row().abs_diff(p.row()) <= 1)
}

/// Plays the games and prints the counts.
fn play(args: &[String]) -> Result<(), String> {
    let game = args
        .first()
        .and_then(|g| Game::from_name(g))
        .filter(|&g| g != Game::Quint)
        .ok_or("GAME: quentin, konobi or brique")?;
    let size: usize = number(args, 1, "SIZE")?;
    let playouts: u64 = number(args, 2, "PLAYOUTS")?;
    let first: u64 = number(args, 3, "FIRST_SEED")?;
    let games: u64 = number(args, 4, "GAMES")?;
    let start = self_play::start(game, size)?;
    let stop = AtomicBool::new(false);
    // (key, near) → (chosen, legal)
    let mut counts: BTreeMap<(u16, bool), (u64, u64)> = BTreeMap::new();
    for seed in first..first + games {
        let mut searcher = self_play::searcher(playouts, seed);
        let mut position = start.clone();
        let mut last = None;
        while !position.is_over() {
            let report = searcher.search(&position, &stop, |_| {});
            let Some(best) = report.best else { break };
            if let (Action::Place(chosen), Some(mover)) = (best, position.to_move()) {
                for action in position.legal_actions() {
                    let Action::Place(p) = action else { continue };
                    let class = canonical(key(position.board(), p, mover));
                    let entry = counts.entry((class, is_near(p, last))).or_default();
                    entry.1 += 1;
                    entry.0 += u64::from(p == chosen);
                }
            }
            last = match best {
                Action::Place(p) => Some(p),
                _ => None,
            };
            position.play(best).map_err(|e| e.to_string())?;
            searcher.advance(best);
        }
    }
    let mut out = std::io::stdout().lock();
    for ((class, near), (chosen, legal)) in counts {
        writeln!(out, "{class},{},{chosen},{legal}", u8::from(near)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Adds up the files and prints the table.
fn fit(args: &[String]) -> Result<(), String> {
    let near_share: f64 = number(args, 0, "NEAR")?;
    let far_share: f64 = number(args, 1, "FAR")?;
    let mut counts: BTreeMap<(u16, usize), (u64, u64)> = BTreeMap::new();
    for file in &args[2..] {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for line in text.lines().filter(|l| !l.is_empty()) {
            let bad = || format!("{file}: a bad line: {line}");
            let f: Vec<u64> = line
                .split(',')
                .map(|x| x.parse().map_err(|_| bad()))
                .collect::<Result<_, _>>()?;
            let [class, near, chosen, legal] = f[..] else {
                return Err(bad());
            };
            let entry = counts
                .entry((u16::try_from(class).map_err(|_| bad())?, near as usize))
                .or_default();
            entry.0 += chosen;
            entry.1 += legal;
        }
    }
    // The rate of each kind, near the last stone or not.
    let mut kinds = [(0u64, 0u64); 2];
    for (&(_, near), &(chosen, legal)) in &counts {
        kinds[near].0 += chosen;
        kinds[near].1 += legal;
    }
    let rate = |(chosen, legal): (u64, u64)| chosen as f64 / legal.max(1) as f64;
    let (far_rate, near_rate) = (rate(kinds[0]), rate(kinds[1]));
    if far_rate <= 0.0 || near_rate <= far_rate {
        return Err("too few games: the rates near and far are not told apart".into());
    }
    let slope = (near_share - far_share) / (near_rate / far_rate).ln();
    let mut out = std::io::stdout().lock();
    let say =
        |out: &mut std::io::StdoutLock, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    say(
        &mut out,
        format!(
            "# {} chosen of {} legal far from the last stone ({far_rate:.5}), {} of {} near \
             ({near_rate:.5}); shares {far_share} and {near_share}",
            kinds[0].0, kinds[0].1, kinds[1].0, kinds[1].1
        ),
    )?;
    for (&(class, near), &(chosen, legal)) in &counts {
        if legal < MIN_LEGAL {
            continue;
        }
        let kind_rate = if near == 1 { near_rate } else { far_rate };
        let rate = (chosen as f64 + PSEUDO * kind_rate) / (legal as f64 + PSEUDO);
        let share = (far_share + slope * (rate / far_rate).ln()).clamp(0.25, 0.85);
        say(&mut out, format!("{class},{near},{share:.3}"))?;
    }
    Ok(())
}
