//! The board: an N×N grid of points, each empty or holding a stone of one colour.

use std::fmt;

use super::bits::{Bits, Layout};
use super::color::Color;
use super::point::{INDICES, MAX_SIZE, Point, STRIDE};

const WORDS: usize = INDICES.div_ceil(64);

/// What a cell of the padded grid holds: empty, a stone, or off the board.
pub(crate) const EMPTY: u8 = 0;
/// Off the board: the border around it and the rows and columns beyond its size.
pub(crate) const OFF: u8 = 3;

/// The cell value of a stone of `color`.
pub(crate) const fn stone(color: Color) -> u8 {
    color as u8 + 1
}

/// The diagonals (bit `n` for the `n`th of [`DIAGONAL_STEPS`]) with a neighbour of
/// `orthogonal` (bit `n` for the `n`th of [`ORTHOGONAL_STEPS`]) on one side or the other: the
/// `n`th diagonal lies between the `n`th orthogonal neighbour and the next.
#[inline]
pub(crate) const fn beside_either(orthogonal: u32) -> u32 {
    (orthogonal | orthogonal >> 1 | orthogonal << 3) & 0b1111
}

/// The diagonals with a neighbour of `orthogonal` on both sides (see [`beside_either`]).
#[inline]
pub(crate) const fn beside_both(orthogonal: u32) -> u32 {
    orthogonal & (orthogonal >> 1 | orthogonal << 3) & 0b1111
}

/// Whether a cell value is a stone.
pub(crate) const fn is_stone(cell: u8) -> bool {
    cell.wrapping_sub(1) < 2
}

/// The index steps to the four orthogonal neighbours, in the order of [`ORTHOGONAL`].
pub(crate) const ORTHOGONAL_STEPS: [isize; 4] = [STRIDE as isize, 1, -(STRIDE as isize), -1];

/// A set of points of one board, as a bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PointSet {
    words: [u64; WORDS],
}

impl PointSet {
    /// The empty set.
    #[must_use]
    pub const fn new() -> PointSet {
        PointSet { words: [0; WORDS] }
    }

    fn bit(p: Point) -> (usize, u64) {
        Self::index_bit(p.index())
    }

    fn index_bit(i: usize) -> (usize, u64) {
        (i / 64, 1 << (i % 64))
    }

    /// Adds the point of index `i`; returns whether it was new.
    pub(crate) fn insert_index(&mut self, i: usize) -> bool {
        let (w, b) = Self::index_bit(i);
        let new = self.words[w] & b == 0;
        self.words[w] |= b;
        new
    }

    /// Adds `p`; returns whether it was new.
    pub fn insert(&mut self, p: Point) -> bool {
        let (w, b) = Self::bit(p);
        let new = self.words[w] & b == 0;
        self.words[w] |= b;
        new
    }

    /// Removes `p`.
    pub fn remove(&mut self, p: Point) {
        let (w, b) = Self::bit(p);
        self.words[w] &= !b;
    }

    /// Whether `p` is in the set.
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        let (w, b) = Self::bit(p);
        self.words[w] & b != 0
    }

    /// How many points the set holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The points, row by row from `a1`.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.indices().map(Point::from_index)
    }

    /// The indices ([`Point::index`]) of the points, in increasing order.
    pub(crate) fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        set_bits(&self.words)
    }

    /// Adds every point of `other`.
    pub fn union_with(&mut self, other: &PointSet) {
        for (w, o) in self.words.iter_mut().zip(other.words) {
            *w |= o;
        }
    }
}

impl FromIterator<Point> for PointSet {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> PointSet {
        let mut set = PointSet::new();
        for p in iter {
            set.insert(p);
        }
        set
    }
}

impl fmt::Debug for PointSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|p| p.to_string()))
            .finish()
    }
}

/// The index steps to the four diagonal neighbours, in the order of [`DIAGONAL`].
pub(crate) const DIAGONAL_STEPS: [isize; 4] = [
    STRIDE as isize + 1,
    1 - STRIDE as isize,
    -(STRIDE as isize) - 1,
    STRIDE as isize - 1,
];

