//! The bit plumbing of [`super::QuentinBoard`]: sets of points at a board's real width with
//! guard words around them, the few words around a point read from a set as one integer, and
//! the table that tells what a point's eight neighbours hold.

use std::ops::{BitAnd, BitOr, Not, Shl, Shr};

use crate::bits::Bits;
use crate::board::beside_either;

/// A set of points in the layout of [`super`]'s module comment: `N` words, the board's `W`
/// words `1..=W` and guard words around them (`N` = `W` + 3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Set<const N: usize>(pub(super) [u64; N]);

impl<const N: usize> Set<N> {
    pub(super) const EMPTY: Self = Set([0; N]);

    #[inline]
    pub(super) fn insert(&mut self, k: usize) {
        self.0[k / 64] |= 1 << (k % 64);
    }

    #[inline]
    pub(super) fn remove(&mut self, k: usize) {
        self.0[k / 64] &= !(1 << (k % 64));
    }

    #[inline]
    pub(super) fn contains(&self, k: usize) -> bool {
        self.0[k / 64] >> (k % 64) & 1 != 0
    }

    /// The 64 bits from bit `b` on.
    #[inline]
    pub(super) fn read64(&self, b: usize) -> u64 {
        // The bound holds for every point's window (see [`super`]'s module comment); the `min`
        // only spares the bounds checks.
        debug_assert!(b / 64 <= N - 2, "bit {b} past the set");
        let (i, shift) = ((b / 64).min(N - 2), b % 64);
        // `<< 1 << (63 - shift)`: no bits of the next word when `shift` is 0, and no overflow.
        self.0[i] >> shift | self.0[i + 1] << 1 << (63 - shift)
    }

    /// The 128 bits from bit `b` on.
    #[inline]
    pub(super) fn read128(&self, b: usize) -> u128 {
        debug_assert!(b / 64 <= N - 3, "bit {b} past the set");
        let (i, shift) = ((b / 64).min(N - 3), b % 64);
        let low = u128::from(self.0[i]) | u128::from(self.0[i + 1]) << 64;
        low >> shift | u128::from(self.0[i + 2]) << 1 << (127 - shift)
    }

    /// Sets the bits `mask << b`.
    #[inline]
    pub(super) fn add_at(&mut self, b: usize, mask: u64) {
        debug_assert!(b / 64 <= N - 2, "bit {b} past the set");
        let (i, shift) = ((b / 64).min(N - 2), b % 64);
        self.0[i] |= mask << shift;
        self.0[i + 1] |= mask >> 1 >> (63 - shift);
    }

    /// The board's `W` words, as a set of the rules' bitboards (the same layout from bit 0).
    #[inline]
    pub(super) fn get<const W: usize>(&self) -> Bits<W> {
        Bits::from_words(std::array::from_fn(|w| self.0[w + 1]))
    }

    /// The board's `W` words less the bits `mask << b`.
    #[inline]
    pub(super) fn get_without<const W: usize>(&self, b: usize, mask: u64) -> Bits<W> {
        Bits::from_words(std::array::from_fn(|w| {
            self.0[w + 1] & !part(b, mask, w + 1)
        }))
    }

    /// The board's `W` words set to `bits`.
    #[inline]
    pub(super) fn put<const W: usize>(&mut self, bits: &Bits<W>) {
        self.0[1..=W].copy_from_slice(bits.words());
    }
}

/// The bits `mask << b` of a [`Set`] as a set of the rules' bitboards of `W` words (see
/// [`Set::get`]).
#[inline]
pub(super) fn window<const W: usize>(b: usize, mask: u64) -> Bits<W> {
    Bits::from_words(std::array::from_fn(|w| part(b, mask, w + 1)))
}

/// The bits of `mask << b` in word `w` of a [`Set`].
#[inline]
fn part(b: usize, mask: u64, w: usize) -> u64 {
    let (i, shift) = (b / 64, b % 64);
    if w == i {
        mask << shift
    } else if w == i + 1 {
        // `>> 1 >> (63 - shift)`: none of `mask` when `shift` is 0, and no overflow.
        mask >> 1 >> (63 - shift)
    } else {
        0
    }
}

