//! Quentin held at the board's real width, for random playouts: the stones in as few words as
//! the size needs (three at 13×13), rows of `size + 1` bits, and every test of a placement read
//! from a few words around it rather than from the padded grid of the largest board.
//!
//! [`Position`](crate::Position) keeps Quentin on the shared [`Board`](crate::Board), whose
//! padded grid, counts and change lists every other room reads. A playout needs much less: which
//! placements are legal, what they fill, and who has won. [`QuentinBoard`] keeps only that, and
//! answers as the rules do (the tests below play the two side by side on random games at every
//! size): a placement, the territories it closes filled, refused when a stone of the turn then
//! stands diagonal to a like-coloured stone with no like-coloured neighbour shared.
//!
//! Bit `64 + row * (size + 1) + col` is the point `(col, row)`: a word of nothing before the
//! board and two after it, so that the few words around any point are read with no bounds to
//! test, and the spare bit after each row keeps a row's end from touching the next row's start.

use std::ops::{BitAnd, BitOr, Not, Shl, Shr};

use crate::bits::{Bits, Layout};
use crate::board::beside_either;
use crate::point::STRIDE;
use crate::{Color, Point};

/// Words of a set: one before the board, the largest board's eleven, two after.
const WORDS: usize = 14;
/// The bit of the point `(0, 0)`.
const OFFSET: usize = 64;
/// The bit that marks a White fill in [`QuentinBoard::place`]'s list.
const WHITE_FILL: u16 = 1 << 15;

/// A set of points in the layout of the module comment. The board's words are `1..=W` for a
/// board of `W` words; the others stay empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Set([u64; WORDS]);

impl Set {
    const EMPTY: Set = Set([0; WORDS]);

    #[inline]
    fn insert(&mut self, k: usize) {
        self.0[k / 64] |= 1 << (k % 64);
    }

    #[inline]
    fn contains(&self, k: usize) -> bool {
        self.0[k / 64] >> (k % 64) & 1 != 0
    }

    /// The 64 bits from bit `b` on.
    #[inline]
    fn read64(&self, b: usize) -> u64 {
        let (i, shift) = ((b / 64).min(WORDS - 2), b % 64);
        // `<< 1 << (63 - shift)`: no bits of the next word when `shift` is 0, and no overflow.
        self.0[i] >> shift | self.0[i + 1] << 1 << (63 - shift)
    }

    /// The 128 bits from bit `b` on.
    #[inline]
    fn read128(&self, b: usize) -> u128 {
        let (i, shift) = ((b / 64).min(WORDS - 3), b % 64);
        let low = u128::from(self.0[i]) | u128::from(self.0[i + 1]) << 64;
        low >> shift | u128::from(self.0[i + 2]) << 1 << (127 - shift)
    }

    /// Sets the bits `mask << b`.
    #[inline]
    fn add_at(&mut self, b: usize, mask: u64) {
        let (i, shift) = ((b / 64).min(WORDS - 2), b % 64);
        self.0[i] |= mask << shift;
        self.0[i + 1] |= mask >> 1 >> (63 - shift);
    }

    /// Clears the bits `mask << b`.
    #[inline]
    fn remove_at(&mut self, b: usize, mask: u64) {
        let (i, shift) = ((b / 64).min(WORDS - 2), b % 64);
        self.0[i] &= !(mask << shift);
        self.0[i + 1] &= !(mask >> 1 >> (63 - shift));
    }

    /// The board's `W` words, as a set of the rules' bitboards (the same layout from bit 0).
    #[inline]
    fn get<const W: usize>(&self) -> Bits<W> {
        Bits::from_words(std::array::from_fn(|w| self.0[w + 1]))
    }

    /// The board's `W` words set to `bits`.
    #[inline]
    fn put<const W: usize>(&mut self, bits: &Bits<W>) {
        self.0[1..=W].copy_from_slice(bits.words());
    }
}

/// A few words of a set around a point, as one integer: `u64` where the five rows around a
/// point fit in it (boards up to 13×13), `u128` beyond.
trait Window:
    Copy
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
{
    fn read(set: &Set, b: usize) -> Self;
    fn bit(self, k: usize) -> u32;
    fn single(k: usize) -> Self;
}

