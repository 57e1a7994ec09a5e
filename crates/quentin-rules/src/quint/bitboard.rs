//! Quint's 8×8 board as bitboards: one `u64` a colour, bit `row * 8 + col` for the cell at
//! (`col`, `row`), so that `a1` is bit 0, `h1` bit 7 and `h8` bit 63, and counting, finding the
//! steps and the lines of five are a few word operations.

use super::SIZE;
use crate::point::Point;

/// Every cell of the board.
#[cfg(test)]
pub(super) const ALL: u64 = u64::MAX;
/// The cells of column `a`.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The cells of column `h`.
const FILE_H: u64 = FILE_A << 7;
/// The cells of row 1.
const RANK_1: u64 = 0xff;
/// The cells of row 8.
const RANK_8: u64 = RANK_1 << 56;

/// The cells from which a step in each direction of [`ORTHOGONAL`](super::ORTHOGONAL) (up,
/// right, down, left) stays on the board.
const STAYS: [u64; 4] = [!RANK_8, !FILE_H, !RANK_1, !FILE_A];

/// The bit of `p`, a cell of the 8×8 board.
#[inline]
pub(super) const fn bit(p: Point) -> u64 {
    1 << (p.row() * SIZE + p.col())
}

/// The cell of bit number `i` (below 64).
#[inline]
pub(super) const fn cell(i: u32) -> Point {
    Point::new(i as usize % SIZE, i as usize / SIZE)
}

/// The cells of `bits`, from `a1` row by row (the order of `Board::points`).
pub(super) fn cells(mut bits: u64) -> impl Iterator<Item = Point> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            cell(i)
        })
    })
}

/// Every cell of `bits` moved one step in direction `d` (an index of
/// [`ORTHOGONAL`](super::ORTHOGONAL): 0 up, 1 right, 2 down, 3 left); the cells that would
/// leave the board are dropped.
#[inline]
pub(super) const fn shift(bits: u64, d: usize) -> u64 {
    let bits = bits & STAYS[d & 3];
    match d & 3 {
        0 => bits << SIZE,
        1 => bits << 1,
        2 => bits >> SIZE,
        _ => bits >> 1,
    }
}

/// The direction opposite `d`.
#[inline]
pub(super) const fn back(d: usize) -> usize {
    (d + 2) & 3
}

/// The cells of `bits` that have a neighbour in `to`, any direction.
#[inline]
pub(super) const fn next_to(to: u64) -> u64 {
    shift(to, 0) | shift(to, 1) | shift(to, 2) | shift(to, 3)
}

/// The first cells of the runs of exactly five of `bits` along direction `d` (1: a row, read
/// left to right; 0: a column, read bottom to top).
#[inline]
const fn exact_five_starts(bits: u64, d: usize) -> u64 {
    // After k rounds a cell stays when it and the k beyond it in direction `d` are set.
    let mut run = bits;
    let mut beyond = shift(bits, back(d));
    let mut k = 0;
    while k < 4 {
        run &= shift(run, back(d));
        beyond = shift(beyond, back(d));
        k += 1;
    }
    // `beyond` marks the cells whose fifth cell on is set; `shift(bits, d)` those whose cell
    // before is set: neither may be, for exactly five.
    run & !beyond & !shift(bits, d)
}

/// The first cells of the lines of exactly five of `bits`: `[along rows, along columns]`.
#[inline]
pub(super) const fn five_starts(bits: u64) -> [u64; 2] {
    [exact_five_starts(bits, 1), exact_five_starts(bits, 0)]
}

/// Whether `bits` hold a line of exactly five along a row or a column.
#[cfg(test)]
#[inline]
pub(super) const fn has_five(bits: u64) -> bool {
    let [rows, columns] = five_starts(bits);
    rows | columns != 0
}

/// Every cell of the lines of exactly five of `bits`.
pub(super) const fn five_cells(bits: u64) -> u64 {
    let [rows, columns] = five_starts(bits);
    let mut cells = 0;
    let (mut r, mut c) = (rows, columns);
    let mut i = 0;
    while i < 5 {
        cells |= r | c;
        r = shift(r, 1);
        c = shift(c, 0);
        i += 1;
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(names: &str) -> u64 {
        names
            .split_whitespace()
            .map(|n| bit(Point::parse(n).unwrap()))
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn bits_name_the_cells_row_by_row_from_a1() {
        assert_eq!(bit(Point::parse("a1").unwrap()), 1);
        assert_eq!(bit(Point::parse("h1").unwrap()), 1 << 7);
        assert_eq!(bit(Point::parse("a2").unwrap()), 1 << 8);
        assert_eq!(bit(Point::parse("h8").unwrap()), 1 << 63);
        let all: Vec<Point> = cells(ALL).collect();
        assert_eq!(all.len(), 64);
        assert_eq!(all[9], Point::parse("b2").unwrap());
    }

    #[test]
    fn shifts_drop_what_leaves_the_board() {
        let edge = named("a1 h1 a8 h8 d4");
        assert_eq!(shift(edge, 0), named("a2 h2 d5"));
        assert_eq!(shift(edge, 1), named("b1 b8 e4"));
        assert_eq!(shift(edge, 2), named("a7 h7 d3"));
        assert_eq!(shift(edge, 3), named("g1 g8 c4"));
        assert_eq!(next_to(named("a1")), named("a2 b1"));
    }

    #[test]
    fn exactly_five_in_a_row_or_column() {
        assert!(has_five(named("a1 b1 c1 d1 e1")));
        assert!(has_five(named("d1 e1 f1 g1 h1")));
        assert!(!has_five(named("a1 b1 c1 d1 e1 f1")));
        assert!(!has_five(named("a1 b1 c1 d1 f1")));
        // Five over the end of a row is no line.
        assert!(!has_five(named("f1 g1 h1 a2 b2")));
        assert!(has_five(named("c4 c5 c6 c7 c8")));
        assert!(!has_five(named("c3 c4 c5 c6 c7 c8")));
        assert!(has_five(named("h1 h2 h3 h4 h5 h7 h8")));
        assert_eq!(
            five_cells(named("a1 b1 c1 d1 e1 g1 a2 a3 a4 a5 b8")),
            named("a1 b1 c1 d1 e1 a2 a3 a4 a5")
        );
        // Every row and column of eight cells, every subset: as a plain scan says.
        for line in 0u32..256 {
            let plain = (0..=3).any(|s| {
                let five = 0b1_1111 << s;
                line & five == five
                    && (s == 0 || line & (1 << (s - 1)) == 0)
                    && line & (1 << (s + 5)) == 0
            });
            let row = u64::from(line) << 24;
            let column = (0..8)
                .filter(|i| line & (1 << i) != 0)
                .fold(0u64, |a, i| a | 1 << (i * 8 + 2));
            assert_eq!(has_five(row), plain, "{line:08b}");
            assert_eq!(has_five(column), plain, "{line:08b}");
        }
    }
}
