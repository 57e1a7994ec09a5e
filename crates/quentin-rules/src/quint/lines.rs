//! Lines of exactly five: how Quint is won.

use crate::board::{Board, PointSet, stone};
use crate::color::Color;
use crate::point::{MAX_SIZE, Point};

/// The length of a winning line: exactly this many, no more.
pub(super) const QUINT: usize = 5;

/// Every `color` line of exactly five along a row or a column (a longer line does not count).
#[must_use]
pub fn quints(board: &Board, color: Color) -> PointSet {
    let n = board.size();
    // One bit per cell of each row, and of each column, read in one pass over the board.
    let mut rows = [0u32; MAX_SIZE];
    let mut columns = [0u32; MAX_SIZE];
    let piece = stone(color);
    for (row, bits) in rows.iter_mut().enumerate().take(n) {
        let first = Point::new(0, row).index();
        for (col, column) in columns.iter_mut().enumerate().take(n) {
            if board.cell(first + col) == piece {
                *bits |= 1 << col;
                *column |= 1 << row;
            }
        }
    }
    let mut found = PointSet::new();
    for i in 0..n {
        for start in exact_runs(rows[i], n) {
            (start..start + QUINT).for_each(|j| {
                found.insert(Point::new(j, i));
            });
        }
        for start in exact_runs(columns[i], n) {
            (start..start + QUINT).for_each(|j| {
                found.insert(Point::new(i, j));
            });
        }
    }
    found
}

/// Where the runs of exactly [`QUINT`] set bits of `line` (of `n` bits) start.
fn exact_runs(line: u32, n: usize) -> impl Iterator<Item = usize> {
    let five = (1u32 << QUINT) - 1;
    (0..=n.saturating_sub(QUINT)).filter(move |&start| {
        let run = (line >> start) & five == five;
        let before = start > 0 && line & (1 << (start - 1)) != 0;
        let after = line & (1 << (start + QUINT)) != 0;
        run && !before && !after
    })
}
