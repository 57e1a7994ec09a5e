//! `quentin bench`: how fast the rules engine plays random games.

use std::time::Duration;

use anyhow::Result;
use clap::Args;

use crate::bench::{self, Budget};
use crate::rules::{Game, Setup};
use crate::search::Policy;

use super::limits::parse_seconds;
use super::{GameArg, parse_number, usage_error, write_stdout};

#[derive(Args, Debug)]
pub(super) struct BenchArgs {
    /// The game to play.
    #[arg(long, value_enum, default_value = "quentin")]
    game: GameArg,
    /// Board side (default: the game's own).
    #[arg(long, value_name = "N", value_parser = parse_number)]
    size: Option<u64>,
    /// Play this many games.
    #[arg(long, value_name = "K", conflicts_with = "seconds")]
    playouts: Option<u64>,
    /// Play for this many seconds, 0 to 86400 (default 5).
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: Option<f64>,
    /// Seed of the random games: the same seed plays the same games.
    #[arg(long, value_name = "X", default_value_t = 1)]
    seed: u64,
    /// How the playouts choose: every legal action equally likely, or as the search plays them
    /// (Quint: a step, then every capture it may take; cut at a depth with an estimate).
    #[arg(long, value_enum, default_value = "uniform")]
    policy: PolicyArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub(super) fn bench(args: &BenchArgs) -> Result<()> {
    let game = Game::from(args.game);
    let mut setup = Setup::new(game);
    if let Some(size) = args.size {
        setup.size = Setup::check_size(game, size).map_err(usage_error)?;
    }
    setup.pie = false;
    let start = setup.start()?;
    let budget = match (args.playouts, args.seconds) {
        (Some(n), _) => Budget::Playouts(n),
        (None, Some(s)) => Budget::Time(Duration::from_secs_f64(s)),
        (None, None) => Budget::Time(Duration::from_secs(5)),
    };
    let policy = match args.policy {
        PolicyArg::Uniform => Policy::Uniform,
        PolicyArg::Search => Policy::Search,
    };
    let report = bench::run(setup, &start, args.seed, budget, policy);
    let out = if args.json {
        format!("{}\n", report.json())
    } else {
        report.text()
    };
    write_stdout(&out)
}

/// The playout policies as the command line names them.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum PolicyArg {
    /// Every legal action equally likely.
    Uniform,
    /// The search's own playouts.
    Search,
}
