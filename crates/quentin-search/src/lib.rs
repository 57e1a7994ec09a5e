//! The computer player: a Monte Carlo tree search over [`Position`] for all four games.
//!
//! [`Searcher`] is the synchronous engine: it searches a position within [`Limits`] and keeps its
//! tree between moves ([`Searcher::advance`]). [`Thinker`] runs one search on its own thread for
//! an interface that must never block. [`players`] holds the baseline players `random` and
//! `greedy` that `quentin match` measures the search against.
//!
//! [`review`] weighs every action of a game against the best one the search finds.
//!
//! [`Level`] makes it weaker on purpose, for people to play against: fewer playouts and a
//! choice that accepts some loss.
//!
//! Inside: UCT blended with RAVE, a prior and the grandparent's AMAF results for each new
//! placement (`tree/prior.rs`, `tree/inherit.rs`), decisive and anti-decisive moves where a node
//! is expanded, forks (wins in three actions) looked for at the root and at the nodes of many
//! playouts (`forks.rs`), the MCTS-Solver (proved wins and losses), and root parallelism (each
//! thread its own tree, the root's statistics merged). Random playouts ([`playout`]) and the
//! policies that choose their actions ([`policy`]) are the search's too: the rules only say what
//! is legal and what an action does. Pure: no terminal, no files.

#![forbid(unsafe_code)]

pub mod book;
pub mod calibration;
mod forks;
mod level;
pub mod patterns;
pub mod players;
pub mod playout;
pub mod policy;
pub mod puzzles;
mod quint_tactics;
mod report;
pub mod resist;
pub mod review;
pub mod rng;
pub mod solver;
mod thinker;
mod tree;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::rng::Rng;
use quentin_rules::{Action, Position};

pub use calibration::Calibration;
pub use level::{Level, near_stones};
pub use policy::Policy;
pub use report::{MIN_VISITS, MoveReport, Report, chance_words};
pub use thinker::Thinker;

use report::RootStats;
use tree::{Params, Proof, Tree};

/// How much to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Wall time for the whole move.
    Seconds(f64),
    /// A fixed number of playouts (simulations), shared by the threads: with one thread and a
    /// seed, the same position gives the same move on every run and machine.
    Playouts(u64),
    /// Until stopped: live analysis.
    Unlimited,
}

/// Nodes a search keeps by default, all threads together (about 64 bytes each: the node, its
/// statistics and its share of its parent's map from points to children).
pub const DEFAULT_NODES: usize = 2_000_000;
/// The most nodes a search may keep: about 1 GB.
pub const MAX_NODES: usize = (1 << 30) / tree::NODE_BYTES;

/// What a search may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Time or playouts.
    pub budget: Budget,
    /// Search threads; 0 for the machine's cores.
    pub threads: usize,
    /// The seed of the playouts; `None` for a fresh one each search.
    pub seed: Option<u64>,
    /// The most tree nodes kept, all threads together (0 for [`DEFAULT_NODES`], at most
    /// [`MAX_NODES`]): a long think never grows without limit.
    pub nodes: usize,
    /// How strongly to play: below [`Level::FULL`], the level's playouts (within the budget)
    /// on one thread, and its choice.
    pub level: Level,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            budget: Budget::Seconds(1.0),
            threads: 0,
            seed: None,
            nodes: DEFAULT_NODES,
            level: Level::FULL,
        }
    }
}

impl Limits {
    /// The threads to run: `threads`, or the machine's cores for 0; one below full strength,
    /// so that a level plays alike on every machine.
    #[must_use]
    pub fn thread_count(&self) -> usize {
        if !self.level.is_full() {
            return 1;
        }
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            n => n.min(256),
        }
    }

    fn node_count(&self) -> usize {
        match self.nodes {
            0 => DEFAULT_NODES,
            n => n.min(MAX_NODES),
        }
    }
}

/// A proof of the position's value, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// The side to move wins with best play.
    Win,
    /// The side to move loses whatever it does.
    Loss,
}