/// An N×N board. It knows nothing of any game's rules.
///
/// Inside, a padded grid (a "mailbox"): every point has an index ([`Point::index`]) and the
/// cells around and beyond the board hold an off-board mark, so that the hot loops of the rules
/// step to neighbours by adding a constant, with no bounds checks.
///
/// Beside it, the same board as bitboards ([`Bits`]): the stones of each colour and the empty
/// points, for the rules that look at whole regions at once (Quentin). A game that does not
/// need them turns them off ([`Board::keep_bitboards`]), and saves their upkeep on every
/// change.
#[derive(Clone)]
pub struct Board {
    size: u8,
    cells: [u8; INDICES],
    layout: Layout,
    /// By [`Color::index`].
    stones: [Bits; 2],
    /// Every point of the board, fixed: the empty points are those of neither colour's stones.
    on_board: Bits,
    /// By index: how many of the cell's orthogonal neighbours hold a stone (off-board cells
    /// count too, and are never read).
    around: [u8; INDICES],
    /// Whether `stones` and `around` follow the cells; when not, they stay empty.
    bitboards: bool,
}

// Boards are equal when their points are: the bitboards only mirror them.
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.cells == other.cells
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.size.hash(state);
        self.cells.hash(state);
    }
}

/// The four orthogonal directions as (column, row) steps.
pub const ORTHOGONAL: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// The four diagonal directions as (column, row) steps.
pub const DIAGONAL: [(isize, isize); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

impl Board {
    /// An empty board of side `size`.
    ///
    /// # Panics
    /// When `size` is 0 or above [`MAX_SIZE`]; sizes come validated from [`crate::Setup`].
    #[must_use]
    pub fn new(size: usize) -> Board {
        assert!((1..=MAX_SIZE).contains(&size), "board size out of range");
        let layout = Layout::new(size);
        let mut board = Board {
            size: size as u8,
            cells: [OFF; INDICES],
            layout,
            stones: [Bits::new(); 2],
            on_board: Bits::new(),
            around: [0; INDICES],
            bitboards: true,
        };
        for row in 0..size {
            for col in 0..size {
                let p = Point::new(col, row);
                board.cells[p.index()] = EMPTY;
                board.on_board.insert(layout.bit(p));
            }
        }
        board
    }

    /// The cell of index `i`: [`EMPTY`], [`OFF`] or a [`stone`].
    #[inline]
    pub(crate) fn cell(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// Which of the four orthogonal neighbours (bit `n` for the `n`th of [`ORTHOGONAL_STEPS`])
    /// and of the four diagonal neighbours (bit `n` for the `n`th of [`DIAGONAL_STEPS`]) of index
    /// `i` hold `cell`: eight loads and compares, no branch. The `n`th diagonal shares with `i`
    /// the `n`th orthogonal neighbour and the next.
    #[inline]
    pub(crate) fn neighbour_masks(&self, i: usize, cell: u8) -> (u32, u32) {
        let (mut orthogonal, mut diagonal) = (0, 0);
        for n in 0..4 {
            let o = i.wrapping_add_signed(ORTHOGONAL_STEPS[n]);
            let d = i.wrapping_add_signed(DIAGONAL_STEPS[n]);
            orthogonal |= u32::from(self.cells[o] == cell) << n;
            diagonal |= u32::from(self.cells[d] == cell) << n;
        }
        (orthogonal, diagonal)
    }

    /// A copy of every cell, by index: [`EMPTY`], [`OFF`] or a [`stone`].
    pub(crate) fn cells(&self) -> [u8; INDICES] {
        self.cells
    }

    /// The colour of the stone at index `i`, if any.
    #[inline]
    pub(crate) fn color_at(&self, i: usize) -> Option<Color> {
        match self.cells[i] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// Whether index `i` (a [`Point::index`]) holds a stone of `color`: one comparison, no
    /// branch (the search's all-moves-as-first update asks this of every child of every node it
    /// passes).
    ///
    /// # Panics
    ///
    /// When `i` is not an index of this board's padded array.
    #[inline]
    #[must_use]
    pub fn holds(&self, i: usize, color: Color) -> bool {
        self.cells[i] == stone(color)
    }

    /// The side of the board.
    #[must_use]
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// Whether `p` lies on this board.
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        p.col() < self.size() && p.row() < self.size()
    }

    /// What stands on `p` (nothing off the board).
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.color_at(p.index())
    }

    /// Puts a stone of `color` on `p`, or empties it with `None`.
    pub fn set(&mut self, p: Point, color: Option<Color>) {
        debug_assert!(self.contains(p));
        let cell = color.map_or(EMPTY, stone);
        if self.bitboards {
            self.follow(p, cell);
        }
        self.cells[p.index()] = cell;
    }

    /// Sets the cell of index `i` (a point of the board) to `cell` ([`stone`] or [`EMPTY`]) on a
    /// board that keeps no bitboards ([`Board::keep_bitboards`]: a game whose
    /// `PlacementRules::BITBOARDS` is false, as its positions' boards are): one store, with no
    /// test of the flag, nor the call that would follow it, whose registers the caller kept.
    #[inline]
    pub(crate) fn set_cell_without_bitboards(&mut self, i: usize, cell: u8) {
        debug_assert!(!self.bitboards, "the board keeps bitboards");
        self.cells[i] = cell;
    }

    /// Brings the bitboards and the counts of stones around to `p` holding `cell`, with no
    /// branch on the board: the cell itself is written after.
    #[inline]
    fn follow(&mut self, p: Point, cell: u8) {
        let i = p.index();
        let k = self.layout.bit(p);
        let [black, white] = &mut self.stones;
        black.assign(k, cell == stone(Color::Black));
        white.assign(k, cell == stone(Color::White));
        // +1, -1 or 0 stones around each neighbour, in wrapping arithmetic.
        let delta = u8::from(is_stone(cell)).wrapping_sub(u8::from(is_stone(self.cells[i])));
        for d in ORTHOGONAL_STEPS {
            let j = i.wrapping_add_signed(d);
            self.around[j] = self.around[j].wrapping_add(delta);
        }
    }

    /// The layout of this board's bitboards.
    #[inline]
    pub(crate) fn layout(&self) -> Layout {
        self.layout
    }

    /// Whether the board keeps its bitboards up to date (on for a new board). Turning them on
    /// computes them from the points.
    pub(crate) fn keep_bitboards(&mut self, keep: bool) {
        self.bitboards = keep;
        self.stones = [Bits::new(); 2];
        self.around = [0; INDICES];
        if keep {
            for p in self.points() {
                let i = p.index();
                let k = self.layout.bit(p);
                for d in ORTHOGONAL_STEPS {
                    self.around[i] += u8::from(is_stone(self.cells[i.wrapping_add_signed(d)]));
                }
                if let Some(c) = self.get(p) {
                    self.stones[c.index()].insert(k);
                }
            }
        }
    }

    /// The stones of `color`, as a bitboard kept up to date.
    #[inline]
    pub(crate) fn stones(&self, color: Color) -> &Bits {
        debug_assert!(self.bitboards, "the board keeps no bitboards");
        &self.stones[color.index()]
    }

    /// Every point of the board, as a bitboard.
    #[inline]
    pub(crate) fn on_board(&self) -> &Bits {
        &self.on_board
    }

    /// The empty points, as a bitboard: the points of the board without the stones kept.
    pub(crate) fn empty(&self) -> Bits {
        debug_assert!(self.bitboards, "the board keeps no bitboards");
        let [black, white] = &self.stones;
        self.on_board.and_not(&black.or(white))
    }

    /// The cell of index `i` and how many stones stand around it, for any `i`: past the padded
    /// grid (two steps beyond the board's edge, or below index 0 in wrapping arithmetic), the
    /// last cell of the grid, which is off the board. No branch: a clamp.
    #[inline]
    pub(crate) fn cell_and_around_clamped(&self, i: usize) -> (u8, u8) {
        debug_assert!(self.bitboards, "the board keeps no bitboards");
        let i = i.min(INDICES - 1);
        (self.cells[i], self.around[i])
    }

    /// How many of the orthogonal neighbours of index `i` hold a stone, kept up to date with
    /// the bitboards.
    #[inline]
    pub(crate) fn stones_around(&self, i: usize) -> u8 {
        debug_assert!(self.bitboards, "the board keeps no bitboards");
        self.around[i]
    }

    /// Whether `p` is empty.
    #[must_use]
    pub fn is_empty_at(&self, p: Point) -> bool {
        self.get(p).is_none()
    }

    /// Every point, row by row from `a1`.
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let n = self.size();
        (0..n).flat_map(move |row| (0..n).map(move |col| Point::new(col, row)))
    }

    /// The point one step from `p` in direction `(dc, dr)`, if on the board.
    #[must_use]
    pub fn step(&self, p: Point, direction: (isize, isize)) -> Option<Point> {
        p.offset(direction, self.size())
    }

    /// The orthogonal neighbours of `p` on the board.
    pub fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        ORTHOGONAL.into_iter().filter_map(move |d| self.step(p, d))
    }

    /// The diagonal neighbours of `p` on the board.
    pub fn diagonal_neighbours(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        DIAGONAL.into_iter().filter_map(move |d| self.step(p, d))
    }

    /// Whether `p` lies on the first of `color`'s two edges: the bottom row for Black, the left
    /// column for White.
    #[must_use]
    pub fn on_first_edge(&self, p: Point, color: Color) -> bool {
        match color {
            Color::Black => p.row() == 0,
            Color::White => p.col() == 0,
        }
    }

    /// Whether `p` lies on the second of `color`'s two edges: the top row for Black, the right
    /// column for White.
    #[must_use]
    pub fn on_second_edge(&self, p: Point, color: Color) -> bool {
        let last = self.size() - 1;
        match color {
            Color::Black => p.row() == last,
            Color::White => p.col() == last,
        }
    }

    /// How many stones of each colour stand on the board, Black first.
    #[must_use]
    pub fn count(&self) -> [usize; 2] {
        let mut counts = [0; 2];
        for p in self.points() {
            if let Some(c) = self.get(p) {
                counts[c.index()] += 1;
            }
        }
        counts
    }

    /// One string per row, top row first: `B`, `W` or `.` per point (the JSON board).
    #[must_use]
    pub fn rows(&self) -> Vec<String> {
        let n = self.size();
        (0..n)
            .rev()
            .map(|row| {
                (0..n)
                    .map(|col| self.get(Point::new(col, row)).map_or('.', Color::letter))
                    .collect()
            })
            .collect()
    }

    /// Reads a board from rows, top row first, with `B`, `W` and `.`; `|` may separate the rows
    /// in one string (`".B.|..W|..."`). For tests and examples.
    ///
    /// # Errors
    /// A message when the rows are not square or hold another character.
    pub fn from_rows(text: &str) -> Result<Board, String> {
        let rows: Vec<&str> = text
            .split(['|', '\n'])
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        let n = rows.len();
        if !(1..=MAX_SIZE).contains(&n) {
            return Err(format!("{n} rows is no board size"));
        }
        let mut board = Board::new(n);
        for (i, line) in rows.iter().enumerate() {
            let row = n - 1 - i;
            if line.chars().count() != n {
                return Err(format!(
                    "row {} has {} points, not {n}",
                    row + 1,
                    line.len()
                ));
            }
            for (col, ch) in line.chars().enumerate() {
                let stone = match ch {
                    'B' | 'b' => Some(Color::Black),
                    'W' | 'w' => Some(Color::White),
                    '.' => None,
                    other => return Err(format!("{other:?} is not B, W or .")),
                };
                board.set(Point::new(col, row), stone);
            }
        }
        Ok(board)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.rows().join("|"))
    }
}

