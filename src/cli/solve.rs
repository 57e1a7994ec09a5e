//! `quentin solve`: the position of a record proved by the exact solver, printed for people or
//! as JSON.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use serde_json::json;

use crate::record::Record;
use crate::rules::{Color, Position};
use crate::search::book::{self, Answer};
use crate::search::solver::{
    self, FirstMove, MAX_DEPTH, Solution, SolveLimits, SolveOptions, Store, Techniques, Verdict,
};

use super::analyze::round;
use super::limits::parse_seconds;
use super::solve_book::parse_threads;
use super::solve_book::{self, BookCommand};
use super::{BadRecord, load_record, write_stdout};

/// The time the solver has when no budget is given.
const DEFAULT_SECONDS: f64 = 10.0;

/// The most positions the walk of a book's strategy checks when `quentin solve` answers from a
/// book (under a second), so that a position whose strategy below is millions of positions
/// (the empty Konobi 5×5 board with the pie rule: 12,001,540) is answered at once; `quentin
/// solve book verify` walks a whole book.
const BOOK_WALK_CAP: usize = 100_000;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub(super) struct SolveArgs {
    /// Books of solved boards: `quentin solve book make GAME SIZE [--pie] --out FILE`,
    /// `quentin solve book verify FILE`.
    #[command(subcommand)]
    book: Option<SolveCommand>,
    /// The record whose position to solve.
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// Solve the position after the first N actions instead of after all of them.
    #[arg(long, value_name = "N")]
    at: Option<u64>,
    /// Prove a win within N of the mover's own moves, 1 to 64 (default: to the end of the game).
    #[arg(long, value_name = "N", value_parser = parse_depth)]
    depth: Option<usize>,
    /// Seconds the solver may spend, more than 0 and at most 86400 (default 10).
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: Option<f64>,
    /// The most positions the solver may create, 1 to 2^40 (default: no limit but the time).
    #[arg(long, value_name = "N", value_parser = parse_solver_nodes)]
    nodes: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Threads that share the first moves, 1 to 64 (default 1).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Keep the proved and refuted positions in DIR (read before, written after), so that a
    /// solve stopped by its budget goes on from where it was.
    #[arg(long, value_name = "DIR")]
    store: Option<PathBuf>,
    /// The positions each thread's table holds before it forgets those cheapest to find again
    /// (the proofs last), from 1,024 to 2^32 (default 8,388,608; about 70 bytes each, twice
    /// that while it grows).
    #[arg(long, value_name = "N", value_parser = parse_table)]
    table: Option<usize>,
    /// Tell each first move on standard error as soon as it is settled, and save the store
    /// (with `--store`) after each, so that a run killed later keeps them.
    #[arg(long)]
    progress: bool,
    /// Leave out the board's symmetries from the solver's table (to measure what they save).
    #[arg(long)]
    no_symmetry: bool,
    /// Search every reply where the opponent threatens to win at once (to measure the
    /// must-play pruning).
    #[arg(long)]
    no_must_play: bool,
    /// Try the moves from the centre out instead of in the tree search's order.
    #[arg(long)]
    no_ordering: bool,
    /// Solve even where a shipped book covers the position (which answers at once, unless a
    /// depth or a store is given).
    #[arg(long)]
    no_book: bool,
}

/// The subcommands of `quentin solve`.
#[derive(Subcommand, Debug)]
pub(super) enum SolveCommand {
    /// Books of solved boards: make one, or verify one with the rules alone.
    #[command(subcommand)]
    Book(BookCommand),
}

/// Reads `--depth`: the mover's moves, from 1 to [`MAX_DEPTH`].
fn parse_depth(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_DEPTH).contains(&n) => Ok(n),
        _ => Err(format!(
            "{text:?} is not a depth: the mover's moves, from 1 to {MAX_DEPTH}"
        )),
    }
}

