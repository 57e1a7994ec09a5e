use super::*;
use quentin_rules::{Game, Setup};

/// Quentin 5×5 without the pie rule.
fn start() -> Position {
    Setup {
        size: 5,
        pie: false,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap()
}

fn actions(text: &str) -> Vec<Action> {
    text.split_whitespace()
        .map(|t| Action::parse(t).unwrap())
        .collect()
}

/// Whether two lines hold the same actions, shown alike, and the same positions.
fn same(a: &GameLine, b: &GameLine) -> bool {
    a.actions() == b.actions()
        && a.shown() == b.shown()
        && (0..=a.actions().len()).all(|n| same_position(a.position_at(n), b.position_at(n)))
}

fn same_position(a: &Position, b: &Position) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// White's b2 after these leaves Black no legal placement: Black must pass.
const BEFORE_PASS: &str = "e2 c1 d5 a3 d1 c5 c3 d3 a4 e4 c2 a5 a1";

#[test]
fn a_replay_keeps_every_position_each_action_played_once_from_the_one_before() {
    let line = GameLine::replay(start(), &actions("c3 b2 c4")).unwrap();
    assert_eq!(line.shown(), 3);
    assert_eq!(line.actions(), actions("c3 b2 c4"));
    assert_eq!(line.played(), line.actions());
    let mut by_hand = start();
    assert!(same_position(line.start(), &by_hand));
    for (n, action) in actions("c3 b2 c4").into_iter().enumerate() {
        assert!(same_position(line.position_at(n), &by_hand));
        by_hand.play(action).unwrap();
    }
    assert!(same_position(line.position(), &by_hand));
    assert!(same_position(line.last(), &by_hand));
    // Past the end: the last position.
    assert!(same_position(line.position_at(99), &by_hand));
    assert_eq!(line.last_played(), Some(Action::parse("c4").unwrap()));
}

#[test]
fn playing_out_ends_where_the_replay_ends_and_names_the_illegal_action() {
    let line = GameLine::replay(start(), &actions("c3 b2 c4")).unwrap();
    let end = GameLine::play_out(start(), &actions("c3 b2 c4")).unwrap();
    assert!(same_position(&end, line.last()));
    let (index, reason) = GameLine::play_out(start(), &actions("c3 c3 c4")).unwrap_err();
    assert_eq!(index, 1);
    let stopped = GameLine::replay(start(), &actions("c3 c3 c4")).unwrap_err();
    assert_eq!(reason, stopped.reason);
}

#[test]
fn a_replay_stops_at_an_illegal_action_with_the_line_before_it() {
    let stopped = GameLine::replay(start(), &actions("c3 c3 c4")).unwrap_err();
    assert_eq!(stopped.index, 1);
    assert_eq!(stopped.action, Action::parse("c3").unwrap());
    assert_eq!(stopped.line.actions(), actions("c3"));
    assert_eq!(stopped.line.shown(), 1);
    let mut lone = start();
    lone.play(stopped.action).unwrap();
    assert_eq!(lone.play(stopped.action), Err(stopped.reason.clone()));
}

#[test]
fn a_new_action_cuts_the_undone_ones_off_and_an_illegal_one_changes_nothing() {
    let mut line = GameLine::replay(start(), &actions("c3 b2 c4")).unwrap();
    assert_eq!(line.undo(), actions("c4"));
    assert_eq!(line.undo(), actions("b2"));
    assert_eq!(line.shown(), 1);
    assert_eq!(line.actions().len(), 3, "undone actions stay to be redone");
    let before = line.clone();
    assert!(line.play(Action::parse("c3").unwrap()).is_err());
    assert!(same(&line, &before));
    line.play(Action::parse("a1").unwrap()).unwrap();
    assert_eq!(line.actions(), actions("c3 a1"));
    assert_eq!(line.shown(), 2);
    assert_eq!(line.redo(), Vec::new(), "nothing left to redo");
}

#[test]
fn undo_and_redo_take_a_forced_pass_with_the_action_that_forced_it() {
    let mut line = GameLine::replay(start(), &actions(BEFORE_PASS)).unwrap();
    line.play(Action::parse("b2").unwrap()).unwrap();
    assert_eq!(line.position().legal_actions(), [Action::Pass]);
    line.play(Action::Pass).unwrap();
    assert!(line.is_pass(15));
    assert!(!line.is_pass(14));
    assert_eq!(line.undo(), actions("b2 pass"));
    assert_eq!(line.shown(), 13);
    assert_eq!(line.redo(), actions("b2 pass"));
    assert_eq!(line.shown(), 15);
    line.go_to(0);
    assert_eq!(line.undo(), Vec::new(), "nothing to undo at the start");
    assert!(same_position(line.position(), line.start()));
    line.go_to(99);
    assert_eq!(line.shown(), 15);
}

#[test]
fn cutting_drops_what_follows_the_shown_position() {
    let mut line = GameLine::replay(start(), &actions("c3 b2 c4")).unwrap();
    line.go_to(1);
    line.cut();
    assert_eq!(line.actions(), actions("c3"));
    assert!(same_position(line.last(), line.position()));
}

#[test]
fn catching_up_keeps_the_common_actions_drops_the_taken_back_and_plays_the_new() {
    let mut line = GameLine::replay(start(), &actions("c3 b2")).unwrap();
    // The same line: nothing changes, not even the shown position.
    line.go_to(1);
    assert_eq!(line.catch_up(&actions("c3 b2")), Ok(None));
    assert_eq!(line.shown(), 1);
    // The server has more.
    assert_eq!(
        line.catch_up(&actions("c3 b2 c4 a5")),
        Ok(Some(CaughtUp {
            kept: 2,
            dropped: 0,
            added: 2
        }))
    );
    assert_eq!(line.played(), actions("c3 b2 c4 a5"));
    assert!(same(
        &line,
        &GameLine::replay(start(), &actions("c3 b2 c4 a5")).unwrap()
    ));
    // A takeback.
    assert_eq!(
        line.catch_up(&actions("c3 b2 c4")),
        Ok(Some(CaughtUp {
            kept: 3,
            dropped: 1,
            added: 0
        }))
    );
    assert!(same(
        &line,
        &GameLine::replay(start(), &actions("c3 b2 c4")).unwrap()
    ));
    // Another line after a common start.
    assert_eq!(
        line.catch_up(&actions("c3 e5")),
        Ok(Some(CaughtUp {
            kept: 1,
            dropped: 2,
            added: 1
        }))
    );
    assert!(same(
        &line,
        &GameLine::replay(start(), &actions("c3 e5")).unwrap()
    ));
}

#[test]
fn catching_up_with_an_illegal_action_ends_the_line_before_it() {
    let mut line = GameLine::new(start());
    assert!(line.catch_up(&actions("c3 c3 c4")).is_err());
    assert_eq!(line.played(), actions("c3"));
}

#[test]
fn a_takeback_asked_on_ones_turn_takes_back_ones_move_and_the_reply() {
    // alice (seat 0) e5, bob c3, alice e4, bob c4: alice to move.
    let line = actions("e5 c3 e4 c4");
    assert_eq!(
        takeback_len(&start(), &line, 0),
        2,
        "alice's e4 and bob's c4"
    );
    assert_eq!(takeback_len(&start(), &line, 1), 1, "bob's c4 alone");
    // Just after alice's move: her move alone; bob takes back his c3 and her e4 after it.
    let line = actions("e5 c3 e4");
    assert_eq!(takeback_len(&start(), &line, 0), 1);
    assert_eq!(takeback_len(&start(), &line, 1), 2);
    // Nothing to take back for a seat that has not moved.
    assert_eq!(takeback_len(&start(), &actions("e5"), 1), 0);
    assert_eq!(takeback_len(&start(), &[], 0), 0);
}

#[test]
fn the_swap_is_the_second_players_action_and_the_seats_keep_their_turns() {
    let start = Setup {
        size: 5,
        pie: true,
        ..Setup::new(Game::Quentin)
    }
    .start()
    .unwrap();
    let line = actions("c3 swap");
    assert_eq!(takeback_len(&start, &line, 1), 1, "the swap");
    assert_eq!(
        takeback_len(&start, &line, 0),
        2,
        "c3 and the swap after it"
    );
    let mut after = start.clone();
    for action in &line {
        after.play(*action).unwrap();
    }
    // After the swap, the first player still moves: now with the colour the second had.
    let color = after.to_move().unwrap();
    assert_eq!(seat_of(&after, color), 0);
}
