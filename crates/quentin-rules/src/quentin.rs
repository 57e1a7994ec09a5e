//! Quentin: placements fill the territories they close, and like-coloured diagonal stones must
//! share a like-coloured neighbour.

use std::fmt;

mod real_width;

pub use real_width::{QuentinBoard, QuentinBoards, QuentinStones, swap_ahead};

use super::bits::{BIT_WORDS, Bits, Layout};
use super::board::{
    Board, DIAGONAL, DIAGONAL_STEPS, EMPTY, ORTHOGONAL_STEPS, beside_either, is_stone, stone,
};
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

    fn place(board: &mut Board, p: Point, color: Color, changes: &mut Vec<Change>) -> bool {
        if !placement_changes(board, p, color, changes) {
            if lonely_diagonals(board, p.index(), stone(color)) != 0 {
                // Nothing was made on the board: nothing for the caller to undo.
                changes.clear();
                return false;
            }
            board.set(p, Some(color));
            return true;
        }
        apply(board, changes);
        check_changes(board, changes).is_ok()
    }

    const BITBOARDS: bool = true;

    const LINKS: &'static [isize] = &ORTHOGONAL_STEPS;
}

/// Pushes onto `changes` the placement of `color` on the empty point `p` and the fills of the
/// territories it closes, without changing the board; returns whether it fills any.
#[inline]
fn placement_changes(board: &Board, p: Point, color: Color, changes: &mut Vec<Change>) -> bool {
    changes.push(Change::placement(p, color));
    let starts = territory_starts(board, p);
    if starts == 0 {
        return false;
    }
    fill_territories(board, p, color, starts, changes);
    changes.len() > 1
}

/// The orthogonal neighbours of the empty point `p` (bit `n` for the `n`th of
/// [`ORTHOGONAL_STEPS`]) whose regions could be territories once a stone stands on `p`, as far
/// as the points around them tell: each is empty, has a stone around already (the one on `p`
/// makes two), and none of its other neighbours is an empty point with fewer than two stones
/// around (those are not next to `p`, so the stone there changes nothing for them). Read from
/// the counts the board keeps, with no branch: most placements close nothing, and are settled
/// here, before any bitboard is read.
#[inline]
fn territory_starts(board: &Board, p: Point) -> u32 {
    let i = p.index();
    // An empty point with fewer than two stones around: its region is no territory.
    let spoils = |j: usize| {
        let (cell, around) = board.cell_and_around_clamped(j);
        (cell == EMPTY) & (around < 2)
    };
    let (mut starts, mut diagonal, mut far) = (0, 0, 0);
    for n in 0..4 {
        let d = ORTHOGONAL_STEPS[n];
        let j = i.wrapping_add_signed(d);
        let start = (board.cell(j) == EMPTY) & (board.stones_around(j) >= 1);
        starts |= u32::from(start) << n;
        diagonal |= u32::from(spoils(i.wrapping_add_signed(DIAGONAL_STEPS[n]))) << n;
        far |= u32::from(spoils(i.wrapping_add_signed(2 * d))) << n;
    }
    // The other neighbours of the `n`th start: the point beyond it, and the diagonals `n`
    // (between it and the next start) and `n - 1` (between the one before and it).
    let spoiled = far | diagonal | (diagonal << 1 | diagonal >> 3) & 0b1111;
    starts & !spoiled
}

/// Refuses a lone placement of `color` on the empty point `p` that would stand diagonal to a
/// like-coloured stone with no like-coloured neighbour shared.
#[inline]
fn check_placement(board: &Board, p: Point, color: Color) -> Result<(), Illegal> {
    let lonely = lonely_diagonals(board, p.index(), stone(color));
    if lonely == 0 {
        return Ok(());
    }
    Err(Illegal::Quentin(violation(p, lonely, color)))
}

