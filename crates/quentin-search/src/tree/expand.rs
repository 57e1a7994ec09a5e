//! Expansion: a node's children listed, with what one look ahead proves (decisive and
//! anti-decisive moves), within the node budget.

use std::sync::atomic::{AtomicBool, Ordering};

use quentin_rules::{Action, Color, Point, Position};

use super::prior::Prior;
use super::{Edge, Node, Proof, ROOT, Tree};
use crate::forks::ChildProof;

impl Tree {
    /// Expands the root now (with its decisive and anti-decisive checks), if not yet done.
    /// Quint has no threat scan (a side cannot be asked to move out of turn): its root
    /// children are expanded at once instead, so that every action after which the opponent
    /// wins at once is proved lost before the first playout, however slow the playouts; in the
    /// drop phase, so is every drop after which the opponent has a threat that wins in three
    /// drops ([`crate::quint_tactics::winning_threat`]); and a drop of the mover's that makes
    /// such a threat proves the root won.
    pub(crate) fn expand_root(&mut self, root: &Position, stop: &AtomicBool) {
        if !self.nodes[ROOT as usize].expanded {
            self.expand(ROOT, root);
        }
        if root.in_hand().is_none() || self.nodes[ROOT as usize].proof != Proof::Unknown {
            return;
        }
        // The mover's own threat that wins in three drops proves the root.
        if let Some(q) = crate::quint_tactics::winning_threat(root)
            && let Some(c) = self
                .children(ROOT)
                .find(|&c| self.nodes[c as usize].action == Action::Place(q))
        {
            self.set_proof(c, Proof::Loss, 2);
            self.update_proof(ROOT);
            return;
        }
        let mut child_pos = root.clone();
        for c in self.children(ROOT) {
            let n = &self.nodes[c as usize];
            if stop.load(Ordering::Relaxed) {
                break;
            }
            if n.expanded || n.proof != Proof::Unknown {
                continue;
            }
            child_pos.clone_from(root);
            if child_pos.play(n.action).is_ok() && !child_pos.is_over() {
                self.expand(c, &child_pos);
                // A drop that leaves the opponent a threat winning in three drops (an open
                // three, a broken four) is lost as surely.
                if self.nodes[c as usize].proof == Proof::Unknown
                    && crate::quint_tactics::winning_threat(&child_pos).is_some()
                {
                    self.set_proof(c, Proof::Win, 3);
                }
            }
        }
        self.update_proof(ROOT);
    }

    /// Gives the children of node `i` (expanded) the proofs of its forks ([`crate::forks`])
    /// and proves `i` by them. A child proved already keeps its proof.
    pub(crate) fn prove_children(&mut self, i: u32, proofs: &[ChildProof]) {
        if proofs.is_empty() || !self.nodes[i as usize].expanded {
            return;
        }
        for c in self.children(i) {
            let node = &self.nodes[c as usize];
            if node.proof != Proof::Unknown {
                continue;
            }
            if let Some(p) = proofs.iter().find(|p| p.action == node.action) {
                self.set_proof(c, p.proof, p.length);
            }
        }
        self.update_proof(i);
    }

    /// Whether node `i` is a child of the root.
    fn is_root_child(&self, i: u32) -> bool {
        self.children(ROOT).contains(&i)
    }

    /// Lists the children of `i` at `pos` and proves what one look ahead proves: a winning action
    /// (decisive), actions after which the opponent wins at once (anti-decisive). Returns false
    /// when the node budget has no room.
    /// The opponent's threats are looked for at every node (they cost a flood of the chains and
    /// a placement or two an action, next to the placement of every action the expansion makes
    /// anyway).
    pub(super) fn expand(&mut self, i: u32, pos: &Position) -> bool {
        let mut actions = pos.legal_actions();
        // The root's children go from the centre out: their first playouts follow that order
        // (every child is worth the same before it is tried), so that a search cut short has
        // looked at the likeliest moves, not at the first ones of the list.
        if i == ROOT {
            actions.sort_by_key(|&a| centrality(a, pos.size()));
        }
        // The swap goes last, where `select` looks for it.
        if let Some(k) = actions.iter().position(|&a| a == Action::Swap) {
            let swap = actions.remove(k);
            actions.push(swap);
        }
        // The root's children are always kept: without them there is no move to report. The
        // root's children's own children (which prove the actions that let the opponent win at
        // once) have room kept for them: deeper nodes stop short of it.
        let limit = if i == ROOT || self.is_root_child(i) {
            self.capacity
        } else {
            let children = self.children(ROOT).len();
            self.capacity - (children * children).min(self.capacity / 2)
        };
        let full = i != ROOT && self.nodes.len() + actions.len() > limit;
        if full || actions.is_empty() {
            return false;
        }
        let first = self.nodes.len() as u32;
        let mover = pos.to_move();
        let mut proofs = Vec::with_capacity(actions.len());
        let mut after = pos.clone();
        for &a in &actions {
            after.clone_from(pos);
            proofs.push(match after.play(a) {
                Ok(()) => terminal_proof(&after, mover, a),
                Err(_) => Proof::Unknown,
            });
        }
        // A child where the game is over ends it in no action; one where the opponent wins at
        // once, in one.
        let mut lengths = vec![0; actions.len()];
        if !proofs.contains(&Proof::Loss) {
            refute_threatened(pos, &actions, &mut proofs, &mut lengths);
        }
        let prior = self.prior_at(i, pos);
        for ((&a, proof), length) in actions.iter().zip(proofs).zip(lengths) {
            let mut node = Node::new(a);
            node.proof = proof;
            node.length = length;
            self.nodes.push(node);
            let mut edge = Edge::new(a);
            if let (Some((prior, last)), Action::Place(p)) = (prior, a) {
                edge.seed(prior.playouts, prior.share(pos.board(), p, mover, last));
            }
            edge.prove(proof);
            self.edges.push(edge);
        }
        let n = &mut self.nodes[i as usize];
        n.first_child = first;
        n.children = actions.len() as u16;
        n.expanded = true;
        n.ranks = self
            .ranks
            .add(pos.size(), &self.edges.amaf_index[first as usize..]);
        self.update_proof(i);
        true
    }

