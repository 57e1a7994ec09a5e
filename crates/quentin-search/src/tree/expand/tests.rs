//! The expansion's tactics deep in the tree: an immediate win taken, the opponent's single
//! winning point blocked, at any depth.

use crate::tree::prior::Prior;
use crate::tree::{Params, Proof, ROOT, Tree};
use quentin_rules::{Action, Board, Color, Game, Point, Position, Setup};

fn at(p: &str) -> Action {
    Action::Place(Point::parse(p).unwrap())
}

/// A tree of `root` with the path of `actions` expanded node by node from the root, and the
/// node and position at its end (expanded too).
fn descend(root: &Position, actions: &[Action]) -> (Tree, u32, Position) {
    descend_with(root, actions, Params::default())
}

/// [`descend`] with the search's constants `params`.
fn descend_with(root: &Position, actions: &[Action], params: Params) -> (Tree, u32, Position) {
    let mut tree = Tree::new(100_000, params);
    let mut pos = root.clone();
    let mut node = ROOT;
    assert!(tree.expand(node, &pos));
    for &a in actions {
        node = tree
            .children(node)
            .find(|&c| tree.node(c).action == a)
            .unwrap();
        pos.play(a).unwrap();
        assert!(tree.expand(node, &pos));
    }
    (tree, node, pos)
}

/// Black's c5, c4, c3 and (after three actions) c1: c2 joins Black's edges, and only c2
/// (White's b2 and d2 keep away Konobi's diagonal links and Brique's fill of c2 from d2; in
/// Quentin they would make c2 a territory); White is far from any win.
fn threatened(game: Game) -> (Position, [Action; 3]) {
    let rows = match game {
        Game::Quentin => "W.B..|..B..|..B..|.....|.....",
        _ => "W.B..|..B..|..B..|.W.W.|.....",
    };
    let board = Board::from_rows(rows).unwrap();
    let root = Setup::new(game).start_from(board, Color::Black).unwrap();
    (root, [at("c1"), at("e4"), at("e5")])
}

#[test]
fn the_single_winning_point_is_the_only_unproved_reply_at_depth_three() {
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let (root, path) = threatened(game);
        let (tree, node, pos) = descend(&root, &path);
        assert_eq!(pos.to_move(), Some(Color::White), "{game}");
        let c2 = vec![Point::parse("c2").unwrap()];
        assert_eq!(pos.winning_points(Color::Black), c2, "{game}");
        assert!(pos.winning_points(Color::White).is_empty(), "{game}");
        let children: Vec<u32> = tree.children(node).collect();
        assert!(children.len() > 5, "{game} {}", children.len());
        for c in children {
            let child = tree.node(c);
            if child.action == at("c2") {
                assert_eq!(child.proof, Proof::Unknown, "{game}");
            } else {
                // Black, to move there, wins at once.
                assert_eq!(child.proof, Proof::Win, "{game} {:?}", child.action);
                assert_eq!(child.length, 1, "{game}");
            }
        }
    }
}

#[test]
fn an_immediate_win_proves_the_node_at_depth_three() {
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let (root, [a, b, _]) = threatened(game);
        // Black to move at depth four: c2 wins at once.
        let (tree, node, pos) = descend(&root, &[a, b, at("e5"), at("e2")]);
        assert_eq!(pos.to_move(), Some(Color::Black), "{game}");
        assert_eq!(tree.node(node).proof, Proof::Win, "{game}");
        assert_eq!(tree.node(node).length, 1, "{game}");
    }
}

/// The values of the children of the node reached by `path` from the start of `game` on a
/// board of `size`, with the actions, before any playout.
fn first_values(game: Game, size: usize, path: &[Action], params: Params) -> Vec<(Action, f32)> {
    let root = Setup {
        size,
        ..Setup::new(game)
    }
    .start()
    .unwrap();
    let (tree, node, _) = descend_with(&root, path, params);
    tree.children(node)
        .map(|c| {
            (
                tree.node(c).action,
                tree.edges
                    .get(c as usize)
                    .value(tree.params.rave_bias as f32),
            )
        })
        .collect()
}

