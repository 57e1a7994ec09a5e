//! `quentin solve book make` and `quentin solve book verify`: a solved board's proof written
//! as a book, and a book walked with the rules to check that it proves what it claims.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};

use crate::rules::{Game, Setup};
use crate::search::book::{self, Book, Winner};
use crate::search::solver::{self, SolveLimits, SolveOptions, Store};

use super::limits::parse_seconds;
use super::write_stdout;

/// What `quentin solve book` does.
#[derive(Subcommand, Debug)]
pub(super) enum BookCommand {
    /// Solve an empty board to the end and write its proof as a book: the winner's move at each
    /// of its turns, for every reply of the loser.
    Make(MakeArgs),
    /// Walk a book with the rules alone and say whether it proves what it claims.
    Verify(VerifyArgs),
}

#[derive(Args, Debug)]
pub(super) struct MakeArgs {
    /// The game: quentin, konobi or brique.
    game: String,
    /// The board's side, 3 to 11.
    size: usize,
    /// With the pie rule (the second player may swap on its first turn).
    #[arg(long)]
    pie: bool,
    /// Where to write the book (a file there is replaced only by a book).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Keep the proved and refuted positions in DIR (read before, written after).
    #[arg(long, value_name = "DIR")]
    store: Option<PathBuf>,
    /// Threads that share the first moves of the solve, 1 to 64 (default 1).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Seconds the solve and the walk may spend, more than 0 and at most 86400 (default 600).
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: Option<f64>,
    /// Seconds the solve of the empty board may spend, within --seconds (default: all of
    /// them); stopped there with a winning first move proved, the book is made from that win
    /// and the other first moves are left unsettled.
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    solve_seconds: Option<f64>,
}

#[derive(Args, Debug)]
pub(super) struct VerifyArgs {
    /// The book to walk.
    file: PathBuf,
}

/// The board a book is about, in words: "Quentin 4×4, pie off".
fn board_words(book: &Book) -> String {
    format!(
        "{} {}×{}, pie {}",
        book.game(),
        book.size(),
        book.size(),
        if book.pie() { "on" } else { "off" }
    )
}

/// Who wins, in words.
fn winner_words(winner: Winner) -> &'static str {
    match winner {
        Winner::First => "the first player wins",
        Winner::Second => "the second player wins",
    }
}

pub(super) fn run(command: &BookCommand) -> Result<()> {
    match command {
        BookCommand::Make(args) => make(args),
        BookCommand::Verify(args) => verify(args),
    }
}

/// Reads a book's file.
fn read(path: &Path) -> Result<Book> {
    let bytes = std::fs::read(path).with_context(|| format!("{}", path.display()))?;
    Book::from_bytes(&bytes).with_context(|| format!("{}", path.display()))
}

fn make(args: &MakeArgs) -> Result<()> {
    let Some(game) = Game::from_name(&args.game).filter(|g| *g != Game::Quint) else {
        bail!(
            "{:?} is not a game with a book: quentin, konobi or brique",
            args.game
        );
    };
    if args.out.exists() && read(&args.out).is_err() {
        bail!(
            "{} exists and is not a book: it is left as it is (give another --out)",
            args.out.display()
        );
    }
    let mut setup = Setup::new(game);
    setup.size = args.size;
    setup.pie = args.pie;
    let start_pos = setup.start()?;
    let mut store = match &args.store {
        Some(dir) => Some(Store::open(dir, game, args.size)?),
        None => None,
    };
    let start = Instant::now();
    let limits = SolveLimits {
        depth: None,
        nodes: None,
        deadline: Some(start + Duration::from_secs_f64(args.seconds.unwrap_or(600.0))),
    };
    let options = SolveOptions {
        threads: args.threads.unwrap_or(1),
        store: store.as_mut(),
        ..SolveOptions::default()
    };
    let solve = SolveLimits {
        deadline: args
            .solve_seconds
            .map(|s| start + Duration::from_secs_f64(s))
            .or(limits.deadline),
        ..limits
    };
    let made = solver::make_book_within(&start_pos, &solve, &limits, options);
    if let Some(store) = &store {
        store.save()?;
    }
    let made = made?;
    let elapsed = start.elapsed().as_secs_f64();
    let walked = book::walk(&made.book)
        .context("the book just made does not prove its claim (a fault of the solver)")?;
    let bytes = made.book.to_bytes();
    let tmp = args.out.with_extension("new");
    std::fs::write(&tmp, &bytes).with_context(|| format!("{}", tmp.display()))?;
    std::fs::rename(&tmp, &args.out).with_context(|| format!("{}", args.out.display()))?;
    let first: Vec<String> = made
        .solution
        .winning
        .iter()
        .map(ToString::to_string)
        .collect();
    write_stdout(&format!(
        "{}: {} ({}).\nBook {}: {} entries, {} bytes; walked {} positions, the longest game {} actions.\n{} positions solved, {} walked, in {elapsed:.1} s\n",
        board_words(&made.book),
        winner_words(made.book.winner()),
        if made.book.winner() == Winner::First {
            format!("winning first moves {}", first.join(" "))
        } else {
            "no first move wins".to_string()
        },
        args.out.display(),
        made.book.len(),
        bytes.len(),
        walked.positions,
        walked.longest,
        made.solution.nodes,
        made.walk_nodes,
    ))
}

fn verify(args: &VerifyArgs) -> Result<()> {
    let book = read(&args.file)?;
    let claim = format!("{}: {}", board_words(&book), winner_words(book.winner()));
    let walked = book::walk(&book).with_context(|| {
        format!(
            "{} does not prove what it claims ({claim})",
            args.file.display()
        )
    })?;
    write_stdout(&format!(
        "{} proves it: {claim}.\n{} entries ({} played), {} positions walked, the longest game {} actions.\n",
        args.file.display(),
        book.len(),
        walked.entries_used,
        walked.positions,
        walked.longest
    ))
}

/// Reads `--threads`: from 1 to 64.
pub(super) fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=64).contains(&n) => Ok(n),
        _ => Err(format!("{text:?} is not a number of threads from 1 to 64")),
    }
}
