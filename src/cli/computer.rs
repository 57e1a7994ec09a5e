//! The computer player's options of the commands that open a game (a new game, `resume`,
//! `replay` for `p`): who it plays, how long it thinks, on how many threads; and how a resumed
//! game brings back the computer its record names.

use clap::Args;

/// The computer player's options, shared by every command that opens a game: a new game, a
/// replay (for `p`, playing on) and a resumed game.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct ComputerArgs {
    /// Play against the computer: it plays the player who moves first, second (the default
    /// when WHO is left out) or both, to watch.
    #[arg(
        long,
        value_enum,
        value_name = "WHO",
        num_args = 0..=1,
        default_missing_value = "second"
    )]
    pub computer: Option<Seat>,
    /// Seconds the computer thinks for a move or a hint [default: 2; `resume`: as the record
    /// says].
    #[arg(long, value_name = "SECONDS", value_parser = think_seconds, allow_negative_numbers = true)]
    pub think: Option<f64>,
    /// Threads the computer searches with (default: the machine's cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
}

/// Which players the computer plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The player who moves first.
    First,
    /// The player who moves second.
    Second,
    /// Both players: the computer plays itself.
    Both,
}

/// The longest think allowed, in seconds: an hour.
const MAX_THINK: f64 = 3600.0;

/// The computer's think time when nothing says otherwise, in seconds.
const DEFAULT_THINK: f64 = 2.0;

/// Whether a record's player text names the computer (`computer, 2 s a move`, as the interface
/// writes it): `Some` with its think time when that reads as one.
fn computer_think(player: &str) -> Option<Option<f64>> {
    let rest = player.trim().strip_prefix("computer")?;
    if !(rest.is_empty() || rest.starts_with(',')) {
        return None;
    }
    let seconds = rest
        .trim_start_matches(',')
        .trim()
        .strip_suffix("s a move")
        .and_then(|s| think_seconds(s.trim()).ok());
    Some(seconds)
}

/// Reads `--think`: a number of seconds above 0 and at most an hour.
fn think_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_THINK {
        Ok(seconds)
    } else {
        Err(format!(
            "the computer thinks more than 0 and at most {MAX_THINK} seconds"
        ))
    }
}

impl Default for ComputerArgs {
    /// No computer player; 2 s a move, the machine's cores, should one be asked for.
    fn default() -> ComputerArgs {
        ComputerArgs {
            computer: None,
            think: None,
            threads: None,
        }
    }
}

impl ComputerArgs {
    /// Who plays what, as these options ask.
    #[must_use]
    pub fn versus(&self) -> crate::tui::Versus {
        let computer = match self.computer {
            None => [false, false],
            Some(Seat::First) => [true, false],
            Some(Seat::Second) => [false, true],
            Some(Seat::Both) => [true, true],
        };
        crate::tui::Versus {
            computer,
            think: self.think.unwrap_or(DEFAULT_THINK),
        }
    }

    /// Who plays what in a game resumed from a record whose players are `players`: the
    /// computer comes back where the record names it, with its think time, unless these
    /// options say otherwise (`--computer` and `--think` override what the record says).
    #[must_use]
    pub fn versus_resuming(&self, players: &crate::record::Players) -> crate::tui::Versus {
        if self.computer.is_some() {
            return self.versus();
        }
        let recorded = players
            .clone()
            .map(|p| p.as_deref().and_then(computer_think));
        let computer = recorded.map(|r| r.is_some());
        let think = recorded.into_iter().flatten().flatten().next();
        crate::tui::Versus {
            computer,
            think: self.think.or(think).unwrap_or(DEFAULT_THINK),
        }
    }

    /// The search's threads: 0 for the machine's cores.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads.map_or(0, usize::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    /// The computer options asked for by `quentin ARGS`.
    fn computer_of(args: &[&str]) -> Result<ComputerArgs, clap::Error> {
        let cli = Cli::try_parse_from(std::iter::once("quentin").chain(args.iter().copied()))?;
        Ok(match cli.command {
            Some(Command::Play(play)) => play.interface.computer,
            Some(Command::Replay(replay)) => replay.computer().clone(),
            Some(Command::Resume(resume)) => resume.computer().clone(),
            _ => cli.play.interface.computer,
        })
    }

    #[test]
    fn the_computer_plays_second_unless_told_and_thinks_two_seconds() {
        let bare = computer_of(&["--computer", "--size", "5"]).unwrap();
        assert_eq!(bare.versus().computer, [false, true]);
        assert_eq!(bare.versus().think, 2.0);
        assert_eq!(bare.threads(), 0);
        let first = computer_of(&["play", "--computer", "first", "--think", "0.5"]).unwrap();
        assert_eq!(
            (first.versus().computer, first.versus().think),
            ([true, false], 0.5)
        );
        let both = computer_of(&["--computer=both", "--threads", "2"]).unwrap();
        assert_eq!((both.versus().computer, both.threads()), ([true, true], 2));
        assert_eq!(computer_of(&[]).unwrap(), ComputerArgs::default());
        // The same options on resuming a game, and after `p` in a replay.
        let resume = computer_of(&["resume", "game.txt", "--computer", "first"]).unwrap();
        assert_eq!(resume.versus().computer, [true, false]);
        let replay = computer_of(&["replay", "game.txt", "--computer", "--think", "3"]).unwrap();
        assert_eq!(
            (replay.versus().computer, replay.versus().think),
            ([false, true], 3.0)
        );
        for bad in [
            &["--computer", "third"][..],
            &["--think", "0"],
            &["--think", "-1"],
            &["--think", "nan"],
            &["--think", "soon"],
            &["--threads", "0"],
        ] {
            assert!(computer_of(bad).is_err(), "{bad:?}");
        }
        // A negative time is refused for what it is, not taken for an option.
        let err = computer_of(&["--think", "-1"]).unwrap_err().to_string();
        assert!(
            err.contains("more than 0 and at most 3600 seconds"),
            "{err}"
        );
    }

    #[test]
    fn a_resumed_game_brings_back_the_computer_its_record_names() {
        let players =
            |p1: Option<&str>, p2: Option<&str>| [p1.map(String::from), p2.map(String::from)];
        let plain = computer_of(&["resume", "game.txt"]).unwrap();
        let versus = plain.versus_resuming(&players(None, Some("computer, 0.5 s a move")));
        assert_eq!((versus.computer, versus.think), ([false, true], 0.5));
        let versus = plain.versus_resuming(&players(Some("computer, 4 s a move"), None));
        assert_eq!((versus.computer, versus.think), ([true, false], 4.0));
        // A person's name is a person, whatever it starts with; a time that does not read
        // leaves the default.
        let versus = plain.versus_resuming(&players(Some("computer-fan"), Some("computer")));
        assert_eq!((versus.computer, versus.think), ([false, true], 2.0));
        assert_eq!(
            plain.versus_resuming(&players(None, None)).computer,
            [false, false]
        );
        // The options override the record.
        let faster = computer_of(&["resume", "game.txt", "--think", "0.1"]).unwrap();
        let versus = faster.versus_resuming(&players(None, Some("computer, 3 s a move")));
        assert_eq!((versus.computer, versus.think), ([false, true], 0.1));
        let first = computer_of(&["resume", "game.txt", "--computer", "first"]).unwrap();
        let versus = first.versus_resuming(&players(None, Some("computer, 3 s a move")));
        assert_eq!(versus.computer, [true, false]);
    }
}
