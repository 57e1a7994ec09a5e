//! The solver against a plain exhaustive search written here, on seeded random positions of
//! all four games, and on the tactics it must never miss.

use super::*;
use crate::rng::Rng;
use quentin_rules::Setup;

/// The reference: whether the person to move in `pos` wins within `depth` of its own moves,
/// trying every legal action at every node (the resistance's tests use it too).
pub(crate) fn attacker_wins(pos: &Position, depth: usize) -> bool {
    let Some(me) = pos.to_move() else {
        return false;
    };
    depth > 0
        && pos.legal_actions().into_iter().any(|a| {
            let mut child = pos.clone();
            child.play(a).unwrap();
            if child.is_over() {
                child.winner() == Some(me)
            } else {
                defender_holds_not(&child, depth - 1)
            }
        })
}

/// The reference with the defender to move in `pos`: whether the attacker (the other person)
/// wins within `depth` of its moves whatever the defender plays. A swap never ends a game, and
/// after any action the attacker is the person to move.
fn defender_holds_not(pos: &Position, depth: usize) -> bool {
    let attacker = pos.to_move().unwrap().opponent();
    pos.legal_actions().into_iter().all(|a| {
        let mut child = pos.clone();
        child.play(a).unwrap();
        if child.is_over() {
            child.winner() == Some(attacker)
        } else {
            attacker_wins(&child, depth)
        }
    })
}

/// Every first move of the person to move that wins within `depth`, by the reference.
fn reference_winning(pos: &Position, depth: usize) -> Vec<Action> {
    let me = pos.to_move().unwrap();
    pos.legal_actions()
        .into_iter()
        .filter(|&a| {
            let mut child = pos.clone();
            child.play(a).unwrap();
            if child.is_over() {
                child.winner() == Some(me)
            } else {
                defender_holds_not(&child, depth - 1)
            }
        })
        .collect()
}

fn at_depth(depth: usize) -> SolveLimits {
    SolveLimits {
        depth: Some(depth),
        ..SolveLimits::default()
    }
}

/// Checks the solver against the reference on `pos` at `depth`; whether it is a win.
fn check(pos: &Position, depth: usize) -> bool {
    let solution = solve(pos, &at_depth(depth));
    let expected = reference_winning(pos, depth);
    assert!(solution.complete, "{pos:?}");
    assert_eq!(solution.winning, expected, "depth {depth}\n{pos:?}");
    if expected.is_empty() {
        assert_eq!(solution.verdict, Verdict::NoWin, "{pos:?}");
        assert_eq!(solution.depth, depth);
    } else {
        assert_eq!(solution.verdict, Verdict::Win, "{pos:?}");
        // The depth is the quickest win's: no quicker one exists, and it wins within it.
        assert!(solution.depth <= depth);
        assert!(
            !reference_winning(pos, solution.depth).is_empty(),
            "{pos:?}"
        );
        if solution.depth > 1 {
            assert!(
                reference_winning(pos, solution.depth - 1).is_empty(),
                "{pos:?}"
            );
        }
    }
    !expected.is_empty()
}

/// A random legal action of `pos`.
fn random_action(pos: &Position, rng: &mut Rng) -> Action {
    let legal = pos.legal_actions();
    legal[rng.below(legal.len())]
}

/// The depth the reference can afford on a connection-game position with `empty` empty points.
fn affordable(empty: usize) -> usize {
    match empty {
        0..=7 => 3,
        8..=11 => 2,
        _ => 1,
    }
}

#[test]
fn connection_games_agree_with_the_reference_on_random_positions() {
    let mut rng = Rng::new(0x5017_e4a1);
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let mut checked = 0;
        let mut wins = [0usize; 4];
        for size in [3, 4, 5] {
            for pie in [false, true] {
                let games = if size == 5 { 40 } else { 60 };
                for _ in 0..games {
                    let setup = Setup {
                        size,
                        pie,
                        ..Setup::new(game)
                    };
                    let mut pos = setup.start().unwrap();
                    while !pos.is_over() {
                        let empty = size * size - pos.on_board().iter().sum::<usize>();
                        // Every position of small boards' games, the late ones of 5×5, and
                        // the swap of 3×3 with pie on.
                        if size < 5 || empty <= 12 || pos.swap_available() && size == 3 {
                            let depth = 1 + rng.below(affordable(empty));
                            if check(&pos, depth) {
                                wins[depth] += 1;
                            }
                            checked += 1;
                        }
                        let action = random_action(&pos, &mut rng);
                        pos.play(action).unwrap();
                    }
                }
            }
        }
        // Thousands of positions, with wins at every depth.
        assert!(checked > 1000, "{game}: {checked}");
        assert!(wins[1..].iter().all(|&w| w > 10), "{game}: {wins:?}");
    }
}

