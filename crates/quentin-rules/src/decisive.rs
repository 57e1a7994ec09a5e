//! Decisive points of the connection games: the empty points where a placement wins at once,
//! for the computer player's tactics (the search proves with them where it expands a node; a
//! playout may play such a win, or block the opponent's only one).
//!
//! Found from the chains, not by trying every empty point: a placement wins when the stones it
//! adds join a chain touching the colour's first edge (or the edge itself) to one touching the
//! second. The chains touching each edge are flooded, the points linked to them marked, and
//! only the points marked from both edges (the few candidates) are checked, by the game's
//! preview of the placement, which settles legality and tells the stones it adds. Brique's
//! fills are squares next to the placement, so its candidates are the points next to both marks
//! as well. Quentin's territory fills can reach far: a placement that fills one is played out on
//! a copy, and [`Position::winning_points`] also tries every placement that fills a territory
//! away from the candidates, which [`Position::connecting_points`] and [`Threats`] do not.

use super::board::{Board, EMPTY, set_bits};
use super::color::Color;
use super::connection::{PlacementRules, spread};
use super::point::{INDICES, Point, STRIDE};
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

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn and(&self, other: &Marks) -> Marks {
        let mut out = *self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w &= o;
        }
        out
    }

    /// The marks and their orthogonal neighbours, by shifts of the whole set: a step along a
    /// row is one bit, a step across one [`STRIDE`] (the padding absorbs what runs off a row).
    /// Only the first `words` words, those of the board's points, are read and written.
    fn grown(&self, words: usize) -> Marks {
        let a = &self.0;
        let mut out = *self;
        let n = words.min(WORDS);
        for w in 0..n {
            let below = if w > 0 { a[w - 1] } else { 0 };
            let above = if w + 1 < WORDS { a[w + 1] } else { 0 };
            out.0[w] |= (a[w] << 1 | below >> 63)
                | (a[w] >> 1 | above << 63)
                | (a[w] << STRIDE | below >> (64 - STRIDE))
                | (a[w] >> STRIDE | above << (64 - STRIDE));
        }
        out
    }

    fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        set_bits(&self.0)
            // Shifts may mark past the grid's last index, where no point lies.
            .take_while(|&i| i < INDICES)
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

/// The stones of one colour whose chain touches one of its edges, and the points a stone of
/// that colour would link to them.
#[derive(Clone, Copy)]
struct Reach {
    /// The stones of the chains touching the edge.
    stones: Marks,
    /// The edge's points and every point linked (by the game's links) to one of `stones`.
    near: Marks,
}

impl Reach {
    /// The reach of `color`'s first (`second == false`) or second edge on `board`.
    fn build(
        board: &Board,
        links: &[isize],
        color: Color,
        second: bool,
        stack: &mut Vec<u16>,
    ) -> Reach {
        let mut reach = Reach {
            stones: Marks::new(),
            near: Marks::new(),
        };
        for i in edge(board.size(), color, second) {
            reach.near.insert(i);
        }
        for i in edge(board.size(), color, second) {
            reach.join(board, links, i, color, stack);
        }
        reach
    }

    /// Takes in the stone of `color` on index `i` (when it stands in `near` and is new) and
    /// every stone linked to it, marking their links.
    fn join(
        &mut self,
        board: &Board,
        links: &[isize],
        i: usize,
        color: Color,
        stack: &mut Vec<u16>,
    ) {
        if !board.holds(i, color) || !self.near.contains(i) || self.stones.contains(i) {
            return;
        }
        stack.clear();
        stack.push(i as u16);
        self.stones.insert(i);
        while let Some(i) = stack.pop() {
            let i = usize::from(i);
            for &d in links {
                let j = i.wrapping_add_signed(d);
                self.near.insert(j);
                if board.holds(j, color) && !self.stones.contains(j) {
                    self.stones.insert(j);
                    stack.push(j as u16);
                }
            }
        }
    }
}

/// Which placements beyond the local candidates must be tried as well.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fills {
    /// A placement adds its own stone only (Konobi).
    None,
    /// It may fill the squares next to it (Brique).
    Around,
    /// It may fill territories anywhere (Quentin).
    Territories,
}

