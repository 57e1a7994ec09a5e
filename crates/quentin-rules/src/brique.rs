//! Brique: stones go on the squares of a checkered board, and a placement fills every square
//! whose two escorts it completes, removing an enemy stone there.

use super::board::{Board, OFF, ORTHOGONAL_STEPS, stone};
use super::chains::Chains;
use super::color::Color;
use super::connection::PlacementRules;
use super::point::{Point, STRIDE};
use super::{Change, Illegal};

/// The rule marker of Brique for [`super::connection::Connection`].
pub(crate) struct Brique;

/// Whether the square `p` is light: `a1` is light, and colours alternate, so a square is light
/// when its column and row (from 0) add up to an even number.
#[must_use]
pub const fn is_light(p: Point) -> bool {
    (p.col() + p.row()).is_multiple_of(2)
}

/// The escorts of the square `p` on a board of side `size`: the square above and the square to
/// the left of a light square, the square below and the square to the right of a dark one.
/// Squares on the edge have one escort or none.
///
/// The relation is symmetric: a square is an escort of each of its own escorts.
pub fn escorts(size: usize, p: Point) -> impl Iterator<Item = Point> {
    let directions = if is_light(p) {
        [(0, 1), (-1, 0)]
    } else {
        [(0, -1), (1, 0)]
    };
    directions
        .into_iter()
        .filter_map(move |d| p.offset(d, size))
}

/// The direction of the squares that `p` escorts: +1 for a light square, which escorts the
/// dark squares above it and to its left, whose other escorts are to the right of the one and
/// below the other; -1 for a dark square, the light squares below it and to its right, whose
/// other escorts are to the left of the one and above the other: the same steps, negated. (The
/// squares `p` escorts are its own escorts: the relation is symmetric.)
#[inline]
const fn sign(p: Point) -> i8 {
    if is_light(p) { 1 } else { -1 }
}

/// The points of the two squares `p` escorts, one row up and one column left (for a light `p`),
/// made from `p`'s column and row with no division of an index; off the board for a square
/// that is.
#[inline]
fn escorted_points(p: Point) -> [Point; 2] {
    let s = sign(p);
    [p.shifted(0, s), p.shifted(-s, 0)]
}

/// Places a stone of `color` on the empty point `p` and makes the fills it completes, each
/// change written to `changes` and the board as it is found; calls `taken(square, bypass)` for
/// each filled square (by index), after it is written, with the index of the square beside its
/// two other neighbours, on its far diagonal from `p`: `square + (square - p) + (square -
/// other)`. Returns the fills.
///
/// Made here, in registers: returned by `fills` (not inlined), each point's column and row were
/// written as two bytes and read back as one word, a load that waited for the writes (no
/// store-to-load forwarding): a tenth of a Brique playout.
#[inline]
fn place_with(
    board: &mut Board,
    p: Point,
    color: Color,
    changes: &mut Vec<Change>,
    mut taken: impl FnMut(usize, usize),
) -> [(usize, bool); 2] {
    let fills = fills(board, p, color);
    let points = escorted_points(p);
    let mine = stone(color);
    // `p` is empty: the placement needs no look at what stood there.
    changes.push(Change::placement(p, color));
    board.set_cell_without_bitboards(p.index(), mine);
    let (i, s) = (p.index(), isize::from(sign(p)));
    let row = s * STRIDE as isize;
    let bypasses = [2 * row - s, row - 2 * s].map(|d| i.wrapping_add_signed(d));
    for (((square, fill), point), bypass) in fills.into_iter().zip(points).zip(bypasses) {
        if fill {
            changes.push(Change {
                point,
                before: board.color_at(square),
                after: Some(color),
            });
            board.set_cell_without_bitboards(square, mine);
            taken(square, bypass);
        }
    }
    fills
}

