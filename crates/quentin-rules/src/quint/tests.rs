//! Quint's rules, clause by clause.

use super::*;
use crate::{Ending, Game, Position, Setup};

/// The position of `rows` (top row first) with `in_hand` (Black first) and `to_move`.
fn position(rows: &str, in_hand: [usize; 2], to_move: Color) -> Position {
    let board = Board::from_rows(rows).unwrap();
    Setup::new(Game::Quint)
        .start_quint_from(&board, in_hand, to_move)
        .unwrap()
}

/// The position of `rows` after `tokens`.
fn played(rows: &str, in_hand: [usize; 2], to_move: Color, tokens: &[&str]) -> Position {
    let mut pos = position(rows, in_hand, to_move);
    for token in tokens {
        act(&mut pos, token);
    }
    pos
}

/// The winning line, cell names in order.
fn line(pos: &Position) -> Vec<String> {
    pos.outcome()
        .unwrap()
        .line()
        .iter()
        .map(|p| p.to_string())
        .collect()
}

fn act(pos: &mut Position, token: &str) {
    let action = Action::parse(token).unwrap();
    pos.play(action)
        .unwrap_or_else(|e| panic!("{token} is illegal: {e}"));
}

fn refused(pos: &Position, token: &str) -> String {
    let mut copy = pos.clone();
    let err = copy.play(Action::parse(token).unwrap()).unwrap_err();
    assert_eq!(copy.ply(), pos.ply(), "a refused action changes nothing");
    err.to_string()
}

fn at(pos: &Position, cell: &str) -> Option<Color> {
    pos.get(Point::parse(cell).unwrap())
}

fn winner(pos: &Position) -> Option<Color> {
    pos.outcome().and_then(Outcome::winner)
}

fn legal(pos: &Position) -> Vec<String> {
    let mut all: Vec<String> = pos.legal_actions().iter().map(|a| a.to_string()).collect();
    all.sort();
    all
}

const EMPTY: &str = "........|........|........|........|........|........|........|........";

#[test]
fn white_drops_first_and_steps_only_after_every_drop() {
    let mut pos = Setup {
        pieces: 15,
        ..Setup::new(Game::Quint)
    }
    .start()
    .unwrap();
    assert_eq!(pos.to_move(), Some(Color::White));
    assert_eq!(pos.in_hand(), Some([15, 15]));
    assert_eq!(pos.legal_actions().len(), 64);
    assert_eq!(refused(&pos, "a1-a2"), "white still has 15 pieces to drop");
    assert_eq!(
        refused(&pos, "pass"),
        "Quint has no pass: a player without a legal action loses"
    );
    assert!(refused(&pos, "swap").starts_with("swap is allowed only"));
    // Drops spread so that no line of five can form: every third cell of a row.
    let cells: Vec<Point> = (0..SIZE)
        .flat_map(|row| (0..SIZE).map(move |col| Point::new(col, row)))
        .filter(|p| (p.col() + p.row()) % 3 != 0)
        .take(30)
        .collect();
    for (i, &p) in cells.iter().enumerate() {
        assert!(
            pos.legal_actions()
                .iter()
                .all(|a| matches!(a, Action::Place(_)))
        );
        pos.play(Action::Place(p)).unwrap();
        let color = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(pos.get(p), Some(color));
    }
    assert_eq!(pos.in_hand(), Some([0, 0]));
    assert_eq!(pos.to_move(), Some(Color::White));
    assert!(!pos.is_over());
    let free = Point::new(0, 0);
    assert_eq!(
        refused(&pos, &free.to_string()),
        "drops are over: move a piece"
    );
    assert!(
        pos.legal_actions()
            .iter()
            .all(|a| matches!(a, Action::Step { .. }))
    );
}

#[test]
fn a_drop_that_sandwiches_captures_nothing() {
    let pos = played(
        "........|........|........|........|..WB....|........|........|........",
        [4, 4],
        Color::White,
        &["e4"],
    );
    assert_eq!(at(&pos, "d4"), Some(Color::Black));
    assert_eq!(pos.board().count(), [1, 2]);
}

#[test]
fn a_drop_of_exactly_five_wins() {
    let pos = played(
        "........|........|........|........|........|........|BBBB....|WWWW....",
        [1, 1],
        Color::White,
        &["e1"],
    );
    assert_eq!(winner(&pos), Some(Color::White));
    assert_eq!(line(&pos), ["a1", "b1", "c1", "d1", "e1"]);
    assert_eq!(pos.outcome().unwrap().ending(), Ending::Quint);
    assert!(pos.legal_actions().is_empty());
    assert_eq!(pos.to_move(), None);
}

