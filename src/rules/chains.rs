//! Chains kept up to date as stones arrive: a union-find over the points plus one node for each
//! of the four edges, so that "does a chain join this colour's edges?" is two lookups.

use super::board::Board;
use super::color::Color;
use super::connection::PlacementRules;
use super::point::{INDICES, Point};

/// Node of a colour's first edge (Black: bottom, White: left); the second edge follows it.
const fn edge_node(color: Color, second: bool) -> usize {
    INDICES + 2 * color.index() + second as usize
}

/// A union-find of the stones of a board and the edges they touch.
#[derive(Clone)]
pub(crate) struct Chains {
    parent: [u16; INDICES + 4],
}

impl Chains {
    /// The chains of `board`, stones linked as the game `R` links them.
    pub(crate) fn build<R: PlacementRules>(board: &Board) -> Chains {
        let mut parent = [0u16; INDICES + 4];
        for (i, slot) in parent.iter_mut().enumerate() {
            *slot = i as u16;
        }
        let mut chains = Chains { parent };
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
            // Edge nodes stay roots, so the root of an edge is found in one step more often.
            let (child, root) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[child] = root as u16;
        }
    }

    /// Joins the stone now on `p` to its linked stones and to the edges it touches. Only valid
    /// when no stone has left the board since the chains were built.
    pub(crate) fn add<R: PlacementRules>(&mut self, board: &Board, p: Point) {
        let Some(color) = board.get(p) else { return };
        for q in R::linked(board, p) {
            self.union(p.index(), q.index());
        }
        if board.on_first_edge(p, color) {
            self.union(p.index(), edge_node(color, false));
        }
        if board.on_second_edge(p, color) {
            self.union(p.index(), edge_node(color, true));
        }
    }

    /// Whether a chain of `color` joins its two edges.
    pub(crate) fn connects(&mut self, color: Color) -> bool {
        self.find(edge_node(color, false)) == self.find(edge_node(color, true))
    }
}
