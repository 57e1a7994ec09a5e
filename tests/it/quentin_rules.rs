//! Quentin's worked examples of docs/rules.md, forced passes and the pie rule.

use quentin::rules::{
    Action, Board, Color, Game, Illegal, Point, Position, QuentinViolation, Setup,
};

fn pt(name: &str) -> Point {
    Point::parse(name).unwrap()
}

fn place(name: &str) -> Action {
    Action::Place(pt(name))
}

fn position(rows: &str, to_move: Color) -> Position {
    Setup::new(Game::Quentin)
        .start_from(Board::from_rows(rows).unwrap(), to_move)
        .unwrap()
}

fn rows(position: &Position) -> String {
    position.board().rows().join("|")
}

#[test]
fn black_e3_fills_a_territory_of_six_with_black() {
    let before = "..W.B|BBW.W|.....|WBBW.|.....";
    let mut pos = position(before, Color::Black);
    let effect = pos.preview(place("e3")).unwrap();
    let mut filled: Vec<String> = effect.fills().map(|(p, _)| p.to_string()).collect();
    filled.sort();
    assert_eq!(filled, ["a3", "b3", "c3", "d3", "d4", "d5"]);
    assert!(effect.fills().all(|(_, c)| c == Color::Black));
    assert_eq!(rows(&pos), before, "a preview changes nothing");
    pos.play(place("e3")).unwrap();
    assert_eq!(rows(&pos), "..WBB|BBWBW|BBBBB|WBBW.|.....");
    assert_eq!(pos.to_move(), Some(Color::White));
}

#[test]
fn white_d3_tie_fills_column_c_with_black() {
    let mut pos = position(".B.W.|.W.B.|.B...|.W.B.|.B.W.", Color::White);
    let effect = pos.preview(place("d3")).unwrap();
    assert_eq!(effect.fills().count(), 5);
    assert!(
        effect
            .fills()
            .all(|(p, c)| p.col() == 2 && c == Color::Black)
    );
    pos.play(place("d3")).unwrap();
    assert_eq!(rows(&pos), ".BBW.|.WBB.|.BBW.|.WBB.|.BBW.");
}

fn assert_illegal(rows_text: &str, to_move: Color, point: &str, reason: &str) {
    let mut pos = position(rows_text, to_move);
    let err = pos.play(place(point)).unwrap_err();
    assert_eq!(err.to_string(), reason);
    assert_eq!(
        rows(&pos),
        rows_text,
        "an illegal action leaves the board as it was"
    );
    assert_eq!(pos.to_move(), Some(to_move));
    assert_eq!(pos.ply(), 0);
    assert!(!pos.legal_actions().contains(&place(point)));
}

#[test]
fn white_b3_is_illegal_diagonal_to_c4() {
    assert_illegal(
        ".....|..W..|....B|.....|B....",
        Color::White,
        "b3",
        "b3 and c4 are diagonal with no shared white neighbour",
    );
}

#[test]
fn white_c4_is_illegal_after_its_tie_fill() {
    // b4 becomes a one-point territory touching one black and one white stone: tied, so it is
    // filled black (White's opponent), and then c4 and b3 share no white neighbour.
    let text = "BB...|B....|.W...|.....|.....";
    let pos = position(text, Color::White);
    let err = pos.preview(place("c4")).unwrap_err();
    assert_eq!(
        err,
        Illegal::Quentin(QuentinViolation::DiagonalWithoutSharedNeighbour {
            first: pt("c4"),
            second: pt("b3"),
            color: Color::White,
        })
    );
    assert_illegal(
        text,
        Color::White,
        "c4",
        "c4 and b3 are diagonal with no shared white neighbour",
    );
}

#[test]
fn occupied_points_are_refused() {
    let mut pos = Setup::new(Game::Quentin).start().unwrap();
    pos.play(place("g7")).unwrap();
    let err = pos.play(place("g7")).unwrap_err();
    assert_eq!(err, Illegal::Occupied(pt("g7"), Color::Black));
    assert_eq!(pos.ply(), 1);
}

/// A 5×5 position from a random game in which White has no legal placement.
const FORCED_PASS: &str = "BBBWB|W.BWW|B.WWW|...BW|BWBBW";

