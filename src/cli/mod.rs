//! The command line, parsed with clap: `quentin [play]` here, each other subcommand in its own
//! module (`replay`, `resume`, `games`, `bench`).

use std::io::Write;
use std::path::{Path, PathBuf};

mod bench;
mod games;
mod replay;
mod resume;

use anyhow::{Context, Result, anyhow};
use clap::{Args, Parser, Subcommand};

use crate::library::{self, Unreadable, shown};
use crate::record::Record;
use crate::rules::{Game, Setup};

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
    /// Play on a saved game, adding the new actions to the same record (default: the most
    /// recently changed unfinished game in the data directory).
    Resume(resume::ResumeArgs),
    /// List the saved games of the data directory, newest first.
    Games(games::GamesArgs),
    /// Measure the rules engine: uniformly random games from the empty board, pie rule off.
    Bench(bench::BenchArgs),
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
    #[command(flatten)]
    pub interface: InterfaceArgs,
}

/// Options of the interface, shared by every command that plays (`play`, `resume`).
#[derive(Args, Debug, Clone)]
pub struct InterfaceArgs {
    /// Draw with ASCII characters only.
    #[arg(long)]
    pub ascii: bool,
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
/// [`BadRecord`] with `FILE:LINE:COLUMN: message` when the record is faulty or too large; an
/// I/O error when the file cannot be read.
pub fn load_record(path: &Path) -> Result<Record> {
    let name = shown(path);
    let bytes = library::read_bytes(path).map_err(|e| match e {
        Unreadable::TooLarge => anyhow::Error::new(BadRecord(e.message(&name))),
        Unreadable::Io(..) => anyhow!(e.message(&name)),
    })?;
    parse_record(path, &bytes)
}

/// Replays the record read from `path` as `bytes`.
///
/// # Errors
/// [`BadRecord`] with `FILE:LINE:COLUMN: message` when the record is faulty.
pub fn parse_record(path: &Path, bytes: &[u8]) -> Result<Record> {
    Record::parse_bytes(bytes).map_err(|e| BadRecord(format!("{}:{e}", shown(path))).into())
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
            Some(Command::Resume(args)) => resume::resume(&args),
            Some(Command::Games(args)) => games::games(&args),
            None => play(&self.play),
        }
    }
}

fn play(args: &PlayArgs) -> Result<()> {
    crate::tui::play(args.setup()?, args.record.clone(), args.interface.ascii)
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
}
