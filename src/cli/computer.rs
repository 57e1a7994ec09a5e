//! The computer player's options of the commands that open a game (a new game, `resume`,
//! `replay` for `p`): who it plays, how long it thinks, on how many threads; and how a resumed
//! game brings back the computer its record names.

use anyhow::Result;
use clap::Args;

use crate::search::Level;
use crate::tui::Versus;

use super::limits::parse_level;
use super::usage_error;

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
    /// How strongly the computer plays, 1 (the weakest) to 10 (full strength) [default: 5;
    /// `resume`: as the record says].
    #[arg(long, value_name = "N", value_parser = parse_level)]
    pub level: Option<Level>,
    /// Threads the computer searches with (default: the machine's cores; one below level 10).
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

/// The computer as a record's player text names it (`computer, level 4, 2 s a move`, as the
/// interface writes it): its level and think time, each when it reads as one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Recorded {
    level: Option<Level>,
    think: Option<f64>,
}

/// Whether a record's player text names the computer: `Some` with what it says of it.
fn recorded_computer(player: &str) -> Option<Recorded> {
    let rest = player.trim().strip_prefix("computer")?;
    if !(rest.is_empty() || rest.starts_with(',')) {
        return None;
    }
    let mut recorded = Recorded::default();
    for part in rest.split(',').map(str::trim) {
        if let Some(n) = part.strip_prefix("level ") {
            recorded.level = recorded.level.or(parse_level(n.trim()).ok());
        } else if let Some(s) = part.strip_suffix("s a move") {
            recorded.think = recorded.think.or(think_seconds(s.trim()).ok());
        }
    }
    Some(recorded)
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
    /// No computer player; level 5, 2 s a move, the machine's cores, should one be asked for.
    fn default() -> ComputerArgs {
        ComputerArgs {
            computer: None,
            think: None,
            level: None,
            threads: None,
        }
    }
}

impl ComputerArgs {
    /// Who plays what, as these options ask.
    ///
    /// # Errors
    /// A [`usage_error`] for a level without a computer to play at it.
    pub fn versus(&self) -> Result<Versus> {
        let computer = match self.computer {
            None => [false, false],
            Some(Seat::First) => [true, false],
            Some(Seat::Second) => [false, true],
            Some(Seat::Both) => [true, true],
        };
        self.checked(Versus {
            computer,
            think: self.think.unwrap_or(DEFAULT_THINK),
            level: self.level.unwrap_or(Level::DEFAULT),
        })
    }

    /// Who plays what in a game resumed from a record whose players are `players`: the
    /// computer comes back where the record names it, with its level and think time, unless
    /// these options say otherwise (`--computer`, `--level` and `--think` override what the
    /// record says). A record that names the computer without a level was written before there
    /// were levels, by the computer at full strength: it comes back at full strength.
    ///
    /// # Errors
    /// A [`usage_error`] for a level without a computer to play at it.
    pub fn versus_resuming(&self, players: &crate::record::Players) -> Result<Versus> {
        if self.computer.is_some() {
            return self.versus();
        }
        let recorded = players
            .clone()
            .map(|p| p.as_deref().and_then(recorded_computer));
        let computer = recorded.map(|r| r.is_some());
        let said = recorded.into_iter().flatten();
        let think = said.clone().find_map(|r| r.think);
        let level = said.clone().next().map(|r| r.level.unwrap_or(Level::FULL));
        self.checked(Versus {
            computer,
            think: self.think.or(think).unwrap_or(DEFAULT_THINK),
            level: self.level.or(level).unwrap_or(Level::DEFAULT),
        })
    }

