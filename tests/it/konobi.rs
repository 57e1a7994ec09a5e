//! Konobi's worked examples and sample game from docs/rules.md, and its readable reasons.

use quentin::record::Record;
use quentin::rules::{
    Action, Board, Color, Game, Illegal, KonobiViolation, Point, Position, Setup, konobi,
};

fn pt(name: &str) -> Point {
    Point::parse(name).unwrap()
}

/// The worked-example board `rows` (top row first) with `to_move` to move.
fn from_rows(rows: &str, to_move: Color) -> Position {
    Setup::new(Game::Konobi)
        .start_from(Board::from_rows(rows).unwrap(), to_move)
        .unwrap()
}

fn place(name: &str) -> Action {
    Action::Place(pt(name))
}

#[test]
fn weak_connection_allowed_when_both_strong_alternatives_are_weak_too() {
    let pos = from_rows(".....|W.W..|B.W.B|..B..|..BW.", Color::Black);
    // b3 connects weakly to c2; c2's strong alternatives b2 and d2 would connect weakly to a3
    // and e3.
    assert!(pos.is_legal(place("b3")));
    assert_eq!(
        pos.preview(place("b2")).unwrap_err(),
        Illegal::Konobi(KonobiViolation::AvoidableWeakConnection {
            point: pt("b2"),
            weak_to: pt("a3"),
            instead: pt("a2"),
        })
    );
    assert_eq!(
        pos.preview(place("b2")).unwrap_err().to_string(),
        "b2 would join a3 only corner to corner, but a2 would join a3 side by side"
    );
}

#[test]
fn weak_connection_refused_when_a_clean_strong_one_exists() {
    let pos = from_rows(".....|.....|..W..|W.B..|B....", Color::Black);
    assert!(pos.is_legal(place("b2")));
    let Err(Illegal::Konobi(KonobiViolation::AvoidableWeakConnection {
        point,
        weak_to,
        instead,
    })) = pos.preview(place("b1"))
    else {
        panic!("b1 is refused as an avoidable weak connection");
    };
    assert_eq!((point, weak_to), (pt("b1"), pt("c2")));
    // docs/rules.md names c1; d2 connects to c2 cleanly as well, and either is a right reason.
    assert!(
        [pt("c1"), pt("d2")].contains(&instead),
        "{instead} is no clean alternative"
    );
    for clean in ["c1", "d2"] {
        let mut board = pos.board().clone();
        board.set(pt(clean), Some(Color::Black));
        assert!(
            konobi::weak_connections(&board)
                .iter()
                .all(|&(a, b)| a != pt(clean) && b != pt(clean)),
            "{clean} connects weakly"
        );
    }
}

#[test]
fn crosscut_is_refused_naming_its_square() {
    let pos = from_rows(".....|.....|..WB.|...W.|.....", Color::Black);
    assert_eq!(
        pos.preview(place("c2")).unwrap_err(),
        Illegal::Konobi(KonobiViolation::Crosscut {
            point: pt("c2"),
            square: pt("c2"),
        })
    );
    assert_eq!(
        pos.preview(place("c2")).unwrap_err().to_string(),
        "c2 would make a crosscut: c2 and d3 corner to corner across c3 and d2"
    );
}

const SAMPLE: &str = "c3 d4 c4 c1 c2 a1 e1 d1 e2 d2 e3 d5 e4 e5 d3 c5 a5 b5 a4 b4 a3 b3 a2 b1 b2";

#[test]
fn sample_game_black_wins_with_move_25() {
    for pie in ["on", "off"] {
        let record = Record::parse(&format!("game konobi\nsize 5\npie {pie}\n{SAMPLE}\n")).unwrap();
        assert_eq!(record.actions().len(), 25);
        let before_last = record.position_at(24);
        assert_eq!(before_last.outcome(), None);
        let end = record.final_position();
        let outcome = end.outcome().expect("the game is over");
        assert_eq!(outcome.winner(), Some(Color::Black));
        assert!(outcome.line().contains(pt("b2")));
        assert_eq!(end.to_move(), None);
        assert!(end.legal_actions().is_empty());
    }
}

#[test]
fn sample_game_white_b2_at_move_24_is_illegal() {
    let record = Record::parse(&format!("game konobi\nsize 5\n{SAMPLE}\n")).unwrap();
    let pos = record.position_at(23);
    assert_eq!(pos.to_move(), Some(Color::White));
    // b2 would connect weakly to c1 (b1 empty, c2 black), while b1 connects to c1 cleanly.
    assert_eq!(
        pos.preview(place("b2")).unwrap_err().to_string(),
        "b2 would join c1 only corner to corner, but b1 would join c1 side by side"
    );
    assert_eq!(pos.legal_actions(), vec![place("b1")]);
    // The record says so too, at the right place.
    let moves: Vec<&str> = SAMPLE.split(' ').take(23).collect();
    let err = Record::parse(&format!("game konobi\nsize 5\n{} b2\n", moves.join(" "))).unwrap_err();
    assert!(
        err.to_string()
            .contains("action 24 (white b2) is illegal: "),
        "{err}"
    );
}
