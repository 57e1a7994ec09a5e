//! The lobby's keys, mouse and drawing, tested on its plain data.

use super::*;

fn key(code: KeyCode) -> Event {
    Event::Key(code.into())
}

#[test]
fn the_form_makes_the_challenge_it_shows() {
    let mut lobby = Lobby::new((1, "alice".to_string()));
    assert_eq!(lobby.handle(&key(KeyCode::Char('c'))), Ask::Nothing);
    // Konobi, 10x10, pie off, first me, 1 day a move, casual, for bob.
    let keys = [
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Down,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Right,
        KeyCode::Right,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Char('b'),
        KeyCode::Char('o'),
        KeyCode::Char('!'),
        KeyCode::Char('b'),
    ];
    for k in keys {
        assert_eq!(lobby.handle(&key(k)), Ask::Nothing);
    }
    let Ask::Challenge(spec) = lobby.handle(&key(KeyCode::Enter)) else {
        panic!("Enter makes the challenge");
    };
    assert_eq!(spec.summary(), "konobi 10x10 pie off, 1 day a move, casual");
    assert_eq!(spec.first, First::Me);
    assert_eq!(spec.to.as_deref(), Some("bob"));
}

fn click(column: u16, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

fn wheel(kind: MouseEventKind) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column: 0,
        row: 0,
        modifiers: KeyModifiers::NONE,
    })
}

