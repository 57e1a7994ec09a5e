//! Whole screens drawn on a test terminal, and snapshots of them.

use super::*;
use crate::app::tests::{after, after_with, game, press};
use crate::game_line::GameLine;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color as Paint;

/// Draws `app` on a `width`×`height` test terminal, as the run loop does.
pub(crate) fn draw_app(app: &mut App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let mut geometry = Geometry::default();
    terminal
        .draw(|frame| geometry = render(app, frame))
        .unwrap();
    app.set_geometry(geometry);
    terminal
}

/// The screen as text, then one line per board row marking with `#` the cells whose
/// style satisfies `marked`.
pub(super) fn with_marks(
    terminal: &Terminal<TestBackend>,
    marked: impl Fn(Style) -> bool,
) -> String {
    let buf = terminal.backend().buffer();
    let mut out = format!("{}\n", terminal.backend());
    for y in 0..buf.area.height {
        let row: String = (0..buf.area.width)
            .map(|x| {
                let cell = &buf[(x, y)];
                if marked(cell.style()) { '#' } else { ' ' }
            })
            .collect();
        if row.contains('#') {
            out.push_str(&format!("{y:>2}|{}\n", row.trim_end()));
        }
    }
    out
}

#[test]
fn empty_5x5_board() {
    let mut app = game(5, true);
    let terminal = draw_app(&mut app, 60, 18);
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn fill_preview_of_the_rules_worked_example() {
    // docs/rules.md: Black e3 fills d5 d4 d3 c3 b3 a3 with black.
    let mut app = after(5, false, "e5 c5 a4 c4 b4 e4 b2 a2 c2 d2");
    press(&mut app, "ll");
    let terminal = draw_app(&mut app, 60, 18);
    let fill = Palette::new(Look::FULL).fill[0];
    insta::assert_snapshot!(with_marks(&terminal, |s| s == fill));
}

#[test]
fn a_won_game_highlights_the_winning_chain() {
    let mut app = after(3, false, "b2 a1 b1 c1 b3");
    let terminal = draw_app(&mut app, 60, 16);
    let chain = Palette::new(Look::FULL).chain;
    insta::assert_snapshot!(with_marks(&terminal, |s| s.bg == chain.bg));
}

#[test]
fn a_too_small_terminal_asks_for_a_larger_window() {
    let mut app = game(13, true);
    let terminal = draw_app(&mut app, 40, 10);
    insta::assert_snapshot!(terminal.backend());
    // And no board to click on.
    let mut buf = Buffer::empty(Rect::new(0, 0, 40, 10));
    assert_eq!(
        draw(&app, buf.area, &mut buf),
        Geometry {
            hidden: true,
            ..Geometry::default()
        }
    );
}

#[test]
fn thirteen_fits_80x24_with_a_game_in_progress() {
    let mut app = after(13, true, "g7 swap f6 h7 f7 g8 e6 h6 f5 g9 e5 h9 f4");
    press(&mut app, "hk");
    let terminal = draw_app(&mut app, 80, 24);
    // `#` marks the white stones: with colours both are discs, white ones light.
    let white = Palette::new(Look::FULL).stone[1];
    insta::assert_snapshot!(with_marks(&terminal, |s| s.fg == white.fg));
}

#[test]
fn white_stones_are_light_discs_with_colours_and_rings_without() {
    use crate::app::tests::played;
    let looks = [
        Look::FULL,
        Look {
            ascii: false,
            color: false,
        },
        Look {
            ascii: true,
            color: true,
        },
        Look {
            ascii: true,
            color: false,
        },
    ];
    // White's h6 is the last stone placed, Black's g6 the one before.
    let moves = "g7 h8 g6 h6";
    for game in [Game::Quentin, Game::Konobi] {
        for look in looks {
            let app = played(game, look, 13, false, moves);
            let area = Rect::new(0, 0, 80, 24);
            let mut buf = Buffer::empty(area);
            let board = draw(&app, area, &mut buf).board.unwrap();
            let drawn = |p: &str| {
                let cell = &buf[board.cell(Point::parse(p).unwrap())];
                (cell.symbol().to_string(), cell.fg)
            };
            let (black, white) = (drawn("g7"), drawn("h8"));
            let (black_last, white_last) = (drawn("g6"), drawn("h6"));
            let expected = match (look.ascii, look.color) {
                (true, _) => ["X", "O"],
                (false, true) => ["●", "●"],
                (false, false) => ["●", "○"],
            };
            assert_eq!([&*black.0, &*white.0], expected, "{game} {look:?}");
            if look.color {
                assert_eq!(white.1, Paint::Indexed(231), "{game} {look:?}");
                assert_eq!(black.1, Paint::Indexed(16), "{game} {look:?}");
            } else {
                assert_eq!(white.1, Paint::Reset, "{game} {look:?}");
            }
            // Told apart in every look, the last stones as well.
            assert_ne!(black, white, "{game} {look:?}");
            assert_ne!(black_last, white_last, "{game} {look:?}");
        }
    }
    // Quint's pieces and Brique's stones keep their own glyphs: a white Quint piece is a ring.
    let mut app = played(Game::Quint, Look::FULL, 8, false, "d4 e5");
    let screen = draw_app(&mut app, 80, 24).backend().to_string();
    assert!(screen.contains('○'), "{screen}");
}

#[test]
fn ascii_without_colour_stays_readable() {
    let look = Look {
        ascii: true,
        color: false,
    };
    let mut app = after_with(look, 5, false, "e5 c5 a4 c4 b4 e4 b2 a2 c2 d2");
    press(&mut app, "ll");
    let terminal = draw_app(&mut app, 60, 18);
    let buf = terminal.backend().buffer();
    for cell in buf.content() {
        assert!(cell.symbol().is_ascii(), "{:?}", cell.symbol());
        assert_eq!(cell.fg, Paint::Reset);
        assert_eq!(cell.bg, Paint::Reset);
    }
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn a_replay_highlights_the_shown_action() {
    let record = crate::record::Record::parse("size 5\nc3 swap b2 e5 a5\n").unwrap();
    let mut app = App::replay(&record, 3, Look::FULL);
    let terminal = draw_app(&mut app, 60, 18);
    let current = Palette::new(Look::FULL).current;
    insta::assert_snapshot!(with_marks(&terminal, |s| s.add_modifier == current.add_modifier));
}

#[test]
fn every_window_size_draws_without_panicking() {
    let mut apps = vec![
        game(3, true),
        after(5, false, "e5 c5 a4 c4 b4 e4 b2 a2 c2 d2"),
        after(3, false, "b2 a1 b1 c1 b3"),
        game(26, true),
    ];
    let mut help = game(13, true);
    help.set_record_path("/a/very/long/path/to/the/record/file/of/this/game.txt".into());
    press(&mut help, "?");
    apps.push(help);
    for app in &apps {
        for width in (0..110).step_by(3) {
            for height in 0..36 {
                let area = Rect::new(0, 0, width, height);
                let mut buf = Buffer::empty(area);
                let geometry = draw(app, area, &mut buf);
                if let Some(board) = geometry.board {
                    let (x, y) = board.cell(Point::new(board.size - 1, 0));
                    assert!(x < width && y < height, "{width}x{height}");
                }
            }
        }
    }
}

#[test]
fn points_map_to_cells_and_back() {
    let g = BoardGeometry {
        x: 7,
        y: 3,
        size: 19,
        style: BoardStyle::Points,
    };
    for col in 0..19 {
        for row in 0..19 {
            let p = Point::new(col, row);
            let (x, y) = g.cell(p);
            assert_eq!(g.point_at(x, y), Some(p));
            assert_eq!(g.point_at(x + 1, y), None);
        }
    }
    assert_eq!(g.point_at(6, 3), None);
    assert_eq!(g.point_at(7, 2), None);
}

#[test]
fn a_winning_placement_says_so_before_it_is_played() {
    let mut app = after(3, false, "b1 a1 b2 a2");
    press(&mut app, "k");
    let screen = draw_app(&mut app, 60, 18).backend().to_string();
    // b3 completes Black's column (and fills a3 white, a tie going to White).
    assert!(
        screen.contains("b3: legal, fills 1 point with white,"),
        "{screen}"
    );
    assert!(screen.contains("│ wins for Black"), "{screen}");
    press(&mut app, "j");
    press(&mut app, "l");
    let screen = draw_app(&mut app, 60, 18).backend().to_string();
    assert!(screen.contains("c2: legal"), "{screen}");
    assert!(!screen.contains("wins for"), "{screen}");
}

/// Online Quentin 5×5, pie on, after Black's (alice's) c3, seen from `seat`.
fn online_after_c3(online: crate::app::Online) -> App {
    let local = after(5, true, "c3");
    let line = GameLine::replay(local.position_at(0).clone(), local.actions()).unwrap();
    App::online(line, online, Look::FULL)
}

#[test]
fn an_online_game_names_its_players_and_a_watcher_is_offered_no_swap() {
    use crate::app::tests::online;
    let bob = online_after_c3(crate::app::Online {
        running: Some(1),
        watchers: 2,
        tournament: None,
        ..online(Some(1))
    });
    let mut bob = bob;
    let screen = draw_app(&mut bob, 80, 24).backend().to_string();
    assert!(screen.contains("White to move: you"), "{screen}");
    assert!(screen.contains("s swaps colours"), "{screen}");
    assert!(screen.contains("2 watchers"), "{screen}");
    let mut carol = online_after_c3(crate::app::Online {
        running: Some(1),
        watchers: 1,
        tournament: None,
        ..online(None)
    });
    let screen = draw_app(&mut carol, 80, 24).backend().to_string();
    assert!(screen.contains("White to move: bob"), "{screen}");
    assert!(!screen.contains("swaps"), "{screen}");
    assert!(screen.contains("watching"), "{screen}");
}

#[test]
fn an_online_game_resigned_shows_the_viewers_result_and_no_stale_offer() {
    use crate::app::tests::online;
    let mut bob = online_after_c3(crate::app::Online {
        result: Some(crate::app::Finish {
            end: crate::game_end::GameEnd::Won {
                by: crate::rules::Color::Black,
                how: crate::game_end::How::Resignation,
            },
            black: crate::game_end::Seat::First,
            actions: 1,
        }),
        rated: true,
        changes: Some([12, -12]),
        ratings: ["1512?".to_string(), "1488?".to_string()],
        connected: [true, false],
        ..online(Some(1))
    });
    let terminal = draw_app(&mut bob, 80, 24);
    let screen = terminal.backend().to_string();
    assert!(!screen.contains("to move"), "{screen}");
    assert!(!screen.contains("swaps"), "{screen}");
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn a_low_clock_says_so() {
    use crate::app::tests::online;
    let mut alice = online_after_c3(crate::app::Online {
        left: [600_000, 9_000],
        running: Some(1),
        connected: [true, false],
        ..online(Some(0))
    });
    let screen = draw_app(&mut alice, 80, 24).backend().to_string();
    assert!(screen.contains("0:09 ◀ low time!"), "{screen}");
    assert!(screen.contains("bob (away)"), "{screen}");
}
