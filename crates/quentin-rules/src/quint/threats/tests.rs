//! The threats against the rules themselves: each answer is checked by playing the actions out
//! with [`Position::play`] and reading the outcome.

use super::*;
use crate::xorshift::Xorshift;
use crate::{Board, Ending, Game, Outcome, Setup};

/// The position of `rows` (top row first) with `in_hand` (Black first), `to_move` to act, in a
/// game of `pieces` each.
fn position(rows: &str, pieces: usize, in_hand: [usize; 2], to_move: Color) -> Position {
    let board = Board::from_rows(rows).unwrap();
    Setup {
        pieces,
        ..Setup::new(Game::Quint)
    }
    .start_quint_from(&board, in_hand, to_move)
    .unwrap()
}

fn names(bits: u64) -> Vec<String> {
    cells(bits).map(|p| p.to_string()).collect()
}

fn after(pos: &Position, action: Action) -> Position {
    let mut next = pos.clone();
    next.play(action).unwrap();
    next
}

/// Whether `pos`'s last action won it for `color` with five in a row.
fn won_by_five(pos: &Position, color: Color) -> bool {
    matches!(pos.outcome(), Some(Outcome::Win { winner, ending: Ending::Quint, .. })
        if *winner == color)
}

/// The pieces of `color`, read from the board.
fn pieces(pos: &Position, color: Color) -> u64 {
    pos.board()
        .points()
        .filter(|&p| pos.get(p) == Some(color))
        .fold(0, |all, p| all | bit(p))
}

/// The empty cells as bits.
fn pieces_empty(pos: &Position) -> u64 {
    empty_cells(pos).into_iter().fold(0, |all, p| all | bit(p))
}

/// The empty cells.
fn empty_cells(pos: &Position) -> Vec<Point> {
    pos.board()
        .points()
        .filter(|&p| pos.get(p).is_none())
        .collect()
}

/// The cells of the legal actions of `pos` that win it at once by five: drops, or the
/// destinations of steps.
fn winning_cells(pos: &Position) -> u64 {
    let Some(mover) = pos.to_move() else {
        return 0;
    };
    pos.legal_actions()
        .into_iter()
        .filter(|&a| won_by_five(&after(pos, a), mover))
        .map(|a| match a {
            Action::Place(p) | Action::Step { to: p, .. } => bit(p),
            Action::Swap | Action::Pass => 0,
        })
        .fold(0, |all, b| all | b)
}

/// Whether the side to move of `pos` (in the drop phase) wins by force within its next two
/// actions: at once, or (while it still drops) by a drop after which every reply leaves it a winning drop.
fn forced_by_drops(pos: &Position) -> bool {
    let Some(attacker) = pos.to_move() else {
        return false;
    };
    if winning_cells(pos) != 0 {
        return true;
    }
    if pos.in_hand() == Some([0, 0]) {
        // The drops are over: only the win at once counts.
        return false;
    }
    empty_cells(pos).into_iter().any(|c| {
        let next = after(pos, Action::Place(c));
        if next.is_over() || next.to_move() != Some(attacker.opponent()) {
            return false;
        }
        // Every reply, the likely blocks (the attacker's winning cells) tried first.
        let wins = completing(pieces(&next, attacker), pieces_empty(&next));
        let mut replies = empty_cells(&next);
        replies.sort_by_key(|&e| wins & bit(e) == 0);
        replies.into_iter().all(|e| {
            let reply = after(&next, Action::Place(e));
            !reply.is_over() && reply.to_move() == Some(attacker) && winning_cells(&reply) != 0
        })
    })
}

/// `must_block` holds exactly the drops after which the opponent has no win by force within its
/// next two drops, as playing every line out says; and every double threat is a drop after
/// which the attacker (the opponent) wins by force.
fn check_blocks(pos: &Position, t: &Threats) {
    let attacker = pos.to_move().unwrap().opponent();
    let mut holding = 0;
    for d in empty_cells(pos) {
        let next = after(pos, Action::Place(d));
        if next.is_over() || !forced_by_drops(&next) {
            holding |= bit(d);
        }
    }
    assert_eq!(names(t.must_block), names(holding), "must_block");
    // Each double threat of the opponent, dropped now (as if it were its turn), leaves two
    // winning cells.
    let theirs = pieces(pos, attacker);
    for c in cells(t.opponent_double_threats).map(bit) {
        assert!(completing(theirs | c, pieces_empty(pos) & !c).count_ones() >= 2);
    }
}

