//! Selection: the child a descent goes to, by UCT on each child's blend of its own and its AMAF
//! results, kept up to date by `back_up`; the swap scored apart, as plain UCT discounted by the
//! swap margin.

use quentin_rules::Action;

use super::{Edge, SWAP_EXPLORATION, Tree, proved_value};

impl Tree {
    /// The child to descend to: UCT on the blend of the node's and the AMAF results, skipping
    /// children proved won for the opponent.
    pub(super) fn select(&self, i: u32) -> Option<u32> {
        let sqrt_log_n = f64::from(self.visits(i).max(1)).ln().sqrt() as f32;
        let mut placements = self.children(i);
        // The swap, when offered, is the last child (see `expand`): it is scored apart, so
        // that the loop over the placements asks no question of the action.
        let swap = placements
            .clone()
            .last()
            .filter(|&c| self.nodes[c as usize].action == Action::Swap);
        if swap.is_some() {
            placements.end -= 1;
        }
        // UCT on the blend, the exploration weight kept by `back_up`; a proof's score is fixed
        // (infinite for a child lost for its mover-to-be, never chosen when won for them).
        let (first, last) = (placements.start as usize, placements.end as usize);
        let (mut best, mut best_score) = match best_edge(&self.edges[first..last], sqrt_log_n) {
            Some((k, score)) => (Some(placements.start + k as u32), score),
            None => (None, f32::NEG_INFINITY),
        };
        if let Some(c) = swap {
            let value = proved_value(self.nodes[c as usize].proof)
                .unwrap_or_else(|| self.swap_score(&self.edges[c as usize], sqrt_log_n));
            if value > best_score {
                best = Some(c);
                best_score = value;
            }
        }
        debug_assert!(best.is_none() || best_score > f32::NEG_INFINITY);
        best
    }

    /// The swap's value: it has no AMAF statistics to guide it, so it explores as plain UCT
    /// does, lest a few early losses bury it, and it is discounted by [`swap_margin`].
    fn swap_score(&self, swap: &Edge, sqrt_log_n: f32) -> f32 {
        if swap.visits == 0 {
            return 1.0;
        }
        let n = f64::from(swap.visits);
        let uct = f64::from(swap.wins) / n - self.swap_margin
            + SWAP_EXPLORATION * f64::from(sqrt_log_n) / n.sqrt();
        uct as f32
    }
}

/// How many children `best_edge` follows at once.
const LANES: usize = 4;

/// The rank and score of the first of `edges` with the highest score (`value + explore *
/// sqrt_log_n`), `None` when every score is minus infinity (all proved won for the opponent).
///
/// The children are taken four at a time, each of the four lanes keeping its own best, so that
/// the comparisons do not wait on one another; the lanes are then merged, the lowest rank
/// winning a tie, which gives the same child as a plain scan from the first.
fn best_edge(edges: &[Edge], sqrt_log_n: f32) -> Option<(usize, f32)> {
    let mut best = [f32::NEG_INFINITY; LANES];
    let mut rank = [usize::MAX; LANES];
    let chunks = edges.chunks_exact(LANES);
    let rest = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        for lane in 0..LANES {
            let score = chunk[lane].value + chunk[lane].explore * sqrt_log_n;
            if score > best[lane] {
                best[lane] = score;
                rank[lane] = c * LANES + lane;
            }
        }
    }
    let base = edges.len() - rest.len();
    for (lane, edge) in rest.iter().enumerate() {
        let score = edge.value + edge.explore * sqrt_log_n;
        if score > best[lane] {
            best[lane] = score;
            rank[lane] = base + lane;
        }
    }
    (0..LANES)
        .filter(|&lane| rank[lane] != usize::MAX)
        .max_by(|&a, &b| best[a].total_cmp(&best[b]).then(rank[b].cmp(&rank[a])))
        .map(|lane| (rank[lane], best[lane]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Proof;
    use proptest::prelude::*;

    /// The first child with the highest score, by a plain scan.
    fn first_best(edges: &[Edge], sqrt_log_n: f32) -> Option<(usize, f32)> {
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for (k, edge) in edges.iter().enumerate() {
            let score = edge.value + edge.explore * sqrt_log_n;
            if score > best_score {
                best_score = score;
                best = Some((k, score));
            }
        }
        best
    }

    proptest! {
        /// The four lanes choose the child a plain scan chooses, ties and proofs included
        /// (values drawn from a few, so that ties are common).
        #[test]
        fn best_edge_is_the_first_best(
            children in prop::collection::vec((0u8..6, 0u8..3), 0..40),
            sqrt_log_n in 0.0f32..4.0,
        ) {
            let edges: Vec<Edge> = children
                .iter()
                .map(|&(value, explore)| {
                    let mut edge = Edge::new(Action::Pass);
                    match value {
                        0 => edge.prove(Proof::Win),
                        1 => edge.prove(Proof::Loss),
                        v => {
                            edge.value = f32::from(v) / 8.0;
                            edge.explore = f32::from(explore) / 4.0;
                        }
                    }
                    edge
                })
                .collect();
            prop_assert_eq!(best_edge(&edges, sqrt_log_n), first_best(&edges, sqrt_log_n));
        }
    }
}