impl Window for u64 {
    #[inline]
    fn read(set: &Set, b: usize) -> u64 {
        set.read64(b)
    }
    #[inline]
    fn bit(self, k: usize) -> u32 {
        (self >> k) as u32 & 1
    }
    #[inline]
    fn single(k: usize) -> u64 {
        1 << k
    }
}

impl Window for u128 {
    #[inline]
    fn read(set: &Set, b: usize) -> u128 {
        set.read128(b)
    }
    #[inline]
    fn bit(self, k: usize) -> u32 {
        (self >> k) as u32 & 1
    }
    #[inline]
    fn single(k: usize) -> u128 {
        1 << k
    }
}

/// A fill of `color` as [`QuentinBoard::place`] lists it: bit 15 set for White.
#[inline]
fn fill_flag(color: Color) -> u16 {
    match color {
        Color::Black => 0,
        Color::White => WHITE_FILL,
    }
}

/// The orthogonal neighbours (bit `n` for the `n`th of [`crate::ORTHOGONAL`]) and the diagonal
/// ones (bit `n` for the `n`th of [`crate::DIAGONAL`]) of the window bit `o`, stride `s`.
#[inline]
fn masks<T: Window>(x: T, o: usize, s: usize) -> (u32, u32) {
    let orthogonal = x.bit(o + s) | x.bit(o + 1) << 1 | x.bit(o - s) << 2 | x.bit(o - 1) << 3;
    let diagonal =
        x.bit(o + s + 1) | x.bit(o + 1 - s) << 1 | x.bit(o - s - 1) << 2 | x.bit(o + s - 1) << 3;
    (orthogonal, diagonal)
}

/// The bits of `x` next to one of the window's bits `o` (stride `s`), not counting itself.
#[inline]
fn beside<T: Window>(x: T, s: usize) -> T {
    x << 1 | x >> 1 | x << s | x >> s
}

/// A Quentin position at the real width of its board, `W` words (see the module comment):
/// the stones, who is to move and who has won, and what the placements need kept.
#[derive(Clone, Debug)]
pub struct QuentinBoard<const W: usize> {
    /// The layout: rows of the board's side and a spare bit.
    layout: Layout,
    /// By [`Color::index`].
    stones: [Set; 2],
    /// Every point of the board.
    on_board: Set,
    empty: Set,
    /// The empty points with fewer than two stones around: a region holding one is no
    /// territory.
    spoil: Set,
    /// The empty points with a stone around: a stone beside one may close its region.
    touched: Set,
    /// By colour: its stones that a chain links to its first edge.
    reach: [Set; 2],
    /// By colour: its first edge's and its second edge's points.
    edges: [[Set; 2]; 2],
    /// The orthogonal neighbours of bit `s + 1` of a window (its centre, when read from the
    /// row below and the column left of a point).
    around: u64,
    to_move: Color,
    winner: Option<Color>,
}

/// A [`QuentinBoard`] of as few words as the board needs; see [`QuentinBoards::of`].
#[derive(Clone, Debug)]
pub enum QuentinBoards {
    /// Up to 10×10.
    Two(QuentinBoard<2>),
    /// 11×11 to 13×13.
    Three(QuentinBoard<3>),
    /// 14×14 and 15×15.
    Four(QuentinBoard<4>),
    /// 16×16 to 19×19.
    Six(QuentinBoard<6>),
    /// 20×20 to 26×26.
    Eleven(QuentinBoard<11>),
}

/// Whether swap is offered in `pos` now or on a turn to come: the pie rule is on and White's
/// first turn (ply 1) has not passed.
#[must_use]
pub fn swap_ahead(pos: &crate::Position) -> bool {
    pos.setup().pie && pos.ply() < 2
}