#[test]
fn quint_agrees_with_the_reference_on_random_positions() {
    let mut rng = Rng::new(0x0051_9e75);
    let setup = Setup {
        pieces: 15,
        ..Setup::new(Game::Quint)
    };
    let mut checked = [0usize; 3];
    let mut wins = 0;
    for _ in 0..15 {
        let mut pos = setup.start().unwrap();
        while !pos.is_over() && pos.ply() < 80 {
            let drop_phase = pos.in_hand().is_some_and(|h| h != [0, 0]);
            // Drops: depth 1 (64 replies a move); steps: depth 2 every few moves.
            let depth = if drop_phase || rng.below(4) != 0 {
                1
            } else {
                2
            };
            if pos.ply() > 16 {
                wins += usize::from(check(&pos, depth));
                checked[depth] += 1;
            }
            let action = random_action(&pos, &mut rng);
            pos.play(action).unwrap();
        }
    }
    assert!(checked[1] > 600 && checked[2] > 60, "{checked:?}");
    assert!(wins > 30, "{wins}");
}

/// Plays a random game of `game` on `size` and hands each position on the way to `visit`.
fn random_positions(game: Game, size: usize, rng: &mut Rng, mut visit: impl FnMut(&Position)) {
    let setup = Setup {
        size,
        pie: false,
        ..Setup::new(game)
    };
    let mut pos = setup.start().unwrap();
    while !pos.is_over() {
        visit(&pos);
        let action = random_action(&pos, rng);
        pos.play(action).unwrap();
    }
}

#[test]
fn every_win_in_one_and_every_must_block_is_found() {
    let mut rng = Rng::new(0xb10c);
    let mut seen = [0usize; 2];
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        for size in [5, 7, 9] {
            for _ in 0..15 {
                random_positions(game, size, &mut rng, |pos| {
                    let me = pos.to_move().unwrap();
                    let mine = pos.winning_points(me);
                    let theirs = pos.winning_points(me.opponent());
                    if !mine.is_empty() {
                        // Every winning point is a win in one, and nothing else.
                        let solution = solve(pos, &at_depth(1));
                        let points: Vec<Action> = mine.into_iter().map(Action::Place).collect();
                        assert_eq!(solution.verdict, Verdict::Win);
                        assert_eq!(solution.depth, 1);
                        if game == Game::Quentin {
                            assert!(points.iter().all(|a| solution.winning.contains(a)));
                        } else {
                            assert_eq!(solution.winning, points, "{pos:?}");
                        }
                        seen[0] += 1;
                    } else if !theirs.is_empty() {
                        // The opponent threatens: a move that wins within two stops every
                        // threat, and the solver says so exactly when the reference does.
                        let solution = solve(pos, &at_depth(2));
                        for &a in &solution.winning {
                            let mut after = pos.clone();
                            after.play(a).unwrap();
                            assert!(after.winning_points(me.opponent()).is_empty(), "{a}");
                        }
                        if size == 5 {
                            assert_eq!(solution.winning, reference_winning(pos, 2), "{pos:?}");
                        }
                        seen[1] += 1;
                    }
                });
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

#[test]
fn budgets_end_in_unknown_and_a_finished_game_has_no_win() {
    let pos = Setup {
        size: 6,
        pie: false,
        ..Setup::new(Game::Brique)
    }
    .start()
    .unwrap();
    let limits = SolveLimits {
        depth: Some(6),
        nodes: Some(500),
        deadline: None,
    };
    let solution = solve(&pos, &limits);
    assert_eq!(solution.verdict, Verdict::Unknown);
    assert!(!solution.complete);
    let mut rng = Rng::new(3);
    let mut last = None;
    random_positions(Game::Konobi, 4, &mut rng, |p| last = Some(p.clone()));
    let mut end = last.unwrap();
    let winning = solve(&end, &at_depth(1)).winning;
    end.play(winning[0]).unwrap();
    assert_eq!(solve(&end, &at_depth(3)).verdict, Verdict::NoWin);
}

#[test]
fn to_the_end_matches_the_deepest_reference() {
    // 3×3 boards from the empty board: the search to the end against the reference at a depth
    // that covers every game (each of the first player's placements takes a point).
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        for pie in [false, true] {
            let setup = Setup {
                size: 3,
                pie,
                ..Setup::new(game)
            };
            let pos = setup.start().unwrap();
            let solution = solve(&pos, &SolveLimits::default());
            assert!(solution.complete);
            assert_eq!(solution.winning, reference_winning(&pos, 6), "{game} {pie}");
        }
    }
}

/// Options with a table of `room` entries and the rest as by default.
fn table_of(room: usize) -> SolveOptions<'static> {
    SolveOptions {
        table: room,
        ..SolveOptions::default()
    }
}

#[test]
fn a_tiny_table_forgets_often_and_the_answers_stay_the_reference_s() {
    // A table of 256 entries: full after a few nodes, it forgets half of itself again and again
    // (the settled entries and the most expensive open ones last). Against the reference on
    // random late positions of 4×4 and 5×5, and to the end of the empty 3×3 boards.
    let mut rng = Rng::new(0x007a_b1e5);
    let mut checked = 0;
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        for size in [4, 5] {
            for _ in 0..6 {
                random_positions(game, size, &mut rng, |pos| {
                    let empty = size * size - pos.on_board().iter().sum::<usize>();
                    if empty > 10 {
                        return;
                    }
                    // Depths 1 to what the reference affords, in turn.
                    let depth = 1 + checked % affordable(empty);
                    let solution = solve_in(pos, &at_depth(depth), table_of(256));
                    assert!(solution.complete, "{pos:?}");
                    assert_eq!(
                        solution.winning,
                        reference_winning(pos, depth),
                        "depth {depth}\n{pos:?}"
                    );
                    checked += 1;
                });
            }
        }
        for pie in [false, true] {
            let pos = Setup {
                size: 3,
                pie,
                ..Setup::new(game)
            }
            .start()
            .unwrap();
            let solution = solve_in(&pos, &SolveLimits::default(), table_of(256));
            assert!(solution.complete);
            assert_eq!(solution.winning, reference_winning(&pos, 6), "{game} {pie}");
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn a_small_table_solves_the_4x4_boards_as_the_default_one() {
    // 4,096 entries against the 4×4 solves to the end, which make hundreds of thousands of
    // positions: the table forgets again and again, the answers are the default table's.
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let pos = Setup {
            size: 4,
            pie: false,
            ..Setup::new(game)
        }
        .start()
        .unwrap();
        let small = solve_in(&pos, &SolveLimits::default(), table_of(4096));
        let whole = solve(&pos, &SolveLimits::default());
        assert!(small.complete && whole.complete, "{game}");
        assert_eq!(small.verdict, whole.verdict, "{game}");
        assert_eq!(small.winning, whole.winning, "{game}");
        eprintln!(
            "{game}: {} nodes, {} with the default table",
            small.nodes, whole.nodes
        );
    }
}

/// Options with `store` and the rest as by default.
fn with(store: &mut Store) -> SolveOptions<'_> {
    SolveOptions {
        store: Some(store),
        ..SolveOptions::default()
    }
}

#[test]
fn a_store_without_the_pie_rule_serves_the_board_with_it() {
    // The store's proofs for one person refute the other person's question of the same
    // positions, which the pie rule's swap asks: the same answers, fewer positions.
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let start = |pie| {
            Setup {
                size: 4,
                pie,
                ..Setup::new(game)
            }
            .start()
            .unwrap()
        };
        let fresh = solve(&start(true), &SolveLimits::default());
        let mut store = Store::in_memory(game, 4);
        let off = solve_in(&start(false), &SolveLimits::default(), with(&mut store));
        assert!(off.complete);
        let on = solve_in(&start(true), &SolveLimits::default(), with(&mut store));
        assert_eq!(on.verdict, fresh.verdict, "{game}");
        assert_eq!(on.winning, fresh.winning, "{game}");
        assert!(
            on.nodes < fresh.nodes / 2,
            "{game}: {} {}",
            on.nodes,
            fresh.nodes
        );
    }
}

