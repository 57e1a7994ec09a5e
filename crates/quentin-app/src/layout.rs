//! Where things are on the screen: the board's geometry and kind, Quint's cells, the help's
//! window. The renderer computes them as it draws; the app reads the last ones to hit-test
//! mouse clicks and to scroll, and names a board's unit in its messages. Both import this
//! module; neither imports the other for it.

use crate::rules::{Game, Point};

/// Screen columns from one point to the next: with cells about twice as tall as wide, two
/// columns per row makes the board look square.
pub(crate) const DX: u16 = 2;

/// Where things were drawn, for reading mouse events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    /// The board, when one was drawn.
    pub board: Option<BoardGeometry>,
    /// How many lines the action list showed.
    pub list_rows: usize,
    /// Quint's board of cells, when one was drawn.
    pub cells: Option<CellGeometry>,
    /// Whether the window was too small to draw the board: keys then must not act unseen.
    pub hidden: bool,
    /// The help overlay, when it was drawn.
    pub help: HelpGeometry,
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
            BoardStyle::Cells => cells_size(n),
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
    pub(crate) const fn pad(self) -> u16 {
        match self {
            BoardStyle::Points => 1,
            BoardStyle::Squares | BoardStyle::Cells => 0,
        }
    }

    /// Screen columns a point or square takes.
    pub(crate) const fn width(self) -> u16 {
        match self {
            BoardStyle::Points => 1,
            BoardStyle::Squares => DX,
            BoardStyle::Cells => CELL_WIDTH,
        }
    }
}

/// Screen columns from one cell to the next (three inside, one line).
pub const CELL_DX: u16 = 4;
/// Screen columns a cell takes.
pub const CELL_WIDTH: u16 = CELL_DX;
/// Screen rows from one cell to the next (one inside, one line).
pub const CELL_DY: u16 = 2;

/// Where the cells are on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellGeometry {
    /// Screen column of the leftmost inside column of the `a` cells.
    pub x: u16,
    /// Screen row of the inside of the top row of cells.
    pub y: u16,
    /// The board side.
    pub size: usize,
}

impl CellGeometry {
    /// The screen cell of the middle of `p`'s inside.
    #[must_use]
    pub fn cell(&self, p: Point) -> (u16, u16) {
        let col = u16::try_from(p.col()).unwrap_or(u16::MAX / CELL_DX);
        let row = u16::try_from(self.size - 1 - p.row()).unwrap_or(u16::MAX / CELL_DY);
        (self.x + 1 + CELL_DX * col, self.y + CELL_DY * row)
    }

    /// The cell whose inside holds screen cell (`column`, `row`), if any.
    #[must_use]
    pub fn point_at(&self, column: u16, row: u16) -> Option<Point> {
        let dx = column.checked_sub(self.x)?;
        let dy = row.checked_sub(self.y)?;
        let (col, r) = (usize::from(dx / CELL_DX), usize::from(dy / CELL_DY));
        if dx % CELL_DX == CELL_DX - 1 || dy % CELL_DY != 0 || col >= self.size || r >= self.size {
            return None;
        }
        Some(Point::new(col, self.size - 1 - r))
    }
}

/// The screen size of Quint's board of side `n` with its coordinates.
#[must_use]
pub fn cells_size(n: u16) -> (u16, u16) {
    (CELL_DX * n + 1 + 6, CELL_DY * n + 1 + 2)
}

/// Where the help was drawn, for scrolling it: how many lines it shows at once and the largest
/// useful scroll offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HelpGeometry {
    /// Lines of text the window shows at once.
    pub rows: usize,
    /// The scroll offset that shows the last line at the bottom.
    pub max_scroll: usize,
}
