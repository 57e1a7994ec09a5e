//! GRAVE's idea at expansion (Cazenave, "Generalized Rapid Action Value Estimation", 2015):
//! a node with few playouts of its own judges its actions by the AMAF statistics of an
//! ancestor that has more. Here the ancestor is the grandparent (the nearest node where the
//! same colour moves), and the statistics are handed down once, when the node is expanded, as
//! virtual AMAF results of each new placement, at most its game's [`Prior::inherit`]: real
//! results wash them out as they come, as the prior's do. The search scores each child from its
//! own statistics alone ([`super::Edges`]), so a reference read afresh at every descent, as
//! GRAVE reads it, would add a lookup per child per descent; and since a node is expanded only
//! after dozens of playouts, GRAVE's usual threshold (about 50) would seldom reach it anyway.

use quentin_rules::Position;

use super::prior::Prior;
use super::{NO_POINT, Tree};

impl Tree {
    /// After the expansion of `i` (at `pos`, the end of the path): its grandparent, where the
    /// same colour moved, hands its AMAF results down, when the search inherits and the game
    /// has a prior.
    pub(super) fn inherit_from_grandparent(&mut self, i: u32, pos: &Position) {
        let Some(prior) = Prior::of(pos.game()).filter(|_| self.params.inherit) else {
            return;
        };
        if let [.., grand, _, here] = self.path[..]
            && here.node == i
            && grand.to_move.is_some()
            && grand.to_move == here.to_move
        {
            self.inherit_amaf(i, grand.node, prior.inherit);
        }
    }