impl Proven {
    /// `win` or `loss`, as JSON writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Proven::Win => "win",
            Proven::Loss => "loss",
        }
    }
}

/// What a search's seed is mixed with for the draw of a level's choice.
const LEVEL_SEED: u64 = 0x6c65_7665_6c5f_6472;

/// How often a running search reports its progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(80);

/// The synchronous engine: searches positions and keeps its tree between moves.
pub struct Searcher {
    limits: Limits,
    params: Params,
    /// The position the trees grow from.
    root: Option<Position>,
    trees: Vec<Tree>,
    /// Searches run, to vary the seed from one to the next.
    searches: u64,
    /// Whether a lost position's action is the one that holds out longest ([`resist`]).
    resist: bool,
}

impl Searcher {
    /// A searcher within `limits`, with the search's own playout policy.
    #[must_use]
    pub fn new(limits: Limits) -> Searcher {
        Searcher::with_policy(limits, Policy::Search)
    }

    /// A searcher whose playouts follow `policy`.
    #[must_use]
    pub fn with_policy(limits: Limits, policy: Policy) -> Searcher {
        Searcher {
            limits,
            params: Params {
                policy,
                ..Params::default()
            },
            root: None,
            trees: Vec::new(),
            searches: 0,
            resist: false,
        }
    }

    /// Whether, at full strength, a position the playouts call lost (the best action's share
    /// below [`resist::HOPELESS`], no proof) gets the action that holds out longest, as the
    /// exact solver proves it ([`resist::longest_resistance`]), rather than the tree search's
    /// best among moves that all look lost: what a person asking for a hint, or playing the
    /// computer, expects (issue 46). Off unless asked for: matches and the ladder measure the
    /// tree search alone.
    pub fn set_resist(&mut self, on: bool) {
        self.resist = on;
    }

    /// The limits of the next searches.
    #[must_use]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Changes the limits of the next searches; the tree is kept unless the thread count, the
    /// node budget, or whether the level is full strength (which has the prior) changes.
    pub fn set_limits(&mut self, limits: Limits) {
        if limits.thread_count() != self.limits.thread_count()
            || limits.nodes != self.limits.nodes
            || limits.level.is_full() != self.limits.level.is_full()
        {
            self.trees.clear();
        }
        self.limits = limits;
    }

    /// Forgets the tree; the next search starts afresh from the position it is given.
    pub fn set_position(&mut self, position: &Position) {
        self.root = Some(position.clone());
        self.trees.clear();
    }

    /// The constants of a new tree: the prior at full strength only. The levels below play the
    /// search their ladder was measured with; with the prior, every step would have to be
    /// measured again.
    fn tree_params(&self) -> Params {
        Params {
            prior: self.params.prior && self.limits.level.is_full(),
            forks: self.params.forks && self.limits.level.is_full(),
            inherit: self.params.inherit && self.limits.level.is_full(),
            ..self.params
        }
    }

    /// `action` was played in the position searched last: keeps the subtree under it for the
    /// next search (tree reuse). An action the tree does not know starts it afresh.
    pub fn advance(&mut self, action: Action) {
        let Some(root) = self.root.as_mut() else {
            return;
        };
        if root.play(action).is_err() {
            self.root = None;
            self.trees.clear();
            return;
        }
        let (capacity, params) = (tree_capacity(&self.limits), self.tree_params());
        for tree in &mut self.trees {
            if !tree.reroot(action) {
                *tree = Tree::new(capacity, params);
            }
        }
    }

