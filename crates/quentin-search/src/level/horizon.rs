//! What a level sees for sure before it draws: its tactical horizon, and where the fight is.
//!
//! A level below full strength draws its move among the root's actions ([`super::Level::choose`]).
//! Before the draw, the actions it may draw are narrowed by what a player of its strength never
//! misses, from what the search proved when it expanded the root (a win at once, and the
//! actions that leave the opponent one, are proved there whatever the playouts):
//!
//! - from [`TAKES_WINS`] up, an action that wins at once is always taken;
//! - from [`BLOCKS_THREATS`] up, an action proved lost (one that leaves the opponent a win at
//!   once, or any other loss the search proved) is never drawn while another is left;
//! - from [`KEEPS_PROOFS`] up, a proved win is never thrown away: only the actions proved to
//!   keep it are drawn.
//!
//! And at every level the draw stays near the fight: a placement with no stone within
//! [`FIGHT_REACH`] points (in both directions) is drawn only when nothing else is left, or when
//! it is the search's own choice. A person who errs plays a plausible move that misses a deeper
//! idea, not a point far from every stone; the draw without this played any of the board's
//! points in a position won or lost anyway, where every action looks alike.

use quentin_rules::{Action, Position};

use super::Level;
use crate::Proven;
use crate::report::MoveReport;

/// The weakest level that always takes a win at once.
pub const TAKES_WINS: u8 = 3;
/// The weakest level that never plays an action proved lost while another is left, so never
/// leaves a threat to win at once unanswered when an answer exists.
pub const BLOCKS_THREATS: u8 = 5;
/// The weakest level that never throws away a proved win.
pub const KEEPS_PROOFS: u8 = 7;

/// How far from the nearest stone (in rows and in columns) a placement still counts as near the
/// fight: two points, a bridge or a knight's move away.
pub const FIGHT_REACH: usize = 2;

/// Whether `action` at `position` is within `reach` points (rows and columns) of a stone or
/// piece already on the board. Whatever is not a placement (a swap, a pass, a Quint step) plays
/// with the stones there, so counts as near.
#[must_use]
pub fn near_stones(position: &Position, action: Action, reach: usize) -> bool {
    let Action::Place(p) = action else {
        return true;
    };
    let board = position.board();
    let r = reach as isize;
    (-r..=r).any(|dc| {
        (-r..=r).any(|dr| {
            (dc, dr) != (0, 0)
                && board
                    .step(p, (dc, dr))
                    .is_some_and(|q| board.get(q).is_some())
        })
    })
}

/// Which of the root's `moves` (as the report lists them, the search's choice first) `level`
/// may draw at `position`: never none, and never without the first unless the first is ruled
/// out by the level's horizon.
pub(super) fn allowed(level: Level, position: &Position, moves: &[MoveReport]) -> Vec<bool> {
    let n = level.get();
    let wins = |m: &MoveReport| m.proven == Some(Proven::Win);
    let at_once = |m: &MoveReport| wins(m) && m.ends_in == Some(1);
    if n >= KEEPS_PROOFS && moves.iter().any(wins) {
        return moves.iter().map(wins).collect();
    }
    if n >= TAKES_WINS && moves.iter().any(at_once) {
        return moves.iter().map(at_once).collect();
    }
    let mut allowed: Vec<bool> = moves
        .iter()
        .map(|m| n < BLOCKS_THREATS || m.proven != Some(Proven::Loss))
        .collect();
    if !allowed.iter().any(|&a| a) {
        allowed = vec![true; moves.len()];
    }
    // On an empty board there is no fight yet: every point is as near as another.
    if position.board().count() == [0, 0] {
        return allowed;
    }
    let near: Vec<bool> = moves
        .iter()
        .zip(&allowed)
        .enumerate()
        .map(|(i, (m, &a))| a && (i == 0 || near_stones(position, m.action, FIGHT_REACH)))
        .collect();
    if near.iter().any(|&a| a) {
        near
    } else {
        allowed
    }
}

#[cfg(test)]
mod tests;