impl QuentinBoards {
    /// The Quentin position `pos` at its board's real width, when it is Quentin, not over, and
    /// no swap is offered now or later (the board knows placements and passes only).
    #[must_use]
    pub fn of(pos: &crate::Position) -> Option<QuentinBoards> {
        if pos.game() != crate::Game::Quentin || swap_ahead(pos) {
            return None;
        }
        let to_move = pos.to_move()?;
        let board = pos.board();
        let n = board.size();
        Some(match (n * (n + 1)).div_ceil(64) {
            0..=2 => QuentinBoards::Two(QuentinBoard::new(board, to_move)),
            3 => QuentinBoards::Three(QuentinBoard::new(board, to_move)),
            4 => QuentinBoards::Four(QuentinBoard::new(board, to_move)),
            5 | 6 => QuentinBoards::Six(QuentinBoard::new(board, to_move)),
            _ => QuentinBoards::Eleven(QuentinBoard::new(board, to_move)),
        })
    }
}

impl<const W: usize> QuentinBoard<W> {
    /// The position of `board` with `to_move` to move, which no chain has won yet.
    fn new(board: &crate::Board, to_move: Color) -> QuentinBoard<W> {
        let n = board.size();
        let s = n + 1;
        let mut q = QuentinBoard {
            layout: Layout::new(n),
            stones: [Set::EMPTY; 2],
            on_board: Set::EMPTY,
            empty: Set::EMPTY,
            spoil: Set::EMPTY,
            touched: Set::EMPTY,
            reach: [Set::EMPTY; 2],
            edges: [[Set::EMPTY; 2]; 2],
            around: 1 << (2 * s + 1) | 1 << (s + 2) | 1 << 1 | 1 << s,
            to_move,
            winner: None,
        };
        // The board's own sets are in this layout, from bit 0: one word further on here.
        let copy = |bits: &crate::bits::Bits| {
            let mut set = Set::EMPTY;
            set.0[1..=W].copy_from_slice(&bits.words()[..W]);
            set
        };
        q.on_board = copy(board.on_board());
        for color in Color::ALL {
            q.stones[color.index()] = copy(board.stones(color));
        }
        for at in 0..n {
            let (first, last) = (OFFSET + at, OFFSET + (n - 1) * s + at);
            q.edges[Color::Black.index()][0].insert(first);
            q.edges[Color::Black.index()][1].insert(last);
            q.edges[Color::White.index()][0].insert(OFFSET + at * s);
            q.edges[Color::White.index()][1].insert(OFFSET + at * s + n - 1);
        }
        q.refresh();
        for color in Color::ALL {
            let c = color.index();
            let seeds = q.stones[c].get::<W>().and(&q.edges[c][0].get());
            q.join(color, seeds);
        }
        q
    }

    /// The bit of `p`, a point of the board.
    #[must_use]
    #[inline]
    pub fn bit(&self, p: Point) -> u16 {
        (OFFSET + p.row() * self.layout.stride() + p.col()) as u16
    }

    /// The point of bit `k` of the board.
    #[must_use]
    pub fn point(&self, k: u16) -> Point {
        let k = usize::from(k) - OFFSET;
        let s = self.layout.stride();
        Point::new(k % s, k / s)
    }

