//! The rules of the players', challenges' and games' changes, decided on facts alone.

use super::{Answer, Facts, Need, Write, decide, need};
use crate::ids::{ChallengeId, GameId, Millis, Moment, PlayerId, Seat};
use crate::size_class::SizeClass;
use crate::spec::TimeControl;
use crate::store::{Applied, Change, GameRow, RatingRow, Stale};
use quentin_record::game_end::{GameEnd, How};
use quentin_rules::{Action, Color, Game, Setup};

fn step(since: Option<Moment>, end: Option<GameEnd>, rated: bool) -> Change {
    let key = (Game::Quentin, SizeClass::of(11));
    Change::AddAction {
        game: GameId(4),
        index: 2,
        action: Some(Action::parse("c3").unwrap()),
        left: [Millis(1_000), Millis(2_000)],
        at: Moment(90),
        end,
        winner: end.map(|_| Seat::First),
        ratings: if rated {
            vec![
                (PlayerId(1), key, RatingRow::default()),
                (PlayerId(2), key, RatingRow::default()),
            ]
        } else {
            Vec::new()
        },
        since,
    }
}

#[test]
fn a_plain_step_writes_its_move_and_clocks_and_needs_nothing() {
    let change = step(None, None, false);
    assert_eq!(need(&change), Need::default());
    let decided = decide(&change, &Facts::default()).unwrap();
    assert_eq!(
        decided.writes,
        vec![
            Write::Move {
                game: GameId(4),
                index: 2,
                action: Action::parse("c3").unwrap(),
                at: Moment(90)
            },
            Write::Clocks {
                game: GameId(4),
                left: [Millis(1_000), Millis(2_000)],
                at: Moment(90)
            }
        ]
    );
    assert_eq!(decided.applied(None), Applied::Done);
}

#[test]
fn an_end_on_time_is_written_only_from_the_turn_the_store_holds() {
    let end = Some(GameEnd::Won {
        by: Color::Black,
        how: How::Time,
    });
    let change = step(Some(Moment(80)), end, false);
    assert_eq!(need(&change).turn, Some(GameId(4)));
    let held = Facts {
        turn: Some(Moment(80)),
        ..Facts::default()
    };
    let decided = decide(&change, &held).unwrap();
    assert!(
        decided
            .writes
            .iter()
            .any(|w| matches!(w, Write::End { .. }))
    );
    let moved_on = Facts {
        turn: Some(Moment(85)),
        ..Facts::default()
    };
    let stale = decide(&change, &moved_on).unwrap_err();
    assert_eq!(stale.downcast_ref::<Stale>().map(|s| s.0), Some(GameId(4)));
    assert!(
        decide(&change, &Facts::default()).is_err(),
        "never judged blind"
    );
}

#[test]
fn a_rated_end_rates_from_the_store_s_rows_not_the_hub_s() {
    let change = step(
        None,
        Some(GameEnd::Won {
            by: Color::Black,
            how: How::Time,
        }),
        true,
    );
    let key = (Game::Quentin, SizeClass::of(11));
    assert_eq!(
        need(&change).ratings,
        Some(([PlayerId(1), PlayerId(2)], key))
    );
    let strong = RatingRow {
        rating: 1900.0,
        ..RatingRow::default()
    };
    let stored = [strong, RatingRow::default()];
    let facts = Facts {
        ratings: Some(stored),
        ..Facts::default()
    };
    let decided = decide(&change, &facts).unwrap();
    let after = crate::rating::after_game(stored, Some(Seat::First));
    let Applied::Rated(rated) = decided.applied(None) else {
        panic!("a rated end answers with its ratings");
    };
    assert_eq!(
        rated,
        vec![(PlayerId(1), key, after[0]), (PlayerId(2), key, after[1])]
    );
    assert!(decide(&change, &Facts::default()).is_err());
}

