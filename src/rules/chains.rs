//! Chains kept up to date as stones arrive: a union-find over the stones plus one node for each
//! of the four edges, so that "does a chain join this colour's edges?" is two lookups.
//!
//! A union-find cannot split a chain when a stone leaves it (Brique replaces enemy stones).
//! Instead, a point whose stone changes colour gets a fresh node, and the old node stays behind
//! in its former chain: the union-find then joins at least what is really joined, so "not
//! connected" stays exact and only "connected" needs checking on the board. A wrong "connected"
//! is answered by building the union-find anew.

use super::board::Board;
use super::color::Color;
use super::connection::PlacementRules;
use super::point::{INDICES, Point};

/// Node of a colour's first edge (Black: bottom, White: left); the second edge follows it.
const fn edge_node(color: Color, second: bool) -> usize {
    2 * color.index() + second as usize
}

/// The first node of the points: point index `i` starts as node `FIRST_POINT_NODE + i`.
const FIRST_POINT_NODE: usize = 4;
/// Nodes in all: the edges, one per point, and as many again for points that change colour.
const NODES: usize = FIRST_POINT_NODE + 2 * INDICES;

/// A union-find of the stones of a board and the edges they touch.
#[derive(Clone)]
pub(crate) struct Chains {
    /// The node of each point's stone.
    node: [u16; INDICES],
    parent: [u16; NODES],
    /// The next fresh node for a point whose stone changes colour.
    next: usize,
    /// Whether a stone has changed colour since the union-find was built, so that it may join
    /// more than the board does.
    loose: bool,
}

impl Chains {
    /// The chains of `board`, stones linked as the game `R` links them.
    pub(crate) fn build<R: PlacementRules>(board: &Board) -> Chains {
        let mut chains = Chains {
            node: [0; INDICES],
            parent: [0; NODES],
            next: FIRST_POINT_NODE + INDICES,
            loose: false,
        };
        for (i, slot) in chains.node.iter_mut().enumerate() {
            *slot = (FIRST_POINT_NODE + i) as u16;
        }
        for (i, slot) in chains.parent.iter_mut().enumerate() {
            *slot = i as u16;
        }
        for p in board.points() {
            if board.get(p).is_some() {
                chains.add::<R>(board, p);
            }
        }
        chains
    }

    fn find(&mut self, mut x: usize) -> usize {
        while usize::from(self.parent[x]) != x {
            let grand = self.parent[usize::from(self.parent[x])];
            self.parent[x] = grand;
            x = usize::from(grand);
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // Edge nodes stay roots (they have the smallest numbers), so their roots are found at
            // once.
            let (child, root) = if ra > rb { (ra, rb) } else { (rb, ra) };
            self.parent[child] = root as u16;
        }
    }

    /// Joins the stone now on `p` to its linked stones and to the edges it touches.
    pub(crate) fn add<R: PlacementRules>(&mut self, board: &Board, p: Point) {
        let Some(color) = board.get(p) else { return };
        let own = usize::from(self.node[p.index()]);
        for j in R::linked(board, p.index()) {
            self.union(own, usize::from(self.node[j]));
        }
        if board.on_first_edge(p, color) {
            self.union(own, edge_node(color, false));
        }
        if board.on_second_edge(p, color) {
            self.union(own, edge_node(color, true));
        }
    }

    /// Gives the point `p`, whose stone changed colour, a fresh node of its own; its old node
    /// stays in its former chain. Returns `false` when no fresh node is left, and the caller
    /// must build the chains anew.
    pub(crate) fn recolour(&mut self, p: Point) -> bool {
        if self.next == NODES {
            return false;
        }
        self.node[p.index()] = self.next as u16;
        self.next += 1;
        self.loose = true;
        true
    }

    /// Whether the union-find joins `color`'s two edges. Exact while no stone has changed
    /// colour ([`Chains::is_exact`]); otherwise `false` is exact and `true` may be wrong.
    pub(crate) fn connects(&mut self, color: Color) -> bool {
        self.find(edge_node(color, false)) == self.find(edge_node(color, true))
    }

    /// Whether [`Chains::connects`] answers exactly.
    pub(crate) fn is_exact(&self) -> bool {
        !self.loose
    }
}
