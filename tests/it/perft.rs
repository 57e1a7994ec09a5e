//! Perft counts (docs/rules.md): the number of action sequences of each length from the empty
//! board, pie rule on, `swap` and forced `pass` counted as actions.

use quentin::rules::{Game, Position, Setup};

fn perft(position: &Position, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = position.legal_actions();
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .into_iter()
        .map(|action| {
            let mut next = position.clone();
            next.play(action).expect("a listed action plays");
            perft(&next, depth - 1)
        })
        .sum()
}

fn check(game: Game, size: usize, expected: &[u64]) {
    let setup = Setup {
        size,
        ..Setup::new(game)
    };
    let start = setup.start().unwrap();
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(
            perft(&start, depth + 1),
            count,
            "{game} {size}×{size} at depth {}",
            depth + 1
        );
    }
}

#[test]
fn quentin_3x3_to_depth_5() {
    check(Game::Quentin, 3, &[9, 81, 520, 2656, 10132]);
}

#[test]
fn quentin_4x4_to_depth_4() {
    check(Game::Quentin, 4, &[16, 256, 3224, 37456]);
}

#[test]
fn konobi_3x3_to_depth_5() {
    check(Game::Konobi, 3, &[9, 81, 464, 2216, 8776]);
}

#[test]
fn konobi_4x4_to_depth_4() {
    check(Game::Konobi, 4, &[16, 256, 3096, 34400]);
}

#[test]
fn brique_3x3_to_depth_5() {
    check(Game::Brique, 3, &[9, 81, 576, 3480, 17376]);
}

#[test]
fn brique_4x4_to_depth_4() {
    check(Game::Brique, 4, &[16, 256, 3600, 46806]);
}
