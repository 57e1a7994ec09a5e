//! Decisive points of the connection games: the empty points where a placement wins at once,
//! for the computer player's tactics (a playout plays such a win, or blocks the opponent's only
//! one; the search proves them where it expands a node).
//!
//! Found from the chains, not by trying every empty point: a placement wins when the stones it
//! adds join a chain touching the colour's first edge (or the edge itself) to one touching the
//! second. The chains touching each edge are flooded once, the points linked to them marked, and
//! only the points marked from both edges (the few candidates) are tried by a real placement,
//! which settles legality and the game's own consequences. Brique's fills are squares next to
//! the placement, so its candidates are the points next to both marks as well. Quentin's
//! territory fills can reach far: [`Position::winning_points`] also tries every placement that
//! fills a territory, [`Position::connecting_points`] (for playouts) does not.

use super::board::{Board, EMPTY, ORTHOGONAL_STEPS, PointSet};
use super::chains::Chains;
use super::color::Color;
use super::connection::{PlacementRules, spread, winner};
use super::point::{INDICES, Point};
use super::{Change, Position, State};
use super::{brique::Brique, konobi::Konobi, quentin::Quentin};

/// Words of a [`Marks`].
const WORDS: usize = INDICES.div_ceil(64);

/// A set of board indices (of the padded grid, [`Point::index`]), off-board cells included.
#[derive(Clone, Copy)]
struct Marks([u64; WORDS]);

impl Marks {
    const fn new() -> Marks {
        Marks([0; WORDS])
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn and(&self, other: &Marks) -> Marks {
        let mut out = *self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w &= o;
        }
        out
    }

    /// The marks and their orthogonal neighbours (wrapping words: the padding absorbs it).
    fn grown(&self) -> Marks {
        let mut out = *self;
        for i in self.indices() {
            for d in ORTHOGONAL_STEPS {
                let j = i.wrapping_add_signed(d);
                if j < INDICES {
                    out.insert(j);
                }
            }
        }
        out
    }

    fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
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
}

/// The indices of the points of `color`'s first (`second == false`) or second edge.
fn edge(size: usize, color: Color, second: bool) -> impl Iterator<Item = usize> {
    let line = if second { size - 1 } else { 0 };
    (0..size).map(move |k| match color {
        Color::Black => Point::new(k, line).index(),
        Color::White => Point::new(line, k).index(),
    })
}

/// The points a stone of `color` would link to a chain touching the edge (first or `second`):
/// the edge's own points and the points linked (by `R::LINKS`) to a stone of such a chain.
fn near_edge<R: PlacementRules>(board: &Board, color: Color, second: bool) -> Marks {
    let mut chains = PointSet::new();
    let mut near = Marks::new();
    for i in edge(board.size(), color, second) {
        near.insert(i);
        if board.holds(i, color) {
            spread(board, &mut chains, i, R::LINKS, |_| false);
        }
    }
    for i in chains.indices() {
        for &d in R::LINKS {
            near.insert(i.wrapping_add_signed(d));
        }
    }
    near
}

/// Which placements beyond the local candidates must be tried as well.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fills {
    /// A placement adds its own stone only (Konobi).
    None,
    /// It may fill the squares next to it (Brique).
    Around,
    /// It may fill territories anywhere (Quentin), tried when `far` is set.
    Territories { far: bool },
}

/// The empty points where a stone of `color` wins at once, into `out` (cleared first), by
/// index order.
fn winning<R: PlacementRules>(board: &Board, color: Color, fills: Fills, out: &mut Vec<Point>) {
    out.clear();
    let mut candidates =
        near_edge::<R>(board, color, false).and(&near_edge::<R>(board, color, true));
    if fills == Fills::Around {
        candidates = near_edge::<R>(board, color, false)
            .grown()
            .and(&near_edge::<R>(board, color, true).grown());
    }
    let mut trial = board.clone();
    let mut changes = Vec::new();
    for i in candidates.indices() {
        if board.cell(i) == EMPTY && wins::<R>(board, &mut trial, i, color, &mut changes) {
            out.push(Point::from_index(i));
        }
    }
    if fills == (Fills::Territories { far: true }) {
        let before = out.len();
        for p in board.points() {
            let i = p.index();
            if board.cell(i) != EMPTY || out[..before].contains(&p) {
                continue;
            }
            changes.clear();
            let fills = R::preview(board, p, color, &mut changes).is_ok() && changes.len() > 1;
            if fills && wins::<R>(board, &mut trial, i, color, &mut changes) {
                out.push(p);
            }
        }
        out.sort_by_key(|p| p.index());
    }
}

