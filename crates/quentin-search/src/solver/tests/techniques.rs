//! The solver's techniques checked against the rules and against the plain exhaustive search:
//! the board's symmetries its table uses, the must-play pruning.

use super::*;
use crate::puzzles::symmetry::{self, Symmetry};
use crate::rng::Rng;
use crate::solver::key::Keyer;
use quentin_rules::{Board, Setup};

/// `pos` rebuilt under `sym` from its board and side to move (no swap offered), or, for a
/// position where the swap is offered, by playing the image of its first move (`None` for a
/// symmetry that exchanges the colours: Black moves first, so that image is no position of
/// the game).
fn image(pos: &Position, first: Option<Action>, sym: Symmetry) -> Option<Position> {
    let size = pos.size();
    if pos.swap_available() {
        if sym.swaps_colors() {
            return None;
        }
        let mut img = pos.setup().start().unwrap();
        img.play(sym.action(first?, size)).unwrap();
        return Some(img);
    }
    let mut board = Board::new(size);
    for p in pos.board().points() {
        board.set(sym.point(p, size), pos.get(p).map(|c| sym.color(c)));
    }
    let to_move = sym.color(pos.to_move()?);
    pos.setup().start_from(board, to_move).ok()
}

/// Checks that `sym` maps the rules of `pos` onto those of `img`: the legal actions, and after
/// each the stones and the winner.
fn rules_map(pos: &Position, img: &Position, sym: Symmetry) {
    let size = pos.size();
    let mut mapped: Vec<Action> = pos
        .legal_actions()
        .into_iter()
        .map(|a| sym.action(a, size))
        .collect();
    let mut theirs = img.legal_actions();
    mapped.sort();
    theirs.sort();
    assert_eq!(mapped, theirs, "{sym:?}\n{pos:?}");
    for a in pos.legal_actions() {
        let (mut x, mut y) = (pos.clone(), img.clone());
        x.play(a).unwrap();
        y.play(sym.action(a, size)).unwrap();
        assert_eq!(x.winner().map(|c| sym.color(c)), y.winner(), "{a} {sym:?}");
        assert_eq!(x.to_move().map(|c| sym.color(c)), y.to_move());
        for p in x.board().points() {
            assert_eq!(x.get(p).map(|c| sym.color(c)), y.get(sym.point(p, size)));
        }
    }
}

/// Every symmetry of Quentin, Konobi and Brique against the rules on thousands of positions of
/// random games (3×3 to 7×7, pie on and off), and the table's key: equal for a position and
/// its images.
#[test]
fn the_symmetries_the_table_uses_keep_the_rules() {
    let mut rng = Rng::new(0x05e7_ab1e);
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let mut compared = 0;
        for size in 3..=7 {
            let keyer = Keyer::new(game, size, true);
            for pie in [false, true] {
                for _ in 0..12 {
                    let setup = Setup {
                        size,
                        pie,
                        ..Setup::new(game)
                    };
                    let mut pos = setup.start().unwrap();
                    let mut first = None;
                    while !pos.is_over() {
                        for sym in symmetry::symmetries(game) {
                            let Some(img) = image(&pos, first, sym) else {
                                continue;
                            };
                            rules_map(&pos, &img, sym);
                            for attacker in [false, true] {
                                assert!(keyer.key(&pos, attacker) == keyer.key(&img, attacker));
                            }
                            compared += 1;
                        }
                        let action = random_action(&pos, &mut rng);
                        first = first.or(Some(action));
                        pos.play(action).unwrap();
                    }
                }
            }
        }
        assert!(compared > 2000, "{game}: {compared}");
    }
}

/// A map of a board's points, given its side.
type PointMap = fn(Point, usize) -> Point;

/// The symmetries the table does not use are none of the game's: Brique's mirrors and half
/// turn break its escorts, a quarter turn without the colours exchanged breaks each colour's
/// edges. A position where one of them changes the legal moves or the winner is found for each.
#[test]
fn the_other_mirrors_break_the_rules() {
    let mut rng = Rng::new(0xb4e4);
    let half_turn = |p: Point, n: usize| Point::new(n - 1 - p.col(), n - 1 - p.row());
    let transpose = |p: Point, _: usize| Point::new(p.row(), p.col());
    let cases: [(Game, PointMap); 3] = [
        (Game::Brique, half_turn),
        (Game::Quentin, transpose),
        (Game::Konobi, transpose),
    ];
    for (game, map) in cases {
        let mut broken = false;
        for _ in 0..50 {
            random_positions(game, 5, &mut rng, |pos| {
                let mut board = Board::new(5);
                for p in pos.board().points() {
                    board.set(map(p, 5), pos.get(p));
                }
                let img = pos
                    .setup()
                    .start_from(board, pos.to_move().unwrap())
                    .unwrap();
                for a in pos.legal_actions() {
                    let Action::Place(p) = a else { continue };
                    let (mut x, mut y) = (pos.clone(), img.clone());
                    x.play(a).unwrap();
                    if y.play(Action::Place(map(p, 5))).is_err() || x.winner() != y.winner() {
                        broken = true;
                    }
                }
            });
        }
        assert!(broken, "{game}");
    }
}

