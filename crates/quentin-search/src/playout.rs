//! Random playouts: a game played to its end by random legal actions from a position, the
//! measure of the computer player's speed (`quentin bench`) and the raw material of its search.
//!
//! [`uniform`] makes every legal action of a turn equally likely. In the connection games it
//! never lists the legal actions: it draws an empty point, asks the rules to place there
//! ([`Position::place`]), and when the rules refuse, draws again among the points not yet
//! tried. Each legal placement is then equally likely, since the refused ones are simply set
//! aside, and `swap` (when offered) is one more outcome of the first draw.

use crate::policy::{Playout, black_score};
use crate::rng::Rng;
use quentin_rules::quentin;
use quentin_rules::{
    Action, Change, Color, Game, MAX_SIZE, Point, Position, QuentinBoard, QuentinBoards,
    QuentinStones, Threats,
};

/// Plays uniformly random legal actions from `pos` until the game ends, and returns how many it
/// played. Every legal action of a turn is equally likely (a placement, or `swap` when
/// offered); `pass` when no placement is legal. The same generator state plays the same game.
/// In the connection games it stops early, undecided, should both sides have to pass in a row,
/// which would repeat forever; in Quint the third repetition of a position ends the game.
pub fn uniform(pos: &mut Position, rng: &mut Rng) -> usize {
    match pos.game() {
        Game::Quint => uniform_by_list(pos, rng),
        Game::Quentin | Game::Konobi | Game::Brique => uniform_by_placement(pos, rng),
    }
}

/// The uniform playout by listing every legal action each turn and picking one.
fn uniform_by_list(pos: &mut Position, rng: &mut Rng) -> usize {
    let mut played = 0;
    // One list for the whole playout: Quint fills it without allocating once it has grown.
    let mut legal = Vec::with_capacity(64);
    loop {
        legal.clear();
        pos.legal_actions_into(&mut legal);
        if legal.is_empty() {
            return played;
        }
        let action = legal[rng.below(legal.len())];
        if pos.play(action).is_err() {
            // A listed action always plays; stop rather than loop should that ever fail.
            return played;
        }
        played += 1;
    }
}

/// The uniform playout of the connection games, by drawing among the empty points.
fn uniform_by_placement(pos: &mut Position, rng: &mut Rng) -> usize {
    by_placement(pos, rng, false)
}

/// The same game as [`uniform`] from the same generator state, played faster: in Quentin, once
/// no swap is offered, on a board of its own at its real width ([`QuentinBoard`]), which
/// places, fills and wins as the rules do and keeps nothing else; the position is then left
/// where that began, and the end is read from [`Playout::end`].
pub fn uniform_to_end(pos: &mut Position, rng: &mut Rng) -> Playout {
    if pos.game() != Game::Quentin {
        let actions = uniform(pos, rng);
        return Playout {
            actions,
            black: black_score(pos.winner()),
            end: None,
        };
    }
    // While swap is offered now or later (up to White's first turn), the position plays.
    let mut empties = None;
    let mut played = 0;
    if quentin::swap_ahead(pos) {
        let mut list = Empties::new(pos);
        played = by_placement_with(pos, rng, false, &mut list, true);
        empties = Some(list);
    }
    let board = QuentinBoards::of(pos);
    let (actions, winner, stones) = match board {
        None => (0, pos.winner(), None),
        Some(QuentinBoards::Two(q)) => quentin_rest(q, empties.as_ref(), rng),
        Some(QuentinBoards::Three(q)) => quentin_rest(q, empties.as_ref(), rng),
        Some(QuentinBoards::Four(q)) => quentin_rest(q, empties.as_ref(), rng),
        Some(QuentinBoards::Six(q)) => quentin_rest(q, empties.as_ref(), rng),
        // From 20×20 on, as fast on the position (its padded grid is the board's own size).
        Some(QuentinBoards::Eleven(_)) => {
            let mut list = empties.unwrap_or_else(|| Empties::new(pos));
            let actions = by_placement_with(pos, rng, false, &mut list, false);
            (actions, pos.winner(), None)
        }
    };
    Playout {
        actions: played + actions,
        black: black_score(winner),
        end: stones,
    }
}

