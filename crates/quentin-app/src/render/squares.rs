//! Brique's board: a checkered board of light and dark squares, two screen columns each, with
//! the stone in the left column and a mark in the right one (an escort of the cursor's square,
//! or a stone the move at the cursor would remove).
//!
//! With colours the squares have their own backgrounds, the same on dark and light terminals;
//! without colours the dark squares are textured.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Paint, Modifier, Style};
use ratatui::text::{Line, Span};

use crate::rules::brique::{escorts, is_light};
use crate::rules::{Action, Point};

use super::{App, BoardGeometry, BoardStyle, Glyphs, Look, Palette, draw_frame, paint, put};

/// The squares' own colours, from the 256-colour palette.
mod tint {
    use super::Paint;
    pub const LIGHT: Paint = Paint::Indexed(180);
    pub const DARK: Paint = Paint::Indexed(94);
    /// Marks on a light square and on a dark one.
    pub const MARK: [Paint; 2] = [Paint::Indexed(160), Paint::Indexed(220)];
}

/// How squares and what stands on them are drawn: index 0 for light squares, 1 for dark ones
/// where a pair is by square, by colour of stone elsewhere.
struct Squares {
    /// The background of each kind of square.
    ground: [Style; 2],
    /// What fills an empty column of each kind of square: a texture on dark squares without
    /// colours.
    texture: [&'static str; 2],
    stone: [&'static str; 2],
    last: [&'static str; 2],
    fill: [&'static str; 2],
    /// The stone colours, laid over a square's background.
    ink: [Style; 2],
    /// The marks' style on each kind of square.
    mark: [Style; 2],
    escort: &'static str,
    removal: &'static str,
    cursor: Style,
}

impl Squares {
    fn new(look: Look, glyphs: &Glyphs, palette: &Palette) -> Squares {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let ascii = look.ascii;
        if !look.color {
            return Squares {
                ground: [Style::new(); 2],
                texture: [" ", if ascii { ":" } else { "░" }],
                stone: glyphs.stone,
                last: glyphs.last,
                fill: glyphs.fill,
                ink: [Style::new(); 2],
                mark: [bold; 2],
                escort: "+",
                removal: if ascii { "*" } else { "×" },
                cursor: bold.add_modifier(Modifier::REVERSED),
            };
        }
        // On coloured squares both colours can be solid discs: the colour tells them apart.
        let solid = |pair: [&'static str; 2]| if ascii { pair } else { [pair[0]; 2] };
        let ink = |i: usize| Style::new().fg(palette.stone[i].fg.unwrap_or(Paint::Reset));
        Squares {
            ground: [Style::new().bg(tint::LIGHT), Style::new().bg(tint::DARK)],
            texture: [" "; 2],
            stone: solid(glyphs.stone),
            last: solid(glyphs.last),
            fill: solid(glyphs.fill),
            ink: [ink(0), ink(1)],
            mark: [
                bold.fg(tint::MARK[0]).bg(tint::LIGHT),
                bold.fg(tint::MARK[1]).bg(tint::DARK),
            ],
            escort: "+",
            removal: if ascii { "*" } else { "×" },
            cursor: Style::new().bg(paint::CURSOR),
        }
    }
}

/// 0 for a light square, 1 for a dark one.
fn kind(p: Point) -> usize {
    usize::from(!is_light(p))
}

/// Draws Brique's board in `area`: the squares, the stones, and while playing the cursor's
/// square, its escorts and what playing there would fill and remove; the winning chain once won.
pub(super) fn draw_squares(
    app: &App,
    area: Rect,
    buf: &mut Buffer,
    glyphs: &Glyphs,
    palette: &Palette,
) -> BoardGeometry {
    let position = app.position();
    let board = position.board();
    let (geometry, playing) = draw_frame(app, BoardStyle::Squares, area, buf, glyphs, palette);
    let look = Squares::new(app.look(), glyphs, palette);
    let cursor = app.cursor();
    let last = app.last_placement();
    for p in board.points() {
        let (x, y) = geometry.cell(p);
        let k = kind(p);
        let ground = look.ground[k];
        put(buf, x + 1, y, look.texture[k], ground);
        match board.get(p) {
            Some(color) => {
                let i = color.index();
                let style = ground.patch(look.ink[i]).add_modifier(Modifier::BOLD);
                if Some(p) == last {
                    put(buf, x, y, look.last[i], style.patch(palette.last));
                } else {
                    put(buf, x, y, look.stone[i], style);
                }
            }
            None => put(buf, x, y, look.texture[k], ground),
        }
    }
    if playing {
        for e in escorts(board.size(), cursor) {
            let (x, y) = geometry.cell(e);
            put(buf, x + 1, y, look.escort, look.mark[kind(e)]);
        }
        if board.is_empty_at(cursor) {
            let (x, y) = geometry.cell(cursor);
            match position.preview(Action::Place(cursor)) {
                Ok(effect) => {
                    for (p, color) in effect.fills() {
                        let (x, y) = geometry.cell(p);
                        let ground = look.ground[kind(p)];
                        if board.is_empty_at(p) {
                            put(
                                buf,
                                x,
                                y,
                                look.fill[color.index()],
                                ground.patch(look.ink[color.index()]),
                            );
                        }
                    }
                    for (p, _) in effect.removals() {
                        let (x, y) = geometry.cell(p);
                        put(buf, x + 1, y, look.removal, look.mark[kind(p)]);
                    }
                }
                Err(_) => put(buf, x, y, glyphs.illegal, look.mark[kind(cursor)]),
            }
        }
        let (x, y) = geometry.cell(cursor);
        paint(buf, x, y, look.cursor);
        paint(buf, x + 1, y, look.cursor);
    }
    if let Some(outcome) = position.outcome() {
        for p in outcome.line().iter() {
            let (x, y) = geometry.cell(p);
            paint(buf, x, y, palette.chain);
            paint(buf, x + 1, y, palette.chain);
        }
    }
    geometry
}

/// The panel's lines about the squares and the marks on them: the cursor's marks only while
/// `playing`, when the board shows a cursor.
pub(super) fn legend<'a>(
    look: Look,
    playing: bool,
    glyphs: &Glyphs,
    palette: &Palette,
) -> Vec<Line<'a>> {
    let squares = Squares::new(look, glyphs, palette);
    let chip = |k: usize| Span::styled(squares.texture[k].repeat(2), squares.ground[k]);
    let kinds = if look.color {
        vec![
            chip(0),
            Span::raw(" light square  "),
            chip(1),
            Span::raw(" dark square"),
        ]
    } else {
        vec![chip(1), Span::raw(" dark square, blank: light")]
    };
    let mut lines = vec![Line::from(kinds)];
    if playing {
        lines.extend([
            Line::from(vec![
                Span::styled(format!(" {}", squares.escort), squares.mark[0]),
                Span::raw(" escort of the cursor's square"),
            ]),
            Line::from(vec![
                Span::styled(format!(" {}", squares.removal), squares.mark[0]),
                Span::raw(" a stone the move there removes"),
            ]),
        ]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::{played, press};
    use crate::render::tests::{draw_app, with_marks};
    use crate::rules::Game;

    /// docs/rules.md's example, one White stone (a1) added to give Black the move: Black c4
    /// fills d4 and c3, removing White's c3.
    const BEFORE_C4: &str = "d5 c3 e5 d3 a3 d2 b3 a1";

    fn before_c4(look: Look) -> App {
        let mut app = played(Game::Brique, look, 5, false, BEFORE_C4);
        press(&mut app, "k");
        app
    }

    #[test]
    fn escorts_fills_and_removals_are_marked_on_coloured_squares() {
        let mut app = before_c4(Look::FULL);
        let terminal = draw_app(&mut app, 70, 20);
        // `#` marks the dark squares.
        insta::assert_snapshot!(with_marks(&terminal, |s| s.bg == Some(tint::DARK)));
    }

    #[test]
    fn without_colours_dark_squares_are_textured() {
        for ascii in [false, true] {
            let look = Look {
                ascii,
                color: false,
            };
            let mut app = before_c4(look);
            let terminal = draw_app(&mut app, 70, 20);
            insta::assert_snapshot!(format!("ascii_{ascii}"), terminal.backend());
        }
    }

    #[test]
    fn fifteen_squares_fit_80x24() {
        let moves = "h8 swap g8 j10 e6 k5 c12 h9 d3 g9 i8";
        let mut app = played(Game::Brique, Look::FULL, 15, true, moves);
        press(&mut app, "kh");
        insta::assert_snapshot!(draw_app(&mut app, 80, 24).backend());
    }

    #[test]
    fn the_legend_explains_the_cursors_marks_only_while_there_is_a_cursor() {
        let mut app = played(Game::Brique, Look::FULL, 3, false, "a1 c1 a2 c2");
        let screen = draw_app(&mut app, 70, 20).backend().to_string();
        assert!(screen.contains("escort of the cursor's square"), "{screen}");
        assert!(
            screen.contains("a stone the move there removes"),
            "{screen}"
        );
        let mut app = played(Game::Brique, Look::FULL, 3, false, "a1 c1 a2 c2 a3");
        assert!(app.position().is_over());
        let screen = draw_app(&mut app, 70, 20).backend().to_string();
        assert!(screen.contains("Black wins!"), "{screen}");
        assert!(!screen.contains("escort"), "{screen}");
        assert!(!screen.contains("removes"), "{screen}");
        assert!(screen.contains("dark square"), "{screen}");
    }

    #[test]
    fn playing_a_fill_says_what_it_filled_and_removed() {
        let mut app = before_c4(Look::FULL);
        assert_eq!(app.cursor(), Point::new(2, 3));
        press(&mut app, "\n");
        assert_eq!(
            app.message().map(|m| m.text.as_str()),
            Some("Black played c4, filling 2 squares with black, removing white c3.")
        );
        assert!(app.record_text().ends_with("b3\na1\nc4\n"));
        let board = app.position().board();
        for square in ["c4", "d4", "c3"] {
            let p = Point::parse(square).unwrap();
            assert_eq!(board.get(p), Some(crate::rules::Color::Black), "{square}");
        }
    }

    #[test]
    fn every_window_size_draws_without_panicking() {
        for size in [3, 15, 26] {
            let app = played(Game::Brique, Look::FULL, size, true, "a1");
            for width in (0..110).step_by(3) {
                for height in 0..36 {
                    let area = Rect::new(0, 0, width, height);
                    let mut buf = Buffer::empty(area);
                    if let Some(board) = crate::render::draw(&app, area, &mut buf).board {
                        let (x, y) = board.cell(Point::new(board.size - 1, 0));
                        assert!(x + 1 < width && y < height, "{width}x{height}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_click_on_either_column_of_a_square_picks_it() {
        let geometry = BoardGeometry {
            x: 4,
            y: 7,
            size: 5,
            style: BoardStyle::Squares,
        };
        let c3 = Point::new(2, 2);
        let (x, y) = geometry.cell(c3);
        assert_eq!(geometry.point_at(x, y), Some(c3));
        assert_eq!(geometry.point_at(x + 1, y), Some(c3));
        assert_eq!(geometry.point_at(x + 2, y), Some(Point::new(3, 2)));
        assert_eq!(geometry.point_at(x + 6, y), None);
    }
}
