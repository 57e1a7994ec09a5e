//! State-machine tests: keys and clicks in, state and effects out.

use super::*;
use crate::game_end::{Aborted, GameEnd, How, Seat};
use crate::game_line::GameLine;
use crate::input::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use crate::rules::Game;

/// A new game of Quentin on `size`×`size`, pie rule as asked.
pub(crate) fn game(size: usize, pie: bool) -> App {
    after_with(Look::FULL, size, pie, "")
}

/// `game(size, pie)` after the actions of `moves` (record tokens), each one legal.
pub(crate) fn after(size: usize, pie: bool, moves: &str) -> App {
    after_with(Look::FULL, size, pie, moves)
}

/// [`after`], drawn with `look`.
pub(crate) fn after_with(look: Look, size: usize, pie: bool, moves: &str) -> App {
    played(Game::Quentin, look, size, pie, moves)
}

/// A game of `game` on `size`×`size`, drawn with `look`, after the actions of `moves`.
pub(crate) fn played(game: Game, look: Look, size: usize, pie: bool, moves: &str) -> App {
    let setup = Setup {
        size,
        pie,
        ..Setup::new(game)
    };
    let mut app = App::new(setup, look).unwrap();
    for token in moves.split_whitespace() {
        let action = Action::parse(token).unwrap();
        assert_eq!(
            app.act(action),
            Effect::Save,
            "{token}: {:?}",
            app.notes.message
        );
    }
    app
}

pub(crate) fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Presses each key of `keys`, ignoring what the app asks for.
pub(crate) fn press(app: &mut App, keys: &str) {
    let _ = effect_of(app, keys);
}

/// Presses each key of `keys`: a character, or `<` `>` `^` `v` for the arrows and `\n`
/// for Enter. Returns the last effect.
pub(crate) fn effect_of(app: &mut App, keys: &str) -> Effect {
    let mut effect = Effect::None;
    for c in keys.chars() {
        let code = match c {
            '<' => KeyCode::Left,
            '>' => KeyCode::Right,
            '^' => KeyCode::Up,
            'v' => KeyCode::Down,
            '\n' => KeyCode::Enter,
            c => KeyCode::Char(c),
        };
        effect = app.handle(&key(code));
    }
    effect
}

fn p(name: &str) -> Point {
    Point::parse(name).unwrap()
}

fn text(app: &App) -> &str {
    app.message().map_or("", |m| m.text.as_str())
}

#[test]
fn the_cursor_starts_at_the_centre_and_stops_at_the_edges() {
    let mut app = game(5, true);
    assert_eq!(app.cursor(), p("c3"));
    press(&mut app, "hhhhh");
    assert_eq!(app.cursor(), p("a3"));
    press(&mut app, "kkkkk");
    assert_eq!(app.cursor(), p("a5"));
    press(&mut app, ">>>>>>>vvvvvvv");
    assert_eq!(app.cursor(), p("e1"));
    press(&mut app, "<^");
    assert_eq!(app.cursor(), p("d2"));
    press(&mut app, "jl");
    assert_eq!(app.cursor(), p("e1"));
}

#[test]
fn enter_and_space_play_at_the_cursor_and_ask_for_a_save() {
    let mut app = game(5, false);
    assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
    assert_eq!(effect_of(&mut app, "l "), Effect::Save);
    assert_eq!(
        app.actions(),
        [Action::Place(p("c3")), Action::Place(p("d3"))]
    );
    assert_eq!(app.record_text(), "game quentin\nsize 5\npie off\nc3\nd3\n");
    assert_eq!(app.last_placement(), Some(p("d3")));
}

#[test]
fn only_key_presses_count() {
    let mut app = game(5, false);
    let mut release = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    release.kind = KeyEventKind::Release;
    assert_eq!(app.handle(&Event::Key(release)), Effect::None);
    assert!(app.actions().is_empty());
}