    /// Searches `position` for the side to move until the budget is spent, the value is proved
    /// or `stop` is set, calling `on_progress` about every 80 ms; returns the final report.
    /// A finished game gives an empty report (no best action).
    pub fn search(
        &mut self,
        position: &Position,
        stop: &AtomicBool,
        mut on_progress: impl FnMut(&Report),
    ) -> Report {
        let clock = Instant::now();
        let threads = self.limits.thread_count();
        let reuse = self
            .root
            .as_ref()
            .is_some_and(|r| same_position(r, position))
            && self.trees.len() == threads;
        if !reuse {
            self.root = Some(position.clone());
            let capacity = tree_capacity(&self.limits);
            self.trees = (0..threads)
                .map(|_| Tree::new(capacity, self.tree_params()))
                .collect();
        }
        if position.is_over() {
            return Report::finished(position, clock.elapsed());
        }
        for tree in &mut self.trees {
            tree.expand_root(position, stop);
        }
        // Full strength only: the levels below play the search their ladder was measured with.
        if self.tree_params().forks {
            let proofs = forks::child_proofs(position, stop);
            for tree in &mut self.trees {
                tree.prove_children(tree::ROOT, &proofs);
            }
        }
        let base_seed = self.limits.seed.unwrap_or_else(fresh_seed);
        let seed = base_seed.wrapping_add(self.searches.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        self.searches += 1;
        let deadline = match self.limits.budget {
            Budget::Seconds(s) => Some(clock + Duration::from_secs_f64(s.clamp(0.0, 1e7))),
            _ => None,
        };
        // A level below full strength adds its playouts to what it keeps from earlier moves, as
        // full strength adds its think time's: counting the kept visits against the level left
        // level 9 adding fewer playouts a move than its number, and the step to level 10 too wide.
        let level_cap = self.limits.level.playouts(position.size());
        let budgets: Vec<Option<u64>> = (0..threads as u64)
            .map(|t| {
                let share = match self.limits.budget {
                    Budget::Playouts(n) => {
                        let t_count = threads as u64;
                        Some(n / t_count + u64::from(t < n % t_count))
                    }
                    _ => None,
                };
                match (share, level_cap) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            })
            .collect();
        let done = AtomicBool::new(false);
        let playouts = AtomicU64::new(0);
        let snapshots: Vec<Mutex<RootStats>> = self
            .trees
            .iter()
            .map(|t| Mutex::new(RootStats::of(t)))
            .collect();
        let merge = |stats: &[RootStats]| {
            Report::merge(
                position,
                stats,
                playouts.load(Ordering::Relaxed),
                clock.elapsed(),
            )
        };
        let (finished_tx, finished_rx) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            for (t, tree) in self.trees.iter_mut().enumerate() {
                let worker = Worker {
                    position,
                    stop,
                    done: &done,
                    playouts: &playouts,
                    snapshot: &snapshots[t],
                    deadline,
                    budget: budgets[t],
                    seed: seed ^ (t as u64).wrapping_mul(0xd134_2543_de82_ef95),
                };
                let tx = finished_tx.clone();
                scope.spawn(move || {
                    worker.run(tree);
                    // The receiver lives until every worker has ended: a failed send only
                    // means the search is over anyway.
                    let _ = tx.send(());
                });
            }
            drop(finished_tx);
            let mut running = threads;
            let mut next_progress = Instant::now() + PROGRESS_EVERY;
            while running > 0 {
                let wait = next_progress.saturating_duration_since(Instant::now());
                match finished_rx.recv_timeout(wait) {
                    Ok(()) => running -= 1,
                    Err(mpsc::RecvTimeoutError::Disconnected) => running = 0,
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
                if Instant::now() >= next_progress && running > 0 {
                    on_progress(&merge(&lock_all(&snapshots)));
                    next_progress = Instant::now() + PROGRESS_EVERY;
                }
            }
        });
        let stats: Vec<RootStats> = self.trees.iter().map(RootStats::of).collect();
        let mut report = merge(&stats);
        level::apply(
            self.limits.level,
            position,
            &mut report,
            &mut Rng::new(seed ^ LEVEL_SEED),
        );
        if self.resist && self.limits.level.is_full() && !stop.load(Ordering::Relaxed) {
            hold_out(position, &mut report, deadline, stop);
        }
        on_progress(&report);
        report
    }
}

