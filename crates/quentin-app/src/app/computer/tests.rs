//! State-machine tests of the computer in the app, with a scripted engine behind the handle.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::*;
use crate::app::tests::effect_of;
use crate::app::{Input, Look};
use crate::record::Record;
use crate::rules::{Game, Setup};
use crate::search::Calibration;
use crate::search::{Budget, MoveReport, Report};
use crate::search_handle::SearchHandle;
use crate::search_handle::fake::{Fake, Script};

/// A game of Quentin on `size`×`size` against the computer playing `computer`, thinking 2 s
/// a move, with a scripted engine; returns the app and the script.
pub(crate) fn versus(size: usize, pie: bool, computer: [bool; 2]) -> (App, Arc<Mutex<Script>>) {
    versus_with(Look::FULL, size, pie, computer)
}

/// [`versus`], drawn with `look`.
pub(crate) fn versus_with(
    look: Look,
    size: usize,
    pie: bool,
    computer: [bool; 2],
) -> (App, Arc<Mutex<Script>>) {
    let setup = Setup {
        size,
        pie,
        ..Setup::new(Game::Quentin)
    };
    let mut app = App::new(setup, look).unwrap();
    app.set_computer(Versus {
        computer,
        think: 2.0,
        level: Level::new(4).unwrap(),
    });
    (app, Arc::new(Mutex::new(Script::default())))
}

/// What the run loop does around a tick, with the scripted search behind it: tells the app the
/// search's news, ticks it, and carries out the orders it gave.
pub(crate) fn tick(app: &mut App, script: &Arc<Mutex<Script>>) -> Effect {
    let mut search: Box<dyn SearchHandle> = Box::new(Fake(Arc::clone(script)));
    let effects = app.step(Input::Search(search.news()));
    carry_out(search.as_mut(), effects)
}

/// Carries out the search's orders among `effects` with `search`, as the front end does; the
/// last of the others (`Effect::None` when there is none).
pub(crate) fn carry_out(search: &mut dyn SearchHandle, effects: Vec<Effect>) -> Effect {
    let mut last = Effect::None;
    for effect in effects {
        match effect {
            Effect::Search(order) => search.obey(vec![order]),
            other => last = other,
        }
    }
    last
}

/// Presses each key of `keys` as [`effect_of`] does, the orders each key gave carried out after
/// it as the run loop does; returns the last effect.
pub(crate) fn keys(app: &mut App, script: &Arc<Mutex<Script>>, keys: &str) -> Effect {
    let mut search: Box<dyn SearchHandle> = Box::new(Fake(Arc::clone(script)));
    let mut effect = Effect::None;
    for key in keys.chars() {
        effect = effect_of(app, &key.to_string());
        let asked = std::mem::take(&mut app.outbox);
        let _ = carry_out(search.as_mut(), asked);
    }
    effect
}

/// [`keys`], the effect ignored.
pub(crate) fn press_with(app: &mut App, script: &Arc<Mutex<Script>>, keys_: &str) {
    let _ = keys(app, script, keys_);
}

fn a(name: &str) -> Action {
    Action::parse(name).unwrap()
}

/// A report that `best` wins `win` for the side to move, after `playouts` playouts in
/// `millis` milliseconds, with `best` and `others` as its candidates.
pub(crate) fn report(best: &str, win: f64, playouts: u64, millis: u64, others: &[&str]) -> Report {
    let moves = std::iter::once(best)
        .chain(others.iter().copied())
        .enumerate()
        .map(|(i, m)| MoveReport {
            action: a(m),
            visits: playouts / (2 + i as u64 * 3),
            win: win - 0.05 * i as f64,
            proven: None,
            calibration: Calibration::IDENTITY,
            ends_in: None,
            pv: vec![a(m), a("a1"), a("b2")],
        })
        .collect();
    Report {
        to_move: None,
        best: Some(a(best)),
        win,
        proven: None,
        calibration: Calibration::IDENTITY,
        playouts,
        elapsed: Duration::from_millis(millis),
        moves,
    }
}

/// The script reports `report` and, when `done`, that the search ended.
pub(crate) fn answer(script: &Arc<Mutex<Script>>, report: Report, done: bool) {
    let mut s = script.lock().unwrap();
    s.report = Some(report);
    s.done = done;
    if done {
        s.running = false;
    }
}

fn text(app: &App) -> String {
    app.message().map_or(String::new(), |m| m.text.clone())
}