/// The solver with and without the symmetries in its table, and with and without the move
/// ordering and the must-play pruning, gives the same answers (the verdict, every winning first
/// move, the quickest win's depth) on random positions of small boards.
#[test]
fn the_techniques_change_the_work_not_the_answer() {
    let mut rng = Rng::new(0x7ec4);
    let mut depths = Rng::new(0xde97);
    let plain = Techniques {
        symmetry: false,
        must_play: false,
        ordering: false,
    };
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let mut compared = 0;
        for size in [4, 5] {
            for _ in 0..20 {
                random_positions(game, size, &mut rng, |pos| {
                    let empty = size * size - pos.on_board().iter().sum::<usize>();
                    if empty > 14 {
                        return;
                    }
                    let depth = 1 + depths.below(3);
                    let limits = at_depth(depth);
                    let full = solve(pos, &limits);
                    assert_eq!(
                        full,
                        Solution {
                            nodes: full.nodes,
                            ..solve_with(pos, &limits, plain)
                        },
                        "{pos:?}"
                    );
                    compared += 1;
                });
            }
        }
        assert!(compared > 200, "{game}: {compared}");
    }
}

/// Every position of the 3×3 games (pie on and off) with at most six empty points, solved to
/// the end with the must-play pruning (and the other techniques) against the plain exhaustive
/// search: the same winning first moves. Thousands of them, hundreds where the opponent of the
/// side to move threatens to win at once.
#[test]
fn must_play_agrees_with_the_reference_on_every_small_position() {
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let (mut compared, mut threatened) = (0, 0);
        for pie in [false, true] {
            let setup = Setup {
                size: 3,
                pie,
                ..Setup::new(game)
            };
            let mut seen = std::collections::HashSet::new();
            let mut todo = vec![setup.start().unwrap()];
            while let Some(pos) = todo.pop() {
                let written = format!(
                    "{:?} {:?} {}",
                    pos.board(),
                    pos.to_move(),
                    pos.swap_available()
                );
                if pos.is_over() || !seen.insert(written) {
                    continue;
                }
                for a in pos.legal_actions() {
                    let mut next = pos.clone();
                    next.play(a).unwrap();
                    todo.push(next);
                }
                let empty = 9 - pos.on_board().iter().sum::<usize>();
                if empty > 6 {
                    continue;
                }
                let me = pos.to_move().unwrap();
                threatened += usize::from(!pos.winning_points(me.opponent()).is_empty());
                let solution = solve(&pos, &SolveLimits::default());
                assert!(solution.complete);
                let expected = reference_winning(&pos, 2 * empty + 2);
                assert_eq!(solution.winning, expected, "{pos:?}");
                compared += 1;
            }
        }
        assert!(
            compared > 1000 && threatened > 100,
            "{game}: {compared} {threatened}"
        );
    }
}

/// Random positions of 4×4 and 5×5 games where the opponent of the side to move threatens to win
/// at once, solved with and without the must-play pruning and by the reference at depths 1 to
/// 3: the same answer.
#[test]
fn must_play_agrees_with_the_reference_where_the_opponent_threatens() {
    let mut rng = Rng::new(0x3a57);
    let mut depths = Rng::new(0x9137);
    let without = Techniques {
        must_play: false,
        ..Techniques::default()
    };
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let mut compared = 0;
        for size in [4, 5] {
            for _ in 0..80 {
                random_positions(game, size, &mut rng, |pos| {
                    let me = pos.to_move().unwrap();
                    let empty = size * size - pos.on_board().iter().sum::<usize>();
                    if pos.winning_points(me.opponent()).is_empty() || empty > 12 {
                        return;
                    }
                    let depth = 1 + depths.below(affordable(empty));
                    check(pos, depth);
                    let limits = at_depth(depth);
                    let with = solve(pos, &limits);
                    assert_eq!(
                        with,
                        Solution {
                            nodes: with.nodes,
                            ..solve_with(pos, &limits, without)
                        }
                    );
                    compared += 1;
                });
            }
        }
        assert!(compared > 200, "{game}: {compared}");
    }
}
