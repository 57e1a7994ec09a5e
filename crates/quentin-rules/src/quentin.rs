//! Quentin: placements fill the territories they close, and like-coloured diagonal stones must
//! share a like-coloured neighbour.

use std::fmt;

use super::bits::{BIT_WORDS, Bits, Layout};
use super::board::{Board, DIAGONAL, EMPTY, ORTHOGONAL_STEPS, is_stone, stone};
use super::color::Color;
use super::connection::{PlacementRules, apply};
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
    /// The stone, then the territories it closes, filled; refused when a stone of the turn then
    /// stands diagonal to a like-coloured stone with no like-coloured neighbour shared.
    fn preview(
        board: &Board,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> Result<(), Illegal> {
        if !placement_changes(board, p, color, changes) {
            return check_placement(board, p, color);
        }
        // A territory filled (seldom): the stones of the turn are judged on the board after it.
        let mut after = board.clone();
        apply(&mut after, changes);
        check_changes(&after, changes)
    }

    fn place(
        board: &mut Board,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> Result<(), Illegal> {
        if !placement_changes(board, p, color, changes) {
            check_placement(board, p, color)?;
            board.set(p, Some(color));
            return Ok(());
        }
        apply(board, changes);
        check_changes(board, changes)
    }

    const BITBOARDS: bool = true;

    const LINKS: &'static [isize] = &ORTHOGONAL_STEPS;
}

/// Pushes onto `changes` the placement of `color` on the empty point `p` and the fills of the
/// territories it closes, without changing the board; returns whether it fills any.
fn placement_changes(board: &Board, p: Point, color: Color, changes: &mut Vec<Change>) -> bool {
    changes.push(Change::placement(p, color));
    fill_territories(board, p, color, changes);
    changes.len() > 1
}

/// Refuses a lone placement of `color` on the empty point `p` that would stand diagonal to a
/// like-coloured stone with no like-coloured neighbour shared.
fn check_placement(board: &Board, p: Point, color: Color) -> Result<(), Illegal> {
    match diagonal_violation_of(board, p, stone(color)) {
        Some(violation) => Err(Illegal::Quentin(violation)),
        None => Ok(()),
    }
}

/// Refuses the turn whose `changes` are made on `board` when one of its stones stands diagonal
/// to a like-coloured stone with no like-coloured neighbour shared.
fn check_changes(board: &Board, changes: &[Change]) -> Result<(), Illegal> {
    for change in changes {
        if let Some(violation) = diagonal_violation(board, change.point) {
            return Err(Illegal::Quentin(violation));
        }
    }
    Ok(())
}

/// How many of the orthogonal neighbours of index `i` hold a stone.
#[inline]
fn stones_around(board: &Board, i: usize) -> usize {
    ORTHOGONAL_STEPS
        .iter()
        .filter(|&&d| is_stone(board.cell(i.wrapping_add_signed(d))))
        .count()
}

/// Pushes onto `changes` the fills of every territory that a stone of `color` on the empty
/// point `p` would close, without changing the board. Before the placement there was no
/// territory, so only the regions that `p` touches can be one. Distinct regions never touch,
/// so filling one changes nothing about another.
fn fill_territories(board: &Board, p: Point, color: Color, changes: &mut Vec<Change>) {
    // Bitboards of as few words as the board needs: 13×13 fits in three, 19×19 in six.
    match board.layout().words() {
        0..=3 => fill_territories_in::<3>(board, p, color, changes),
        4..=6 => fill_territories_in::<6>(board, p, color, changes),
        _ => fill_territories_in::<BIT_WORDS>(board, p, color, changes),
    }
}

/// [`fill_territories`] with bitboards of `W` words.
fn fill_territories_in<const W: usize>(
    board: &Board,
    p: Point,
    color: Color,
    changes: &mut Vec<Change>,
) {
    let layout = board.layout();
    let i = p.index();
    // Empty points known to lie in a region that is no territory, or in one already filled.
    let mut done = Bits::<W>::new();
    // The board after the placement, once needed: the empty points, the stones by colour and
    // the empty points that spoil their region (fewer than two stones around).
    let mut sets: Option<(Bits<W>, [Bits<W>; 2], Bits<W>)> = None;
    for d in ORTHOGONAL_STEPS {
        let start = i.wrapping_add_signed(d);
        // Off the board, or a stone.
        if board.cell(start) != EMPTY {
            continue;
        }
        let k = layout.bit(Point::from_index(start));
        if done.contains(k) {
            continue;
        }
        // Most regions fail at their first point: settle those on the grid, without bitboards
        // (the stone on `p`, one of its neighbours, counts too).
        if stones_around(board, start) + 1 < 2 {
            done.insert(k);
            continue;
        }
        let (empty, stones, lacking) = sets.get_or_insert_with(|| {
            let k = layout.bit(p);
            let mut empty: Bits<W> = board.empty().resize();
            empty.assign(k, false);
            // Without a branch on the colour, which alternates.
            let stones = Color::ALL.map(|c| {
                let mut stones: Bits<W> = board.stones(c).resize();
                stones.assign(k, c == color);
                stones
            });
            let lacking = empty.and_not(&layout.two_neighbours(&stones[0].or(&stones[1])));
            (empty, stones, lacking)
        });
        let territory = match region_if_territory(layout, k, empty, &lacking.or(&done)) {
            Ok(territory) => territory,
            Err(region) => {
                done = done.or(&region);
                continue;
            }
        };
        done = done.or(&territory);
        let fill = fill_color(layout, &territory, stones, color.opponent());
        changes.extend(
            territory
                .iter()
                .map(|k| Change::placement(layout.point(k), fill)),
        );
    }
}

/// The points of `empty` with fewer than two stones of `board` among their orthogonal
/// neighbours: a region holding one is no territory.
fn lacking_points<const W: usize>(board: &Board, empty: &Bits<W>) -> Bits<W> {
    let stones = board.stones(Color::Black).or(board.stones(Color::White));
    empty.and_not(&board.layout().two_neighbours(&stones.resize()))
}

/// The region of `empty` around the bit `start`, grown a step at a time in every direction at
/// once, if it is a territory; as soon as it reaches a point of `spoils`, the part grown so far
/// (which is no territory, nor the rest of its region).
fn region_if_territory<const W: usize>(
    layout: Layout,
    start: usize,
    empty: &Bits<W>,
    spoils: &Bits<W>,
) -> Result<Bits<W>, Bits<W>> {
    let mut region = Bits::single(start);
    loop {
        let grown = layout.grow(&region).and(empty);
        if grown.meets(spoils) {
            return Err(grown);
        }
        if grown == region {
            return Ok(region);
        }
        region = grown;
    }
}

/// The colour with more distinct stones (of `stones`, by colour) touching `territory`;
/// `tie_color` on a tie.
fn fill_color<const W: usize>(
    layout: Layout,
    territory: &Bits<W>,
    stones: &[Bits<W>; 2],
    tie_color: Color,
) -> Color {
    let around = layout.grow(territory);
    let black = around.and(&stones[Color::Black.index()]).len();
    let white = around.and(&stones[Color::White.index()]).len();
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => Color::Black,
        std::cmp::Ordering::Less => Color::White,
        std::cmp::Ordering::Equal => tie_color,
    }
}

