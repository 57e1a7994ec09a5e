//! The statistics of the nodes, kept apart from the nodes and laid out a field an array
//! ([`Edges`]): every descent scores every child of every node it passes, and on its way back
//! updates their AMAF statistics; each of those two loops reads only the fields it needs, one
//! run of memory a field, which the compiler turns into vector instructions where it can.

use std::ops::Range;

use quentin_rules::Action;

use super::Proof;

/// The statistics of one node, as a value: what a new node starts with, and what is read of
/// one node at a time. [`Edges`] holds them for the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Edge {
    /// Visits through the node.
    pub(super) visits: u32,
    /// Sum of the results for the person who chose the node's action.
    pub(super) wins: f32,
    /// All-moves-as-first visits and results of the node's action in its parent's simulations.
    pub(super) amaf_visits: u32,
    pub(super) amaf_wins: f32,
    /// The UCT exploration constant over the square root of the visits (0 before the first
    /// visit and for a proof): `select` adds it times the square root of the log of the
    /// parent's visits.
    pub(super) explore: f32,
    /// The fixed score of a proved node ([`proved_value`]), NaN for a node not proved.
    pub(super) fixed: f32,
    /// The board index of the point the action places on, [`NO_POINT`] for other actions.
    pub(super) amaf_index: u16,
}

impl Edge {
    /// The edge of a node reached by `action`, with no results yet: first play urgency, so
    /// that it goes first (see [`blend`]).
    pub(super) fn new(action: Action) -> Edge {
        Edge {
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
            explore: 0.0,
            fixed: f32::NAN,
            amaf_index: match action {
                Action::Place(p) => p.index() as u16,
                _ => NO_POINT,
            },
        }
    }

    /// Gives an edge with no results yet `playouts` virtual AMAF results, `share` of them won
    /// (see [`super::prior`]).
    pub(super) fn seed(&mut self, playouts: u32, share: f32) {
        self.amaf_visits = playouts;
        self.amaf_wins = playouts as f32 * share;
    }

    /// Fixes the score of a node proved `proof` (for the person to move there): one whose
    /// mover-to-be has lost is chosen at once, one they have won never, a draw is one half.
    pub(super) fn prove(&mut self, proof: Proof) {
        if let Some(value) = proved_value(proof) {
            self.fixed = value;
            self.explore = 0.0;
        }
    }

    /// The node's value to the person choosing it, before exploration: the proof's, or the
    /// [`blend`] of its results.
    #[cfg(test)]
    pub(super) fn value(&self, rave_bias: f32) -> f32 {
        if !self.fixed.is_nan() {
            self.fixed
        } else {
            blend(
                self.visits as f32,
                self.wins,
                self.amaf_visits as f32,
                self.amaf_wins,
                rave_bias,
            )
        }
    }
}

/// The fixed value of a proof, `None` for no proof.
pub(super) fn proved_value(proof: Proof) -> Option<f32> {
    match proof {
        Proof::Unknown => None,
        Proof::Loss => Some(f32::INFINITY),
        Proof::Win => Some(f32::NEG_INFINITY),
        Proof::Draw => Some(0.5),
    }
}

/// The AMAF index of an action that places nothing: index 0 is off the board (the padding of
/// the board's grid), so it never holds a stone.
pub(super) const NO_POINT: u16 = 0;

/// A node's all-moves-as-first visits and results in its parent's simulations.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Amaf {
    pub(super) visits: u32,
    pub(super) wins: f32,
}

/// The statistics of every node of a tree, by the node's index, a field an array (the fields of
/// [`Edge`]). A descent scores the 225 children of each node it passes on Brique 15×15 from
/// their results, AMAF results, exploration weights and proofs ([`Edges::score`]): one run of
/// memory a field, which the compiler reads four children at a time. The AMAF update
/// (`super::amaf`) writes the AMAF results of the children hit alone.
#[derive(Clone, Debug, Default)]
pub(super) struct Edges {
    pub(super) visits: Vec<u32>,
    /// The visits again, as floating-point numbers, for [`Edges::score`]: the compiler turns
    /// four unsigned integers into floating-point numbers in six vector instructions, and
    /// `score` would convert every child's at every descent, while they change on the path
    /// alone ([`Edges::visit`]).
    visits_f32: Vec<f32>,
    pub(super) wins: Vec<f32>,
    /// The AMAF visits and results side by side: the update writes both of a child at once.
    pub(super) amaf: Vec<Amaf>,
    /// The AMAF visits again, as floating-point numbers, for [`Edges::score`] (as
    /// `visits_f32`), kept with the count ([`Edges::amaf_mut`]).
    amaf_visits_f32: Vec<f32>,
    pub(super) explore: Vec<f32>,
    fixed: Vec<f32>,
    pub(super) amaf_index: Vec<u16>,
}

impl Edges {
    /// The memory the statistics of one node take, across the arrays.
    pub(super) const BYTES: usize = 6 * size_of::<f32>() + size_of::<Amaf>() + size_of::<u16>();

    /// Adds the statistics of a new node, at the next index.
    pub(super) fn push(&mut self, edge: Edge) {
        self.visits.push(edge.visits);
        self.visits_f32.push(edge.visits as f32);
        self.wins.push(edge.wins);
        self.amaf.push(Amaf {
            visits: edge.amaf_visits,
            wins: edge.amaf_wins,
        });
        self.amaf_visits_f32.push(edge.amaf_visits as f32);
        self.explore.push(edge.explore);
        self.fixed.push(edge.fixed);
        self.amaf_index.push(edge.amaf_index);
    }