/// The example of issue 20: White's open three e4 e5 e6 (and d4 d5), 15 pieces each, Black to
/// drop: only e3 and e7 hold.
#[test]
fn an_open_three_is_blocked_at_its_ends_only() {
    let rows = "B......B|........|....W...|...WW...|...WW...|........|........|B......B";
    let pos = position(rows, 15, [11, 10], Color::Black);
    let t = threats(&pos).unwrap();
    assert_eq!(t.wins, 0);
    assert_eq!(t.opponent_wins, 0);
    assert_eq!(names(t.opponent_double_threats), ["e3", "e7"]);
    assert_eq!(names(t.must_block), ["e3", "e7"]);
    check_blocks(&pos, &t);
    // Black has nothing of its own.
    assert_eq!(t.double_threats, 0);
}

/// A four with one open end must be blocked there; the mover's own four wins first.
#[test]
fn a_four_is_blocked_on_its_winning_cell_and_a_win_is_seen() {
    // White b4 c4 d4 e4 (a4 Black): only f4 wins for White.
    let rows = "........|........|........|........|BWWWW...|........|........|B.......";
    let pos = position(rows, 15, [12, 11], Color::Black);
    let t = threats(&pos).unwrap();
    assert_eq!(names(t.opponent_wins), ["f4"]);
    assert_eq!(names(t.must_block), ["f4"]);
    check_blocks(&pos, &t);
    // White to move instead (Black one drop fewer): it wins on f4.
    let pos = position(rows, 15, [11, 11], Color::White);
    let t = threats(&pos).unwrap();
    assert_eq!(names(t.wins), ["f4"]);
    assert_eq!(t.wins, winning_cells(&pos));
    let mut wins = Vec::new();
    winning_actions_into(&pos, &mut wins);
    assert_eq!(wins, [Action::Place(Point::parse("f4").unwrap())]);
}

/// Six or more in a line do not win: a drop that makes a line of six is no winning cell, and a
/// four next to own pieces with a gap is not a four.
#[test]
fn exactly_five_only() {
    // White a1 b1 c1 d1 . f1: e1 makes six. White c3 d3 e3 f3: b3 and g3 win, unless h3 or a3
    // is White's: h3 is, so g3 would make six, only b3 wins.
    let rows = "........|........|........|........|........|..WWWW.W|........|WWWW.W..";
    let pos = position(rows, 20, [10, 10], Color::White);
    let t = threats(&pos).unwrap();
    assert_eq!(names(t.wins), ["b3"]);
    assert_eq!(t.wins, winning_cells(&pos));
}

/// Two open threes apart: no single drop stops both, and must_block is empty; one open three
/// with the attacker's last piece in hand is no double threat.
#[test]
fn two_open_threes_cannot_both_be_blocked() {
    let rows = "........|.WWW....|........|........|........|........|....WWW.|B..B...B";
    let pos = position(rows, 15, [10, 9], Color::Black);
    let t = threats(&pos).unwrap();
    assert_eq!(names(t.opponent_double_threats), ["d2", "e7"]);
    assert_eq!(t.must_block, 0);
    check_blocks(&pos, &t);
    // White with one piece left in hand: no double threat can be carried out by drops.
    let pos = position(rows, 15, [2, 1], Color::Black);
    let t = threats(&pos).unwrap();
    assert_eq!(t.opponent_double_threats, 0);
    assert_eq!(t.must_block, 0);
}

/// A split three (c5 d5 . f5) is as open as a solid one: the drop in its gap makes a four with
/// two winning cells, and the blocks are what play says.
#[test]
fn a_split_three_is_a_threat() {
    let rows = "........|........|........|..WW.W..|........|........|........|BB.B....";
    let pos = position(rows, 15, [12, 12], Color::White);
    let t = threats(&pos).unwrap();
    assert!(t.double_threats & bit(Point::parse("e5").unwrap()) != 0);
    // Black to drop against it.
    let pos = position(rows, 15, [12, 11], Color::Black);
    let t = threats(&pos).unwrap();
    assert!(t.opponent_double_threats & bit(Point::parse("e5").unwrap()) != 0);
    check_blocks(&pos, &t);
}