/// In a position the playouts call lost, and not proved either way, makes the report's best
/// action the one that holds out longest ([`resist::longest_resistance`]), with its own win
/// share; the rest of the report stays the tree search's.
fn hold_out(
    position: &Position,
    report: &mut Report,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) {
    if report.proven.is_some() || !report.raw_chance().is_some_and(|w| w < resist::HOPELESS) {
        return;
    }
    let mut candidates: Vec<Action> = report.moves.iter().map(|m| m.action).collect();
    for action in position.legal_actions() {
        if !candidates.contains(&action) {
            candidates.push(action);
        }
    }
    // The think time is spent: the solver gets a share of its own, bounded in positions.
    let deadline = deadline.map(|_| Instant::now() + Duration::from_secs(1));
    let Some(held) =
        resist::longest_resistance(position, &candidates, resist::NODES, deadline, stop)
    else {
        return;
    };
    report.best = Some(held.action);
    if let Some(m) = report.moves.iter().find(|m| m.action == held.action) {
        report.win = m.win;
    }
}

/// Copies of the snapshots, each lock held only while copying. A worker that panicked
/// poisons its snapshot; its last state is still good to read.
fn lock_all(snapshots: &[Mutex<RootStats>]) -> Vec<RootStats> {
    snapshots
        .iter()
        .map(|m| match m.lock() {
            Ok(g) => g.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        })
        .collect()
}

/// One thread's share of a search.
struct Worker<'a> {
    position: &'a Position,
    stop: &'a AtomicBool,
    /// Set when the search is over for everyone (a thread proved the root).
    done: &'a AtomicBool,
    playouts: &'a AtomicU64,
    snapshot: &'a Mutex<RootStats>,
    deadline: Option<Instant>,
    budget: Option<u64>,
    seed: u64,
}

/// How often a worker refreshes its snapshot of the root.
const SNAPSHOT_EVERY: Duration = Duration::from_millis(40);

/// A worker reads the clock (for its deadline and snapshots) once every this many playouts: a
/// read every playout was 0.5 % of a Brique 15×15 search, and four playouts take 0.06 ms on
/// Quentin 13×13, the slowest of the usual boards: far below the grain of the deadlines and of
/// the snapshots (40 ms).
const CLOCK_EVERY: u64 = 4;

impl Worker<'_> {
    fn run(&self, tree: &mut Tree) {
        let mut rng = Rng::new(self.seed);
        let mut played = 0u64;
        let mut next_snapshot = Instant::now() + SNAPSHOT_EVERY;
        loop {
            if self.stop.load(Ordering::Relaxed) || self.done.load(Ordering::Relaxed) {
                break;
            }
            if tree.root_proof() != Proof::Unknown {
                self.done.store(true, Ordering::Relaxed);
                break;
            }
            if self.budget.is_some_and(|b| played >= b) {
                break;
            }
            if played.is_multiple_of(CLOCK_EVERY) {
                let now = Instant::now();
                if self.deadline.is_some_and(|d| now >= d) {
                    break;
                }
                if now >= next_snapshot {
                    if let Ok(mut s) = self.snapshot.lock() {
                        *s = RootStats::of(tree);
                    }
                    next_snapshot = now + SNAPSHOT_EVERY;
                }
            }
            tree.iterate(self.position, &mut rng);
            played += 1;
            self.playouts.fetch_add(1, Ordering::Relaxed);
        }
        if let Ok(mut s) = self.snapshot.lock() {
            *s = RootStats::of(tree);
        }
    }
}

/// Nodes one tree may hold.
fn tree_capacity(limits: &Limits) -> usize {
    limits.node_count() / limits.thread_count().max(1)
}

/// Whether two positions are the same for the search: game, board, side to move, actions
/// played, swap and pieces in hand.
fn same_position(a: &Position, b: &Position) -> bool {
    a.setup() == b.setup()
        && a.ply() == b.ply()
        && a.to_move() == b.to_move()
        && a.swapped() == b.swapped()
        && a.in_hand() == b.in_hand()
        && a.board() == b.board()
}

/// A seed from the clock, for searches not asked to repeat themselves.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

#[cfg(test)]
mod tests;
