//! The search tree of one thread: nodes in one arena and their statistics beside them
//! (`tree/edge.rs`), selection by UCT blended with RAVE (all-moves-as-first statistics,
//! `tree/select.rs`, updated by `tree/amaf.rs`), decisive and anti-decisive moves where a
//! node is expanded (`tree/expand.rs`) with a prior for each new placement (`tree/prior.rs`),
//! and the MCTS-Solver, which proves wins and losses and carries them up the tree.
//!
//! Values are kept for people, not colours: every action, a swap included, hands the turn to the
//! other person, so a node's proof is for the person to move there and the statistics of a node
//! are for the person who chose the action leading to it.

use std::sync::atomic::AtomicBool;

use crate::rng::Rng;
use quentin_rules::{Action, Color, Position};

use super::policy::{self, Playout, Policy};

mod amaf;
use amaf::{NO_MAP, Ranks};
mod edge;
use edge::{Edge, Edges, NO_POINT, proved_value};
mod expand;
pub(crate) use expand::centrality;
mod inherit;
pub(crate) mod prior;
use prior::Prior;
mod select;

/// A proof for the person to move at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proof {
    /// Not proved.
    Unknown,
    /// The person to move wins with best play.
    Win,
    /// The person to move loses whatever they do.
    Loss,
    /// The game ended in a draw here (Quint): a fixed value of one half, not a proof.
    Draw,
}

/// One node: the action that led to it, its children and its proof (its statistics are in
/// [`Tree::edges`], by the same index).
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// The action from the parent.
    pub(crate) action: Action,
    /// Index of the first child in the arena; valid when `expanded`.
    first_child: u32,
    /// How many children.
    children: u16,
    expanded: bool,
    /// Where the node's map from points to children starts in `Tree::ranks`, [`NO_MAP`] for
    /// none.
    ranks: u32,
    /// The proof for the person to move here.
    pub(crate) proof: Proof,
    /// When proved: the actions from here to the end of the game by the proof, the winner
    /// taking the quickest win the tree knows and the loser holding out longest (0 where the
    /// game is over). A win's length is the shortest the tree has proved, not the shortest
    /// there is.
    pub(crate) length: u16,
}

impl Node {
    fn new(action: Action) -> Node {
        Node {
            action,
            first_child: 0,
            children: 0,
            expanded: false,
            ranks: NO_MAP,
            proof: Proof::Unknown,
            length: 0,
        }
    }
}

/// The memory a node takes: its [`Node`], its statistics ([`Edges::BYTES`]), and about one
/// entry of its parent's map from points to children (a map has an entry a point of the board,
/// and a node expanded on it about as many children).
pub(crate) const NODE_BYTES: usize =
    std::mem::size_of::<Node>() + Edges::BYTES + std::mem::size_of::<u16>();

/// How the tree searches: constants chosen by measurement (see docs/engine-strength.md).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    /// The UCT exploration constant.
    pub(crate) exploration: f64,
    /// RAVE's equivalence parameter: the larger, the longer AMAF statistics weigh.
    pub(crate) rave_bias: f64,
    /// The most visits a node below the root's children waits for before it is expanded
    /// (fewer on small boards), unless the game's prior, at full strength, says otherwise
    /// ([`Prior::expand_after`]).
    pub(crate) expand_after: u32,
    /// The playout policy.
    pub(crate) policy: Policy,
    /// Whether a new placement starts with its game's [`Prior`] (full strength; the levels
    /// below play the search their ladder was measured with).
    pub(crate) prior: bool,
    /// Whether a node is searched for forks ([`crate::forks`]) once it has drawn
    /// [`FORK_VISITS`] playouts (full strength, as the prior).
    pub(crate) forks: bool,
    /// Whether a new placement inherits AMAF results from its grandparent, as many as its
    /// game's [`Prior::inherit`] at most ([`Tree::inherit_amaf`]; full strength, as the prior).
    pub(crate) inherit: bool,
}

/// The visits after which a node's position is searched for forks: the look costs a few
/// percent of what the node's playouts did at most (Quentin 13×13's median look, 0.7 ms, is
/// about 35 playouts), 0.1 % on Konobi 11×11.
const FORK_VISITS: u32 = 1024;

impl Default for Params {
    fn default() -> Params {
        Params {
            exploration: 0.1,
            rave_bias: 1e-3,
            expand_after: 48,
            policy: Policy::Search,
            prior: true,
            forks: true,
            inherit: true,
        }
    }
}

