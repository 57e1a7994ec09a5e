//! The search options shared by `gtp`, `analyze` and `match`: budget, threads, seed, nodes.
//! Each is checked as clap reads it, so a wrong value is a usage error (status 2).

use clap::Args;

use crate::search::{Budget, Level, Limits, MAX_NODES};

/// How much the computer may think.
#[derive(Args, Debug, Clone)]
pub(super) struct LimitArgs {
    /// Seconds of thinking a move (default 1).
    #[arg(long, value_name = "S", conflicts_with = "playouts", value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: Option<f64>,
    /// Playouts a move instead of a time: with --threads 1 and --seed, the same move every run.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    playouts: Option<u64>,
    /// Search threads, 1 to 256 (default: the machine's cores).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Seed of the playouts (default: a fresh one each run).
    #[arg(long, value_name = "K")]
    seed: Option<u64>,
    /// The most tree nodes kept, about 64 bytes each (default 2000000).
    #[arg(long, value_name = "N", value_parser = parse_nodes)]
    nodes: Option<usize>,
}

/// Reads a number of seconds: a duration from 0 to a day.
pub(super) fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        // No time is no search: a budget of 0 s would print 0 playouts as if it were an answer.
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "{text:?} is not a duration of more than 0 and at most 86400 seconds"
        )),
    }
}

/// Reads a count that must be at least one (`--playouts`, `--games`).
pub(super) fn parse_count(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{text:?} is not a whole number of at least 1")),
    }
}

/// Reads a level of play (`--level`): a whole number from 1 to 10.
pub(crate) fn parse_level(text: &str) -> Result<Level, String> {
    text.parse::<u8>().ok().and_then(Level::new).ok_or_else(|| {
        format!(
            "{text:?} is not a level: the levels are {} (the weakest) to {} (full strength)",
            Level::MIN.get(),
            Level::FULL.get()
        )
    })
}

/// Reads `--nodes`: from a thousand to the most a search may keep.
fn parse_nodes(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1000..=MAX_NODES).contains(&n) => Ok(n),
        _ => Err(format!("{text:?} is not a number from 1000 to {MAX_NODES}")),
    }
}

impl LimitArgs {
    /// The limits these options ask for: 1 s a move on every core, a fresh seed, unless told.
    pub(super) fn limits(&self) -> Limits {
        self.limits_or(Limits {
            budget: Budget::Seconds(1.0),
            threads: 0,
            seed: None,
            nodes: 0,
            level: Level::FULL,
        })
    }

    /// The limits these options ask for, each option not given taken from `default`.
    pub(super) fn limits_or(&self, default: Limits) -> Limits {
        Limits {
            budget: match (self.playouts, self.seconds) {
                (Some(n), _) => Budget::Playouts(n),
                (None, Some(s)) => Budget::Seconds(s),
                (None, None) => default.budget,
            },
            threads: self.threads.map_or(default.threads, usize::from),
            seed: self.seed.or(default.seed),
            nodes: self.nodes.unwrap_or(default.nodes),
            level: default.level,
        }
    }
}
