//! The levels: legal choices, weaker below, the same choice for the same seed.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::{Budget, Limits, Searcher};
use quentin_rules::{Game, Position, Setup};

/// Limits of a search at `level`, seeded; full strength gets `playouts`.
fn at_level(level: Level, playouts: u64, seed: u64) -> Limits {
    Limits {
        budget: Budget::Playouts(playouts),
        threads: 1,
        seed: Some(seed),
        nodes: 0,
        level,
    }
}

fn levels() -> impl Iterator<Item = Level> {
    (1..=10).filter_map(Level::new)
}

/// Positions of seeded random games of `game` on a board of side `size`, every `step` actions
/// from the start, while the game goes on.
fn positions(game: Game, size: usize, seed: u64, step: usize) -> Vec<Position> {
    let mut pos = Setup {
        size,
        ..Setup::new(game)
    }
    .start()
    .unwrap();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while !pos.is_over() {
        if pos.ply().is_multiple_of(step) {
            out.push(pos.clone());
        }
        let legal = pos.legal_actions();
        pos.play(legal[rng.below(legal.len())]).unwrap();
    }
    out
}

#[test]
fn levels_are_one_to_ten() {
    assert_eq!(Level::new(0), None);
    assert_eq!(Level::new(11), None);
    assert_eq!(levels().count(), 10);
    assert_eq!(Level::DEFAULT.get(), 5);
    assert!(Level::FULL.is_full() && !Level::new(9).unwrap().is_full());
    assert_eq!(Level::new(4).unwrap().to_string(), "level 4");
    // Fewer playouts below, none fixed at full strength.
    let playouts: Vec<Option<u64>> = levels().map(|l| l.playouts(13)).collect();
    assert!(
        playouts[..9].windows(2).all(|w| w[0] < w[1]),
        "{playouts:?}"
    );
    assert_eq!(playouts[9], None);
}

#[test]
fn a_level_s_playouts_scale_with_the_board_s_points() {
    let level = Level::new(9).unwrap();
    let on = |side| level.playouts(side).unwrap();
    assert_eq!(on(13), LARGE[8].playouts);
    assert_eq!(on(9), SMALL[8].playouts);
    // Beyond the two tables, the nearest one scaled by the points: 169 / 361 of 13×13's on
    // 19×19, 81 / 49 of 9×9's on 7×7, rounded.
    assert_eq!(
        on(19),
        (LARGE[8].playouts as f64 * 169.0 / 361.0).round() as u64
    );
    assert_eq!(
        on(7),
        (SMALL[8].playouts as f64 * 81.0 / 49.0).round() as u64
    );
    assert!(on(7) > on(9) && on(9) > on(11) && on(11) > on(13) && on(13) > on(15));
    // Never none, however large the board.
    assert!(levels().take(9).all(|l| l.playouts(1_000).unwrap() >= 1));
}

#[test]
fn each_size_has_its_schedule_and_the_boards_between_go_between() {
    let table = |side: usize| -> Vec<(u64, f64)> {
        levels()
            .take(9)
            .map(|l| (l.playouts(side).unwrap(), l.style(side).unwrap().loss))
            .collect()
    };
    let of = |styles: &[Style]| -> Vec<(u64, f64)> {
        styles.iter().map(|s| (s.playouts, s.loss)).collect()
    };
    // Exactly the 9×9 table on 9×9 (the schedule 9×9 was measured with, unchanged) and the
    // 13×13 table on 13×13.
    assert_eq!(table(9), of(&SMALL));
    assert_eq!(table(13), of(&LARGE));
    assert!(Level::FULL.style(13).is_none());
    // On every size the playouts grow and the loss shrinks with the level.
    for side in 5..=19 {
        let t = table(side);
        assert!(
            t.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 > w[1].1),
            "{side}×{side}: {t:?}"
        );
    }
    // 11×11, halfway, stands between the two tables (each scaled to its points) in playouts
    // and in loss: their geometric mean.
    for (k, level) in levels().take(9).enumerate() {
        let small = SMALL[k].playouts as f64 * 81.0 / 121.0;
        let large = LARGE[k].playouts as f64 * 169.0 / 121.0;
        let playouts = level.playouts(11).unwrap() as f64;
        assert!(
            playouts >= small.min(large).floor() && playouts <= small.max(large).ceil(),
            "{level}: {playouts}"
        );
        assert!((playouts - (small * large).sqrt()).abs() <= 0.5, "{level}");
        let loss = level.style(11).unwrap().loss;
        assert!(
            (loss - (SMALL[k].loss * LARGE[k].loss).sqrt()).abs() < 1e-12,
            "{level}"
        );
    }
}