/// The squares (by index) that a stone of `color` on the empty square `p` fills, each with
/// whether it does: only squares escorted by the new stone can be completed, and a filled square
/// escorts only the two squares that filled it, so fills never cascade. What stands on `p`
/// itself is not read.
#[inline]
fn fills(board: &Board, p: Point, color: Color) -> [(usize, bool); 2] {
    // Read on the padded grid: off-board cells hold no stone. The steps of [`sign`], by index:
    // a row up and a column left; the other escorts, a diagonal step up-right and down-left.
    let (i, s) = (p.index(), isize::from(sign(p)));
    let (row, diagonal) = (s * STRIDE as isize, s * (STRIDE as isize + 1));
    let mine = stone(color);
    [(row, diagonal), (-s, -diagonal)].map(|(square, other)| {
        let square = i.wrapping_add_signed(square);
        let cell = board.cell(square);
        // `&`, not `&&`: one branch for the three tests, whose outcome is random.
        let fill =
            (cell != OFF) & (cell != mine) & (board.cell(i.wrapping_add_signed(other)) == mine);
        (square, fill)
    })
}

impl PlacementRules for Brique {
    /// The stone, then each square it escorts whose other escort holds the mover's colour too.
    /// An enemy stone there is removed: the change records it as `before`.
    fn preview(
        board: &Board,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> Result<(), Illegal> {
        changes.push(Change::placement(p, color));
        let points = escorted_points(p);
        for ((square, fill), point) in fills(board, p, color).into_iter().zip(points) {
            if fill {
                changes.push(Change {
                    point,
                    before: board.color_at(square),
                    after: Some(color),
                });
            }
        }
        Ok(())
    }

    /// As told by [`Brique::preview`], each change made as it is found; always legal.
    fn place(board: &mut Board, p: Point, color: Color, changes: &mut Vec<Change>) -> bool {
        place_with(board, p, color, changes, |_, _| {});
        true
    }

    /// [`Brique::place`] with the chains followed at once, from the fills it holds in registers:
    /// read back from `changes` by [`Chains::update`], each turn walked its one to three changes
    /// twice, loops whose length is random.
    ///
    /// A fill takes an enemy stone away and puts one of the mover's there; the two concern
    /// different sets, so each fill's stone leaves the enemy's set as it is made, and the
    /// mover's new stones join in the order of their changes, the placement first.
    #[inline]
    fn place_and_follow(
        board: &mut Board,
        chains: &mut Chains,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> bool {
        // An enemy stone taken by a fill is linked at most to its two other neighbours (its
        // escorts are the mover's now), and those two escort the square between them, on the
        // filled square's far diagonal: were both enemy stones, that square was filled with
        // their colour when the second came, and a fill cannot take it back from them. So in a
        // played game a fill never cuts a chain, and the enemy's set is not built anew (it was
        // about once a playout, a flood of the whole set each time); a board set up
        // otherwise still is ([`place_with`] finds that square).
        let enemy = color.opponent();
        let mut cut = false;
        let fills = place_with(board, p, color, changes, |square, bypass| {
            // Only an enemy stone is in the enemy's set.
            cut |= chains.leave::<Brique>(square, enemy, Some(bypass));
        });
        if cut {
            chains.rebuild::<Brique>(board, enemy);
        }
        chains.join::<Brique>(board, p.index(), color);
        for (square, fill) in fills {
            if fill {
                chains.join::<Brique>(board, square, color);
            }
        }
        true
    }

    const BITBOARDS: bool = false;

    const REPLACES: bool = true;

    const LINKS: &'static [isize] = &ORTHOGONAL_STEPS;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escorts_are_symmetric() {
        for size in [3, 4, 15] {
            for p in Board::new(size).points() {
                for e in escorts(size, p) {
                    assert!(escorts(size, e).any(|q| q == p), "{p} escorts {e}");
                }
            }
        }
    }

    #[test]
    fn corners_of_odd_boards_are_light() {
        let n = 15;
        for (col, row) in [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)] {
            assert!(is_light(Point::new(col, row)));
        }
        // a1 is light: its escorts are above it only (nothing to its left).
        let a1: Vec<Point> = escorts(n, Point::new(0, 0)).collect();
        assert_eq!(a1, vec![Point::new(0, 1)]);
    }
}
