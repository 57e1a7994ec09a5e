//! Reviews of lines whose marks are known, with playout budgets and seeds (never timings).

use std::sync::atomic::AtomicBool;

use super::*;
use crate::players::wins_at_once;
use crate::rng::Rng;
use crate::{Budget, Level};
use quentin_rules::{Game, Setup};

fn limits(playouts: u64, seed: u64) -> Limits {
    Limits {
        budget: Budget::Playouts(playouts),
        threads: 1,
        seed: Some(seed),
        nodes: 0,
        level: Level::FULL,
    }
}

fn reviewed(start: &Position, actions: &[Action], playouts: u64, seed: u64) -> Review {
    review(
        start,
        actions,
        limits(playouts, seed),
        &AtomicBool::new(false),
        |_| {},
    )
    .unwrap()
}

/// A line of a random game of `setup` (seeded) in which the mover, able to win at once, plays
/// something else that lets the opponent win at once, which the opponent does: the start and
/// the actions, the last but one being the blunder.
fn thrown_away_win(setup: Setup, seed: u64) -> (Position, Vec<Action>) {
    let start = setup.start().unwrap();
    let mut rng = Rng::new(seed);
    loop {
        let mut pos = start.clone();
        let mut line = Vec::new();
        while !pos.is_over() {
            let legal = pos.legal_actions();
            if legal.iter().any(|&a| wins_at_once(&pos, a)) {
                // A non-winning action after which the opponent wins at once.
                let throw = legal.iter().find_map(|&a| {
                    let mut after = pos.clone();
                    after.play(a).unwrap();
                    let win = (!after.is_over())
                        .then(|| {
                            after
                                .legal_actions()
                                .into_iter()
                                .find(|&b| wins_at_once(&after, b))
                        })
                        .flatten();
                    win.map(|b| (a, b))
                });
                if let Some((a, b)) = throw {
                    line.extend([a, b]);
                    return (start, line);
                }
            }
            let a = legal[rng.below(legal.len())];
            pos.play(a).unwrap();
            line.push(a);
        }
    }
}

#[test]
fn throwing_away_an_immediate_win_is_a_blunder_and_the_win_is_named_best() {
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let setup = Setup {
            size: 5,
            pie: false,
            ..Setup::new(game)
        };
        let (start, line) = thrown_away_win(setup, 3);
        let review = reviewed(&start, &line, 400, 1);
        assert_eq!(review.actions.len(), line.len());
        let n = line.len();
        let blunder = &review.actions[n - 2];
        assert_eq!(blunder.index, n - 1);
        assert_eq!(blunder.action, line[n - 2]);
        assert_eq!(blunder.mark, Some(Mark::Blunder), "{game}: {blunder:?}");
        assert_eq!(blunder.win_before, Some(1.0), "{game}");
        assert_eq!(blunder.best_win, Some(1.0), "{game}");
        assert_eq!(blunder.win_after, Some(0.0), "{game}");
        assert_eq!(blunder.loss(), Some(1.0));
        let mut before = start.clone();
        for &a in &line[..n - 2] {
            before.play(a).unwrap();
        }
        assert!(wins_at_once(&before, blunder.best.unwrap()), "{game}");
        // The winner's last action is its best, and ends the game won.
        let last = &review.actions[n - 1];
        assert_eq!((last.win_before, last.win_after), (Some(1.0), Some(1.0)));
        assert_eq!(last.mark, None);
        assert!(wins_at_once(
            &{
                before.play(line[n - 2]).unwrap();
                before
            },
            last.action
        ));
        let loser = usize::from(blunder.player - 1);
        assert!(review.summary[loser].blunders >= 1);
        assert_eq!(
            review.summary[0].actions + review.summary[1].actions,
            n,
            "{game}"
        );
        let black_end = review.black_chances().last().copied().unwrap();
        let winner_is_black = last.colour == Color::Black;
        assert_eq!(black_end, (n, if winner_is_black { 1.0 } else { 0.0 }));
    }
}

#[test]
fn the_same_line_gives_the_same_review_with_a_seed() {
    let setup = Setup {
        size: 5,
        ..Setup::new(Game::Quentin)
    };
    let (start, line) = thrown_away_win(setup, 11);
    let first = reviewed(&start, &line, 300, 4);
    let again = reviewed(&start, &line, 300, 4);
    assert_eq!(first, again);
    let mut progress = Vec::new();
    review(
        &start,
        &line,
        limits(300, 4),
        &AtomicBool::new(false),
        |p| {
            progress.push(p);
        },
    )
    .unwrap();
    assert_eq!(progress.len(), line.len() + 1);
    assert_eq!(
        progress.last(),
        Some(&Progress {
            done: line.len(),
            total: line.len()
        })
    );
}

