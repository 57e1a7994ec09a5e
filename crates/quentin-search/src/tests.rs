//! Tests of the search on tiny boards, with playout budgets and seeds (never timings).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::*;
use quentin_rules::{Action, Board, Color, Game, Outcome, Point, Setup};

fn limits(playouts: u64) -> Limits {
    Limits {
        budget: Budget::Playouts(playouts),
        threads: 1,
        seed: Some(7),
        nodes: 0,
        level: Level::FULL,
    }
}

fn search(pos: &Position, playouts: u64) -> Report {
    Searcher::new(limits(playouts)).search(pos, &AtomicBool::new(false), |_| {})
}

fn at(p: &str) -> Action {
    Action::Place(Point::parse(p).unwrap())
}

fn from_rows(game: Game, rows: &str, to_move: Color) -> Position {
    Setup::new(game)
        .start_from(Board::from_rows(rows).unwrap(), to_move)
        .unwrap()
}

/// Whether the person to move at `pos` wins with best play, by exhaustive search over the
/// rules (pie off: no swap), remembered by board and side to move.
pub(crate) fn wins(pos: &Position, memo: &mut HashMap<(Board, Option<Color>), bool>) -> bool {
    let key = (pos.board().clone(), pos.to_move());
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mover = pos.to_move().unwrap();
    let w = pos.legal_actions().into_iter().any(|a| {
        let mut after = pos.clone();
        after.play(a).unwrap();
        match after.outcome() {
            Some(Outcome::Win { winner, .. }) => *winner == mover,
            Some(Outcome::Draw) => false,
            None => !wins(&after, memo),
        }
    });
    memo.insert(key, w);
    w
}

/// The positions after each opening action of `setup` (pie off) that are still going.
fn openings(setup: Setup) -> Vec<Position> {
    let start = setup.start().unwrap();
    start
        .legal_actions()
        .into_iter()
        .map(|a| {
            let mut p = start.clone();
            p.play(a).unwrap();
            p
        })
        .filter(|p| !p.is_over())
        .collect()
}

#[test]
fn a_search_gives_a_legal_action_in_every_game() {
    for game in Game::ALL {
        let setup = Setup {
            size: if game == Game::Quint { 8 } else { 5 },
            ..Setup::new(game)
        };
        let pos = setup.start().unwrap();
        let report = search(&pos, 300);
        assert!(pos.is_legal(report.best.unwrap()), "{game}");
        assert_eq!(report.playouts, 300);
        assert_eq!(report.to_move, pos.to_move());
        assert_eq!(report.moves.len(), pos.legal_actions().len());
        let visits: u64 = report.moves.iter().map(|m| m.visits).sum();
        assert!(visits >= 299, "{game}: {visits}");
    }
}

#[test]
fn proofs_agree_with_exhaustive_search_on_3x3() {
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let setup = Setup {
            size: 3,
            pie: false,
            ..Setup::new(game)
        };
        let mut memo = HashMap::new();
        let mut positions = vec![setup.start().unwrap()];
        positions.extend(openings(setup));
        for pos in positions {
            let truth = wins(&pos, &mut memo);
            let report = search(&pos, 20_000);
            let expected = if truth { Proven::Win } else { Proven::Loss };
            assert_eq!(report.proven, Some(expected), "{game} {:?}", pos.board());
            if truth {
                // The move chosen wins too.
                let mut after = pos.clone();
                after.play(report.best.unwrap()).unwrap();
                let won = after.outcome().and_then(Outcome::winner) == pos.to_move();
                assert!(won || !wins(&after, &mut memo), "{game}: {:?}", report.best);
            }
        }
    }
}

#[test]
fn forced_wins_in_quentin_4x4_openings_are_found_and_confirmed() {
    let setup = Setup {
        size: 4,
        pie: false,
        ..Setup::new(Game::Quentin)
    };
    let mut memo = HashMap::new();
    let mut proved = 0;
    // Two actions in: sixteen positions, each solved exhaustively; the search proves every
    // one of them (all but one are won for the side to move) and plays a winning move.
    for first in openings(setup).into_iter().step_by(5) {
        for a in first.legal_actions().into_iter().step_by(4) {
            let mut pos = first.clone();
            pos.play(a).unwrap();
            if pos.is_over() {
                continue;
            }
            let report = search(&pos, 20_000);
            let truth = wins(&pos, &mut memo);
            let expected = if truth { Proven::Win } else { Proven::Loss };
            assert_eq!(report.proven, Some(expected), "{:?}", pos.board());
            if truth {
                let mut after = pos.clone();
                after.play(report.best.unwrap()).unwrap();
                assert!(after.is_over() || !wins(&after, &mut memo));
                proved += 1;
            }
        }
    }
    assert!(
        proved >= 10,
        "only {proved} forced wins among the positions"
    );
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let pos = Setup {
        size: 7,
        ..Setup::new(Game::Konobi)
    }
    .start()
    .unwrap();
    let a = search(&pos, 2_000);
    let b = search(&pos, 2_000);
    assert_eq!(a.best, b.best);
    assert_eq!(a.moves, b.moves);
}