#[test]
fn an_illegal_point_shows_the_reason_and_changes_nothing() {
    // docs/rules.md: White b3 is diagonal to c4 while b4 and c3 are empty.
    let mut app = after(5, false, "a1 c4 e3");
    press(&mut app, "h");
    assert_eq!(app.cursor(), p("b3"));
    let before = app.record_text();
    assert_eq!(effect_of(&mut app, "\n"), Effect::None);
    assert_eq!(app.record_text(), before);
    assert_eq!(
        text(&app),
        "White cannot play b3: b3 and c4 are diagonal with no shared white neighbour."
    );
    assert_eq!(app.message().unwrap().tone, Tone::Refusal);
    press(&mut app, "lk");
    assert_eq!(effect_of(&mut app, " "), Effect::None);
    assert_eq!(
        text(&app),
        "White cannot play c4: c4 is occupied by a white stone."
    );
    assert_eq!(app.record_text(), before);
}

#[test]
fn swap_is_offered_once_and_the_players_follow_it() {
    let mut app = game(5, true);
    assert_eq!(effect_of(&mut app, "s"), Effect::None);
    assert!(
        text(&app).starts_with("Black cannot swap"),
        "{}",
        text(&app)
    );
    press(&mut app, "\n");
    assert_eq!(effect_of(&mut app, "s"), Effect::Save);
    let position = app.position();
    assert!(position.swapped());
    assert_eq!(position.to_move(), Some(Color::White));
    assert_eq!(player(Color::White, position.swapped()), 1);
    assert_eq!(
        text(&app),
        "Swap: the players exchange colours; Player 1 now plays White."
    );
    assert_eq!(effect_of(&mut app, "s"), Effect::None);
}

#[test]
fn undo_and_redo_go_all_the_way_swaps_included() {
    let mut app = after(5, true, "c3 swap b2 e5");
    for n in (0..4).rev() {
        assert_eq!(effect_of(&mut app, "u"), Effect::Save);
        assert_eq!(app.current(), n);
    }
    assert_eq!(effect_of(&mut app, "u"), Effect::None);
    assert_eq!(text(&app), "Nothing to undo.");
    assert_eq!(app.record_text(), "game quentin\nsize 5\npie on\n");
    press(&mut app, "rr");
    assert_eq!(app.current(), 2);
    assert!(app.position().swapped());
    assert_eq!(
        app.record_text(),
        "game quentin\nsize 5\npie on\nc3\nswap\n"
    );
    // A new action drops the undone ones.
    press(&mut app, "hh\n");
    assert_eq!(app.actions().len(), 3);
    assert_eq!(effect_of(&mut app, "r"), Effect::None);
    assert_eq!(text(&app), "Nothing to redo.");
}

/// Black has no legal placement after these 14 actions (found by random play on 5×5).
const BEFORE_PASS: &str = "e2 c1 d5 a3 d1 c5 c3 d3 a4 e4 c2 a5 a1";

#[test]
fn a_forced_pass_is_announced_played_and_undone_with_its_cause() {
    let mut app = after(5, false, BEFORE_PASS);
    app.screen.cursor = p("b2");
    assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
    assert_eq!(
        text(&app),
        "White played b2, filling 2 points with white. Black has no legal placement and \
         passes."
    );
    assert_eq!(app.actions().last(), Some(&Action::Pass));
    assert_eq!(app.position().to_move(), Some(Color::White));
    assert!(app.record_text().ends_with("b2\npass\n"));
    press(&mut app, "u");
    assert_eq!(app.current(), 13);
    assert_eq!(text(&app), "Undone: b2, pass. r redoes.");
    press(&mut app, "r");
    assert_eq!(app.current(), 15);
    assert_eq!(text(&app), "Redone: b2, pass.");
}

#[test]
fn a_win_names_the_winner_as_the_screen_does() {
    let mut app = after(3, false, "b2 a1 b1 c1");
    app.set_names(["ann".to_string(), "bob".to_string()]);
    app.screen.cursor = p("b3");
    assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
    assert_eq!(text(&app), "Black played b3. Black wins (ann).");
}

