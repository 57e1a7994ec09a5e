//! The command line: `quentin [play]` and `quentin replay`, parsed with clap.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};

use crate::record::Record;
use crate::report;
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
    Replay(ReplayArgs),
}

/// Options of a new game.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The game to play.
    #[arg(long, value_enum, default_value = "quentin")]
    pub game: GameArg,
    /// Board side, 3 to 26 (default: the game's own, 13 for Quentin).
    #[arg(long, value_name = "N")]
    pub size: Option<u64>,
    /// Turn the pie rule (White's swap on its first turn) off.
    #[arg(long)]
    pub no_pie: bool,
    /// Where to save the record after every action (default: a new file in the data directory).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Draw with ASCII characters only.
    #[arg(long)]
    pub ascii: bool,
}

/// The games as the command line names them.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameArg {
    /// Quentin: territories fill, diagonals need a shared neighbour.
    Quentin,
}

impl From<GameArg> for Game {
    fn from(arg: GameArg) -> Game {
        match arg {
            GameArg::Quentin => Game::Quentin,
        }
    }
}

impl PlayArgs {
    /// The setup these options ask for.
    ///
    /// # Errors
    /// When the size is out of range.
    pub fn setup(&self) -> Result<Setup> {
        let game = Game::from(self.game);
        let mut setup = Setup::new(game);
        if let Some(size) = self.size {
            setup.size = Setup::check_size(game, size)?;
        }
        setup.pie = !self.no_pie;
        Ok(setup)
    }
}

#[derive(Args, Debug)]
struct ReplayArgs {
    /// The record to replay.
    file: PathBuf,
    /// Print the position as one JSON object (FORMAT.md) instead of opening the interface.
    #[arg(long, conflicts_with = "print")]
    json: bool,
    /// Print the board and status for people instead of opening the interface.
    #[arg(long)]
    print: bool,
    /// Show the position after the first N actions instead of after all of them.
    #[arg(long, value_name = "N")]
    at: Option<u64>,
    /// Draw the interface with ASCII characters only.
    #[arg(long, conflicts_with_all = ["json", "print"])]
    ascii: bool,
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
            Some(Command::Replay(args)) => replay(&args),
            Some(Command::Play(args)) => play(&args),
            None => play(&self.play),
        }
    }
}

fn play(args: &PlayArgs) -> Result<()> {
    crate::tui::play(args.setup()?, args.record.clone(), args.ascii)
}

fn replay(args: &ReplayArgs) -> Result<()> {
    let record = load_record(&args.file)?;
    let total = record.actions().len();
    let at = match args.at {
        None => total,
        Some(n) => match usize::try_from(n) {
            Ok(n) if n <= total => n,
            _ => bail!(BadRecord(format!(
                "{}: --at {n} is beyond the end of the record ({total} action{})",
                args.file.display(),
                if total == 1 { "" } else { "s" }
            ))),
        },
    };
    if !args.json && !args.print {
        return crate::tui::replay(&record, at, args.ascii);
    }
    let position = record.position_at(at);
    let moves = &record.actions()[..at];
    let out = if args.json {
        let mut s = serde_json::to_string_pretty(&report::json(&position, moves))?;
        s.push('\n');
        s
    } else {
        report::text(&position, moves)
    };
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (`quentin replay f --json | head`) is not worth a message.
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}