#[test]
fn a_new_placement_starts_with_the_prior_by_its_distance_from_the_last_stone() {
    for game in [Game::Konobi, Game::Brique] {
        let prior = Prior::of(game).unwrap();
        assert!(prior.playouts > 0 && prior.near > prior.far, "{prior:?}");
        let values = first_values(game, 7, &[at("d4")], Params::default());
        assert!(values.len() > 40, "{game}");
        let mut near = 0;
        for (a, value) in values {
            match a {
                Action::Place(p) => {
                    let d = p.col().abs_diff(3).max(p.row().abs_diff(3));
                    let share = if d <= prior.reach {
                        prior.near
                    } else {
                        prior.far
                    };
                    near += usize::from(d <= prior.reach);
                    assert!((value - share).abs() < 1e-6, "{game} {a} {value}");
                }
                // The swap has no AMAF statistics: first play urgency.
                _ => assert_eq!(value, 1.0, "{game} {a}"),
            }
        }
        assert_eq!(near, (2 * prior.reach + 1).pow(2) - 1, "{game}");
        // At the first move nothing was placed last: every placement has the far share.
        for (a, value) in first_values(game, 7, &[], Params::default()) {
            assert!((value - prior.far).abs() < 1e-6, "{game} {a} {value}");
        }
    }
}

#[test]
fn a_new_quentin_placement_starts_with_the_share_learned_for_its_pattern() {
    let prior = Prior::of(Game::Quentin).unwrap();
    let table = prior.patterns.expect("Quentin's patterns");
    let root = Setup {
        size: 7,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    let path = [at("d4"), at("e5"), at("d3")];
    let mut pos = root.clone();
    for &a in &path {
        pos.play(a).unwrap();
    }
    let mover = pos.to_move().unwrap();
    let values = first_values(Game::Quentin, 7, &path, Params::default());
    assert!(values.len() > 40);
    let mut shares = Vec::new();
    for (a, value) in values {
        let Action::Place(p) = a else { continue };
        let near = p.col().abs_diff(3) <= prior.reach && p.row().abs_diff(2) <= prior.reach;
        let share = table.share(crate::patterns::key(pos.board(), p, mover), near);
        assert!((value - share).abs() < 1e-6, "{a} {value} {share}");
        shares.push(share);
    }
    // The patterns tell the placements apart beyond near and far.
    shares.sort_by(f32::total_cmp);
    shares.dedup();
    assert!(shares.len() > 4, "{shares:?}");
}

#[test]
fn without_a_prior_and_in_quint_a_new_child_is_worth_one() {
    let none = Params {
        prior: false,
        ..Params::default()
    };
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        for (a, value) in first_values(game, 7, &[at("d4")], none) {
            assert_eq!(value, 1.0, "{game} {a}");
        }
    }
    assert_eq!(Prior::of(Game::Quint), None);
    let quint = first_values(Game::Quint, 8, &[at("d4")], Params::default());
    assert!(quint.len() > 40);
    for (a, value) in quint {
        assert_eq!(value, 1.0, "{a}");
    }
}

/// A node deep in the tree is searched for forks once, when it has drawn `FORK_VISITS`
/// playouts, at full strength only: Konobi, White's g1 leaves Black to stop White's forks at c5
/// or a6, every other placement lost in three actions.
#[test]
fn a_node_is_searched_for_forks_once_its_playouts_pay_for_it() {
    let board =
        Board::from_rows("B..WWWW|.W.W..B|B..B...|....W..|....B..|BB.....|.......").unwrap();
    let root = Setup::new(Game::Konobi)
        .start_from(board, Color::White)
        .unwrap();
    let holds = [at("c5"), at("a6")];
    for forks in [true, false] {
        let params = Params {
            forks,
            ..Params::default()
        };
        let (mut tree, node, pos) = descend_with(&root, &[at("g1")], params);
        let proved = |tree: &Tree| {
            tree.children(node)
                .filter(|&c| tree.node(c).proof != Proof::Unknown)
                .count()
        };
        assert_eq!(proved(&tree), 0);
        tree.edges
            .set_visits(node as usize, crate::tree::FORK_VISITS - 1);
        assert!(!tree.look_for_forks(node, &pos));
        assert_eq!(proved(&tree), 0, "too soon");
        tree.edges
            .set_visits(node as usize, crate::tree::FORK_VISITS);
        assert!(!tree.look_for_forks(node, &pos), "Black still holds");
        if !forks {
            assert_eq!(proved(&tree), 0, "searched without forks");
            continue;
        }
        let children: Vec<u32> = tree.children(node).collect();
        assert!(children.len() > 20);
        for c in children {
            let child = tree.node(c);
            if holds.contains(&child.action) {
                assert_eq!(child.proof, Proof::Unknown, "{:?}", child.action);
            } else {
                assert_eq!(
                    (child.proof, child.length),
                    (Proof::Win, 3),
                    "{:?}",
                    child.action
                );
            }
        }
    }
}
