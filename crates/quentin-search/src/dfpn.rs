//! A proof-number solver for the connection games near their end: depth-first proof-number
//! search (Nagai's df-pn, with the 1 + ε thresholds of Pawlewicz and Lew, as MoHex's DFPN),
//! run at the root before the playouts once few points are left empty.
//!
//! Each position has a proof number (at least how many positions must be proved won for the
//! side to move before it is) and a disproof number (the same for lost), kept in a table by
//! position. The side to move wins when one of its actions leads to a position lost for the
//! other side, and loses when all of them lead to positions won for the other side: a
//! position's proof number is the least disproof number of its children, its disproof number
//! the sum of their proof numbers. The search always goes down to the most proving child,
//! with thresholds that send it back up as soon as another child becomes more promising.
//! A position where the side to move has a winning point is won at once (one action to the
//! end), so each child looked at is one action deeper than its own winning points say.
//!
//! The connection games have no draws and no repetition (every placement adds a stone for
//! good), so a proof is a proof; a forced pass answered by a forced pass, which would repeat
//! the position, ends the solve unproved.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use quentin_rules::{Action, Game, Position};

use crate::forks::ChildProof;
use crate::tree::Proof;

/// A proof or disproof number that stands for infinity: the position is settled.
const INF: u32 = u32::MAX;

/// What the table keeps of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    /// Proof number: the side to move wins when it is 0.
    pn: u32,
    /// Disproof number: the side to move loses when it is 0.
    dn: u32,
    /// When settled: actions from here to the end by the proof (the winner's quickest win the
    /// solver found, the loser's longest hold-out).
    length: u16,
}

impl Entry {
    fn won(length: u16) -> Entry {
        Entry {
            pn: 0,
            dn: INF,
            length,
        }
    }

    fn lost(length: u16) -> Entry {
        Entry {
            pn: INF,
            dn: 0,
            length,
        }
    }