/// The exploration constant of the swap action.
const SWAP_EXPLORATION: f64 = 0.5;

/// What random playouts credit a first stone with beyond its worth on a board of side `size`:
/// the search values a swap this much less than its playouts say, and chooses it only above
/// even by as much. A stone's weight in a random playout is about its share of the board, so
/// the margin is too: 1.6 / size². Measured by searching the swap of a corner stone (a1) and of
/// the centre stone, 40,000 playouts, two or three seeds each: a1's swap came out at 0.503 to
/// 0.509 on Quentin 9×9 (margin 0.020) and at 0.484 to 0.506 on Quentin 13×13, Konobi 11×11 and
/// Brique 15×15 (margins 0.009, 0.013, 0.007); the centre's at 0.534 to 0.536 on Quentin 9×9,
/// 0.519 to 0.525 on Quentin 13×13, 0.509 to 0.517 on Brique 15×15, but only 0.504 to 0.511 on
/// Konobi 11×11, where the computer then keeps to placements.
pub(crate) fn swap_margin(size: usize) -> f64 {
    1.6 / (size * size).max(1) as f64
}

/// One step of a descent: the node, and the colour of the person to move there.
#[derive(Clone, Copy)]
struct Step {
    node: u32,
    to_move: Option<Color>,
}

/// The tree of one search thread.
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
    /// The statistics of the nodes, by the same index.
    edges: Edges,
    /// Most nodes the arena may hold.
    capacity: usize,
    params: Params,
    path: Vec<Step>,
    /// [`swap_margin`] of the board searched.
    swap_margin: f64,
    /// The most visits a node waits for before it is expanded, in the game searched: its
    /// prior's at full strength, else [`Params::expand_after`].
    expand_after: u32,
    /// The nodes' maps from points to children, for the AMAF update.
    ranks: Ranks,
    /// The scores of the children `select` chooses among, by their rank among their siblings.
    scores: Vec<f32>,
    /// The AMAF results an expansion inherits, by AMAF index (see `inherit_amaf`); all zero
    /// between expansions.
    inherited: Vec<(f32, u32)>,
}

/// The root's index.
pub(crate) const ROOT: u32 = 0;

impl Tree {
    /// A tree of a lone root, holding at most `capacity` nodes (at least the root's children).
    pub(crate) fn new(capacity: usize, params: Params) -> Tree {
        Tree {
            nodes: vec![Node::new(Action::Pass)],
            edges: {
                let mut edges = Edges::default();
                edges.push(Edge::new(Action::Pass));
                edges
            },
            capacity: capacity.max(2),
            params,
            path: Vec::with_capacity(64),
            swap_margin: 0.0,
            expand_after: params.expand_after,
            ranks: Ranks::default(),
            scores: Vec::new(),
            inherited: Vec::new(),
        }
    }

    /// Whether new placements start with their game's prior.
    #[cfg(test)]
    pub(crate) fn has_prior(&self) -> bool {
        self.params.prior
    }

