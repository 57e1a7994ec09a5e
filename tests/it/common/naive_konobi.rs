//! Konobi written plainly from docs/rules.md, for differential tests: a placement is tried on
//! a copy of the board, every 2×2 square of the whole board is searched for a crosscut, and the
//! weak-connection rule is read word for word. Chains use strong and weak connections. Slow and
//! plain on purpose.

use quentin::rules::Color;

use super::naive::{Pt, Stones, neighbours, squares, with_stone};

/// The diagonal neighbours of a point on a board of side `n`.
fn diagonal_neighbours(n: usize, (c, r): Pt) -> Vec<Pt> {
    let mut out = Vec::new();
    for (dc, dr) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
        let (Some(x), Some(y)) = (c.checked_add_signed(dc), r.checked_add_signed(dr)) else {
            continue;
        };
        if x < n && y < n {
            out.push((x, y));
        }
    }
    out
}

/// The `color` stones that a `color` stone on `p` is (or would be) weakly connected to:
/// diagonal neighbours of that colour such that neither of the two points both touch holds it.
fn weak_partners(n: usize, b: &Stones, p: Pt, color: Color) -> Vec<Pt> {
    diagonal_neighbours(n, p)
        .into_iter()
        .filter(|&q| {
            b.get(&q) == Some(&color)
                && b.get(&(q.0, p.1)) != Some(&color)
                && b.get(&(p.0, q.1)) != Some(&color)
        })
        .collect()
}

/// The stones linked to the stone on `p` in a chain: strongly (orthogonally) or weakly.
pub fn links(n: usize, b: &Stones, p: Pt) -> Vec<Pt> {
    let color = b[&p];
    let mut out: Vec<Pt> = neighbours(n, p)
        .into_iter()
        .filter(|q| b.get(q) == Some(&color))
        .collect();
    out.extend(weak_partners(n, b, p, color));
    out
}

/// Whether some 2×2 square holds two black and two white stones, each pair on a diagonal.
fn has_crosscut(n: usize, b: &Stones) -> bool {
    squares(n, b)
        .into_iter()
        .any(|[a, x, y, d]| a.is_some() && x.is_some() && a == d && x == y && a != x)
}

/// The board after `color` places on `p`, or `None` when that is illegal.
pub fn place(n: usize, board: &Stones, p: Pt, color: Color) -> Option<Stones> {
    let after = with_stone(board, p, color)?;
    if has_crosscut(n, &after) {
        return None;
    }
    for s in weak_partners(n, &after, p, color) {
        for q in neighbours(n, s) {
            // A stone at q instead of p, on the board as it was, weakly connected to nothing.
            if !board.contains_key(&q) && weak_partners(n, board, q, color).is_empty() {
                return None;
            }
        }
    }
    Some(after)
}