/// Plays Quentin out on `q` as [`by_placement`] would on the position: the same draws from
/// the same list of empty points (`empties`, as bits), the same game.
fn quentin_rest<const W: usize, const N: usize>(
    mut q: QuentinBoard<W, N>,
    empties: Option<&Empties>,
    rng: &mut Rng,
) -> (usize, Option<Color>, Option<QuentinStones>) {
    // The empty points' bits in the list's order (row by row from a1, as `Empties::new` lists
    // them, unless the position played first), and each bit's slot in it.
    let mut list = [0u16; MAX_SIZE * MAX_SIZE];
    let mut slot = [0u16; BIT_SLOTS];
    let mut len = 0;
    let mut push = |k: u16| {
        list[len] = k;
        slot[usize::from(k)] = len as u16;
        len += 1;
    };
    match empties {
        Some(empties) => empties.points.iter().for_each(|&p| push(q.bit(p))),
        None => q.empty_bits().for_each(push),
    }
    let mut fills = Vec::with_capacity(64);
    let (mut played, mut passes) = (0, 0);
    while q.winner().is_none() && passes < 2 {
        let mut untried = len;
        loop {
            if untried == 0 {
                q.pass();
                passes += 1;
                break;
            }
            let i = rng.below(untried);
            let k = list[i];
            if q.place(k, &mut fills) {
                // Out of the list as `Empties::remove_at` takes it: the last takes its slot.
                len -= 1;
                list[i] = list[len];
                slot[usize::from(list[i])] = i as u16;
                for &f in &fills {
                    let j = usize::from(slot[usize::from(f & FILL_BITS)]);
                    len -= 1;
                    list[j] = list[len];
                    slot[usize::from(list[j])] = j as u16;
                }
                passes = 0;
                break;
            }
            // Set aside among the tried, as `Empties::swap`.
            untried -= 1;
            list.swap(i, untried);
            slot[usize::from(list[i])] = i as u16;
            slot[usize::from(list[untried])] = untried as u16;
        }
        played += 1;
    }
    (played, q.winner(), Some(q.stones()))
}

/// Slots for every bit a [`QuentinBoard`] gives a point: a word before the board, then the
/// largest board's rows of 27 bits.
const BIT_SLOTS: usize = 64 + MAX_SIZE * (MAX_SIZE + 1);
/// The bits of a fill's point in [`QuentinBoard::place`]'s list.
const FILL_BITS: u16 = 0x7fff;

/// The playout of the connection games with decisive and anti-decisive moves (Teytaud and
/// Teytaud, "On the huge benefit of decisive moves in Monte-Carlo Tree Search algorithms",
/// 2010): each turn the side to move wins at once when it can, else takes the opponent's only
/// winning point when it may (with two or more the game is lost anyway), else draws at random
/// as [`uniform`] does. The winning points are [`Threats::winning`]'s, kept through the
/// playout.
///
/// Not the search's policy: at 0.1 s a move it lost matches to the uniform playouts (two to
/// seven times as many a second), see docs/engine-strength.md; kept for later trials.
pub fn decisive(pos: &mut Position, rng: &mut Rng) -> usize {
    match pos.game() {
        Game::Quint => uniform_by_list(pos, rng),
        Game::Quentin | Game::Konobi | Game::Brique => by_placement(pos, rng, true),
    }
}

/// The playout of the connection games by drawing among the empty points, with the decisive
/// and anti-decisive moves when `tactics` is set.
fn by_placement(pos: &mut Position, rng: &mut Rng, tactics: bool) -> usize {
    let mut empties = Empties::new(pos);
    by_placement_with(pos, rng, tactics, &mut empties, false)
}

/// [`by_placement`] from the list `empties` of the position's empty points; stopped, when
/// `until_no_swap` is set, at the first turn from which swap is offered no more.
///
/// Always inlined: with three callers the loop stayed out of line, and the position's
/// placement with it, about 2,300 instructions more a Konobi or Brique playout (callgrind).
#[inline(always)]
fn by_placement_with(
    pos: &mut Position,
    rng: &mut Rng,
    tactics: bool,
    empties: &mut Empties,
    until_no_swap: bool,
) -> usize {
    let mut changes = Vec::with_capacity(64);
    let mut wins = Vec::new();
    let mut threats = tactics.then(|| Threats::new(pos));
    let mut played = 0;
    let mut passes = 0;
    while !pos.is_over() && passes < 2 {
        if until_no_swap && !quentin::swap_ahead(pos) {
            return played;
        }
        // `swap` is offered on White's first turn only, so at most the first two of a playout
        // ask: the call, through the position's dispatch, was a few per cent of a Brique
        // playout.
        let swap = if played < 2 {
            usize::from(pos.swap_available())
        } else {
            0
        };
        if let Some(threats) = &mut threats
            && swap == 0
            && let Some(me) = pos.to_move()
        {
            threats.winning(pos, me, &mut wins);
            if wins.is_empty() {
                threats.winning(pos, me.opponent(), &mut wins);
                if wins.len() > 1 {
                    wins.clear();
                }
            }
            if let Some(&p) = wins.first()
                && pos.place_if_legal(p, &mut changes)
            {
                empties.apply(&changes);
                threats.update(pos, &changes);
                passes = 0;
                played += 1;
                continue;
            }
        }
        let mut untried = empties.points.len();
        loop {
            let action = if untried + swap == 0 {
                Action::Pass
            } else {
                let i = rng.below(untried + swap);
                if i == untried {
                    Action::Swap
                } else {
                    let p = empties.points[i];
                    if pos.place_if_legal(p, &mut changes) {
                        // The placement, the first change, leaves by the slot it was drawn
                        // from; the walk of the others is most often empty.
                        empties.remove_at(i);
                        if changes.len() > 1 {
                            empties.apply(&changes[1..]);
                        }
                        if let Some(threats) = &mut threats {
                            threats.update(pos, &changes);
                        }
                        passes = 0;
                        break;
                    }
                    // Illegal now: set it aside among the tried and draw again from the rest.
                    untried -= 1;
                    empties.swap(i, untried);
                    continue;
                }
            };
            if pos.play(action).is_err() {
                // `swap` is offered and `pass` forced here; stop rather than loop should the
                // rules disagree.
                return played;
            }
            passes = if action == Action::Pass {
                passes + 1
            } else {
                0
            };
            break;
        }
        played += 1;
    }
    played
}

