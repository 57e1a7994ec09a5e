//! `quentin rules [GAME]`: the rules of one game (or of all four) and the marks on its board,
//! from the same text as the help overlay of the interface.

use std::io::IsTerminal;

use anyhow::Result;
use clap::Args;

use crate::rules::Game;
use crate::rules_text;

use super::{GameArg, write_stdout};

/// The widest text printed, even in a wider terminal: longer lines are hard to read.
const MAX_WIDTH: usize = 100;
/// The width used when standard output is no terminal.
const PIPE_WIDTH: usize = 80;

#[derive(Args, Debug)]
pub(super) struct RulesArgs {
    /// The game whose rules to print (all four when absent).
    #[arg(value_enum)]
    game: Option<GameArg>,
    /// Show the board's marks with ASCII characters, as `--ascii` draws them.
    #[arg(long)]
    ascii: bool,
}

pub(super) fn rules(args: &RulesArgs) -> Result<()> {
    let width = if std::io::stdout().is_terminal() {
        crossterm::terminal::size().map_or(PIPE_WIDTH, |(w, _)| usize::from(w).min(MAX_WIDTH))
    } else {
        PIPE_WIDTH
    };
    let games: Vec<Game> = match args.game {
        Some(game) => vec![game.into()],
        None => Game::ALL.to_vec(),
    };
    let texts: Vec<String> = games
        .into_iter()
        .map(|game| rules_text::guide(game).text(width, args.ascii))
        .collect();
    write_stdout(&texts.join("\n"))
}
