//! The command line, parsed with clap: `quentin [play]` here, each other subcommand in its own
//! module (`replay`, `bench`, `gtp`, `analyze`, `match` in `arena`).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

mod analyze;
mod arena;
mod bench;
mod gtp;
mod limits;
mod replay;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};

use crate::record::Record;
use crate::rules::{Game, Setup};

/// The largest record file read; a record of a whole game is a few kilobytes.
pub const MAX_RECORD_BYTES: u64 = 16 * 1024 * 1024;

/// Luis Bolaños Mures's connection games in a terminal, hot seat.
#[derive(Parser, Debug)]
#[command(
    name = "quentin",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Start a hot-seat game (the default).
    Play(PlayArgs),
    /// Replay a saved record: in the terminal interface, or printed with --json or --print.
    Replay(replay::ReplayArgs),
    /// Measure the rules engine: uniformly random games from the empty board, pie rule off.
    Bench(bench::BenchArgs),
    /// Speak the Go Text Protocol on standard input and output, so that a GTP controller can
    /// play the computer.
    Gtp(gtp::GtpArgs),
    /// Search the position of a record and print the best actions, their win chances and
    /// principal variations.
    Analyze(analyze::AnalyzeArgs),
    /// Play the computer against a baseline player or against itself at another budget.
    Match(arena::MatchArgs),
}

/// Options of a new game.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The game to play.
    #[arg(long, value_enum, default_value = "quentin")]
    pub game: GameArg,
    /// Board side, 3 to 26 (default: the game's own: 13 for Quentin, 11 for Konobi, 15 for
    /// Brique; Quint is 8 only).
    #[arg(long, value_name = "N")]
    pub size: Option<u64>,
    /// Turn the pie rule (White's swap on its first turn) off; Quint has none.
    #[arg(long)]
    pub no_pie: bool,
    /// Quint: pieces per player, 15, 20 or 25 (default 20).
    #[arg(long, value_name = "N")]
    pub pieces: Option<u64>,
    /// Where to save the record after every action (default: a new file in the data directory).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Draw with ASCII characters only.
    #[arg(long)]
    pub ascii: bool,
    #[command(flatten)]
    pub computer: ComputerArgs,
}

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
    /// Seconds the computer thinks for a move or a hint.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, value_parser = think_seconds)]
    pub think: f64,
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
            think: 2.0,
            threads: None,
        }
    }
}

impl ComputerArgs {
    /// Who plays what, as these options ask.
    #[must_use]
    pub fn versus(&self) -> crate::tui::app::Versus {
        let computer = match self.computer {
            None => [false, false],
            Some(Seat::First) => [true, false],
            Some(Seat::Second) => [false, true],
            Some(Seat::Both) => [true, true],
        };
        crate::tui::app::Versus {
            computer,
            think: self.think,
        }
    }

    /// The search's threads: 0 for the machine's cores.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads.map_or(0, usize::from)
    }
}

/// The games as the command line names them.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameArg {
    /// Quentin: territories fill, diagonals need a shared neighbour.
    Quentin,
    /// Konobi: weak diagonal connections only when unavoidable, no crosscuts.
    Konobi,
    /// Brique: stones on squares; completing a square's two escorts fills it.
    Brique,
    /// Quint: drop, then step and capture; exactly five in a row wins.
    Quint,
}

impl From<GameArg> for Game {
    fn from(arg: GameArg) -> Game {
        match arg {
            GameArg::Quentin => Game::Quentin,
            GameArg::Konobi => Game::Konobi,
            GameArg::Brique => Game::Brique,
            GameArg::Quint => Game::Quint,
        }
    }
}

impl PlayArgs {
    /// The setup these options ask for.
    ///
    /// # Errors
    /// When the size or the number of pieces is not one the game offers.
    pub fn setup(&self) -> Result<Setup> {
        let game = Game::from(self.game);
        let mut setup = Setup::new(game);
        if let Some(size) = self.size {
            setup.size = Setup::check_size(game, size)?;
        }
        if let Some(pieces) = self.pieces {
            setup.pieces = Setup::check_pieces(game, pieces)?;
        }
        setup.pie = game.has_pie() && !self.no_pie;
        Ok(setup)
    }
}