/// The slot of a point in [`Empties::slot`].
fn slot_of(p: Point) -> usize {
    p.row() * MAX_SIZE + p.col()
}

/// The empty points of a playout, kept as a list with each point's slot in it, so that a random
/// empty point is one draw and a change costs O(1).
struct Empties {
    points: Vec<Point>,
    slot: [u16; MAX_SIZE * MAX_SIZE],
}

impl Empties {
    fn new(pos: &Position) -> Empties {
        let board = pos.board();
        let n = board.size();
        let mut points = vec![Point::new(0, 0); n * n];
        let mut slot = [0; MAX_SIZE * MAX_SIZE];
        // Without a branch on whether a point is empty (a coin flip mid-game): every point is
        // written, and only an empty one moves the end of the list on. A point not in the list
        // keeps a slot that nothing reads before it joins the list.
        let mut len = 0;
        for row in 0..n {
            for col in 0..n {
                let p = Point::new(col, row);
                points[len] = p;
                slot[slot_of(p)] = len as u16;
                len += usize::from(board.is_empty_at(p));
            }
        }
        points.truncate(len);
        Empties { points, slot }
    }

    /// Exchanges the points at `i` and `j` of the list.
    fn swap(&mut self, i: usize, j: usize) {
        self.points.swap(i, j);
        self.slot[slot_of(self.points[i])] = i as u16;
        self.slot[slot_of(self.points[j])] = j as u16;
    }

    /// Takes the point at `i` of the list out of it.
    fn remove_at(&mut self, i: usize) {
        self.points.swap_remove(i);
        if let Some(&moved) = self.points.get(i) {
            self.slot[slot_of(moved)] = i as u16;
        }
    }

    /// Follows the changes of a turn: filled points leave the list, emptied points join it.
    fn apply(&mut self, changes: &[Change]) {
        for change in changes {
            match (change.before, change.after) {
                (None, Some(_)) => self.remove_at(usize::from(self.slot[slot_of(change.point)])),
                (Some(_), None) => {
                    self.slot[slot_of(change.point)] = self.points.len() as u16;
                    self.points.push(change.point);
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::Setup;

    #[test]
    fn playouts_end_in_a_win_with_legal_actions_only() {
        for game in [Game::Quentin, Game::Konobi, Game::Brique] {
            let setup = Setup {
                size: 9,
                ..Setup::new(game)
            };
            let mut rng = Rng::new(5);
            for _ in 0..20 {
                let mut pos = setup.start().unwrap();
                let n = uniform(&mut pos, &mut rng);
                assert!(pos.is_over(), "{game}");
                assert_eq!(pos.ply(), n, "{game}");
                assert!(pos.outcome().and_then(|o| o.winner()).is_some(), "{game}");
            }
        }
    }

    #[test]
    fn quint_playouts_end() {
        let mut pos = Setup::new(Game::Quint).start().unwrap();
        let n = uniform(&mut pos, &mut Rng::new(3));
        assert!(pos.is_over());
        assert_eq!(pos.ply(), n);
    }

    /// Black's c5 to c3 and c1: c2 wins for Black, and only c2 (see the tree's tests).
    fn threatened(game: Game, to_move: quentin_rules::Color) -> Position {
        let rows = match game {
            Game::Quentin => "W.B..|..B..|..B..|.....|..B..",
            _ => "W.B..|..B..|..B..|.W.W.|..B..",
        };
        let board = quentin_rules::Board::from_rows(rows).unwrap();
        Setup::new(game).start_from(board, to_move).unwrap()
    }

    #[test]
    fn decisive_playouts_win_at_once_or_block_the_single_winning_point() {
        use quentin_rules::Color;
        let c2 = Point::parse("c2").unwrap();
        for game in [Game::Quentin, Game::Konobi, Game::Brique] {
            for seed in 0..20 {
                let mut pos = threatened(game, Color::Black);
                assert_eq!(decisive(&mut pos, &mut Rng::new(seed)), 1, "{game}");
                assert_eq!(pos.get(c2), Some(Color::Black), "{game}");
                let mut pos = threatened(game, Color::White);
                decisive(&mut pos, &mut Rng::new(seed));
                assert_eq!(pos.get(c2), Some(Color::White), "{game}");
            }
            let blocked = (0..20)
                .filter(|&seed| {
                    let mut pos = threatened(game, Color::White);
                    uniform(&mut pos, &mut Rng::new(seed));
                    pos.get(c2) == Some(Color::White)
                })
                .count();
            assert!(blocked < 20, "{game}");
        }
    }
}