/// A few words of a set around a point, as one integer: `u64` where the five rows around a
/// point fit in it (boards up to 13×13), `u128` beyond.
pub(super) trait Window:
    Copy
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
{
    fn read<const N: usize>(set: &Set<N>, b: usize) -> Self;
    /// The low 64 bits.
    fn low64(self) -> u64;
    fn single(k: usize) -> Self;
}

impl Window for u64 {
    #[inline]
    fn read<const N: usize>(set: &Set<N>, b: usize) -> u64 {
        set.read64(b)
    }
    #[inline]
    fn low64(self) -> u64 {
        self
    }
    #[inline]
    fn single(k: usize) -> u64 {
        1 << k
    }
}

impl Window for u128 {
    #[inline]
    fn read<const N: usize>(set: &Set<N>, b: usize) -> u128 {
        set.read128(b)
    }
    #[inline]
    fn low64(self) -> u64 {
        self as u64
    }
    #[inline]
    fn single(k: usize) -> u128 {
        1 << k
    }
}

/// How a board reads the 3×3 neighbourhood of a point as an index of 9 bits from `y`, bits of a
/// set read from the point's south-west neighbour on (rows `s` bits apart): bits 0 to 2 of the
/// index are the row below, 3 to 5 the point's row (4 the point), 6 to 8 the row above, each
/// from west to east.
#[derive(Clone, Copy, Debug)]
pub(super) struct Gather {
    /// The three rows' bits.
    rows: u64,
    /// Shifts the rows to the bits `2s` to `2s + 8` of the product, each by as much as the
    /// others', none of the other products there (a row of three bits or more between them)
    /// and nothing carried: from a stride of 9 on; 0 for smaller boards.
    magic: u64,
}

impl Gather {
    pub(super) fn new(s: usize) -> Gather {
        Gather {
            rows: 7 | 7 << s | 7 << (2 * s),
            magic: if s >= 9 {
                1 << (2 * s) | 1 << (s + 3) | 1 << 6
            } else {
                0
            },
        }
    }

    /// The index of the neighbourhood in `y` on a board of row stride `s` (the one the
    /// gather was made for).
    #[inline]
    pub(super) fn index(self, y: u64, s: usize) -> usize {
        if self.magic != 0 {
            ((y & self.rows).wrapping_mul(self.magic) >> (2 * s) & 511) as usize
        } else {
            (y & 7 | (y >> s & 7) << 3 | (y >> (2 * s) & 7) << 6) as usize
        }
    }
}

/// What a neighbourhood ([`Gather`]) of a set holds around its point, by the neighbourhood's index:
/// bits 0 to 3 the orthogonal neighbours (bit `n` for the `n`th of [`crate::ORTHOGONAL`]), and
/// [`ALONE`] when a diagonal neighbour shares no orthogonal one with the point, which a stone
/// of the set's colour there would then stand alone beside.
pub(super) static AROUND: [u8; 512] = around_table();

/// The bit of [`AROUND`] for a stone alone diagonally.
pub(super) const ALONE: u8 = 1 << 4;

/// The orthogonal neighbours in an [`AROUND`] entry.
pub(super) const ORTHOGONAL: u8 = 0b1111;

const fn around_table() -> [u8; 512] {
    /// Bit `k` of `i`.
    const fn at(i: usize, k: usize) -> u32 {
        (i >> k & 1) as u32
    }
    let mut table = [0; 512];
    let mut i = 0;
    while i < 512 {
        // North, east, south, west; then north-east, south-east, south-west, north-west.
        let orthogonal = at(i, 7) | at(i, 5) << 1 | at(i, 1) << 2 | at(i, 3) << 3;
        let diagonal = at(i, 8) | at(i, 2) << 1 | at(i, 0) << 2 | at(i, 6) << 3;
        let alone = diagonal & !beside_either(orthogonal) != 0;
        table[i] = orthogonal as u8 | if alone { ALONE } else { 0 };
        i += 1;
    }
    table
}

/// The bits of `x` next to one of the window's bits `o` (stride `s`), not counting itself.
#[inline]
pub(super) fn beside<T: Window>(x: T, s: usize) -> T {
    x << 1 | x >> 1 | x << s | x >> s
}