/// In the move phase the wins are the destinations of the winning steps, for either side, as
/// playing every legal action says; after the last drop the opponent's step wins are the cells
/// to fill.
#[test]
fn steps_that_win_in_the_move_phase() {
    // White a2 b1 c1 d1 e1 f2: a2-a1 and f2-f1 both make five (a1-e1 or b1-f1).
    let rows = "........|........|........|..B.B...|.B.BB...|........|W....W..|.WWWW...";
    for to_move in Color::ALL {
        let pos = position(rows, 15, [0, 0], to_move);
        let t = threats(&pos).unwrap();
        let other = position(rows, 15, [0, 0], to_move.opponent());
        assert_eq!(t.wins, winning_cells(&pos), "{to_move}");
        assert_eq!(t.opponent_wins, winning_cells(&other), "{to_move}");
        assert_eq!(t.must_block, 0);
    }
    let pos = position(rows, 15, [0, 0], Color::White);
    let mut wins = Vec::new();
    winning_actions_into(&pos, &mut wins);
    let tokens: Vec<String> = wins.iter().map(ToString::to_string).collect();
    assert_eq!(tokens, ["a2-a1", "f2-f1"]);
    for action in wins {
        assert!(won_by_five(&after(&pos, action), Color::White));
    }
    // Black drops its last piece: White's next action is a step, and its winning
    // destinations are the drops that block.
    // Black drops its last piece: White's next action is a step. Two winning destinations:
    // no drop holds.
    let pos = position(rows, 15, [1, 0], Color::Black);
    let t = threats(&pos).unwrap();
    assert_eq!(names(t.opponent_wins), ["a1", "f1"]);
    assert_eq!(t.must_block, 0);
    check_blocks(&pos, &t);
    // Without f2, one: the drop on it holds.
    let rows = "........|........|........|..B.B...|.B.BB...|........|W.......|.WWWW...";
    let pos = position(rows, 15, [1, 0], Color::Black);
    let t = threats(&pos).unwrap();
    assert_eq!(names(t.must_block), ["a1"]);
    check_blocks(&pos, &t);
}

/// On random positions of both phases, pieces crowded in a corner so that lines form: the wins
/// and the opponent's are the winning actions that play finds, and every double threat leaves
/// two winning drops.
#[test]
fn random_positions_agree_with_play() {
    let mut rng = Xorshift(0x853c_49e6_748f_ea9b);
    let (mut wins, mut doubles) = (0, 0);
    for round in 0..1500 {
        let mut board = Board::new(8);
        let (n, m) = (6 + rng.below(8), 6 + rng.below(6));
        for _ in 0..2 * n {
            let p = Point::new(rng.below(5), rng.below(5));
            let c = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            if board.count()[c.index()] < m {
                board.set(p, Some(c));
            }
        }
        let moving = round % 2 == 0;
        let (hands, to_move) = if moving {
            ([0, 0], Color::ALL[rng.below(2)])
        } else {
            let h = 2 + rng.below(3);
            ([h + 1, h], Color::Black)
        };
        let setup = Setup {
            pieces: 25,
            ..Setup::new(Game::Quint)
        };
        let Ok(pos) = setup.start_quint_from(&board, hands, to_move) else {
            continue;
        };
        if pos.is_over() {
            continue;
        }
        let t = threats(&pos).unwrap();
        assert_eq!(t.wins, winning_cells(&pos), "round {round}");
        wins += t.wins.count_ones();
        let mut listed = Vec::new();
        winning_actions_into(&pos, &mut listed);
        assert_eq!(listed.is_empty(), t.wins == 0, "round {round}");
        for action in listed {
            assert!(won_by_five(&after(&pos, action), to_move), "round {round}");
        }
        if moving {
            let other = setup.start_quint_from(&board, hands, to_move.opponent());
            if let Some(other) = other.ok().filter(|o| !o.is_over()) {
                assert_eq!(t.opponent_wins, winning_cells(&other), "round {round}");
            }
        } else {
            let empty = pieces_empty(&pos);
            let own = pieces(&pos, to_move);
            for c in empty_cells(&pos).into_iter().map(bit) {
                let two = completing(own | c, empty & !c).count_ones() >= 2;
                assert_eq!(t.double_threats & c != 0, two, "round {round}");
                doubles += u32::from(two);
            }
        }
    }
    eprintln!("{wins} wins, {doubles} double threats");
    assert!(
        wins > 20 && doubles > 20,
        "{wins} wins, {doubles} double threats"
    );
}
