//! The longest resistance against the solver tests' plain exhaustive search, on seeded random
//! positions of the three connection games on 4×4 (the pie rule off).

use super::*;
use crate::rng::Rng;
use crate::solver::tests::attacker_wins;
use quentin_rules::{Game, Setup};

/// The opponent's quickest forced win after `action`, within [`MAX_DEPTH`]; `None` beyond;
/// 0 when the action itself ends the game for the opponent (Quentin's fill may).
fn lost_in(pos: &Position, action: Action) -> Option<usize> {
    let mut after = pos.clone();
    after.play(action).unwrap();
    if after.is_over() {
        return Some(0);
    }
    (1..=MAX_DEPTH).find(|&d| attacker_wins(&after, d))
}

/// A position of `game` on 4×4 after `stones` random actions, not over.
fn random_position(game: Game, stones: usize, rng: &mut Rng) -> Option<Position> {
    let setup = Setup {
        size: 4,
        pie: false,
        ..Setup::new(game)
    };
    let mut pos = setup.start().unwrap();
    for _ in 0..stones {
        let actions = pos.legal_actions();
        if actions.is_empty() || pos.is_over() {
            return None;
        }
        pos.play(actions[rng.below(actions.len())]).unwrap();
    }
    (!pos.is_over()).then_some(pos)
}

#[test]
fn the_move_chosen_holds_out_as_long_as_any_and_its_loss_is_the_true_one() {
    let mut rng = Rng::new(46);
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    let mut told_apart = 0;
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        for _ in 0..60 {
            let Some(pos) = random_position(game, 7 + rng.below(3), &mut rng) else {
                continue;
            };
            let mover = pos.to_move().unwrap();
            let actions = pos.legal_actions();
            // Only lost positions: no action wins or draws at once.
            if actions.iter().any(|&a| {
                let mut after = pos.clone();
                after.play(a).unwrap();
                after.is_over() && after.winner() != Some(mover.opponent())
            }) {
                continue;
            }
            let truth: Vec<Option<usize>> = actions.iter().map(|&a| lost_in(&pos, a)).collect();
            // Longest first: no proved win (beyond the depth), then the deepest.
            let best = truth.iter().map(|t| t.unwrap_or(usize::MAX)).max().unwrap();
            let got = longest_resistance(&pos, &actions, 10_000_000, None, &stop).unwrap();
            let i = actions.iter().position(|&a| a == got.action).unwrap();
            assert_eq!(
                truth[i].unwrap_or(usize::MAX),
                best,
                "{game:?} {pos:?}: {got:?} against {truth:?}"
            );
            if let Some(d) = got.lost_in {
                assert_eq!(truth[i], Some(d), "{game:?} {pos:?}");
            }
            checked += 1;
            told_apart += usize::from(truth.iter().any(|t| t.unwrap_or(usize::MAX) != best));
        }
    }
    // The sample holds lost positions where the choice matters.
    assert!(checked >= 30, "{checked} positions");
    assert!(told_apart >= 10, "{told_apart} positions told apart");
}

#[test]
fn a_stop_gives_up_and_no_candidate_gives_nothing() {
    let pos = Setup {
        size: 4,
        pie: false,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    let stop = AtomicBool::new(true);
    let actions = pos.legal_actions();
    assert_eq!(longest_resistance(&pos, &actions, 1000, None, &stop), None);
    let go = AtomicBool::new(false);
    assert_eq!(longest_resistance(&pos, &[], 1000, None, &go), None);
}
