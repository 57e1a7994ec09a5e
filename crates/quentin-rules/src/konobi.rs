//! Konobi: like-coloured stones connect strongly (orthogonally) or weakly (diagonally, when
//! neither point they both touch holds their colour). A placement may not make a crosscut, nor
//! a weak connection that a strong one could have replaced.

use std::fmt;

use super::board::{
    Board, DIAGONAL, DIAGONAL_STEPS, EMPTY, ORTHOGONAL_STEPS, beside_both, beside_either, stone,
};
use super::color::Color;
use super::connection::PlacementRules;
use super::point::{Point, STRIDE};
use super::{Change, Illegal};

/// The rule marker of Konobi for [`super::connection::Connection`].
pub(crate) struct Konobi;

/// Why a Konobi placement is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KonobiViolation {
    /// The stone on `point` would complete a crosscut: two stones of each colour on the two
    /// diagonals of the 2×2 square whose bottom-left point is `square`.
    Crosscut {
        /// The placement.
        point: Point,
        /// The bottom-left point of the 2×2 square.
        square: Point,
    },
    /// The stone on `point` would connect weakly to the stone on `weak_to`, while a stone on
    /// `instead` (orthogonally next to `weak_to`, empty) would connect to it with no weak
    /// connection at all.
    AvoidableWeakConnection {
        /// The placement.
        point: Point,
        /// The stone it connects to weakly.
        weak_to: Point,
        /// A point that connects to `weak_to` strongly and weakly to nothing.
        instead: Point,
    },
}

impl fmt::Display for KonobiViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KonobiViolation::Crosscut { point, square } => {
                // The square's corners; the placement's partner is its opposite corner, and the
                // two enemy stones are the other two.
                let (c, r) = (square.col(), square.row());
                let corner = |dc: usize, dr: usize| Point::new(c + dc, r + dr);
                let on_left = point.col() == c;
                let on_bottom = point.row() == r;
                let partner = corner(usize::from(on_left), usize::from(on_bottom));
                let mut across = [
                    corner(usize::from(!on_left), usize::from(on_bottom)),
                    corner(usize::from(on_left), usize::from(!on_bottom)),
                ];
                across.sort_by_key(|p| (p.col(), p.row()));
                write!(
                    f,
                    "{point} would make a crosscut: {point} and {partner} corner to corner across \
                     {} and {}",
                    across[0], across[1]
                )
            }
            KonobiViolation::AvoidableWeakConnection {
                point,
                weak_to,
                instead,
            } => write!(
                f,
                "{point} would join {weak_to} only corner to corner, but {instead} would join \
                 {weak_to} side by side"
            ),
        }
    }
}

impl PlacementRules for Konobi {
    /// The placement alone, when it makes neither a crosscut nor an avoidable weak connection.
    fn preview(
        board: &Board,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> Result<(), Illegal> {
        check(board, p, color)?;
        changes.push(Change::placement(p, color));
        Ok(())
    }

    fn place(board: &mut Board, p: Point, color: Color, changes: &mut Vec<Change>) -> bool {
        if !is_legal(board, p, color) {
            return false;
        }
        // `p` is empty: the placement needs no look at what stood there.
        changes.push(Change::placement(p, color));
        board.set_cell_without_bitboards(p.index(), stone(color));
        true
    }

    /// Every like-coloured stone around `p`, diagonal ones included: a diagonal pair is either
    /// weakly connected or strongly connected through the like-coloured stone they share, so
    /// either way it lies in one chain.
    const BITBOARDS: bool = false;

    const LINKS: &'static [isize] = &[
        ORTHOGONAL_STEPS[0],
        ORTHOGONAL_STEPS[1],
        ORTHOGONAL_STEPS[2],
        ORTHOGONAL_STEPS[3],
        DIAGONAL_STEPS[0],
        DIAGONAL_STEPS[1],
        DIAGONAL_STEPS[2],
        DIAGONAL_STEPS[3],
    ];
}

/// Refuses a stone of `color` on the empty point `p` that would make a crosscut or an avoidable
/// weak connection.
///
/// Read as masks of the eight neighbours, with no branch on the board: a crosscut is a diagonal
/// of the mover's colour with both points beside it the opponent's; a weak connection, a
/// diagonal of the mover's colour with neither point beside it the mover's. Only a weak
/// connection (seldom) asks more of the board.
#[inline]
fn check(board: &Board, p: Point, color: Color) -> Result<(), Illegal> {
    let (crosscuts, weak) = diagonals(board, p.index(), stone(color), stone(color.opponent()));
    if crosscuts | weak == 0 {
        return Ok(());
    }
    refuse(board, p, color, crosscuts, weak)
}