    /// The prior the placements of node `i` at `pos` start with, if any, and the stone their
    /// nearness is measured from: the one placed by the action into `i` (`None` after a swap,
    /// or at a root searched without the action before it, where every placement is far).
    fn prior_at(&self, i: u32, pos: &Position) -> Option<(Prior, Option<Point>)> {
        let prior = Prior::of(pos.game()).filter(|_| self.params.prior)?;
        let last = match self.nodes[i as usize].action {
            Action::Place(p) => Some(p),
            _ => None,
        };
        Some((prior, last))
    }
}

/// How far from the centre of a board of side `size` an action plays (the square of twice the
/// distance, so that it stays whole): where a placement or a drop goes, or a step arrives; a
/// swap or a pass comes after every point. The search's prior where it knows nothing else: in
/// connection games the central points reach both edges soonest, in Quint they have the most
/// lines of five through them.
pub(crate) fn centrality(action: Action, size: usize) -> usize {
    let point = match action {
        Action::Place(p) | Action::Step { to: p, .. } => p,
        Action::Swap | Action::Pass => return usize::MAX,
    };
    let off = |x: usize| (2 * x).abs_diff(size.saturating_sub(1));
    off(point.col()).pow(2) + off(point.row()).pow(2)
}

/// The proof for the person to move after `action` ended the game at `after`, or `Unknown` when
/// the game goes on. `mover` is the colour that chose it.
fn terminal_proof(after: &Position, mover: Option<Color>, action: Action) -> Proof {
    if !after.is_over() {
        return Proof::Unknown;
    }
    match after.winner() {
        None => Proof::Draw,
        Some(winner) => {
            // A swap never ends a game, so the mover still plays the colour it chose with.
            let mover_won = Some(winner) == mover && action != Action::Swap;
            if mover_won { Proof::Loss } else { Proof::Win }
        }
    }
}

/// Anti-decisive moves in the connection games: when the opponent threatens to win at once, marks
/// every action after which one of those threats still wins as lost (a proof: the opponent
/// has an immediate win, so the game ends one action later). The threats are the opponent's
/// winning placements were it to move now ([`Position::winning_points`]), each tried again
/// after each action.
fn refute_threatened(
    pos: &Position,
    actions: &[Action],
    proofs: &mut [Proof],
    lengths: &mut [u16],
) {
    let Some(me) = pos.to_move() else { return };
    if pos.in_hand().is_some() {
        return;
    }
    let them = me.opponent();
    let threats: Vec<Action> = pos
        .winning_points(them)
        .into_iter()
        .map(Action::Place)
        .collect();
    if threats.is_empty() {
        return;
    }
    let mut after = pos.clone();
    let mut trial = pos.clone();
    for ((&a, proof), length) in actions.iter().zip(proofs.iter_mut()).zip(lengths) {
        if *proof != Proof::Unknown || a == Action::Swap {
            continue;
        }
        after.clone_from(pos);
        if after.play(a).is_err() || after.to_move() != Some(them) {
            continue;
        }
        let refuted = threats.iter().any(|&t| {
            trial.clone_from(&after);
            trial.play(t).is_ok() && trial.winner() == Some(them)
        });
        if refuted {
            *proof = Proof::Win;
            *length = 1;
        }
    }
}

#[cfg(test)]
mod tests;
