//! Bitboards: sets of points of one board packed into machine words, so that a whole board is
//! shifted, grown or counted a word at a time.
//!
//! Point `(col, row)` of a board of side `n` is bit `row * (n + 1) + col`: rows of `n` bits with
//! one spare bit after each, always clear in the sets the board keeps. A shift by one then moves
//! the end of a row into that spare bit instead of onto the next row, and a shift by a row
//! (`n + 1` bits) moves the top or bottom row off the board, so neighbours need no masks: a
//! 13×13 board is three words, the largest (26×26) eleven.

use super::point::{MAX_SIZE, Point};

/// Words of the largest board's sets.
pub(crate) const BIT_WORDS: usize = (MAX_SIZE * (MAX_SIZE + 1)).div_ceil(64);

/// A set of points of one board, in the layout of the module comment, in `W` words: the board
/// keeps its sets in [`BIT_WORDS`], and the rules compute in as few words as the board's size
/// needs ([`Bits::resize`]), so that a 13×13 set lives in three registers.
#[derive(Clone, Copy, Eq, Debug)]
pub(crate) struct Bits<const W: usize = BIT_WORDS> {
    words: [u64; W],
}

// Written out: the derived comparison compared the words through memory, a wide load over two
// word stores that had to finish first (no store-to-load forwarding); this one, word by word
// in registers: 60,000 Quentin 13×13 playouts on the real-width board 0.45 → 0.41 s.
impl<const W: usize> PartialEq for Bits<W> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .fold(0, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits::new()
    }
}

/// The layout of one board's [`Bits`]: its row stride and how many words its points use.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Layout {
    stride: usize,
    words: usize,
}

impl Layout {
    /// The layout of a board of side `size`.
    pub(crate) const fn new(size: usize) -> Layout {
        Layout {
            stride: size + 1,
            words: (size * (size + 1)).div_ceil(64),
        }
    }

    /// The row stride: the board's side and a spare bit.
    #[inline]
    pub(crate) const fn stride(self) -> usize {
        self.stride
    }

    /// The bit steps to the four orthogonal neighbours, in the order of
    /// [`super::board::ORTHOGONAL`].
    #[inline]
    pub(crate) const fn orthogonal_bit_steps(self) -> [isize; 4] {
        let s = self.stride as isize;
        [s, 1, -s, -1]
    }

    /// How many words the board's sets use.
    pub(crate) const fn words(self) -> usize {
        self.words
    }

    /// The bit of `p`.
    #[inline]
    pub(crate) const fn bit(self, p: Point) -> usize {
        p.row() * self.stride + p.col()
    }

    /// The point of bit `k` (not a spare bit).
    #[inline]
    pub(crate) const fn point(self, k: usize) -> Point {
        Point::new(k % self.stride, k / self.stride)
    }

    /// `a` grown by one step: its points and their four orthogonal neighbours. The result may
    /// hold spare bits and bits past the last row: mask it with a set of the board.
    #[inline]
    pub(crate) fn grow<const W: usize>(self, a: &Bits<W>) -> Bits<W> {
        let (w, s) = (&a.words, self.stride);
        Bits {
            words: std::array::from_fn(|k| {
                let prev = if k > 0 { w[k - 1] } else { 0 };
                let next = if k + 1 < W { w[k + 1] } else { 0 };
                w[k] | w[k] << 1
                    | prev >> 63
                    | w[k] >> 1
                    | next << 63
                    | w[k] << s
                    | prev >> (64 - s)
                    | w[k] >> s
                    | next << (64 - s)
            }),
        }
    }

    /// The points with at least two points of `a` among their four orthogonal neighbours. The
    /// result may hold spare bits and bits past the last row: mask it with a set of the board.
    pub(crate) fn two_neighbours<const W: usize>(self, a: &Bits<W>) -> Bits<W> {
        let (w, s) = (&a.words, self.stride);
        Bits {
            words: std::array::from_fn(|k| {
                let prev = if k > 0 { w[k - 1] } else { 0 };
                let next = if k + 1 < W { w[k + 1] } else { 0 };
                // The neighbour below, above, to the left and to the right of each bit's point.
                let below = w[k] << s | prev >> (64 - s);
                let above = w[k] >> s | next << (64 - s);
                let left = w[k] << 1 | prev >> 63;
                let right = w[k] >> 1 | next << 63;
                // A bit-sliced count of four, kept to "one" and "two or more".
                let ones = below ^ above;
                let twos = below & above | ones & left;
                twos | (ones ^ left) & right
            }),
        }
    }
}

impl<const W: usize> Bits<W> {
    /// The empty set.
    pub(crate) const fn new() -> Self {
        Bits { words: [0; W] }
    }

    /// The set of the single bit `k`.
    pub(crate) fn single(k: usize) -> Self {
        let mut bits = Bits::new();
        bits.insert(k);
        bits
    }

    /// The set of the given words, bit `k` being bit `k % 64` of word `k / 64`.
    #[inline]
    pub(crate) const fn from_words(words: [u64; W]) -> Self {
        Bits { words }
    }

    /// The words, bit `k` being bit `k % 64` of word `k / 64`.
    pub(crate) const fn words(&self) -> &[u64; W] {
        &self.words
    }