    /// The node at `i`.
    pub(crate) fn node(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    /// Visits through node `i`.
    pub(crate) fn visits(&self, i: u32) -> u32 {
        self.edges.visits[i as usize]
    }

    /// The sum of the results through node `i`, for the person who chose its action.
    pub(crate) fn wins(&self, i: u32) -> f32 {
        self.edges.wins[i as usize]
    }

    /// The indices of the children of `i` (empty when not expanded).
    pub(crate) fn children(&self, i: u32) -> std::ops::Range<u32> {
        let n = &self.nodes[i as usize];
        if n.expanded {
            n.first_child..n.first_child + u32::from(n.children)
        } else {
            0..0
        }
    }

    /// The proof of the root.
    pub(crate) fn root_proof(&self) -> Proof {
        self.nodes[ROOT as usize].proof
    }

    /// Makes the child reached by `action` the root, keeping its subtree and dropping the rest.
    /// Returns false when the root has no such child.
    pub(crate) fn reroot(&mut self, action: Action) -> bool {
        let Some(child) = self
            .children(ROOT)
            .find(|&c| self.nodes[c as usize].action == action)
        else {
            return false;
        };
        let mut kept = vec![self.nodes[child as usize].clone()];
        let mut kept_edges = Edges::default();
        kept_edges.push(self.edges.get(child as usize));
        let mut kept_ranks = self.ranks.emptied();
        let mut queue = vec![(child, 0usize)];
        while let Some((old, new)) = queue.pop() {
            let range = self.children(old);
            if range.is_empty() {
                continue;
            }
            kept[new].ranks = self
                .ranks
                .copy_to(self.nodes[old as usize].ranks, &mut kept_ranks);
            let first = kept.len();
            kept.extend(range.clone().map(|c| self.nodes[c as usize].clone()));
            kept_edges.extend_from(&self.edges, range.start as usize..range.end as usize);
            kept[new].first_child = first as u32;
            queue.extend(range.zip(first..));
        }
        self.nodes = kept;
        self.edges = kept_edges;
        self.ranks = kept_ranks;
        true
    }

    /// The principal variation from child `c`: its action, then the most visited replies.
    pub(crate) fn pv(&self, c: u32, max: usize) -> Vec<Action> {
        let mut pv = vec![self.nodes[c as usize].action];
        let mut node = c;
        while pv.len() < max {
            let Some(next) = self
                .children(node)
                .max_by_key(|&k| (self.nodes[k as usize].proof == Proof::Loss, self.visits(k)))
                .filter(|&k| self.visits(k) > 0 || self.nodes[k as usize].proof == Proof::Loss)
            else {
                break;
            };
            pv.push(self.nodes[next as usize].action);
            node = next;
        }
        pv
    }

    /// One simulation from `root`: descend, expand, play out, back up.
    pub(crate) fn iterate(&mut self, root: &Position, rng: &mut Rng) {
        self.swap_margin = swap_margin(root.size());
        self.expand_after = Prior::of(root.game())
            .filter(|_| self.params.prior)
            .map_or(self.params.expand_after, |prior| prior.expand_after);
        let mut pos = root.clone();
        self.path.clear();
        self.path.push(Step {
            node: ROOT,
            to_move: pos.to_move(),
        });
        let mut node = ROOT;
        loop {
            let n = &self.nodes[node as usize];
            if n.proof != Proof::Unknown || pos.is_over() {
                break;
            }
            let expanded = n.expanded;
            if expanded && self.look_for_forks(node, &pos) {
                break;
            }
            if !expanded {
                let depth = self.path.len() - 1;
                // Small boards have cheap expansions and deep proofs: expand them sooner; large
                // ones later. An expansion plays every action once, and every later descent
                // through the node scores every child and updates their AMAF statistics, so the
                // cost grows with the board: a node waits for a playout per four points, up to
                // `expand_after`.
                let cells = (pos.size() * pos.size()) as u32;
                let threshold = (cells / 4).clamp(1, self.expand_after);
                let due = depth <= 1 || self.visits(node) >= threshold;
                if !due || !self.expand(node, &pos) {
                    break;
                }
                self.inherit_from_grandparent(node, &pos);
                if self.nodes[node as usize].proof != Proof::Unknown {
                    break;
                }
            }
            let Some(child) = self.select(node) else {
                break;
            };
            let before = pos.to_move();
            if pos.play(self.nodes[child as usize].action).is_err() {
                // Every child was listed legal from this very position: this cannot happen, but
                // a tree gone wrong must not take the program down; stop this descent.
                debug_assert!(false, "a listed action did not play");
                break;
            }
            node = child;
            self.path.push(Step {
                node,
                to_move: pos.to_move().or(before.map(Color::opponent)),
            });
        }
        let leaf = self.path[self.path.len() - 1];
        let mut playout = None;
        let result = match self.nodes[leaf.node as usize].proof {
            Proof::Win => 1.0,
            Proof::Loss => 0.0,
            Proof::Draw => 0.5,
            Proof::Unknown => {
                let swapped = pos.swapped();
                let done = policy::playout(&mut pos, self.params.policy, rng);
                playout = Some(done);
                person_result(leaf.to_move, swapped != pos.swapped(), done.black)
            }
        };
        self.read_end(&pos, playout.as_ref());
        self.back_up(result);
    }

    /// Lists the points of each colour at the end for the AMAF update: the end of `playout`,
    /// which left `pos`, or `pos` itself, a proved leaf, when there is none.
    fn read_end(&mut self, pos: &Position, playout: Option<&Playout>) {
        match playout.and_then(|done| done.end.as_ref()) {
            Some(stones) => self.ranks.read_end_rows(|r, c| stones.row(r, c)),
            None => self.ranks.read_end(|i, c| pos.board().holds(i, c)),
        }
    }

    /// Searches the expanded node `i` at `pos` for forks ([`crate::forks`]) when it has just
    /// drawn [`FORK_VISITS`] playouts, once a node: the root's were looked for before the
    /// search, a deeper node's once its playouts pay for the look. Returns whether `i` is then
    /// proved.
    fn look_for_forks(&mut self, i: u32, pos: &Position) -> bool {
        if !self.params.forks || i == ROOT || self.visits(i) != FORK_VISITS {
            return false;
        }
        let proofs = crate::forks::child_proofs(pos, &AtomicBool::new(false));
        self.prove_children(i, &proofs);
        self.nodes[i as usize].proof != Proof::Unknown
    }

    /// Carries `result` (for the person to move at the leaf) up the path, with the AMAF
    /// statistics of the end read by [`Ranks::read_end`] and the solver's proofs.
    fn back_up(&mut self, result: f32) {
        let exploration = self.params.exploration;
        // The result for the person to move at the current step.
        let mut r = result;
        for k in (0..self.path.len()).rev() {
            let step = self.path[k];
            // AMAF: every child placing where the mover's colour stands at the end.
            if let Some(color) = step.to_move {
                let range = self.children(step.node);
                let amaf = self
                    .edges
                    .amaf_mut(range.start as usize..range.end as usize);
                let map = self.nodes[step.node as usize].ranks;
                self.ranks.update(map, color, amaf, r);
            }
            // The solver's rule needs looking at only when the child below is proved.
            if k + 1 < self.path.len()
                && self.nodes[self.path[k + 1].node as usize].proof != Proof::Unknown
            {
                self.update_proof(step.node);
            }
            let i = step.node as usize;
            // The node's own statistics are for the person who moved into it.
            self.edges.visit(i, 1.0 - r);
            if !self.edges.proved(i) {
                let visits = f64::from(self.edges.visits[i]);
                self.edges.explore[i] = (exploration / visits.sqrt()) as f32;
            }
            r = 1.0 - r;
        }
    }

    /// Proves node `i`, the game ending `length` actions later by the proof; its score is fixed
    /// by the proof from then on.
    fn set_proof(&mut self, i: u32, proof: Proof, length: u16) {
        let node = &mut self.nodes[i as usize];
        node.proof = proof;
        node.length = length;
        self.edges.prove(i as usize, proof);
    }

    /// The solver's rule at `i`: a child lost for its mover-to-be proves a win, by the quickest
    /// such child; children all won for the opponent prove a loss, by the one that holds out
    /// longest.
    fn update_proof(&mut self, i: u32) {
        if self.nodes[i as usize].proof != Proof::Unknown {
            return;
        }
        let mut all_lost = true;
        let mut quickest_win: Option<u16> = None;
        let mut longest_loss = 0;
        for c in self.children(i) {
            let child = &self.nodes[c as usize];
            match child.proof {
                Proof::Loss => {
                    quickest_win = Some(quickest_win.map_or(child.length, |q| q.min(child.length)));
                }
                Proof::Win => longest_loss = longest_loss.max(child.length),
                Proof::Unknown | Proof::Draw => all_lost = false,
            }
        }
        if let Some(length) = quickest_win {
            self.set_proof(i, Proof::Win, length.saturating_add(1));
        } else if all_lost && self.nodes[i as usize].expanded {
            self.set_proof(i, Proof::Loss, longest_loss.saturating_add(1));
        }
    }

    /// The length of node `i`'s proof (see [`Node::length`]); 0 when not proved.
    pub(crate) fn proof_length(&self, i: u32) -> u16 {
        self.nodes[i as usize].length
    }
}

/// The result for a person from a playout's score for Black (1 Black won, 0 White won, between
/// for a draw or an estimate). `color` is the person's colour where the playout began, `flipped`
/// whether a swap in the playout changed it.
fn person_result(color: Option<Color>, flipped: bool, black: f32) -> f32 {
    let color = match color {
        Some(c) if flipped => c.opponent(),
        Some(c) => c,
        None => return 0.5,
    };
    match color {
        Color::Black => black,
        Color::White => 1.0 - black,
    }
}
