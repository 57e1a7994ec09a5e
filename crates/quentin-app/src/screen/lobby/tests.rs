//! The lobby's keys, mouse and drawing, tested on its plain data.

use super::*;
use crate::screen::shown;
use quentin_record::spec::{First, TimeControl};

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
    Screen::draw(lobby, area, &mut buf);
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
        .map(|(id, by, name)| Challenge {
            id,
            by,
            by_name: name.to_string(),
            spec: Spec {
                setup: quentin_rules::Setup::new(quentin_rules::Game::Quentin),
                first: First::Random,
                clock: TimeControl::Days(1),
                rated: true,
                to: None,
            },
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
    let mut lobby = Lobby::new((1, "alice".to_string()));
    for (w, h) in [(0, 0), (1, 1), (5, 3), (80, 24), (400, 150)] {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        Screen::draw(&mut lobby, area, &mut buf);
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
    .map(|(id, by, name, first)| Challenge {
        id,
        by,
        by_name: name.to_string(),
        spec: Spec {
            setup: quentin_rules::Setup::new(quentin_rules::Game::Quentin),
            first: First::from_name(first).unwrap(),
            clock: TimeControl::Live {
                minutes: 5,
                increment: 3,
            },
            rated: true,
            to: None,
        },
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
    assert_eq!(days.clock, TimeControl::Days(2));
    // A typed bank, as Little Golem's: hours in the bank, hours more a move.
    lobby.handle(&key(KeyCode::Char('c')));
    // Down to the clock, the form's typed `2d` rubbed out.
    for k in [KeyCode::Down, KeyCode::Down, KeyCode::Down, KeyCode::Down] {
        lobby.handle(&key(k));
    }
    for k in [KeyCode::Backspace, KeyCode::Backspace] {
        lobby.handle(&key(k));
    }
    for c in "240+36h".chars() {
        lobby.handle(&key(KeyCode::Char(c)));
    }
    let screen = drawn(&mut lobby).join("\n");
    assert!(screen.contains("240+36h_"), "{screen}");
    let Ask::Challenge(bank) = lobby.handle(&key(KeyCode::Enter)) else {
        panic!("Enter makes the challenge");
    };
    assert_eq!(
        bank.clock,
        TimeControl::Bank {
            hours: 240,
            increment: 36
        }
    );
}

#[test]
fn p_opens_the_puzzles_and_the_puzzle_leaderboard_is_drawn() {
    let mut lobby = Lobby::new((1, "alice".to_string()));
    lobby.board.puzzle_leaders = vec!["bob                   1712 RD 80 (40 puzzles)".to_string()];
    let lines = drawn(&mut lobby);
    let at = lines
        .iter()
        .position(|l| l.contains("Puzzle leaderboard (p solves puzzles)"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(
        lines[at + 1].contains("bob                   1712 RD 80 (40 puzzles)"),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("p puzzles  l learn  t tournaments  ? help  q quit"))
    );
    assert_eq!(lobby.handle(&key(KeyCode::Char('p'))), Ask::Puzzles);
}

/// A lobby with a little of everything on its board.
fn busy_lobby() -> Lobby {
    let mut lobby = Lobby::new((1, "alice".to_string()));
    let spec = |first, to: Option<&str>| Spec {
        setup: quentin_rules::Setup::new(quentin_rules::Game::Quentin),
        first,
        clock: TimeControl::Live {
            minutes: 5,
            increment: 3,
        },
        rated: true,
        to: to.map(str::to_string),
    };
    lobby.board = Board {
        motd: vec!["Welcome to the test server.".to_string()],
        online: vec!["alice new".to_string(), "bob quentin 1612".to_string()],
        challenges: vec![
            Challenge {
                id: 7,
                by: 2,
                by_name: "bob".to_string(),
                by_rating: "1612".to_string(),
                spec: spec(First::Me, Some("alice")),
            },
            Challenge {
                id: 8,
                by: 1,
                by_name: "alice".to_string(),
                by_rating: "1500?".to_string(),
                spec: spec(First::Random, None),
            },
        ],
        more_challenges: 3,
        mine: vec![GameLine {
            id: 12,
            text: "#12 quentin vs bob: your turn, 4:58".to_string(),
            going: true,
        }],
        live: vec![GameLine {
            id: 13,
            text: "#13 konobi carol vs dave, 9 actions".to_string(),
            going: true,
        }],
        recent: vec!["#11 quentin: bob won by a chain".to_string()],
        leaders: vec!["quentin  small bob                   1612 RD 80 (12 games)".to_string()],
        puzzle_leaders: vec!["bob                   1712 RD 80 (40 puzzles)".to_string()],
        tournaments: vec![Tournament {
            id: 3,
            summary: "t3 swiss quentin 9 open 2/8 by bob".to_string(),
            table: vec![
                "swiss quentin 9x9, clock 10+5, rated, by bob".to_string(),
                "open, 2 joined (at least 4), starts 2026-12-07 14:05:00 UTC, in 0:12:34"
                    .to_string(),
                "Rank Name  Points Buchholz Sonneborn-Berger".to_string(),
                "   1 bob        0        0                0".to_string(),
                "   2 carol      0        0                0".to_string(),
            ],
            players: 2,
        }],
    };
    lobby
}

#[test]
fn the_lobby_at_80x24_and_on_a_tiny_screen() {
    let mut lobby = busy_lobby();
    insta::assert_snapshot!("lobby_80x24", shown(&mut lobby, 80, 24));
    insta::assert_snapshot!("lobby_30x8", shown(&mut lobby, 30, 8));
    lobby.say("Challenge #8 withdrawn.", false);
    lobby.handle(&key(KeyCode::Char('t')));
    insta::assert_snapshot!("lobby_tournaments_80x24", shown(&mut lobby, 80, 24));
}

#[test]
fn the_form_at_80x24_and_on_a_tiny_screen() {
    let mut lobby = busy_lobby();
    lobby.handle(&key(KeyCode::Char('c')));
    insta::assert_snapshot!("form_80x24", shown(&mut lobby, 80, 24));
    insta::assert_snapshot!("form_30x8", shown(&mut lobby, 30, 8));
    lobby.handle(&key(KeyCode::Enter));
    lobby.challenge_refused("no player is called bob".to_string(), true);
    insta::assert_snapshot!("form_refused_80x24", shown(&mut lobby, 80, 24));
}

#[test]
fn the_lobby_leaves_for_a_game_and_asks_the_driver_to_accept_a_challenge() {
    let mut lobby = busy_lobby();
    // The first line, bob's challenge: accepting it is the driver's work.
    assert_eq!(
        Screen::handle(&mut lobby, &key(KeyCode::Enter)),
        Step::Ask(Ask::Accept(7))
    );
    // Down to game 12: opening it leaves the lobby.
    for _ in 0..2 {
        assert_eq!(Screen::handle(&mut lobby, &key(KeyCode::Down)), Step::Stay);
    }
    assert_eq!(
        Screen::handle(&mut lobby, &key(KeyCode::Enter)),
        Step::Leave(Exit::Open(12))
    );
    assert_eq!(
        Screen::handle(&mut lobby, &key(KeyCode::Char('q'))),
        Step::Leave(Exit::Quit)
    );
}

#[test]
fn words_that_make_no_tournament_stay_on_their_line_saying_why() {
    let mut lobby = busy_lobby();
    lobby.handle(&key(KeyCode::Char('t')));
    lobby.handle(&key(KeyCode::Char('n')));
    for c in "swiss".chars() {
        lobby.handle(&key(KeyCode::Char(c)));
    }
    assert_eq!(
        lobby.handle(&key(KeyCode::Enter)),
        Ask::CreateTournament("swiss".to_string())
    );
    lobby.tournament_words(Err("a tournament needs a game".to_string()));
    let screen = shown(&mut lobby, 80, 24);
    assert!(screen.contains("> swiss_"), "{screen}");
    assert!(screen.contains("a tournament needs a game"), "{screen}");
    lobby.tournament_words(Ok(()));
    let screen = shown(&mut lobby, 80, 24);
    assert!(!screen.contains("> swiss_"), "{screen}");
    assert!(screen.contains("> t3 swiss"), "{screen}");
}