/// Draws `lobby` on 80×24 and remembers its rows; the screen's lines.
fn drawn(lobby: &mut Lobby) -> Vec<String> {
    let area = Rect::new(0, 0, 80, 24);
    let mut buf = Buffer::empty(area);
    let rows = lobby.draw(area, &mut buf, true);
    lobby.set_rows(rows);
    (0..24)
        .map(|y| (0..80).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

fn row_of(screen: &[String], text: &str) -> u16 {
    screen.iter().position(|l| l.contains(text)).unwrap() as u16
}

#[test]
fn a_click_selects_a_line_and_a_second_click_opens_it() {
    let mut lobby = Lobby::new((1, "alice".to_string()));
    lobby.board.challenges = [(7, 2, "bob"), (8, 1, "alice"), (9, 3, "carol")]
        .map(|(id, by, name)| ChallengeView {
            id,
            by,
            by_name: name.to_string(),
            setup: quentin_rules::Setup::new(quentin_rules::Game::Quentin),
            first: "random".to_string(),
            clock: super::super::spec::TimeControl::Days(1),
            rated: true,
            to: None,
            by_rating: "1500?".to_string(),
        })
        .to_vec();
    let screen = drawn(&mut lobby);
    let carol = row_of(&screen, "by carol");
    // Outside the lines: nothing.
    assert_eq!(lobby.handle(&click(30, 0)), Ask::Nothing);
    assert_eq!(lobby.handle(&click(79, carol)), Ask::Nothing);
    assert_eq!(lobby.selected, 0);
    // A click selects; a click on the selected line accepts.
    assert_eq!(lobby.handle(&click(30, carol)), Ask::Nothing);
    assert_eq!(lobby.selected, 2);
    assert!(drawn(&mut lobby)[usize::from(carol)].contains("> #9"));
    assert_eq!(lobby.handle(&click(5, carol)), Ask::Accept(9));
    // One's own challenge: what Enter says.
    let own = row_of(&screen, "by alice");
    assert_eq!(lobby.handle(&click(30, own)), Ask::Nothing);
    assert_eq!(lobby.handle(&click(30, own)), Ask::Nothing);
    assert!(
        lobby
            .message
            .as_ref()
            .unwrap()
            .0
            .contains("your own challenge")
    );
    // The wheel moves the selection a line a step, within the list.
    for kind in [MouseEventKind::ScrollUp, MouseEventKind::ScrollUp] {
        lobby.handle(&wheel(kind));
    }
    assert_eq!(lobby.selected, 0);
    for _ in 0..5 {
        lobby.handle(&wheel(MouseEventKind::ScrollDown));
    }
    assert_eq!(lobby.selected, 2);
    // In the help, a click closes it and does nothing else.
    lobby.handle(&key(KeyCode::Char('?')));
    assert!(drawn(&mut lobby).iter().any(|l| l.contains("this help")));
    assert_eq!(lobby.handle(&click(30, carol)), Ask::Nothing);
    assert!(drawn(&mut lobby).iter().any(|l| l.contains("by carol")));
    assert_eq!(lobby.selected, 2);
}

#[test]
fn in_the_form_a_click_picks_a_field_and_a_second_click_changes_it() {
    let mut lobby = Lobby::new((1, "alice".to_string()));
    lobby.handle(&key(KeyCode::Char('c')));
    let screen = drawn(&mut lobby);
    let size = row_of(&screen, "Size");
    assert_eq!(lobby.handle(&click(10, size)), Ask::Nothing);
    assert!(drawn(&mut lobby)[usize::from(size)].contains("> Size"));
    lobby.handle(&click(10, size));
    assert!(drawn(&mut lobby)[usize::from(size)].contains("14×14"));
    lobby.handle(&wheel(MouseEventKind::ScrollDown));
    lobby.handle(&click(10, row_of(&screen, "Game")));
    lobby.handle(&click(10, row_of(&screen, "Game")));
    let Ask::Challenge(spec) = lobby.handle(&key(KeyCode::Enter)) else {
        panic!("Enter makes the challenge");
    };
    assert_eq!(spec.setup.game, quentin_rules::Game::Konobi);
}

#[test]
fn it_draws_in_any_size_without_a_panic() {
    let lobby = Lobby::new((1, "alice".to_string()));
    for (w, h) in [(0, 0), (1, 1), (5, 3), (80, 24), (400, 150)] {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        lobby.draw(area, &mut buf, true);
    }
}

#[test]
fn a_challenge_line_says_the_challenger_s_rating_and_who_moves_first() {
    let mut lobby = Lobby::new((1, "alice".to_string()));
    lobby.board.challenges = [
        (7, 2, "bob", "me"),
        (8, 1, "alice", "you"),
        (9, 3, "carol", "you"),
    ]
    .map(|(id, by, name, first)| ChallengeView {
        id,
        by,
        by_name: name.to_string(),
        setup: quentin_rules::Setup::new(quentin_rules::Game::Quentin),
        first: first.to_string(),
        clock: super::super::spec::TimeControl::Live {
            minutes: 5,
            increment: 3,
        },
        rated: true,
        to: None,
        by_rating: if by == 2 { "1612" } else { "1500?" }.to_string(),
    })
    .to_vec();
    lobby.board.online = vec!["alice new".to_string(), "bob quentin 1612".to_string()];
    let screen = drawn(&mut lobby).join("\n");
    assert!(screen.contains("by bob 1612, bob moves first"), "{screen}");
    assert!(
        screen.contains("by alice 1500?, they move first"),
        "{screen}"
    );
    assert!(
        screen.contains("by carol 1500?, you move first"),
        "{screen}"
    );
    assert!(
        screen.contains("Online (2): alice new, bob quentin 1612"),
        "{screen}"
    );
}

#[test]
fn the_form_opens_again_as_the_last_challenge_was_and_takes_a_typed_clock() {
    let mut lobby = Lobby::new((1, "alice".to_string()));
    lobby.handle(&key(KeyCode::Char('c')));
    // Konobi, then down to the clock (Game, Size, Pie rule, First, Clock): 7+3, typed.
    lobby.handle(&key(KeyCode::Right));
    for _ in 0..4 {
        lobby.handle(&key(KeyCode::Down));
    }
    for c in "7+3".chars() {
        assert_eq!(lobby.handle(&key(KeyCode::Char(c))), Ask::Nothing);
    }
    assert!(
        drawn(&mut lobby)
            .iter()
            .any(|l| l.contains("> Clock      7+3_"))
    );
    let Ask::Challenge(spec) = lobby.handle(&key(KeyCode::Enter)) else {
        panic!("Enter makes the challenge");
    };
    assert_eq!(spec.summary(), "konobi 11x11 pie on, 7+3, rated");
    // The next form is the same, for anybody: Enter makes the same challenge again.
    lobby.handle(&key(KeyCode::Char('c')));
    let Ask::Challenge(again) = lobby.handle(&key(KeyCode::Enter)) else {
        panic!("Enter makes the challenge");
    };
    assert_eq!(again, spec);
    // A typed clock that is not one keeps the form open, saying why.
    lobby.handle(&key(KeyCode::Char('c')));
    for _ in 0..4 {
        lobby.handle(&key(KeyCode::Down));
    }
    for k in [KeyCode::Backspace; 3] {
        lobby.handle(&key(k));
    }
    for c in "0+5".chars() {
        lobby.handle(&key(KeyCode::Char(c)));
    }
    assert_eq!(lobby.handle(&key(KeyCode::Enter)), Ask::Nothing);
    let screen = drawn(&mut lobby).join("\n");
    assert!(
        screen.contains("Refused: bad clock: minutes from 1 to 180."),
        "{screen}"
    );
    // Typed days.
    for k in [KeyCode::Backspace, KeyCode::Backspace, KeyCode::Backspace] {
        lobby.handle(&key(k));
    }
    for c in "2d".chars() {
        lobby.handle(&key(KeyCode::Char(c)));
    }
    let Ask::Challenge(days) = lobby.handle(&key(KeyCode::Enter)) else {
        panic!("Enter makes the challenge");
    };
    assert_eq!(days.clock, super::super::spec::TimeControl::Days(2));
}