#[test]
fn after_your_move_the_computer_thinks_on_its_own_budget_then_plays() {
    let (mut app, script) = versus(5, false, [false, true]);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert!(
        script.lock().unwrap().started.is_empty(),
        "your turn: no search"
    );
    assert_eq!(keys(&mut app, &script, "\n"), Effect::Save);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started, [(1, Budget::Seconds(2.0))]);
    assert_eq!(script.lock().unwrap().levels, [Level::new(4).unwrap()]);
    assert_eq!(app.thinking(), Some((Job::Move, None)));
    assert!(app.computer_to_move());
    // Progress comes in.
    answer(&script, report("d4", 0.55, 1200, 400, &[]), false);
    assert_eq!(tick(&mut app, &script), Effect::None);
    let (job, so_far) = app.thinking().unwrap();
    assert_eq!((job, so_far.unwrap().playouts), (Job::Move, 1200));
    // The search ends: its best move is played and said.
    answer(&script, report("d4", 0.61, 5000, 2000, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::Save);
    assert_eq!(app.actions(), [a("c3"), a("d4")]);
    assert!(
        text(&app).starts_with("Computer played d4.") && !text(&app).contains('%'),
        "{}",
        text(&app)
    );
    assert_eq!(app.thinking(), None);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started.len(), 1, "your turn again");
    assert_eq!(
        app.record_text(),
        "game quentin\nsize 5\npie off\nplayer2 computer, level 4, 2 s a move\nc3\nd4\n"
    );
}

#[test]
fn keys_work_while_it_thinks_but_enter_only_says_it_is_thinking() {
    let (mut app, script) = versus(5, false, [true, false]);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started, [(0, Budget::Seconds(2.0))]);
    let cursor = app.cursor();
    press_with(&mut app, &script, ">^");
    assert_ne!(app.cursor(), cursor, "the cursor moves");
    for key in ["\n", " ", "s"] {
        assert_eq!(keys(&mut app, &script, key), Effect::None);
        assert!(
            text(&app).contains("is thinking"),
            "{key:?}: {}",
            text(&app)
        );
    }
    assert!(app.actions().is_empty());
    press_with(&mut app, &script, "?");
    assert!(app.help_open());
    press_with(&mut app, &script, "?");
    assert_eq!(app.thinking().map(|t| t.0), Some(Job::Move));
    assert_eq!(
        script.lock().unwrap().stops,
        0,
        "nothing stopped the search"
    );
    assert_eq!(keys(&mut app, &script, "q"), Effect::Quit);
}

#[test]
fn undo_while_it_thinks_stops_the_search_and_takes_your_move_back() {
    let (mut app, script) = versus(5, false, [false, true]);
    press_with(&mut app, &script, "\n");
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert!(app.thinking().is_some());
    assert_eq!(keys(&mut app, &script, "u"), Effect::Save);
    assert_eq!(script.lock().unwrap().stops, 1);
    assert_eq!(app.current(), 0);
    assert_eq!(text(&app), "Taken back: c3. r redoes.");
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(app.thinking(), None);
    assert_eq!(
        script.lock().unwrap().started.len(),
        1,
        "your turn: no new search"
    );
    // r brings your move back, and the computer thinks again.
    assert_eq!(keys(&mut app, &script, "r"), Effect::Save);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started.len(), 2);
    assert_eq!(app.thinking().map(|t| t.0), Some(Job::Move));
}

