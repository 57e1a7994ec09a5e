//! The command line, parsed with clap: `quentin [play]` here, each other subcommand in its own
//! module (`replay`, `resume`, `games`, `bench`, `rules`, `completions`,
//! `manual`, `gtp`, `analyze`, `solve`, `review`, `match` in `arena`); the computer player's options of the commands
//! that open a game in `computer`, the search's of the others in `limits`.
//!
//! Every wrong use of the command line exits with status 2 and clap's usage message, including
//! sizes and numbers of pieces, which only the game can judge (`--game quint --size 9`): those
//! are turned into clap errors ([`usage_error`]) that `main` lets clap print.

use std::io::Write;
use std::path::{Path, PathBuf};

mod analyze;
mod arena;
mod bench;
mod completions;
mod computer;
mod games;
pub mod gtp;
mod learn;
mod limits;
mod manual;
mod puzzle;
mod puzzles;
mod replay;
mod resume;
mod review;
mod rules;
#[cfg(feature = "server")]
mod serve;
#[cfg(not(feature = "server"))]
#[path = "cli/serve_absent.rs"]
mod serve;
#[cfg(feature = "server")]
mod serve_config;
mod solve;
mod solve_book;

use anyhow::{Context, Result, anyhow};
use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::record::Record;
use crate::rules::{Game, Setup};
use crate::saved_games::{self, Unreadable, shown};

pub use computer::{ComputerArgs, Seat};

/// What `--help` says after the options: the keys in short (from the interface's table of
/// keys), where records go, examples.
fn after_help() -> String {
    format!("{}\n{AFTER_KEYS}", crate::tui::keys_in_short())
}

/// What `--help` says after the keys.
const AFTER_KEYS: &str = "\
Records: the game is saved after every action, to --record FILE or else to a
new time-stamped file in the folder games/ of the data directory:
  Linux    $XDG_DATA_HOME/quentin or ~/.local/share/quentin
  macOS    ~/Library/Application Support/quentin
  Windows  %APPDATA%\\quentin\\data
  The help (?) shows the path, and the program prints it on exit.

Examples:
  quentin                              Quentin on 13x13
  quentin --game konobi --size 9       Konobi on 9x9
  quentin --game quint --pieces 15     Quint with 15 pieces each
  quentin --no-pie --record game.txt   no swap, saved to game.txt
  quentin --computer                   play the computer (it moves second)
  quentin replay game.txt              step through a record
  quentin replay game.txt --json       the final position for programs
  quentin rules brique                 the rules of Brique
  quentin resume                       play on the latest unfinished game
  quentin games                        list the saved games

Status: 0 success, 1 failure (such as a bad record), 2 wrong command line.";

/// Luis Bolaños Mures's connection games Quentin, Konobi and Brique, and M. Winther's Quint, in
/// a terminal: hot seat, or against the computer.
#[derive(Parser, Debug)]
#[command(
    name = "quentin",
    version,
    about,
    after_help = after_help(),
    args_conflicts_with_subcommands = true,
    // Our own `help`, which takes --help like every other subcommand.
    disable_help_subcommand = true
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
    /// Print the rules of a game and the marks on its board (the text of the help overlay).
    Rules(rules::RulesArgs),
    /// Print a shell's completion script, e.g. `quentin completions bash > quentin.bash`.
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff), e.g. `quentin manual > quentin.1; man ./quentin.1`; with
    /// --dir, write every page.
    Manual(manual::ManualArgs),
    /// Speak the Go Text Protocol on standard input and output, so that a GTP controller can
    /// play the computer.
    Gtp(gtp::GtpArgs),
    /// Search the position of a record and print the best actions, their win chances and
    /// principal variations.
    Analyze(analyze::AnalyzeArgs),
    /// Search every position of a record and mark the actions that lost much of their mover's
    /// win chance (inaccuracy, mistake, blunder), with the better action; a summary per player.
    Review(review::ReviewArgs),
    /// Prove what the side to move of a record's position can do: a win within N of its own
    /// moves with every winning first move, or no win, or unknown when the budget runs out.
    Solve(solve::SolveArgs),
    /// Puzzles proved by the solver: generate them (`quentin puzzles generate --game G --size N
    /// --count K --seed S`), export the shipped set as JSON, prove a set again.
    Puzzles(puzzles::PuzzlesArgs),
    /// Solve the shipped puzzles in the terminal, each chosen near your puzzle rating (kept in
    /// the data directory): `quentin puzzle --game konobi --theme win2`.
    Puzzle(puzzle::PuzzleArgs),
    /// Learn the games: a course for each, stages of one-move levels on small boards, stars
    /// kept in the data directory (`quentin learn --game konobi`; `quentin learn export`).
    Learn(learn::LearnArgs),
    /// Play the computer against a baseline player or against itself at another budget.
    Match(arena::MatchArgs),
    /// Run the game server that any SSH client reaches: `ssh -p 2222 HOST` to play, watch
    /// and challenge, `ssh -p 2222 HOST bot` for programs.
    Serve(Box<serve::ServeArgs>),
    /// Print this help, or the help of a subcommand (`quentin help replay`).
    Help(HelpArgs),
}