/// Reads `--table`: from 1,024 to 2^32 positions.
fn parse_table(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1024..=1 << 32).contains(&n) => Ok(n),
        _ => Err(format!(
            "{text:?} is not a number of positions from 1024 to {}",
            1u64 << 32
        )),
    }
}

/// Reads `--nodes` of the solver: from 1 to [`solver::MAX_NODES`].
fn parse_solver_nodes(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (1..=solver::MAX_NODES).contains(&n) => Ok(n),
        _ => Err(format!(
            "{text:?} is not a number of positions from 1 to {}",
            solver::MAX_NODES
        )),
    }
}

pub(super) fn solve(args: &SolveArgs) -> Result<()> {
    let Some(file) = &args.file else {
        let Some(SolveCommand::Book(book)) = &args.book else {
            bail!("quentin solve needs a record (or `book`)");
        };
        return solve_book::run(book);
    };
    let record = load_record(file)?;
    let at = super::replay::action_count(&record, file, args.at)?;
    let position = record.position_at(at);
    if position.is_over() {
        bail!(BadRecord(format!(
            "{}: the game is over after {at} action{}: nothing to solve",
            file.display(),
            if at == 1 { "" } else { "s" },
        )));
    }
    // A store asks for the solver's own work (to keep or resume it): no book then.
    if args.depth.is_none() && args.store.is_none() && !args.no_book {
        let start = Instant::now();
        if let Some(answer) = book::shipped::answer_for(&position, BOOK_WALK_CAP) {
            return from_book(args, &record, at, &position, &answer, start);
        }
    }
    let mut store = match &args.store {
        Some(dir) => Some(Store::open(dir, position.game(), position.size())?),
        None => None,
    };
    let seconds = args.seconds.unwrap_or(DEFAULT_SECONDS);
    let start = Instant::now();
    let limits = SolveLimits {
        depth: args.depth,
        nodes: args.nodes,
        deadline: Some(start + Duration::from_secs_f64(seconds)),
    };
    let techniques = Techniques {
        symmetry: !args.no_symmetry,
        must_play: !args.no_must_play,
        ordering: !args.no_ordering,
    };
    let tell = |first: &FirstMove, store: Option<&Store>| tell_progress(first, store, start);
    let options = SolveOptions {
        techniques,
        threads: args.threads.unwrap_or(1),
        store: store.as_mut(),
        table: args.table.unwrap_or(0),
        progress: args
            .progress
            .then_some(&tell as &(dyn Fn(&FirstMove, Option<&Store>) + Sync)),
    };
    let solution = solver::solve_in(&position, &limits, options);
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(store) = &store {
        store.save()?;
    }
    let out = if args.json {
        let winning: Vec<String> = solution.winning.iter().map(ToString::to_string).collect();
        let mut s = json!({
            "result": solution.verdict.name(),
            "depth": solution.depth,
            "winning_moves": winning,
            "nodes": solution.nodes,
            "seconds": round(elapsed),
        });
        if let Some(store) = &store {
            s["store"] = json!({ "loaded": store.loaded(), "saved": store.len() });
        }
        let mut s = s.to_string();
        s.push('\n');
        s
    } else {
        let mut out = crate::position_view::text(&position, &record.actions()[..at]);
        // "Black" or "White", as the position's own text writes them.
        let mover = match position.to_move() {
            Some(Color::Black) => "Black",
            Some(Color::White) => "White",
            None => "Nobody",
        };
        out.push('\n');
        out.push_str(&verdict_text(&solution, mover, args.depth));
        out.push_str(&format!(
            "{} positions in {elapsed:.2} s ({:.0}/s)\n",
            solution.nodes,
            solution.nodes as f64 / elapsed.max(1e-9)
        ));
        if let (Some(store), Some(dir)) = (&store, &args.store) {
            out.push_str(&format!(
                "Store {}: {} positions ({} before this run)\n",
                dir.display(),
                store.len(),
                store.loaded()
            ));
        }
        out
    };
    write_stdout(&out)
}