#[test]
fn players_follow_the_swap_and_the_chances_are_the_movers() {
    // Black c3, White swaps (player 2 becomes Black), White (player 1) b2, Black (player 2) e5.
    let setup = Setup {
        size: 5,
        ..Setup::new(Game::Quentin)
    };
    let start = setup.start().unwrap();
    let line: Vec<Action> = ["c3", "swap", "b2", "e5"]
        .iter()
        .map(|a| Action::parse(a).unwrap())
        .collect();
    let review = reviewed(&start, &line, 3000, 2);
    let who: Vec<(u8, Color)> = review
        .actions
        .iter()
        .map(|a| (a.player, a.colour))
        .collect();
    assert_eq!(
        who,
        [
            (1, Color::Black),
            (2, Color::White),
            (1, Color::White),
            (2, Color::Black)
        ]
    );
    // The chance after an action is one minus the next mover's chance before theirs.
    for pair in review.actions.windows(2) {
        let after = pair[0].win_after.unwrap();
        let next = pair[1].win_before.unwrap();
        assert!((after + next - 1.0).abs() < 1e-12, "{pair:?}");
    }
    // After the swap, its mover is Black.
    let swap = &review.actions[1];
    assert_eq!(swap.black_after(), swap.win_after);
    assert_eq!(review.summary[0].actions, 2);
    assert_eq!(review.summary[1].actions, 2);
}

#[test]
fn marks_by_the_loss_and_jumps_between_them() {
    assert_eq!(Mark::of_loss(0.09), None);
    assert_eq!(Mark::of_loss(0.10), Some(Mark::Inaccuracy));
    assert_eq!(Mark::of_loss(0.2), Some(Mark::Mistake));
    assert_eq!(Mark::of_loss(0.3), Some(Mark::Blunder));
    assert_eq!(Mark::of_loss(1.0), Some(Mark::Blunder));
    let one = |index, mark| ActionReview {
        index,
        player: 1,
        colour: Color::Black,
        action: Action::Pass,
        win_before: None,
        win_after: None,
        best: None,
        best_win: None,
        mark,
    };
    let review = Review {
        actions: vec![
            one(1, None),
            one(2, Some(Mark::Mistake)),
            one(3, None),
            one(4, Some(Mark::Blunder)),
        ],
        summary: Default::default(),
        black_at_start: None,
    };
    assert_eq!(review.next_mark(0), Some(2));
    assert_eq!(review.next_mark(2), Some(4));
    assert_eq!(review.next_mark(4), None);
    assert_eq!(review.previous_mark(4), Some(2));
    assert_eq!(review.previous_mark(2), None);
}

#[test]
fn an_illegal_line_and_a_stop_are_told() {
    let start = Setup {
        size: 5,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    let c3 = Action::parse("c3").unwrap();
    let err = review(
        &start,
        &[c3, c3],
        limits(10, 1),
        &AtomicBool::new(false),
        |_| {},
    );
    assert!(matches!(err, Err(Unreviewed::Illegal(2, _))), "{err:?}");
    let err = review(&start, &[c3], limits(10, 1), &AtomicBool::new(true), |_| {});
    assert_eq!(err, Err(Unreviewed::Stopped));
}

#[test]
fn weighing_the_reports_of_part_of_a_line_weighs_that_part() {
    let setup = Setup {
        size: 5,
        pie: false,
        ..Setup::new(Game::Quentin)
    };
    let (start, line) = thrown_away_win(setup, 3);
    let whole = reviewed(&start, &line, 400, 1);
    // The searches one by one, as a front end that runs them itself does.
    let mut searcher = Searcher::new(limits(400, 1));
    let mut position = start.clone();
    let mut reports = Vec::new();
    for &a in &line {
        reports.push(searcher.search(&position, &AtomicBool::new(false), |_| {}));
        position.play(a).unwrap();
        searcher.advance(a);
    }
    assert_eq!(weigh(&start, &line, &reports).unwrap(), whole);
    let part = weigh(&start, &line, &reports[..3]).unwrap();
    assert_eq!(part.actions.len(), 3);
    assert_eq!(part.actions[..2], whole.actions[..2]);
    // The third action's chance after needs the fourth position's report.
    assert_eq!(part.actions[2].win_after, None);
}
