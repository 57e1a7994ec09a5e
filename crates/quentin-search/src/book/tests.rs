//! Books made by the solver, walked by the rules; bad books refused with what is wrong.

use super::*;
use crate::solver::tests::attacker_wins;
use crate::solver::{SolveLimits, SolveOptions, make_book};

fn start(game: Game, size: usize, pie: bool) -> Position {
    let mut setup = Setup::new(game);
    setup.size = size;
    setup.pie = pie;
    setup.start().unwrap()
}

fn made(game: Game, size: usize, pie: bool) -> Book {
    let start = start(game, size, pie);
    make_book(&start, &SolveLimits::default(), SolveOptions::default())
        .unwrap()
        .book
}

const GAMES: [Game; 3] = [Game::Quentin, Game::Konobi, Game::Brique];

#[test]
fn every_3x3_book_proves_what_the_exhaustive_search_says() {
    for game in GAMES {
        for pie in [false, true] {
            let book = made(game, 3, pie);
            let pos = start(game, 3, pie);
            // To the end of the game: at most one move per empty point, a swap and passes.
            let first_wins = attacker_wins(&pos, 2 * 9 + 2);
            let expected = if first_wins {
                Winner::First
            } else {
                Winner::Second
            };
            assert_eq!(book.winner(), expected, "{game} 3×3 pie {pie}");
            let walked = walk(&book).unwrap_or_else(|e| panic!("{game} 3×3 pie {pie}: {e}"));
            assert_eq!(
                walked.entries_used,
                book.len(),
                "{game} 3×3: an entry unused"
            );
            let again = Book::from_bytes(&book.to_bytes()).unwrap();
            assert_eq!(again, book);
        }
    }
}

#[test]
fn a_book_with_a_wrong_move_is_refused_where_it_goes_wrong() {
    let book = made(Game::Quentin, 3, false);
    let pos = start(Game::Quentin, 3, false);
    let right = book.get(&pos).unwrap();
    // Every other first move of Black: b2 loses, the others win; give the book the loser.
    let mut bad = book.clone();
    let b2 = Action::Place(Point::parse("b2").unwrap());
    assert_ne!(right, b2);
    bad.insert(&pos, b2);
    let err = walk(&bad).unwrap_err();
    // The walk stops in the line of b2: a game lost, or a turn the book has no move for.
    let line = match &err {
        WalkError::Lost { line } | WalkError::NoMove { line, .. } => line.clone(),
        other => panic!("{other}"),
    };
    assert_eq!(line[0], b2, "{err}");
    // A move onto a stone is not legal.
    let mut bad = book.clone();
    let mut after = pos.clone();
    after.play(right).unwrap();
    let reply = after.legal_actions()[0];
    after.play(reply).unwrap();
    bad.insert(&after, right);
    let err = walk(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("after {right} {reply}, the book's move {right} is not legal")
    );
}

#[test]
fn a_book_without_an_entry_or_with_the_wrong_winner_is_refused() {
    let book = made(Game::Konobi, 3, false);
    let mut missing = book.clone();
    missing
        .moves
        .remove(&missing.image_of(&missing.start().unwrap()));
    let err = walk(&missing).unwrap_err();
    assert_eq!(
        err.to_string(),
        "at the start, black (the winner) is to move and the book has no move for it"
    );
    let mut wrong = book.clone();
    wrong.winner = Winner::Second;
    assert!(walk(&wrong).is_err());
}

#[test]
fn damaged_files_are_refused_with_what_is_wrong() {
    let bytes = made(Game::Brique, 3, true).to_bytes();
    let cut = &bytes[..bytes.len() - 1];
    assert!(
        Book::from_bytes(cut)
            .unwrap_err()
            .to_string()
            .contains("were announced")
    );
    let text = String::from_utf8_lossy(&bytes).replacen("version 1", "version 9", 1);
    let mut other = text.into_bytes();
    other.truncate(bytes.len());
    assert_eq!(
        Book::from_bytes(&other).unwrap_err().to_string(),
        "not a book: a book of version 9, this program reads version 1"
    );
    assert!(Book::from_bytes(b"quentin-book version 1\nchess\n").is_err());
    let mut bad = bytes.clone();
    // The move byte of the last entry: beyond the board.
    bad[bytes.len() - 1] = 200;
    assert_eq!(
        Book::from_bytes(&bad).unwrap_err().to_string(),
        format!(
            "not a book: entry {} has no move",
            Book::from_bytes(&bytes).unwrap().len()
        )
    );
}