#[test]
fn a_win_is_announced_and_n_starts_a_new_game() {
    let mut app = after(3, false, "b2 a1 b1 c1");
    assert_eq!(effect_of(&mut app, "n"), Effect::None);
    assert_eq!(text(&app), "n starts a new game once this one is won.");
    app.screen.cursor = p("b3");
    assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
    assert_eq!(text(&app), "Black played b3. Black wins (Player 1).");
    assert!(app.position().is_over());
    assert_eq!(effect_of(&mut app, "l\n"), Effect::None);
    assert!(text(&app).starts_with("The game is over"));
    assert_eq!(effect_of(&mut app, "n"), Effect::NewRecord);
    assert!(app.actions().is_empty());
    assert_eq!(app.record_text(), "game quentin\nsize 3\npie off\n");
}

#[test]
fn help_opens_closes_and_quitting_works_from_anywhere() {
    let mut app = game(5, true);
    press(&mut app, "?");
    assert!(app.help_open());
    // Any other key closes the help without acting.
    assert_eq!(effect_of(&mut app, "\n"), Effect::None);
    assert!(!app.help_open());
    assert!(app.actions().is_empty());
    press(&mut app, "??");
    assert!(!app.help_open());
    press(&mut app, "?");
    assert_eq!(effect_of(&mut app, "q"), Effect::Quit);
    let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    press(&mut app, "?");
    assert_eq!(app.handle(&ctrl_c), Effect::Quit);
    // Esc closes the help, as it closes any dialog; with the help closed it quits.
    press(&mut app, "?");
    assert!(app.help_open());
    assert_eq!(app.handle(&key(KeyCode::Esc)), Effect::None);
    assert!(!app.help_open());
    assert_eq!(app.handle(&key(KeyCode::Esc)), Effect::Quit);
}

#[test]
fn while_the_board_is_hidden_only_quit_help_and_resize_act() {
    let mut app = game(5, true);
    app.set_geometry(Geometry {
        hidden: true,
        ..Geometry::default()
    });
    for keys in ["\n", " ", "s", "hjkl", "u", "r", "n"] {
        assert_eq!(effect_of(&mut app, keys), Effect::None, "{keys:?}");
    }
    assert!(app.actions().is_empty());
    assert_eq!(app.cursor(), p("c3"), "the cursor did not move unseen");
    assert_eq!(
        app.handle(&mouse(MouseEventKind::Down(MouseButton::Left), 0, 0)),
        Effect::None
    );
    press(&mut app, "?");
    assert!(app.help_open());
    press(&mut app, "?");
    assert_eq!(effect_of(&mut app, "q"), Effect::Quit);
    // Once the board shows again, keys play.
    app.set_geometry(Geometry::default());
    assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
}

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn the_mouse_points_and_clicks_on_the_last_drawn_board() {
    use crate::layout::{BoardGeometry, BoardStyle};
    let mut app = game(5, false);
    let click = MouseEventKind::Down(MouseButton::Left);
    // Before any drawing there is no board to click on.
    assert_eq!(app.handle(&mouse(click, 10, 10)), Effect::None);
    let board = BoardGeometry {
        x: 10,
        y: 4,
        size: 5,
        style: BoardStyle::Points,
    };
    app.set_geometry(Geometry {
        board: Some(board),
        list_rows: 5,
        ..Geometry::default()
    });
    assert_eq!(board.cell(p("a5")), (10, 4));
    assert_eq!(
        app.handle(&mouse(MouseEventKind::Moved, 12, 8)),
        Effect::None
    );
    assert_eq!(app.cursor(), p("b1"));
    // Between two points is no point.
    assert_eq!(app.handle(&mouse(click, 13, 8)), Effect::None);
    assert_eq!(app.handle(&mouse(click, 18, 4)), Effect::Save);
    assert_eq!(app.actions(), [Action::Place(p("e5"))]);
    assert_eq!(app.handle(&mouse(click, 20, 4)), Effect::None);
    assert_eq!(app.handle(&mouse(click, 10, 9)), Effect::None);
    // With the help open, a click only closes it.
    press(&mut app, "?");
    assert_eq!(app.handle(&mouse(click, 10, 4)), Effect::None);
    assert!(!app.help_open());
    assert_eq!(app.actions().len(), 1);
}

