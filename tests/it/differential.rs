//! Differential tests that keep the fast rules engine honest: along seeded random games of
//! Quentin, Konobi and Brique (sizes 3 to 13, pie rule on and off) every position is compared
//! with the plain reference implementations of `tests/common/`: the legal actions (`pass` and
//! `swap` included), the board after each legal action, the side to move and the winner with its
//! chain. Random playouts are checked to end in a win that the reference confirms.
//!
//! The engine also keeps its board as bitboards of rows of N bits plus a spare bit, whose rows
//! cross 64-bit word boundaries differently at each size: games at sizes 3, 8, 13, 21 and 26
//! (one to eleven words) are followed action by action against the reference, up to the largest
//! board.

use crate::common;

use common::naive::{self, Points, Stones, on_edge};
use common::reference::{self, RefPosition};
use common::{CONNECTION_GAMES, seeded_game};
use quentin::rules::{Action, Color, Game, Point, Position, Setup};
use quentin::search::playout;
use quentin::search::rng::Rng;

/// Random games played per game, size and pie setting. With sizes 3 to 13 and both pie
/// settings that is 2 × 11 × 2 = 44 games a game: 2,045 positions for Quentin, 2,921 for Konobi
/// and 2,522 for Brique, 7,488 in all, each with every legal action played out and every other
/// action refused (about 2.5 s in `cargo test --release` on two cores).
const GAMES_PER_SETUP: u64 = 2;

/// The fewest positions each game's test must check, so that the count above stays true.
const MIN_POSITIONS: usize = 1_800;

/// Checks that `pos` reports `winner`, and that its winning line is a whole chain of the
/// reference touching both of the winner's edges.
fn check_outcome(pos: &Position, winner: Option<Color>, context: &str) {
    let outcome = pos.outcome();
    assert_eq!(
        outcome.and_then(|o| o.winner()),
        winner,
        "{context}: winner"
    );
    let (Some(outcome), Some(winner)) = (outcome, winner) else {
        return;
    };
    let n = pos.size();
    let line: Points = outcome.line().iter().map(|p| (p.col(), p.row())).collect();
    let board = naive::stones(pos);
    let start = *line.iter().next().expect("a winning line has stones");
    assert_eq!(
        line,
        reference::chain(pos.game(), n, &board, start),
        "{context}: the line is one whole chain"
    );
    assert!(
        line.iter().all(|p| board.get(p) == Some(&winner)),
        "{context}"
    );
    assert!(
        line.iter().any(|&p| on_edge(n, winner, p, false)),
        "{context}"
    );
    assert!(
        line.iter().any(|&p| on_edge(n, winner, p, true)),
        "{context}"
    );
}

/// Applies a preview's changes to `board`, checking that each says rightly what stood there.
fn apply_preview(pos: &Position, action: Action, mut board: Stones, context: &str) -> Stones {
    let effect = pos
        .preview(action)
        .unwrap_or_else(|e| panic!("{context}: preview of {action}: {e}"));
    for change in &effect.changes {
        let p = (change.point.col(), change.point.row());
        assert_eq!(board.get(&p).copied(), change.before, "{context}: {action}");
        match change.after {
            Some(color) => board.insert(p, color),
            None => board.remove(&p),
        };
    }
    board
}

/// Compares `pos` with the reference's position `expected` and every action of both; returns
/// the reference's successors.
fn check_position(
    pos: &Position,
    expected: &RefPosition,
    context: &str,
) -> Vec<(Action, RefPosition)> {
    let board = naive::stones(pos);
    assert_eq!(board, expected.board, "{context}: board");
    assert_eq!(pos.ply(), expected.ply, "{context}: ply");
    let to_move = expected.winner.is_none().then_some(expected.to_move);
    assert_eq!(pos.to_move(), to_move, "{context}: side to move");
    check_outcome(pos, expected.winner, context);

    let successors = expected.successors();
    let mut legal = pos.legal_actions();
    legal.sort();
    let mut wanted: Vec<Action> = successors.iter().map(|(a, _)| *a).collect();
    wanted.sort();
    assert_eq!(legal, wanted, "{context}: legal actions");

    for (action, next_ref) in &successors {
        let context = format!("{context}, then {action}");
        assert!(pos.is_legal(*action), "{context}");
        assert_eq!(
            apply_preview(pos, *action, board.clone(), &context),
            next_ref.board,
            "{context}: preview"
        );
        let mut next = pos.clone();
        next.play(*action)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        assert_eq!(
            naive::stones(&next),
            next_ref.board,
            "{context}: board after"
        );
        assert_eq!(
            next.swapped(),
            pos.swapped() || *action == Action::Swap,
            "{context}"
        );
        let to_move = next_ref.winner.is_none().then_some(next_ref.to_move);
        assert_eq!(next.to_move(), to_move, "{context}: side to move after");
        check_outcome(&next, next_ref.winner, &context);
    }

    // Every other action is refused and changes nothing.
    let n = pos.size();
    let others = (0..n)
        .flat_map(|c| (0..n).map(move |r| Action::Place(Point::new(c, r))))
        .chain([Action::Pass, Action::Swap])
        .filter(|a| !wanted.contains(a));
    for action in others {
        assert!(!pos.is_legal(action), "{context}: {action} is legal");
        let mut next = pos.clone();
        assert!(next.play(action).is_err(), "{context}: {action} plays");
        assert_eq!(naive::stones(&next), board, "{context}: refused {action}");
        assert_eq!(next.ply(), pos.ply(), "{context}: refused {action}");
    }
    successors
}

