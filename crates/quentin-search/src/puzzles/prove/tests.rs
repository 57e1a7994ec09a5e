//! The defence and swap proofs against plain exhaustive searches on small boards: the
//! solver's reference (every legal action at every node, no table, no threats) for the
//! defences, and a full search of the game remembered by position for the swaps.

use std::collections::HashMap;

use super::*;
use crate::rng::Rng;
use crate::solver::tests::attacker_wins;
use quentin_rules::Setup;

/// By the reference: the moves of the side to move after which the opponent has no win within
/// `depth` of its moves.
fn reference_saving(pos: &Position, depth: usize) -> Vec<Action> {
    let me = pos.to_move().unwrap();
    pos.legal_actions()
        .into_iter()
        .filter(|&a| {
            let next = after(pos, a).unwrap();
            if next.is_over() {
                next.winner() != Some(me.opponent())
            } else {
                !attacker_wins(&next, depth)
            }
        })
        .collect()
}

/// The defence puzzle's definition read straight, by the reference: the least depth of
/// `depths` at which exactly one move saves (none saving ends it), the opponent winning
/// within it were the side to move to pass, a lesser depth with two saving moves or more,
/// and no win of the side to move within it.
fn reference_defence(pos: &Position, depths: &RangeInclusive<usize>) -> Option<(Action, usize)> {
    if pos.is_over() || pos.swap_available() || pos.legal_actions().len() < 2 {
        return None;
    }
    for depth in depths.clone() {
        let saving = reference_saving(pos, depth);
        match saving.len() {
            0 => return None,
            1 => {
                let threatened = attacker_wins(&passed(pos).unwrap(), depth);
                let least = depth == 1 || reference_saving(pos, depth - 1).len() >= 2;
                let no_win = !attacker_wins(pos, depth);
                return (threatened && least && no_win).then_some((saving[0], depth));
            }
            _ => {}
        }
    }
    None
}

/// A random legal action of `pos`.
fn random_action(pos: &Position, rng: &mut Rng) -> Action {
    let legal = pos.legal_actions();
    legal[rng.below(legal.len())]
}

#[test]
fn defences_agree_with_the_reference_on_small_boards() {
    let mut rng = Rng::new(0xdef_e4ce);
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let (mut checked, mut found) = (0, [0usize; 4]);
        for size in [4, 5] {
            for _ in 0..if size == 4 { 50 } else { 30 } {
                let setup = Setup {
                    size,
                    pie: false,
                    ..Setup::new(game)
                };
                let mut pos = setup.start().unwrap();
                while !pos.is_over() {
                    let empty = size * size - pos.on_board().iter().sum::<usize>();
                    // The depths the reference can afford with this many empty points.
                    let deepest = match empty {
                        0..=8 => 3,
                        9..=12 => 2,
                        _ => 0,
                    };
                    if deepest > 0 {
                        let depths = 1..=deepest;
                        let expected = reference_defence(&pos, &depths);
                        assert_eq!(defence(&pos, &depths, 1 << 30), expected, "{pos:?}");
                        if let Some((key, depth)) = expected {
                            assert_eq!(is_defence(&pos, depth, key, 1 << 30), Some(true));
                            found[depth] += 1;
                        }
                        checked += 1;
                    }
                    let action = random_action(&pos, &mut rng);
                    pos.play(action).unwrap();
                }
            }
        }
        // Hundreds of positions, defences at the depths the reference reaches.
        assert!(checked > 300, "{game}: {checked}");
        assert!(found[1] > 5 && found[2] > 0, "{game}: {found:?}");
    }
}

#[test]
fn quint_defences_agree_with_the_reference() {
    let mut rng = Rng::new(0x0005_1def);
    let setup = Setup {
        pieces: 15,
        ..Setup::new(Game::Quint)
    };
    let (mut checked, mut found) = (0, 0);
    for _ in 0..6 {
        let mut pos = setup.start().unwrap();
        while !pos.is_over() && pos.ply() < 70 {
            if pos.ply() > 20 {
                let expected = reference_defence(&pos, &(1..=1));
                assert_eq!(defence(&pos, &(1..=1), 1 << 30), expected, "{pos:?}");
                found += usize::from(expected.is_some());
                checked += 1;
            }
            let action = random_action(&pos, &mut rng);
            pos.play(action).unwrap();
        }
    }
    assert!(checked > 100 && found > 0, "{checked} {found}");
}

#[test]
fn swap_answers_agree_with_a_full_search() {
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let mut answers = 0;
        for size in [3, 4] {
            let mut memo = HashMap::new();
            let start = Setup {
                size,
                pie: true,
                ..Setup::new(game)
            }
            .start()
            .unwrap();
            // Every first move on 3×3; on 4×4 a corner, an edge point beside it and a centre
            // point, and c1 (Brique's one winning reply is then a placement, c3).
            let firsts: Vec<Action> = match size {
                3 => start.legal_actions(),
                _ => ["a1", "b1", "b2", "c1"]
                    .iter()
                    .map(|p| Action::parse(p).unwrap())
                    .collect(),
            };
            for first in firsts {
                let pos = after(&start, first).unwrap();
                // The reference: the actions after which the person who took them wins with
                // best play (no swap is offered after one).
                let white = pos.to_move().unwrap();
                let winning: Vec<Action> = pos
                    .legal_actions()
                    .into_iter()
                    .filter(|&a| {
                        let next = after(&pos, a).unwrap();
                        match next.winner() {
                            Some(w) => w == white,
                            None => !crate::tests::wins(&next, &mut memo),
                        }
                    })
                    .collect();
                let expected = (winning.len() == 1).then(|| winning[0]);
                assert_eq!(
                    swap_answer(&pos, 1 << 30),
                    expected,
                    "{game} {size} {first}"
                );
                answers += usize::from(expected.is_some());
            }
        }
        assert!(answers >= 3, "{game}: {answers}");
    }
}