#[test]
fn replay_steps_jumps_and_plays_on_into_a_new_record() {
    let record = Record::parse("size 5\nc3 swap b2 e5 a5\n").unwrap();
    let mut app = App::replay(&record, usize::MAX, Look::FULL);
    assert_eq!(app.mode(), Mode::Replay);
    assert_eq!(app.current(), 5);
    press(&mut app, "<<");
    assert_eq!(app.current(), 3);
    assert_eq!(app.handle(&key(KeyCode::Home)), Effect::None);
    assert_eq!(app.current(), 0);
    press(&mut app, "<");
    assert_eq!(app.current(), 0);
    assert_eq!(app.handle(&key(KeyCode::End)), Effect::None);
    assert_eq!(app.current(), 5);
    press(&mut app, ">");
    assert_eq!(app.current(), 5);
    press(&mut app, "<<<");
    // Playing is refused in a replay, and says how to play on.
    assert_eq!(effect_of(&mut app, "\n"), Effect::None);
    assert!(text(&app).contains("press p"));
    assert_eq!(effect_of(&mut app, "p"), Effect::NewRecord);
    assert_eq!(app.mode(), Mode::Play);
    assert_eq!(
        app.record_text(),
        "game quentin\nsize 5\npie on\nc3\nswap\n"
    );
    assert_eq!(effect_of(&mut app, "j\n"), Effect::Save);
    assert_eq!(app.actions().len(), 3);
}

#[test]
fn replay_can_open_at_any_action() {
    let record = Record::parse("size 5\nc3 swap b2\n").unwrap();
    let app = App::replay(&record, 1, Look::FULL);
    assert_eq!(app.current(), 1);
    assert_eq!(app.position().ply(), 1);
}

#[test]
fn the_action_list_follows_the_current_action_unless_scrolled() {
    let mut app = after(9, false, "a1 c1 e1 g1 i1 a3 c3 e3 g3 i3 a5 c5");
    app.set_geometry(Geometry {
        board: None,
        list_rows: 4,
        ..Geometry::default()
    });
    assert_eq!(app.list_top(4), 8);
    let _ = app.handle(&key(KeyCode::PageUp));
    assert_eq!(app.list_top(4), 5);
    let _ = app.handle(&mouse(MouseEventKind::ScrollUp, 0, 0));
    assert_eq!(app.list_top(4), 2);
    for _ in 0..3 {
        let _ = app.handle(&key(KeyCode::PageDown));
    }
    assert_eq!(app.list_top(4), 8);
    press(&mut app, "uuuuuuuu");
    assert_eq!(app.list_top(4), 1);
}

#[test]
fn an_online_move_and_leaving_come_out_of_the_step_in_order() {
    let setup = Setup {
        size: 3,
        pie: false,
        ..Setup::new(Game::Quentin)
    };
    let mut app = App::online(
        GameLine::new(setup.start().unwrap()),
        online(Some(0)),
        Look::FULL,
    );
    let play = Effect::Send(Request::Play(Action::Place(p("b2"))));
    assert_eq!(app.step(Input::Event(key(KeyCode::Enter))), [play]);
    // Nothing is played before the server has it.
    assert!(app.actions().is_empty());
    assert_eq!(
        app.step(Input::Event(key(KeyCode::Char('q')))),
        [Effect::Quit]
    );
}