#[test]
fn every_level_plays_only_legal_actions() {
    for (game, size) in [
        (Game::Quentin, 5),
        (Game::Konobi, 5),
        (Game::Brique, 5),
        (Game::Quint, 8),
    ] {
        for level in levels() {
            // The level plays both sides of a whole game (Quint: its first 40 actions).
            let mut searcher = Searcher::new(at_level(level, 500, u64::from(level.get())));
            let mut pos = Setup {
                size,
                pieces: if game == Game::Quint { 15 } else { 0 },
                ..Setup::new(game)
            }
            .start()
            .unwrap();
            while !pos.is_over() && pos.ply() < 40 {
                let report = searcher.search(&pos, &AtomicBool::new(false), |_| {});
                let action = report.best.unwrap();
                assert!(pos.is_legal(action), "{game} {level}: {action}");
                assert!(report.moves.iter().any(|m| m.action == action));
                pos.play(action).unwrap();
                searcher.advance(action);
            }
        }
    }
}

/// The empty board of Brique 7×7, where level 3 plays 1,207 playouts a move.
fn brique_7x7() -> Position {
    Setup {
        size: 7,
        ..Setup::new(Game::Brique)
    }
    .start()
    .unwrap()
}

#[test]
fn a_level_below_full_searches_its_own_playouts_on_one_thread() {
    let pos = brique_7x7();
    let level = Level::new(3).unwrap();
    let limits = Limits {
        budget: Budget::Seconds(3_600.0),
        threads: 2,
        ..at_level(level, 0, 1)
    };
    assert_eq!(limits.thread_count(), 1);
    let report = Searcher::new(limits).search(&pos, &AtomicBool::new(false), |_| {});
    assert_eq!(Some(report.playouts), level.playouts(pos.size()));
    // A playout budget below the level's is kept.
    let report =
        Searcher::new(at_level(level, 10, 1)).search(&pos, &AtomicBool::new(false), |_| {});
    assert_eq!(report.playouts, 10);
}

#[test]
fn a_level_adds_its_playouts_to_the_tree_kept_from_the_move_before() {
    let mut pos = brique_7x7();
    let level = Level::new(3).unwrap();
    let mut searcher = Searcher::new(Limits {
        budget: Budget::Seconds(3_600.0),
        ..at_level(level, 0, 1)
    });
    let first = searcher.search(&pos, &AtomicBool::new(false), |_| {});
    // The action the search looked at most (not the level's draw, which may be one it barely
    // tried): its subtree is kept, visits and all.
    let action = first.moves.iter().max_by_key(|m| m.visits).unwrap().action;
    searcher.advance(action);
    assert!(searcher.trees[0].visits(crate::tree::ROOT) > 1);
    pos.play(action).unwrap();
    // As full strength adds its think time's, the level adds its whole number, not what the
    // kept visits leave of it.
    let second = searcher.search(&pos, &AtomicBool::new(false), |_| {});
    assert_eq!(Some(second.playouts), level.playouts(pos.size()));
}

#[test]
fn the_same_seed_chooses_the_same_and_another_may_not() {
    let positions = positions(Game::Konobi, 7, 11, 6);
    let choices = |seed: u64| -> Vec<Option<Action>> {
        positions
            .iter()
            .map(|pos| {
                let mut searcher = Searcher::new(at_level(Level::new(2).unwrap(), 0, seed));
                searcher.search(pos, &AtomicBool::new(false), |_| {}).best
            })
            .collect()
    };
    let first = choices(1);
    assert_eq!(first, choices(1));
    assert_ne!(first, choices(2));
}

