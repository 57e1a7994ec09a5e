//! The placement code of the connection games as it was before the rules were made fast (issue
//! 20), kept as a reference: a test plays many random games at every board size and checks,
//! for every placement it tries, that the engine and the reference agree on its legality, on
//! what it changes, and on the winner after it.

use super::{Connection, PlacementRules, apply};
use crate::bits::{BIT_WORDS, Bits};
use crate::board::{Board, DIAGONAL, EMPTY, ORTHOGONAL_STEPS, is_stone, stone};
use crate::brique::Brique;
use crate::chains::Chains;
use crate::color::Color;
use crate::konobi::{Konobi, KonobiViolation};
use crate::point::{MAX_SIZE, MIN_SIZE, Point, STRIDE};
use crate::quentin::{Quentin, QuentinViolation, fill_color, region_if_territory};
use crate::{Change, Illegal};

/// A placement rule as it was: what `color` on the empty point `p` of `board` changes, into
/// `changes` (cleared first), or why it is illegal.
type Preview = fn(&Board, Point, Color, &mut Vec<Change>) -> Result<(), Illegal>;

/// Quentin as it was: the stone, the territories it closes, and the diagonal rule on the board
/// after the turn.
fn quentin(
    board: &Board,
    p: Point,
    color: Color,
    changes: &mut Vec<Change>,
) -> Result<(), Illegal> {
    changes.clear();
    changes.push(Change::placement(p, color));
    quentin_fills(board, p, color, changes);
    let mut after = board.clone();
    apply(&mut after, changes);
    for change in changes.iter() {
        if let Some(violation) = quentin_diagonal(&after, change.point) {
            return Err(Illegal::Quentin(violation));
        }
    }
    Ok(())
}

/// How many of the orthogonal neighbours of index `i` hold a stone.
fn stones_around(board: &Board, i: usize) -> usize {
    ORTHOGONAL_STEPS
        .iter()
        .filter(|&&d| is_stone(board.cell(i.wrapping_add_signed(d))))
        .count()
}

/// Quentin's fills as they were: the sets of the board after the placement built anew, on
/// the largest board's words.
fn quentin_fills(board: &Board, p: Point, color: Color, changes: &mut Vec<Change>) {
    let layout = board.layout();
    let i = p.index();
    let mut done = Bits::<BIT_WORDS>::new();
    let k = layout.bit(p);
    let mut empty: Bits = board.empty();
    empty.assign(k, false);
    let stones = Color::ALL.map(|c| {
        let mut stones: Bits = *board.stones(c);
        stones.assign(k, c == color);
        stones
    });
    let lacking = empty.and_not(&layout.two_neighbours(&stones[0].or(&stones[1])));
    for d in ORTHOGONAL_STEPS {
        let start = i.wrapping_add_signed(d);
        if board.cell(start) != EMPTY {
            continue;
        }
        let k = layout.bit(Point::from_index(start));
        if done.contains(k) {
            continue;
        }
        if stones_around(board, start) + 1 < 2 {
            done.insert(k);
            continue;
        }
        let territory = match region_if_territory(layout, k, &empty, &lacking.or(&done)) {
            Ok(territory) => territory,
            Err(region) => {
                done = done.or(&region);
                continue;
            }
        };
        done = done.or(&territory);
        let fill = fill_color(layout, &territory, &stones, color.opponent());
        changes.extend(
            territory
                .iter()
                .map(|k| Change::placement(layout.point(k), fill)),
        );
    }
}

/// The first like-coloured diagonal pair with no like-coloured shared neighbour that includes
/// the stone on `p`, by a loop over the diagonals.
fn quentin_diagonal(board: &Board, p: Point) -> Option<QuentinViolation> {
    let i = p.index();
    let cell = board.cell(i);
    if !is_stone(cell) {
        return None;
    }
    for (dc, dr) in DIAGONAL {
        let across = i.wrapping_add_signed(dr * STRIDE as isize);
        let along = i.wrapping_add_signed(dc);
        let q = across.wrapping_add_signed(dc);
        if board.cell(q) == cell && board.cell(across) != cell && board.cell(along) != cell {
            return Some(QuentinViolation::DiagonalWithoutSharedNeighbour {
                first: p,
                second: Point::from_index(q),
                color: board.color_at(q)?,
            });
        }
    }
    None
}

