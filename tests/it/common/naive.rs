//! Quentin written the obvious way, for differential tests: after a placement every region of
//! the whole board is examined and every 2×2 square checked, and wins are found by a flood from
//! the edges. Slow and plain on purpose. The board type, neighbourhoods and the win by a chain
//! between a colour's edges are shared with the Konobi and Brique references.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use quentin::rules::{Color, Point, Position};

/// A point as (column, row), both from 0: `a1` is (0, 0).
pub type Pt = (usize, usize);

/// A board as a map from (column, row) to a stone.
pub type Stones = HashMap<Pt, Color, BuildHasherDefault<PointHasher>>;

/// A set of points.
pub type Points = HashSet<Pt, BuildHasherDefault<PointHasher>>;

/// A plain multiplicative hash of the two coordinates: the maps stay maps, but the tests spend
/// their time on the rules rather than on the standard library's DoS-resistant hashing.
#[derive(Default)]
pub struct PointHasher(u64);

impl Hasher for PointHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_usize(usize::from(b));
        }
    }

    fn write_usize(&mut self, i: usize) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The stones of `pos`, read point by point through the public API.
pub fn stones(pos: &Position) -> Stones {
    let n = pos.size();
    let mut b = Stones::default();
    for c in 0..n {
        for r in 0..n {
            if let Some(color) = pos.get(Point::new(c, r)) {
                b.insert((c, r), color);
            }
        }
    }
    b
}

/// The orthogonal neighbours of a point on a board of side `n`.
pub fn neighbours(n: usize, (c, r): (usize, usize)) -> Vec<(usize, usize)> {
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
    let mut b = with_stone(board, p, color)?;
    let mut seen = Points::default();
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
                let touching: Points = region
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
    // Diagonal pairs of either colour need a like-coloured point beside them.
    let broken = squares(n, &b).into_iter().any(|[a, x, y, d]| {
        (a.is_some() && a == d && x != a && y != a) || (x.is_some() && x == y && a != x && d != x)
    });
    (!broken).then_some(b)
}

/// A copy of `board` with a `color` stone on `p`, or `None` when `p` is taken.
pub fn with_stone(board: &Stones, p: Pt, color: Color) -> Option<Stones> {
    if board.contains_key(&p) {
        return None;
    }
    let mut b = board.clone();
    b.insert(p, color);
    Some(b)
}

/// Every 2×2 square of the board, as what stands on its corners: bottom-left, bottom-right,
/// top-left, top-right (so the diagonals are the first and last, and the middle two).
pub fn squares(n: usize, b: &Stones) -> Vec<[Option<Color>; 4]> {
    let mut out = Vec::new();
    for c in 0..n - 1 {
        for r in 0..n - 1 {
            let at = |p: Pt| b.get(&p).copied();
            out.push([
                at((c, r)),
                at((c + 1, r)),
                at((c, r + 1)),
                at((c + 1, r + 1)),
            ]);
        }
    }
    out
}

/// The colour with a chain between its two edges, if any, chains being orthogonal.
pub fn winner(n: usize, b: &Stones) -> Option<Color> {
    winning_chain(n, b, orthogonal_links).map(|(color, _)| color)
}

/// The like-coloured orthogonal neighbours of the stone on `p`: chain links in Quentin and
/// Brique.
pub fn orthogonal_links(n: usize, b: &Stones, p: Pt) -> Vec<Pt> {
    neighbours(n, p)
        .into_iter()
        .filter(|q| b.get(q) == b.get(&p))
        .collect()
}

/// Whether `p` lies on the first (`last` false) or second edge of `color`: Black's are the
/// bottom and top rows, White's the left and right columns.
pub fn on_edge(n: usize, color: Color, (c, r): Pt, last: bool) -> bool {
    let along = if color == Color::Black { r } else { c };
    along == if last { n - 1 } else { 0 }
}

/// The chain of the stone on `start`: every stone reached by steps through `links`.
pub fn chain(n: usize, b: &Stones, start: Pt, links: fn(usize, &Stones, Pt) -> Vec<Pt>) -> Points {
    let mut seen = Points::from_iter([start]);
    let mut stack = vec![start];
    while let Some(q) = stack.pop() {
        for m in links(n, b, q) {
            if seen.insert(m) {
                stack.push(m);
            }
        }
    }
    seen
}

/// A chain touching both edges of its colour, with that colour, Black looked at first. Chains
/// are the groups of stones joined by `links`.
pub fn winning_chain(
    n: usize,
    b: &Stones,
    links: fn(usize, &Stones, Pt) -> Vec<Pt>,
) -> Option<(Color, Points)> {
    for color in [Color::Black, Color::White] {
        let mut seen = Points::default();
        for (&p, &c) in b {
            if c != color || !on_edge(n, color, p, false) || seen.contains(&p) {
                continue;
            }
            let chain = chain(n, b, p, links);
            if chain.iter().any(|&q| on_edge(n, color, q, true)) {
                return Some((color, chain));
            }
            seen.extend(chain);
        }
    }
    None
}
