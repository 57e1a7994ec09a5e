//! Forks in the connection games, seen at the root and at the nodes that draw many playouts: a
//! placement after which its player has a winning point that every reply leaves (two or more of
//! them, or one the other side may not take), so that it wins two actions later whatever the
//! reply.
//!
//! The mover's own fork wins in three actions: the node is proved. The opponent's forks, were
//! the opponent to move now, give the must-play region (MoHex's term): each fork's placement and
//! its winning points, the only places where one stone could stop it, intersected over the
//! forks. A placement outside the region that leaves a fork still winning (tried by playing it
//! out) is lost in three actions too. Every proof is played, reply by reply: the region only
//! chooses which placements to try.
//!
//! The tree finds these by itself, but only once a fork's node has drawn enough playouts to be
//! expanded; at the root they are found before the first playout, at the cost of a few hundred
//! of them at most, and at a deeper node once it has drawn a thousand (`Tree::look_for_forks`),
//! where the look costs a small part of those. Quint has its own threats (`quint_tactics`).

use std::sync::atomic::{AtomicBool, Ordering};

use quentin_rules::{Action, Color, Game, Point, Position, Setup};

use crate::tree::Proof;

/// A proof for a child of a node: its action, the proof for the person to move there, and the
/// actions from there to the end of the game by the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChildProof {
    pub(crate) action: Action,
    pub(crate) proof: Proof,
    pub(crate) length: u16,
}

/// The proofs the forks give the children of a node at `root` (a connection game's position,
/// its mover's turn), in the order of its legal actions: the mover's forks (lost for the opponent,
/// two actions to the end), else the placements the opponent's forks refute (won for the
/// opponent, three actions to the end). None when the mover wins at once (the expansion's
/// decisive moves settle that), while the swap is offered, in Quint, or once `stop` is set.
/// When the opponent threatens to win at once, the expansion has already proved lost the
/// placements that do not stop it; the forks then tell which of the others lose all the same.
pub(crate) fn child_proofs(root: &Position, stop: &AtomicBool) -> Vec<ChildProof> {
    let Some(me) = root.to_move() else {
        return Vec::new();
    };
    let them = me.opponent();
    let connection = matches!(root.game(), Game::Quentin | Game::Konobi | Game::Brique);
    if !connection || root.is_over() || root.swap_available() || !root.winning_points(me).is_empty()
    {
        return Vec::new();
    }
    let mine: Vec<ChildProof> = forks(root, stop)
        .into_iter()
        .map(|fork| ChildProof {
            action: Action::Place(fork.point),
            proof: Proof::Loss,
            length: 2,
        })
        .collect();
    if !mine.is_empty() {
        return mine;
    }
    refuted(root, them, stop)
}

/// A fork: the placement, and the winning points it leaves its player.
struct Fork {
    point: Point,
    wins: Vec<Point>,
}

/// The forks of the side to move at `pos`, in the order of the legal actions.
fn forks(pos: &Position, stop: &AtomicBool) -> Vec<Fork> {
    let Some(player) = pos.to_move() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let done = each_placement(
        pos,
        stop,
        |_| false,
        |point, after| {
            if let Some(wins) = unstoppable(after, player) {
                found.push(Fork { point, wins });
            }
        },
    );
    if done { found } else { Vec::new() }
}

/// Calls `visit` with each legal placement of the side to move at `pos` that `skip` does not
/// name and the position after it, in the order of the legal actions, leaving out those that
/// end the game. Returns false when `stop` was set on the way.
fn each_placement(
    pos: &Position,
    stop: &AtomicBool,
    skip: impl Fn(Point) -> bool,
    mut visit: impl FnMut(Point, &Position),
) -> bool {
    let mut after = pos.clone();
    for action in pos.legal_actions() {
        let Action::Place(point) = action else {
            continue;
        };
        if skip(point) {
            continue;
        }
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        after.clone_from(pos);
        if after.play(action).is_ok() && !after.is_over() {
            visit(point, &after);
        }
    }
    true
}

/// The winning points of `player` at `after` (the other side to move) when every reply leaves
/// one of them winning: `player` then wins on the next action whatever is replied. `None` when
/// some reply holds, or wins.
fn unstoppable(after: &Position, player: Color) -> Option<Vec<Point>> {
    let wins = after.winning_points(player);
    if wins.is_empty() {
        return None;
    }
    // The winning points first: they are where a reply most likely holds.
    let mut replies: Vec<Action> = wins.iter().copied().map(Action::Place).collect();
    replies.extend(
        after
            .legal_actions()
            .into_iter()
            .filter(|a| !matches!(a, Action::Place(p) if wins.contains(p))),
    );
    let (mut reply, mut trial) = (after.clone(), after.clone());
    for r in replies {
        reply.clone_from(after);
        if reply.play(r).is_err() {
            continue;
        }
        if reply.is_over() {
            // The reply won (or ended the game some other way): no fork.
            return None;
        }
        let still_wins = wins.iter().any(|&w| {
            trial.clone_from(&reply);
            trial.play(Action::Place(w)).is_ok() && trial.winner() == Some(player)
        });
        // The reply may have opened a new winning point elsewhere: asked only when it blocked
        // every known one (seldom).
        if !still_wins && reply.winning_points(player).is_empty() {
            return None;
        }
    }
    Some(wins)
}

/// The placements of the mover at `root` after which a fork of `them` (the opponent, found as if
/// they moved now) still wins: each proved won for `them`, three actions to the end. Only the
/// placements outside the must-play region are tried.
fn refuted(root: &Position, them: Color, stop: &AtomicBool) -> Vec<ChildProof> {
    let Ok(turned) = Setup::new(root.game()).start_from(root.board().clone(), them) else {
        return Vec::new();
    };
    let threats = forks(&turned, stop);
    if threats.is_empty() {
        return Vec::new();
    }
    // The points where one stone could stop every fork: each fork's placement and its winning
    // points, intersected.
    let first = &threats[0];
    let mut region: Vec<Point> = std::iter::once(first.point)
        .chain(first.wins.iter().copied())
        .collect();
    for fork in &threats[1..] {
        region.retain(|&p| p == fork.point || fork.wins.contains(&p));
    }
    let mut forked = root.clone();
    let mut proofs = Vec::new();
    let done = each_placement(
        root,
        stop,
        |p| region.contains(&p),
        |p, child| {
            let wins = threats.iter().any(|fork| {
                forked.clone_from(child);
                forked.play(Action::Place(fork.point)).is_ok()
                    && !forked.is_over()
                    && unstoppable(&forked, them).is_some()
            });
            if wins {
                proofs.push(ChildProof {
                    action: Action::Place(p),
                    proof: Proof::Win,
                    length: 3,
                });
            }
        },
    );
    if done { proofs } else { Vec::new() }
}

#[cfg(test)]
mod tests;
