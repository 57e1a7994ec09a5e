//! The search options shared by `gtp`, `analyze` and `match`: budget, threads, seed, nodes.

use anyhow::{Result, bail};
use clap::Args;

use crate::search::{Budget, Limits, MAX_NODES};

/// How much the computer may think.
#[derive(Args, Debug, Clone)]
pub(super) struct LimitArgs {
    /// Seconds of thinking a move (default 1).
    #[arg(long, value_name = "S", conflicts_with = "playouts")]
    seconds: Option<f64>,
    /// Playouts a move instead of a time: with --threads 1 and --seed, the same move every run.
    #[arg(long, value_name = "N")]
    playouts: Option<u64>,
    /// Search threads (default: the machine's cores).
    #[arg(long, value_name = "T", default_value_t = 0)]
    threads: usize,
    /// Seed of the playouts (default: a fresh one each run).
    #[arg(long, value_name = "K")]
    seed: Option<u64>,
    /// The most tree nodes kept, about 40 bytes each (default 2000000).
    #[arg(long, value_name = "N")]
    nodes: Option<usize>,
}

/// Checks a time budget in seconds.
pub(super) fn seconds_budget(s: f64) -> Result<Budget> {
    if (0.0..=86_400.0).contains(&s) {
        Ok(Budget::Seconds(s))
    } else {
        bail!("--seconds {s} is not a duration from 0 to 86400")
    }
}

impl LimitArgs {
    /// The limits these options ask for.
    pub(super) fn limits(&self) -> Result<Limits> {
        let budget = match (self.playouts, self.seconds) {
            (Some(0), _) => bail!("--playouts must be at least 1"),
            (Some(n), _) => Budget::Playouts(n),
            (None, Some(s)) => seconds_budget(s)?,
            (None, None) => Budget::Seconds(1.0),
        };
        let nodes = match self.nodes {
            Some(n) if !(1000..=MAX_NODES).contains(&n) => {
                bail!("--nodes {n} is outside 1000 to {MAX_NODES}")
            }
            Some(n) => n,
            None => 0,
        };
        if self.threads > 256 {
            bail!("--threads {} is more than 256", self.threads);
        }
        Ok(Limits {
            budget,
            threads: self.threads,
            seed: self.seed,
            nodes,
        })
    }
}