/// Positions of a game the full search plays against itself (`playouts` a move), every
/// second action.
fn self_play(game: Game, size: usize, playouts: u64, seed: u64) -> Vec<Position> {
    let mut pos = Setup {
        size,
        ..Setup::new(game)
    }
    .start()
    .unwrap();
    let mut searcher = Searcher::new(at_level(Level::FULL, playouts, seed));
    let mut out = Vec::new();
    while !pos.is_over() {
        if pos.ply() % 2 == 1 {
            out.push(pos.clone());
        }
        let action = searcher
            .search(&pos, &AtomicBool::new(false), |_| {})
            .best
            .unwrap();
        pos.play(action).unwrap();
        searcher.advance(action);
    }
    out
}

/// The fewest of the judge's playouts through an action for its share of wins to stand as the
/// action's worth; an action tried less is judged by a search of its own.
const JUDGED_VISITS: u64 = 2_000;

/// The mover's win chance after `action` at `pos`, as the judge sees it: its share of wins
/// from the judge's search of `pos` (`judge`) when proved or tried often; else one minus the
/// win chance of a search of 10,000 playouts after it. (An action that ends the game is proved
/// when the root is expanded, so the position after it goes on.)
fn judged_value(pos: &Position, judge: &Report, action: Action) -> f64 {
    let seen = judge.moves.iter().find(|m| m.action == action).unwrap();
    if seen.proven.is_some() || seen.visits >= JUDGED_VISITS {
        return seen.win;
    }
    let mut after = pos.clone();
    after.play(action).unwrap();
    assert!(!after.is_over(), "{action} ends the game unproved");
    let mut searcher = Searcher::new(at_level(Level::FULL, 10_000, 3));
    1.0 - searcher.search(&after, &AtomicBool::new(false), |_| {}).win
}

#[test]
fn a_lower_level_gives_more_away() {
    // The positions of six games, two of each connection game; each judged by a long search at
    // full strength, whose win chance of the action a level chose, against its best one's, is
    // what the level gave away. The judge's share of wins of an action it rarely tried is
    // rough (a prior that steers its playouts to a few actions leaves most with a handful),
    // so such an action gets a search of its own; and six games, not three, so that no one
    // position weighs much in the mean.
    let mut set = Vec::new();
    for (k, game) in [Game::Quentin, Game::Brique, Game::Konobi]
        .into_iter()
        .enumerate()
    {
        set.extend(self_play(game, 7, 2_000, k as u64 + 1));
        set.extend(self_play(game, 7, 2_000, k as u64 + 11));
    }
    let judged: Vec<(Position, Report)> = set
        .into_iter()
        .map(|pos| {
            let mut judge = Searcher::new(at_level(Level::FULL, 20_000, 5));
            let report = judge.search(&pos, &AtomicBool::new(false), |_| {});
            (pos, report)
        })
        .filter(|(_, r)| r.proven.is_none())
        .collect();
    assert!(judged.len() >= 12, "{} positions", judged.len());
    // The judge's value of each action chosen, kept: the levels often choose alike.
    let mut values: HashMap<(usize, Action), f64> = HashMap::new();
    let mut given_away = |level: Level| -> (f64, usize) {
        let mut loss = 0.0;
        let mut differ = 0;
        for (k, (pos, judge)) in judged.iter().enumerate() {
            let mut searcher = Searcher::new(at_level(level, 10_000, k as u64));
            let report = searcher.search(pos, &AtomicBool::new(false), |_| {});
            let chosen = report.best.unwrap();
            let best = judge.best.unwrap();
            let mut value = |a: Action| {
                *values
                    .entry((k, a))
                    .or_insert_with(|| judged_value(pos, judge, a))
            };
            loss += value(best) - value(chosen);
            differ += usize::from(chosen != best);
        }
        (loss / judged.len() as f64, differ)
    };
    let by_level: Vec<(f64, usize)> = [1, 4, 7, 10]
        .into_iter()
        .map(|n| given_away(Level::new(n).unwrap()))
        .collect();
    for pair in by_level.windows(2) {
        assert!(pair[0].0 > pair[1].0, "the loss: {by_level:?}");
        assert!(
            pair[0].1 >= pair[1].1,
            "the moves unlike the judge's: {by_level:?}"
        );
    }
}

