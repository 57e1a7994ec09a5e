//! Quentin: placements fill the territories they close, and like-coloured diagonal stones must
//! share a like-coloured neighbour.

use std::fmt;

use super::board::{Board, DIAGONAL, EMPTY, IndexStack, OFF, ORTHOGONAL_STEPS, PointSet, is_stone};
use super::color::Color;
use super::connection::{PlacementRules, orthogonal_links, put};
use super::point::Point;
use super::point::STRIDE;
use super::{Change, Illegal};

/// The rule marker of Quentin for [`super::connection::Connection`].
pub(crate) struct Quentin;

/// Why a Quentin placement is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuentinViolation {
    /// At the end of the turn, two `color` stones are diagonal neighbours and neither of the two
    /// points they both touch holds a `color` stone. `first` is a point the turn changed.
    DiagonalWithoutSharedNeighbour {
        /// The stone the turn placed or filled.
        first: Point,
        /// Its diagonal neighbour.
        second: Point,
        /// Their colour.
        color: Color,
    },
}

impl fmt::Display for QuentinViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuentinViolation::DiagonalWithoutSharedNeighbour {
                first,
                second,
                color,
            } => write!(
                f,
                "{first} and {second} are diagonal with no shared {color} neighbour"
            ),
        }
    }
}

impl PlacementRules for Quentin {
    fn place(
        board: &mut Board,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> Result<(), Illegal> {
        put(board, p, color, changes);
        fill_territories(board, p, color.opponent(), changes);
        for change in changes.iter() {
            if let Some(violation) = diagonal_violation(board, change.point) {
                return Err(Illegal::Quentin(violation));
            }
        }
        Ok(())
    }

    fn linked(board: &Board, i: usize) -> impl Iterator<Item = usize> {
        orthogonal_links(board, i)
    }
}

/// How many of the orthogonal neighbours of index `i` hold a stone.
#[inline]
fn stones_around(board: &Board, i: usize) -> usize {
    ORTHOGONAL_STEPS
        .iter()
        .filter(|&&d| is_stone(board.cell(i.wrapping_add_signed(d))))
        .count()
}

/// Fills every territory next to the stone just placed on `p`. Before the placement there was no
/// territory, so only the regions that `p` touches can be one. Distinct regions never touch, so
/// filling one changes nothing about another.
fn fill_territories(board: &mut Board, p: Point, tie_color: Color, changes: &mut Vec<Change>) {
    let mut spoiled = PointSet::new();
    let i = p.index();
    for d in ORTHOGONAL_STEPS {
        let start = i.wrapping_add_signed(d);
        // Off the board, filled a moment ago, or known to lie in a region that is no territory.
        if board.cell(start) != EMPTY || spoiled.contains_index(start) {
            continue;
        }
        let Some(territory) = territory_from(board, start, &mut spoiled) else {
            continue;
        };
        let color = fill_color(board, &territory, tie_color);
        for point in territory.iter() {
            board.set(point, Some(color));
            changes.push(Change {
                point,
                before: None,
                after: Some(color),
            });
        }
    }
}

/// The region of the empty point of index `start` if it is a territory: every point touches at
/// least two stones. Gives up at the first point that does not, or that reaches a point of
/// `spoiled` (a region already known to be no territory), since one such point spoils the whole
/// region; the points it visited before giving up are then added to `spoiled`.
fn territory_from(board: &Board, start: usize, spoiled: &mut PointSet) -> Option<PointSet> {
    // Most regions fail at their first point: settle those before anything else.
    if stones_around(board, start) < 2 {
        spoiled.insert_index(start);
        return None;
    }
    let mut region = PointSet::new();
    region.insert_index(start);
    let mut stack = IndexStack::new();
    stack.push(start);
    while let Some(q) = stack.pop() {
        let mut stones = 0;
        for d in ORTHOGONAL_STEPS {
            let r = q.wrapping_add_signed(d);
            match board.cell(r) {
                EMPTY => {
                    if spoiled.contains_index(r) {
                        stones = 0;
                        break;
                    }
                    if region.insert_index(r) {
                        stack.push(r);
                    }
                }
                OFF => {}
                _ => stones += 1,
            }
        }
        if stones < 2 {
            spoiled.union_with(&region);
            return None;
        }
    }
    Some(region)
}

/// The colour with more distinct stones touching `territory`; `tie_color` on a tie.
fn fill_color(board: &Board, territory: &PointSet, tie_color: Color) -> Color {
    let mut touching = PointSet::new();
    let mut counts = [0usize; 2];
    for q in territory.indices() {
        for d in ORTHOGONAL_STEPS {
            let r = q.wrapping_add_signed(d);
            if let Some(c) = board.color_at(r)
                && touching.insert_index(r)
            {
                counts[c.index()] += 1;
            }
        }
    }
    match counts[0].cmp(&counts[1]) {
        std::cmp::Ordering::Greater => Color::Black,
        std::cmp::Ordering::Less => Color::White,
        std::cmp::Ordering::Equal => tie_color,
    }
}

/// A like-coloured diagonal pair with no like-coloured shared neighbour that includes the stone
/// on `p`, if any.
fn diagonal_violation(board: &Board, p: Point) -> Option<QuentinViolation> {
    let i = p.index();
    let cell = board.cell(i);
    if !is_stone(cell) {
        return None;
    }
    for (dc, dr) in DIAGONAL {
        let across = i.wrapping_add_signed(dr * STRIDE as isize);
        let along = i.wrapping_add_signed(dc);
        let q = across.wrapping_add_signed(dc);
        // The two points both touch are one step along each axis of the diagonal step.
        if board.cell(q) == cell && board.cell(across) != cell && board.cell(along) != cell {
            return Some(QuentinViolation::DiagonalWithoutSharedNeighbour {
                first: p,
                second: Point::from_index(q),
                color: board.get(p)?,
            });
        }
    }
    None
}

/// Whether some like-coloured diagonal pair anywhere on `board` lacks a shared like-coloured
/// neighbour. For tests of the whole board; the rule itself looks only where a turn changed.
#[must_use]
pub fn has_diagonal_violation(board: &Board) -> bool {
    board
        .points()
        .any(|p| diagonal_violation(board, p).is_some())
}

/// Whether some empty region of `board` is a territory (every point touching two stones).
#[must_use]
pub fn has_territory(board: &Board) -> bool {
    let mut spoiled = PointSet::new();
    board
        .points()
        .filter(|&p| board.is_empty_at(p))
        .any(|p| !spoiled.contains(p) && territory_from(board, p.index(), &mut spoiled).is_some())
}
