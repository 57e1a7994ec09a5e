//! df-pn against an exhaustive search: on small boards of random games near their end, every
//! proof it gives a child is the exhaustive search's verdict, no quicker than the quickest win
//! (nor longer-lasting than the longest defence) there is, and with room enough it settles
//! the root.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::rng::Rng;
use quentin_rules::{Board, Color, Setup};

/// The exhaustive verdict of `pos` for the side to move: whether it wins, and the actions to
/// the end with best play (the winner's quickest, the loser's longest).
fn exact(pos: &Position, memo: &mut HashMap<u128, (bool, u16)>) -> (bool, u16) {
    if pos.is_over() {
        return (false, 0);
    }
    if let Some(&v) = memo.get(&key(pos)) {
        return v;
    }
    let mut quickest_win: Option<u16> = None;
    let mut longest_loss = 0;
    for a in pos.legal_actions() {
        let mut child = pos.clone();
        child.play(a).unwrap();
        let (child_wins, length) = exact(&child, memo);
        if child_wins {
            longest_loss = longest_loss.max(length + 1);
        } else {
            quickest_win = Some(quickest_win.map_or(length + 1, |q| q.min(length + 1)));
        }
    }
    let v = match quickest_win {
        Some(q) => (true, q),
        None => (false, longest_loss),
    };
    memo.insert(key(pos), v);
    v
}

/// A position of `game` on a `size` board with `empty` points left after random placements
/// from the empty board, Black first, or `None` when the game ended on the way.
fn near_the_end(game: Game, size: usize, empty: usize, rng: &mut Rng) -> Option<Position> {
    crate::testing::random_position(game, size, rng, |pos, _| {
        let board = pos.board();
        board.points().filter(|&p| board.get(p).is_none()).count() <= empty
    })
}

#[test]
fn proofs_match_an_exhaustive_search_near_the_end() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(11);
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let (mut positions, mut won) = (0, 0);
        for k in 0..300 {
            let size = 4 + k % 3;
            let Some(pos) = near_the_end(game, size, 6 + rng.below(5), &mut rng) else {
                continue;
            };
            let mut memo = HashMap::new();
            let (root_wins, _) = exact(&pos, &mut memo);
            let proofs = child_proofs(&mut Table::default(), &pos, 1_000_000, None, &stop);
            let actions = pos.legal_actions();
            let rows = pos.board().rows();
            for p in &proofs {
                let mut child = pos.clone();
                child.play(p.action).unwrap();
                let (child_wins, length) = exact(&child, &mut memo);
                let proof = if child_wins { Proof::Win } else { Proof::Loss };
                assert_eq!(p.proof, proof, "{game} {rows:?} {:?}", p.action);
                assert!(p.length >= length, "{game} {rows:?} {p:?}: {length}");
                // A win ends on the winner's own action.
                assert_eq!(p.length % 2, u16::from(child_wins), "{game} {rows:?} {p:?}");
            }
            // With room enough, the root is settled: its winning action, or every action lost.
            // (When the mover can win at once, the solver leaves it to the expansion.)
            let me = pos.to_move().unwrap();
            if pos.winning_points(me).is_empty() {
                if root_wins {
                    assert!(
                        proofs.iter().any(|p| p.proof == Proof::Loss),
                        "{game} {rows:?}"
                    );
                } else {
                    assert_eq!(proofs.len(), actions.len(), "{game} {rows:?}");
                }
            }
            positions += 1;
            won += usize::from(root_wins);
        }
        assert!(
            positions >= 100 && won >= 20,
            "{game}: {positions} positions, {won} won"
        );
    }
}

/// A budget spent or a stop asked for ends the solve with what is settled: nothing wrong, and
/// nothing at all when stopped before it starts.
#[test]
fn a_halted_solve_gives_only_what_it_settled() {
    let mut rng = Rng::new(5);
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    while checked < 20 {
        let Some(pos) = near_the_end(Game::Konobi, 6, 14, &mut rng) else {
            continue;
        };
        let mut memo = HashMap::new();
        for p in child_proofs(&mut Table::default(), &pos, 50, None, &stop) {
            let mut child = pos.clone();
            child.play(p.action).unwrap();
            let proof = if exact(&child, &mut memo).0 {
                Proof::Win
            } else {
                Proof::Loss
            };
            assert_eq!(p.proof, proof);
        }
        assert!(
            child_proofs(
                &mut Table::default(),
                &pos,
                1_000_000,
                None,
                &AtomicBool::new(true)
            )
            .is_empty()
        );
        checked += 1;
    }
}

#[test]
fn nothing_is_solved_while_the_swap_is_offered_or_in_quint() {
    let stop = AtomicBool::new(false);
    let mut pos = Setup {
        size: 4,
        ..Setup::new(Game::Brique)
    }
    .start()
    .unwrap();
    pos.play(pos.legal_actions()[0]).unwrap();
    assert!(pos.swap_available());
    assert!(child_proofs(&mut Table::default(), &pos, 1_000_000, None, &stop).is_empty());
    let quint = Setup::new(Game::Quint).start().unwrap();
    assert!(child_proofs(&mut Table::default(), &quint, 1_000_000, None, &stop).is_empty());
}

/// White to move on Konobi 11×11, 86 points empty (from a game of the search against itself):
/// White wins, in eleven actions by the solver's proof, found in about 9,000 positions; the
/// search alone had not proved it in 100,000 playouts (docs/engine-strength.md).
const KONOBI_WON: &str = "...........|.B.W.......|...B..W...B|...........|.....B.WWWB|...BWWWB.WB|\
                          BWWW...B.WB|....B..B.WB|BB..W..B.WW|.........B.|...........";

/// The solver's proof reaches the search's report, with its length, near the end of a Konobi
/// game.
#[test]
fn the_search_reports_the_solvers_proof_near_the_end_of_konobi() {
    use crate::{Budget, Limits, Proven, Searcher};
    let rows = KONOBI_WON.replace(' ', "");
    let board = Board::from_rows(&rows).unwrap();
    let pos = Setup::new(Game::Konobi)
        .start_from(board, Color::White)
        .unwrap();
    let stop = AtomicBool::new(false);
    let proofs = child_proofs(&mut Table::default(), &pos, 20_000, None, &stop);
    assert!(
        proofs
            .iter()
            .any(|p| p.proof == Proof::Loss && p.length == 10),
        "{proofs:?}"
    );
    // 160,000 playouts: the solver has an eighth of them as positions.
    let mut searcher = Searcher::new(Limits {
        budget: Budget::Playouts(160_000),
        threads: 1,
        seed: Some(1),
        ..Limits::default()
    });
    let report = searcher.search(&pos, &stop, |_| {});
    assert_eq!(report.proven, Some(Proven::Win));
    let best = report
        .moves
        .iter()
        .find(|m| Some(m.action) == report.best)
        .unwrap();
    assert_eq!(best.ends_in, Some(11));
}