/// A like-coloured diagonal pair with no like-coloured shared neighbour that includes the stone
/// on `p`, if any.
fn diagonal_violation(board: &Board, p: Point) -> Option<QuentinViolation> {
    diagonal_violation_of(board, p, board.cell(p.index()))
}

/// [`diagonal_violation`] as if `p` held `cell`, whatever stands there.
fn diagonal_violation_of(board: &Board, p: Point, cell: u8) -> Option<QuentinViolation> {
    let i = p.index();
    if !is_stone(cell) {
        return None;
    }
    for (dc, dr) in DIAGONAL {
        let across = i.wrapping_add_signed(dr * STRIDE as isize);
        let along = i.wrapping_add_signed(dc);
        let q = across.wrapping_add_signed(dc);
        // The two points both touch are one step along each axis of the diagonal step.
        // `&`, not `&&`: one branch for three cheap tests of random outcome.
        if (board.cell(q) == cell) & (board.cell(across) != cell) & (board.cell(along) != cell) {
            return Some(QuentinViolation::DiagonalWithoutSharedNeighbour {
                first: p,
                second: Point::from_index(q),
                color: board.color_at(q)?,
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
    let layout = board.layout();
    let empty: Bits = *board.empty();
    let mut spoiled = lacking_points(board, &empty);
    for k in empty.iter() {
        if spoiled.contains(k) {
            continue;
        }
        match region_if_territory(layout, k, &empty, &spoiled) {
            Ok(_) => return true,
            Err(region) => spoiled = spoiled.or(&region),
        }
    }
    false
}