/// The violation of a stone of `color` on `p` whose lonely diagonals ([`lonely_diagonals`])
/// are `lonely`, not empty: the first of them in the order of [`DIAGONAL`].
#[cold]
fn violation(p: Point, lonely: u32, color: Color) -> QuentinViolation {
    let (dc, dr) = DIAGONAL[lonely.trailing_zeros() as usize];
    QuentinViolation::DiagonalWithoutSharedNeighbour {
        first: p,
        second: Point::new(
            p.col().wrapping_add_signed(dc),
            p.row().wrapping_add_signed(dr),
        ),
        color,
    }
}

/// The diagonal neighbours of index `i` (bit `n` for the `n`th of [`DIAGONAL`]) holding `cell`
/// with neither of the two points they share with `i` holding it: what a stone `cell` on `i`
/// would stand diagonal to, alone. What stands on `i` is not read.
///
/// The eight neighbours are read as two masks of four, with no branch: the diagonal `(dc, dr)`
/// shares with `i` the orthogonal neighbours `(0, dr)` and `(dc, 0)`, the `n`th and the next of
/// [`ORTHOGONAL`](super::board::ORTHOGONAL) in turn, so the shared pairs are a rotation of the
/// orthogonal mask.
#[inline]
fn lonely_diagonals(board: &Board, i: usize, cell: u8) -> u32 {
    let (orthogonal, diagonal) = board.neighbour_masks(i, cell);
    diagonal & !beside_either(orthogonal)
}

/// Refuses the turn whose `changes` are made on `board` when one of its stones stands diagonal
/// to a like-coloured stone with no like-coloured neighbour shared.
fn check_changes(board: &Board, changes: &[Change]) -> Result<(), Illegal> {
    for change in changes {
        let Some(color) = change.after else { continue };
        let lonely = lonely_diagonals(board, change.point.index(), stone(color));
        if lonely != 0 {
            return Err(Illegal::Quentin(violation(change.point, lonely, color)));
        }
    }
    Ok(())
}

/// Pushes onto `changes` the fills of every territory that a stone of `color` on the empty
/// point `p` would close, without changing the board, for the neighbours `starts` of
/// [`territory_starts`]. Before the placement there was no territory, so only the regions that
/// `p` touches can be one. Distinct regions never touch, so filling one changes nothing about
/// another.
fn fill_territories(board: &Board, p: Point, color: Color, starts: u32, changes: &mut Vec<Change>) {
    // A start whose other neighbours are all stones (or off the board) is a territory of one
    // point, the commonest: settled on the grid.
    let i = p.index();
    let empty = |j: usize| board.cell_and_around_clamped(j).0 == EMPTY;
    let (mut diagonal, mut far) = (0, 0);
    for n in 0..4 {
        diagonal |= u32::from(empty(i.wrapping_add_signed(DIAGONAL_STEPS[n]))) << n;
        far |= u32::from(empty(i.wrapping_add_signed(2 * ORTHOGONAL_STEPS[n]))) << n;
    }
    let open = far | diagonal | (diagonal << 1 | diagonal >> 3) & 0b1111;
    let singles = starts & !open;
    if starts == singles {
        let mut starts = starts;
        while starts != 0 {
            let n = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            fill_single(board, p, n, color, changes);
        }
        return;
    }
    // Bitboards of as few words as the board needs: 13×13 fits in three, 19×19 in six.
    match board.layout().words() {
        0..=2 => fill_territories_in::<2>(board, p, color, starts, singles, changes),
        3 => fill_territories_in::<3>(board, p, color, starts, singles, changes),
        4..=6 => fill_territories_in::<6>(board, p, color, starts, singles, changes),
        _ => fill_territories_in::<BIT_WORDS>(board, p, color, starts, singles, changes),
    }
}