/// A record that could not be read or replayed: the whole message is already in `FILE:…` form.
#[derive(Debug)]
pub struct BadRecord(pub String);

impl std::fmt::Display for BadRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadRecord {}

/// Reads and replays the record in `path`.
///
/// # Errors
/// [`BadRecord`] with `FILE:LINE:COLUMN: message` when the record is faulty; an I/O error when
/// the file cannot be read.
pub fn load_record(path: &Path) -> Result<Record> {
    let name = path.display();
    let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        bail!(BadRecord(format!(
            "{name}: the record is larger than {} MiB, too large to be a game record",
            MAX_RECORD_BYTES / (1024 * 1024)
        )));
    }
    Record::parse_bytes(&bytes).map_err(|e| BadRecord(format!("{name}:{e}")).into())
}

impl Cli {
    /// Runs the command.
    ///
    /// # Errors
    /// Whatever stops it; `main` prints the message and exits with status 1.
    pub fn run(self) -> Result<()> {
        match self.command {
            Some(Command::Replay(args)) => replay::replay(&args),
            Some(Command::Play(args)) => play(&args),
            Some(Command::Bench(args)) => bench::bench(&args),
            Some(Command::Gtp(args)) => gtp::gtp(&args),
            Some(Command::Analyze(args)) => analyze::analyze(&args),
            Some(Command::Match(args)) => arena::run(&args),
            None => play(&self.play),
        }
    }
}

fn play(args: &PlayArgs) -> Result<()> {
    crate::tui::play(
        args.setup()?,
        args.record.clone(),
        args.ascii,
        args.computer.versus(),
        args.computer.threads(),
    )
}

/// Writes to standard output; a closed pipe (`quentin … | head`) is not worth a message.
fn write_stdout(out: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The setup asked for by `quentin ARGS`.
    fn setup_of(args: &[&str]) -> Result<Setup> {
        let cli = Cli::try_parse_from(std::iter::once("quentin").chain(args.iter().copied()))?;
        match cli.command {
            Some(Command::Play(play)) => play.setup(),
            _ => cli.play.setup(),
        }
    }

    #[test]
    fn quint_takes_its_pieces_and_no_pie() {
        let setup = setup_of(&["--game", "quint", "--pieces", "15"]).unwrap();
        assert_eq!(
            (setup.game, setup.size, setup.pie, setup.pieces),
            (Game::Quint, 8, false, 15)
        );
        let setup = setup_of(&["play", "--game", "quint", "--no-pie"]).unwrap();
        assert_eq!((setup.size, setup.pie, setup.pieces), (8, false, 20));
        let err = setup_of(&["--game", "quint", "--pieces", "16"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "16 pieces is not an option: Quint is played with 15, 20, 25 pieces"
        );
        let err = setup_of(&["--game", "quint", "--size", "9"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "size 9 is out of range: Quint is played on size 8 only"
        );
        assert!(setup_of(&["--game", "quint", "--size", "8"]).is_ok());
        let err = setup_of(&["--pieces", "20"]).unwrap_err();
        assert_eq!(err.to_string(), "Quentin has no pieces in hand");
        let setup = setup_of(&["--size", "5"]).unwrap();
        assert_eq!(
            (setup.game, setup.pie, setup.pieces),
            (Game::Quentin, true, 0)
        );
    }

    /// The computer options asked for by `quentin ARGS`.
    fn computer_of(args: &[&str]) -> Result<ComputerArgs, clap::Error> {
        let cli = Cli::try_parse_from(std::iter::once("quentin").chain(args.iter().copied()))?;
        Ok(match cli.command {
            Some(Command::Play(play)) => play.computer,
            Some(Command::Replay(replay)) => replay.computer().clone(),
            _ => cli.play.computer,
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
        // The same options after `p` in a replay.
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
    }
}
