//! `quentin puzzles generate`: puzzles proved by the exact solver, one JSON object a line (the
//! search crate's `puzzles` module finds them; this only reads the options and prints).

use anyhow::Result;
use clap::{Args, Subcommand};
use serde_json::json;

use crate::search::puzzles::{Puzzle, PuzzleSpec, generate};

use super::GameOptions;
use super::limits::parse_count;

#[derive(Args, Debug)]
pub(super) struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
enum PuzzlesCommand {
    /// Play games of the greedy baseline player and keep the positions where the opponent's
    /// last move was the mistake and exactly one move wins at each step, as proved by the
    /// solver; one JSON object a line.
    Generate(GenerateArgs),
}

#[derive(Args, Debug)]
struct GenerateArgs {
    #[command(flatten)]
    game: GameOptions,
    /// How many puzzles, 1 to 10000.
    #[arg(long, value_name = "K", value_parser = parse_puzzle_count, default_value = "10")]
    count: usize,
    /// The seed of the games: the same seed, the same puzzles.
    #[arg(long, value_name = "S", default_value = "1")]
    seed: u64,
    /// The most moves of the puzzle's side, 1 to 4.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=4), default_value = "3")]
    depth: u8,
    /// The positions each solve may create (default 200000); a position whose solve runs out is
    /// not kept.
    #[arg(long, value_name = "N", value_parser = parse_count, default_value = "200000")]
    nodes: u64,
}

/// Reads `--count`: 1 to 10000.
fn parse_puzzle_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=10_000).contains(&n) => Ok(n),
        _ => Err(format!(
            "{text:?} is not a number of puzzles from 1 to 10000"
        )),
    }
}

pub(super) fn puzzles(args: &PuzzlesArgs) -> Result<()> {
    match &args.command {
        PuzzlesCommand::Generate(g) => {
            let spec = PuzzleSpec {
                setup: g.game.setup()?,
                count: g.count,
                seed: g.seed,
                max_depth: usize::from(g.depth),
                nodes: g.nodes,
                max_games: g.count.saturating_mul(100),
            };
            let mut failed = None;
            generate(&spec, |p| {
                if failed.is_none()
                    && let Err(e) = super::write_stdout(&format!("{}\n", line_of(p)))
                {
                    failed = Some(e);
                }
            });
            failed.map_or(Ok(()), Err)
        }
    }
}

/// A puzzle as one JSON object, in the fields of issue 49's export.
fn line_of(p: &Puzzle) -> String {
    let tokens = |actions: &[crate::rules::Action]| -> Vec<String> {
        actions.iter().map(ToString::to_string).collect()
    };
    json!({
        "game": p.setup.game.name(),
        "size": p.setup.size,
        "pie": p.setup.pie,
        "setup": tokens(&p.line),
        "solution": tokens(&p.solution),
        "goal": "win",
        "depth": p.depth,
    })
    .to_string()
}