    /// `versus`, unless `--level` was given with no computer to play at it.
    fn checked(&self, versus: Versus) -> Result<Versus> {
        if self.level.is_some() && versus.computer == [false, false] {
            return Err(usage_error(
                "--level is the computer's: add --computer (and which player it plays)",
            ));
        }
        Ok(versus)
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

    /// Who plays what as `quentin ARGS` asks.
    fn versus_of(args: &[&str]) -> Versus {
        computer_of(args).unwrap().versus().unwrap()
    }

    #[test]
    fn the_computer_plays_second_at_level_5_unless_told_and_thinks_two_seconds() {
        let bare = versus_of(&["--computer", "--size", "5"]);
        assert_eq!(
            (bare.computer, bare.think, bare.level),
            ([false, true], 2.0, Level::DEFAULT)
        );
        assert_eq!(Level::DEFAULT.get(), 5);
        assert_eq!(computer_of(&["--computer"]).unwrap().threads(), 0);
        let first = versus_of(&["play", "--computer", "first", "--think", "0.5"]);
        assert_eq!((first.computer, first.think), ([true, false], 0.5));
        let both = computer_of(&["--computer=both", "--threads", "2"]).unwrap();
        assert_eq!(
            (both.versus().unwrap().computer, both.threads()),
            ([true, true], 2)
        );
        assert_eq!(computer_of(&[]).unwrap(), ComputerArgs::default());
        let strong = versus_of(&["--computer", "--level", "10"]);
        assert_eq!(strong.level, Level::FULL);
        // The same options on resuming a game, and after `p` in a replay.
        let resume = versus_of(&["resume", "game.txt", "--computer", "first", "--level", "2"]);
        assert_eq!((resume.computer, resume.level.get()), ([true, false], 2));
        let replay = versus_of(&["replay", "game.txt", "--computer", "--think", "3"]);
        assert_eq!((replay.computer, replay.think), ([false, true], 3.0));
        for bad in [
            &["--computer", "third"][..],
            &["--think", "0"],
            &["--think", "-1"],
            &["--think", "nan"],
            &["--think", "soon"],
            &["--threads", "0"],
            &["--computer", "--level", "0"],
            &["--computer", "--level", "11"],
            &["--computer", "--level", "strong"],
        ] {
            assert!(computer_of(bad).is_err(), "{bad:?}");
        }
        // A negative time is refused for what it is, not taken for an option.
        let err = computer_of(&["--think", "-1"]).unwrap_err().to_string();
        assert!(
            err.contains("more than 0 and at most 3600 seconds"),
            "{err}"
        );
        let err = computer_of(&["--level", "11"]).unwrap_err().to_string();
        assert!(
            err.contains("1 (the weakest) to 10 (full strength)"),
            "{err}"
        );
        // A level with no computer to play at it is a mistake, said as one.
        let err = computer_of(&["--level", "3"])
            .unwrap()
            .versus()
            .unwrap_err();
        let clap = err.downcast_ref::<clap::Error>().expect("a usage error");
        assert_eq!(clap.exit_code(), 2);
        assert!(clap.to_string().contains("add --computer"), "{clap}");
    }

    #[test]
    fn a_resumed_game_brings_back_the_computer_its_record_names() {
        let players =
            |p1: Option<&str>, p2: Option<&str>| [p1.map(String::from), p2.map(String::from)];
        let resuming = |args: &[&str], p1, p2| {
            let mut all = vec!["resume", "game.txt"];
            all.extend_from_slice(args);
            computer_of(&all)
                .unwrap()
                .versus_resuming(&players(p1, p2))
                .unwrap()
        };
        let versus = resuming(&[], None, Some("computer, level 4, 0.5 s a move"));
        assert_eq!(
            (versus.computer, versus.think, versus.level.get()),
            ([false, true], 0.5, 4)
        );
        assert_eq!(
            versus.players()[1].as_deref(),
            Some("computer, level 4, 0.5 s a move")
        );
        // Written before there were levels: the computer played at full strength.
        let versus = resuming(&[], Some("computer, 4 s a move"), None);
        assert_eq!(
            (versus.computer, versus.think, versus.level),
            ([true, false], 4.0, Level::FULL)
        );
        // A person's name is a person, whatever it starts with; a time or level that does not
        // read leaves the default.
        let versus = resuming(&[], Some("computer-fan"), Some("computer, level 12"));
        assert_eq!(
            (versus.computer, versus.think, versus.level),
            ([false, true], 2.0, Level::FULL)
        );
        assert_eq!(resuming(&[], None, None).computer, [false, false]);
        // The options override the record.
        let said = Some("computer, level 3, 3 s a move");
        let versus = resuming(&["--think", "0.1"], None, said);
        assert_eq!(
            (versus.computer, versus.think, versus.level.get()),
            ([false, true], 0.1, 3)
        );
        let versus = resuming(&["--level", "9"], None, said);
        assert_eq!((versus.think, versus.level.get()), (3.0, 9));
        let versus = resuming(&["--computer", "first"], None, said);
        assert_eq!(
            (versus.computer, versus.level),
            ([true, false], Level::DEFAULT)
        );
        // A level for a game between people is a mistake.
        let err = computer_of(&["resume", "game.txt", "--level", "2"])
            .unwrap()
            .versus_resuming(&players(None, None))
            .unwrap_err();
        assert!(err.to_string().contains("add --computer"), "{err}");
    }
}
