//! Brique written plainly from docs/rules.md, for differential tests: after a placement every
//! square of the whole board is asked whether its two escorts hold the mover's stones, and those
//! that do and do not hold one yet are filled, an enemy stone there removed first. Slow and plain
//! on purpose; chains are orthogonal, as in Quentin.

use quentin::rules::Color;

use super::naive::{Pt, Stones, with_stone};

/// The escorts of the square (c, r): above and left of a light square (c + r even, as `a1`),
/// below and right of a dark one; only those on the board.
fn escorts(n: usize, (c, r): Pt) -> Vec<Pt> {
    let candidates = if (c + r) % 2 == 0 {
        [(Some(c), Some(r + 1)), (c.checked_sub(1), Some(r))]
    } else {
        [(Some(c), r.checked_sub(1)), (Some(c + 1), Some(r))]
    };
    candidates
        .into_iter()
        .filter_map(|(x, y)| Some((x?, y?)))
        .filter(|&(x, y)| x < n && y < n)
        .collect()
}

/// The board after `color` places on `p`, or `None` when `p` is taken (any empty square is a
/// legal placement).
pub fn place(n: usize, board: &Stones, p: Pt, color: Color) -> Option<Stones> {
    let mut after = with_stone(board, p, color)?;
    let mut filled = Vec::new();
    for c in 0..n {
        for r in 0..n {
            let escorts = escorts(n, (c, r));
            let escorted =
                escorts.len() == 2 && escorts.iter().all(|e| after.get(e) == Some(&color));
            if escorted && after.get(&(c, r)) != Some(&color) {
                filled.push((c, r));
            }
        }
    }
    for square in filled {
        // Inserting replaces an enemy stone: it is removed and the mover's stone put there.
        after.insert(square, color);
    }
    Some(after)
}
