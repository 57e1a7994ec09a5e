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
use ratatui::style::{Color as Paint, Modifier, Style};
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Widget};

use crate::report::capitalised;
use crate::rules::{Action, Board, Color, Game, Point, Position};

use super::app::{App, Look, Mode, Tone, dimensions, player_of, removals_text};

mod konobi;
mod squares;

pub use quint::CellGeometry;

/// The side panel's smallest useful width.
const PANEL_MIN_WIDTH: u16 = 34;
/// The side panel's largest width: wider would only spread its lines apart.
const PANEL_MAX_WIDTH: u16 = 50;
/// The side panel's smallest useful height.
const PANEL_MIN_HEIGHT: u16 = 16;
/// Screen columns from one point to the next: with cells about twice as tall as wide, two
/// columns per row makes the board look square.
const DX: u16 = 2;

/// Where things were drawn, for reading mouse events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    /// The board, when one was drawn.
    pub board: Option<BoardGeometry>,
    /// How many lines the action list showed.
    pub list_rows: usize,
    /// Quint's board of cells, when one was drawn.
    pub cells: Option<CellGeometry>,
}

impl Geometry {
    /// The point or cell drawn at screen cell (`column`, `row`), if any.
    #[must_use]
    pub fn point_at(&self, column: u16, row: u16) -> Option<Point> {
        let point = self.board.and_then(|b| b.point_at(column, row));
        point.or_else(|| self.cells.and_then(|c| c.point_at(column, row)))
    }
}

/// Where the board's points are on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// Screen column of the left column of points.
    pub x: u16,
    /// Screen row of the top row of points.
    pub y: u16,
    /// The board side.
    pub size: usize,
    /// The kind of board drawn.
    pub style: BoardStyle,
}

impl BoardGeometry {
    /// The screen cell of `p`.
    #[must_use]
    pub fn cell(&self, p: Point) -> (u16, u16) {
        let col = u16::try_from(p.col()).unwrap_or(u16::MAX);
        let row = u16::try_from(self.size - 1 - p.row()).unwrap_or(u16::MAX);
        (self.x + DX * col, self.y + row)
    }

    /// The point drawn at screen cell (`column`, `row`), if any.
    #[must_use]
    pub fn point_at(&self, column: u16, row: u16) -> Option<Point> {
        let dx = column.checked_sub(self.x)?;
        let dy = usize::from(row.checked_sub(self.y)?);
        let col = usize::from(dx / DX);
        // A square covers both its columns; between two points is no point.
        let inside = dx % DX == 0 || self.style == BoardStyle::Squares;
        if !inside || col >= self.size || dy >= self.size {
            return None;
        }
        Some(Point::new(col, self.size - 1 - dy))
    }
}

/// The kinds of board the games are drawn on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// Stones on the intersections of a grid of lines (Quentin, Konobi).
    Points,
    /// Stones inside the light and dark squares of a checkered board (Brique), each square
    /// two columns wide.
    Squares,
    /// Pieces inside the cells of a grid (Quint).
    Cells,
}

impl BoardStyle {
    /// The board a game is played on.
    #[must_use]
    pub const fn of(game: Game) -> BoardStyle {
        match game {
            Game::Quentin | Game::Konobi => BoardStyle::Points,
            Game::Brique => BoardStyle::Squares,
            Game::Quint => BoardStyle::Cells,
        }
    }

    /// The screen size of a board of side `n` with its coordinates and edge marks.
    #[must_use]
    pub fn size(self, n: usize) -> (u16, u16) {
        let n = u16::try_from(n).unwrap_or(u16::MAX / 4);
        match self {
            BoardStyle::Points => (DX * n + 9, n + 4),
            BoardStyle::Squares => (DX * n + 8, n + 4),
            BoardStyle::Cells => quint::size(n),
        }
    }