/// Whether `color` has a chain, linked by `links`, from its first edge to its second: a plain
/// search of the board.
fn connects(board: &Board, color: Color, links: &[isize]) -> bool {
    let n = board.size();
    let first = |k| match color {
        Color::Black => Point::new(k, 0),
        Color::White => Point::new(0, k),
    };
    let mut seen = vec![false; crate::point::INDICES];
    let mut stack: Vec<usize> = (0..n)
        .map(first)
        .filter(|&p| board.get(p) == Some(color))
        .map(Point::index)
        .collect();
    for &i in &stack {
        seen[i] = true;
    }
    while let Some(i) = stack.pop() {
        let p = Point::from_index(i);
        if board.on_second_edge(p, color) {
            return true;
        }
        for &d in links {
            let j = i.wrapping_add_signed(d);
            if !seen[j] && board.cell(j) == stone(color) {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    false
}

/// A small random generator for the test (xorshift64*), so the crate needs no dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % n
    }
}

/// Plays `games` random games of the rules `R` on a board of side `n`, and checks every
/// placement tried (every empty point of every turn) against `old`: the same legality (and
/// reason), the same changes, and after the placement played the same winner as a plain search
/// (with and without the outcome's line).
/// Returns how many placements were compared.
fn compare<R: PlacementRules>(old: Preview, n: usize, games: u64) -> usize {
    let mut compared = 0;
    let (mut new_changes, mut old_changes) = (Vec::new(), Vec::new());
    for game in 0..games {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (game * 1_000 + n as u64));
        let mut pos = Connection::<R>::new(n, false);
        while let Some(color) = pos.to_move() {
            let empties: Vec<Point> = pos
                .board()
                .points()
                .filter(|&p| pos.board().is_empty_at(p))
                .collect();
            let mut legal = Vec::new();
            for &p in &empties {
                let new = Connection::<R>::preview_into(pos.board(), p, color, &mut new_changes);
                let was = old(pos.board(), p, color, &mut old_changes);
                let context = format!("size {n}, game {game}, ply {}, {color} on {p}", pos.ply());
                assert_eq!(new, was, "{context}: legality");
                if new.is_ok() {
                    assert_eq!(new_changes, old_changes, "{context}: changes");
                    legal.push((p, old_changes.clone()));
                } else {
                    // Refused by `place` for the same reason, the position left as it was
                    // (checked on the board after the placement played below).
                    let placed = pos.place(p, &mut new_changes);
                    assert_eq!(placed, new, "{context}: refused by place");
                }
                compared += 1;
            }
            if legal.is_empty() {
                // Both sides blocked would repeat forever; one pass is enough to follow.
                break;
            }
            let (p, changes) = legal.swap_remove(rng.below(legal.len()));
            let mut after = pos.board().clone();
            apply(&mut after, &changes);
            assert_eq!(pos.place(p, &mut new_changes), Ok(()), "size {n}: {p}");
            assert_eq!(new_changes, changes, "size {n}: {p} played");
            assert_eq!(pos.board(), &after, "size {n}: the board after {p}");
            let winner = Color::ALL
                .into_iter()
                .find(|&c| connects(&after, c, R::LINKS));
            // Asked first without the outcome, whose winning line is walked when first asked.
            assert_eq!(pos.winner(), winner, "size {n}: the winner after {p}");
            assert_eq!(
                pos.outcome().and_then(|o| o.winner()),
                winner,
                "size {n}: the outcome after {p}"
            );
            // Until a win (whose flood stops at the second edge), the sets followed turn by
            // turn are those built anew: Brique's removed stones, cut or not, are judged right.
            if winner.is_none() {
                assert!(
                    pos.chains == Chains::build::<R>(pos.board()),
                    "size {n}: the chains after {p}"
                );
            }
        }
    }
    compared
}

/// Games per size: more on the small boards, whose games are short.
fn games(n: usize) -> u64 {
    if n <= 13 { 12 } else { 3 }
}

#[test]
fn quentin_agrees_with_the_old_placement_code_at_every_size() {
    let mut compared = 0;
    for n in MIN_SIZE..=MAX_SIZE {
        compared += compare::<Quentin>(quentin, n, games(n));
    }
    assert!(compared > 100_000, "only {compared} placements compared");
}

/// Konobi as it was: the crosscut, then the avoidable weak connection, by iterators over the
/// diagonals.
fn konobi(board: &Board, p: Point, color: Color, changes: &mut Vec<Change>) -> Result<(), Illegal> {
    changes.clear();
    match crosscut(board, p, color).or_else(|| avoidable_weak_connection(board, p, color)) {
        Some(violation) => Err(Illegal::Konobi(violation)),
        None => {
            changes.push(Change::placement(p, color));
            Ok(())
        }
    }
}