/// The diagonals (by the bits of [`Board::neighbour_masks`]) that a stone `mine` on the empty
/// index `i` would make crosscuts and weak connections of, the opponent's stones being
/// `theirs`.
#[inline]
fn diagonals(board: &Board, i: usize, mine: u8, theirs: u8) -> (u32, u32) {
    let (my_orthogonal, my_diagonal) = board.neighbour_masks(i, mine);
    let (their_orthogonal, _) = board.neighbour_masks(i, theirs);
    let crosscuts = my_diagonal & beside_both(their_orthogonal);
    let weak = my_diagonal & !beside_either(my_orthogonal);
    (crosscuts, weak)
}

/// Whether a stone of `color` on the empty point `p` is legal: [`check`] without the reason,
/// for the playouts' placements. No violation is built, and whether a weak connection is
/// avoidable is asked of every partner and every point next to it, with no early exit.
#[inline]
fn is_legal(board: &Board, p: Point, color: Color) -> bool {
    let i = p.index();
    let mine = stone(color);
    let (crosscuts, weak) = diagonals(board, i, mine, stone(color.opponent()));
    if crosscuts | weak == 0 {
        return true;
    }
    crosscuts == 0 && !avoidable(board, i, mine, weak)
}

/// Whether one of the weak connections `weak` (by diagonal) of a stone `mine` on the empty index
/// `i` is avoidable, as [`avoidable_weak_connection`] finds, with no branch on what the points
/// around hold: each point next to a partner is judged, the empty ones kept.
///
/// A point `q` next to the partner `s` (one orthogonal step `o` away) is judged by its two
/// diagonals beyond it, `q + o ± side`: the two on the partner's side share `s` with it, a stone
/// of the colour, so cannot be weak. Five cells read, where [`weak_diagonals`] reads eight.
fn avoidable(board: &Board, i: usize, mine: u8, weak: u32) -> bool {
    let mut instead = false;
    let mut partners = weak;
    while partners != 0 {
        let n = partners.trailing_zeros() as usize;
        partners &= partners - 1;
        let s = i.wrapping_add_signed(DIAGONAL_STEPS[n]);
        for (m, &o) in ORTHOGONAL_STEPS.iter().enumerate() {
            let side = ORTHOGONAL_STEPS[(m + 1) % 4];
            let q = s.wrapping_add_signed(o);
            let empty = board.cell(q) == EMPTY;
            // As in `avoidable_weak_connection`: a point not empty is judged at `s` (an `if`
            // here was compiled to a branch), whose neighbours all lie on the grid.
            let probe = s.wrapping_add_signed(o & -isize::from(empty));
            let holds = |d: isize| board.cell(probe.wrapping_add_signed(d)) == mine;
            let (beyond, left, right) = (holds(o), holds(side), holds(-side));
            let weak_left = holds(o + side) & !beyond & !left;
            let weak_right = holds(o - side) & !beyond & !right;
            instead |= empty & !weak_left & !weak_right;
        }
    }
    instead
}

/// The violation of a stone of `color` on `p` that makes the `crosscuts` or the `weak`
/// connections (by diagonal), if one of them is avoidable; `Ok` when it makes only unavoidable
/// weak connections.
#[cold]
fn refuse(board: &Board, p: Point, color: Color, crosscuts: u32, weak: u32) -> Result<(), Illegal> {
    let violation = if crosscuts != 0 {
        let (dc, dr) = DIAGONAL[crosscuts.trailing_zeros() as usize];
        Some(KonobiViolation::Crosscut {
            point: p,
            square: Point::new(
                p.col().saturating_add_signed(dc.min(0)),
                p.row().saturating_add_signed(dr.min(0)),
            ),
        })
    } else {
        avoidable_weak_connection(board, p, color, weak)
    };
    match violation {
        Some(violation) => Err(Illegal::Konobi(violation)),
        None => Ok(()),
    }
}

/// The two points that `p` and its diagonal neighbour `q` both touch.
fn shared_points(p: Point, q: Point) -> [Point; 2] {
    [Point::new(q.col(), p.row()), Point::new(p.col(), q.row())]
}

/// The `color` stones that a `color` stone on `p` would be weakly connected to: its diagonal
/// neighbours of that colour with neither shared point holding it. What stands on `p` itself is
/// not read, so this also tells what a stone not yet placed would do.
fn weak_partners(board: &Board, p: Point, color: Color) -> impl Iterator<Item = Point> + '_ {
    board.diagonal_neighbours(p).filter(move |&q| {
        board.get(q) == Some(color)
            && shared_points(p, q)
                .into_iter()
                .all(|s| board.get(s) != Some(color))
    })
}

/// Every weak connection on `board`, each pair once (the lower point first), for instance to
/// draw a diagonal mark between the two stones.
#[must_use]
pub fn weak_connections(board: &Board) -> Vec<(Point, Point)> {
    let mut pairs = Vec::new();
    for p in board.points() {
        let Some(color) = board.get(p) else { continue };
        for q in weak_partners(board, p, color) {
            if q.row() > p.row() {
                pairs.push((p, q));
            }
        }
    }
    pairs
}