#[test]
fn an_overline_does_not_win() {
    // White closes a1-f1 into six: no win, in the drop phase and in the move phase.
    let dropping = played(
        "........|........|........|........|........|........|BBBB....|WWWW.W..",
        [1, 1],
        Color::White,
        &["e1"],
    );
    assert!(!dropping.is_over());
    let moving = played(
        "........|........|........|.......B|.......B|........|....W...|WWWW.W..",
        [0, 0],
        Color::White,
        &["e2-e1"],
    );
    assert!(!moving.is_over());
    // A vertical five does win.
    let mut column = played(
        "......B.|.......B|.......B|.......B|.......B|..W.....|..W.....|..W...W.",
        [0, 0],
        Color::White,
        &["g1-f1"],
    );
    assert!(!column.is_over());
    act(&mut column, "g8-h8");
    assert_eq!(
        winner(&column),
        Some(Color::Black),
        "h4-h8 is a vertical five"
    );
}

#[test]
fn cutting_the_opponents_six_to_five_makes_the_opponent_win() {
    let rows = "........|........|.....W..|BBBBBB..|......W.|........|........|........";
    let declined = played(rows, [0, 0], Color::White, &["g4-f4"]);
    assert!(!declined.is_over());
    let cut = played(rows, [0, 0], Color::White, &["g4-f4xf5"]);
    assert_eq!(at(&cut, "f5"), None);
    assert_eq!(winner(&cut), Some(Color::Black));
    assert_eq!(line(&cut), ["a5", "b5", "c5", "d5", "e5"]);
}

#[test]
fn the_movers_five_comes_before_the_opponents() {
    let rows = "........|........|.....W..|BBBBBB..|.WWWW.W.|........|........|........";
    let pos = played(rows, [0, 0], Color::White, &["g4-f4xf5"]);
    assert_eq!(winner(&pos), Some(Color::White));
    assert!(
        pos.outcome()
            .unwrap()
            .line()
            .contains(Point::parse("f4").unwrap())
    );
}

#[test]
fn a_declined_capture_leaves_the_piece() {
    let rows = "........|........|.....W..|.....B..|......W.|........|.......B|........";
    let pos = position(rows, [0, 0], Color::White);
    let legal = legal(&pos);
    assert!(legal.contains(&"g4-f4".to_string()));
    assert!(legal.contains(&"g4-f4xf5".to_string()));
    let mut declined = pos.clone();
    act(&mut declined, "g4-f4");
    assert_eq!(at(&declined, "f5"), Some(Color::Black));
    assert_eq!(at(&declined, "f4"), Some(Color::White));
    assert_eq!(at(&declined, "g4"), None);
}

#[test]
fn a_step_chooses_any_subset_of_its_captures() {
    // White arriving on d4 may take c4 (b4 beyond), e4 (f4 beyond) and d5 (d6 beyond).
    let rows = "........|........|...W....|...B....|.WB.BW..|...W....|........|.......B";
    let pos = position(rows, [0, 0], Color::White);
    let from_d3: Vec<String> = legal(&pos)
        .into_iter()
        .filter(|a| a.starts_with("d3-d4"))
        .collect();
    assert_eq!(
        from_d3,
        [
            "d3-d4",
            "d3-d4xc4",
            "d3-d4xc4xd5",
            "d3-d4xc4xd5xe4",
            "d3-d4xc4xe4",
            "d3-d4xd5",
            "d3-d4xd5xe4",
            "d3-d4xe4"
        ]
    );
    let mut pos = pos;
    act(&mut pos, "d3-d4XE4xC4");
    assert_eq!(pos.board().rows()[4], ".W.W.W..");
    assert_eq!(at(&pos, "d5"), Some(Color::Black));
}

#[test]
fn stepping_between_two_enemies_is_safe() {
    let rows = "........|........|........|........|..B.B...|...W....|........|.......B";
    let pos = played(rows, [0, 0], Color::White, &["d3-d4"]);
    assert_eq!(at(&pos, "d4"), Some(Color::White));
    // No black step can take it: no black piece can arrive next to it with one beyond.
    assert!(!legal(&pos).iter().any(|a| a.ends_with("xd4")));
}

#[test]
fn the_stalemated_side_loses() {
    let rows = "........|........|........|........|........|W.......|........|BW......";
    let pos = played(rows, [0, 0], Color::White, &["a3-a2"]);
    assert_eq!(at(&pos, "a1"), Some(Color::Black));
    assert_eq!(winner(&pos), Some(Color::White));
    assert!(pos.outcome().unwrap().line().is_empty());
    assert_eq!(pos.outcome().unwrap().ending(), Ending::NoLegalAction);
    assert!(pos.legal_actions().is_empty());
}

#[test]
fn a_position_set_up_stalemated_is_already_over() {
    let rows = "........|........|........|........|........|........|W.......|BW......";
    let pos = position(rows, [0, 0], Color::Black);
    assert_eq!(winner(&pos), Some(Color::White));
}

#[test]
fn the_side_without_pieces_loses() {
    let rows = "........|........|........|........|...W....|...B....|........|...W...W";
    let pos = played(rows, [0, 0], Color::White, &["d1-d2xd3"]);
    assert_eq!(pos.board().count(), [0, 3]);
    assert_eq!(winner(&pos), Some(Color::White));
    assert_eq!(pos.outcome().unwrap().ending(), Ending::NoPieceLeft);
}

