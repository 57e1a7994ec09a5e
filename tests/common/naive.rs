//! Quentin written the obvious way, for differential tests: after a placement every region of
//! the whole board is examined and every 2×2 square checked, and wins are found by a flood from
//! the edges. Slow and plain on purpose.

use std::collections::{HashMap, HashSet};

use quentin::rules::Color;

/// A board as a map from (column, row) to a stone.
pub type Stones = HashMap<(usize, usize), Color>;

fn neighbours(n: usize, (c, r): (usize, usize)) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if c > 0 {
        out.push((c - 1, r));
    }
    if c + 1 < n {
        out.push((c + 1, r));
    }
    if r > 0 {
        out.push((c, r - 1));
    }
    if r + 1 < n {
        out.push((c, r + 1));
    }
    out
}

/// The board after `color` places on `p`, or `None` when that is illegal.
pub fn place(n: usize, board: &Stones, p: (usize, usize), color: Color) -> Option<Stones> {
    if board.contains_key(&p) {
        return None;
    }
    let mut b = board.clone();
    b.insert(p, color);
    let mut seen = HashSet::new();
    for c in 0..n {
        for r in 0..n {
            let s = (c, r);
            if b.contains_key(&s) || seen.contains(&s) {
                continue;
            }
            let mut region = vec![];
            let mut stack = vec![s];
            seen.insert(s);
            while let Some(q) = stack.pop() {
                region.push(q);
                for m in neighbours(n, q) {
                    if !b.contains_key(&m) && seen.insert(m) {
                        stack.push(m);
                    }
                }
            }
            let territory = region.iter().all(|&q| {
                neighbours(n, q)
                    .into_iter()
                    .filter(|m| b.contains_key(m))
                    .count()
                    >= 2
            });
            if territory {
                let touching: HashSet<(usize, usize)> = region
                    .iter()
                    .flat_map(|&q| neighbours(n, q))
                    .filter(|m| b.contains_key(m))
                    .collect();
                let black = touching.iter().filter(|m| b[*m] == Color::Black).count();
                let white = touching.len() - black;
                let fill = if black > white {
                    Color::Black
                } else if white > black {
                    Color::White
                } else {
                    color.opponent()
                };
                for q in region {
                    b.insert(q, fill);
                }
            }
        }
    }
    for c in 0..n - 1 {
        for r in 0..n - 1 {
            let a = b.get(&(c, r));
            let d = b.get(&(c + 1, r + 1));
            let x = b.get(&(c + 1, r));
            let y = b.get(&(c, r + 1));
            if a.is_some() && a == d && x != a && y != a {
                return None;
            }
            if x.is_some() && x == y && a != x && d != x {
                return None;
            }
        }
    }
    Some(b)
}

/// The colour with a chain between its two edges, if any.
pub fn winner(n: usize, b: &Stones) -> Option<Color> {
    for color in [Color::Black, Color::White] {
        let first = |&(c, r): &(usize, usize)| {
            if color == Color::Black {
                r == 0
            } else {
                c == 0
            }
        };
        let last = |&(c, r): &(usize, usize)| {
            if color == Color::Black {
                r == n - 1
            } else {
                c == n - 1
            }
        };
        let mut stack: Vec<(usize, usize)> = b
            .iter()
            .filter(|(p, c)| **c == color && first(p))
            .map(|(p, _)| *p)
            .collect();
        let mut seen: HashSet<(usize, usize)> = stack.iter().copied().collect();
        while let Some(q) = stack.pop() {
            if last(&q) {
                return Some(color);
            }
            for m in neighbours(n, q) {
                if b.get(&m) == Some(&color) && seen.insert(m) {
                    stack.push(m);
                }
            }
        }
    }
    None
}
