//! The stores' part of the ways of taking the puzzles (issue 60): the next puzzle of a theme,
//! of the player's failed ones, the visit's puzzles left out; each player's best Streak and
//! Storm, raised and never lowered. On SQLite and PostgreSQL alike.

use super::*;
use crate::store::bests::Runs;
use crate::store::puzzles::{Attempt, Pool, PuzzleFound, PuzzleQuery, PuzzleRow};
use quentin_app::puzzle_rating::Bests;
use quentin_rules::Game;

#[test]
fn the_next_puzzle_keeps_to_a_theme_the_failed_ones_and_leaves_the_visits_out() {
    each_store("puzzle_ways", next_case);
}

fn row(id: &str, themes: &str, rating: f64) -> PuzzleRow {
    PuzzleRow {
        id: id.to_string(),
        game: Game::Quentin,
        line: format!("{id}; size 5; pie off; goal win; depth 1; themes {themes}; setup a1"),
        rating: RatingRow {
            rating,
            deviation: 200.0,
            ..RatingRow::default()
        },
    }
}

fn next_case(store: &mut Either) {
    let rows = vec![
        row("q-1", "win1 fill", 1000.0),
        row("q-2", "defend threat1", 1100.0),
        row("q-3", "win2", 1500.0),
    ];
    let outcome = store
        .commit(&[&Change::AddPuzzles(rows)])
        .unwrap()
        .remove(0);
    assert_eq!(outcome.unwrap(), Applied::Done);
    let next = |store: &mut Either, theme: Option<&str>, pool, skip: &[&str]| {
        let query = PuzzleQuery::Next {
            player: PlayerId(1),
            game: None,
            target: Some(1000.0),
            theme: theme.map(str::to_string),
            pool,
            skip: skip.iter().map(|s| (*s).to_string()).collect(),
        };
        match store.puzzles(&query).unwrap() {
            PuzzleFound::Puzzle(found) => found.map(|p| p.id),
            other => panic!("{other:?}"),
        }
    };
    let id = |s: &str| Some(s.to_string());
    assert_eq!(next(store, None, Pool::Untried, &[]), id("q-1"));
    assert_eq!(next(store, None, Pool::Untried, &["q-1"]), id("q-2"));
    assert_eq!(next(store, Some("defend"), Pool::Untried, &[]), id("q-2"));
    // `threat1` is a theme; `threat` and `win` are not, nor is a word of the setup.
    assert_eq!(next(store, Some("threat1"), Pool::Untried, &[]), id("q-2"));
    for none in ["threat", "win", "a1"] {
        assert_eq!(next(store, Some(none), Pool::Untried, &[]), None, "{none}");
    }
    assert_eq!(next(store, Some("fill"), Pool::Untried, &["q-1"]), None);
    // Nothing failed yet; then q-3 failed: the only one again, and no longer untried.
    assert_eq!(next(store, None, Pool::Failed, &[]), None);
    let attempt = |puzzle: &str, solved| {
        Change::Attempt(Attempt {
            player: PlayerId(1),
            block: "-".to_string(),
            puzzle: puzzle.to_string(),
            solved,
            at: Moment(5),
        })
    };
    for change in [attempt("q-3", false), attempt("q-1", true)] {
        assert!(store.commit(&[&change]).unwrap().remove(0).is_ok());
    }
    assert_eq!(next(store, None, Pool::Failed, &[]), id("q-3"));
    assert_eq!(next(store, Some("win1"), Pool::Failed, &[]), None);
    assert_eq!(next(store, None, Pool::Untried, &[]), id("q-2"));
}

#[test]
fn a_players_best_streak_and_storm_are_raised_never_lowered() {
    each_store("puzzle_bests", bests_case);
}

fn bests_case(store: &mut Either) {
    let bests = |store: &mut Either, player| match store
        .puzzles(&PuzzleQuery::Bests(PlayerId(player)))
        .unwrap()
    {
        PuzzleFound::Bests(bests) => bests,
        other => panic!("{other:?}"),
    };
    assert_eq!(bests(store, 1), Bests::default());
    let runs = |player, streak, storm| {
        Change::PuzzleBests(Runs {
            player: PlayerId(player),
            runs: Bests { streak, storm },
            puzzle: "q-1".to_string(),
            block: "-".to_string(),
            at: Moment(9),
        })
    };
    for change in [runs(1, 3, 0), runs(1, 1, 5), runs(1, 2, 4), runs(2, 0, 1)] {
        let outcome = store.commit(&[&change]).unwrap().remove(0);
        assert_eq!(outcome.unwrap(), Applied::Done);
    }
    assert_eq!(
        bests(store, 1),
        Bests {
            streak: 3,
            storm: 5
        }
    );
    assert_eq!(
        bests(store, 2),
        Bests {
            streak: 0,
            storm: 1
        }
    );
}
