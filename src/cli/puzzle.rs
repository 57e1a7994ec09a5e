//! `quentin puzzle [--game G] [--theme T] [--difficulty D | --again | --streak | --storm]`:
//! the shipped puzzles in the terminal, one after another, each chosen near the player's
//! puzzle rating, moved by the difficulty; or one's failed puzzles again; or Streak and
//! Storm, unrated (docs/puzzles.md, "Playing puzzles").

use anyhow::Result;
use clap::{Args, ValueEnum};

use super::GameArg;
use super::puzzles::parse_theme;
use crate::rules::Game;
use quentin_app::puzzle_modes::{Difficulty, Storm, Way};

#[derive(Args, Debug)]
pub(super) struct PuzzleArgs {
    /// Only this game's puzzles (default: the four games').
    #[arg(long, value_enum)]
    game: Option<GameArg>,
    /// Only the puzzles with this theme, such as win2, defend or swap (docs/puzzles.md lists
    /// them).
    #[arg(long, value_name = "T", value_parser = parse_theme)]
    theme: Option<&'static str>,
    /// Rated puzzles 300 below your rating (easier), at it (normal) or 300 above (harder).
    #[arg(long, value_enum, value_name = "D", conflicts_with_all = ["again", "streak", "storm"])]
    difficulty: Option<DifficultyArg>,
    /// Your own failed puzzles again: those whose last attempt failed.
    #[arg(long, conflicts_with_all = ["streak", "storm"])]
    again: bool,
    /// Streak: rising difficulty from 1000, one mistake ends it; unrated, the best kept.
    #[arg(long, conflicts_with = "storm")]
    streak: bool,
    /// Storm: three minutes, 5 s back for 5 right in a row, 10 s off for a wrong one;
    /// unrated, the best kept.
    #[arg(long)]
    storm: bool,
    /// Draw with ASCII characters only.
    #[arg(long)]
    ascii: bool,
}

/// `--difficulty`'s values.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum DifficultyArg {
    /// 300 below your rating.
    Easier,
    /// At your rating.
    Normal,
    /// 300 above your rating.
    Harder,
}

impl From<DifficultyArg> for Difficulty {
    fn from(arg: DifficultyArg) -> Difficulty {
        match arg {
            DifficultyArg::Easier => Difficulty::Easier,
            DifficultyArg::Normal => Difficulty::Normal,
            DifficultyArg::Harder => Difficulty::Harder,
        }
    }
}

impl PuzzleArgs {
    /// The way the puzzles are taken.
    fn way(&self) -> Way {
        if self.streak {
            Way::Streak {
                solved: 0,
                ended: false,
            }
        } else if self.storm {
            Way::Storm(Storm::new())
        } else if self.again {
            Way::Again
        } else {
            Way::Rated(self.difficulty.map_or(Difficulty::Normal, Difficulty::from))
        }
    }
}

/// Plays the shipped puzzles that `args` asks for.
pub(super) fn puzzle(args: &PuzzleArgs) -> Result<()> {
    let pool = crate::puzzles::pool(args.game.map(Game::from), args.theme)?;
    crate::tui::puzzle(pool, args.way(), args.ascii)
}