    fn settled(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// The positions a solver has looked at, kept from one move to the next: the game goes on
/// through positions the solves before have worked on, and their numbers (settled or not)
/// are as good as when they were found.
#[derive(Default)]
pub(crate) struct Table {
    entries: HashMap<u128, Entry>,
}

/// The most positions a [`Table`] keeps (about 40 MB): past it, the next solve starts afresh.
const MAX_ENTRIES: usize = 1 << 20;

/// The solver: its table and its budget.
struct Solver<'a> {
    table: &'a mut HashMap<u128, Entry>,
    /// Positions looked at so far, and the most allowed.
    nodes: u64,
    budget: u64,
    /// When the solve must end, if it has a time limit.
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    /// Set when the solve must end unproved (budget spent, `stop`, or a repeated position).
    halted: bool,
}

/// The proofs df-pn finds for the children of `root` within `budget` more positions looked at
/// and by `deadline`, with what `table` holds already: the winning action if the mover wins
/// (the child lost for the opponent), every child won for the opponent. None for Quint, while
/// the swap is offered, once `stop` is set, or when nothing was settled.
pub(crate) fn child_proofs(
    table: &mut Table,
    root: &Position,
    budget: u64,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Vec<ChildProof> {
    let connection = matches!(root.game(), Game::Quentin | Game::Konobi | Game::Brique);
    if !connection
        || root.is_over()
        || root.swap_available()
        || root.to_move().is_none()
        || stop.load(Ordering::Relaxed)
    {
        return Vec::new();
    }
    if table.entries.len() > MAX_ENTRIES {
        table.entries.clear();
    }
    let mut solver = Solver {
        table: &mut table.entries,
        nodes: 0,
        budget,
        deadline,
        stop,
        halted: false,
    };
    solver.solve(root);
    let mut proofs = Vec::new();
    let mut child = root.clone();
    for action in root.legal_actions() {
        child.clone_from(root);
        if child.play(action).is_err() {
            continue;
        }
        let Some(entry) = solver.table.get(&key(&child)).copied() else {
            continue;
        };
        // The proof is for the person to move at the child: the opponent.
        let proof = if entry.pn == 0 {
            Proof::Win
        } else if entry.dn == 0 {
            Proof::Loss
        } else {
            continue;
        };
        proofs.push(ChildProof {
            action,
            proof,
            length: entry.length,
        });
    }
    proofs
}

impl Solver<'_> {
    /// Searches `root` until it is settled or the solve halts.
    fn solve(&mut self, root: &Position) {
        let entry = self.leaf(root);
        if entry.settled() {
            return;
        }
        self.mid(root, false, INF - 1, INF - 1);
    }

    /// The entry of a position seen for the first time: settled when the game is over (the
    /// side to move has lost: the other side's last action won) or when the side to move has a
    /// winning point; else one of each.
    fn evaluate(&mut self, pos: &Position) -> Entry {
        self.nodes += 1;
        if pos.is_over() {
            return Entry::lost(0);
        }
        let Some(me) = pos.to_move() else {
            return Entry::lost(0);
        };
        let mut trial = pos.clone();
        for p in pos.winning_points(me) {
            trial.clone_from(pos);
            if trial.play(Action::Place(p)).is_ok() && trial.winner() == Some(me) {
                return Entry::won(1);
            }
        }
        Entry {
            pn: 1,
            dn: 1,
            length: 0,
        }
    }

    /// The entry kept under `k`; one of each for a position not kept (the table never
    /// loses one during a solve, so this is for safety only).
    fn entry(&self, k: u128) -> Entry {
        self.table.get(&k).copied().unwrap_or(Entry {
            pn: 1,
            dn: 1,
            length: 0,
        })
    }

    /// The entry of `pos` from the table, or evaluated and kept there.
    fn leaf(&mut self, pos: &Position) -> Entry {
        let k = key(pos);
        if let Some(&e) = self.table.get(&k) {
            return e;
        }
        let e = self.evaluate(pos);
        self.table.insert(k, e);
        e
    }

    /// Searches `pos` (not settled) until its proof number reaches `th_pn` or its disproof
    /// number `th_dn`, or it is settled, or the solve halts; keeps and returns its entry.
    /// `after_pass` tells whether the action into `pos` was a pass.
    fn mid(&mut self, pos: &Position, after_pass: bool, th_pn: u32, th_dn: u32) -> Entry {
        let k = key(pos);
        let actions = pos.legal_actions();
        if actions == [Action::Pass] && after_pass {
            // Both sides would pass for ever: not a position this solver settles.
            self.halted = true;
        }
        // The children by their keys, each looked at once: a position is kept only for the
        // child the search goes down to, so that a deep line holds a few bytes a child, not a
        // board.
        let mut children: Vec<(Action, u128)> = Vec::with_capacity(actions.len());
        let mut child = pos.clone();
        for &a in &actions {
            child.clone_from(pos);
            if child.play(a).is_ok() {
                self.leaf(&child);
                children.push((a, key(&child)));
            }
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(children.len());
        loop {
            entries.clear();
            entries.extend(children.iter().map(|(_, k)| self.entry(*k)));
            let entry = combine(&entries);
            if entry.settled() || entry.pn >= th_pn || entry.dn >= th_dn || self.halt() {
                self.table.insert(k, entry);
                return entry;
            }
            // The most proving child: the least disproof number (it proves this position soonest);
            // the second least bounds how far it may go before another takes over.
            let (mut best, mut second) = (0, INF);
            for (i, e) in entries.iter().enumerate().skip(1) {
                if e.dn < entries[best].dn {
                    second = entries[best].dn;
                    best = i;
                } else if e.dn < second {
                    second = e.dn;
                }
            }
            let b = entries[best];
            // Its proof number may grow until this position's disproof number reaches `th_dn`;
            // its disproof number until it passes the second child's by a quarter (1 + ε), or
            // this position's proof number reaches `th_pn`.
            let child_th_pn = th_dn
                .saturating_sub(entry.dn.saturating_sub(b.pn))
                .min(INF - 1);
            let child_th_dn = th_pn.min(second.saturating_add(second / 4).saturating_add(1));
            let action = children[best].0;
            child.clone_from(pos);
            if child.play(action).is_err() {
                self.halted = true;
                continue;
            }
            self.mid(&child, action == Action::Pass, child_th_pn, child_th_dn);
        }
    }

    /// Whether the solve must end now: budget spent, time up or `stop` set.
    fn halt(&mut self) -> bool {
        if self.nodes >= self.budget
            || self.stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.halted = true;
        }
        self.halted
    }
}

/// A position's entry from its children's: won when a child is lost for its mover (by the
/// quickest such), lost when every child is won for its mover (by the longest), else the least
/// disproof number and the sum of the proof numbers. A position with no child cannot be (a
/// forced pass is an action), and counts as lost.
fn combine(children: &[Entry]) -> Entry {
    let mut pn = INF;
    let mut dn: u32 = 0;
    let mut quickest: Option<u16> = None;
    let mut longest = 0;
    for e in children {
        pn = pn.min(e.dn);
        dn = dn.saturating_add(e.pn);
        if e.dn == 0 {
            quickest = Some(quickest.map_or(e.length, |q| q.min(e.length)));
        }
        longest = longest.max(e.length);
    }
    if let Some(q) = quickest {
        return Entry::won(q.saturating_add(1));
    }
    if dn == 0 {
        return Entry::lost(longest.saturating_add(1));
    }
    Entry { pn, dn, length: 0 }
}

/// The table's key of a position: two independent 64-bit hashes of its game, board and side to
/// move (the connection games' positions hold nothing else that changes: no repetition, no
/// hands).
fn key(pos: &Position) -> u128 {
    let mut a = Mix::new(0x9e37_79b9_7f4a_7c15);
    let mut b = Mix::new(0xc2b2_ae3d_27d4_eb4f);
    for h in [&mut a, &mut b] {
        pos.game().hash(h);
        pos.board().hash(h);
        pos.to_move().hash(h);
    }
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

/// A fast hasher for the table's keys: eight bytes at a time, multiplied and rotated, then
/// mixed once more at the end (SplitMix64's finaliser).
struct Mix {
    state: u64,
    multiplier: u64,
}

impl Mix {
    fn new(multiplier: u64) -> Mix {
        Mix {
            state: multiplier,
            multiplier,
        }
    }
}

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.state = (self.state.rotate_left(23) ^ u64::from_le_bytes(word))
                .wrapping_mul(self.multiplier);
        }
    }

    fn finish(&self) -> u64 {
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests;