#[test]
fn an_immediate_win_is_taken_in_each_game() {
    // Black to move joins top and bottom at b2 (Brique: a square-board column).
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let pos = from_rows(game, ".B...|.B...|.....|.B...|.B...", Color::Black);
        let win = at("b3");
        assert!(players::wins_at_once(&pos, win), "{game}");
        let report = search(&pos, 50);
        assert!(players::wins_at_once(&pos, report.best.unwrap()), "{game}");
        assert_eq!(report.proven, Some(Proven::Win), "{game}");
    }
    // Quint: White drops its fifth in a row.
    let board =
        Board::from_rows("........|........|........|WWWW....|BBB.....|B.......|........|........")
            .unwrap();
    let pos = Setup::new(Game::Quint)
        .start_quint_from(&board, [16, 16], Color::White)
        .unwrap();
    let report = search(&pos, 50);
    let best = report.best.unwrap();
    assert!(players::wins_at_once(&pos, best), "{best}");
}

#[test]
fn an_immediate_loss_is_avoided_in_each_game() {
    let loses = |pos: &Position, a: Action| {
        let mut after = pos.clone();
        after.play(a).unwrap();
        after
            .legal_actions()
            .into_iter()
            .any(|r| players::wins_at_once(&after, r))
    };
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let mut tested = 0;
        // White to move; Black threatens to join its edges (Brique: twice in the first).
        for rows in [
            ".B...|.B...|.....|.B...|.B...",
            "B....|B....|.....|B....|B....",
        ] {
            let pos = from_rows(game, rows, Color::White);
            let legal = pos.legal_actions();
            assert!(legal.iter().any(|&a| loses(&pos, a)), "{game}: no threat");
            if legal.iter().all(|&a| loses(&pos, a)) {
                let report = search(&pos, 50);
                assert_eq!(report.proven, Some(Proven::Loss), "{game} {rows}");
                continue;
            }
            let report = search(&pos, 400);
            assert!(
                !loses(&pos, report.best.unwrap()),
                "{game}: {:?}",
                report.best
            );
            // Also once the node budget is spent: room is kept to prove the root's actions.
            let mut full = Searcher::new(Limits {
                nodes: 1_200,
                ..limits(5_000)
            });
            let report = full.search(&pos, &AtomicBool::new(false), |_| {});
            assert!(
                !loses(&pos, report.best.unwrap()),
                "{game}: {:?}",
                report.best
            );
            assert!(full.trees[0].nodes.len() <= 1_200);
            tested += 1;
        }
        assert!(tested > 0, "{game}");
    }
    // Quint: Black to drop must block White's four at e5 (a5..d5 white).
    let board =
        Board::from_rows("........|........|........|WWWW....|BBB.....|........|........|........")
            .unwrap();
    let pos = Setup::new(Game::Quint)
        .start_quint_from(&board, [17, 16], Color::Black)
        .unwrap();
    let report = search(&pos, 400);
    assert_eq!(report.best, Some(at("e5")));
}

#[test]
fn the_first_turn_swaps_a_central_stone_and_keeps_a_corner() {
    for (size, centre) in [(9, "e5"), (13, "g7")] {
        let setup = Setup {
            size,
            ..Setup::new(Game::Quentin)
        };
        let after = |p: &str| {
            let mut pos = setup.start().unwrap();
            pos.play(at(p)).unwrap();
            pos
        };
        // The swap's edge over even is a few hundredths: enough playouts to see it past the
        // noise.
        assert_eq!(
            search(&after(centre), 30_000).best,
            Some(Action::Swap),
            "{size}: {centre}"
        );
        let corner = search(&after("a1"), 30_000);
        assert_ne!(corner.best, Some(Action::Swap), "{size}: a1");
        // Not swapping, it answers with a placement the search looked at (2 % of the
        // playouts and more), not a stray one. (Quentin's learned patterns spread the first
        // visits over more replies than the nearness prior did: 981 on 9×9.)
        let best = &corner.moves[0];
        assert!(best.visits >= 600, "{size}: {best:?}");
    }
}