#[test]
fn a_game_starts_and_a_challenge_closes_only_while_it_is_open() {
    let game = GameRow {
        id: GameId(7),
        setup: Setup::new(Game::Konobi),
        players: [PlayerId(1), PlayerId(2)],
        clock: TimeControl::Live {
            minutes: 5,
            increment: 0,
        },
        rated: false,
        left: [Millis(300_000); 2],
        turn_since: Moment(0),
        actions: Vec::new(),
        result: None,
        ended: None,
    };
    let start = Change::StartGame(game.clone());
    assert_eq!(need(&start).open, Some(ChallengeId(7)));
    let open = Facts {
        open: Some(true),
        ..Facts::default()
    };
    let closed = Facts {
        open: Some(false),
        ..Facts::default()
    };
    let started = decide(&start, &open).unwrap();
    assert_eq!(
        started.writes,
        vec![Write::Close(ChallengeId(7)), Write::Game(game)]
    );
    let taken = decide(&start, &closed).unwrap();
    assert_eq!(
        (taken.writes.len(), taken.answer),
        (0, Answer::Refused(Applied::Taken))
    );
    let close = Change::CloseChallenge(ChallengeId(7));
    assert_eq!(
        decide(&close, &open).unwrap().writes,
        vec![Write::Close(ChallengeId(7))]
    );
    assert_eq!(
        decide(&close, &closed).unwrap().applied(None),
        Applied::Taken
    );
}

#[test]
fn a_new_player_is_numbered_or_taken_by_the_write() {
    let add = Change::AddPlayer {
        key: "SHA256:x".into(),
        name: "ann".into(),
        at: Moment(1),
    };
    let decided = decide(&add, &Facts::default()).unwrap();
    assert_eq!(decided.clone().applied(Some(3)), Applied::Id(3));
    assert_eq!(decided.applied(None), Applied::Taken);
}

#[test]
fn a_course_level_solved_writes_its_stars_and_stars_not_1_to_3_are_refused() {
    let solved = |stars| crate::store::course::Solved {
        player: PlayerId(3),
        level: "quentin/1/2".to_string(),
        stars,
        at: Moment(7),
    };
    let change = Change::Course(solved(2));
    assert_eq!(need(&change), Need::default());
    let decided = decide(&change, &Facts::default()).unwrap();
    assert_eq!(decided.writes, vec![Write::Course(solved(2))]);
    assert_eq!(decided.answer, Answer::Done);
    for stars in [0, 4] {
        assert!(decide(&Change::Course(solved(stars)), &Facts::default()).is_err());
    }
}

#[test]
fn vacation_days_are_counted_and_more_than_are_left_are_refused() {
    let take = |days| crate::store::vacation::Take {
        player: PlayerId(3),
        year: 2026,
        days,
        allowance: 20,
        at: Moment(7),
        told: vec![(PlayerId(4), "alice takes 2 vacation days".to_string())],
    };
    let change = Change::Vacation(take(2));
    assert_eq!(
        need(&change),
        Need {
            vacation: Some((PlayerId(3), 2026)),
            ..Need::default()
        }
    );
    // Without its facts, not decided.
    assert!(decide(&change, &Facts::default()).is_err());
    let facts = |taken| Facts {
        vacation: Some(taken),
        ..Facts::default()
    };
    let decided = decide(&change, &facts(17)).unwrap();
    assert_eq!(
        decided.writes,
        vec![
            Write::Vacation {
                player: PlayerId(3),
                year: 2026,
                taken: 19
            },
            Write::Message {
                player: PlayerId(4),
                at: Moment(7),
                text: "alice takes 2 vacation days".to_string()
            }
        ]
    );
    // 19 taken of 20: two more are refused, as are none; nothing written.
    for (days, taken) in [(2, 19), (0, 0)] {
        let decided = decide(&Change::Vacation(take(days)), &facts(taken)).unwrap();
        assert!(decided.writes.is_empty());
        assert_eq!(decided.applied(None), Applied::Taken);
    }
    // Time given to a game: its clocks, its turn's start unchanged.
    let more = Change::MoreTime {
        game: GameId(5),
        left: [Millis(1), Millis(2)],
        since: Moment(9),
    };
    assert_eq!(
        decide(&more, &Facts::default()).unwrap().writes,
        vec![Write::Clocks {
            game: GameId(5),
            left: [Millis(1), Millis(2)],
            at: Moment(9)
        }]
    );
}

#[test]
fn a_players_runs_write_their_bests_and_need_no_facts() {
    let runs = crate::store::bests::Runs {
        player: PlayerId(3),
        runs: quentin_app::puzzle_rating::Bests {
            streak: 4,
            storm: 0,
        },
        puzzle: "quentin-0001".to_string(),
        block: "127.0.0.0".to_string(),
        at: Moment(7),
    };
    let change = Change::PuzzleBests(runs.clone());
    assert_eq!(need(&change), Need::default());
    let decided = decide(&change, &Facts::default()).unwrap();
    assert_eq!(decided.writes, vec![Write::PuzzleBests(runs)]);
    assert_eq!(decided.answer, Answer::Done);
}