#[test]
fn undo_before_any_move_of_yours_leaves_its_search_alone() {
    let (mut app, script) = versus(5, false, [true, false]);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(keys(&mut app, &script, "u"), Effect::None);
    assert_eq!(text(&app), "Nothing of yours to take back yet.");
    assert_eq!(script.lock().unwrap().stops, 0);
    assert_eq!(app.thinking().map(|t| t.0), Some(Job::Move));
    answer(&script, report("c3", 0.5, 10, 2000, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::Save, "it still moves");
}

#[test]
fn undo_takes_back_its_reply_and_your_move_together_and_redo_brings_both() {
    let (mut app, script) = versus(5, false, [false, true]);
    press_with(&mut app, &script, "\n");
    assert_eq!(tick(&mut app, &script), Effect::None);
    answer(&script, report("d4", 0.5, 10, 2000, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::Save);
    press_with(&mut app, &script, "hh\n");
    assert_eq!(tick(&mut app, &script), Effect::None);
    answer(&script, report("e4", 0.5, 10, 2000, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::Save);
    assert_eq!(app.current(), 4);
    assert_eq!(keys(&mut app, &script, "u"), Effect::Save);
    assert_eq!(app.current(), 2);
    assert_eq!(text(&app), "Taken back: a3, e4. r redoes.");
    assert!(!app.computer_to_move());
    assert_eq!(keys(&mut app, &script, "u"), Effect::Save);
    assert_eq!(app.current(), 0);
    assert_eq!(keys(&mut app, &script, "u"), Effect::None);
    assert_eq!(text(&app), "Nothing of yours to take back yet.");
    assert_eq!(keys(&mut app, &script, "r"), Effect::Save);
    assert_eq!((app.current(), text(&app).as_str()), (2, "Redone: c3, d4."));
    assert_eq!(app.record_text().lines().last(), Some("d4"));
}

#[test]
fn a_hint_is_the_best_move_for_the_side_to_move_and_stays_until_the_position_changes() {
    let (mut app, script) = versus(5, false, [false, false]);
    press_with(&mut app, &script, "\n");
    assert_eq!(keys(&mut app, &script, "t"), Effect::None);
    assert!(text(&app).starts_with("Looking for a hint"));
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started, [(1, Budget::Seconds(2.0))]);
    // Whatever the computer's level, a hint is its best.
    assert_eq!(script.lock().unwrap().levels, [Level::FULL]);
    assert_eq!(app.thinking().map(|t| t.0), Some(Job::Hint));
    answer(&script, report("b2", 0.42, 3000, 2000, &[]), true);
    assert_eq!(
        tick(&mut app, &script),
        Effect::None,
        "a hint plays nothing"
    );
    assert_eq!(app.actions(), [a("c3")]);
    let hint = app.suggestion().unwrap();
    assert_eq!((hint.action, hint.color), (a("b2"), Color::White));
    assert_eq!(
        text(&app),
        "Hint for White: b2, 42% for you. Playing it is your choice."
    );
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(
        script.lock().unwrap().started.len(),
        1,
        "no search after the hint"
    );
    // Playing elsewhere forgets it.
    press_with(&mut app, &script, "l\n");
    assert_eq!(app.suggestion(), None);
}

#[test]
fn analysis_follows_the_shown_position_until_turned_off() {
    let record = Record::parse("size 5\nc3 a1 e5\n").unwrap();
    let mut app = App::replay(&record, 3, Look::FULL);
    let script = Arc::new(Mutex::new(Script::default()));
    app.set_computer(Versus::PEOPLE);
    assert_eq!(keys(&mut app, &script, "a"), Effect::None);
    assert!(app.analysis_on());
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started, [(3, Budget::Unlimited)]);
    assert_eq!(script.lock().unwrap().levels, [Level::FULL]);
    answer(&script, report("e5", 0.3, 800, 300, &["a1", "e1"]), false);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(app.report().unwrap().moves.len(), 3);
    // Stepping back re-analyses the position shown.
    press_with(&mut app, &script, "<");
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().stops, 1);
    assert_eq!(script.lock().unwrap().started[1], (2, Budget::Unlimited));
    assert_eq!(app.report(), None, "nothing yet on the new position");
    press_with(&mut app, &script, "a");
    assert!(!app.analysis_on());
    assert_eq!(script.lock().unwrap().stops, 2);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(
        script.lock().unwrap().started.len(),
        2,
        "off: no new search"
    );
    assert_eq!(app.thinking(), None);
}

#[test]
fn the_computer_may_swap_and_stays_the_same_player_with_the_other_colour() {
    let (mut app, script) = versus(5, true, [false, true]);
    press_with(&mut app, &script, "\n");
    assert_eq!(tick(&mut app, &script), Effect::None);
    answer(&script, report("swap", 0.58, 900, 2000, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::Save);
    assert_eq!(app.actions(), [a("c3"), Action::Swap]);
    assert!(
        text(&app).starts_with("Computer swapped.") && !text(&app).contains('%'),
        "{}",
        text(&app)
    );
    // The computer is still player 2, who now plays Black: it is White's turn, the person's.
    let position = app.position();
    assert_eq!(position.to_move(), Some(Color::White));
    assert_eq!(player_of(position, Color::Black), 2);
    assert!(app.computer_plays(position, Color::Black));
    assert!(!app.computer_plays(position, Color::White));
    assert!(!app.computer_to_move());
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started.len(), 1);
    // The person plays White; the computer answers as Black.
    press_with(&mut app, &script, "l\n");
    assert_eq!(app.position().to_move(), Some(Color::Black));
    assert!(app.computer_to_move());
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started[1], (3, Budget::Seconds(2.0)));
    assert!(
        app.record_text()
            .starts_with("game quentin\nsize 5\npie on\nplayer2 computer, level 4, 2 s a move\n")
    );
}