#[test]
fn the_node_budget_is_kept() {
    let pos = Setup {
        size: 7,
        ..Setup::new(Game::Brique)
    }
    .start()
    .unwrap();
    let mut searcher = Searcher::new(Limits {
        nodes: 1_000,
        ..limits(20_000)
    });
    let report = searcher.search(&pos, &AtomicBool::new(false), |_| {});
    assert_eq!(report.playouts, 20_000);
    let kept: usize = searcher.trees.iter().map(|t| t.nodes.len()).sum();
    assert!(kept <= 1_000, "{kept} nodes");
    assert!(kept > 500, "the budget was used: {kept} nodes");
    // A budget smaller than the root's actions still gives a move.
    let mut tiny = Searcher::new(Limits {
        nodes: 10,
        ..limits(200)
    });
    let report = tiny.search(&pos, &AtomicBool::new(false), |_| {});
    assert!(pos.is_legal(report.best.unwrap()));
    assert_eq!(tiny.trees[0].nodes.len(), 1 + pos.legal_actions().len());
}

#[test]
fn the_tree_is_kept_after_a_move() {
    let pos = Setup {
        size: 5,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    let mut searcher = Searcher::new(limits(2_000));
    let report = searcher.search(&pos, &AtomicBool::new(false), |_| {});
    let best = report.best.unwrap();
    let kept = report.moves[0].visits;
    searcher.advance(best);
    let mut next = pos.clone();
    next.play(best).unwrap();
    let root_visits = searcher.trees[0].visits(tree::ROOT);
    assert_eq!(u64::from(root_visits), kept);
    let again = searcher.search(&next, &AtomicBool::new(false), |_| {});
    let visits: u64 = again.moves.iter().map(|m| m.visits).sum();
    assert!(visits + 1 >= kept + 2_000, "{visits}");
}

#[test]
fn stop_ends_an_unlimited_search() {
    let pos = Setup::new(Game::Quentin).start().unwrap();
    let thinker = Thinker::start(
        pos.clone(),
        Limits {
            budget: Budget::Unlimited,
            threads: 2,
            ..Limits::default()
        },
    );
    // Wait, without a fixed sleep, for the first progress report.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while thinker.report().is_none() && std::time::Instant::now() < deadline {
        std::thread::yield_now();
    }
    assert!(thinker.report().is_some());
    assert!(!thinker.is_done());
    thinker.stop();
    let report = thinker.finish();
    assert!(pos.is_legal(report.best.unwrap()));
    assert!(report.playouts > 0);
}

#[test]
fn two_threads_share_a_playout_budget() {
    let pos = Setup {
        size: 6,
        ..Setup::new(Game::Konobi)
    }
    .start()
    .unwrap();
    let mut searcher = Searcher::new(Limits {
        threads: 2,
        ..limits(1_001)
    });
    let report = searcher.search(&pos, &AtomicBool::new(false), |_| {});
    assert_eq!(report.playouts, 1_001);
    assert!(pos.is_legal(report.best.unwrap()));
}

#[test]
fn a_finished_game_has_no_best_action() {
    let pos = from_rows(Game::Quentin, "B..|B..|B..", Color::White);
    assert!(pos.is_over());
    let report = search(&pos, 10);
    assert_eq!(report.best, None);
    assert!(report.moves.is_empty());
}

#[test]
fn with_no_playout_or_one_the_choice_is_central_and_has_no_win_chance() {
    for (game, size, centre) in [
        (Game::Quentin, 9, &["e5"][..]),
        (Game::Brique, 13, &["g7"]),
        (Game::Quint, 8, &["d4", "d5", "e4", "e5"]),
    ] {
        let pos = Setup {
            size,
            pie: false,
            ..Setup::new(game)
        }
        .start()
        .unwrap();
        let centre: Vec<Action> = centre.iter().map(|p| at(p)).collect();
        // Stopped before it began, no playout at all.
        let stopped = Searcher::new(limits(1_000)).search(&pos, &AtomicBool::new(true), |_| {});
        assert_eq!(stopped.playouts, 0, "{game}");
        for report in [stopped, search(&pos, 1)] {
            let best = report.best.unwrap();
            assert!(centre.contains(&best), "{game}: {best}");
            assert_eq!(report.moves[0].chance(), None, "{game}: {report:?}");
        }
        // Past the minimum, a number.
        let report = search(&pos, 5_000);
        assert!(report.moves[0].visits >= MIN_VISITS, "{game}");
        assert!(report.moves[0].chance().is_some(), "{game}");
    }
}

