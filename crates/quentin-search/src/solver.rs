//! An exact solver: does the side to move win within N of its own moves?
//!
//! Where the tree search estimates, the solver proves. [`solve`] answers, for the person to
//! move, [`Verdict::Win`] with every first move that wins within the depth, [`Verdict::NoWin`]
//! when every first move is refuted (the opponent holds the game off for N of the mover's moves,
//! or wins), or [`Verdict::Unknown`] when its budget (nodes, a deadline) ran out first. A claim
//! of `Win` or `NoWin` is a proof: nothing is estimated, nothing is pruned that was not shown
//! to lose.
//!
//! The depth counts the mover's own actions (a placement, a drop, a step, a swap, a forced pass):
//! a win within 1 is a move that wins at once; within 2, a move after which every reply leaves
//! a win within 1. The opponent's move may also end the game in the mover's favour (Quentin's
//! tie fill can complete the other colour's chain); that counts as a win before the mover's next
//! move. The pie rule's swap changes the colour each person plays: the solver follows the
//! person, not the colour.
//!
//! Two searches behind one entry point:
//!
//! - Quentin, Konobi and Brique: depth-first proof-number search (df-pn: Nagai 2002, with
//!   Pawlewicz and Lew's 1+ε thresholds, as in Benzene's solver for Hex) over a transposition
//!   table keyed by the exact position (the stones, the colour to move, whether a swap is
//!   offered) and whether the attacker is to move. A proof is stored with the number of the
//!   attacker's moves it needs and a refutation with the depth it holds to, so that both serve
//!   every depth they cover ([`dfpn`]). The rules' own threat knowledge ([`Threats`], through
//!   [`Position::connecting_points`]) settles positions without expanding them: the attacker to
//!   move with a winning point has won; the defender to move with one has held the game (it
//!   wins at once); a defender's reply that leaves the attacker a winning point is lost at once,
//!   so only the replies that stop every threat are searched. The moves are tried in the order
//!   of the tree search's prior (Quentin's learned patterns, nearness to the last stone), then
//!   from the centre out.
//! - Quint: a plain depth-first AND/OR search without a table ([`plain`]), because a Quint
//!   position's value depends on its history (the third repetition is a draw, and a draw is not
//!   a win): the rules' own position, history included, is carried down every line, so each
//!   repetition is judged as the game would judge it.
//!
//! [`Threats`]: quentin_rules::Threats

mod book;
mod dfpn;
mod key;
mod plain;
mod root;
pub mod store;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

pub use book::{Made, MakeError, make_book, make_book_within};
pub use dfpn::TABLE_CAP;
pub use store::{Store, StoreError};

use quentin_rules::{Action, Game, Point, Position};

use crate::tree::centrality;
use crate::tree::prior::Prior;

/// The deepest search a caller may ask: the mover's moves.
pub const MAX_DEPTH: usize = 64;

/// The most nodes a caller may ask for.
pub const MAX_NODES: u64 = 1 << 40;

/// How far the solver may go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveLimits {
    /// The mover's moves to win within, from 1 to [`MAX_DEPTH`]; `None`: to the end of the game.
    pub depth: Option<usize>,
    /// The most positions to create; `None`: no limit but the deadline.
    pub nodes: Option<u64>,
    /// When to stop; `None`: no limit but the nodes.
    pub deadline: Option<Instant>,
}

/// The search's techniques, each of which can be switched off to measure what it saves (all on
/// by default; the answer is the same either way, only the work differs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Positions equal under the board's symmetries share an entry of the table.
    pub symmetry: bool,
    /// Where the opponent threatens to win at once, only the moves that stop every threat.
    pub must_play: bool,
    /// The moves in the order of the tree search's prior (else from the centre out).
    pub ordering: bool,
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques {
            symmetry: true,
            must_play: true,
            ordering: true,
        }
    }
}

/// What the solver proved about the person to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It wins within the depth: [`Solution::winning`] holds the winning first moves.
    Win,
    /// It cannot win within the depth, whatever it plays.
    NoWin,
    /// The budget ran out before either was proved.
    Unknown,
}

impl Verdict {
    /// `win`, `no-win` or `unknown`, as JSON writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::NoWin => "no-win",
            Verdict::Unknown => "unknown",
        }
    }
}

