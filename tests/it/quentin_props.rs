//! Property tests over random Quentin games of sizes 3 to 13.

use crate::common;

use std::collections::HashSet;

use common::naive::{self, stones};
use common::{quentin, random_game};
use proptest::prelude::*;
use quentin::rules::quentin::{has_diagonal_violation, has_territory};
use quentin::rules::{Action, Color, Illegal, Point, Position};

/// Whether `color` has a chain between its two edges, by a flood written out here.
fn connects(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    let mut stack: Vec<Point> = board
        .points()
        .filter(|&p| board.get(p) == Some(color) && board.on_first_edge(p, color))
        .collect();
    let mut seen: HashSet<Point> = stack.iter().copied().collect();
    while let Some(p) = stack.pop() {
        if board.on_second_edge(p, color) {
            return true;
        }
        for q in board.neighbours(p) {
            if board.get(q) == Some(color) && seen.insert(q) {
                stack.push(q);
            }
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_rules(
        size in 3usize..=13,
        pie in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..200),
    ) {
        let (positions, actions) = random_game(quentin(size, pie), &choices);
        for (i, pos) in positions.iter().enumerate() {
            prop_assert!(!has_territory(pos.board()), "a territory is left after action {i}");
            prop_assert!(!has_diagonal_violation(pos.board()), "diagonal rule broken after action {i}");
            let legal = pos.legal_actions();
            // Every listed action plays.
            for &action in &legal {
                let mut next = pos.clone();
                prop_assert!(next.play(action).is_ok(), "listed {action} does not play");
            }
            // Every empty point not listed is refused, with a reason, and changes nothing.
            for p in pos.board().points().filter(|&p| pos.get(p).is_none()) {
                if legal.contains(&Action::Place(p)) {
                    continue;
                }
                let mut next = pos.clone();
                let err = next.play(Action::Place(p)).unwrap_err();
                prop_assert!(!err.to_string().is_empty());
                if pos.is_over() {
                    prop_assert_eq!(err, Illegal::GameOver);
                } else {
                    prop_assert!(matches!(err, Illegal::Quentin(_)), "{p}: {err}");
                }
                prop_assert_eq!(next.board(), pos.board());
            }
            // A winner connects its edges; the loser does not.
            if let Some(outcome) = pos.outcome() {
                let winner = outcome.winner().unwrap();
                prop_assert!(connects(pos, winner));
                prop_assert!(!connects(pos, winner.opponent()));
                prop_assert!(outcome.line().iter().any(|p| pos.board().on_first_edge(p, winner)));
                prop_assert!(outcome.line().iter().any(|p| pos.board().on_second_edge(p, winner)));
                prop_assert!(outcome.line().iter().all(|p| pos.get(p) == Some(winner)));
                prop_assert!(legal.is_empty());
            } else {
                prop_assert!(!connects(pos, Color::Black) && !connects(pos, Color::White));
            }
        }
        prop_assert_eq!(positions.len(), actions.len() + 1);
    }

    /// The library agrees with the obvious implementation on legal placements, the board after
    /// each action and the winner.
    #[test]
    fn agrees_with_the_naive_reference(
        size in 3usize..=9,
        choices in prop::collection::vec(any::<u32>(), 0..120),
    ) {
        let (positions, actions) = random_game(quentin(size, false), &choices);
        for (pos, action) in positions.iter().zip(&actions) {
            let board = stones(pos);
            let to_move = pos.to_move().unwrap();
            let mut expected: Vec<Action> = pos
                .board()
                .points()
                .filter(|p| naive::place(size, &board, (p.col(), p.row()), to_move).is_some())
                .map(Action::Place)
                .collect();
            if expected.is_empty() {
                expected.push(Action::Pass);
            }
            let mut legal = pos.legal_actions();
            legal.sort();
            expected.sort();
            prop_assert_eq!(legal, expected);
            if let Action::Place(p) = action {
                let after = naive::place(size, &board, (p.col(), p.row()), to_move).unwrap();
                let mut next = pos.clone();
                next.play(*action).unwrap();
                prop_assert_eq!(stones(&next), after.clone());
                prop_assert_eq!(next.outcome().and_then(|o| o.winner()), naive::winner(size, &after));
            }
        }
    }
}
