//! A book made from the solver's proofs: the empty board solved, then the proof walked, at
//! each of the winner's turns a move the table proves (the quickest it knows), at each of the
//! loser's every legal action (see [`crate::book`]).

use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64};

use quentin_rules::{Action, Position};

use super::dfpn::DfPn;
use super::{
    Counter, Engine, OutOfBudget, Settled, Solution, SolveLimits, SolveOptions, Store, Verdict,
    children, game_bound, root,
};
use crate::book::{Book, BookError, Image, Winner, move_at_once};

/// Why no book was made.
#[derive(Debug)]
pub enum MakeError {
    /// The board cannot have a book.
    Book(BookError),
    /// The budget ran out (the empty board unsettled, or the walk unfinished).
    OutOfBudget,
    /// The solver's proofs did not give a winning move where the walk needed one (a fault of
    /// the solver: the line that led there).
    NoProof(Vec<Action>),
}

impl fmt::Display for MakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MakeError::Book(e) => write!(f, "{e}"),
            MakeError::OutOfBudget => f.write_str("the budget ran out before the book was made"),
            MakeError::NoProof(line) => {
                let moves: Vec<String> = line.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "the solver proved no winning move after {} (a fault of the solver)",
                    moves.join(" ")
                )
            }
        }
    }
}

impl std::error::Error for MakeError {}

impl From<OutOfBudget> for MakeError {
    fn from(_: OutOfBudget) -> MakeError {
        MakeError::OutOfBudget
    }
}

/// What making a book did.
pub struct Made {
    /// The book.
    pub book: Book,
    /// The solve of the empty board.
    pub solution: Solution,
    /// Positions the walk created (beyond the solve's).
    pub walk_nodes: u64,
}

/// Solves the empty board `start` (with the pie rule as its setup has it), then walks the proof
/// into a book. `options.store`, when given, is read before and added to after (the caller
/// saves it); without one the proofs are kept in memory.
///
/// # Errors
/// A board that cannot have a book, the budget spent, or a fault of the solver.
pub fn make_book(
    start: &Position,
    limits: &SolveLimits,
    options: SolveOptions<'_>,
) -> Result<Made, MakeError> {
    make_book_within(start, limits, limits, options)
}

/// [`make_book`] with the solve of the empty board held to `solve` (the walk to `limits`): a
/// solve stopped there with a winning first move proved makes the book from that win (the
/// other first moves unsettled), so that a board whose last first moves are still open gets
/// its book.
///
/// # Errors
/// As [`make_book`].
pub fn make_book_within(
    start: &Position,
    solve: &SolveLimits,
    limits: &SolveLimits,
    options: SolveOptions<'_>,
) -> Result<Made, MakeError> {
    let (game, size) = (start.game(), start.size());
    let mut scratch;
    let store: &mut Store = match options.store {
        Some(s) => s,
        None => {
            scratch = Store::in_memory(game, size);
            &mut scratch
        }
    };
    let techniques = options.techniques;
    let solution = root::run(
        start,
        solve,
        SolveOptions {
            techniques,
            threads: options.threads,
            store: Some(&mut *store),
            table: options.table,
            progress: options.progress,
        },
    );
    let winner = match solution.verdict {
        Verdict::Win => Winner::First,
        Verdict::NoWin => Winner::Second,
        Verdict::Unknown => return Err(MakeError::OutOfBudget),
    };
    let mut book = Book::new(game, size, start.setup().pie, winner).map_err(MakeError::Book)?;
    let mut engine = DfPn::new(game, size, techniques, options.table);
    engine.import(store);
    let total = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let counter = Counter::new(limits, &total, &stop);
    let mut maker = Maker {
        engine,
        book: &mut book,
        counter,
        losers_seen: HashSet::new(),
        line: Vec::new(),
    };
    let walked = maker.node(start);
    let walk_nodes = maker.counter.local;
    maker.engine.export(store);
    walked?;
    Ok(Made {
        book,
        solution,
        walk_nodes,
    })
}

/// The walk that makes the book.
struct Maker<'a, 'b> {
    engine: DfPn,
    book: &'a mut Book,
    counter: Counter<'b>,
    /// The images of the loser's positions walked already.
    losers_seen: HashSet<Image>,
    line: Vec<Action>,
}

impl Maker<'_, '_> {
    fn node(&mut self, pos: &Position) -> Result<(), MakeError> {
        if pos.is_over() {
            return Ok(());
        }
        let winner = self.book.winner().color(pos);
        if pos.to_move() == Some(winner) {
            self.winner_turn(pos, winner)
        } else {
            if !self.losers_seen.insert(self.book.image_of(pos)) {
                return Ok(());
            }
            for action in pos.legal_actions() {
                let mut next = pos.clone();
                if next.play(action).is_ok() {
                    self.line.push(action);
                    self.node(&next)?;
                    self.line.pop();
                }
            }
            Ok(())
        }
    }

    fn winner_turn(
        &mut self,
        pos: &Position,
        winner: quentin_rules::Color,
    ) -> Result<(), MakeError> {
        if self.book.contains(pos) {
            return Ok(());
        }
        match move_at_once(pos, winner) {
            Some(Action::Pass) => {
                let mut next = pos.clone();
                if next.play(Action::Pass).is_ok() {
                    self.line.push(Action::Pass);
                    self.node(&next)?;
                    self.line.pop();
                }
                return Ok(());
            }
            Some(_) => return Ok(()),
            None => {}
        }
        let kids = children(pos, None, true);
        // The quickest proof the table holds, else the first move the solver proves.
        let known = kids
            .iter()
            .filter_map(|k| self.engine.proved(&k.pos).map(|n| (n, k)))
            .min_by_key(|(n, _)| *n)
            .map(|(_, k)| k);
        let kid = match known {
            Some(k) => k,
            None => {
                let mut found = None;
                for k in &kids {
                    let depth = game_bound(&k.pos);
                    let value =
                        self.engine
                            .defender_to_move(&k.pos, k.action, depth, &mut self.counter)?;
                    if matches!(value, Settled::Win(_)) {
                        found = Some(k);
                        break;
                    }
                }
                found.ok_or_else(|| MakeError::NoProof(self.line.clone()))?
            }
        };
        self.book.insert(pos, kid.action);
        self.line.push(kid.action);
        self.node(&kid.pos)?;
        self.line.pop();
        Ok(())
    }
}