/// The crosscut a `color` stone on the empty point `p` would complete, if any.
fn crosscut(board: &Board, p: Point, color: Color) -> Option<KonobiViolation> {
    let i = p.index();
    let (mine, theirs) = (stone(color), stone(color.opponent()));
    // Read on the padded grid, where off-board cells hold no stone.
    DIAGONAL.into_iter().find_map(|(dc, dr)| {
        let along = i.wrapping_add_signed(dc);
        let across = i.wrapping_add_signed(dr * STRIDE as isize);
        let completes = board.cell(across.wrapping_add_signed(dc)) == mine
            && board.cell(along) == theirs
            && board.cell(across) == theirs;
        completes.then(|| KonobiViolation::Crosscut {
            point: p,
            square: Point::new(
                p.col().saturating_add_signed(dc.min(0)),
                p.row().saturating_add_signed(dr.min(0)),
            ),
        })
    })
}

/// Whether some 2×2 square of `board` holds a crosscut. For tests of the whole board; the rule
/// itself looks only around the placement.
#[must_use]
pub fn has_crosscut(board: &Board) -> bool {
    board.points().any(|p| {
        board
            .get(p)
            .is_some_and(|color| crosscut(board, p, color).is_some())
    })
}

/// The avoidable weak connection a `color` stone on the empty point `p` would make, if any: a
/// stone `s` it connects to weakly (the diagonals `weak`, bit `n` for the `n`th of
/// [`DIAGONAL_STEPS`]), and an empty point orthogonally next to `s` where a `color` stone,
/// instead of the one on `p`, would be weakly connected to nothing. The first such `s` in the
/// order of [`DIAGONAL`], and its first such point in the order of [`ORTHOGONAL_STEPS`].
///
/// Each point next to `s` is judged by the masks of its neighbours ([`weak_diagonals`]), with
/// no branch on what they hold: a weak connection is asked about on a third of Konobi's
/// placements, and the short-circuit walk it replaced mispredicted three branches a call.
fn avoidable_weak_connection(
    board: &Board,
    p: Point,
    color: Color,
    weak: u32,
) -> Option<KonobiViolation> {
    let (i, mine) = (p.index(), stone(color));
    let mut partners = weak;
    while partners != 0 {
        let n = partners.trailing_zeros() as usize;
        partners &= partners - 1;
        let s = i.wrapping_add_signed(DIAGONAL_STEPS[n]);
        let mut instead = 0;
        for (m, &d) in ORTHOGONAL_STEPS.iter().enumerate() {
            let q = s.wrapping_add_signed(d);
            let empty = board.cell(q) == EMPTY;
            // The neighbours of a point off the board may lie off the grid: a point not empty
            // is judged at `s` (on the board) instead, and the answer dropped. A mask, not a
            // branch on the board, whose outcome is random.
            let probe = s.wrapping_add_signed(d & -isize::from(empty));
            instead |= u32::from(empty & (weak_diagonals(board, probe, mine) == 0)) << m;
        }
        if instead != 0 {
            let q = s.wrapping_add_signed(ORTHOGONAL_STEPS[instead.trailing_zeros() as usize]);
            return Some(KonobiViolation::AvoidableWeakConnection {
                point: p,
                weak_to: Point::from_index(s),
                instead: Point::from_index(q),
            });
        }
    }
    None
}

/// The diagonals of index `i` (bit `n` for the `n`th of [`DIAGONAL_STEPS`]) that a stone of cell
/// value `mine` on `i` would be weakly connected to: holding `mine`, with neither shared point
/// holding it. What stands on `i` itself is not read; eight loads, no branch.
#[inline]
fn weak_diagonals(board: &Board, i: usize, mine: u8) -> u32 {
    let (orthogonal, diagonal) = board.neighbour_masks(i, mine);
    diagonal & !beside_either(orthogonal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(name: &str) -> Point {
        Point::parse(name).unwrap()
    }

    #[test]
    fn crosscut_names_its_square() {
        let board = Board::from_rows("....|.BW.|.W..|....").unwrap();
        let v = crosscut(&board, pt("c2"), Color::Black).unwrap();
        assert_eq!(
            v.to_string(),
            "c2 would make a crosscut: c2 and b3 corner to corner across b2 and c3"
        );
    }

    #[test]
    fn weak_connections_are_listed_once() {
        let board = Board::from_rows("...|.B.|B.B").unwrap();
        assert_eq!(
            weak_connections(&board),
            vec![(pt("a1"), pt("b2")), (pt("c1"), pt("b2"))]
        );
        let board = Board::from_rows("...|BB.|B.B").unwrap();
        assert_eq!(weak_connections(&board), vec![(pt("c1"), pt("b2"))]);
    }
}
