//! A position drawn as SVG, in each game's look: Quentin's and Konobi's grid with the stones on
//! its crossings, Brique's checkered squares, Quint's board with its pieces. Black's stones are
//! filled discs and White's hollow rings, so that shape tells them apart as well as colour;
//! the columns are lettered and the rows numbered as the records write points (`a1` at the
//! bottom left).

use std::fmt::Write as _;

use quentin_rules::{Color, Game, Point, Position};

/// The side of a cell, in the drawing's units.
const CELL: usize = 32;
/// The margin for the letters and numbers.
const MARGIN: usize = 28;

/// The position drawn; `last` (the last move's point) is ringed.
#[must_use]
pub fn svg(position: &Position, last: Option<Point>) -> String {
    svg_linked(position, last, &|_| None)
}

/// [`svg`], each point for which `link` gives an address a link there (a puzzle's moves
/// played by a click: the point's whole cell, named by its title).
#[must_use]
pub fn svg_linked(
    position: &Position,
    last: Option<Point>,
    link: &dyn Fn(Point) -> Option<String>,
) -> String {
    let size = position.size();
    let game = position.game();
    let side = 2 * MARGIN + size * CELL;
    let mut out = format!(
        "<svg class=\"board {game}\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" \
         role=\"img\" aria-label=\"{game} board, {size} by {size}\">\n"
    );
    match game {
        Game::Brique => squares(&mut out, size, true),
        Game::Quint => squares(&mut out, size, false),
        Game::Quentin | Game::Konobi => grid(&mut out, size),
    }
    labels(&mut out, size);
    for row in 0..size {
        for col in 0..size {
            let p = Point::new(col, row);
            if let Some(color) = position.get(p) {
                stone(&mut out, size, p, color, last == Some(p));
            }
        }
    }
    for row in 0..size {
        for col in 0..size {
            let p = Point::new(col, row);
            if let Some(href) = link(p) {
                let (x, y) = centre(size, p);
                let _ = writeln!(
                    out,
                    "<a class=\"target\" href=\"{href}\"><rect x=\"{}\" y=\"{}\" width=\"{CELL}\" \
                     height=\"{CELL}\"/><title>{p}</title></a>",
                    x - CELL / 2,
                    y - CELL / 2
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The centre of point `p`'s cell or crossing: rows counted up from the bottom.
fn centre(size: usize, p: Point) -> (usize, usize) {
    (
        MARGIN + p.col() * CELL + CELL / 2,
        MARGIN + (size - 1 - p.row()) * CELL + CELL / 2,
    )
}

/// Quentin's and Konobi's board: lines through the crossings the stones are placed on.
fn grid(out: &mut String, size: usize) {
    let (first, last) = (MARGIN + CELL / 2, MARGIN + (size - 1) * CELL + CELL / 2);
    let _ = writeln!(
        out,
        "<rect class=\"wood\" x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{w}\" height=\"{w}\"/>",
        w = size * CELL
    );
    for i in 0..size {
        let at = MARGIN + i * CELL + CELL / 2;
        let _ = writeln!(
            out,
            "<line class=\"grid\" x1=\"{first}\" y1=\"{at}\" x2=\"{last}\" y2=\"{at}\"/>\
             <line class=\"grid\" x1=\"{at}\" y1=\"{first}\" x2=\"{at}\" y2=\"{last}\"/>"
        );
    }
}

/// Brique's checkered squares (`a1` light), or Quint's plain ones.
fn squares(out: &mut String, size: usize, checkered: bool) {
    for row in 0..size {
        for col in 0..size {
            let (x, y) = centre(size, Point::new(col, row));
            let class = match (checkered, (col + row) % 2 == 0) {
                (true, true) => "light",
                (true, false) => "dark",
                (false, _) => "square",
            };
            let _ = writeln!(
                out,
                "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\"/>",
                x - CELL / 2,
                y - CELL / 2
            );
        }
    }
}

/// The columns' letters below and the rows' numbers at the left.
fn labels(out: &mut String, size: usize) {
    for i in 0..size {
        let p = Point::new(i, i);
        let (x, y) = centre(size, p);
        let letter = p.col_letter();
        let _ = writeln!(
            out,
            "<text class=\"label\" x=\"{x}\" y=\"{}\">{letter}</text>\
             <text class=\"label\" x=\"{}\" y=\"{}\">{}</text>",
            MARGIN + size * CELL + MARGIN / 2 + 4,
            MARGIN / 2,
            y + 4,
            i + 1
        );
    }
}

/// A stone: Black a filled disc, White a hollow ring; the last move's ringed again.
fn stone(out: &mut String, size: usize, p: Point, color: Color, last: bool) {
    let (x, y) = centre(size, p);
    let r = CELL * 2 / 5;
    let class = match color {
        Color::Black => "black",
        Color::White => "white",
    };
    let _ = writeln!(
        out,
        "<circle class=\"stone {class}\" cx=\"{x}\" cy=\"{y}\" r=\"{r}\"><title>{p} {class}</title></circle>"
    );
    if last {
        let _ = writeln!(
            out,
            "<circle class=\"last\" cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>",
            r / 3
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::{Action, Setup};

    #[test]
    fn stones_are_drawn_filled_or_hollow_in_each_game_s_look() {
        let setup = Setup {
            game: Game::Brique,
            size: 9,
            pie: false,
            pieces: 0,
        };
        let mut position = setup.start().unwrap();
        let a1 = Point::new(0, 0);
        position.play(Action::Place(a1)).unwrap();
        let drawn = svg(&position, Some(a1));
        assert!(drawn.contains("class=\"stone black\""), "{drawn}");
        assert!(drawn.contains("<title>a1 black</title>"));
        assert!(drawn.contains("class=\"last\""));
        assert!(drawn.contains("class=\"light\"") && drawn.contains("class=\"dark\""));
        let grid = svg(
            &Setup {
                game: Game::Quentin,
                ..setup
            }
            .start()
            .unwrap(),
            None,
        );
        assert!(grid.contains("class=\"grid\"") && !grid.contains("class=\"dark\""));
    }
}