/// Konobi's old test: the crosscut a `color` stone on the empty point `p` would complete, if any.
fn crosscut(board: &Board, p: Point, color: Color) -> Option<KonobiViolation> {
    let i = p.index();
    let (mine, theirs) = (stone(color), stone(color.opponent()));
    // Read on the padded grid, where off-board cells hold no stone.
    DIAGONAL.into_iter().find_map(|(dc, dr)| {
        let along = i.wrapping_add_signed(dc);
        let across = i.wrapping_add_signed(dr * STRIDE as isize);
        let completes = board.cell(across.wrapping_add_signed(dc)) == mine
            && board.cell(along) == theirs
            && board.cell(across) == theirs;
        completes.then(|| KonobiViolation::Crosscut {
            point: p,
            square: Point::new(
                p.col().saturating_add_signed(dc.min(0)),
                p.row().saturating_add_signed(dr.min(0)),
            ),
        })
    })
}

/// The avoidable weak connection a `color` stone on the empty point `p` would make, if any: a
/// stone `s` it connects to weakly, and an empty point orthogonally next to `s` where a `color`
/// stone, instead of the one on `p`, would be weakly connected to nothing.
fn avoidable_weak_connection(board: &Board, p: Point, color: Color) -> Option<KonobiViolation> {
    let mine = stone(color);
    weak_partner_indices(board, p.index(), mine).find_map(|s| {
        ORTHOGONAL_STEPS
            .iter()
            .map(|&d| s.wrapping_add_signed(d))
            .find(|&q| {
                board.cell(q) == EMPTY && weak_partner_indices(board, q, mine).next().is_none()
            })
            .map(|instead| KonobiViolation::AvoidableWeakConnection {
                point: p,
                weak_to: Point::from_index(s),
                instead: Point::from_index(instead),
            })
    })
}

/// [`weak_partners`] by index on the padded grid, for the cell value `mine`: the indices of the
/// diagonal neighbours holding `mine` with neither shared point holding it. What stands on `i`
/// itself is not read.
fn weak_partner_indices(board: &Board, i: usize, mine: u8) -> impl Iterator<Item = usize> + '_ {
    DIAGONAL.into_iter().filter_map(move |(dc, dr)| {
        let along = i.wrapping_add_signed(dc);
        let across = i.wrapping_add_signed(dr * STRIDE as isize);
        let q = across.wrapping_add_signed(dc);
        (board.cell(q) == mine && board.cell(along) != mine && board.cell(across) != mine)
            .then_some(q)
    })
}

#[test]
fn konobi_agrees_with_the_old_placement_code_at_every_size() {
    let mut compared = 0;
    for n in MIN_SIZE..=MAX_SIZE {
        compared += compare::<Konobi>(konobi, n, games(n));
    }
    assert!(compared > 100_000, "only {compared} placements compared");
}

/// Brique's placement code is the engine's own (unchanged by issue 20), as for Konobi; Brique's
/// fills remove stones, which cuts the edge-reach sets.
#[test]
fn brique_chains_agree_with_a_plain_search_at_every_size() {
    let mut compared = 0;
    for n in MIN_SIZE..=MAX_SIZE {
        compared += compare::<Brique>(Brique::preview_cleared, n, games(n));
    }
    assert!(compared > 100_000, "only {compared} placements compared");
}

/// A game's own preview, `changes` cleared first, in the shape of [`Preview`].
trait Cleared: PlacementRules {
    fn preview_cleared(
        board: &Board,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> Result<(), Illegal> {
        changes.clear();
        Self::preview(board, p, color, changes)
    }
}

impl Cleared for Brique {}

/// `spread` reaches the chain of its first stone, as the plain walk of `chain` finds it, on
/// boards whose chains hold hundreds of stones: its stack then spills to the heap.
fn spread_agrees_with_chain<R: PlacementRules>() {
    use super::{chain, spread};
    use crate::point::INDICES;
    for (fill, seed) in [(100, 1), (90, 2), (75, 3), (60, 4)] {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ seed);
        let mut board = Board::new(MAX_SIZE);
        for p in Board::new(MAX_SIZE).points() {
            if rng.below(100) < fill {
                board.set(p, Some(Color::Black));
            }
        }
        for p in board
            .points()
            .filter(|&p| board.get(p).is_some())
            .step_by(7)
        {
            let mut reach = [0u8; INDICES];
            assert_eq!(
                spread::<R>(&board, &mut reach, 2, p.index(), |_| false),
                None
            );
            let line = chain::<R>(&board, p);
            for q in board.points() {
                assert_eq!(
                    reach[q.index()] != 0,
                    line.contains(q),
                    "fill {fill}: {p} {q}"
                );
            }
        }
    }
}

#[test]
fn spread_agrees_with_the_plain_walk_of_a_chain() {
    spread_agrees_with_chain::<Brique>();
    spread_agrees_with_chain::<Konobi>();
}