    /// The colour to move; `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        self.winner.is_none().then_some(self.to_move)
    }

    /// The colour whose chain joins its two edges, if one does.
    #[must_use]
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// The bits of the empty points, row by row from `a1`.
    pub fn empty_bits(&self) -> impl Iterator<Item = u16> + use<W> {
        let words = self.empty.0;
        (1..=W).flat_map(move |w| {
            let mut word = words[w];
            std::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let k = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                Some(k as u16)
            })
        })
    }

    /// The side to move passes.
    pub fn pass(&mut self) {
        self.to_move = self.to_move.opponent();
    }

    /// The stones as they stand.
    #[must_use]
    pub fn stones(&self) -> QuentinStones {
        QuentinStones {
            layout: self.layout,
            stones: self.stones,
        }
    }

    /// Places a stone of the side to move on bit `k` ([`QuentinBoard::bit`]), an empty point
    /// of the board, with the fills of the territories it closes, if that is legal; the fills'
    /// bits then in `fills` (cleared first) in the order the rules make them, a White fill with
    /// bit 15 set. Refused otherwise, the board unchanged. The game must not be over.
    #[inline]
    pub fn place(&mut self, k: u16, fills: &mut Vec<u16>) -> bool {
        debug_assert!(self.winner.is_none() && self.empty.contains(usize::from(k)));
        fills.clear();
        // Five rows around a point fit in a word up to 13×13 (three words).
        if W <= 3 {
            self.place_with::<u64>(usize::from(k), fills)
        } else {
            self.place_with::<u128>(usize::from(k), fills)
        }
    }

    #[inline]
    fn place_with<T: Window>(&mut self, k: usize, fills: &mut Vec<u16>) -> bool {
        let (s, color) = (self.layout.stride(), self.to_move);
        // The window from two rows below and two columns left of `k`: `k` is its bit `o`.
        let (b, o) = (k - 2 * s - 2, 2 * s + 2);
        let own = T::read(&self.stones[color.index()], b);
        let (orthogonal, diagonal) = masks(own, o, s);
        let lonely = diagonal & !beside_either(orthogonal);
        // The neighbours whose regions may be territories once `k` holds a stone: empty, a
        // stone around already, and none of their other neighbours spoiling a territory.
        let spoil = T::read(&self.spoil, b) & !T::single(o);
        let ok = T::read(&self.touched, b) & !beside(spoil, s);
        let (starts, _) = masks(ok, o, s);
        if starts != 0 {
            self.fills::<T>(k, starts, b, o, fills);
            if !fills.is_empty() {
                return self.place_filling(k, fills);
            }
        }
        if lonely != 0 {
            return false;
        }
        self.stones[color.index()].insert(k);
        // Around the stone only: it leaves the empty points, its empty neighbours gain a stone
        // around (those with one before now have two: they no longer spoil).
        let b = k - s - 1;
        let (touched, empty) = (self.touched.read64(b), self.empty.read64(b));
        let centre = 1 << (s + 1);
        self.empty.remove_at(b, centre);
        self.spoil.remove_at(b, centre | touched & self.around);
        self.touched.remove_at(b, centre);
        self.touched.add_at(b, empty & self.around);
        // The stone joins its colour's set when it touches it or the first edge.
        let reach = self.reach[color.index()].read64(k - s - 1);
        if reach & self.around != 0 || self.edges[color.index()][0].contains(k) {
            self.join(color, Bits::single(k - OFFSET));
        }
        self.to_move = color.opponent();
        true
    }

    /// Pushes onto `fills` the territories a stone of the side to move on `k` closes, for the
    /// neighbours `starts` (as [`crate::quentin`]'s `fill_territories`), read from the window at
    /// `b` where `k` is bit `o`.
    fn fills<T: Window>(&self, k: usize, starts: u32, b: usize, o: usize, fills: &mut Vec<u16>) {
        let s = self.layout.stride();
        let steps = [s as isize, 1, -(s as isize), -1];
        // A start none of whose other neighbours is empty is a territory of one point.
        let empty = T::read(&self.empty, b) & !T::single(o);
        let (open, _) = masks(beside(empty, s), o, s);
        let singles = starts & !open;
        let mut todo = starts;
        if starts == singles {
            while todo != 0 {
                let n = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                self.fill_single(k.wrapping_add_signed(steps[n]), fills);
            }
            return;
        }
        let (layout, tie) = (self.layout, self.to_move.opponent());
        let mut stones: [Bits<W>; 2] = [self.stones[0].get(), self.stones[1].get()];
        stones[self.to_move.index()].insert(k - OFFSET);
        let occupied = stones[0].or(&stones[1]);
        let empty = self.on_board.get::<W>().and_not(&occupied);
        let mut spoils = empty.and_not(&layout.two_neighbours(&occupied));
        while todo != 0 {
            let n = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let start = k.wrapping_add_signed(steps[n]);
            if singles & 1 << n != 0 {
                self.fill_single(start, fills);
            } else if !spoils.contains(start - OFFSET) {
                match super::region_if_territory(layout, start - OFFSET, &empty, &spoils) {
                    Ok(territory) => {
                        let fill = super::fill_color(layout, &territory, &stones, tie);
                        let flag = fill_flag(fill);
                        fills.extend(territory.iter().map(|k| (k + OFFSET) as u16 | flag));
                        // Filled: no other start lies in it.
                        spoils = spoils.or(&territory);
                    }
                    Err(region) => spoils = spoils.or(&region),
                }
            }
        }
    }

    /// Pushes the fill of `j`, a territory of one point once the side to move stands beside it.
    #[inline]
    fn fill_single(&self, j: usize, fills: &mut Vec<u16>) {
        let b = j - self.layout.stride() - 1;
        let [black, white] = Color::ALL.map(|c| {
            let around = (self.stones[c.index()].read64(b) & self.around).count_ones();
            around + u32::from(c == self.to_move)
        });
        fills.push(j as u16 | fill_flag(super::majority(black, white, self.to_move.opponent())));
    }

    /// Places on `k` with its `fills` when no stone of the turn then stands alone diagonally;
    /// refused otherwise, the board unchanged.
    fn place_filling(&mut self, k: usize, fills: &[u16]) -> bool {
        let color = self.to_move;
        let mut stones = self.stones;
        let mut added = [Bits::<W>::new(); 2];
        added[color.index()].insert(k - OFFSET);
        stones[color.index()].insert(k);
        for &f in fills {
            let (c, f) = (
                usize::from(f & WHITE_FILL != 0),
                usize::from(f & !WHITE_FILL),
            );
            added[c].insert(f - OFFSET);
            stones[c].insert(f);
        }
        let s = self.layout.stride();
        let alone = |k: usize, c: usize| {
            let (orthogonal, diagonal) = masks(stones[c].read64(k - s - 1), s + 1, s);
            diagonal & !beside_either(orthogonal) != 0
        };
        if alone(k, color.index())
            || fills.iter().any(|&f| {
                alone(
                    usize::from(f & !WHITE_FILL),
                    usize::from(f & WHITE_FILL != 0),
                )
            })
        {
            return false;
        }
        self.stones = stones;
        self.refresh();
        for c in Color::ALL {
            let added = &added[c.index()];
            if added.is_empty() {
                continue;
            }
            let reach = self.reach[c.index()].get::<W>();
            let touching = self.layout.grow(&reach).or(&self.edges[c.index()][0].get());
            self.join(c, added.and(&touching));
        }
        self.to_move = color.opponent();
        true
    }

    /// The empty points and those that spoil or may start a territory, from the stones.
    #[inline]
    fn refresh(&mut self) {
        let occupied = self.stones[0].get::<W>().or(&self.stones[1].get());
        let empty = self.on_board.get::<W>().and_not(&occupied);
        self.empty.put(&empty);
        self.spoil
            .put(&empty.and_not(&self.layout.two_neighbours(&occupied)));
        self.touched.put(&empty.and(&self.layout.grow(&occupied)));
    }

    /// Adds to `color`'s set the stones `seeds` (of `color`, outside the set, each touching
    /// it or the first edge; bits of the rules' layout) and every stone linked to them; the
    /// colour has won when the set then reaches its second edge.
    #[inline]
    fn join(&mut self, color: Color, seeds: Bits<W>) {
        if seeds.is_empty() {
            return;
        }
        let c = color.index();
        let reach = self.reach[c].get::<W>();
        let free = self.stones[c].get::<W>().and_not(&reach);
        let mut region = seeds;
        loop {
            let grown = self.layout.grow(&region).and(&free);
            if grown == region {
                break;
            }
            region = grown;
        }
        let reach = reach.or(&region);
        self.reach[c].put(&reach);
        if reach.meets(&self.edges[c][1].get()) {
            // Black is named should one turn join both colours' chains, as the rules do.
            if self.winner.is_none() || color == Color::Black {
                self.winner = Some(color);
            }
        }
    }
}

/// The stones of a [`QuentinBoard`], read by point index ([`Point::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuentinStones {
    layout: Layout,
    stones: [Set; 2],
}

impl QuentinStones {
    /// Whether the point of index `index` holds a stone of `color`.
    #[must_use]
    #[inline]
    pub fn holds(&self, index: usize, color: Color) -> bool {
        let (row, col) = (index / STRIDE - 1, index % STRIDE - 1);
        self.stones[color.index()].contains(OFFSET + row * self.layout.stride() + col)
    }
}

#[cfg(test)]
mod tests;
