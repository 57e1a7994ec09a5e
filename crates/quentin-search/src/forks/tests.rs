//! The root's forks against an exhaustive search three actions deep, on small boards of random
//! games: the mover's forks are exactly its placements that win in three actions, and every
//! placement refuted by an opponent's fork is lost in three.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::rng::Rng;
use quentin_rules::Board;

/// Whether the side to move at `pos` wins within its next two placements whatever is replied
/// in between, by trying everything: some action after which every reply leaves it an action
/// that wins.
fn wins_in_three(pos: &Position) -> bool {
    let Some(player) = pos.to_move() else {
        return false;
    };
    pos.legal_actions().into_iter().any(|a| {
        let mut after = pos.clone();
        after.play(a).is_ok() && !after.is_over() && loses_at_once(&after, player)
    })
}

/// Whether, at `after` (the other side to move), `player` wins on its next action whatever is
/// replied, by trying every reply and every answer.
fn loses_at_once(after: &Position, player: Color) -> bool {
    after.legal_actions().into_iter().all(|r| {
        let mut reply = after.clone();
        reply.play(r).is_ok()
            && !reply.is_over()
            && reply.legal_actions().into_iter().any(|w| {
                let mut end = reply.clone();
                end.play(w).is_ok() && end.winner() == Some(player)
            })
    })
}

/// A position of `game` on a `size` board after `stones` random placements from the empty
/// board, Black first, or `None` when the game ended on the way.
fn random_position(game: Game, size: usize, stones: usize, rng: &mut Rng) -> Option<Position> {
    let mut pos = Setup::new(game)
        .start_from(Board::new(size), Color::Black)
        .unwrap();
    for _ in 0..stones {
        let actions = pos.legal_actions();
        pos.play(actions[rng.below(actions.len())]).unwrap();
        if pos.is_over() {
            return None;
        }
    }
    Some(pos)
}

#[test]
fn forks_match_an_exhaustive_search_three_actions_deep() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(7);
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let (mut mine, mut refuted) = (0, 0);
        for k in 0..300 {
            let size = 5 + k % 2;
            let stones = 4 + rng.below(4 * size - 10);
            let Some(pos) = random_position(game, size, stones, &mut rng) else {
                continue;
            };
            let me = pos.to_move().unwrap();
            let proofs = child_proofs(&pos, &stop);
            if !pos.winning_points(me).is_empty() {
                assert!(proofs.is_empty(), "{game} {:?}", pos.board().rows());
                continue;
            }
            let winning: Vec<ChildProof> = pos
                .legal_actions()
                .into_iter()
                .filter(|&a| {
                    let mut after = pos.clone();
                    after.play(a).is_ok() && !after.is_over() && loses_at_once(&after, me)
                })
                .map(|action| ChildProof {
                    action,
                    proof: Proof::Loss,
                    length: 2,
                })
                .collect();
            if !winning.is_empty() {
                // The mover's forks: exactly the placements that win in three.
                assert_eq!(proofs, winning, "{game} {:?}", pos.board().rows());
                mine += 1;
                continue;
            }
            for proof in &proofs {
                assert_eq!((proof.proof, proof.length), (Proof::Win, 3), "{game}");
                let mut child = pos.clone();
                child.play(proof.action).unwrap();
                assert!(
                    wins_in_three(&child),
                    "{game} {:?}: {:?} is not lost",
                    pos.board().rows(),
                    proof.action
                );
                refuted += 1;
            }
        }
        // Random games on small boards are full of both.
        assert!(
            mine >= 10 && refuted >= 10,
            "{game}: {mine} forks, {refuted} refuted"
        );
    }
}

#[test]
fn nothing_is_looked_for_while_the_swap_is_offered_or_in_quint() {
    let stop = AtomicBool::new(false);
    let setup = Setup {
        size: 5,
        ..Setup::new(Game::Brique)
    };
    assert!(setup.pie);
    let mut pos = setup.start().unwrap();
    pos.play(Action::Place(Point::parse("c3").unwrap()))
        .unwrap();
    assert!(pos.swap_available());
    assert!(child_proofs(&pos, &stop).is_empty());
    let quint = Setup::new(Game::Quint).start().unwrap();
    assert!(child_proofs(&quint, &stop).is_empty());
}

/// Found before the first playout, the opponent's forks keep a search of a few playouts to the
/// placements that stop them, and prove the root lost when none does: positions of random
/// games on 7×7 boards, the placements that hold checked by trying everything.
#[test]
fn a_search_of_a_few_playouts_stops_the_opponents_fork() {
    for (game, rows, to_move, holds) in [
        (
            Game::Konobi,
            "B..WWWW|.W.W..B|B..B...|....W..|....B..|BB.....|.......",
            Color::Black,
            &["c5", "a6"][..],
        ),
        (
            Game::Brique,
            "W...W.B|..B...B|...WBBB|.....B.|BWW...W|....B.W|.......",
            Color::White,
            &["f2"][..],
        ),
        (
            Game::Quentin,
            "......B|.B.B...|.....B.|...W...|B..W.W.|WWBW.B.|WWWW...",
            Color::Black,
            &[][..],
        ),
    ] {
        let pos = Setup::new(game)
            .start_from(Board::from_rows(rows).unwrap(), to_move)
            .unwrap();
        let holds: Vec<Action> = holds
            .iter()
            .map(|p| Action::Place(Point::parse(p).unwrap()))
            .collect();
        for a in pos.legal_actions() {
            let mut child = pos.clone();
            child.play(a).unwrap();
            assert_eq!(!wins_in_three(&child), holds.contains(&a), "{game} {a:?}");
        }
        let limits = crate::Limits {
            budget: crate::Budget::Playouts(20),
            threads: 1,
            seed: Some(3),
            nodes: 0,
            level: crate::Level::FULL,
        };
        let report = crate::Searcher::new(limits).search(&pos, &AtomicBool::new(false), |_| {});
        if holds.is_empty() {
            assert_eq!(report.proven, Some(crate::Proven::Loss), "{game}");
        } else {
            assert!(
                holds.contains(&report.best.unwrap()),
                "{game} {:?}",
                report.best
            );
        }
    }
}