#[test]
fn p_leaves_a_local_game_for_its_puzzles_and_an_online_one_says_where_they_are() {
    let mut app = after(5, false, "c3");
    assert_eq!(
        app.step(Input::Event(key(KeyCode::Char('P')))),
        [Effect::Puzzles(Game::Quentin)]
    );
    assert_eq!(app.actions().len(), 1, "the game is left as it is");
    let setup = Setup {
        size: 3,
        pie: false,
        ..Setup::new(Game::Konobi)
    };
    let mut online = App::online(
        GameLine::new(setup.start().unwrap()),
        self::online(Some(0)),
        Look::FULL,
    );
    assert_eq!(online.step(Input::Event(key(KeyCode::Char('P')))), []);
    assert_eq!(
        text(&online),
        "Not in an online game: the lobby's p opens the puzzles."
    );
}

/// An online casual game of alice (player 1) and bob, both connected, seen from `seat`.
pub(crate) fn online(seat: Option<usize>) -> Online {
    Online {
        seat,
        names: ["alice".to_string(), "bob".to_string()],
        ratings: ["1500?".to_string(), "1500?".to_string()],
        changes: None,
        clock: "10+5".to_string(),
        left: [600_000, 600_000],
        low: 30_000,
        running: Some(0),
        rated: false,
        result: None,
        takeback: None,
        first_move: None,
        rematch: None,
        connected: [true, true],
        watchers: 0,
        tournament: None,
    }
}

/// A game won by `by`, `how`, with no swap (the first seat plays Black).
fn won_by(by: Color, how: How) -> Finish {
    Finish {
        end: GameEnd::Won { by, how },
        black: Seat::First,
        actions: 9,
    }
}

/// A game aborted for `why` after `actions` actions.
fn aborted(why: Aborted, actions: usize) -> Finish {
    Finish {
        end: GameEnd::Aborted(why),
        black: Seat::First,
        actions,
    }
}

#[test]
fn an_online_result_is_said_from_the_viewers_side() {
    let won = |seat| Online {
        result: Some(won_by(Color::White, How::Time)),
        ..online(seat)
    };
    assert_eq!(
        won(Some(1)).result_text().unwrap(),
        "alice ran out of time: you win"
    );
    assert_eq!(
        won(Some(0)).result_text().unwrap(),
        "You ran out of time: you lose"
    );
    assert_eq!(
        won(None).result_text().unwrap(),
        "alice ran out of time: bob wins"
    );
    // A connection says who joined which edges, in every game's words.
    let joined = |seat| Online {
        result: Some(won_by(Color::White, How::Connection)),
        ..online(seat)
    };
    assert_eq!(
        joined(Some(1)).result_text().unwrap(),
        "You joined left and right: you win"
    );
    assert_eq!(
        joined(Some(0)).result_text().unwrap(),
        "bob joined left and right: you lose"
    );
    assert_eq!(
        joined(None).result_text().unwrap(),
        "bob joined left and right and wins"
    );
    let resigned = Online {
        result: Some(won_by(Color::Black, How::Resignation)),
        ..online(Some(0))
    };
    assert_eq!(resigned.result_text().unwrap(), "bob resigned: you win");
    let asked = Online {
        result: Some(aborted(Aborted::Asked(None), 0)),
        ..online(None)
    };
    assert_eq!(
        asked.result_text().unwrap(),
        "Game aborted before both had moved"
    );
    // Who aborted, as each side and a watcher read it.
    let by_bob = |viewer| Online {
        result: Some(aborted(Aborted::Asked(Some(Seat::Second)), 1)),
        ..online(viewer)
    };
    assert_eq!(
        by_bob(Some(0)).result_text().unwrap(),
        "Game aborted by bob before both had moved"
    );
    assert_eq!(
        by_bob(Some(1)).result_text().unwrap(),
        "Game aborted by you before both had moved"
    );
    let aborted = Online {
        result: Some(aborted(Aborted::NoFirstMove, 0)),
        ..online(Some(0))
    };
    assert_eq!(
        aborted.result_text().unwrap(),
        "Game aborted: you made no first move"
    );
    let rated = Online {
        changes: Some([-9, 9]),
        ratings: ["1491?".to_string(), "1509?".to_string()],
        ..won(Some(1))
    };
    assert_eq!(rated.change_text().unwrap(), "Your rating: 1509? (+9)");
}