/// The solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// What was proved.
    pub verdict: Verdict,
    /// For a win, the mover's moves the quickest proved win needs; otherwise the depth searched
    /// (for a search to the end, the bound that covers every game from the position).
    pub depth: usize,
    /// The first moves proved to win within the depth, in the order of the legal actions
    /// (every one of them when [`Solution::complete`]).
    pub winning: Vec<Action>,
    /// Whether every first move was settled; false when the budget ran out after a win was
    /// proved (the verdict stands, some other first move may win too).
    pub complete: bool,
    /// Positions created.
    pub nodes: u64,
}

/// The value of a node for the attacker, once settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Settled {
    /// The attacker wins, needing this many more of its own moves.
    Win(u16),
    /// The attacker cannot win within any depth below this one.
    NoWinBelow(u16),
}

/// The budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OutOfBudget;

/// The nodes counted against the limits, shared by the threads of one solve.
struct Counter<'a> {
    total: &'a AtomicU64,
    stop: &'a AtomicBool,
    /// Nodes this thread made.
    local: u64,
    limit: u64,
    deadline: Option<Instant>,
}

impl Counter<'_> {
    fn new<'a>(limits: &SolveLimits, total: &'a AtomicU64, stop: &'a AtomicBool) -> Counter<'a> {
        Counter {
            total,
            stop,
            local: 0,
            limit: limits.nodes.unwrap_or(MAX_NODES).min(MAX_NODES),
            deadline: limits.deadline,
        }
    }

    /// Counts one created position; out of budget when the nodes or the time are spent (by
    /// any thread).
    fn tick(&mut self) -> Result<(), OutOfBudget> {
        let nodes = self.total.fetch_add(1, Ordering::Relaxed) + 1;
        self.local += 1;
        let late =
            self.local.is_multiple_of(1024) && self.deadline.is_some_and(|d| Instant::now() >= d);
        if nodes > self.limit || late {
            self.stop.store(true, Ordering::Relaxed);
        }
        if self.stop.load(Ordering::Relaxed) {
            return Err(OutOfBudget);
        }
        Ok(())
    }
}

/// Proves what the person to move in `pos` can do within `limits`.
///
/// A finished game is a [`Verdict::NoWin`] at depth 0 (the mover has no move).
///
/// # Example
/// ```
/// use quentin_rules::{Action, Board, Color, Game, Point, Setup};
/// use quentin_search::solver::{SolveLimits, Verdict, solve};
/// // Brique 3×3, Black to move: b1 joins b2 and b3 to the bottom edge.
/// let board = Board::from_rows(".B.|.B.|W.W").unwrap();
/// let pos = Setup::new(Game::Brique).start_from(board, Color::Black).unwrap();
/// let limits = SolveLimits { depth: Some(1), ..SolveLimits::default() };
/// let solution = solve(&pos, &limits);
/// assert_eq!(solution.verdict, Verdict::Win);
/// assert_eq!(solution.winning, vec![Action::Place(Point::parse("b1").unwrap())]);
/// ```
#[must_use]
pub fn solve(pos: &Position, limits: &SolveLimits) -> Solution {
    solve_with(pos, limits, Techniques::default())
}

/// [`solve`] with the given techniques.
#[must_use]
pub fn solve_with(pos: &Position, limits: &SolveLimits, techniques: Techniques) -> Solution {
    solve_in(
        pos,
        limits,
        SolveOptions {
            techniques,
            ..SolveOptions::default()
        },
    )
}

/// How a solve runs, beyond its limits.
#[derive(Default)]
pub struct SolveOptions<'a> {
    /// The techniques the search uses.
    pub techniques: Techniques,
    /// The threads that share the first moves (0 or 1: one).
    pub threads: usize,
    /// The proved and refuted positions of earlier runs, and where this one's go (Quentin,
    /// Konobi and Brique; the caller saves it).
    pub store: Option<&'a mut Store>,
    /// The entries each thread's table holds before it forgets those cheapest to find again,
    /// the proofs last (0: [`TABLE_CAP`]); about 70 bytes an entry, and up to twice that while
    /// the table grows.
    pub table: usize,
    /// Told of each first move as soon as it is settled, with the store (when one is given)
    /// holding everything proved so far: a long solve can save it there, so that a run
    /// killed later keeps the first moves settled before.
    pub progress: Option<Progress<'a>>,
}

