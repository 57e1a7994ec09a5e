//! Quentin: placements fill the territories they close, and like-coloured diagonal stones must
//! share a like-coloured neighbour.

use std::fmt;

use super::board::{Board, PointSet};
use super::color::Color;
use super::connection::{PlacementRules, orthogonal_links, put};
use super::point::Point;
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

    fn linked(board: &Board, p: Point) -> impl Iterator<Item = Point> {
        orthogonal_links(board, p)
    }
}

/// Fills every territory next to the stone just placed on `p`. Before the placement there was no
/// territory, so only the regions that `p` touches can be one. Distinct regions never touch, so
/// filling one changes nothing about another.
fn fill_territories(board: &mut Board, p: Point, tie_color: Color, changes: &mut Vec<Change>) {
    let mut spoiled = PointSet::new();
    let mut starts = [None; 4];
    for (slot, q) in starts.iter_mut().zip(board.neighbours(p)) {
        *slot = Some(q);
    }
    for start in starts.into_iter().flatten() {
        // A start filled a moment ago, or known to lie in a region that is no territory.
        if !board.is_empty_at(start) || spoiled.contains(start) {
            continue;
        }
        let Some(territory) = territory_from(board, start, &mut spoiled) else {
            continue;
        };
        let color = fill_color(board, &territory, tie_color);
        for q in territory {
            put(board, q, color, changes);
        }
    }
}

/// The region of the empty point `start` if it is a territory: every point touches at least two
/// stones. Gives up at the first point that does not, or that reaches a point of `spoiled` (a
/// region already known to be no territory), since one such point spoils the whole region; the
/// points it visited before giving up are then added to `spoiled`.
fn territory_from(board: &Board, start: Point, spoiled: &mut PointSet) -> Option<Vec<Point>> {
    // Most regions fail at their first point: settle those before any allocation.
    if board
        .neighbours(start)
        .filter(|&q| board.get(q).is_some())
        .count()
        < 2
    {
        spoiled.insert(start);
        return None;
    }
    let mut visited = PointSet::new();
    visited.insert(start);
    let mut stack = vec![start];
    let mut region = Vec::new();
    while let Some(q) = stack.pop() {
        let mut stones = 0;
        let mut spoilt = false;
        for r in board.neighbours(q) {
            if board.get(r).is_some() {
                stones += 1;
            } else if spoiled.contains(r) {
                spoilt = true;
            } else if visited.insert(r) {
                stack.push(r);
            }
        }
        if stones < 2 || spoilt {
            for v in visited.iter() {
                spoiled.insert(v);
            }
            return None;
        }
        region.push(q);
    }
    Some(region)
}

/// The colour with more distinct stones touching `territory`; `tie_color` on a tie.
fn fill_color(board: &Board, territory: &[Point], tie_color: Color) -> Color {
    let mut touching = PointSet::new();
    let mut counts = [0usize; 2];
    for &q in territory {
        for r in board.neighbours(q) {
            if let Some(c) = board.get(r)
                && touching.insert(r)
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
    let color = board.get(p)?;
    for d in super::board::DIAGONAL {
        let Some(q) = board.step(p, d) else { continue };
        if board.get(q) != Some(color) {
            continue;
        }
        // The two points both touch: p moved along one axis of the diagonal step each.
        let a = board.step(p, (d.0, 0));
        let b = board.step(p, (0, d.1));
        let shared = [a, b]
            .into_iter()
            .flatten()
            .any(|s| board.get(s) == Some(color));
        if !shared {
            return Some(QuentinViolation::DiagonalWithoutSharedNeighbour {
                first: p,
                second: q,
                color,
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
        .any(|p| !spoiled.contains(p) && territory_from(board, p, &mut spoiled).is_some())
}
