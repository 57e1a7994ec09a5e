//! The statistics of a node, kept apart from the node: what every descent reads and writes of
//! every child of every node it passes.

use quentin_rules::Action;

use super::Proof;

/// The statistics of a node: what a descent reads of it and the AMAF update writes, kept apart
/// from the nodes (in `Tree::edges`, by the same index). Every descent scores every child of
/// every node it passes, and on its way back updates their AMAF statistics and values, so these
/// 28 bytes a child are all it reads of them, and read twice while they are at hand.
#[derive(Clone, Copy, Debug)]
pub(super) struct Edge {
    /// The blend of the node's own and its AMAF results ([`blend`]), kept up to date by
    /// `back_up`, so that `select` divides nothing; infinite for a proof (see [`Edge::prove`]).
    pub(super) value: f32,
    /// The UCT exploration constant over the square root of the visits (0 before the first
    /// visit and for a proof): `select` adds it times the square root of the log of the
    /// parent's visits.
    pub(super) explore: f32,
    /// All-moves-as-first visits and results of the node's action in its parent's simulations.
    pub(super) amaf_visits: u32,
    pub(super) amaf_wins: f32,
    /// Visits through the node.
    pub(super) visits: u32,
    /// Sum of the results for the person who chose the node's action.
    pub(super) wins: f32,
    /// The board index of the point the action places on, [`NO_POINT`] for other actions.
    pub(super) amaf_index: u16,
    /// Whether the node is proved: its value then stays as the proof fixed it.
    pub(super) proved: bool,
}

impl Edge {
    /// The edge of a node reached by `action`, with no results yet: first play urgency, so
    /// that it goes first.
    pub(super) fn new(action: Action) -> Edge {
        Edge {
            value: 1.0,
            explore: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
            visits: 0,
            wins: 0.0,
            amaf_index: match action {
                Action::Place(p) => p.index() as u16,
                _ => NO_POINT,
            },
            proved: false,
        }
    }

    /// Gives an edge with no results yet `playouts` virtual AMAF results, `share` of them won
    /// (see [`super::prior`]).
    pub(super) fn seed(&mut self, playouts: u32, share: f32, rave_bias: f32) {
        self.amaf_visits = playouts;
        self.amaf_wins = playouts as f32 * share;
        self.value = blend(self, rave_bias);
    }

    /// Fixes the score of a node proved `proof` (for the person to move there): one whose
    /// mover-to-be has lost is chosen at once, one they have won never, a draw is one half.
    pub(super) fn prove(&mut self, proof: Proof) {
        if let Some(value) = proved_value(proof) {
            self.value = value;
            self.explore = 0.0;
            self.proved = true;
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

pub(super) fn refresh(edge: &mut Edge, rave_bias: f32) {
    if !edge.proved {
        edge.value = blend(edge, rave_bias);
    }
}

/// A child's value to the person choosing, before exploration: the blend of its own results
/// and its AMAF results (one division: `beta` folded in); an action without AMAF statistics
/// (a swap, Quint's steps) has its own results alone. An action neither tried nor seen in a
/// playout is worth 1 (first play urgency, so it goes first).
///
/// Without a branch, as `back_up` runs it for every child of every node of a descent: the
/// unseen case is folded in by a factor of 0 or 1 from a floating-point comparison, which the
/// processor makes without branching.
fn blend(edge: &Edge, rave_bias: f32) -> f32 {
    let n = edge.visits as f32;
    let an = edge.amaf_visits as f32;
    // (1 - beta) * q + beta * amaf with beta = an / (an + n + an * n * b).
    let numerator = edge.wins * (1.0 + an * rave_bias) + edge.amaf_wins;
    let denominator = an + n + an * n * rave_bias;
    let unseen = f32::from(u8::from(denominator == 0.0));
    (numerator + unseen) / (denominator + unseen)
}
