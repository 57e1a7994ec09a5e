//! `quentin puzzle [--game G] [--theme T]`: the shipped puzzles in the terminal, one after
//! another, each chosen near the player's puzzle rating (docs/puzzles.md, "Playing puzzles").

use anyhow::{Result, bail};
use clap::Args;

use super::GameArg;
use super::puzzles::parse_theme;
use crate::rules::Game;
use crate::search::puzzles::Puzzle;

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
    let pool = pool(args.game.map(Game::from), args.theme)?;
    crate::tui::puzzle(pool, args.ascii)
}

/// The shipped puzzles of `game` (every game's when `None`) with `theme`; refused, with the
/// themes there are, when none has it.
fn pool(game: Option<Game>, theme: Option<&'static str>) -> Result<Vec<Puzzle>> {
    let puzzles: Vec<Puzzle> = crate::puzzles::shipped()?
        .into_iter()
        .filter(|set| game.is_none_or(|g| set.game == g))
        .flat_map(|set| set.puzzles)
        .collect();
    let pool: Vec<Puzzle> = puzzles
        .iter()
        .filter(|p| theme.is_none_or(|t| p.themes.contains(&t)))
        .cloned()
        .collect();
    if pool.is_empty() {
        let mut there: Vec<&str> = puzzles.iter().flat_map(|p| p.themes.clone()).collect();
        there.sort_unstable();
        there.dedup();
        let of = game.map_or("the set".to_string(), |g| {
            format!("{}'s puzzles", g.title())
        });
        bail!(
            "no puzzle has the theme {}: {of} have the themes {}",
            theme.unwrap_or("asked"),
            there.join(", ")
        );
    }
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_holds_the_game_and_theme_asked_for() {
        let defences = pool(Some(Game::Konobi), Some("defend")).unwrap();
        assert!(!defences.is_empty());
        assert!(
            defences
                .iter()
                .all(|p| p.setup.game == Game::Konobi && p.themes.contains(&"defend"))
        );
        assert!(pool(None, None).unwrap().len() >= 1200);
    }

    #[test]
    fn a_theme_no_puzzle_of_the_game_has_is_refused_listing_those_there_are() {
        let err = pool(Some(Game::Quint), Some("swap"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("no puzzle has the theme swap"), "{err}");
        assert!(err.contains("Quint's puzzles have the themes"), "{err}");
        assert!(err.contains("win1"), "{err}");
    }
}
