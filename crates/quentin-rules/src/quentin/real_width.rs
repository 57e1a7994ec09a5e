//! Quentin held at the board's real width, for random playouts: the stones in as few words as
//! the size needs (three at 13×13), rows of `size + 1` bits, and every test of a placement read
//! from a few words around it rather than from the padded grid of the largest board.
//!
//! [`Position`](crate::Position) keeps Quentin on the shared [`Board`](crate::Board), whose
//! padded grid, counts and change lists every other module reads. A playout needs much less: which
//! placements are legal, what they fill, and who has won. [`QuentinBoard`] keeps only that, and
//! answers as the rules do (the tests below play the two side by side on random games at every
//! size): a placement, the territories it closes filled, refused when a stone of the turn then
//! stands diagonal to a like-coloured stone with no like-coloured neighbour shared.
//!
//! Bit `64 + row * (size + 1) + col` is the point `(col, row)`: a word of nothing before the
//! board and two after it, so that the few words around any point are read with no bounds to
//! test, and the spare bit after each row keeps a row's end from touching the next row's start.

mod window;

use crate::bits::{BIT_WORDS, Bits, Layout};
use crate::point::STRIDE;
use crate::{Color, Point};
use window::{ALONE, AROUND, Gather, ORTHOGONAL, Set, Window, beside, window};

/// The bit of the point `(0, 0)`.
const OFFSET: usize = 64;
/// The bit that marks a White fill in [`QuentinBoard::place`]'s list.
const WHITE_FILL: u16 = 1 << 15;

/// A fill of `color` as [`QuentinBoard::place`] lists it: bit 15 set for White.
#[inline]
fn fill_flag(color: Color) -> u16 {
    match color {
        Color::Black => 0,
        Color::White => WHITE_FILL,
    }
}

/// A Quentin position at the real width of its board, `W` words (see the module comment):
/// the stones, who is to move and who has won, and what the placements need kept.
#[derive(Clone, Debug)]
pub struct QuentinBoard<const W: usize, const N: usize> {
    /// The layout: rows of the board's side and a spare bit.
    layout: Layout,
    /// By [`Color::index`].
    stones: [Set<N>; 2],
    empty: Set<N>,
    /// The points with at least one stone around (and some bits off the board): an empty one
    /// may be closed into a territory by a stone beside it.
    one: Set<N>,
    /// The points with at least two stones around (and some bits off the board): a region
    /// holding an empty point outside this set is no territory.
    two: Set<N>,
    /// By colour: its stones that a chain links to its first edge.
    reach: [Set<N>; 2],
    /// By colour: its first edge's and its second edge's points.
    edges: [[Set<N>; 2]; 2],
    /// The orthogonal neighbours of bit `s + 1` of a window (its centre, when read from the
    /// row below and the column left of a point).
    around: u64,
    gather: Gather,
    to_move: Color,
    winner: Option<Color>,
}

/// A [`QuentinBoard`] of as few words as the board needs; see [`QuentinBoards::of`].
///
/// The variants differ in size as the boards do: a playout makes one on the stack, where a box
/// would cost an allocation a playout.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum QuentinBoards {
    /// Up to 10×10.
    Two(QuentinBoard<2, 5>),
    /// 11×11 to 13×13.
    Three(QuentinBoard<3, 6>),
    /// 14×14 and 15×15.
    Four(QuentinBoard<4, 7>),
    /// 16×16 to 19×19.
    Six(QuentinBoard<6, 9>),
    /// 20×20 to 26×26.
    Eleven(QuentinBoard<11, 14>),
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