/// The numbers of the bits set in `words` (bit `i` of word `w` is `w * 64 + i`), in
/// increasing order.
pub(crate) fn set_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(i)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let text = "..W.B|BBW.W|.....|WBBW.|.....";
        let board = Board::from_rows(text).unwrap();
        assert_eq!(board.rows().join("|"), text);
        assert_eq!(board.get(Point::parse("e5").unwrap()), Some(Color::Black));
        assert_eq!(board.get(Point::parse("a2").unwrap()), Some(Color::White));
        assert_eq!(board.count(), [5, 5]);
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let board = Board::new(3);
        let corner = Point::new(0, 0);
        assert_eq!(board.neighbours(corner).count(), 2);
        assert_eq!(board.neighbours(Point::new(1, 1)).count(), 4);
        assert_eq!(board.diagonal_neighbours(Point::new(2, 1)).count(), 2);
    }

    #[test]
    fn point_sets_iterate_in_order() {
        let pts = [Point::new(25, 25), Point::new(0, 0), Point::new(3, 2)];
        let set: PointSet = pts.into_iter().collect();
        assert_eq!(set.len(), 3);
        let back: Vec<Point> = set.iter().collect();
        assert_eq!(
            back,
            vec![Point::new(0, 0), Point::new(3, 2), Point::new(25, 25)]
        );
    }
}
