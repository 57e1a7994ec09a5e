//! `Setup::start_from`: a position of any connection game from a board.

use quentin::rules::{Action, Board, Color, Game, Point, Setup};

#[test]
fn start_from_takes_the_board_size_and_turns_the_pie_rule_off() {
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let board = Board::from_rows("...|.B.|...").unwrap();
        let pos = Setup::new(game)
            .start_from(board.clone(), Color::White)
            .unwrap();
        assert_eq!(pos.size(), 3);
        assert!(!pos.setup().pie);
        assert_eq!(pos.board(), &board);
        assert_eq!(pos.to_move(), Some(Color::White));
        assert_eq!(pos.ply(), 0);
        assert!(!pos.legal_actions().contains(&Action::Swap));
        let mut next = pos.clone();
        next.play(Action::Place(Point::parse("a1").unwrap()))
            .unwrap();
        assert!(!next.legal_actions().contains(&Action::Swap), "{game}");
    }
}

#[test]
fn start_from_a_won_board_is_over() {
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let board = Board::from_rows(".B.|.B.|.B.").unwrap();
        let pos = Setup::new(game).start_from(board, Color::White).unwrap();
        assert_eq!(pos.outcome().and_then(|o| o.winner()), Some(Color::Black));
        assert!(pos.legal_actions().is_empty());
    }
}

#[test]
fn start_from_refuses_a_board_out_of_range() {
    let board = Board::from_rows("..|..").unwrap();
    assert!(
        Setup::new(Game::Konobi)
            .start_from(board, Color::Black)
            .is_err()
    );
}