    /// Gives the new children of `i` (just expanded) the AMAF results of the same placements
    /// at `ancestor`, at most `cap` virtual results each, in the same proportion.
    pub(super) fn inherit_amaf(&mut self, i: u32, ancestor: u32, cap: u32) {
        if cap == 0 {
            return;
        }
        let from = self.children(ancestor);
        if from.is_empty() {
            return;
        }
        for c in from.clone() {
            let c = c as usize;
            let k = usize::from(self.edges.amaf_index[c]);
            if self.inherited.len() <= k {
                self.inherited.resize(k + 1, (0.0, 0));
            }
            let amaf = self.edges.amaf[c];
            self.inherited[k] = (amaf.wins, amaf.visits);
        }
        for c in self.children(i) {
            let c = c as usize;
            let k = usize::from(self.edges.amaf_index[c]);
            let Some(&(wins, visits)) = self.inherited.get(k) else {
                continue;
            };
            if k == usize::from(NO_POINT) || visits == 0 {
                continue;
            }
            let given = visits.min(cap);
            self.edges
                .add_amaf(c, given, wins * given as f32 / visits as f32);
        }
        for c in from {
            self.inherited[usize::from(self.edges.amaf_index[c as usize])] = (0.0, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rng::Rng;
    use crate::tree::edge::Amaf;
    use crate::tree::prior::Prior;
    use crate::tree::{Params, ROOT, Tree};
    use quentin_rules::{Action, Game, Point, Position, Setup};

    fn at(p: &str) -> Action {
        Action::Place(Point::parse(p).unwrap())
    }

    fn start(game: Game, size: usize) -> Position {
        Setup {
            size,
            ..Setup::new(game)
        }
        .start()
        .unwrap()
    }

    /// The child of `node` reached by `action`.
    fn child(tree: &Tree, node: u32, action: Action) -> u32 {
        tree.children(node)
            .find(|&c| tree.node(c).action == action)
            .unwrap_or_else(|| panic!("{action:?}"))
    }

    /// Each new placement gets the same placement's AMAF results at the ancestor, at most the
    /// cap of them, in their proportion, over its prior; a point the ancestor never saw gets
    /// nothing, and nothing is left over for the next expansion.
    #[test]
    fn a_new_placement_inherits_the_ancestors_amaf_results_up_to_the_cap() {
        let game = Game::Konobi;
        let prior = Prior::of(game).unwrap();
        let mut tree = Tree::new(10_000, Params::default());
        let mut pos = start(game, 7);
        assert!(tree.expand(ROOT, &pos));
        // At the root (Black to move): b6 seen in 100 playouts, 80 won; a1 in 10, 2 won.
        let b6 = child(&tree, ROOT, at("b6"));
        tree.edges.amaf[b6 as usize] = Amaf {
            visits: 100,
            wins: 80.0,
        };
        let a1 = child(&tree, ROOT, at("a1"));
        tree.edges.amaf[a1 as usize] = Amaf {
            visits: 10,
            wins: 2.0,
        };
        // White's d4, then Black to move again: the root is the grandparent.
        let d4 = child(&tree, ROOT, at("d4"));
        pos.play(at("d4")).unwrap();
        assert!(tree.expand(d4, &pos));
        let g7 = child(&tree, d4, at("g7"));
        pos.play(at("g7")).unwrap();
        assert!(tree.expand(g7, &pos));
        let before: Vec<(Action, u32, f32)> = tree
            .children(g7)
            .map(|c| {
                let e = tree.edges.get(c as usize);
                (tree.node(c).action, e.amaf_visits, e.amaf_wins)
            })
            .collect();
        tree.inherit_amaf(g7, ROOT, 30);
        for (c, (action, visits, wins)) in tree.children(g7).zip(before) {
            let e = tree.edges.get(c as usize);
            let ancestor = tree.edges.get(child(&tree, ROOT, action) as usize);
            let given = ancestor.amaf_visits.min(30);
            assert_eq!(e.amaf_visits, visits + given, "{action}");
            let share = ancestor.amaf_wins / ancestor.amaf_visits as f32;
            assert!(
                (e.amaf_wins - wins - share * given as f32).abs() < 1e-4,
                "{action}"
            );
        }
        let won = |a: &str| {
            let e = tree.edges.get(child(&tree, g7, at(a)) as usize);
            e.amaf_wins / e.amaf_visits as f32
        };
        // b6 gets 30 results at 80 %, a1 10 at 20 %, over the prior's 20.
        assert!((won("b6") - (20.0 * prior.far + 24.0) / 50.0).abs() < 1e-4);
        assert!((won("a1") - (20.0 * prior.far + 2.0) / 30.0).abs() < 1e-4);
        assert!(tree.inherited.iter().all(|&x| x == (0.0, 0)));
    }

    /// The search hands results down where it expands a node two actions below a node of the
    /// same mover: a placement then starts with more AMAF results than its prior and one
    /// playout can give it; without inheritance, none does.
    #[test]
    fn the_search_hands_results_down_when_it_expands() {
        for inherit in [false, true] {
            let params = Params {
                inherit,
                ..Params::default()
            };
            // Without the pie rule: after a swap two actions up, the colours change hands.
            let pos = Setup {
                size: 7,
                pie: false,
                ..Setup::new(Game::Brique)
            }
            .start()
            .unwrap();
            let mut tree = Tree::new(100_000, params);
            let mut rng = Rng::new(7);
            let most = (0..3000)
                .find_map(|_| {
                    tree.iterate(&pos, &mut rng);
                    let deep = (1..tree.nodes.len() as u32)
                        .filter(|&n| {
                            matches!(tree.node(n).action, Action::Place(_))
                                && !tree.children(n).is_empty()
                                && !tree.children(ROOT).contains(&n)
                        })
                        .collect::<Vec<_>>();
                    deep.first().map(|&n| {
                        tree.children(n)
                            .map(|c| tree.edges.amaf[c as usize].visits)
                            .max()
                            .unwrap()
                    })
                })
                .expect("a node below the root's children was expanded");
            let prior = Prior::of(Game::Brique).unwrap().playouts;
            if inherit {
                assert!(most > prior + 1, "{most}");
            } else {
                assert!(most <= prior + 1, "{most}");
            }
        }
    }
}