#[test]
fn a_walk_from_a_position_off_the_books_strategy_fails() {
    let book = made(Game::Quentin, 3, false);
    let mut pos = start(Game::Quentin, 3, false);
    // b2 is Black's one losing first move: White wins from there, not Black.
    pos.play(Action::Place(Point::parse("b2").unwrap()))
        .unwrap();
    assert!(walk_from(&book, &pos).is_err());
    // After the book's own move, the walk from the loser's turn succeeds.
    let mut pos = start(Game::Quentin, 3, false);
    pos.play(book.get(&pos).unwrap()).unwrap();
    assert!(walk_from(&book, &pos).is_ok());
    assert!(walk_from(&book, &start(Game::Konobi, 3, false)).is_err());
}

#[test]
fn every_shipped_book_is_walked_to_the_end_of_every_game_by_the_rules() {
    let mut count = 0;
    for (game, size, pie) in shipped::boards() {
        let book = shipped::shipped(game, size, pie)
            .unwrap_or_else(|| panic!("{game} {size}×{size} pie {pie}: the file is no book"));
        assert!((book.game(), book.size(), book.pie()) == (game, size, pie));
        let walked = walk(book).unwrap_or_else(|e| panic!("{game} {size}×{size} pie {pie}: {e}"));
        assert_eq!(
            walked.entries_used,
            book.len(),
            "{game} {size}×{size}: an entry unused"
        );
        count += 1;
    }
    assert!(count >= 12);
}

#[test]
fn the_shipped_4x4_books_say_what_the_solvers_table_says() {
    // docs/solver.md's rows: Quentin and Brique 4×4 won by the first player without the pie
    // rule, Konobi 4×4 lost; with the pie rule the second player wins all three.
    for (game, first) in [
        (Game::Quentin, true),
        (Game::Konobi, false),
        (Game::Brique, true),
    ] {
        let off = shipped::shipped(game, 4, false).unwrap();
        let on = shipped::shipped(game, 4, true).unwrap();
        let expected = if first { Winner::First } else { Winner::Second };
        assert_eq!(off.winner(), expected, "{game}");
        assert_eq!(on.winner(), Winner::Second, "{game}");
    }
}

#[test]
fn the_book_s_winner_wins_every_game_against_random_and_greedy_defenders() {
    use crate::players::Baseline;
    use crate::rng::Rng;
    let mut rng = Rng::new(61);
    for (game, size, pie) in shipped::boards() {
        let book = shipped::shipped(game, size, pie).unwrap();
        for defender in [Baseline::Random, Baseline::Greedy] {
            for _ in 0..20 {
                let mut pos = book.start().unwrap();
                while !pos.is_over() {
                    let winner = book.winner().color(&pos);
                    let action = if pos.to_move() == Some(winner) {
                        book.get(&pos)
                            .or_else(|| move_at_once(&pos, winner))
                            .unwrap()
                    } else {
                        defender.choose(&pos, &mut rng).unwrap()
                    };
                    pos.play(action).unwrap();
                }
                let winner = book.winner().color(&pos);
                assert_eq!(pos.winner(), Some(winner), "{game} {size}×{size} pie {pie}");
            }
        }
    }
}

#[test]
fn a_book_answers_from_its_entries_its_walk_held_to_the_cap() {
    // Konobi 5×5 with the pie rule: the second player wins, so the first cannot, told from the
    // entries of White's replies at once; the strategy below (12,001,540 positions) is walked
    // only up to the cap.
    let book = shipped::shipped(Game::Konobi, 5, true).unwrap();
    let got = answer(book, &start(Game::Konobi, 5, true), 1000).unwrap();
    assert_eq!((got.wins, got.action, got.walked), (false, None, None));
    // Quentin 4×4 without the pie rule: Black wins with the book's move, and below the cap the
    // walk is the whole book's.
    let book = shipped::shipped(Game::Quentin, 4, false).unwrap();
    let pos = start(Game::Quentin, 4, false);
    let got = answer(book, &pos, usize::MAX).unwrap();
    assert!(got.wins);
    assert_eq!(got.action, book.get(&pos));
    assert_eq!(got.walked, Some(walk(book).unwrap()));
}
