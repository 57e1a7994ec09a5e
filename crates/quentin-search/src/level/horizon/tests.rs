//! The levels' horizon over a suite of positions of all four games: wins at once taken from
//! level 3 up, threats to win at once answered from level 5 up, whatever the seed; and the
//! draw near the fight at every level.

use std::sync::atomic::AtomicBool;

use quentin_rules::{Action, Game, Position, Setup};

use super::*;
use crate::rng::Rng;
use crate::{Budget, Limits, Searcher};

/// The games of the suite, on small boards so that the positions come quickly.
const GAMES: [(Game, usize); 4] = [
    (Game::Quentin, 7),
    (Game::Konobi, 7),
    (Game::Brique, 7),
    (Game::Quint, 8),
];

/// Whether `action` at `pos` wins the game at once for the side to move.
fn wins_at_once(pos: &Position, action: Action) -> bool {
    let mover = pos.to_move();
    let mut after = pos.clone();
    after.play(action).is_ok() && after.is_over() && after.winner() == mover
}

/// Whether the side to move at `pos` has an action that wins at once.
fn has_win(pos: &Position) -> bool {
    !pos.is_over()
        && pos
            .legal_actions()
            .into_iter()
            .any(|a| wins_at_once(pos, a))
}

/// Whether playing `action` at `pos` leaves the opponent a win at once.
fn leaves_a_win(pos: &Position, action: Action) -> bool {
    let mut after = pos.clone();
    after.play(action).unwrap();
    has_win(&after)
}

