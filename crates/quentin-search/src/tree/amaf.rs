//! The AMAF update by the points of the playout's end: each child placing where its mover's
//! colour stands when the playout ends gains a visit and the result. Rather than ask the end
//! board about every child of every node of the path (225 a node on Brique 15×15, a coin flip
//! each), the points of each colour are listed once a playout, and each node finds the child
//! placing on such a point through its map from the board's points to its children.

use quentin_rules::{Color, Point};

use super::edge::Amaf;

/// A node's map from the points of the board to its children, when it has no children that
/// place (Quint's move phase) or is not expanded: no map.
pub(super) const NO_MAP: u32 = u32::MAX;

/// In a map, a point no child places on.
const NO_CHILD: u16 = u16::MAX;

/// The length of the lists of the points of each colour: a power of two above the points of
/// the largest board, so that an index masked by it needs no bounds check.
const ENDS: usize = 1024;
const _: () = assert!(quentin_rules::MAX_SIZE * quentin_rules::MAX_SIZE <= ENDS);

/// The maps of a tree's nodes from points to children, and the points of each colour at the
/// end of the last playout. Points are numbered row by row (`row * size + col`), so that a map
/// has an entry a point of the board, not a cell of the padded grid.
#[derive(Clone, Debug)]
pub(super) struct Ranks {
    /// The board's side, for which `points` and `numbers` are made (0 before the first map).
    size: usize,
    /// The grid index ([`Point::index`]) of each point, by its number.
    points: Vec<u16>,
    /// The number of each point, by its grid index ([`NO_CHILD`] off the board).
    numbers: Vec<u16>,
    /// The maps, one after another, an entry a point: the rank of the child placing on the
    /// point among its siblings, [`NO_CHILD`] for none.
    maps: Vec<u16>,
    /// The numbers of the points holding Black and White at the end of the last playout (the
    /// first `ends_len` entries of each).
    ends: Box<[[u16; ENDS]; 2]>,
    ends_len: [usize; 2],
}

impl Default for Ranks {
    fn default() -> Ranks {
        Ranks {
            size: 0,
            points: Vec::new(),
            numbers: Vec::new(),
            maps: Vec::new(),
            ends: Box::new([[0; ENDS]; 2]),
            ends_len: [0; 2],
        }
    }
}

impl Ranks {
    /// Maps with no map yet, on the same board.
    pub(super) fn emptied(&self) -> Ranks {
        Ranks {
            maps: Vec::new(),
            ..self.clone()
        }
    }

    /// Adds the map of a node whose children place on the grid indices `children` (by rank,
    /// [`super::NO_POINT`] for an action that places nothing) on a board of side `size`;
    /// returns where it starts, or [`NO_MAP`] when no child places.
    pub(super) fn add(&mut self, size: usize, children: &[u16]) -> u32 {
        if self.size != size {
            self.set_size(size);
        }
        let start = self.maps.len();
        let mut any = false;
        self.maps.resize(start + self.points.len(), NO_CHILD);
        for (rank, &index) in children.iter().enumerate() {
            if let Some(&number) = self.numbers.get(usize::from(index))
                && number != NO_CHILD
            {
                self.maps[start + usize::from(number)] = rank as u16;
                any = true;
            }
        }
        if !any {
            self.maps.truncate(start);
            return NO_MAP;
        }
        start as u32
    }

    /// Copies the map at `map` of `self` to the end of `into` (the same board), for a tree
    /// that keeps a subtree; returns where it starts there.
    pub(super) fn copy_to(&self, map: u32, into: &mut Ranks) -> u32 {
        if map == NO_MAP {
            return NO_MAP;
        }
        let start = into.maps.len();
        let map = map as usize;
        into.maps
            .extend_from_slice(&self.maps[map..map + self.points.len()]);
        start as u32
    }

    fn set_size(&mut self, size: usize) {
        debug_assert!(self.maps.is_empty(), "a tree's board changed size");
        self.size = size;
        self.points = (0..size * size)
            .map(|n| Point::new(n % size, n / size).index() as u16)
            .collect();
        let end = self.points.iter().map(|&i| usize::from(i) + 1).max();
        self.numbers = vec![NO_CHILD; end.unwrap_or(0)];
        for (number, &index) in self.points.iter().enumerate() {
            self.numbers[usize::from(index)] = number as u16;
        }
    }

    /// Lists the points of each colour at the end of a playout, as `holds` tells them.
    pub(super) fn read_end(&mut self, holds: impl Fn(usize, Color) -> bool) {
        let held = self.points.iter().map(|&index| {
            let index = usize::from(index);
            (holds(index, Color::Black), holds(index, Color::White))
        });
        self.ends_len = list_ends(&mut self.ends, held);
    }