#[test]
fn the_third_repetition_draws() {
    let rows = "W.......|........|........|........|........|........|........|.......B";
    let mut pos = position(rows, [0, 0], Color::White);
    let round = ["a8-b8", "h1-g1", "b8-a8", "g1-h1"];
    for token in round {
        act(&mut pos, token);
    }
    // The start is on the board for the second time.
    assert!(!pos.is_over());
    for token in &round[..3] {
        act(&mut pos, token);
        assert!(!pos.is_over());
    }
    act(&mut pos, "g1-h1");
    assert_eq!(pos.outcome(), Some(&Outcome::Draw));
    assert_eq!(pos.outcome().unwrap().ending(), Ending::ThirdRepetition);
    assert_eq!(winner(&pos), None);
    assert!(pos.outcome().unwrap().line().is_empty());
    assert!(pos.legal_actions().is_empty());
    assert_eq!(refused(&pos, "a8-b8"), "the game is over");
}

#[test]
fn a_capture_starts_the_repetition_count_afresh() {
    // Positions before a drop or a capture can never come back: only what follows is kept.
    let board =
        Board::from_rows("W.......|........|........|........|..W.....|..B.....|...W....|.......B")
            .unwrap();
    let mut quint = Quint::from_position(board, [0, 0], Color::White);
    for token in ["a8-b8", "h1-g1", "b8-a8", "g1-h1"] {
        quint.play(Action::parse(token).unwrap()).unwrap();
    }
    assert_eq!(quint.history.len(), 5);
    quint.play(Action::parse("d2-c2xc3").unwrap()).unwrap();
    assert_eq!(quint.history.len(), 1);
    quint.play(Action::parse("h1-g1").unwrap()).unwrap();
    assert_eq!(quint.history.len(), 2);
    let mut dropping = Quint::new(15);
    dropping.play(Action::parse("c4").unwrap()).unwrap();
    assert_eq!(dropping.history.len(), 1);
}

#[test]
fn illegal_actions_say_why() {
    let rows = "........|........|........|...W....|..B.B...|...W....|........|.......B";
    let pos = position(rows, [0, 0], Color::White);
    let cases = [
        ("c4-c5", "c4 holds no white piece"),
        ("d5-d7", "d5-d7 is not a one-step orthogonal move"),
        ("d5-e6", "d5-e6 is not a one-step orthogonal move"),
        ("d3-d3", "d3-d3 is not a one-step orthogonal move"),
        ("d3-c3xc5", "c5 cannot be captured: it is not next to c3"),
        ("d3-d4xd5", "d5 cannot be captured: it holds no black piece"),
        (
            "d3-d4xc4",
            "c4 cannot be captured: no white piece beyond it",
        ),
        (
            "d5-d4xc4xe4",
            "c4 cannot be captured: no white piece beyond it",
        ),
        ("d3-d2xi2", "i2 is off the board"),
        ("c6", "drops are over: move a piece"),
    ];
    for (token, reason) in cases {
        assert_eq!(refused(&pos, token), reason, "{token}");
    }
    let dropping = position(EMPTY, [3, 3], Color::White);
    assert_eq!(refused(&dropping, "i9"), "i9 is off the board");
    let mut occupied = dropping.clone();
    act(&mut occupied, "c4");
    assert_eq!(refused(&occupied, "c4"), "c4 is not empty");
    let mut moving = pos.clone();
    act(&mut moving, "d5-e5");
    assert_eq!(refused(&moving, "e4-e5"), "e5 is not empty");
}

#[test]
fn set_up_positions_are_checked() {
    let board = Board::from_rows(EMPTY).unwrap();
    let quint = Setup::new(Game::Quint);
    assert!(
        quint
            .start_quint_from(&board, [20, 20], Color::White)
            .is_ok()
    );
    assert!(
        quint
            .start_quint_from(&board, [20, 19], Color::Black)
            .is_ok()
    );
    assert!(
        quint
            .start_quint_from(&board, [19, 19], Color::Black)
            .is_err()
    );
    assert!(
        quint
            .start_quint_from(&board, [21, 21], Color::White)
            .is_err()
    );
    assert!(
        quint
            .start_quint_from(&Board::new(9), [0, 0], Color::White)
            .is_err()
    );
    assert!(
        Setup::new(Game::Quentin)
            .start_quint_from(&board, [0, 0], Color::White)
            .is_err()
    );
    let pie = Setup { pie: true, ..quint };
    assert_eq!(
        pie.start().unwrap_err().to_string(),
        "Quint has no pie rule"
    );
    let pieces = Setup {
        pieces: 16,
        ..quint
    };
    assert_eq!(
        pieces.start().unwrap_err().to_string(),
        "16 pieces is not an option: Quint is played with 15, 20, 25 pieces"
    );
    let size = Setup { size: 9, ..quint };
    assert_eq!(
        size.start().unwrap_err().to_string(),
        "size 9 is out of range: Quint is played on size 8 only"
    );
}
