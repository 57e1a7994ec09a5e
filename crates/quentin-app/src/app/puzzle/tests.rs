//! The puzzle screen's state machine: moves checked against the solution, replies, refutations,
//! hints, the solution, the next puzzle.

use super::*;
use crate::app::Input;
use crate::app::tests::{effect_of, key};
use crate::search::puzzles::PuzzleSet;

/// Two shipped puzzles of Quentin 5×5: a win in 2 and a defence.
const SET: &str = "\
game quentin
quentin-0002; size 5; pie off; goal win; depth 2; rating 1120; themes win2; setup a5 b5 d5 c4 d4 a3 b4 a2 e2 a1 c2 e1 e5; solution b1 c1 e3
";

/// The win in 2, opened.
pub(crate) fn win_in_2() -> App {
    let set = PuzzleSet::parse(SET, "test").unwrap();
    App::puzzle(set.puzzles[0].clone(), Look::FULL).unwrap()
}

/// Plays the action `name` and takes what the app asked.
pub(crate) fn act(app: &mut App, name: &str) -> Vec<Effect> {
    let _ = app.act(Action::parse(name).unwrap());
    std::mem::take(&mut app.outbox)
}

/// Presses the character `c` (the tests' `effect_of` reads `v` as the down arrow).
fn press(app: &mut App, c: char) -> Vec<Effect> {
    app.step(Input::Event(key(crate::input::KeyCode::Char(c))))
}

fn text(app: &App) -> String {
    app.message().map(|m| m.text.clone()).unwrap_or_default()
}

fn attempted(solved: bool) -> Effect {
    Effect::Puzzle(PuzzleNews::Attempted {
        id: "quentin-0002".into(),
        solved,
    })
}

#[test]
fn the_puzzle_opens_on_its_position_saying_what_to_achieve() {
    let app = win_in_2();
    assert_eq!(app.current(), 13);
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Solving));
    assert_eq!(app.puzzle_goal().unwrap(), "White to move: win in 2");
    assert!(text(&app).contains("Find the move"), "{}", text(&app));
}

#[test]
fn right_moves_get_the_solution_s_reply_then_solve_the_puzzle() {
    let mut app = win_in_2();
    assert_eq!(act(&mut app, "b1"), vec![]);
    assert_eq!(
        app.actions()[13..],
        [Action::parse("b1").unwrap(), Action::parse("c1").unwrap()]
    );
    assert!(text(&app).starts_with("Right:"), "{}", text(&app));
    assert!(text(&app).contains("Black answers c1"), "{}", text(&app));
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Solving));
    assert_eq!(act(&mut app, "e3"), vec![attempted(true)]);
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Solved));
    assert!(app.position().is_over());
    // Left does not turn the puzzle into a replay of a finished game.
    let _ = effect_of(&mut app, "<");
    assert_eq!(app.mode(), Mode::Play);
    assert!(text(&app).contains("u and r step"), "{}", text(&app));
    // Over: n asks for the next.
    assert_eq!(press(&mut app, 'n'), vec![Effect::Puzzle(PuzzleNews::Next)]);
}

#[test]
fn a_wrong_move_is_refuted_on_the_board_and_fails_the_puzzle() {
    let mut app = win_in_2();
    assert_eq!(act(&mut app, "e3"), vec![attempted(false)]);
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Failed));
    // The wrong move and the opponent's answer are on the board.
    assert_eq!(app.current(), 15, "{}", text(&app));
    assert!(text(&app).starts_with("Wrong:"), "{}", text(&app));
    assert!(text(&app).contains("Black answers"), "{}", text(&app));
    // No more moves; the solution on request, rated once only.
    assert_eq!(act(&mut app, "b1"), vec![]);
    assert!(text(&app).contains("The puzzle is over"), "{}", text(&app));
    assert_eq!(press(&mut app, 'v'), vec![]);
    assert_eq!(
        app.actions()[13..].len(),
        3,
        "{:?} {}",
        app.actions(),
        text(&app)
    );
    assert_eq!(app.actions()[13], Action::parse("b1").unwrap());
    assert!(
        text(&app).contains("Solution: b1, c1, e3"),
        "{}",
        text(&app)
    );
}

#[test]
fn a_hint_shows_the_area_then_the_move_and_the_puzzle_counts_as_failed() {
    let mut app = win_in_2();
    assert_eq!(effect_of(&mut app, "t"), Effect::None);
    assert!(text(&app).contains("the move is in a1-"), "{}", text(&app));
    assert_eq!(effect_of(&mut app, "t"), Effect::None);
    assert!(text(&app).contains("play b1"), "{}", text(&app));
    assert_eq!(app.cursor(), Point::parse("b1").unwrap());
    act(&mut app, "b1");
    assert_eq!(act(&mut app, "e3"), vec![attempted(false)]);
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Solved));
    assert!(text(&app).contains("with a hint"), "{}", text(&app));
}

#[test]
fn giving_up_shows_the_solution_and_taking_back_is_refused_while_solving() {
    let mut app = win_in_2();
    let _ = effect_of(&mut app, "nu");
    assert!(text(&app).contains("No taking back"), "{}", text(&app));
    assert_eq!(press(&mut app, 'v'), vec![attempted(false)]);
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Failed));
    assert_eq!(app.current(), 16);
    // Once over, u and r step through the solution.
    let _ = effect_of(&mut app, "uu");
    assert_eq!(app.current(), 14);
}