/// The winning points of a connection game kept up to date through a game (a playout): for
/// each colour, the chains touching each of its edges and the points linked to them, grown by
/// each placement's new stones (every stone joins each set once) and built anew only when it
/// loses one of its stones (Brique's fills replace enemy stones). The winning points of a
/// colour are then found among the few points marked from both its edges.
///
/// It follows one position: [`Threats::update`] after every placement, with the changes the
/// placement made.
#[derive(Clone)]
pub struct Threats {
    /// By [`Color::index`]: the reach of the first edge, then of the second.
    reach: [[Reach; 2]; 2],
    /// The stack of the floods, kept to spare an allocation a flood.
    stack: Vec<u16>,
    /// By [`Color::index`]: the points marked from both edges, the candidates, when known
    /// (each colour's change only with its own stones, so a colour's stay known through the
    /// other's turn).
    candidates: [Option<Marks>; 2],
}

impl Threats {
    /// The threats of `pos` (none in Quint).
    #[must_use]
    pub fn new(pos: &Position) -> Threats {
        let mut threats = Threats {
            reach: [[Reach {
                stones: Marks::new(),
                near: Marks::new(),
            }; 2]; 2],
            stack: Vec::with_capacity(64),
            candidates: [None; 2],
        };
        if let Some((board, links, _)) = parts(pos) {
            for color in Color::ALL {
                threats.rebuild(board, links, color);
            }
        }
        threats
    }

    fn rebuild(&mut self, board: &Board, links: &[isize], color: Color) {
        self.candidates[color.index()] = None;
        let stack = &mut self.stack;
        self.reach[color.index()] =
            [false, true].map(|second| Reach::build(board, links, color, second, stack));
    }

    /// Follows a placement (or pass) of `pos`, which made `changes` (as [`Position::place`]
    /// tells them; none for a pass or a swap).
    pub fn update(&mut self, pos: &Position, changes: &[Change]) {
        let Some((board, links, _)) = parts(pos) else {
            return;
        };
        // A stone taken away (Brique) may cut a chain of a set: that set is built anew. One
        // outside the set cut nothing from it.
        for change in changes {
            if let Some(before) = change.before
                && change.after != Some(before)
            {
                let i = change.point.index();
                for (second, reach) in self.reach[before.index()].iter_mut().enumerate() {
                    if reach.stones.contains(i) {
                        self.candidates[before.index()] = None;
                        *reach = Reach::build(board, links, before, second == 1, &mut self.stack);
                    }
                }
            }
        }
        for change in changes {
            let Some(color) = change.after else { continue };
            self.candidates[color.index()] = None;
            for reach in &mut self.reach[color.index()] {
                reach.join(board, links, change.point.index(), color, &mut self.stack);
            }
        }
    }

    /// The empty points of `pos` where a stone of `color` would win at once, into `out`
    /// (cleared first), as [`Position::connecting_points`] tells them: Quentin's territories
    /// filled away from the chains left out.
    pub fn winning(&mut self, pos: &Position, color: Color, out: &mut Vec<Point>) {
        out.clear();
        if pos.is_over() {
            return;
        }
        let Some((board, _, fills)) = parts(pos) else {
            return;
        };
        let [first, second] = &self.reach[color.index()];
        let candidates = *self.candidates[color.index()].get_or_insert_with(|| {
            if fills == Fills::Around {
                // The words that hold the board's points, one row of padding beyond included.
                let words = ((board.size() + 2) * STRIDE).div_ceil(64);
                first.near.grown(words).and(&second.near.grown(words))
            } else {
                first.near.and(&second.near)
            }
        });
        match &pos.state {
            State::Quentin(_) => {
                winning::<Quentin>(board, color, &candidates, [first, second], fills, out)
            }
            State::Konobi(_) => {
                winning::<Konobi>(board, color, &candidates, [first, second], fills, out)
            }
            State::Brique(_) => {
                winning::<Brique>(board, color, &candidates, [first, second], fills, out)
            }
            State::Quint(_) => {}
        }
    }
}

/// The board of a connection game, its links and its fills; `None` in Quint.
fn parts(pos: &Position) -> Option<(&Board, &'static [isize], Fills)> {
    match &pos.state {
        State::Quentin(g) => Some((g.board(), Quentin::LINKS, Fills::Territories)),
        State::Konobi(g) => Some((g.board(), Konobi::LINKS, Fills::None)),
        State::Brique(g) => Some((g.board(), Brique::LINKS, Fills::Around)),
        State::Quint(_) => None,
    }
}

