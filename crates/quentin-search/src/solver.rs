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

mod dfpn;
mod key;
mod plain;

use std::time::Instant;

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

/// The nodes counted against the limits.
struct Counter {
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
}

impl Counter {
    fn new(limits: &SolveLimits) -> Counter {
        Counter {
            nodes: 0,
            limit: limits.nodes.unwrap_or(MAX_NODES).min(MAX_NODES),
            deadline: limits.deadline,
        }
    }

    /// Counts one created position; out of budget when the nodes or the time are spent.
    fn tick(&mut self) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(OutOfBudget);
        }
        if self.nodes.is_multiple_of(1024)
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
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
    let mut counter = Counter::new(limits);
    // A finished game, or no move left to win with.
    let (Some(mover), false) = (pos.to_move(), limits.depth == Some(0)) else {
        return Solution {
            verdict: Verdict::NoWin,
            depth: 0,
            winning: Vec::new(),
            complete: true,
            nodes: 0,
        };
    };
    let kids = children(pos, None, techniques.ordering);
    counter.nodes += kids.len() as u64;
    let to_end = limits.depth.is_none();
    let depth = limits
        .depth
        .map_or_else(|| game_bound(pos), |d| d.min(MAX_DEPTH));
    let mut engine: Box<dyn Engine> = match pos.game() {
        Game::Quint => Box::new(plain::Plain::new(to_end)),
        _ => Box::new(dfpn::DfPn::new(pos.game(), pos.size(), techniques)),
    };
    // Each first move's proof (the mover's moves it needs), `None` while unsettled; the depths
    // are tried shallowest first until a win is found (the depth it needs), then the asked
    // depth settles the other first moves. To the end of a connection game the search goes
    // straight to the bound (the proofs tell their own depth).
    let quint_to_end = to_end && pos.game() == Game::Quint;
    let mut d = if to_end && !quint_to_end { depth } else { 1 };
    let mut wins: Vec<Option<u16>> = vec![None; kids.len()];
    let mut complete = true;
    let mut searched = 0;
    let mut exhausted;
    loop {
        exhausted = true;
        for (kid, win) in kids.iter().zip(&mut wins) {
            if win.is_some() {
                continue;
            }
            let settled = if kid.pos.is_over() {
                Ok(if kid.pos.winner() == Some(mover) {
                    Settled::Win(0)
                } else {
                    Settled::NoWinBelow(u16::MAX)
                })
            } else {
                let s = engine.defender_to_move(&kid.pos, kid.action, d - 1, &mut counter);
                exhausted &= engine.exhaustive();
                s
            };
            match settled {
                Ok(Settled::Win(need)) => *win = Some(need + 1),
                Ok(Settled::NoWinBelow(_)) => {}
                Err(OutOfBudget) => {
                    complete = false;
                    break;
                }
            }
        }
        if !complete {
            break;
        }
        searched = d;
        // Quint to the end: a depth that no line outran holds for every depth.
        if d >= depth || (quint_to_end && exhausted) {
            break;
        }
        d = if wins.iter().any(Option::is_some) {
            depth
        } else {
            d + 1
        };
    }
    let quickest = wins.iter().flatten().min().copied();
    let verdict = match quickest {
        Some(_) => Verdict::Win,
        None if !complete || (quint_to_end && !exhausted) => Verdict::Unknown,
        None => Verdict::NoWin,
    };
    let legal = pos.legal_actions();
    let mut winning: Vec<Action> = kids
        .iter()
        .zip(&wins)
        .filter(|(_, w)| w.is_some())
        .map(|(k, _)| k.action)
        .collect();
    winning.sort_by_key(|a| legal.iter().position(|l| l == a));
    Solution {
        verdict,
        depth: quickest.map_or(searched, usize::from),
        winning,
        complete,
        nodes: counter.nodes,
    }
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
trait Engine {
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
}

/// A child position and the action that made it.
struct Kid {
    action: Action,
    pos: Position,
}

/// Every legal action of `pos` with its position, in the order the solver tries them: the
/// prior's share first (the tree search's knowledge at expansion), then from the centre out;
/// `last` is where the stone placed last stands.
fn children(pos: &Position, last: Option<Point>, ordered: bool) -> Vec<Kid> {
    let mut actions = Vec::new();
    pos.legal_actions_into(&mut actions);
    if ordered {
        order(pos, &mut actions, last);
    } else {
        actions.sort_by_key(|&a| centrality(a, pos.size()));
    }
    actions
        .into_iter()
        .filter_map(|action| {
            let mut child = pos.clone();
            child.play(action).ok().map(|()| Kid { action, pos: child })
        })
        .collect()
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
