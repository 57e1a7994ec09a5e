//! Which stones are joined to their colour's first edge, kept up to date as stones arrive, so
//! that "does a chain join this colour's edges?" is one flag.
//!
//! For each colour the set of its stones that a chain links to its first edge (Black: the bottom
//! row, White: the left column) grows by a small flood from each arriving stone that touches it.
//! A stone enters the set once, so the floods of a whole game cost one visit per stone. A
//! colour has won when its set reaches its second edge. A stone that leaves (Brique replaces
//! enemy stones) can cut its chain, so a colour that loses a stone of its set has the set
//! built anew; a stone outside the set can cut nothing from it, since every stone of the set
//! reaches the edge through stones of the set.
//!
//! Two small bitsets, where a union-find over every point needed kilobytes: positions are cloned
//! by the thousand in a search.

use super::Change;
use super::board::{Board, OFF};
use super::color::Color;
use super::connection::{PlacementRules, spread};
use super::point::{INDICES, Point, STRIDE};

/// The bit of `color` in [`Chains::reach`].
#[inline]
const fn bit(color: Color) -> u8 {
    1 << color as u8
}

/// The stones of each colour linked to that colour's first edge.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Chains {
    /// By point index: bit [`bit`] of a colour is set when the stone there is joined to the
    /// colour's first edge.
    reach: [u8; INDICES],
    /// By [`Color::index`]: a stone of `reach` on the colour's second edge, if any (its index).
    joined: [Option<u16>; 2],
}

/// Whether the point of index `i` lies on `color`'s first (`second == false`) or second edge:
/// whether its neighbour beyond that edge is off the board. Black's edges are rows, White's
/// columns.
#[inline]
fn on_edge(board: &Board, i: usize, color: Color, second: bool) -> bool {
    let step = match color {
        Color::Black => STRIDE,
        Color::White => 1,
    };
    let beyond = if second { i + step } else { i - step };
    board.cell(beyond) == OFF
}

impl Chains {
    /// The chains of `board`, stones linked as the game `R` links them.
    pub(crate) fn build<R: PlacementRules>(board: &Board) -> Chains {
        let mut chains = Chains {
            reach: [0; INDICES],
            joined: [None; 2],
        };
        for color in Color::ALL {
            chains.rebuild::<R>(board, color);
        }
        chains
    }

    /// Builds `color`'s set anew from the stones on its first edge.
    pub(crate) fn rebuild<R: PlacementRules>(&mut self, board: &Board, color: Color) {
        let b = bit(color);
        for r in &mut self.reach {
            *r &= !b;
        }
        self.joined[color.index()] = None;
        for k in 0..board.size() {
            let p = match color {
                Color::Black => Point::new(k, 0),
                Color::White => Point::new(0, k),
            };
            if board.get(p) == Some(color) {
                self.flood::<R>(board, p.index(), color);
            }
        }
    }

    /// Adds the stone of index `start`, of `color`, and every stone linked to it that is not in
    /// the set yet; or stops at the first of them on the colour's second edge: the colour has
    /// then won, the game is over and the set is not asked again.
    fn flood<R: PlacementRules>(&mut self, board: &Board, start: usize, color: Color) {
        let joined = spread::<R>(board, &mut self.reach, bit(color), start, |i| {
            on_edge(board, i, color, true)
        });
        let slot = &mut self.joined[color.index()];
        if slot.is_none() {
            *slot = joined.map(|i| i as u16);
        }
    }

    /// Follows the `changes` of a turn, already made on `board`.
    pub(crate) fn update<R: PlacementRules>(&mut self, board: &Board, changes: &[Change]) {
        let mut cut = [false; 2];
        // Only Brique replaces stones; the other games have nothing to walk.
        let replacing: &[Change] = if R::REPLACES { changes } else { &[] };
        for change in replacing {
            if let Some(before) = change.before
                && change.after != Some(before)
            {
                cut[before.index()] |= self.leave::<R>(change.point.index(), before, None);
            }
        }
        for color in Color::ALL {
            if cut[color.index()] {
                self.rebuild::<R>(board, color);
            }
        }
        for change in changes {
            let Some(color) = change.after else { continue };
            self.join::<R>(board, change.point.index(), color);
        }
    }

    /// Follows a stone of `color` taken from index `i` (the board may already say so), and
    /// answers whether it may have cut the set, which must then be built anew
    /// ([`Chains::rebuild`]) once the turn's other stones have left.
    ///
    /// A stone linked to at most one stone of the set is at the end of a chain: taking it out
    /// cuts nothing else, since a path through it would enter and leave by two of its links.
    /// (The set may still hold stones this turn changed too, which only counts more links.)
    /// Nor does a stone linked to exactly two when the set holds `bypass`, a stone linked to
    /// both (the caller knows which two they can be): a path through the stone goes round it.
    #[inline]
    pub(crate) fn leave<R: PlacementRules>(
        &mut self,
        i: usize,
        color: Color,
        bypass: Option<usize>,
    ) -> bool {
        let (reach, b) = (&mut self.reach, bit(color));
        if reach[i] & b == 0 {
            return false;
        }
        let links = R::LINKS
            .iter()
            .filter(|&&d| reach[i.wrapping_add_signed(d)] & b != 0)
            .count();
        let bypassed = links == 2 && bypass.is_some_and(|j| reach[j] & b != 0);
        if links <= 1 || bypassed {
            reach[i] &= !b;
            return false;
        }
        true
    }

    /// Follows a stone of `color` arrived on index `i` (already on `board`): it joins the set,
    /// with every stone it links that the set lacks, when it touches the set or the colour's
    /// first edge.
    #[inline]
    pub(crate) fn join<R: PlacementRules>(&mut self, board: &Board, i: usize, color: Color) {
        let b = bit(color);
        // The set holds only stones of `color`: a neighbour in it is a linked stone.
        let touches = R::LINKS
            .iter()
            .fold(0, |any, &d| any | self.reach[i.wrapping_add_signed(d)]);
        // `&`, not `&&`: one branch.
        if ((touches & b != 0) | on_edge(board, i, color, false)) & (self.reach[i] & b == 0) {
            self.flood::<R>(board, i, color);
        }
    }

    /// A stone (its point) of a chain of `color` that joins its two edges, if there is one.
    pub(crate) fn joining_stone(&self, color: Color) -> Option<Point> {
        self.joined[color.index()].map(|i| Point::from_index(usize::from(i)))
    }
}