    /// [`Ranks::read_end`] a row at a time: `row(r, color)` holds the stones of `color` on row
    /// `r`, column `c` as bit `c`.
    pub(super) fn read_end_rows(&mut self, row: impl Fn(usize, Color) -> u64) {
        let size = self.size;
        let held = (0..size).flat_map(|r| {
            let (black, white) = (row(r, Color::Black), row(r, Color::White));
            (0..size).map(move |c| (black >> c & 1 != 0, white >> c & 1 != 0))
        });
        self.ends_len = list_ends(&mut self.ends, held);
    }

    /// The AMAF update of a node with map `map` and children `amaf` (their AMAF results, and
    /// their AMAF visits as floating-point numbers), where `color` moves: each child placing
    /// where `color` stood at the end of the playout ([`Ranks::read_end`]) gains a visit and
    /// `result`.
    pub(super) fn update(
        &self,
        map: u32,
        color: Color,
        (amaf, amaf_visits): (&mut [Amaf], &mut [f32]),
        result: f32,
    ) {
        if map == NO_MAP {
            return;
        }
        let map = &self.maps[map as usize..map as usize + self.points.len()];
        let side = match color {
            Color::Black => 0,
            Color::White => 1,
        };
        let amaf_visits = &mut amaf_visits[..amaf.len()];
        for &number in &self.ends[side][..self.ends_len[side]] {
            let rank = usize::from(map[usize::from(number)]);
            // A point no child places on was taken before the node: seldom, so the branch is
            // well predicted.
            if let (Some(child), Some(visits)) = (amaf.get_mut(rank), amaf_visits.get_mut(rank)) {
                child.visits += 1;
                child.wins += result;
                *visits = child.visits as f32;
            }
        }
    }
}

/// Lists in `ends` the numbers of the points holding Black and of those holding White, from
/// whether each point does, `(black, white)` in the order of the numbers; returns how many of
/// each.
///
/// Without a branch: whether a point holds a colour is a coin flip, which a branch would
/// mispredict half the time. Every point is written to both lists, and only the count of the
/// list it belongs to moves on.
#[inline]
fn list_ends(ends: &mut [[u16; ENDS]; 2], held: impl Iterator<Item = (bool, bool)>) -> [usize; 2] {
    let [black, white] = ends;
    let (mut blacks, mut whites) = (0, 0);
    for (number, (b, w)) in held.enumerate() {
        // The counts stay below the points, and so below `ENDS`: the mask changes nothing.
        black[blacks & (ENDS - 1)] = number as u16;
        white[whites & (ENDS - 1)] = number as u16;
        blacks += usize::from(b);
        whites += usize::from(w);
    }
    [blacks, whites]
}

#[cfg(test)]
mod tests {
    use crate::policy::{self, Policy};
    use crate::rng::Rng;
    use crate::tree::{Params, ROOT, Tree};
    use quentin_rules::{Color, Game, Position, Setup};

    /// The children the update finds through a node's map are those whose point holds the
    /// colour at the end, child by child, on boards with stones placed before the node (which
    /// have no child) and a swap (which places nothing).
    #[test]
    fn the_update_hits_the_children_whose_point_holds_the_colour() {
        for (game, size) in [(Game::Brique, 7), (Game::Konobi, 9), (Game::Quentin, 8)] {
            let mut rng = Rng::new(11);
            let mut checked = 0;
            for _ in 0..20 {
                let mut pos: Position = Setup {
                    size,
                    ..Setup::new(game)
                }
                .start()
                .unwrap();
                for _ in 0..rng.below(6) {
                    let actions = pos.legal_actions();
                    if pos.is_over() || actions.is_empty() {
                        break;
                    }
                    pos.play(actions[rng.below(actions.len())]).unwrap();
                }
                let mut tree = Tree::new(100_000, Params::default());
                if pos.is_over() || !tree.expand(ROOT, &pos) {
                    continue;
                }
                let mut end = pos.clone();
                let done = policy::playout(&mut end, Policy::Search, &mut rng);
                tree.read_end(&end, Some(&done));
                checked += 1;
                let range = tree.children(ROOT);
                let (first, last) = (range.start as usize, range.end as usize);
                for color in [Color::Black, Color::White] {
                    let mut amaf = vec![super::Amaf::default(); last - first];
                    let mut amaf_visits = vec![0.0; last - first];
                    let map = tree.nodes[ROOT as usize].ranks;
                    tree.ranks
                        .update(map, color, (&mut amaf, &mut amaf_visits), 0.75);
                    for (k, c) in (first..last).enumerate() {
                        let index = usize::from(tree.edges.amaf_index[c]);
                        let hit = done.holds(&end, index, color);
                        let expected = super::Amaf {
                            visits: u32::from(hit),
                            wins: if hit { 0.75 } else { 0.0 },
                        };
                        assert_eq!(amaf[k], expected, "{game:?} {:?}", tree.nodes[c].action);
                        assert_eq!(amaf_visits[k], expected.visits as f32);
                    }
                }
            }
            assert!(checked >= 15, "{game:?}: {checked}");
        }
    }
}