/// Plays the random games of `game` and checks every position; returns how many it checked.
fn check_random_games(game: Game) -> usize {
    let mut checked = 0;
    for size in 3..=13 {
        for pie in [false, true] {
            for k in 0..GAMES_PER_SETUP {
                let setup = Setup {
                    size,
                    pie,
                    ..Setup::new(game)
                };
                let seed = (size as u64) << 8 | u64::from(pie) << 4 | k;
                let (positions, actions) = seeded_game(setup, seed, 2 * size * size + 8);
                let record: Vec<String> = actions.iter().map(ToString::to_string).collect();
                let mut expected = RefPosition::new(setup);
                for (i, pos) in positions.iter().enumerate() {
                    let context = format!(
                        "{game} {size}×{size} pie {pie} seed {seed} after [{}]",
                        record[..i].join(" ")
                    );
                    let successors = check_position(pos, &expected, &context);
                    checked += 1;
                    if let Some(action) = actions.get(i) {
                        expected = successors
                            .into_iter()
                            .find(|(a, _)| a == action)
                            .map(|(_, next)| next)
                            .expect("the game's action is legal for the reference");
                    }
                }
            }
        }
    }
    checked
}

#[test]
fn quentin_agrees_with_the_reference() {
    assert!(check_random_games(Game::Quentin) >= MIN_POSITIONS);
}

#[test]
fn konobi_agrees_with_the_reference() {
    assert!(check_random_games(Game::Konobi) >= MIN_POSITIONS);
}

#[test]
fn brique_agrees_with_the_reference() {
    assert!(check_random_games(Game::Brique) >= MIN_POSITIONS);
}

/// Seeded random playouts, 16 per game, size (3 to 13, 21 and 26) and pie setting (1,248 in
/// all), end in a win the reference finds on the final board, after as many actions as they say
/// they played.
#[test]
fn playouts_end_in_a_win_the_reference_confirms() {
    for game in CONNECTION_GAMES {
        for size in (3..=13).chain([21, 26]) {
            for pie in [false, true] {
                for seed in 0..16 {
                    let setup = Setup {
                        size,
                        pie,
                        ..Setup::new(game)
                    };
                    let context = format!("{game} {size} pie {pie} seed {seed}");
                    let mut pos = setup.start().unwrap();
                    let played = playout::uniform(&mut pos, &mut Rng::new(seed));
                    assert_eq!(played, pos.ply(), "{context}");
                    assert!(pos.is_over(), "{context}: the playout stopped undecided");
                    let board = naive::stones(&pos);
                    let winner = reference::winning_chain(game, size, &board).map(|(w, _)| w);
                    assert!(winner.is_some(), "{context}: no winner for the reference");
                    check_outcome(&pos, winner, &context);
                }
            }
        }
    }
}

/// Sizes whose bitboard rows meet 64-bit word boundaries in different ways: one word (3×3, 8×8),
/// three (13×13), seven (21×21) and eleven (26×26, the largest).
const WORD_BOUNDARY_SIZES: [usize; 5] = [3, 8, 13, 21, 26];

/// Points tried for legality at each position of the large boards, besides the one played.
const SAMPLED_POINTS: usize = 12;

/// Seeded random games at the word-boundary sizes, followed action by action: the board after
/// each action is the reference's board after the same placement, the winner is the reference's,
/// and at each position a sample of empty points (every one up to 13×13) is legal exactly when
/// the reference allows it. The largest boards are too large to check every action of every
/// position as [`check_random_games`] does.
#[test]
fn bitboard_sizes_agree_with_the_reference() {
    for game in CONNECTION_GAMES {
        for size in WORD_BOUNDARY_SIZES {
            let setup = Setup {
                size,
                pie: true,
                ..Setup::new(game)
            };
            let seed = 0xb17 + size as u64;
            let (positions, actions) = seeded_game(setup, seed, usize::MAX);
            let mut board = naive::Stones::default();
            let mut picks = Rng::new(seed);
            for (i, (pos, action)) in positions.iter().zip(&actions).enumerate() {
                let context = format!("{game} {size}×{size} seed {seed} action {i} ({action})");
                let color = pos.to_move().expect("a game goes on while it has actions");
                let empties: Vec<Point> = pos
                    .board()
                    .points()
                    .filter(|&p| pos.get(p).is_none())
                    .collect();
                let sample: Vec<Point> = if size <= 13 {
                    empties.clone()
                } else {
                    (0..SAMPLED_POINTS.min(empties.len()))
                        .map(|_| empties[picks.below(empties.len())])
                        .collect()
                };
                for p in sample {
                    let legal = reference::place(game, size, &board, (p.col(), p.row()), color);
                    assert_eq!(
                        pos.is_legal(Action::Place(p)),
                        legal.is_some(),
                        "{context}: is {p} legal?"
                    );
                }
                if let Action::Place(p) = action {
                    board = reference::place(game, size, &board, (p.col(), p.row()), color)
                        .unwrap_or_else(|| panic!("{context}: the reference refuses it"));
                }
                let next = &positions[i + 1];
                assert_eq!(naive::stones(next), board, "{context}: board after");
                let winner = reference::winning_chain(game, size, &board).map(|(w, _)| w);
                check_outcome(next, winner, &context);
            }
            let last = positions.last().expect("a game has a start");
            assert!(last.is_over(), "{game} {size}×{size}: the game ended");
        }
    }
}