impl<const W: usize, const N: usize> QuentinBoard<W, N> {
    /// The position of `board` with `to_move` to move, which no chain has won yet.
    fn new(board: &crate::Board, to_move: Color) -> QuentinBoard<W, N> {
        let n = board.size();
        let s = n + 1;
        let mut q = QuentinBoard {
            layout: Layout::new(n),
            stones: [Set::EMPTY; 2],
            empty: Set::EMPTY,
            one: Set::EMPTY,
            two: Set::EMPTY,
            reach: [Set::EMPTY; 2],
            edges: [[Set::EMPTY; 2]; 2],
            around: 1 << (2 * s + 1) | 1 << (s + 2) | 1 << 1 | 1 << s,
            gather: Gather::new(s),
            to_move,
            winner: None,
        };
        // The board's own sets are in this layout, from bit 0: one word further on here.
        let copy = |bits: &crate::bits::Bits| {
            let mut set = Set::EMPTY;
            set.0[1..=W].copy_from_slice(&bits.words()[..W]);
            set
        };
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
        q.refresh(&board.on_board().resize());
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
    pub fn empty_bits(&self) -> impl Iterator<Item = u16> + use<W, N> {
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
            stones: self.stones.map(|set| set.get::<W>().resize()),
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
        let c = color.index();
        // The 3×3 around `k`, from its south-west neighbour on.
        let near = k - s - 1;
        let own = self.stones[c].read64(near);
        // The window from two rows below and two columns left of `k`: `k` is its bit `o`.
        let (b, o) = (k - 2 * s - 2, 2 * s + 2);
        // The neighbours whose regions may be territories once `k` holds a stone: empty, a
        // stone around already, and none of their other neighbours spoiling a territory
        // (empty with fewer than two stones around).
        let empty = T::read(&self.empty, b) & !T::single(o);
        let spoil = empty & !T::read(&self.two, b);
        let ok = empty & T::read(&self.one, b) & !beside(spoil, s);
        let starts = self.around_of((ok >> (s + 1)).low64()) & ORTHOGONAL;
        if starts != 0 {
            self.fills::<T>(k, u32::from(starts), empty, fills);
            if !fills.is_empty() {
                return self.place_filling(k, fills);
            }
        }
        if self.around_of(own) & ALONE != 0 {
            return false;
        }
        self.stones[c].insert(k);
        self.settle(k);
        // The stone joins its colour's set when it touches it or the first edge; with no stone
        // of its own around outside the set, alone.
        let reach = self.reach[c].read64(near);
        if reach & self.around != 0 || self.edges[c][0].contains(k) {
            if own & !reach & self.around == 0 {
                self.reach[c].insert(k);
                if self.edges[c][1].contains(k) {
                    self.won(color);
                }
            } else {
                self.join(color, Bits::single(k - OFFSET));
            }
        }
        self.to_move = color.opponent();
        true
    }

    /// Pushes onto `fills` the territories a stone of the side to move on `k` closes, for the
    /// neighbours `starts` (as [`crate::quentin`]'s `fill_territories`); `empty` is the window of
    /// the empty points but `k` from two rows below and two columns left of `k`.
    fn fills<T: Window>(&self, k: usize, starts: u32, empty: T, fills: &mut Vec<u16>) {
        let s = self.layout.stride();
        let steps = [s as isize, 1, -(s as isize), -1];
        // A start none of whose other neighbours is empty is a territory of one point.
        let open = self.around_of((beside(empty, s) >> (s + 1)).low64());
        let singles = starts & !u32::from(open);
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
        // The sets as `settle` leaves them once `k` holds the stone: `k` no longer empty, and
        // its neighbours with a stone around already now with two.
        let near = k - s - 1;
        let centre = 1 << (s + 1);
        let empty = self.empty.get_without::<W>(near, centre);
        let two = window::<W>(near, self.one.read64(near) & self.around);
        let mut spoils = empty.and_not(&self.two.get::<W>().or(&two));
        while todo != 0 {
            let n = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let start = k.wrapping_add_signed(steps[n]);
            if singles & 1 << n != 0 {
                self.fill_single(start, fills);
            } else if !spoils.contains(start - OFFSET) {
                // The region grown from the start and its empty neighbours, a step sooner.
                // Those neighbours spoil no territory (`starts` holds only such starts), but one
                // may lie in a region an earlier start found to hold spoils: then the start's
                // region holds them too, and the first step of the flood tells.
                let from = start - s - 1;
                let beside_k = 1 << (k + s + 1 - start);
                let seed = self.empty.read64(from) & self.around & !beside_k | centre;
                let seed = window::<W>(from, seed);
                match super::region_around(layout, seed, &empty, &spoils) {
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
        let c = self.to_move.index();
        // A fill's bit and colour index.
        let split = |f: u16| {
            (
                usize::from(f & !WHITE_FILL),
                usize::from(f & WHITE_FILL != 0),
            )
        };
        let mut added = [Bits::<W>::new(); 2];
        self.stones[c].insert(k);
        added[c].insert(k - OFFSET);
        for &f in fills {
            let (j, fc) = split(f);
            self.stones[fc].insert(j);
            added[fc].insert(j - OFFSET);
        }
        // Every stone asked, with no early way out: fewer branches to guess.
        let mut alone = self.alone(k, c);
        for &f in fills {
            let (j, fc) = split(f);
            alone |= self.alone(j, fc);
        }
        if alone {
            for (stones, added) in self.stones.iter_mut().zip(&added) {
                stones.put(&stones.get::<W>().and_not(added));
            }
            return false;
        }
        self.settle(k);
        for &f in fills {
            self.settle(split(f).0);
        }
        for color in Color::ALL {
            let added = &added[color.index()];
            if added.is_empty() {
                continue;
            }
            let reach = self.reach[color.index()].get::<W>();
            let touching = self
                .layout
                .grow(&reach)
                .or(&self.edges[color.index()][0].get());
            self.join(color, added.and(&touching));
        }
        self.to_move = self.to_move.opponent();
        true
    }

    /// Whether the stone of colour index `c` on `j` stands diagonal to one of its own with no
    /// like-coloured neighbour shared.
    #[inline]
    fn alone(&self, j: usize, c: usize) -> bool {
        let near = j - self.layout.stride() - 1;
        self.around_of(self.stones[c].read64(near)) & ALONE != 0
    }

    /// What the neighbourhood in `y` holds ([`AROUND`]): `y` a set's bits read from a point's
    /// south-west neighbour on.
    #[inline]
    fn around_of(&self, y: u64) -> u8 {
        AROUND[self.gather.index(y, self.layout.stride())]
    }

    /// A stone now stands on `k`, empty before: it leaves the empty points, and its neighbours
    /// gain a stone around.
    #[inline]
    fn settle(&mut self, k: usize) {
        let b = k - self.layout.stride() - 1;
        let one = self.one.read64(b);
        self.empty.remove(k);
        self.two.add_at(b, one & self.around);
        self.one.add_at(b, self.around);
    }

    /// The empty points of `on_board` (every point of the board) and the counts of stones
    /// around, from the stones.
    fn refresh(&mut self, on_board: &Bits<W>) {
        let occupied = self.stones[0].get::<W>().or(&self.stones[1].get());
        self.empty.put(&on_board.and_not(&occupied));
        self.one
            .put(&self.layout.grow(&occupied).and_not(&occupied));
        self.two.put(&self.layout.two_neighbours(&occupied));
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
            self.won(color);
        }
    }

    /// `color`'s chain joins its two edges.
    #[inline]
    fn won(&mut self, color: Color) {
        // Black is named should one turn join both colours' chains, as the rules do.
        if self.winner.is_none() || color == Color::Black {
            self.winner = Some(color);
        }
    }
}

/// The stones of a [`QuentinBoard`], by colour, read by point index ([`Point::index`]) or a row
/// at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuentinStones {
    layout: Layout,
    /// By [`Color::index`], as the rules' bitboards.
    stones: [Bits; 2],
}

impl QuentinStones {
    /// Whether the point of index `index` holds a stone of `color`: never for an index off the
    /// board (the padded grid's border, or a swap's index 0), as [`crate::Board::holds`].
    #[must_use]
    #[inline]
    pub fn holds(&self, index: usize, color: Color) -> bool {
        let (row, col) = (
            (index / STRIDE).wrapping_sub(1),
            (index % STRIDE).wrapping_sub(1),
        );
        let size = self.layout.stride() - 1;
        row < size
            && col < size
            && self.stones[color.index()].contains(self.layout.bit(Point::new(col, row)))
    }

    /// The stones of `color` on row `row` (counted from 0), column `c` as bit `c`.
    #[must_use]
    #[inline]
    pub fn row(&self, row: usize, color: Color) -> u64 {
        let k = self.layout.bit(Point::new(0, row));
        let words = self.stones[color.index()].words();
        let (i, shift) = ((k / 64).min(BIT_WORDS - 1), k % 64);
        let next = words.get(i + 1).copied().unwrap_or(0);
        let size = self.layout.stride() - 1;
        (words[i] >> shift | next << 1 << (63 - shift)) & ((1 << size) - 1)
    }
}

#[cfg(test)]
mod tests;