/// `--progress`: a first move settled, on standard error, and the store saved.
fn tell_progress(first: &FirstMove, store: Option<&Store>, start: Instant) {
    let value = match first.win_in {
        Some(n) => format!("wins in {n}"),
        None => "does not win".to_string(),
    };
    let mut line = format!(
        "{}: {value} ({} positions, {:.0} s)",
        first.action,
        first.nodes,
        start.elapsed().as_secs_f64()
    );
    if let Some(store) = store {
        match store.save() {
            Ok(()) => line.push_str(&format!("; store saved, {} positions", store.len())),
            Err(e) => line.push_str(&format!("; the store could not be saved: {e}")),
        }
    }
    eprintln!("{line}");
}

/// The answer of a shipped book that covers the position, printed as a solve's.
fn from_book(
    args: &SolveArgs,
    record: &Record,
    at: usize,
    position: &Position,
    answer: &Answer,
    start: Instant,
) -> Result<()> {
    let elapsed = start.elapsed().as_secs_f64();
    let moves: Vec<String> = answer.action.iter().map(ToString::to_string).collect();
    // The mover's moves of the longest game the book's walk saw from here: a bound on the win;
    // none when the walk stopped at its cap.
    let depth = answer.walked.map(|walked| {
        if answer.wins {
            walked.longest.div_ceil(2)
        } else {
            walked.longest / 2
        }
    });
    let positions = answer
        .walked
        .map_or(BOOK_WALK_CAP, |walked| walked.positions);
    let out = if args.json {
        let mut s = json!({
            "result": if answer.wins { "win" } else { "no-win" },
            "depth": depth,
            "winning_moves": moves,
            "nodes": positions,
            "seconds": round(elapsed),
            "book": true,
        })
        .to_string();
        s.push('\n');
        s
    } else {
        let mut out = crate::position_view::text(position, &record.actions()[..at]);
        let mover = match position.to_move() {
            Some(Color::White) => "White",
            _ => "Black",
        };
        out.push('\n');
        if answer.wins {
            out.push_str(&format!(
                "{mover} to move wins (proved, from the book).\nThe book's move: {}\n",
                moves.join(" ")
            ));
        } else {
            out.push_str(&format!(
                "{mover} to move cannot win (proved, from the book).\n"
            ));
        }
        out.push_str(&match answer.walked {
            Some(walked) => format!(
                "The book's strategy walked from here by the rules: {} positions, games of {} actions at most, in {elapsed:.2} s\n",
                walked.positions, walked.longest
            ),
            None => format!(
                "The book's strategy from here holds more than {positions} positions (`quentin solve book verify` walks it whole); answered in {elapsed:.2} s\n"
            ),
        });
        out
    };
    write_stdout(&out)
}

/// What was proved, in words.
fn verdict_text(solution: &Solution, mover: &str, asked: Option<usize>) -> String {
    let within = |d: usize| format!("{d} move{}", if d == 1 { "" } else { "s" });
    let moves: Vec<String> = solution.winning.iter().map(ToString::to_string).collect();
    match solution.verdict {
        Verdict::Win => {
            // With a depth asked beyond the quickest win, the list is of the moves that win
            // within the asked depth.
            let list = match asked {
                Some(d) if d > solution.depth => format!("Moves that win within {}", within(d)),
                _ => "Winning moves".to_string(),
            };
            let mut s = format!(
                "{mover} to move wins within {} (proved).\n{list}: {}\n",
                within(solution.depth),
                moves.join(" ")
            );
            if !solution.complete {
                s.push_str("(The budget ran out before every first move was settled.)\n");
            }
            s
        }
        Verdict::NoWin => match asked {
            Some(d) => format!(
                "{mover} to move cannot win within {} (proved).\n",
                within(d)
            ),
            None => format!("{mover} to move cannot win (proved).\n"),
        },
        Verdict::Unknown => format!(
            "Unknown: the budget ran out{}.\n",
            if solution.depth > 0 {
                format!(" (no win within {} for {mover})", within(solution.depth))
            } else {
                String::new()
            }
        ),
    }
}
