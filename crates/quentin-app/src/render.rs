//! Drawing: a pure function of the [`App`] into a ratatui [`Buffer`], returning the screen
//! [`Geometry`] that mouse clicks are read against.
//!
//! The screen holds the board on the left and a side panel on the right. Each kind of board has
//! its own drawing function ([`BoardStyle`]); the board asks the position for its stones, the
//! preview of the action under the cursor and the winning chain, and knows no game's rules.

mod quint;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position as Cell, Rect};
use ratatui::style::Style;
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::rules::{Action, Board, Color, Game, Point};

use super::app::{App, Look, Mode, dimensions};

mod analysis;
mod course;
mod help;
mod konobi;
mod online;
mod palette;
mod panel;
mod puzzle;
mod review;
mod squares;

use crate::wrap::wrap;
use help::draw_help;
pub use online::clock_text;
use palette::{Palette, paint};

use panel::draw_panel;

use crate::layout::{BoardGeometry, BoardStyle, CellGeometry, Geometry, HelpGeometry};

/// The side panel's smallest useful width.
const PANEL_MIN_WIDTH: u16 = 34;
/// The side panel's largest width: wider would only spread its lines apart.
const PANEL_MAX_WIDTH: u16 = 50;
/// The side panel's smallest useful height.
const PANEL_MIN_HEIGHT: u16 = 16;
/// The characters the board is drawn with.
#[derive(Clone, Copy)]
struct Glyphs {
    stone: [&'static str; 2],
    last: [&'static str; 2],
    fill: [&'static str; 2],
    /// The edge marks along the top and bottom (Black's), left and right (White's).
    edge: [&'static str; 4],
    line: &'static str,
    /// Grid crossings, top row first: `[top, middle, bottom]` × `[left, inner, right]`.
    cross: [[&'static str; 3]; 3],
    cursor: [&'static str; 2],
    /// Drawn under the cursor on an empty point where the side to move may not play.
    illegal: &'static str,
    win: [&'static str; 2],
    border: border::Set<'static>,
}

const UNICODE: Glyphs = Glyphs {
    stone: ["●", "○"],
    last: ["◉", "◎"],
    fill: ["•", "◦"],
    edge: ["━", "━", "║", "║"],
    line: "─",
    cross: [["┌", "┬", "┐"], ["├", "┼", "┤"], ["└", "┴", "┘"]],
    cursor: ["[", "]"],
    illegal: "×",
    win: ["★ ", " ★"],
    border: border::PLAIN,
};

/// With colours, the edges are thick bars hugging the grid, in their owner's colour.
const BARS: [&str; 4] = ["▄", "▀", "▐", "▌"];

impl Glyphs {
    /// The glyphs of a board of `style` drawn with `look`.
    fn of(look: Look, style: BoardStyle) -> Glyphs {
        match (look.ascii, look.color) {
            (true, _) => ASCII,
            (false, false) => UNICODE,
            // On the wooden board of points a white ring is thin and hard to see: both stones
            // are solid discs there, told apart by their colours (a white disc, bold, on the
            // wood). Without colours the ring is what tells them apart, and stays.
            (false, true) if style == BoardStyle::Points => Glyphs {
                stone: [UNICODE.stone[0]; 2],
                last: [UNICODE.last[0]; 2],
                edge: BARS,
                ..UNICODE
            },
            (false, true) => Glyphs {
                edge: BARS,
                ..UNICODE
            },
        }
    }
}

/// Box borders in ASCII, for the panel and the help.
const ASCII_BORDER: border::Set = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

const ASCII: Glyphs = Glyphs {
    stone: ["X", "O"],
    last: ["X", "O"],
    fill: ["x", "o"],
    edge: ["=", "=", "|", "|"],
    line: "-",
    cross: [["+"; 3]; 3],
    cursor: ["[", "]"],
    illegal: "!",
    win: ["** ", " **"],
    border: ASCII_BORDER,
};

/// Draws `app` into `frame` and returns where things went.
pub fn render(app: &App, frame: &mut Frame) -> Geometry {
    let area = frame.area();
    draw(app, area, frame.buffer_mut())
}

/// Draws `app` into `area` of `buf` and returns where things went.
pub fn draw(app: &App, area: Rect, buf: &mut Buffer) -> Geometry {
    let look = app.look();
    let palette = Palette::new(look);
    let style = BoardStyle::of(app.setup().game);
    let glyphs = &Glyphs::of(look, style);
    let n = app.setup().size;
    let (board_w, board_h) = style.size(n);
    let need_w = board_w + 1 + PANEL_MIN_WIDTH;
    let need_h = board_h.max(PANEL_MIN_HEIGHT);
    if area.width < need_w || area.height < need_h {
        too_small(area, buf, (need_w, need_h), n, app);
        return Geometry {
            hidden: true,
            ..Geometry::default()
        };
    }
    // The analysis's win-chance bar goes left of the board when there is room for it.
    let bar_w = if app.analysis_on() && area.width >= need_w + analysis::BAR_WIDTH {
        analysis::BAR_WIDTH
    } else {
        0
    };
    // Board and panel side by side, centred together in a wide window.
    let panel_w = (area.width - bar_w - board_w - 1).min(PANEL_MAX_WIDTH);
    let left = area.x + (area.width - bar_w - board_w - 1 - panel_w) / 2 + bar_w;
    // The review's graph goes under the board when there is room for it.
    let chart_h = if app.game_review().is_some() {
        (area.height - board_h).min(review::CHART_MAX_HEIGHT)
    } else {
        0
    };
    let chart_h = if chart_h >= review::CHART_MIN_HEIGHT {
        chart_h
    } else {
        0
    };
    let top = area.y + (area.height - board_h - chart_h) / 2;
    let board_area = Rect::new(left, top, board_w, board_h);
    if chart_h > 0 {
        // Under the board, right-aligned with it, and wider than a small board when there is
        // room on its left.
        let right = left + board_w;
        let chart_left = right
            .saturating_sub(review::CHART_WIDTH.max(board_w + bar_w))
            .max(area.x);
        let chart = Rect::new(chart_left, top + board_h, right - chart_left, chart_h);
        review::draw_chart(app, chart, buf, &palette);
    }
    if bar_w > 0 {
        let bar = Rect::new(left - bar_w, top + 1, 1, board_h.saturating_sub(2));
        analysis::draw_bar(app, bar, buf, &palette);
    }
    let (board, cells) = match style {
        BoardStyle::Points => (
            Some(draw_points(app, board_area, buf, glyphs, &palette)),
            None,
        ),
        BoardStyle::Squares => (
            Some(squares::draw_squares(
                app, board_area, buf, glyphs, &palette,
            )),
            None,
        ),
        BoardStyle::Cells => (
            None,
            Some(quint::draw(app, board_area, buf, glyphs, &palette)),
        ),
    };
    if let Some(board) = &board {
        analysis::draw_candidates(app, board, buf, &palette);
        analysis::draw_hint(app, board, buf, &palette);
    }
    if let Some(cells) = &cells {
        analysis::draw_quint_hint(app, cells, buf, &palette);
    }
    puzzle::draw_area(app, board.as_ref(), cells.as_ref(), buf, &palette);
    course::draw_points(app, board.as_ref(), cells.as_ref(), buf, &palette);
    let panel = Rect::new(left + board_w + 1, area.y, panel_w, area.height);
    let list_rows = draw_panel(app, panel, buf, glyphs, &palette);
    let help = if app.help_open() {
        draw_help(app, area, buf, glyphs)
    } else {
        HelpGeometry::default()
    };
    Geometry {
        board,
        list_rows,
        cells,
        hidden: false,
        help,
    }
}

/// Puts `symbol` at (`x`, `y`) with `style` laid over the cell's style.
fn put(buf: &mut Buffer, x: u16, y: u16, symbol: &str, style: Style) {
    if let Some(cell) = buf.cell_mut(Cell { x, y }) {
        cell.set_symbol(symbol).set_style(style);
    }
}

/// Lays `style` over the cell at (`x`, `y`), keeping its symbol.
fn paint(buf: &mut Buffer, x: u16, y: u16, style: Style) {
    if let Some(cell) = buf.cell_mut(Cell { x, y }) {
        cell.set_style(style);
    }
}

/// Draws `points` in the highlight colour, on whichever board was drawn (the points of a
/// course's `legal` level, the empty points of a puzzle hint's area).
fn highlight(
    points: impl IntoIterator<Item = Point>,
    board: Option<&BoardGeometry>,
    cells: Option<&CellGeometry>,
    buf: &mut Buffer,
    palette: &Palette,
) {
    let style = palette.label_here.patch(palette.wood);
    for p in points {
        let at = board
            .map(|b| b.cell(p))
            .or_else(|| cells.map(|c| c.cell(p)));
        if let Some(cell) = at.and_then(|xy| buf.cell_mut(xy)) {
            cell.set_style(style);
        }
    }
}

/// The short message shown instead of a board that does not fit.
fn too_small(area: Rect, buf: &mut Buffer, (w, h): (u16, u16), n: usize, app: &App) {
    let mut text = format!(
        "The window is too small: the {} board needs {w} columns and {h} rows, this one has {} \
         and {}. Please enlarge it (q quits).",
        dimensions(n, app.look()),
        area.width,
        area.height
    );
    match app.ignored_keys() {
        0 => {}
        1 => text.push_str(" 1 key ignored."),
        keys => text.push_str(&format!(" {keys} keys ignored.")),
    }
    let lines: Vec<Line> = wrap(&text, usize::from(area.width.max(1)))
        .into_iter()
        .map(Line::from)
        .collect();
    let height = u16::try_from(lines.len())
        .unwrap_or(u16::MAX)
        .min(area.height);
    let y = area.y + (area.height - height) / 2;
    Paragraph::new(lines)
        .centered()
        .render(Rect::new(area.x, y, area.width, height), buf);
}

/// A grid of lines with stones on the crossings: Black's edges marked along the top and bottom,
/// White's along the left and right, coordinates all round.
fn draw_points(
    app: &App,
    area: Rect,
    buf: &mut Buffer,
    glyphs: &Glyphs,
    palette: &Palette,
) -> BoardGeometry {
    let position = app.position();
    let board = position.board();
    let (geometry, playing) = draw_frame(app, BoardStyle::Points, area, buf, glyphs, palette);
    let cursor = app.cursor();
    // The grid and the stones.
    let last = app.last_placement();
    for p in board.points() {
        let (x, y) = geometry.cell(p);
        if p.col() + 1 < board.size() {
            put(buf, x + 1, y, glyphs.line, palette.line);
        }
        match board.get(p) {
            Some(color) => draw_stone(buf, (x, y), color, Some(p) == last, glyphs, palette),
            None => put(buf, x, y, crossing(glyphs, board, p), palette.line),
        }
    }
    if position.game() == Game::Konobi {
        konobi::draw_weak_connections(position, &geometry, buf, glyphs, palette);
    }
    // What playing at the cursor would fill, or a cross where it may not play.
    if playing && board.is_empty_at(cursor) {
        match position.preview(Action::Place(cursor)) {
            Ok(effect) => {
                for (p, color) in effect.fills() {
                    let (x, y) = geometry.cell(p);
                    let i = color.index();
                    put(buf, x, y, glyphs.fill[i], palette.fill[i]);
                }
            }
            Err(_) => {
                let (x, y) = geometry.cell(cursor);
                put(buf, x, y, glyphs.illegal, palette.cursor);
            }
        }
    }
    // The winning chain, joined along its rows.
    if let Some(outcome) = position.outcome() {
        let line = outcome.line();
        for p in line.iter() {
            let (x, y) = geometry.cell(p);
            paint(buf, x, y, palette.chain);
            if board.step(p, (1, 0)).is_some_and(|q| line.contains(q)) {
                paint(buf, x + 1, y, palette.chain);
            }
        }
    }
    if playing {
        draw_cursor(buf, geometry.cell(cursor), glyphs, palette);
    }
    geometry
}

/// The geometry of `app`'s board drawn in `style` in `area`, with its surround drawn (see
/// [`draw_surround`]); and whether a game is being played on it, so that the cursor shows.
fn draw_frame(
    app: &App,
    style: BoardStyle,
    area: Rect,
    buf: &mut Buffer,
    glyphs: &Glyphs,
    palette: &Palette,
) -> (BoardGeometry, bool) {
    let position = app.position();
    let geometry = BoardGeometry {
        // Row numbers, a space, the edge mark and the padding.
        x: area.x + 4 + style.pad(),
        y: area.y + 2,
        size: position.size(),
        style,
    };
    let playing = app.mode() == Mode::Play && !position.is_over();
    draw_surround(
        &geometry,
        buf,
        glyphs,
        palette,
        playing.then_some(app.cursor()),
    );
    (geometry, playing)
}

/// A stone (or piece) of `color` at (`x`, `y`), ringed when it is the last one placed.
fn draw_stone(
    buf: &mut Buffer,
    (x, y): (u16, u16),
    color: Color,
    last: bool,
    glyphs: &Glyphs,
    palette: &Palette,
) {
    let i = color.index();
    if last {
        put(buf, x, y, glyphs.last[i], palette.stone[i]);
        paint(buf, x, y, palette.last);
    } else {
        put(buf, x, y, glyphs.stone[i], palette.stone[i]);
    }
}

/// The cursor's brackets either side of (`x`, `y`), its background under it.
fn draw_cursor(buf: &mut Buffer, (x, y): (u16, u16), glyphs: &Glyphs, palette: &Palette) {
    put(buf, x - 1, y, glyphs.cursor[0], palette.cursor);
    if let Some(bg) = palette.cursor.bg {
        paint(buf, x, y, Style::new().bg(bg));
    }
    put(buf, x + 1, y, glyphs.cursor[1], palette.cursor);
}

/// Around a board drawn at `geometry`: the wood, the edge marks just outside the grid, and the
/// coordinates, the cursor's own (when there is one) highlighted.
fn draw_surround(
    geometry: &BoardGeometry,
    buf: &mut Buffer,
    glyphs: &Glyphs,
    palette: &Palette,
    cursor: Option<Point>,
) {
    let n = geometry.size;
    let (x0, y0) = (geometry.x, geometry.y);
    let (right, bottom) = geometry.cell(Point::new(n - 1, 0));
    let pad = geometry.style.pad();
    // The columns of White's edge marks, just outside the board's first and last columns.
    let (west, east) = (x0 - pad - 1, right + geometry.style.width() + pad);
    for y in y0 - 1..=bottom + 1 {
        for x in west..=east {
            put(buf, x, y, " ", palette.wood);
        }
    }
    for x in west + 1..east {
        put(buf, x, y0 - 1, glyphs.edge[0], palette.stone[0]);
        put(buf, x, bottom + 1, glyphs.edge[1], palette.stone[0]);
    }
    for y in y0..=bottom {
        put(buf, west, y, glyphs.edge[2], palette.stone[1]);
        put(buf, east, y, glyphs.edge[3], palette.stone[1]);
    }
    let style = |here: bool| {
        if here {
            palette.label_here
        } else {
            palette.label
        }
    };
    for i in 0..n {
        let p = Point::new(i, i);
        let (x, y) = geometry.cell(p);
        let letter = p.col_letter().to_string();
        let column = style(cursor.is_some_and(|c| c.col() == i));
        put(buf, x, y0 - 2, &letter, column);
        put(buf, x, bottom + 2, &letter, column);
        let number = (i + 1).to_string();
        let row = style(cursor.is_some_and(|c| c.row() == i));
        buf.set_string(west - 3, y, format!("{number:>2}"), row);
        buf.set_string(east + 2, y, &number, row);
    }
}

/// The grid line crossing drawn on the empty point `p`.
fn crossing(glyphs: &Glyphs, board: &Board, p: Point) -> &'static str {
    let last = board.size() - 1;
    let band = |i: usize, low: usize, high: usize| {
        if i == low {
            0
        } else if i == high {
            2
        } else {
            1
        }
    };
    glyphs.cross[band(p.row(), last, 0)][band(p.col(), 0, last)]
}

/// A stone for the panel, on a chip of the board's wood so it looks as on the board.
fn stone<'a>(color: Color, glyphs: &Glyphs, palette: &Palette) -> Span<'a> {
    let glyph = glyphs.stone[color.index()];
    if palette.wood == Style::new() {
        Span::raw(glyph)
    } else {
        Span::styled(format!(" {glyph} "), palette.stone[color.index()])
    }
}

#[cfg(test)]
pub(crate) mod tests;