#[test]
fn against_you_the_end_says_who_won_and_n_keeps_the_same_players() {
    // On 3×3, Black (you) wins with b2 b1 b3 while the computer plays a1 and c1.
    let (mut app, script) = versus(3, false, [false, true]);
    for (yours, its) in [("\n", "a1"), ("j\n", "c1")] {
        press_with(&mut app, &script, yours);
        assert_eq!(tick(&mut app, &script), Effect::None);
        answer(&script, report(its, 0.2, 10, 2000, &[]), true);
        assert_eq!(tick(&mut app, &script), Effect::Save);
    }
    press_with(&mut app, &script, "kk\n");
    assert!(app.position().is_over(), "{}", text(&app));
    assert_eq!(keys(&mut app, &script, "n"), Effect::NewRecord);
    assert_eq!(app.versus().computer, [false, true]);
    assert_eq!(
        app.record_text(),
        "game quentin\nsize 3\npie off\nplayer2 computer, level 4, 2 s a move\n"
    );
    press_with(&mut app, &script, "\n");
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(
        app.thinking().map(|t| t.0),
        Some(Job::Move),
        "it plays again"
    );
}

#[test]
fn the_computer_can_play_both_sides() {
    let (mut app, script) = versus(3, false, [true, true]);
    assert_eq!(tick(&mut app, &script), Effect::None);
    for (n, best) in ["b2", "a1", "b1", "c1", "b3"].into_iter().enumerate() {
        assert_eq!(script.lock().unwrap().started.len(), n + 1);
        answer(&script, report(best, 0.5, 10, 2000, &[]), true);
        assert_eq!(tick(&mut app, &script), Effect::Save);
        // The other side's search starts in the same tick, with no wait between moves.
        assert_eq!(app.thinking().is_some(), n < 4, "{n}");
    }
    assert!(app.position().is_over());
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started.len(), 5);
    assert_eq!(keys(&mut app, &script, "u"), Effect::None, "{}", text(&app));
}

#[test]
fn after_the_game_left_looks_it_over_with_the_analysis_and_n_starts_anew() {
    let mut app = crate::app::tests::after(3, false, "b2 a1 b1 c1 b3");
    let script = Arc::new(Mutex::new(Script::default()));
    app.set_computer(Versus::PEOPLE);
    let saved = app.record_text();
    press_with(&mut app, &script, "a");
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert!(
        script.lock().unwrap().started.is_empty(),
        "nothing to analyse at the end"
    );
    assert_eq!(keys(&mut app, &script, "<"), Effect::None);
    assert_eq!((app.mode(), app.current()), (Mode::Replay, 4));
    assert!(text(&app).starts_with("Looking the game over"));
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started, [(4, Budget::Unlimited)]);
    press_with(&mut app, &script, "<");
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(script.lock().unwrap().started[1], (3, Budget::Unlimited));
    assert_eq!(
        app.record_text(),
        "game quentin\nsize 3\npie off\nb2\na1\nb1\n"
    );
    press_with(&mut app, &script, ">>");
    assert_eq!(app.record_text(), saved, "the whole game is still there");
    assert_eq!(
        keys(&mut app, &script, "u"),
        Effect::None,
        "no undo in a review"
    );
    assert_eq!(script.lock().unwrap().stops, 1);
    assert_eq!(keys(&mut app, &script, "n"), Effect::NewRecord);
    assert_eq!(
        script.lock().unwrap().stops,
        2,
        "the analysis of the old game ends"
    );
    assert_eq!((app.mode(), app.current()), (Mode::Play, 0));
    assert!(app.analysis_on(), "the analysis stays on");
}

