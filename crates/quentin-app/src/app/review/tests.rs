//! State-machine tests of the review in the app, with a scripted engine behind the handle.

use std::sync::{Arc, Mutex};

use crate::input::{Event, KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::app::computer::tests::{answer, carry_out, report, tick};
use crate::app::{Look, Versus};
use crate::record::Record;
use crate::search::review::Mark;
use crate::search_handle::SearchHandle;
use crate::search_handle::fake::{Fake, Script};

/// Presses the character `c`, the orders it gave carried out as the run loop does.
fn press(app: &mut App, script: &Arc<Mutex<Script>>, c: char) -> Effect {
    let event = Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let effect = app.handle(&event);
    let mut search: Box<dyn SearchHandle> = Box::new(Fake(Arc::clone(script)));
    let asked = std::mem::take(&mut app.outbox);
    let _ = carry_out(search.as_mut(), asked);
    effect
}

fn replay_of(text: &str) -> (App, Arc<Mutex<Script>>) {
    let record = Record::parse(text).unwrap();
    let mut app = App::replay(&record, usize::MAX, Look::FULL);
    app.set_computer(Versus::PEOPLE);
    (app, Arc::new(Mutex::new(Script::default())))
}

#[test]
fn a_review_searches_each_position_in_the_background_and_marks_the_blunder() {
    // Black c3 (the search's choice), White a1 where d4 was better, Black b3.
    let (mut app, script) = replay_of("game quentin\nsize 5\npie off\nc3 a1 b3\n");
    assert_eq!(press(&mut app, &script, 'm'), Effect::None);
    assert!(app.message().unwrap().text.contains("No review yet"));
    let _ = press(&mut app, &script, 'v');
    assert_eq!(app.review_progress(), Some((0, 3)));
    // Each position before an action, one search each, at the review's budget, whatever the
    // shown position: the player steps back meanwhile.
    let _ = tick(&mut app, &script);
    let _ = press(&mut app, &script, 'h');
    assert_eq!(app.current(), 2);
    let chances = [("c3", 0.6), ("d4", 0.45), ("b3", 0.9)];
    for (k, (best, win)) in chances.into_iter().enumerate() {
        {
            let s = script.lock().unwrap();
            assert_eq!(s.started.last(), Some(&(k, GameReview::BUDGET)), "{k}");
            assert_eq!(s.started.len(), k + 1);
        }
        assert_eq!(app.review_progress(), Some((k, 3)));
        assert!(
            app.thinking().is_none(),
            "the review is not the computer's move"
        );
        answer(&script, report(best, win, 1000, 10, &[]), true);
        let _ = tick(&mut app, &script);
    }
    assert_eq!(app.review_progress(), None);
    let review = app.game_review().unwrap();
    let marks: Vec<Option<Mark>> = review.actions.iter().map(|a| a.mark).collect();
    // a1 left Black 90 % where White had 45 %: 35 points lost.
    assert_eq!(marks, [None, Some(Mark::Blunder), None]);
    assert!(
        app.message()
            .unwrap()
            .text
            .starts_with("Review done: 1 marked action;")
    );
    assert_eq!(app.mark_of(1), Some(Mark::Blunder));
    assert_eq!(app.mark_of(0), None);
    // The shown position (after 2 actions) is before b3: its best is b3.
    assert_eq!(
        app.reviewed_here().unwrap().best,
        Some(Action::parse("b3").unwrap())
    );
    // M goes back to the position before the blunder, m finds none after it.
    let _ = press(&mut app, &script, 'M');
    assert_eq!(app.current(), 1);
    assert_eq!(
        app.message().unwrap().text,
        "Action 2, a1: blunder; better d4. w steps through why."
    );
    assert_eq!(
        app.reviewed_here().unwrap().best,
        Some(Action::parse("d4").unwrap())
    );
    let _ = press(&mut app, &script, 'm');
    assert_eq!(app.current(), 1);
    assert_eq!(
        app.message().unwrap().text,
        "No marked action after this one."
    );
    // No more searches once done; v again says so.
    let _ = tick(&mut app, &script);
    assert_eq!(script.lock().unwrap().started.len(), 3);
    let _ = press(&mut app, &script, 'v');
    assert!(app.message().unwrap().text.contains("reviewed already"));
    // Playing on drops the review.
    let _ = press(&mut app, &script, 'p');
    assert!(app.game_review().is_none() && app.mark_of(1).is_none());
}

#[test]
fn a_game_is_reviewed_once_over_and_a_stopped_review_says_so() {
    let (mut app, script) = replay_of("game quentin\nsize 3\npie off\nb2 a1 b1 c1 b3\n");
    app.mode = Mode::Play;
    app.go_to(4);
    let _ = press(&mut app, &script, 'v');
    assert!(app.message().unwrap().text.contains("once it is over"));
    assert!(app.review_progress().is_none());
    app.go_to(5);
    let _ = press(&mut app, &script, 'v');
    // The finished game is looked over as a replay while it is reviewed.
    assert_eq!(app.mode(), Mode::Replay);
    assert_eq!(app.review_progress(), Some((0, 5)));
    let _ = tick(&mut app, &script);
    // A search that ends without a report (stopped) ends the review.
    script.lock().unwrap().done = true;
    let _ = tick(&mut app, &script);
    assert!(app.review_progress().is_none() && app.game_review().is_none());
    assert_eq!(app.message().unwrap().text, "The review was stopped.");
}

#[test]
fn w_steps_through_a_marked_action_s_refutation_and_goes_back_as_it_was() {
    let (mut app, script) = replay_of("game quentin\nsize 5\npie off\nc3 a1 b3\n");
    let _ = press(&mut app, &script, 'w');
    assert!(app.message().unwrap().text.contains("v reviews it"));
    let _ = press(&mut app, &script, 'v');
    let _ = tick(&mut app, &script);
    // White had a win proved before a1 (d4, the game over in 3 actions: 2 of White's);
    // after a1 the search's line is b3 d4 b2.
    let mut thrown = report("d4", 1.0, 1000, 10, &[]);
    thrown.proven = Some(Proven::Win);
    thrown.moves[0].proven = Some(Proven::Win);
    thrown.moves[0].ends_in = Some(3);
    let mut after = report("b3", 0.9, 1000, 10, &[]);
    after.moves[0].pv = ["b3", "d4", "b2"]
        .map(|a| Action::parse(a).unwrap())
        .to_vec();
    for r in [report("c3", 0.6, 1000, 10, &[]), thrown, after] {
        answer(&script, r, true);
        let _ = tick(&mut app, &script);
    }
    assert!(app.game_review().is_some());
    let _ = press(&mut app, &script, 'M');
    assert_eq!(app.current(), 1);
    let said = app.message().unwrap().text.clone();
    assert!(
        said.contains("White had a proven win: d4 wins in 2. w steps through why."),
        "{said}"
    );
    let why = app.why_here().unwrap();
    assert_eq!(
        why.line,
        ["b3", "d4", "b2"].map(|a| Action::parse(a).unwrap())
    );
    // w: the marked action, then its refutation, one step at a time.
    let _ = press(&mut app, &script, 'w');
    assert!(app.variation().unwrap().starts_with("Why a1 loses"));
    assert_eq!((app.current(), app.actions().len()), (1, 5));
    let _ = press(&mut app, &script, 'l');
    assert_eq!(app.current(), 2);
    assert!(app.message().unwrap().text.contains("1 of 4: a1"));
    let _ = press(&mut app, &script, 'h');
    let _ = press(&mut app, &script, 'h');
    assert_eq!(app.current(), 1, "no further back than the line's start");
    let _ = press(&mut app, &script, 'G');
    assert_eq!(app.current(), 5);
    // w again: the game as it was, at the same place.
    let _ = press(&mut app, &script, 'w');
    assert!(app.variation().is_none());
    assert_eq!(app.actions().len(), 3);
    assert_eq!((app.current(), app.mode()), (1, Mode::Replay));
    // Another key goes back first, then acts: m finds no mark after this one.
    let _ = press(&mut app, &script, 'w');
    let _ = press(&mut app, &script, 'm');
    assert!(app.variation().is_none());
    assert_eq!(app.actions().len(), 3);
    assert_eq!(
        app.message().unwrap().text,
        "No marked action after this one."
    );
}
