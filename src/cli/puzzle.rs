//! `quentin puzzle [--game G] [--theme T]`: the shipped puzzles in the terminal, one after
//! another, each chosen near the player's puzzle rating (docs/puzzles.md, "Playing puzzles").

use anyhow::Result;
use clap::Args;

use super::GameArg;
use super::puzzles::parse_theme;
use crate::rules::Game;

#[derive(Args, Debug)]
pub(super) struct PuzzleArgs {
    /// Only this game's puzzles (default: the four games').
    #[arg(long, value_enum)]
    game: Option<GameArg>,
    /// Only the puzzles with this theme, such as win2, defend or swap (docs/puzzles.md lists
    /// them).
    #[arg(long, value_name = "T", value_parser = parse_theme)]
    theme: Option<&'static str>,
    /// Draw with ASCII characters only.
    #[arg(long)]
    ascii: bool,
}

/// Plays the shipped puzzles that `args` asks for.
pub(super) fn puzzle(args: &PuzzleArgs) -> Result<()> {
    let pool = crate::puzzles::pool(args.game.map(Game::from), args.theme)?;
    crate::tui::puzzle(pool, args.ascii)
}
