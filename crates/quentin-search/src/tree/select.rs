//! Selection: the child a descent goes to, by UCT on each child's blend of its own and its AMAF
//! results, worked out for every child at every descent ([`super::edge::Edges::score`]); the
//! swap scored apart, as plain UCT discounted by the swap margin.

use quentin_rules::Action;

use super::{Edge, SWAP_EXPLORATION, Tree, proved_value};

impl Tree {
    /// The child to descend to: UCT on the blend of the node's and the AMAF results, skipping
    /// children proved won for the opponent.
    pub(super) fn select(&mut self, i: u32) -> Option<u32> {
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
        // UCT on the blend; a proof's score is fixed (infinite for a child lost for its
        // mover-to-be, never chosen when won for them).
        let (first, last) = (placements.start as usize, placements.end as usize);
        let rave_bias = self.params.rave_bias as f32;
        if self.scores.len() < last - first {
            self.scores.resize(last - first, 0.0);
        }
        let scores = &mut self.scores[..last - first];
        self.edges.score(first..last, sqrt_log_n, rave_bias, scores);
        let (mut best, mut best_score) = match best_score(scores) {
            Some((k, score)) => (Some(placements.start + k as u32), score),
            None => (None, f32::NEG_INFINITY),
        };
        if let Some(c) = swap {
            let value = proved_value(self.nodes[c as usize].proof)
                .unwrap_or_else(|| self.swap_score(&self.edges.get(c as usize), sqrt_log_n));
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

/// How many scores `best_score` reads at once: two vectors of four.
const LANES: usize = 8;

/// The rank and score of the first of `scores` with the highest score, `None` when every score
/// is minus infinity (all proved won for the opponent).
///
/// In two passes, each of which the compiler makes vector instructions of: the highest score,
/// each of eight lanes keeping its own maximum (no score is NaN: a blend's denominator is never
/// 0, a proof's score is infinite or one half), then the first block of eight holding it,
/// and the first score equal to it there. The same child as a plain scan from the first
/// keeping the first strictly better, with half the work of following each lane's best rank.
fn best_score(scores: &[f32]) -> Option<(usize, f32)> {
    let mut lanes = [f32::NEG_INFINITY; LANES];
    let chunks = scores.chunks_exact(LANES);
    let rest = chunks.remainder();
    for chunk in chunks {
        for lane in 0..LANES {
            lanes[lane] = if chunk[lane] > lanes[lane] {
                chunk[lane]
            } else {
                lanes[lane]
            };
        }
    }
    let mut best = f32::NEG_INFINITY;
    for &score in lanes.iter().chain(rest) {
        best = if score > best { score } else { best };
    }
    if best == f32::NEG_INFINITY {
        return None;
    }
    let mut start = 0;
    for chunk in scores.chunks_exact(LANES) {
        let mut hit = false;
        for &score in chunk {
            hit |= score == best;
        }
        if hit {
            break;
        }
        start += LANES;
    }
    let rank = start + scores[start..].iter().position(|&s| s == best)?;
    Some((rank, scores[rank]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The first child with the highest score, by a plain scan.
    fn first_best(scores: &[f32]) -> Option<(usize, f32)> {
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for (k, &score) in scores.iter().enumerate() {
            if score > best_score {
                best_score = score;
                best = Some((k, score));
            }
        }
        best
    }

    proptest! {
        /// The two passes choose the child a plain scan chooses, ties and proofs included
        /// (scores drawn from a few, so that ties are common).
        #[test]
        fn best_score_is_the_first_best(scores in prop::collection::vec(0u8..8, 0..60)) {
            let scores: Vec<f32> = scores
                .iter()
                .map(|&s| match s {
                    0 => f32::NEG_INFINITY,
                    1 => f32::INFINITY,
                    s => f32::from(s) / 8.0,
                })
                .collect();
            prop_assert_eq!(best_score(&scores), first_best(&scores));
        }
    }
}
