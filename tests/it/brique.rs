//! Brique's worked examples from docs/rules.md: fills, removals and their absence.

use quentin::rules::{Action, Board, Color, Game, Point, Position, Setup, brique};

fn pt(name: &str) -> Point {
    Point::parse(name).unwrap()
}

fn place(name: &str) -> Action {
    Action::Place(pt(name))
}

fn from_rows(rows: &str, to_move: Color) -> Position {
    Setup::new(Game::Brique)
        .start_from(Board::from_rows(rows).unwrap(), to_move)
        .unwrap()
}

#[test]
fn black_c4_fills_d4_and_c3_removing_whites_c3() {
    let mut pos = from_rows("...BB|.....|BBWW.|...W.|.....", Color::Black);
    let effect = pos.preview(place("c4")).unwrap();
    let mut fills: Vec<(Point, Color)> = effect.fills().collect();
    fills.sort();
    assert_eq!(
        fills,
        vec![(pt("c3"), Color::Black), (pt("d4"), Color::Black)]
    );
    let removals: Vec<(Point, Color)> = effect.removals().collect();
    assert_eq!(removals, vec![(pt("c3"), Color::White)]);
    pos.play(place("c4")).unwrap();
    assert_eq!(
        pos.board().rows().join("|"),
        "...BB|..BB.|BBBW.|...W.|....."
    );
    assert_eq!(pos.to_move(), Some(Color::White));
}

#[test]
fn black_b5_on_an_empty_board_fills_nothing() {
    let mut pos = Setup {
        size: 5,
        ..Setup::new(Game::Brique)
    }
    .start()
    .unwrap();
    // c5 is light: its only escort is b5 (nothing above it).
    assert!(brique::is_light(pt("c5")));
    assert_eq!(
        brique::escorts(5, pt("c5")).collect::<Vec<_>>(),
        vec![pt("b5")]
    );
    pos.play(place("b5")).unwrap();
    assert_eq!(pos.board().count(), [1, 0]);
}

#[test]
fn escorts_of_light_and_dark_squares() {
    // a1 is light: above and left (none); b1 dark: below (none) and right.
    assert!(brique::is_light(pt("a1")));
    assert!(!brique::is_light(pt("b1")));
    assert_eq!(
        brique::escorts(15, pt("a1")).collect::<Vec<_>>(),
        vec![pt("a2")]
    );
    assert_eq!(
        brique::escorts(15, pt("b1")).collect::<Vec<_>>(),
        vec![pt("c1")]
    );
    let mut c3: Vec<Point> = brique::escorts(15, pt("c3")).collect();
    c3.sort();
    assert_eq!(c3, vec![pt("b3"), pt("c4")]);
    let mut d3: Vec<Point> = brique::escorts(15, pt("d3")).collect();
    d3.sort();
    assert_eq!(d3, vec![pt("d2"), pt("e3")]);
}

#[test]
fn every_empty_square_is_legal() {
    let pos = from_rows("...BB|..BB.|BBBW.|...W.|.....", Color::White);
    let empty = pos
        .board()
        .points()
        .filter(|&p| pos.get(p).is_none())
        .count();
    assert_eq!(pos.legal_actions().len(), empty);
}