/// Whether the person to move at `pos` wins with best play, and in how many actions the game
/// then ends, the winner hurrying and the loser holding out; by exhaustive search (pie off).
fn ending(pos: &Position, memo: &mut HashMap<(Board, Option<Color>), (bool, u32)>) -> (bool, u32) {
    let key = (pos.board().clone(), pos.to_move());
    if let Some(&e) = memo.get(&key) {
        return e;
    }
    let mover = pos.to_move().unwrap();
    let outcomes: Vec<(bool, u32)> = pos
        .legal_actions()
        .into_iter()
        .map(|a| after_ending(pos, a, mover, memo))
        .collect();
    let win = outcomes.iter().filter(|o| o.0).map(|o| o.1).min();
    let e = match win {
        Some(length) => (true, length),
        None => (false, outcomes.iter().map(|o| o.1).max().unwrap()),
    };
    memo.insert(key, e);
    e
}

/// Whether `mover` wins after playing `a` at `pos`, and in how many actions the game ends,
/// `a` included.
fn after_ending(
    pos: &Position,
    a: Action,
    mover: Color,
    memo: &mut HashMap<(Board, Option<Color>), (bool, u32)>,
) -> (bool, u32) {
    let mut after = pos.clone();
    after.play(a).unwrap();
    match after.outcome() {
        Some(outcome) => (outcome.winner() == Some(mover), 1),
        None => {
            let (they_win, length) = ending(&after, memo);
            (!they_win, length + 1)
        }
    }
}

#[test]
fn a_lost_side_plays_the_move_that_holds_out_longest() {
    let setup = Setup {
        size: 4,
        pie: false,
        ..Setup::new(Game::Quentin)
    };
    let mut memo = HashMap::new();
    let (mut lost, mut exact) = (0, 0);
    let mut rng = rng::Rng::new(3);
    for _ in 0..40 {
        // A few random actions in, then solved exhaustively.
        let mut pos = setup.start().unwrap();
        for _ in 0..4 {
            let legal = pos.legal_actions();
            pos.play(legal[rng.below(legal.len())]).unwrap();
            if pos.is_over() {
                break;
            }
        }
        if pos.is_over() {
            continue;
        }
        let mover = pos.to_move().unwrap();
        let report = search(&pos, 20_000);
        // Every proof's length bounds the game's end under best play from above.
        for m in report.moves.iter().filter(|m| m.proven.is_some()) {
            let (_, truth) = after_ending(&pos, m.action, mover, &mut memo);
            assert!(m.ends_in.unwrap() >= truth, "{m:?}: {truth}");
        }
        let (wins, _) = ending(&pos, &mut memo);
        if wins {
            continue;
        }
        assert_eq!(report.proven, Some(Proven::Loss), "{:?}", pos.board());
        let longest = pos
            .legal_actions()
            .into_iter()
            .map(|a| after_ending(&pos, a, mover, &mut memo).1)
            .max()
            .unwrap();
        // The move played is the longest loss the proofs know (their lengths are bounds, a
        // win's by the quickest win the tree has proved, not always the quickest there is) ...
        let best = &report.moves[0];
        assert_eq!(report.best, Some(best.action));
        let known = report.moves.iter().filter_map(|m| m.ends_in).max();
        assert_eq!(best.ends_in, known, "{report:?}");
        // ... and never a move that loses at once while another holds out.
        let (_, held) = after_ending(&pos, best.action, mover, &mut memo);
        assert!(held > 2 || longest <= 2, "{best:?} in {:?}", pos.board());
        exact += usize::from(held == longest);
        lost += 1;
    }
    assert!(lost >= 3, "only {lost} lost positions");
    // Mostly the longest there is, too.
    assert!(2 * exact >= lost, "{exact} of {lost}");
}

#[test]
fn the_prior_is_full_strength_s_and_a_change_of_level_rebuilds_the_tree() {
    let pos = Setup::new(Game::Quentin).start().unwrap();
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(limits(200));
    searcher.search(&pos, &stop, |_| {});
    assert!(searcher.trees.iter().all(Tree::has_prior));
    let below = Limits {
        level: Level::new(9).unwrap(),
        ..limits(200)
    };
    searcher.set_limits(below);
    searcher.search(&pos, &stop, |_| {});
    assert!(!searcher.trees.is_empty());
    assert!(!searcher.trees.iter().any(Tree::has_prior));
    searcher.set_limits(limits(200));
    searcher.search(&pos, &stop, |_| {});
    assert!(searcher.trees.iter().all(Tree::has_prior));
}