/// `quentin help [COMMAND]`.
#[derive(Args, Debug)]
struct HelpArgs {
    /// The subcommand whose help to print (default: the program's).
    command: Option<String>,
}

/// Prints the program's help, or that of the subcommand `name`.
fn help(args: &HelpArgs) -> Result<()> {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    let mut command = match &args.command {
        None => cli,
        Some(name) => match cli.find_subcommand_mut(name) {
            Some(sub) => sub.clone().bin_name(format!("quentin {name}")),
            None => {
                let err = cli.error(
                    clap::error::ErrorKind::InvalidSubcommand,
                    format!("there is no subcommand {name:?}: `quentin --help` lists them"),
                );
                return Err(err.into());
            }
        },
    };
    write_stdout(&command.render_long_help().to_string())
}

/// Options of a new game.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameOptions,
    /// Where to save the record after every action (default: a new file in the data directory).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The two players' names at one keyboard, the one who moves first first (`alice,bob`):
    /// shown on the screen and written in the record.
    #[arg(long, value_name = "FIRST,SECOND", value_parser = parse_names)]
    pub names: Option<Names>,
    #[command(flatten)]
    pub interface: InterfaceArgs,
}

/// The names of `--names`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names(pub [String; 2]);

/// Reads `--names FIRST,SECOND`: two names of 1 to 20 characters, letters, digits, spaces,
/// `-`, `_` and `.`.
fn parse_names(text: &str) -> Result<Names, String> {
    let good = |name: &str| {
        (1..=20).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'))
    };
    match text.split(',').map(str::trim).collect::<Vec<_>>()[..] {
        [a, b] if good(a) && good(b) => Ok(Names([a.to_string(), b.to_string()])),
        _ => Err(format!(
            "{text:?} is not two names, FIRST,SECOND (each 1 to 20 letters, digits, spaces, - _ .)"
        )),
    }
}

/// Which game, on what board, with which options: shared by every command that starts a game
/// (`play`, `match`).
#[derive(Args, Debug, Clone)]
pub struct GameOptions {
    /// The game to play.
    #[arg(long, value_enum, default_value = "quentin")]
    pub game: GameArg,
    /// Board side, 3 to 26 (default: the game's own: 13 for Quentin, 11 for Konobi, 15 for
    /// Brique; Quint is 8 only).
    #[arg(long, value_name = "N", value_parser = parse_number)]
    pub size: Option<u64>,
    /// Turn the pie rule (White's swap on its first turn) off; Quint has none.
    #[arg(long)]
    pub no_pie: bool,
    /// Quint: pieces per player, 15, 20 or 25 (default 20).
    #[arg(long, value_name = "N", value_parser = parse_number)]
    pub pieces: Option<u64>,
}

/// Options of the interface, shared by every command that plays (`play`, `resume`).
#[derive(Args, Debug, Clone, Default)]
pub struct InterfaceArgs {
    /// Draw with ASCII characters only.
    #[arg(long)]
    pub ascii: bool,
    #[command(flatten)]
    pub computer: ComputerArgs,
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

/// Reads a whole number from the command line (`--size`, `--pieces`): whether the game offers it
/// is judged with the game, as a [`usage_error`].
fn parse_number(text: &str) -> Result<u64, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{text:?} is not a whole number"));
    }
    // Too many digits for u64 is simply too large.
    Ok(text.parse().unwrap_or(u64::MAX))
}