#[test]
fn the_app_moves_to_another_thread_and_is_driven_there() {
    let (mut app, script) = versus(5, false, [false, true]);
    press_with(&mut app, &script, "\n");
    // Another thread takes the app, orders the computer's search, and is told its move.
    let there = Arc::clone(&script);
    let mut app = std::thread::spawn(move || {
        assert_eq!(tick(&mut app, &there), Effect::None);
        assert_eq!(there.lock().unwrap().started, [(1, Budget::Seconds(2.0))]);
        answer(&there, report("d4", 0.61, 5000, 2000, &[]), true);
        assert_eq!(tick(&mut app, &there), Effect::Save);
        app
    })
    .join()
    .unwrap();
    // Back here, it goes on where it was.
    assert_eq!(app.actions(), [a("c3"), a("d4")]);
    assert_eq!(app.position().to_move(), Some(Color::Black));
    press_with(&mut app, &script, "l\n");
    assert_eq!(app.actions(), [a("c3"), a("d4"), a("d3")]);
}

#[test]
fn after_too_few_playouts_no_win_chance_is_given() {
    // One playout through the move it plays: it won, which says nothing yet.
    let (mut app, script) = versus(5, false, [false, true]);
    press_with(&mut app, &script, "\n");
    assert_eq!(tick(&mut app, &script), Effect::None);
    answer(&script, report("d4", 1.0, 3, 10, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::Save);
    // No figure, and no jargon saying why.
    assert!(
        text(&app).starts_with("Computer played d4.")
            && !text(&app).contains('%')
            && !text(&app).contains("playout"),
        "{}",
        text(&app)
    );
    // A hint likewise.
    press_with(&mut app, &script, "t");
    assert_eq!(tick(&mut app, &script), Effect::None);
    answer(&script, report("b2", 0.0, 20, 10, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(app.suggestion().unwrap().win, None);
    assert!(
        text(&app).starts_with("Hint for Black: b2. Playing it is your choice."),
        "{}",
        text(&app)
    );
    assert_eq!(chance(None, None), "…");
    assert_eq!(chance(Some(0.614), None), "61%");
}

#[test]
fn at_full_strength_the_computer_gives_its_figure_from_the_person_s_side() {
    let (mut app, script) = versus(5, false, [false, true]);
    app.set_computer(Versus {
        computer: [false, true],
        think: 2.0,
        level: Level::FULL,
    });
    press_with(&mut app, &script, "\n");
    assert_eq!(tick(&mut app, &script), Effect::None);
    // 61 % for the computer is 39 % for the person playing it.
    answer(&script, report("d4", 0.61, 5000, 2000, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::Save);
    assert!(
        text(&app).starts_with("Computer played d4, 39% for you."),
        "{}",
        text(&app)
    );
}

#[test]
fn below_full_strength_only_a_proof_is_said_and_from_the_person_s_side() {
    let (mut app, script) = versus(5, false, [false, true]);
    press_with(&mut app, &script, "\n");
    assert_eq!(tick(&mut app, &script), Effect::None);
    let mut won = report("d4", 1.0, 5000, 2000, &[]);
    won.proven = Some(Proven::Win);
    won.moves[0].proven = Some(Proven::Win);
    answer(&script, won, true);
    assert_eq!(tick(&mut app, &script), Effect::Save);
    assert!(
        text(&app).starts_with("Computer played d4, a proven loss for you."),
        "{}",
        text(&app)
    );
}

#[test]
fn when_the_computer_plays_both_sides_its_figure_is_for_the_colour_that_moved() {
    let (mut app, script) = versus(5, false, [true, true]);
    app.set_computer(Versus {
        computer: [true, true],
        think: 2.0,
        level: Level::FULL,
    });
    assert_eq!(tick(&mut app, &script), Effect::None);
    answer(&script, report("c3", 0.55, 5000, 2000, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::Save);
    assert!(
        text(&app).starts_with("Computer played c3, 55% for Black."),
        "{}",
        text(&app)
    );
}

#[test]
fn a_hint_in_a_lost_position_says_it_holds_out_longest() {
    let (mut app, script) = versus(5, false, [false, false]);
    press_with(&mut app, &script, "\n");
    press_with(&mut app, &script, "t");
    assert_eq!(tick(&mut app, &script), Effect::None);
    answer(&script, report("b2", 0.02, 3000, 2000, &[]), true);
    assert_eq!(tick(&mut app, &script), Effect::None);
    assert_eq!(
        text(&app),
        "Hint for White: b2 holds out longest, 2% for you. Playing it is your choice."
    );
}