/// The empty points among `candidates` (those marked from both edges) where a stone of `color`
/// wins at once, into `out`, by index order; `reach` is the colour's reach of each edge.
///
/// A placement that fills nothing far (every game but Quentin's territories) wins exactly when
/// it is legal and one of the stones it adds is marked from each edge: its fills are next to
/// it, so its stones are one chain with every chain they link to. Only a Quentin placement
/// that fills a territory is played out on a copy of the board.
fn winning<R: PlacementRules>(
    board: &Board,
    color: Color,
    candidates: &Marks,
    reach: [&Reach; 2],
    fills: Fills,
    out: &mut Vec<Point>,
) {
    let mut changes = Vec::new();
    for i in candidates.indices() {
        if board.cell(i) == EMPTY && wins::<R>(board, color, reach, fills, i, &mut changes) {
            out.push(Point::from_index(i));
        }
    }
}

/// Whether a stone of `color` on the empty point of index `i` is legal and wins at once (see
/// [`winning`]).
fn wins<R: PlacementRules>(
    board: &Board,
    color: Color,
    [first, second]: [&Reach; 2],
    fills: Fills,
    i: usize,
    changes: &mut Vec<Change>,
) -> bool {
    changes.clear();
    if R::preview(board, Point::from_index(i), color, changes).is_err() {
        return false;
    }
    // Brique's fills are next to the stone; Quentin's territories may reach far.
    if changes.len() > 1 && fills == Fills::Territories {
        return wins_on_copy::<R>(board, &mut board.clone(), i, color, changes);
    }
    let added = || changes.iter().filter(|c| c.after == Some(color));
    added().any(|c| first.near.contains(c.point.index()))
        && added().any(|c| second.near.contains(c.point.index()))
}

/// Whether a stone of `color` on the empty point of index `i` is legal and wins at once, played
/// on `trial` (a scratch board, overwritten): the chain of the new stone, which holds every
/// stone the placement adds next to it, joins the colour's two edges.
fn wins_on_copy<R: PlacementRules>(
    board: &Board,
    trial: &mut Board,
    i: usize,
    color: Color,
    changes: &mut Vec<Change>,
) -> bool {
    trial.clone_from(board);
    changes.clear();
    if !R::place(trial, Point::from_index(i), color, changes) {
        return false;
    }
    let mut chain = [0u8; INDICES];
    spread::<R>(trial, &mut chain, 1, i, |_| false);
    let size = board.size();
    let touches = |second| edge(size, color, second).any(|e| chain[e] != 0);
    touches(false) && touches(true)
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
        self.connecting_points(color, &mut out);
        if let State::Quentin(g) = &self.state
            && !self.is_over()
        {
            far_territory_wins::<Quentin>(g.board(), color, &mut out);
        }
        out
    }

    /// [`Position::winning_points`] into `out` (cleared first), without Quentin's wins by a
    /// territory filled away from the chains (found only when the placement is itself linked to
    /// chains touching both edges): the same as `winning_points` in Konobi and Brique. A
    /// playout keeps a [`Threats`] instead, which tells the same without flooding the chains
    /// anew each turn.
    pub fn connecting_points(&self, color: Color, out: &mut Vec<Point>) {
        Threats::new(self).winning(self, color, out);
    }
}

/// Adds to `out` (the other winning points, in index order) the placements of `color` that
/// win by filling a territory, and sorts it.
fn far_territory_wins<R: PlacementRules>(board: &Board, color: Color, out: &mut Vec<Point>) {
    let before = out.len();
    let mut changes = Vec::new();
    for p in board.points() {
        let i = p.index();
        if board.cell(i) != EMPTY || out[..before].contains(&p) {
            continue;
        }
        changes.clear();
        let fills = R::preview(board, p, color, &mut changes).is_ok() && changes.len() > 1;
        if fills && wins_on_copy::<R>(board, &mut board.clone(), i, color, &mut changes) {
            out.push(p);
        }
    }
    if out.len() > before {
        out.sort_by_key(|p| p.index());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::Xorshift;
    use crate::{Action, Game, Setup};

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
                trial.play(Action::Place(p)).is_ok() && trial.winner() == Some(color)
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
                    let mut kept = Threats::new(&pos);
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
                        let action = legal[rng.below(legal.len())];
                        // The threats kept through the game tell what they tell built anew.
                        let mut changes = Vec::new();
                        match action {
                            Action::Place(p) => pos.place(p, &mut changes).unwrap(),
                            _ => pos.play(action).unwrap(),
                        }
                        kept.update(&pos, &changes);
                        for color in Color::ALL {
                            let mut cheap = Vec::new();
                            pos.connecting_points(color, &mut cheap);
                            let mut followed = Vec::new();
                            kept.winning(&pos, color, &mut followed);
                            assert_eq!(followed, cheap, "{game} {size}\n{pos:?}");
                        }
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