/// A wrong use of the command line that only the game can judge (a size or a number of pieces
/// it does not offer), as the clap error that `main` prints with the usage and exit status 2.
pub fn usage_error(message: impl std::fmt::Display) -> anyhow::Error {
    Cli::command()
        .error(ErrorKind::ArgumentConflict, message)
        .into()
}

impl GameOptions {
    /// The setup these options ask for.
    ///
    /// # Errors
    /// A [`usage_error`] when the size or the number of pieces is not one the game offers.
    pub fn setup(&self) -> Result<Setup> {
        let game = Game::from(self.game);
        let mut setup = Setup::new(game);
        if let Some(size) = self.size {
            setup.size = Setup::check_size(game, size).map_err(usage_error)?;
        }
        if let Some(pieces) = self.pieces {
            setup.pieces = Setup::check_pieces(game, pieces).map_err(usage_error)?;
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
    let bytes = saved_games::read_bytes(path).map_err(|e| match e {
        Unreadable::TooLarge => anyhow::Error::new(BadRecord(e.message(&name))),
        Unreadable::Io(..) | Unreadable::NotRegular(_) | Unreadable::EmptyPipe => {
            anyhow!(e.message(&name))
        }
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
    /// Whatever stops it; `main` prints the message and exits with status 1, or lets clap
    /// print a [`usage_error`] and exit with status 2.
    pub fn run(self) -> Result<()> {
        match self.command {
            Some(Command::Replay(args)) => replay::replay(&args),
            Some(Command::Play(args)) => play(&args),
            Some(Command::Bench(args)) => bench::bench(&args),
            Some(Command::Resume(args)) => resume::resume(&args),
            Some(Command::Games(args)) => games::games(&args),
            Some(Command::Rules(args)) => rules::rules(&args),
            Some(Command::Completions(args)) => completions::completions(&args),
            Some(Command::Manual(args)) => manual::manual(&args),
            Some(Command::Gtp(args)) => gtp::gtp(&args),
            Some(Command::Analyze(args)) => analyze::analyze(&args),
            Some(Command::Review(args)) => review::review(&args),
            Some(Command::Solve(args)) => solve::solve(&args),
            Some(Command::Puzzles(args)) => puzzles::puzzles(&args),
            Some(Command::Puzzle(args)) => puzzle::puzzle(&args),
            Some(Command::Learn(args)) => learn::learn(&args),
            Some(Command::Match(args)) => arena::run(&args),
            Some(Command::Serve(args)) => serve::serve(&args),
            Some(Command::Help(args)) => help(&args),
            None => play(&self.play),
        }
    }
}

fn play(args: &PlayArgs) -> Result<()> {
    let versus = args.interface.computer.versus()?;
    if args.names.is_some() && versus.computer != [false, false] {
        return Err(usage_error(
            "--names names two people at one keyboard: not with --computer",
        ));
    }
    crate::tui::play(
        args.game.setup()?,
        args.record.clone(),
        args.interface.ascii,
        versus,
        args.interface.computer.threads(),
        args.names.clone().map(|n| n.0),
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
            Some(Command::Play(play)) => play.game.setup(),
            _ => cli.play.game.setup(),
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
        let usage = |args: &[&str]| {
            let err = setup_of(args).unwrap_err();
            let clap = err.downcast_ref::<clap::Error>().expect("a usage error");
            assert_eq!(clap.exit_code(), 2, "{args:?}");
            clap.to_string()
        };
        let err = usage(&["--game", "quint", "--pieces", "16"]);
        assert!(
            err.contains("16 pieces is not an option: Quint is played with 15, 20, 25 pieces"),
            "{err}"
        );
        let err = usage(&["--game", "quint", "--size", "9"]);
        assert!(
            err.contains("size 9 is out of range: Quint is played on size 8 only"),
            "{err}"
        );
        assert!(setup_of(&["--game", "quint", "--size", "8"]).is_ok());
        let err = usage(&["--pieces", "20"]);
        assert!(err.contains("Quentin has no pieces in hand"), "{err}");
        let err = usage(&["--size", "27"]);
        assert!(
            err.contains("size 27 is out of range: Quentin is played on sizes 3 to 26"),
            "{err}"
        );
        let setup = setup_of(&["--size", "5"]).unwrap();
        assert_eq!(
            (setup.game, setup.pie, setup.pieces),
            (Game::Quentin, true, 0)
        );
    }
}