#[test]
fn a_side_without_legal_placement_must_pass() {
    let mut pos = position(FORCED_PASS, Color::White);
    assert_eq!(pos.legal_actions(), [Action::Pass]);
    for p in ["b4", "b3", "a2", "b2", "c2"] {
        let err = pos.play(place(p)).unwrap_err();
        assert!(
            matches!(err, Illegal::Quentin(_)),
            "{p}: refused for a reason of Quentin's own, got {err}"
        );
    }
    pos.play(Action::Pass).unwrap();
    assert_eq!(pos.to_move(), Some(Color::Black));
    assert_eq!(rows(&pos), FORCED_PASS, "a pass changes no stone");
    assert!(!pos.legal_actions().is_empty());
    assert_ne!(pos.legal_actions(), [Action::Pass]);
}

#[test]
fn passing_is_refused_while_a_placement_is_legal() {
    let mut pos = Setup::new(Game::Quentin).start().unwrap();
    assert_eq!(pos.play(Action::Pass), Err(Illegal::PassWithLegalPlacement));
    let mut black = position(FORCED_PASS, Color::Black);
    assert_eq!(
        black.play(Action::Pass),
        Err(Illegal::PassWithLegalPlacement)
    );
}

#[test]
fn a_recorded_game_reaches_the_forced_pass() {
    let record = quentin::record::Record::parse(
        "size 5\nd2 b1 a3 e3 a1 c3 b5 a4 e5 d5 c5 e1 c1 d3 c4\npass\n",
    )
    .unwrap();
    let pos = record.final_position();
    assert_eq!(rows(&record.position_at(15)), FORCED_PASS);
    assert_eq!(pos.to_move(), Some(Color::Black));
    assert_eq!(pos.ply(), 16);
}

#[test]
fn the_pie_rule_offers_one_swap_to_white() {
    let mut pos = Setup::new(Game::Quentin).start().unwrap();
    assert!(
        !pos.legal_actions().contains(&Action::Swap),
        "not before Black's first stone"
    );
    assert_eq!(pos.play(Action::Swap), Err(Illegal::SwapNotOffered));
    pos.play(place("c3")).unwrap();
    assert!(pos.legal_actions().contains(&Action::Swap));
    pos.play(Action::Swap).unwrap();
    // The players exchanged colours; the board stays and White is to move again.
    assert!(pos.swapped());
    assert_eq!(pos.to_move(), Some(Color::White));
    assert_eq!(pos.get(pt("c3")), Some(Color::Black));
    assert_eq!(pos.play(Action::Swap), Err(Illegal::SwapNotOffered));
    pos.play(place("b2")).unwrap();
    assert_eq!(pos.to_move(), Some(Color::Black));
}

#[test]
fn the_pie_rule_can_be_turned_off() {
    let mut pos = Setup {
        pie: false,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    pos.play(place("c3")).unwrap();
    assert!(!pos.legal_actions().contains(&Action::Swap));
    assert_eq!(pos.play(Action::Swap), Err(Illegal::SwapNotOffered));
}

#[test]
fn a_chain_between_both_edges_wins_and_ends_the_game() {
    let mut pos = Setup {
        size: 3,
        pie: false,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    for m in ["b1", "a1", "b2", "a2"] {
        pos.play(place(m)).unwrap();
    }
    assert!(!pos.is_over());
    pos.play(place("b3")).unwrap();
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner(), Some(Color::Black));
    let chain: Vec<String> = outcome.line().iter().map(|p| p.to_string()).collect();
    assert_eq!(chain, ["b1", "b2", "b3"]);
    assert_eq!(pos.to_move(), None);
    assert!(pos.legal_actions().is_empty());
    assert_eq!(pos.play(place("c1")), Err(Illegal::GameOver));
}

#[test]
fn a_tie_fill_can_complete_the_opponents_chain() {
    // White's c2 closes the territory d2–d3, which touches d1 and d4 (black) and c2 and c3
    // (white): a tie, so it fills black and joins d1 to d4. Black wins on White's move.
    let mut pos = position("...B|..W.|....|...B", Color::White);
    let effect = pos.preview(place("c2")).unwrap();
    let mut fills: Vec<(Point, Color)> = effect.fills().collect();
    fills.sort();
    assert_eq!(fills, [(pt("d2"), Color::Black), (pt("d3"), Color::Black)]);
    pos.play(place("c2")).unwrap();
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner(), Some(Color::Black));
    assert_eq!(outcome.line().len(), 4);
}