/// Pushes onto `changes` the fill of the `n`th orthogonal neighbour of `p`, a territory of one
/// point once a stone of `color` stands on `p`.
fn fill_single(board: &Board, p: Point, n: usize, color: Color, changes: &mut Vec<Change>) {
    let j = p.index().wrapping_add_signed(ORTHOGONAL_STEPS[n]);
    // The stones around it, the one on `p` (empty on the board) counted by hand.
    let mut count = [0u32; 2];
    for d in ORTHOGONAL_STEPS {
        let cell = board.cell(j.wrapping_add_signed(d));
        for c in Color::ALL {
            count[c.index()] += u32::from(cell == stone(c));
        }
    }
    count[color.index()] += 1;
    let [black, white] = count;
    let fill = majority(black, white, color.opponent());
    changes.push(Change::placement(Point::from_index(j), fill));
}

/// [`fill_territories`] with bitboards of `W` words.
fn fill_territories_in<const W: usize>(
    board: &Board,
    p: Point,
    color: Color,
    starts: u32,
    singles: u32,
    changes: &mut Vec<Change>,
) {
    let layout = board.layout();
    let k = layout.bit(p);
    let steps = layout.orthogonal_bit_steps();
    // The board after the placement: the empty points, and those that spoil their region
    // (fewer than two stones around).
    let mut occupied: Bits<W> = board
        .stones(Color::Black)
        .resize::<W>()
        .or(&board.stones(Color::White).resize());
    occupied.insert(k);
    let empty = board.on_board().resize::<W>().and_not(&occupied);
    let mut spoils = empty.and_not(&layout.two_neighbours(&occupied));
    let mut starts = starts;
    while starts != 0 {
        let n = starts.trailing_zeros() as usize;
        starts &= starts - 1;
        let start = k.wrapping_add_signed(steps[n]);
        if singles & 1 << n != 0 {
            fill_single(board, p, n, color, changes);
        } else if !spoils.contains(start) {
            match region_if_territory(layout, start, &empty, &spoils) {
                Ok(territory) => {
                    // Its stones as they stand after the placement.
                    let stones = Color::ALL.map(|c| {
                        let mut stones: Bits<W> = board.stones(c).resize();
                        stones.assign(k, c == color);
                        stones
                    });
                    let fill = fill_color(layout, &territory, &stones, color.opponent());
                    changes.extend(
                        territory
                            .iter()
                            .map(|k| Change::placement(layout.point(k), fill)),
                    );
                    // Filled: no other start lies in it.
                    spoils = spoils.or(&territory);
                }
                Err(region) => spoils = spoils.or(&region),
            }
        }
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
#[inline]
pub(super) fn region_if_territory<const W: usize>(
    layout: Layout,
    start: usize,
    empty: &Bits<W>,
    spoils: &Bits<W>,
) -> Result<Bits<W>, Bits<W>> {
    region_around(layout, Bits::single(start), empty, spoils)
}

/// [`region_if_territory`] grown from `seed`, a connected part of `empty`: the same territory
/// as from any one of its points, a step or more sooner; when there is none, a part of the
/// same region. The seed is tested against `spoils` with the first step, so it may hold such a
/// point (the answer is then no territory, as from any point of its region).
#[inline]
pub(super) fn region_around<const W: usize>(
    layout: Layout,
    seed: Bits<W>,
    empty: &Bits<W>,
    spoils: &Bits<W>,
) -> Result<Bits<W>, Bits<W>> {
    let mut region = seed;
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
pub(super) fn fill_color<const W: usize>(
    layout: Layout,
    territory: &Bits<W>,
    stones: &[Bits<W>; 2],
    tie_color: Color,
) -> Color {
    let around = layout.grow(territory);
    let black = around.and(&stones[Color::Black.index()]).len();
    let white = around.and(&stones[Color::White.index()]).len();
    majority(black, white, tie_color)
}

/// The colour of the more stones, `black` against `white`; `tie_color` on a tie: the colour a
/// territory is filled with.
pub(super) fn majority<N: Ord>(black: N, white: N, tie_color: Color) -> Color {
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
    let empty: Bits = board.empty();
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