    /// The same set in `V` words: the bits past them are dropped, the words added are empty.
    #[inline]
    pub(crate) fn resize<const V: usize>(&self) -> Bits<V> {
        Bits {
            words: std::array::from_fn(|k| self.words.get(k).copied().unwrap_or(0)),
        }
    }

    /// The word of bit `k`, clamped to the set's words: a bit of the board is never past them,
    /// and the clamp (a conditional move) spares the bounds check and its branch.
    #[inline]
    const fn word(k: usize) -> usize {
        let w = k / 64;
        if w < W { w } else { W - 1 }
    }

    /// Adds bit `k`.
    #[inline]
    pub(crate) fn insert(&mut self, k: usize) {
        debug_assert!(k / 64 < W, "bit {k} past the set");
        self.words[Self::word(k)] |= 1 << (k % 64);
    }

    /// Sets bit `k` to `on`.
    #[inline]
    pub(crate) fn assign(&mut self, k: usize, on: bool) {
        debug_assert!(k / 64 < W, "bit {k} past the set");
        let (w, b) = (Self::word(k), k % 64);
        self.words[w] = self.words[w] & !(1 << b) | u64::from(on) << b;
    }

    /// Whether bit `k` is set.
    #[inline]
    pub(crate) fn contains(&self, k: usize) -> bool {
        self.words[Self::word(k)] & (1 << (k % 64)) != 0
    }

    /// How many bits are set.
    pub(crate) fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The set bits, in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let k = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(k)
            })
        })
    }

    /// The bits of both sets.
    #[inline]
    pub(crate) fn or(&self, other: &Self) -> Self {
        Bits {
            words: std::array::from_fn(|k| self.words[k] | other.words[k]),
        }
    }

    /// The bits of `self` that are also in `other`.
    #[inline]
    pub(crate) fn and(&self, other: &Self) -> Self {
        Bits {
            words: std::array::from_fn(|k| self.words[k] & other.words[k]),
        }
    }

    /// The bits of `self` that are not in `other`.
    #[inline]
    pub(crate) fn and_not(&self, other: &Self) -> Self {
        Bits {
            words: std::array::from_fn(|k| self.words[k] & !other.words[k]),
        }
    }

    /// Whether the set has no bit.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.words.iter().fold(0, |acc, w| acc | w) == 0
    }

    /// Whether the two sets share a bit.
    #[inline]
    pub(crate) fn meets(&self, other: &Self) -> bool {
        self.and(other).words.iter().fold(0, |acc, w| acc | w) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set of the given points of a board of side `n`.
    fn set(n: usize, points: &[(usize, usize)]) -> Bits {
        let layout = Layout::new(n);
        let mut bits = Bits::new();
        for &(c, r) in points {
            bits.insert(layout.bit(Point::new(c, r)));
        }
        bits
    }

    /// Every point of a board of side `n`.
    fn all(n: usize) -> Vec<(usize, usize)> {
        (0..n).flat_map(|r| (0..n).map(move |c| (c, r))).collect()
    }

    /// The on-board orthogonal neighbours of `(c, r)`.
    fn neighbours(n: usize, (c, r): (usize, usize)) -> Vec<(usize, usize)> {
        [(0, 1), (1, 0), (0, -1), (-1, 0)]
            .into_iter()
            .filter_map(|(dc, dr)| {
                let c = c.checked_add_signed(dc)?;
                let r = r.checked_add_signed(dr)?;
                (c < n && r < n).then_some((c, r))
            })
            .collect()
    }

    /// At the sizes where rows cross word boundaries, growing one point gives exactly it and its
    /// neighbours, and counting neighbours matches counting them one by one.
    #[test]
    fn growth_and_counts_match_the_neighbours_at_word_boundaries() {
        for n in [3, 8, 13, 21, 26] {
            let layout = Layout::new(n);
            for &p in &all(n) {
                let mut want = neighbours(n, p);
                want.push(p);
                let grown = layout.grow(&set(n, &[p])).and(&set(n, &all(n)));
                assert_eq!(grown, set(n, &want), "size {n}, point {p:?}");
            }
            // A pseudo-random half of the board, and the count of each point's neighbours in it.
            let half: Vec<(usize, usize)> = all(n)
                .into_iter()
                .filter(|&(c, r)| (c * 7 + r * 13 + c * r) % 5 < 2)
                .collect();
            let two = layout.two_neighbours(&set(n, &half));
            for p in all(n) {
                let count = neighbours(n, p).iter().filter(|q| half.contains(q)).count();
                assert_eq!(
                    two.contains(layout.bit(Point::new(p.0, p.1))),
                    count >= 2,
                    "size {n}, point {p:?}"
                );
            }
        }
    }

    #[test]
    fn points_and_bits_round_trip() {
        for n in [3, 8, 13, 21, 26] {
            let layout = Layout::new(n);
            let bits = set(n, &all(n));
            assert_eq!(bits.len(), n * n);
            let points: Vec<(usize, usize)> = bits
                .iter()
                .map(|k| layout.point(k))
                .map(|p| (p.col(), p.row()))
                .collect();
            assert_eq!(points, all(n), "size {n}: row by row from a1");
        }
    }
}