#[test]
fn the_standing_the_front_end_gives_is_kept_to_show() {
    let mut app = win_in_2();
    assert!(app.standing().is_none());
    let standing = PuzzleStanding {
        rating: "1500?".into(),
        change: None,
        streak: 0,
        way: Some("Streak 0 (best 3)".into()),
    };
    app.set_standing(standing.clone());
    assert_eq!(app.standing(), Some(&standing));
}

/// The puzzle of the one-puzzle set `line` of `game`, opened.
fn opened(game: &str, line: &str) -> App {
    let set = PuzzleSet::parse(&format!("game {game}\n{line}\n"), "test").unwrap();
    App::puzzle(set.puzzles[0].clone(), Look::FULL).unwrap()
}

#[test]
fn a_swap_puzzle_is_solved_by_s() {
    let mut app = opened(
        "quentin",
        "quentin-0306; size 3; pie on; goal swap; rating 1120; themes swap; setup a1; solution swap",
    );
    assert_eq!(
        app.puzzle_goal().unwrap(),
        "White to move: swap or not (s swaps, or place a stone)"
    );
    let effects = press(&mut app, 's');
    assert_eq!(
        effects,
        vec![Effect::Puzzle(PuzzleNews::Attempted {
            id: "quentin-0306".into(),
            solved: true
        })]
    );
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Solved));
}

#[test]
fn a_wrong_answer_to_a_swap_puzzle_is_refuted_by_the_opponent_s_win() {
    let mut app = opened(
        "quentin",
        "quentin-0306; size 3; pie on; goal swap; rating 1120; themes swap; setup a1; solution swap",
    );
    act(&mut app, "b2");
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Failed));
    assert!(text(&app).contains("Black answers"), "{}", text(&app));
    assert!(text(&app).contains("it wins"), "{}", text(&app));
}

#[test]
fn a_defence_is_solved_by_its_one_move_and_any_other_is_refuted_by_the_threat() {
    let line = "quentin-0223; size 5; pie off; goal defend; depth 3; rating 1360; themes defend \
                threat3; setup e1 e3 c4 d1 a4 c1 e2 d3; solution b2";
    let mut app = opened("quentin", line);
    assert!(
        app.puzzle_goal()
            .unwrap()
            .contains("Black to move: defend: White wins in 3 unless you stop it")
    );
    assert_eq!(act(&mut app, "b2").len(), 1);
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Solved));
    let mut app = opened("quentin", line);
    act(&mut app, "a1");
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Failed));
    assert!(text(&app).contains("White answers"), "{}", text(&app));
    assert!(text(&app).contains("it wins in"), "{}", text(&app));
}

#[test]
fn a_quint_puzzle_is_solved_step_by_step_with_its_captures() {
    let line = "quint-0011; size 8; pieces 20; goal win; depth 2; rating 2200; themes win2 step \
                capture; setup c3 b5 b6 e2 c8 b2 a5 e4 e5 f6 d7 c5 e7 d5 f3 h1 h6 h5 g6 a8 h4 a7 \
                d3 g7 d1 d8 a6 e6 f7 d6 h2 c4 d4 g5 e8 c7 d2 g8 c2 f5 b6-c6xc7; solution \
                b5-b6xc6 d1-e1 c5-c6";
    let mut app = opened("quint", line);
    assert!(act(&mut app, "b5-b6xc6").is_empty());
    assert!(text(&app).contains("answers d1-e1"), "{}", text(&app));
    assert_eq!(act(&mut app, "c5-c6").len(), 1);
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Solved));
    // The same step without its capture is another move: wrong.
    let mut app = opened("quint", line);
    act(&mut app, "b5-b6");
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Failed));
}

#[test]
fn once_a_defence_is_over_w_plays_its_threat_out_and_goes_back() {
    let line = "quentin-0223; size 5; pie off; goal defend; depth 3; rating 1360; themes defend \
                threat3; setup e1 e3 c4 d1 a4 c1 e2 d3; solution b2";
    let mut app = opened("quentin", line);
    let _ = press(&mut app, 'w');
    assert!(
        text(&app).contains("Stop the threat first"),
        "{}",
        text(&app)
    );
    assert!(app.variation().is_none());
    act(&mut app, "b2");
    assert!(
        text(&app).contains("w plays out the threat"),
        "{}",
        text(&app)
    );
    let _ = press(&mut app, 'w');
    assert_eq!(
        app.variation(),
        Some("White's threat, had Black not stopped it")
    );
    // The puzzle's position with Black's turn passed: White to move, the line from there.
    assert_eq!(app.current(), 0);
    assert_eq!(app.position().to_move(), Some(Color::White));
    let len = app.actions().len();
    assert!((1..=6).contains(&len), "{:?}", app.actions());
    let _ = press(&mut app, 'G');
    assert_eq!(app.position().winner(), Some(Color::White));
    assert!(text(&app).contains("(White wins)"), "{}", text(&app));
    // Back: the puzzle as it was, solved.
    let _ = press(&mut app, 'w');
    assert!(app.variation().is_none());
    assert_eq!(app.actions()[8..], [Action::parse("b2").unwrap()]);
    assert_eq!(app.puzzle_state(), Some(PuzzleState::Solved));
}

#[test]
fn a_win_puzzle_has_no_threat_to_play_out() {
    let mut app = win_in_2();
    act(&mut app, "e3");
    let _ = press(&mut app, 'w');
    assert!(app.variation().is_none());
    assert!(text(&app).contains("threat of a defence"), "{}", text(&app));
}