/// What [`SolveOptions::progress`] calls: the first move settled, and the store.
pub type Progress<'a> = &'a (dyn Fn(&FirstMove, Option<&Store>) + Sync);

/// A first move settled during a solve ([`SolveOptions::progress`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstMove {
    /// The move (the first of the moves equal to it under the board's symmetries).
    pub action: Action,
    /// The mover's moves its quickest proved win needs, this one included; `None`: it does
    /// not win within the depth searched.
    pub win_in: Option<usize>,
    /// Positions created so far by the whole solve.
    pub nodes: u64,
}

/// [`solve`] with the given options: the first moves shared among threads (each with its own
/// table; a first move is one thread's work), and a store read before and added to after.
#[must_use]
pub fn solve_in(pos: &Position, limits: &SolveLimits, options: SolveOptions<'_>) -> Solution {
    root::run(pos, limits, options)
}

/// The mover's moves that cover every game from `pos`: a connection game's placements fill an
/// empty point each and never empty one, so the mover places at most once per empty point, with
/// a forced pass between two of them at most and one swap; Quint's games have no such bound
/// (the search deepens until no line reaches its depth).
fn game_bound(pos: &Position) -> usize {
    match pos.game() {
        Game::Quint => MAX_DEPTH,
        _ => {
            let size = pos.size();
            let [black, white] = pos.on_board();
            2 * (size * size - black - white) + 2
        }
    }
}

/// One search behind [`solve`].
trait Engine: Send {
    /// The value for the attacker of `pos`, where the defender is to move after the attacker
    /// played `last`, with `depth` attacker moves left.
    fn defender_to_move(
        &mut self,
        pos: &Position,
        last: Action,
        depth: usize,
        counter: &mut Counter,
    ) -> Result<Settled, OutOfBudget>;

    /// Whether the last call saw no line cut by its depth (its answer holds at every depth).
    fn exhaustive(&self) -> bool {
        false
    }

    /// Learns what a store holds.
    fn import(&mut self, _store: &Store) {}

    /// Adds what it proved and refuted to a store.
    fn export(&self, _store: &mut Store) {}
}

/// A child position and the action that made it.
#[derive(Clone)]
struct Kid {
    action: Action,
    pos: Position,
}

/// Every legal action of `pos` with its position, in the order the solver tries them (see
/// [`ordered_actions`]).
fn children(pos: &Position, last: Option<Point>, ordered: bool) -> Vec<Kid> {
    ordered_actions(pos, last, ordered)
        .into_iter()
        .filter_map(|action| {
            let mut child = pos.clone();
            child.play(action).ok().map(|()| Kid { action, pos: child })
        })
        .collect()
}

/// Every legal action of `pos` in the order the solver tries them: the prior's share first
/// (the tree search's knowledge at expansion), then from the centre out; `last` is where the
/// stone placed last stands.
fn ordered_actions(pos: &Position, last: Option<Point>, ordered: bool) -> Vec<Action> {
    let mut actions = Vec::new();
    pos.legal_actions_into(&mut actions);
    if ordered {
        order(pos, &mut actions, last);
    } else {
        actions.sort_by_key(|&a| centrality(a, pos.size()));
    }
    actions
}

/// Sorts `actions` of `pos` best first (see [`children`]).
fn order(pos: &Position, actions: &mut [Action], last: Option<Point>) {
    let size = pos.size();
    match Prior::of(pos.game()) {
        Some(prior) => {
            let mover = pos.to_move();
            let board = pos.board();
            // The share in thousandths, so that the key is whole and the sort stable.
            actions.sort_by_cached_key(|&a| match a {
                Action::Place(p) => (
                    std::cmp::Reverse((prior.share(board, p, mover, last) * 1000.0) as i32),
                    centrality(a, size),
                ),
                _ => (std::cmp::Reverse(i32::MIN), usize::MAX),
            });
        }
        None => actions.sort_by_key(|&a| centrality(a, size)),
    }
}

/// Where the stone of `action` went, for the prior's nearness.
fn landing(action: Action) -> Option<Point> {
    match action {
        Action::Place(p) | Action::Step { to: p, .. } => Some(p),
        Action::Swap | Action::Pass => None,
    }
}

#[cfg(test)]
pub(crate) mod tests;