/// A root action for the draw's tests: `visits` playouts, `win` of them won (a share).
fn root_action(col: usize, visits: u64, win: f64) -> MoveReport {
    let action = Action::Place(quentin_rules::Point::new(col, 0));
    MoveReport {
        action,
        visits,
        win,
        proven: None,
        calibration: crate::Calibration::IDENTITY,
        ends_in: None,
        pv: vec![action],
    }
}

#[test]
fn the_draw_gives_away_the_level_s_loss_and_never_trusts_a_lucky_few_playouts() {
    // The search's choice (9,000 playouts at 0.60), a close second, a poor third, and two
    // actions of a couple of playouts each, all won: by their shares the best of all, by what
    // the search thinks of them nothing much. (The loss draw before this one drew each of
    // those as often as the search's choice: full strength beat level 9 40 games to 0.)
    let moves = vec![
        root_action(0, 9_000, 0.60),
        root_action(1, 4_000, 0.57),
        root_action(2, 300, 0.40),
        root_action(3, 2, 1.0),
        root_action(4, 1, 1.0),
    ];
    let losses = losses(&moves);
    assert_eq!(losses[3], 0.0);
    let share = |weights: &[f64], i: usize| weights[i] / weights.iter().sum::<f64>();
    for loss in [0.002, 0.01, 0.03] {
        let weights = draw_weights(&standing(&moves), &losses, loss);
        let mean: f64 = (0..moves.len())
            .map(|i| share(&weights, i) * losses[i])
            .sum();
        assert!((mean - loss).abs() < 1e-6, "{loss}: {mean}");
        // Ranked as the search ranks them, whatever their shares say.
        assert!(weights.windows(2).all(|w| w[0] >= w[1]), "{weights:?}");
        assert!(weights[3] < weights[0] / 10.0, "{weights:?}");
    }
    // A level that may give away more than a random choice would plays at random.
    let weights = draw_weights(&standing(&moves), &losses, 0.5);
    assert!(weights.iter().all(|&w| w == 1.0));
    // A proved win stands with the most searched, a proved loss with the least.
    let mut proved = moves.clone();
    proved[2].proven = Some(Proven::Win);
    proved[1].proven = Some(Proven::Loss);
    let standing = standing(&proved);
    assert_eq!(standing[2], standing[0]);
    assert_eq!(standing[1], 0.0);
}

#[test]
fn from_level_4_to_9_the_shipped_book_s_winner_plays_the_book_s_move() {
    // Quentin 4×4 without the pie rule: Black wins (the shipped book); a1, a corner, loses.
    let start = Setup {
        size: 4,
        pie: false,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    let book = crate::book::shipped::shipped(Game::Quentin, 4, false).unwrap();
    let book_move = book.get(&start).unwrap();
    for n in [4, 7, 9] {
        let mut searcher = Searcher::new(at_level(Level::new(n).unwrap(), 50, 3));
        let report = searcher.search(&start, &AtomicBool::new(false), |_| {});
        assert_eq!(report.best, Some(book_move), "level {n}");
        assert_eq!(report.proven, Some(Proven::Win), "level {n}");
    }
    // Off the book's strategy (after a1 White wins, not the book's winner): no book move.
    let mut after = start.clone();
    after
        .play(Action::Place(quentin_rules::Point::parse("a1").unwrap()))
        .unwrap();
    assert!(crate::book::shipped::answer_for(&after, usize::MAX).is_none());
}