/// Whether a stone of `color` on the empty point of index `i` is legal and wins at once, tried
/// on `trial` (a scratch board, overwritten).
fn wins<R: PlacementRules>(
    board: &Board,
    trial: &mut Board,
    i: usize,
    color: Color,
    changes: &mut Vec<Change>,
) -> bool {
    trial.clone_from(board);
    changes.clear();
    if R::place(trial, Point::from_index(i), color, changes).is_err() {
        return false;
    }
    let chains = Chains::build::<R>(trial);
    winner::<R>(trial, &chains).and_then(|o| o.winner()) == Some(color)
}

impl Position {
    /// The empty points where a stone of `color` would win the game at once, were it `color`'s
    /// turn: legal placements after which a chain of `color` joins its two edges, through the
    /// game's fills included (Brique's squares, Quentin's territories). In index order (row by
    /// row from `a1`); none once the game is over, and none in Quint.
    ///
    /// ```
    /// use quentin_rules::{Board, Color, Game, Point, Setup};
    /// // Brique 3×3: b1 joins Black's b2 and b3 to the bottom edge.
    /// let board = Board::from_rows(".B.|.B.|...").unwrap();
    /// let pos = Setup::new(Game::Brique).start_from(board, Color::White).unwrap();
    /// let wins = pos.winning_points(Color::Black);
    /// assert!(wins.contains(&Point::parse("b1").unwrap()));
    /// ```
    #[must_use]
    pub fn winning_points(&self, color: Color) -> Vec<Point> {
        let mut out = Vec::new();
        self.decisive_points(color, true, &mut out);
        out
    }

    /// [`Position::winning_points`] into `out` (cleared first), without Quentin's wins by a
    /// territory filled away from the chains (which it finds only when the placement is itself
    /// linked to chains touching both edges): the cheap test of random playouts, which run it
    /// twice a turn. The same as `winning_points` in Konobi and Brique.
    pub fn connecting_points(&self, color: Color, out: &mut Vec<Point>) {
        self.decisive_points(color, false, out);
    }

    fn decisive_points(&self, color: Color, far: bool, out: &mut Vec<Point>) {
        out.clear();
        if self.is_over() {
            return;
        }
        match &self.state {
            State::Quentin(g) => {
                winning::<Quentin>(g.board(), color, Fills::Territories { far }, out);
            }
            State::Konobi(g) => winning::<Konobi>(g.board(), color, Fills::None, out),
            State::Brique(g) => winning::<Brique>(g.board(), color, Fills::Around, out),
            State::Quint(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Action, Game, Setup};

    /// A small deterministic generator for the tests (xorshift).
    struct Xorshift(u64);

    impl Xorshift {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// The winning points by trying every empty point, with `color` to move.
    fn by_trial(pos: &Position, color: Color) -> Vec<Point> {
        if pos.is_over() {
            return Vec::new();
        }
        let Ok(start) = Setup::new(pos.game()).start_from(pos.board().clone(), color) else {
            return Vec::new();
        };
        pos.board()
            .points()
            .filter(|&p| pos.board().is_empty_at(p))
            .filter(|&p| {
                let mut trial = start.clone();
                trial.play(Action::Place(p)).is_ok()
                    && trial.outcome().and_then(|o| o.winner()) == Some(color)
            })
            .collect()
    }

    #[test]
    fn winning_points_match_trial_placement_on_random_positions() {
        let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut seen = [0usize; 3];
        // Quentin's wins by a territory filled away from the chains, which only the full test
        // finds.
        let mut far = 0;
        for (g, game) in [Game::Quentin, Game::Konobi, Game::Brique]
            .into_iter()
            .enumerate()
        {
            for size in [3, 4, 5, 7, 8, 9, 11, 13, 14, 19, 26] {
                let games = if size > 13 { 6 } else { 25 };
                for _ in 0..games {
                    let setup = Setup {
                        size,
                        pie: false,
                        ..Setup::new(game)
                    };
                    let mut pos = setup.start().unwrap();
                    // Look at positions all along the game, the last ones most.
                    while !pos.is_over() {
                        let check = rng.below(4) == 0 || pos.board().count()[0] * 3 > size * size;
                        if check {
                            for color in Color::ALL {
                                let fast = pos.winning_points(color);
                                assert_eq!(fast, by_trial(&pos, color), "{game} {size}\n{pos:?}");
                                seen[g] += fast.len();
                                let mut cheap = Vec::new();
                                pos.connecting_points(color, &mut cheap);
                                assert!(cheap.iter().all(|p| fast.contains(p)), "{game} {size}");
                                if game != Game::Quentin {
                                    assert_eq!(cheap, fast, "{game} {size}");
                                }
                                far += fast.len() - cheap.len();
                            }
                        }
                        let legal = pos.legal_actions();
                        pos.play(legal[rng.below(legal.len())]).unwrap();
                    }
                    assert!(pos.winning_points(Color::Black).is_empty());
                }
            }
        }
        // The positions had winning points to find, in every game.
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
        assert!(far > 0, "no win by a far territory among {seen:?}");
    }
}