    /// What a stone stands on, for messages: `point` or `square`.
    #[must_use]
    pub const fn unit(self) -> &'static str {
        match self {
            BoardStyle::Points => "point",
            BoardStyle::Squares => "square",
            BoardStyle::Cells => "cell",
        }
    }

    /// Blank columns between the board's edge marks and its first and last columns (room for
    /// the cursor's brackets around a point).
    const fn pad(self) -> u16 {
        match self {
            BoardStyle::Points => 1,
            BoardStyle::Squares | BoardStyle::Cells => 0,
        }
    }

    /// Screen columns a point or square takes.
    const fn width(self) -> u16 {
        match self {
            BoardStyle::Points => 1,
            BoardStyle::Squares => DX,
            BoardStyle::Cells => quint::CELL_WIDTH,
        }
    }
}

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
    fn of(look: Look) -> Glyphs {
        match (look.ascii, look.color) {
            (true, _) => ASCII,
            (false, false) => UNICODE,
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

/// The styles of everything drawn; without colour they keep only what needs no colour.
struct Palette {
    wood: Style,
    line: Style,
    stone: [Style; 2],
    last: Style,
    fill: [Style; 2],
    cursor: Style,
    chain: Style,
    label: Style,
    label_here: Style,
    banner: Style,
    refusal: Style,
    current: Style,
    undone: Style,
    dim: Style,
}

/// Board colours from the 256-colour palette, chosen to look the same on dark and light
/// terminals: the board has its own wooden background, so black and white stones keep their
/// contrast whatever the terminal's colours.
mod paint {
    use super::Paint;
    pub const WOOD: Paint = Paint::Indexed(137);
    pub const LINE: Paint = Paint::Indexed(58);
    pub const BLACK: Paint = Paint::Indexed(16);
    pub const WHITE: Paint = Paint::Indexed(231);
    pub const BLACK_FILL: Paint = Paint::Indexed(238);
    pub const WHITE_FILL: Paint = Paint::Indexed(255);
    pub const CURSOR: Paint = Paint::Indexed(160);
    pub const CURSOR_WOOD: Paint = Paint::Indexed(180);
    pub const CHAIN: Paint = Paint::Indexed(71);
    pub const ACCENT: Paint = Paint::Indexed(172);
}

impl Palette {
    fn new(look: Look) -> Palette {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        if !look.color {
            return Palette {
                wood: Style::new(),
                line: Style::new(),
                stone: [Style::new(); 2],
                last: if look.ascii {
                    bold.add_modifier(Modifier::UNDERLINED)
                } else {
                    Style::new()
                },
                fill: [Style::new(); 2],
                cursor: bold,
                chain: bold.add_modifier(Modifier::REVERSED),
                label: Style::new(),
                label_here: bold,
                banner: bold.add_modifier(Modifier::REVERSED),
                refusal: bold,
                current: Style::new().add_modifier(Modifier::REVERSED),
                undone: Style::new().add_modifier(Modifier::DIM),
                dim: Style::new().add_modifier(Modifier::DIM),
            };
        }
        let wood = Style::new().bg(paint::WOOD);
        Palette {
            wood,
            line: wood.fg(paint::LINE),
            stone: [
                wood.fg(paint::BLACK).add_modifier(Modifier::BOLD),
                wood.fg(paint::WHITE).add_modifier(Modifier::BOLD),
            ],
            last: if look.ascii {
                bold.add_modifier(Modifier::UNDERLINED)
            } else {
                Style::new()
            },
            fill: [wood.fg(paint::BLACK_FILL), wood.fg(paint::WHITE_FILL)],
            cursor: Style::new()
                .fg(paint::CURSOR)
                .bg(paint::CURSOR_WOOD)
                .add_modifier(Modifier::BOLD),
            chain: Style::new().bg(paint::CHAIN).add_modifier(Modifier::BOLD),
            label: Style::new(),
            label_here: Style::new().fg(paint::ACCENT).add_modifier(Modifier::BOLD),
            banner: Style::new()
                .fg(paint::BLACK)
                .bg(paint::ACCENT)
                .add_modifier(Modifier::BOLD),
            refusal: Style::new().fg(paint::CURSOR).add_modifier(Modifier::BOLD),
            current: Style::new().add_modifier(Modifier::REVERSED),
            undone: Style::new().add_modifier(Modifier::DIM),
            dim: Style::new().add_modifier(Modifier::DIM),
        }
    }
}

/// Draws `app` into `frame` and returns where things went.
pub fn render(app: &App, frame: &mut Frame) -> Geometry {
    let area = frame.area();
    draw(app, area, frame.buffer_mut())
}

/// Draws `app` into `area` of `buf` and returns where things went.
pub fn draw(app: &App, area: Rect, buf: &mut Buffer) -> Geometry {
    let look = app.look();
    let palette = Palette::new(look);
    let glyphs = &Glyphs::of(look);
    let style = BoardStyle::of(app.setup().game);
    let n = app.setup().size;
    let (board_w, board_h) = style.size(n);
    let need_w = board_w + 1 + PANEL_MIN_WIDTH;
    let need_h = board_h.max(PANEL_MIN_HEIGHT);
    if area.width < need_w || area.height < need_h {
        too_small(area, buf, (need_w, need_h), n, look);
        return Geometry::default();
    }
    // Board and panel side by side, centred together in a wide window.
    let panel_w = (area.width - board_w - 1).min(PANEL_MAX_WIDTH);
    let left = area.x + (area.width - board_w - 1 - panel_w) / 2;
    let top = area.y + (area.height - board_h) / 2;
    let board_area = Rect::new(left, top, board_w, board_h);
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
    let panel = Rect::new(left + board_w + 1, area.y, panel_w, area.height);
    let list_rows = draw_panel(app, panel, buf, glyphs, &palette);
    if app.help_open() {
        draw_help(app, area, buf, glyphs);
    }
    Geometry {
        board,
        list_rows,
        cells,
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

/// The short message shown instead of a board that does not fit.
fn too_small(area: Rect, buf: &mut Buffer, (w, h): (u16, u16), n: usize, look: Look) {
    let text = format!(
        "The window is too small: the {} board needs {w} columns and {h} rows, this one has {} \
         and {}. Please enlarge it (q quits).",
        dimensions(n, look),
        area.width,
        area.height
    );
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

/// How many points differ between two boards.
fn differences(a: &Board, b: &Board) -> usize {
    a.points().filter(|&p| a.get(p) != b.get(p)).count()
}

/// The side panel: who is to move, the action number, what the cursor's point would do, the
/// last message, the list of actions and a legend. Returns how many actions the list showed.
fn draw_panel(
    app: &App,
    area: Rect,
    buf: &mut Buffer,
    glyphs: &Glyphs,
    palette: &Palette,
) -> usize {
    let setup = app.setup();
    let look = app.look();
    let options = if setup.game.piece_options().is_empty() {
        format!(
            " {}, pie rule {}",
            dimensions(setup.size, look),
            if setup.pie { "on" } else { "off" }
        )
    } else {
        format!(", {} pieces each", setup.pieces)
    };
    let title = format!(
        " {}{}{options} ",
        if app.mode() == Mode::Replay {
            "Replay: "
        } else {
            ""
        },
        setup.game.title(),
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .border_set(glyphs.border)
        .padding(Padding::horizontal(1))
        .title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    let top = panel_status(app, usize::from(inner.width), glyphs, palette);
    let footer = legend(app, glyphs, palette);
    let height = usize::from(inner.height);
    let footer = if top.len() + 2 + footer.len() <= height {
        footer
    } else {
        Vec::new()
    };
    let rows = height.saturating_sub(top.len() + footer.len() + 1);
    let mut lines = top;
    lines.push(Line::styled(
        "Actions",
        Style::new().add_modifier(Modifier::BOLD),
    ));
    let first = app.list_top(rows);
    let shown = app.actions().len().min(first + rows);
    for i in first..shown {
        lines.push(action_line(app, i, palette));
    }
    if app.actions().is_empty() {
        lines.push(Line::styled("none yet", palette.dim));
    }
    let used = lines.len();
    lines.extend((used..height.saturating_sub(footer.len())).map(|_| Line::default()));
    lines.extend(footer);
    Paragraph::new(lines).render(inner, buf);
    rows
}

/// The top of the panel: who is to move (or the winner's banner), the action number, the swap
/// when offered, what the cursor's point would do and the last message.
fn panel_status<'a>(app: &App, width: usize, glyphs: &Glyphs, palette: &Palette) -> Vec<Line<'a>> {
    let position = app.position();
    let mut top: Vec<Line> = Vec::new();
    match (
        position.outcome().and_then(|o| o.winner()),
        position.to_move(),
    ) {
        (Some(winner), _) => {
            let text = format!(
                "{}{} wins! Player {}{}",
                glyphs.win[0],
                capitalised(winner),
                player_of(position, winner),
                glyphs.win[1]
            );
            top.push(Line::styled(format!("{text:^width$}"), palette.banner));
        }
        (None, Some(color)) => top.push(Line::from(vec![
            stone(color, glyphs, palette),
            Span::styled(
                format!(
                    " {} to move: Player {}",
                    capitalised(color),
                    player_of(position, color)
                ),
                Style::new().add_modifier(Modifier::BOLD),
            ),
        ])),
        (None, None) => {
            let text = format!("{}Draw by repetition{}", glyphs.win[0], glyphs.win[1]);
            top.push(Line::styled(format!("{text:^width$}"), palette.banner));
        }
    }
    let total = app.actions().len();
    let counter = match app.mode() {
        Mode::Replay => format!("Showing action {} of {total}", app.current()),
        Mode::Play if position.is_over() => match app.current() {
            1 => "1 action played".to_string(),
            n => format!("{n} actions played"),
        },
        Mode::Play if app.current() < total => format!(
            "Action {} ({} undone: r redoes)",
            app.current() + 1,
            total - app.current()
        ),
        Mode::Play => format!("Action {}", app.current() + 1),
    };
    top.push(Line::from(counter));
    if position.game() == Game::Quint {
        top.extend(quint::pieces_lines(position));
    }
    if app.mode() == Mode::Play && position.is_legal(Action::Swap) {
        top.push(Line::styled(
            "s swaps colours (pie rule)",
            palette.label_here,
        ));
    }
    if app.mode() == Mode::Play && !position.is_over() {
        let (text, illegal) = if position.game() == Game::Quint {
            quint::cursor_text(app)
        } else {
            cursor_text(position, app.cursor())
        };
        let style = if illegal {
            palette.refusal
        } else {
            Style::new()
        };
        for line in wrap(&text, width).into_iter().take(3) {
            top.push(Line::styled(line, style));
        }
    }
    if let Some(message) = app.message() {
        let style = match message.tone {
            Tone::Info => Style::new(),
            Tone::Refusal => palette.refusal,
        };
        top.push(Line::default());
        for line in wrap(&message.text, width).into_iter().take(4) {
            top.push(Line::styled(line, style));
        }
    }
    top.push(Line::default());
    top
}

/// The bottom of the panel: what the game's board shows, whose edges are whose, and the keys
/// to remember.
fn legend<'a>(app: &App, glyphs: &Glyphs, palette: &Palette) -> Vec<Line<'a>> {
    let mut lines = match app.setup().game {
        Game::Konobi => konobi::legend(glyphs, palette),
        Game::Brique => squares::legend(app.look(), glyphs, palette),
        Game::Quint => {
            return vec![
                Line::from(vec![
                    stone(Color::White, glyphs, palette),
                    Span::raw(" White   "),
                    stone(Color::Black, glyphs, palette),
                    Span::raw(" Black"),
                ]),
                Line::from("Exactly five in a line wins"),
                Line::styled("Esc goes back   ? help   q quit", palette.dim),
            ];
        }
        Game::Quentin => Vec::new(),
    };
    lines.extend([
        Line::from(vec![
            stone(Color::Black, glyphs, palette),
            Span::raw(" Black joins top and bottom "),
            Span::styled(glyphs.edge[0], palette.stone[0]),
        ]),
        Line::from(vec![
            stone(Color::White, glyphs, palette),
            Span::raw(" White joins left and right "),
            Span::styled(glyphs.edge[2], palette.stone[1]),
        ]),
        Line::styled("? help   q quit", palette.dim),
    ]);
    lines
}

/// What the cursor's point holds or would do, and whether that is a refusal.
fn cursor_text(position: &Position, cursor: Point) -> (String, bool) {
    if let Some(color) = position.get(cursor) {
        return (format!("{cursor}: a {color} stone"), false);
    }
    match position.preview(Action::Place(cursor)) {
        Ok(effect) => {
            let unit = BoardStyle::of(position.game()).unit();
            let fills = match effect.fills().count() {
                0 => String::new(),
                1 => format!(", fills 1 {unit}"),
                n => format!(", fills {n} {unit}s"),
            };
            let removes = removals_text(&effect)
                .map(|r| format!(", removes {r}"))
                .unwrap_or_default();
            (format!("{cursor}: legal{fills}{removes}"), false)
        }
        Err(reason) => (format!("{cursor}: illegal: {reason}"), true),
    }
}

/// One entry of the action list: number, colour, action, how many points it filled.
fn action_line<'a>(app: &App, i: usize, palette: &Palette) -> Line<'a> {
    let action = app.actions()[i];
    let before = app.position_at(i);
    let after = app.position_at(i + 1);
    let mut spans = vec![Span::raw(format!("{:>3}. ", i + 1))];
    if let Some(color) = before.to_move() {
        spans.push(Span::raw(format!(
            "P{} {:<5} ",
            player_of(before, color),
            capitalised(color)
        )));
    }
    spans.push(Span::raw(action.to_string()));
    if matches!(action, Action::Place(_)) && i < app.current() {
        let filled = differences(before.board(), after.board()).saturating_sub(1);
        if filled > 0 {
            spans.push(Span::raw(format!(" +{filled}")));
        }
    }
    let line = Line::from(spans);
    if i + 1 == app.current() {
        line.style(palette.current)
    } else if i >= app.current() {
        line.style(palette.undone)
    } else {
        line
    }
}

/// The keys of the help overlay, by section.
const HELP: [(&str, &[(&str, &str)]); 2] = [
    (
        "Playing",
        &[
            ("arrows, h j k l", "move the cursor"),
            ("Enter, Space", "play at the cursor"),
            ("mouse", "point to move the cursor, click to play"),
            ("s", "swap colours (pie rule, White's first turn)"),
            ("u, r", "undo, redo (no limit)"),
            ("n", "new game, once the game is won"),
            ("PgUp, PgDn, wheel", "scroll the action list"),
            ("?", "open or close this help"),
            ("q, Esc, Ctrl-C", "quit (the record is already saved)"),
        ],
    ),
    (
        "In a replay",
        &[
            ("Left, Right, h, l", "step back, step forward"),
            ("Home, End, g, G", "first, last position"),
            ("p", "play on from here into a new record"),
        ],
    ),
];

/// The help overlay: every key, and where the record is saved.
fn draw_help(app: &App, area: Rect, buf: &mut Buffer, glyphs: &Glyphs) {
    const KEY_WIDTH: usize = 19;
    // What the game's board shows, when it needs telling; the help then takes the width of an
    // 80-column terminal, so that the explanation and the record's path take few lines.
    let board = match app.setup().game {
        Game::Konobi => Some(konobi::HELP),
        Game::Brique => Some(squares::HELP),
        _ => None,
    };
    let width = area.width.min(if board.is_some() { 78 } else { 66 });
    let text_width = usize::from(width.saturating_sub(4))
        .saturating_sub(KEY_WIDTH)
        .max(1);
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut lines = Vec::new();
    if let Some(text) = board {
        let width = usize::from(width.saturating_sub(4)).max(1);
        lines.extend(wrap(text, width).into_iter().map(Line::from));
    }
    let mut sections = HELP;
    if app.setup().game == Game::Quint {
        sections[0] = quint::HELP;
    }
    for (heading, keys) in sections {
        if !lines.is_empty() {
            lines.push(Line::default());
        }
        lines.push(Line::styled(
            heading,
            bold.add_modifier(Modifier::UNDERLINED),
        ));
        for (key, what) in keys {
            for (i, part) in wrap(what, text_width).into_iter().enumerate() {
                let key = if i == 0 { key } else { "" };
                lines.push(Line::from(vec![
                    Span::styled(format!("{key:<KEY_WIDTH$}"), bold),
                    Span::raw(part),
                ]));
            }
        }
    }
    lines.push(Line::default());
    let record = match app.record_path() {
        Some(path) => format!("Record: {}", path.display()),
        None => "Record: none yet (a replay; p plays on into a new record)".to_string(),
    };
    for part in wrap(&record, usize::from(width.saturating_sub(4)).max(1)) {
        lines.push(Line::from(part));
    }
    let height = (u16::try_from(lines.len()).unwrap_or(u16::MAX) + 2).min(area.height);
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    Clear.render(popup, buf);
    Paragraph::new(lines)
        .block(
            Block::new()
                .borders(Borders::ALL)
                .border_set(glyphs.border)
                .padding(Padding::horizontal(1))
                .title(" Keys: any other key closes this help "),
        )
        .render(popup, buf);
}

/// Breaks `text` into lines of at most `width` characters, at spaces where it can.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word = word.to_string();
        loop {
            let len = line.chars().count();
            let wlen = word.chars().count();
            let sep = usize::from(len > 0);
            if len + sep + wlen <= width {
                if sep == 1 {
                    line.push(' ');
                }
                line.push_str(&word);
                break;
            }
            if len > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            // A word longer than the line, such as a path: cut it after its last `/` that fits,
            // or else at the width.
            let head: String = word.chars().take(width).collect();
            let at = match head.rfind('/') {
                Some(slash) if slash > 0 => head[..=slash].chars().count(),
                _ => width,
            };
            lines.push(word.chars().take(at).collect());
            word = word.chars().skip(at).collect();
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::tests::{after, after_with, game, press};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// Draws `app` on a `width`×`height` test terminal, as the run loop does.
    pub(super) fn draw_app(app: &mut App, width: u16, height: u16) -> Terminal<TestBackend> {
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
        // RULES.md: Black e3 fills d5 d4 d3 c3 b3 a3 with black.
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
    fn the_help_overlay_lists_every_key_and_the_record() {
        let mut app = game(13, true);
        app.set_record_path(
            "/home/player/.local/share/quentin/games/2026-11-22T03-43-00.txt".into(),
        );
        press(&mut app, "?");
        let terminal = draw_app(&mut app, 80, 24);
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn a_too_small_terminal_asks_for_a_larger_window() {
        let mut app = game(13, true);
        let terminal = draw_app(&mut app, 40, 10);
        insta::assert_snapshot!(terminal.backend());
        // And no board to click on.
        let mut buf = Buffer::empty(Rect::new(0, 0, 40, 10));
        assert_eq!(draw(&app, buf.area, &mut buf), Geometry::default());
    }

    #[test]
    fn thirteen_fits_80x24_with_a_game_in_progress() {
        let mut app = after(13, true, "g7 swap f6 h7 f7 g8 e6 h6 f5 g9 e5 h9 f4");
        press(&mut app, "hk");
        let terminal = draw_app(&mut app, 80, 24);
        insta::assert_snapshot!(terminal.backend());
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
    fn wrapping_keeps_words_whole_and_cuts_long_ones() {
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(
            wrap("Record: /home/me/games/x.txt", 12),
            ["Record:", "/home/me/", "games/x.txt"]
        );
        assert_eq!(wrap("", 5), [""]);
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
}
