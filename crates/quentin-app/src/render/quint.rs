//! Quint's board of 8×8 cells and its lines in the side panel.
//!
//! Each cell is three columns wide inside a grid of lines: `[●]` is the cursor on a black piece.
//! In the move phase the selected piece shows as `>●<`, the cells it can reach as `·`, and during
//! a capture choice each piece to be taken as `×` and each spared one as `(○)`; colours repeat
//! these marks, so that they read without colour too.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Paint, Modifier, Style};
use ratatui::text::Line;

use crate::rules::{Action, Captures, Color, Point, Position};

use super::{Glyphs, Palette, draw_cursor, draw_stone, paint, put};
use crate::app::{App, Mode, Pick, capturable, cells_text, dropping, reachable, wins_text};

use crate::layout::{CELL_DX as DX, CELL_DY as DY, CellGeometry};

/// Quint's own marks, Unicode or ASCII.
struct Marks {
    vertical: &'static str,
    reachable: &'static str,
    taken: &'static str,
    spared: [&'static str; 2],
    selected: [&'static str; 2],
    /// Where the last step came from, and the pieces it took.
    trail: &'static str,
}

const UNICODE: Marks = Marks {
    vertical: "│",
    reachable: "·",
    taken: "×",
    spared: ["(", ")"],
    selected: [">", "<"],
    trail: "◌",
};

const ASCII: Marks = Marks {
    vertical: "|",
    reachable: ".",
    taken: "*",
    trail: "~",
    ..UNICODE
};

/// Backgrounds of the marked cells, from the 256-colour palette: readable on the board's wood
/// whatever the terminal's own colours.
mod tint {
    use super::Paint;
    pub const SELECTED: Paint = Paint::Indexed(172);
    pub const REACHABLE: Paint = Paint::Indexed(110);
    pub const TAKEN: Paint = Paint::Indexed(160);
    pub const SPARED: Paint = Paint::Indexed(250);
    /// The marks around the selected and the spared pieces, the dot on a reachable cell.
    pub const INK: Paint = Paint::Indexed(16);
    /// The cross on a piece to be taken.
    pub const CROSS: Paint = Paint::Indexed(231);
}

/// The style of a marked cell's inside: bold, in `fg` on `bg` with colours.
fn tinted(palette: &Palette, bg: Paint, fg: Paint) -> Style {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    if palette.wood == Style::new() {
        bold
    } else {
        bold.bg(bg).fg(fg)
    }
}

/// Draws the grid of cells, the pieces, the selection and its marks, the winning five and the
/// cursor into `area`.
pub(super) fn draw(
    app: &App,
    area: Rect,
    buf: &mut Buffer,
    glyphs: &Glyphs,
    palette: &Palette,
) -> CellGeometry {
    let position = app.position();
    let board = position.board();
    let n = board.size();
    let size = u16::try_from(n).unwrap_or(1);
    let marks = if app.look().ascii { &ASCII } else { &UNICODE };
    let geometry = CellGeometry {
        x: area.x + 4,
        y: area.y + 2,
        size: n,
    };
    let playing = app.mode() == Mode::Play && !position.is_over();
    let cursor = app.cursor();
    let (left, top) = (geometry.x - 1, geometry.y - 1);
    let (right, bottom) = (left + DX * size, top + DY * size);
    // The grid.
    for y in top..=bottom {
        let band = if y == top {
            0
        } else if y == bottom {
            2
        } else {
            1
        };
        for x in left..=right {
            let on_line = (x - left) % DX == 0;
            let symbol = match ((y - top) % DY == 0, on_line) {
                (true, true) => {
                    let across = if x == left {
                        0
                    } else if x == right {
                        2
                    } else {
                        1
                    };
                    glyphs.cross[band][across]
                }
                (true, false) => glyphs.line,
                (false, true) => marks.vertical,
                (false, false) => " ",
            };
            put(buf, x, y, symbol, palette.line);
        }
    }
    // The coordinates, the cursor's own highlighted.
    let label = |here: bool| {
        if playing && here {
            palette.label_here
        } else {
            palette.label
        }
    };
    for i in 0..n {
        let (x, y) = geometry.cell(Point::new(i, n - 1 - i));
        let letter = Point::new(i, 0).col_letter().to_string();
        let column = label(cursor.col() == i);
        put(buf, x, top - 1, &letter, column);
        put(buf, x, bottom + 1, &letter, column);
        let number = (n - i).to_string();
        let row = label(cursor.row() == n - 1 - i);
        buf.set_string(left - 3, y, format!("{number:>2}"), row);
        buf.set_string(right + 2, y, &number, row);
    }
    // Where the last step came from and what it took, faintly: the board alone then tells
    // what just happened.
    if let Some(Action::Step { from, captures, .. }) = app.last_action() {
        for p in std::iter::once(from).chain(captures.iter()) {
            if board.is_empty_at(p) {
                let (x, y) = geometry.cell(p);
                put(buf, x, y, marks.trail, palette.dim);
            }
        }
    }
    // The pieces, the last one moved or dropped ringed.
    let last = app.last_action().and_then(Action::point);
    for p in board.points() {
        let (x, y) = geometry.cell(p);
        if let Some(color) = board.get(p) {
            draw_stone(buf, (x, y), color, Some(p) == last, glyphs, palette);
        }
    }
    if playing {
        draw_pick(app.pick(), position, &geometry, buf, marks, palette);
    }
    // The winning five(s).
    if let Some(outcome) = position.outcome() {
        for p in outcome.line().iter() {
            let (x, y) = geometry.cell(p);
            for dx in 0..3 {
                paint(buf, x + dx - 1, y, palette.chain);
            }
        }
    }
    if playing {
        draw_cursor(buf, geometry.cell(cursor), glyphs, palette);
    }
    geometry
}

/// The selected piece, the cells it can reach, and the pieces a step would take or spare.
fn draw_pick(
    pick: Pick,
    position: &Position,
    geometry: &CellGeometry,
    buf: &mut Buffer,
    marks: &Marks,
    palette: &Palette,
) {
    let Some(from) = pick.selected() else {
        return;
    };
    // A mark on either side of the cell's middle, and `middle` (or the piece) in it.
    let mark = |buf: &mut Buffer, p: Point, pair: [&str; 2], middle: Option<&str>, style| {
        let (x, y) = geometry.cell(p);
        put(buf, x - 1, y, pair[0], style);
        match middle {
            Some(symbol) => put(buf, x, y, symbol, style),
            // The piece keeps its own colour.
            None => paint(buf, x, y, Style { fg: None, ..style }),
        }
        put(buf, x + 1, y, pair[1], style);
    };
    let reach = tinted(palette, tint::REACHABLE, tint::INK);
    mark(
        buf,
        from,
        marks.selected,
        None,
        tinted(palette, tint::SELECTED, tint::INK),
    );
    match pick {
        Pick::Captures {
            to,
            capturable,
            taken,
            ..
        } => {
            mark(buf, to, [" "; 2], Some(marks.reachable), reach);
            for p in capturable.iter() {
                if taken.contains(p) {
                    let style = tinted(palette, tint::TAKEN, tint::CROSS);
                    mark(buf, p, [" "; 2], Some(marks.taken), style);
                } else {
                    let style = tinted(palette, tint::SPARED, tint::INK);
                    mark(buf, p, marks.spared, None, style);
                }
            }
        }
        Pick::Piece(_) => {
            for p in reachable(position, from) {
                mark(buf, p, [" "; 2], Some(marks.reachable), reach);
            }
        }
        Pick::Nothing => {}
    }
}

/// The panel's lines about the pieces: in hand while dropping, and on the board.
pub(super) fn pieces_lines<'a>(position: &Position) -> Vec<Line<'a>> {
    let on_board = position.board().count();
    let mut lines = Vec::new();
    if let Some(hand) = position.in_hand()
        && dropping(position)
    {
        lines.push(Line::from(format!(
            "In hand:  White {:>2}, Black {:>2}",
            hand[Color::White.index()],
            hand[Color::Black.index()]
        )));
    }
    lines.push(Line::from(format!(
        "On board: White {:>2}, Black {:>2}",
        on_board[Color::White.index()],
        on_board[Color::Black.index()]
    )));
    lines
}

/// What the cursor's cell holds or what Enter would do there, and whether that is a refusal.
pub(super) fn cursor_text(app: &App) -> (String, bool) {
    let position = app.position();
    let cursor = app.cursor();
    let Some(mover) = position.to_move() else {
        return (String::new(), false);
    };
    let held = position.get(cursor);
    if dropping(position) {
        return match held {
            Some(color) => (format!("{cursor}: a {color} piece"), false),
            None => (
                format!(
                    "{cursor}: Enter drops a {mover} piece here{}",
                    wins_text(position, Action::Place(cursor))
                ),
                false,
            ),
        };
    }
    match app.pick() {
        Pick::Nothing => match held {
            Some(color) if color == mover => {
                if reachable(position, cursor).is_empty() {
                    (format!("{cursor}: this piece cannot move"), true)
                } else {
                    (format!("{cursor}: Enter selects this piece"), false)
                }
            }
            Some(color) => (format!("{cursor}: a {color} piece"), false),
            None => (
                format!("{}: select a {mover} piece to move", mover.capitalised()),
                false,
            ),
        },
        Pick::Piece(from) => {
            if reachable(position, from).contains(&cursor) {
                let takes = capturable(position, from, cursor);
                let can = if takes.is_empty() {
                    String::new()
                } else {
                    format!(", can take {}", cells_text(takes.iter()))
                };
                let plain = Action::Step {
                    from,
                    to: cursor,
                    captures: Captures::NONE,
                };
                let wins = wins_text(position, plain);
                (
                    format!("{from}-{cursor}: Enter moves here{can}{wins}"),
                    false,
                )
            } else {
                (
                    format!("{from} selected: Enter on a marked cell (Esc cancels)"),
                    false,
                )
            }
        }
        Pick::Captures {
            from, to, taken, ..
        } => {
            let action = Action::Step {
                from,
                to,
                captures: taken,
            };
            (
                format!(
                    "Enter plays {action}{}; Space or x on a marked piece takes or spares it",
                    wins_text(position, action)
                ),
                false,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Look;
    use crate::app::quint::tests::{
        THREE_CAPTURES, drawn_by_repetition, quint_app, three_captures,
    };
    use crate::app::tests::press;
    use crate::render::tests::{draw_app, with_marks};
    use crate::rules::{Game, Setup};

    #[test]
    fn the_drop_phase_fits_80x24_with_the_pieces_in_hand() {
        let setup = Setup {
            pieces: 15,
            ..Setup::new(Game::Quint)
        };
        let mut app = App::new(setup, Look::FULL).unwrap();
        press(&mut app, "\n<\n^\nv<\n");
        let terminal = draw_app(&mut app, 80, 24);
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn a_selected_piece_marks_the_cells_it_can_reach() {
        let mut app = three_captures();
        press(&mut app, "\n");
        let terminal = draw_app(&mut app, 80, 24);
        let reach = Some(tint::REACHABLE);
        insta::assert_snapshot!(with_marks(&terminal, |s| s.bg == reach));
    }

    #[test]
    fn the_capture_choice_marks_taken_and_spared_pieces() {
        let mut app = three_captures();
        // c4-c5, then spare c6.
        press(&mut app, "\nk\nk ");
        let terminal = draw_app(&mut app, 80, 24);
        insta::assert_snapshot!(with_marks(&terminal, |s| s.bg == Some(tint::TAKEN)));
    }

    #[test]
    fn the_capture_choice_reads_in_ascii_without_colour() {
        let look = Look {
            ascii: true,
            color: false,
        };
        let mut app = quint_app(THREE_CAPTURES, Color::White, look);
        press(&mut app, "hhj\nk\nk ");
        let terminal = draw_app(&mut app, 80, 24);
        for cell in terminal.backend().buffer().content() {
            assert!(cell.symbol().is_ascii(), "{:?}", cell.symbol());
            assert_eq!(cell.bg, Paint::Reset);
        }
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn the_last_step_leaves_a_trail_where_it_came_from_and_what_it_took() {
        let mut app = three_captures();
        // Select c4, step to c5, take every piece it can.
        press(&mut app, "\nk\n\n");
        let Some(Action::Step { captures, .. }) = app.last_action() else {
            panic!("a step was played: {:?}", app.last_action());
        };
        assert!(!captures.is_empty());
        let terminal = draw_app(&mut app, 80, 24);
        let buffer = terminal.backend().buffer();
        let trail = buffer
            .content()
            .iter()
            .filter(|c| c.symbol() == "◌")
            .count();
        assert_eq!(
            trail,
            1 + captures.len(),
            "the cell left and each piece taken"
        );
    }

    #[test]
    fn the_winning_five_is_highlighted() {
        let mut app = quint_app(
            "........|........|........|W.......|.WWWW...|........|........|BBBB....",
            Color::White,
            Look::FULL,
        );
        press(&mut app, "hhhh\nv\n");
        assert!(app.position().is_over());
        let terminal = draw_app(&mut app, 80, 24);
        let chain = Palette::new(Look::FULL).chain;
        insta::assert_snapshot!(with_marks(&terminal, |s| s.bg == chain.bg));
    }

    #[test]
    fn a_draw_by_repetition_has_a_banner() {
        let mut app = drawn_by_repetition();
        let screen = draw_app(&mut app, 80, 24).backend().to_string();
        assert!(screen.contains("★ Draw by repetition ★"), "{screen}");
        assert!(screen.contains("8 actions played"), "{screen}");
    }

    #[test]
    fn every_window_size_draws_quint_without_panicking() {
        let mut choosing = three_captures();
        press(&mut choosing, "\nk\nk ");
        let apps = [
            App::new(Setup::new(Game::Quint), Look::FULL).unwrap(),
            choosing,
            drawn_by_repetition(),
        ];
        for app in &apps {
            for width in (0..110).step_by(3) {
                for height in 0..36 {
                    let area = Rect::new(0, 0, width, height);
                    let mut buf = Buffer::empty(area);
                    let geometry = crate::render::draw(app, area, &mut buf);
                    if let Some(cells) = geometry.cells {
                        let (x, y) = cells.cell(Point::new(7, 0));
                        assert!(x + 1 < width && y < height, "{width}x{height}");
                    }
                }
            }
        }
    }

    #[test]
    fn cells_map_to_the_screen_and_back() {
        let g = CellGeometry {
            x: 4,
            y: 2,
            size: 8,
        };
        for i in 0..64 {
            let p = Point::new(i % 8, i / 8);
            let (x, y) = g.cell(p);
            for dx in [x - 1, x, x + 1] {
                assert_eq!(g.point_at(dx, y), Some(p));
            }
            assert_eq!(g.point_at(x + 2, y), None, "a line");
            assert_eq!(g.point_at(x, y + 1), None, "a line");
        }
        assert_eq!(g.point_at(3, 2), None);
        assert_eq!(g.point_at(4, 1), None);
    }
}
