//! Property tests over random games of Konobi and Brique, sizes 3 to 13: the rules' invariants
//! hold after every action, every listed action plays, and the winner alone has a chain between
//! its two edges. Each check is written from docs/rules.md here, apart from the rules library.

use proptest::prelude::*;
use quentin::rules::{
    Action, Board, Color, DIAGONAL, Game, ORTHOGONAL, Point, Position, Setup, brique, konobi,
};

/// How stones link into chains, from docs/rules.md: Konobi's weak connections make any two like
/// diagonal stones one chain, so its chains are 8-connected; Brique's are orthogonal.
fn chain_steps(game: Game) -> Vec<(isize, isize)> {
    match game {
        Game::Konobi => ORTHOGONAL.into_iter().chain(DIAGONAL).collect(),
        _ => ORTHOGONAL.to_vec(),
    }
}

/// Whether `color` has a chain from its first edge to its second.
fn joins_edges(board: &Board, color: Color, steps: &[(isize, isize)]) -> bool {
    let mut seen = vec![false; board.size() * board.size()];
    let index = |p: Point| p.row() * board.size() + p.col();
    let mut stack: Vec<Point> = board
        .points()
        .filter(|&p| board.get(p) == Some(color) && board.on_first_edge(p, color))
        .collect();
    for &p in &stack {
        seen[index(p)] = true;
    }
    while let Some(p) = stack.pop() {
        if board.on_second_edge(p, color) {
            return true;
        }
        for &d in steps {
            if let Some(q) = board.step(p, d)
                && board.get(q) == Some(color)
                && !seen[index(q)]
            {
                seen[index(q)] = true;
                stack.push(q);
            }
        }
    }
    false
}

/// Plays a random game of `game` on `size`, the `choices` picking among the legal actions, and
/// hands every action to `check` with the positions before and after it. Checks on the way
/// what holds for every connection game.
fn random_game(
    game: Game,
    size: usize,
    choices: &[u32],
    mut check: impl FnMut(&Position, Action, &Position),
) {
    let mut pos = Setup {
        size,
        ..Setup::new(game)
    }
    .start()
    .unwrap();
    let steps = chain_steps(game);
    for &choice in choices {
        let legal = pos.legal_actions();
        if pos.is_over() {
            assert!(legal.is_empty());
            break;
        }
        // Every listed action plays; every empty point not listed is refused.
        for &action in &legal {
            assert!(pos.clone().play(action).is_ok(), "{action} is listed");
        }
        for p in pos.board().points().filter(|&p| pos.get(p).is_none()) {
            assert_eq!(
                pos.is_legal(Action::Place(p)),
                legal.contains(&Action::Place(p)),
                "{p} in {:?}",
                pos.board()
            );
        }
        let action = legal[choice as usize % legal.len()];
        let mut next = pos.clone();
        next.play(action).unwrap();
        check(&pos, action, &next);
        let board = next.board();
        match next.outcome().and_then(|o| o.winner()) {
            Some(winner) => {
                assert!(joins_edges(board, winner, &steps));
                assert!(!joins_edges(board, winner.opponent(), &steps));
                let line = next.outcome().unwrap().line();
                assert!(line.iter().all(|p| board.get(p) == Some(winner)));
                assert!(line.iter().any(|p| board.on_first_edge(p, winner)));
                assert!(line.iter().any(|p| board.on_second_edge(p, winner)));
            }
            None => {
                for color in Color::ALL {
                    assert!(!joins_edges(board, color, &steps), "{color} {board:?}");
                }
            }
        }
        pos = next;
    }
}

/// Whether a `color` stone on the empty point `q` of `board` would connect weakly to anything.
fn would_connect_weakly(board: &Board, q: Point, color: Color) -> bool {
    let mut with = board.clone();
    with.set(q, Some(color));
    konobi::weak_connections(&with)
        .iter()
        .any(|&(a, b)| a == q || b == q)
}

/// Konobi's placement rule, checked naively on one placement: no weak connection to a stone
/// that has an empty orthogonal neighbour where the mover's stone would connect weakly to
/// nothing.
fn assert_no_avoidable_weak_connection(before: &Board, p: Point, after: &Board) {
    let color = after.get(p).unwrap();
    for (a, b) in konobi::weak_connections(after) {
        let s = match (a == p, b == p) {
            (true, _) => b,
            (_, true) => a,
            _ => continue,
        };
        for q in before.neighbours(s) {
            assert!(
                before.get(q).is_some() || would_connect_weakly(before, q, color),
                "{p} connects weakly to {s} though {q} was clean in {before:?}"
            );
        }
    }
}

/// Whether some 2×2 square holds two stones of each colour, each pair on a diagonal.
fn has_crosscut(board: &Board) -> bool {
    board.points().any(|p| {
        let (Some(right), Some(up), Some(diagonal)) = (
            board.step(p, (1, 0)),
            board.step(p, (0, 1)),
            board.step(p, (1, 1)),
        ) else {
            return false;
        };
        let (a, b, c, d) = (
            board.get(p),
            board.get(diagonal),
            board.get(right),
            board.get(up),
        );
        a.is_some() && c.is_some() && a == b && c == d && a != c
    })
}

/// Whether some square of `board` has both escorts holding `color` but does not hold it.
fn unfilled_escorted_square(board: &Board, color: Color) -> Option<Point> {
    board.points().find(|&p| {
        let escorts: Vec<Point> = brique::escorts(board.size(), p).collect();
        escorts.len() == 2
            && escorts.iter().all(|&e| board.get(e) == Some(color))
            && board.get(p) != Some(color)
    })
}

fn games() -> impl Strategy<Value = (usize, Vec<u32>)> {
    (3usize..=13, prop::collection::vec(any::<u32>(), 200))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn konobi_never_crosscuts_nor_makes_an_avoidable_weak_connection((size, choices) in games()) {
        random_game(Game::Konobi, size, &choices, |before, action, after| {
            assert!(!has_crosscut(after.board()), "{:?}", after.board());
            assert!(!konobi::has_crosscut(after.board()));
            if let Action::Place(p) = action {
                assert_no_avoidable_weak_connection(before.board(), p, after.board());
            }
        });
    }

    #[test]
    fn brique_fills_every_escorted_square((size, choices) in games()) {
        random_game(Game::Brique, size, &choices, |_, action, after| {
            assert_ne!(action, Action::Pass, "Brique has no illegal placement");
            for color in Color::ALL {
                assert_eq!(unfilled_escorted_square(after.board(), color), None, "{color}");
            }
        });
    }
}