    /// The statistics of node `i`.
    pub(super) fn get(&self, i: usize) -> Edge {
        Edge {
            visits: self.visits[i],
            wins: self.wins[i],
            amaf_visits: self.amaf[i].visits,
            amaf_wins: self.amaf[i].wins,
            explore: self.explore[i],
            fixed: self.fixed[i],
            amaf_index: self.amaf_index[i],
        }
    }

    /// Adds copies of the statistics of `from`'s nodes in `range`, at the next indices.
    pub(super) fn extend_from(&mut self, from: &Edges, range: Range<usize>) {
        self.visits.extend_from_slice(&from.visits[range.clone()]);
        self.visits_f32
            .extend_from_slice(&from.visits_f32[range.clone()]);
        self.wins.extend_from_slice(&from.wins[range.clone()]);
        self.amaf.extend_from_slice(&from.amaf[range.clone()]);
        self.amaf_visits_f32
            .extend_from_slice(&from.amaf_visits_f32[range.clone()]);
        self.explore.extend_from_slice(&from.explore[range.clone()]);
        self.fixed.extend_from_slice(&from.fixed[range.clone()]);
        self.amaf_index.extend_from_slice(&from.amaf_index[range]);
    }

    /// A visit through node `i` that brought `gain` to the person who chose its action.
    pub(super) fn visit(&mut self, i: usize, gain: f32) {
        self.visits[i] += 1;
        self.visits_f32[i] = self.visits[i] as f32;
        self.wins[i] += gain;
    }

    /// Sets the visits of node `i`, for tests that need a node at a given count.
    #[cfg(test)]
    pub(super) fn set_visits(&mut self, i: usize, visits: u32) {
        self.visits[i] = visits;
        self.visits_f32[i] = visits as f32;
    }

    /// The AMAF results of the nodes in `range`, and their AMAF visits as floating-point
    /// numbers, to be kept equal to the counts.
    pub(super) fn amaf_mut(&mut self, range: Range<usize>) -> (&mut [Amaf], &mut [f32]) {
        (
            &mut self.amaf[range.clone()],
            &mut self.amaf_visits_f32[range],
        )
    }

    /// Adds `visits` AMAF visits and `wins` AMAF wins to node `i`.
    pub(super) fn add_amaf(&mut self, i: usize, visits: u32, wins: f32) {
        let amaf = &mut self.amaf[i];
        amaf.visits += visits;
        amaf.wins += wins;
        self.amaf_visits_f32[i] = amaf.visits as f32;
    }

    /// Fixes the score of node `i`, proved `proof` (see [`Edge::prove`]).
    pub(super) fn prove(&mut self, i: usize, proof: Proof) {
        if let Some(value) = proved_value(proof) {
            self.fixed[i] = value;
            self.explore[i] = 0.0;
        }
    }

    /// Whether node `i` is proved.
    pub(super) fn proved(&self, i: usize) -> bool {
        !self.fixed[i].is_nan()
    }

    /// The UCT scores of the children in `range` into `scores` (as long as the range): the
    /// [`blend`] of each one's results plus its exploration weight times `sqrt_log_n`, or its
    /// proof's fixed score.
    ///
    /// Every child's blend is worked out afresh at each descent, four children at a time by
    /// the vector instructions the compiler makes of this loop: cheaper than keeping a value
    /// up to date for every child an AMAF update hits (one division each, about half the
    /// children of every node of the path), and the same numbers.
    pub(super) fn score(
        &self,
        range: Range<usize>,
        sqrt_log_n: f32,
        rave_bias: f32,
        scores: &mut [f32],
    ) {
        let n = range.len();
        let visits = &self.visits_f32[range.clone()];
        let wins = &self.wins[range.clone()];
        let amaf = &self.amaf[range.clone()];
        let amaf_visits = &self.amaf_visits_f32[range.clone()];
        let explore = &self.explore[range.clone()];
        let fixed = &self.fixed[range];
        let scores = &mut scores[..n];
        for k in 0..n {
            let value = blend(visits[k], wins[k], amaf_visits[k], amaf[k].wins, rave_bias);
            let uct = value + explore[k] * sqrt_log_n;
            scores[k] = if fixed[k].is_nan() { uct } else { fixed[k] };
        }
    }
}

/// A child's value to the person choosing, before exploration: the blend of its own results
/// (`n` visits as a floating-point number, `wins`) and its AMAF results (`an`, `amaf_wins`),
/// in one division (`beta` folded in); an action without AMAF statistics (a swap, Quint's
/// steps) has its own results alone. An action neither tried nor seen in a playout is worth 1
/// (first play urgency, so it goes first).
///
/// Without a branch, as it runs for every child of every node of a descent: the unseen case is
/// folded in by a factor of 0 or 1 from a floating-point comparison.
#[inline]
fn blend(n: f32, wins: f32, an: f32, amaf_wins: f32, rave_bias: f32) -> f32 {
    // (1 - beta) * q + beta * amaf with beta = an / (an + n + an * n * b).
    let numerator = wins * (1.0 + an * rave_bias) + amaf_wins;
    let denominator = an + n + an * n * rave_bias;
    let unseen = f32::from(u8::from(denominator == 0.0));
    (numerator + unseen) / (denominator + unseen)
}