/// The positions of seeded random games of every game of [`GAMES`]: up to `per_game` where the
/// side to move wins at once, and up to `per_game` where it has no such win, the opponent
/// threatens one and some action answers it (and some does not).
fn suite(per_game: usize) -> (Vec<Position>, Vec<Position>) {
    let (mut wins, mut threats) = (Vec::new(), Vec::new());
    for (game, size) in GAMES {
        let (mut w, mut t) = (0, 0);
        for seed in 1..200u64 {
            if w >= per_game && t >= per_game {
                break;
            }
            let mut pos = Setup {
                size,
                pieces: if game == Game::Quint { 15 } else { 0 },
                ..Setup::new(game)
            }
            .start()
            .unwrap();
            let mut rng = Rng::new(seed);
            while !pos.is_over() {
                let legal = pos.legal_actions();
                if has_win(&pos) {
                    if w < per_game {
                        wins.push(pos.clone());
                        w += 1;
                    }
                    // Later positions of this game are the same fight, won.
                    break;
                }
                if t < per_game && legal.len() > 1 {
                    let leaves: Vec<bool> = legal.iter().map(|&a| leaves_a_win(&pos, a)).collect();
                    if leaves.iter().any(|&l| l) && leaves.iter().any(|&l| !l) {
                        threats.push(pos.clone());
                        t += 1;
                    }
                }
                pos.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
        assert!(
            w >= per_game && t >= per_game,
            "{game}: {w} wins, {t} threats"
        );
    }
    (wins, threats)
}

/// The action `level` chooses at `pos` with `seed`, on a small budget (the horizon rests on what
/// the root's expansion proves, not on the playouts).
fn chosen(level: Level, pos: &Position, seed: u64) -> Action {
    let limits = Limits {
        budget: Budget::Playouts(300),
        threads: 1,
        seed: Some(seed),
        nodes: 0,
        level,
    };
    Searcher::new(limits)
        .search(pos, &AtomicBool::new(false), |_| {})
        .best
        .unwrap()
}

fn level(n: u8) -> Level {
    Level::new(n).unwrap()
}

#[test]
fn from_level_3_up_a_win_at_once_is_taken_and_from_level_5_up_a_threat_answered() {
    let (wins, threats) = suite(3);
    for n in TAKES_WINS..=10 {
        for (k, pos) in wins.iter().enumerate() {
            for seed in 1..=3 {
                let a = chosen(level(n), pos, seed);
                assert!(
                    wins_at_once(pos, a),
                    "level {n}, seed {seed}, win position {k} ({}): {a}\n{}",
                    pos.setup().game,
                    pos.board().rows().join("\n")
                );
            }
        }
    }
    for n in BLOCKS_THREATS..=10 {
        for (k, pos) in threats.iter().enumerate() {
            for seed in 1..=3 {
                let a = chosen(level(n), pos, seed);
                assert!(
                    !leaves_a_win(pos, a),
                    "level {n}, seed {seed}, threat position {k} ({}): {a}\n{}",
                    pos.setup().game,
                    pos.board().rows().join("\n")
                );
            }
        }
    }
}

#[test]
fn below_level_3_a_win_at_once_may_be_missed() {
    // The horizon is a level's: the weakest levels play as a beginner does. Over the suite
    // and a few seeds, level 1 misses some win at once (else it is no beginner's match).
    let (wins, _) = suite(3);
    let missed = wins
        .iter()
        .flat_map(|pos| (1..=4).map(move |seed| (pos, seed)))
        .filter(|(pos, seed)| !wins_at_once(pos, chosen(level(1), pos, *seed)))
        .count();
    assert!(missed > 0);
}

#[test]
fn every_level_below_full_plays_near_the_fight() {
    // Positions a few stones into random games of the connection games on 9×9: a placement
    // drawn is within reach of a stone, or the search's own choice.
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let mut pos = Setup {
            size: 9,
            ..Setup::new(game)
        }
        .start()
        .unwrap();
        let mut rng = Rng::new(7);
        for _ in 0..6 {
            let legal = pos.legal_actions();
            pos.play(legal[rng.below(legal.len())]).unwrap();
        }
        for n in 1..=9 {
            for seed in 1..=4 {
                let limits = Limits {
                    budget: Budget::Playouts(300),
                    threads: 1,
                    seed: Some(seed),
                    nodes: 0,
                    level: level(n),
                };
                let report = Searcher::new(limits).search(&pos, &AtomicBool::new(false), |_| {});
                let a = report.best.unwrap();
                let first = report.moves.first().map(|m| m.action);
                assert!(
                    near_stones(&pos, a, FIGHT_REACH) || Some(a) == first,
                    "{game} level {n} seed {seed}: {a}"
                );
            }
        }
    }
}

/// The position of issue 39's record: Quentin 9×9, White (the computer, level 5) to move,
/// where the search proves a win that most of the actions it drew threw away, each announced
/// "a proven win for it".
fn issue_39() -> Position {
    let mut pos = Setup {
        size: 9,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    let line = "e5 h8 e6 g4 e4 f9 e3 e2 e7 g2 e8 f4 e9 g5 d3 d2 f3 f1 c3 a2 c2 c1 b2 a1 h2 f6 h1 \
                i4 h4 i5 h5";
    for word in line.split_whitespace() {
        pos.play(Action::parse(word).unwrap()).unwrap();
    }
    pos
}

#[test]
fn the_announced_value_is_the_played_move_s_and_from_level_7_up_a_proved_win_is_kept() {
    let pos = issue_39();
    let mut proved = 0;
    // The analysis of the position after each action announced a proven win.
    let mut judged = std::collections::HashMap::new();
    for n in 3..=10 {
        for seed in 1..=4 {
            let limits = Limits {
                budget: Budget::Playouts(6_000),
                threads: 1,
                seed: Some(seed),
                nodes: 0,
                level: level(n),
            };
            let mut searcher = Searcher::new(limits);
            let report = searcher.search(&pos, &AtomicBool::new(false), |_| {});
            let played = report.played().unwrap();
            // Honest: the report's proof and figure are the played action's own, whatever the
            // search proved of the position.
            assert_eq!(report.proven, played.proven, "level {n} seed {seed}");
            assert_eq!(report.win, played.win, "level {n} seed {seed}");
            let said = report.worth("for it");
            let won = report
                .moves
                .iter()
                .any(|m| m.proven == Some(crate::Proven::Win));
            proved += usize::from(won);
            if report.proven == Some(crate::Proven::Win) {
                assert!(said.contains("a proven win"), "{said}");
                // And analysis agrees: after it, the opponent's position is proved lost.
                let action = report.best.unwrap();
                let judged = *judged.entry(action).or_insert_with(|| {
                    let mut after = pos.clone();
                    after.play(action).unwrap();
                    if after.is_over() {
                        // Won at once: the opponent has lost.
                        assert_eq!(after.winner(), pos.to_move());
                        return Some(crate::Proven::Loss);
                    }
                    Searcher::new(Limits {
                        level: Level::FULL,
                        budget: Budget::Playouts(200_000),
                        ..limits
                    })
                    .search(&after, &AtomicBool::new(false), |_| {})
                    .proven
                });
                assert_eq!(
                    judged,
                    Some(crate::Proven::Loss),
                    "level {n}: {action}{said}"
                );
            } else {
                assert!(
                    !said.contains("proven win"),
                    "level {n} seed {seed}: {said}"
                );
            }
            if n >= KEEPS_PROOFS && won {
                assert_eq!(played.proven, Some(crate::Proven::Win), "level {n}");
            }
        }
    }
    // The position is one the search proves won: the test is about that proof.
    assert!(proved > 0);
}
