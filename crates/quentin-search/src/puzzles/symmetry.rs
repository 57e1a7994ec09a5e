//! The board symmetries of each game that keep its rules and each colour's goal, and the key
//! that makes two positions equal under them one position.
//!
//! Every symmetry is one of the square's eight (a reflection across a diagonal, `transpose`,
//! then reflections across the vertical and the horizontal axis), with or without an exchange
//! of the colours (the stones' and the side to move's). A symmetry counts for a game when
//! the rules map over: every position and its image have the images of each other's legal
//! actions, with the images of each other's outcomes.
//!
//! - **Quentin and Konobi** (stones on points; Black joins top and bottom, White left and
//!   right): their local rules (fills, the diagonal rule; weak links, crosscuts) are the same
//!   in every direction. The reflections across the vertical and the horizontal axis and the
//!   half turn keep each colour's edges; the four symmetries that exchange rows and columns (the
//!   two diagonal reflections and the quarter turns) exchange the goals, and so count only with
//!   the colours exchanged too: White's threat read sideways is Black's. Eight in all.
//! - **Brique**: its light and dark squares and their escorts (a light square's above it and
//!   to its left, a dark square's below it and to its right) survive only the identity and the
//!   reflection across the diagonal from the top-left corner to the bottom-right one (column
//!   `c`, row `r` to column `n-1-r`, row `n-1-c`: `a1` and the top-right corner change places),
//!   which exchanges the goals: so that one with the colours exchanged. The half turn, say,
//!   would put a light square's escorts below it and to its right, a dark square's rule.
//! - **Quint** has no colour goals (five in a row or column, steps and captures along the
//!   lines): all eight, each with and without the colours exchanged (the pieces in hand too).
//!
//! The pie rule's offer (whether a swap is available) is part of the key; a Quint position's
//! history (its repetitions) is not.

use quentin_rules::{Action, Captures, Color, Game, Point, Position};

/// One symmetry: a map of the board's points and whether the colours are exchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// Columns become rows (before the flips).
    transpose: bool,
    /// Column `c` becomes `n-1-c`.
    flip_cols: bool,
    /// Row `r` becomes `n-1-r`.
    flip_rows: bool,
    /// Black becomes White and White Black.
    swap_colors: bool,
}

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry {
        transpose: false,
        flip_cols: false,
        flip_rows: false,
        swap_colors: false,
    };

    /// The image of `p` on a board of side `size`.
    #[must_use]
    pub fn point(self, p: Point, size: usize) -> Point {
        let (mut c, mut r) = (p.col(), p.row());
        if self.transpose {
            (c, r) = (r, c);
        }
        if self.flip_cols {
            c = size - 1 - c;
        }
        if self.flip_rows {
            r = size - 1 - r;
        }
        Point::new(c, r)
    }

    /// The image of the colour `c`.
    #[must_use]
    pub fn color(self, c: Color) -> Color {
        if self.swap_colors { c.opponent() } else { c }
    }

    /// The image of `action` on a board of side `size`.
    #[must_use]
    pub fn action(self, action: Action, size: usize) -> Action {
        match action {
            Action::Place(p) => Action::Place(self.point(p, size)),
            Action::Step { from, to, captures } => Action::Step {
                from: self.point(from, size),
                to: self.point(to, size),
                captures: Captures::from_points(captures.iter().map(|p| self.point(p, size)))
                    .unwrap_or(captures),
            },
            Action::Swap | Action::Pass => action,
        }
    }

    /// Whether the colours are exchanged.
    #[must_use]
    pub const fn swaps_colors(self) -> bool {
        self.swap_colors
    }
}

/// The symmetries of `game`, the identity first (see the module's text for why these).
#[must_use]
pub fn symmetries(game: Game) -> Vec<Symmetry> {
    let square = (0..8u8).map(|bits| Symmetry {
        transpose: bits & 1 != 0,
        flip_cols: bits & 2 != 0,
        flip_rows: bits & 4 != 0,
        swap_colors: false,
    });
    match game {
        Game::Quentin | Game::Konobi => square
            .map(|s| Symmetry {
                swap_colors: s.transpose,
                ..s
            })
            .collect(),
        Game::Brique => vec![
            Symmetry::IDENTITY,
            Symmetry {
                transpose: true,
                flip_cols: true,
                flip_rows: true,
                swap_colors: true,
            },
        ],
        Game::Quint => square
            .flat_map(|s| {
                [
                    s,
                    Symmetry {
                        swap_colors: true,
                        ..s
                    },
                ]
            })
            .collect(),
    }
}

/// A position written out under `sym`: the game and size, the side to move, whether a swap
/// is offered, the pieces in hand (Quint), then every point's content by row and column.
fn written(pos: &Position, sym: Symmetry) -> Vec<u8> {
    let size = pos.size();
    let code = |c: Option<Color>| match c.map(|c| sym.color(c)) {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    };
    let mut out = vec![
        pos.game() as u8,
        size as u8,
        code(pos.to_move()),
        u8::from(pos.swap_available()),
    ];
    if let Some(hand) = pos.in_hand() {
        let [b, w] = hand.map(|n| n as u8);
        out.extend(if sym.swap_colors { [w, b] } else { [b, w] });
    }
    let start = out.len();
    out.resize(start + size * size, 0);
    for p in pos.board().points() {
        let q = sym.point(p, size);
        out[start + q.row() * size + q.col()] = code(pos.get(p));
    }
    out
}

/// The key of `pos` under its game's symmetries: equal for two positions exactly when one is
/// the image of the other (the least of its images written out).
#[must_use]
pub fn key(pos: &Position) -> Vec<u8> {
    symmetries(pos.game())
        .into_iter()
        .map(|s| written(pos, s))
        .min()
        .unwrap_or_default()
}