#[test]
fn progress_tells_each_first_move_once_with_the_store_holding_its_proof() {
    // Konobi 4×4 to the end, a small table: each first move's class is told once, its value
    // as the solution has it, and the store told holds the proof or refutation of that move.
    use std::sync::Mutex;
    let pos = Setup {
        size: 4,
        pie: false,
        ..Setup::new(Game::Konobi)
    }
    .start()
    .unwrap();
    let told = Mutex::new(Vec::new());
    let keyer = key::Keyer::new(Game::Konobi, 4, true);
    let tell = |first: &FirstMove, store: Option<&Store>| {
        let mut after = pos.clone();
        after.play(first.action).unwrap();
        let known = store.unwrap().known.get(&keyer.key(&after, false)).copied();
        told.lock()
            .unwrap()
            .push((first.action, first.win_in, known));
    };
    let mut store = Store::in_memory(Game::Konobi, 4);
    let options = SolveOptions {
        store: Some(&mut store),
        table: 50_000,
        progress: Some(&tell),
        ..SolveOptions::default()
    };
    let solution = solve_in(&pos, &SolveLimits::default(), options);
    assert_eq!(solution.verdict, Verdict::NoWin);
    assert!(solution.complete);
    let told = told.into_inner().unwrap();
    // 16 points, 4 classes under the mirrors and the half turn: a1, b1, a2, b2.
    assert_eq!(told.len(), 4, "{told:?}");
    for (action, win_in, known) in told {
        assert_eq!(win_in, None, "{action}");
        let known = known.unwrap();
        assert_eq!(known.win_in, u16::MAX, "{action}");
        assert!(known.no_win_below > 30, "{action}: {known:?}");
    }
}

mod techniques;
