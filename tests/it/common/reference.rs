//! The turn rules of the connection games written the obvious way from docs/rules.md (Black first,
//! the pie rule's `swap` on White's first turn, a forced `pass`, the win by a chain between a
//! colour's edges), over the naive placement rules of Quentin, Konobi and Brique. For
//! differential tests against the rules library.

use quentin::rules::{Action, Color, Game, Point, Setup};

use super::naive::{self, Points, Pt, Stones};
use super::{naive_brique, naive_konobi};

/// The board after `color` places on `p` in `game`, or `None` when that is illegal.
pub fn place(game: Game, n: usize, board: &Stones, p: Pt, color: Color) -> Option<Stones> {
    match game {
        Game::Quentin => naive::place(n, board, p, color),
        Game::Konobi => naive_konobi::place(n, board, p, color),
        Game::Brique => naive_brique::place(n, board, p, color),
        Game::Quint => unreachable!("Quint is no connection game"),
    }
}

/// The winner of `game` on board `b`, with a winning chain.
pub fn winning_chain(game: Game, n: usize, b: &Stones) -> Option<(Color, Points)> {
    match game {
        Game::Konobi => naive::winning_chain(n, b, naive_konobi::links),
        Game::Quentin | Game::Brique => naive::winning_chain(n, b, naive::orthogonal_links),
        Game::Quint => unreachable!("Quint is no connection game"),
    }
}

/// The chain of the stone on `p` in `game`.
pub fn chain(game: Game, n: usize, b: &Stones, p: Pt) -> Points {
    match game {
        Game::Konobi => naive::chain(n, b, p, naive_konobi::links),
        Game::Quentin | Game::Brique => naive::chain(n, b, p, naive::orthogonal_links),
        Game::Quint => unreachable!("Quint is no connection game"),
    }
}

/// A position as the reference sees it.
#[derive(Clone, Debug)]
pub struct RefPosition {
    /// Which game.
    pub game: Game,
    /// The board side.
    pub n: usize,
    /// Whether the pie rule is on.
    pub pie: bool,
    /// The stones.
    pub board: Stones,
    /// The colour to move.
    pub to_move: Color,
    /// Actions played so far.
    pub ply: usize,
    /// The winner, once there is one.
    pub winner: Option<Color>,
}

impl RefPosition {
    /// The empty board of `setup`, Black to move.
    pub fn new(setup: Setup) -> RefPosition {
        RefPosition {
            game: setup.game,
            n: setup.size,
            pie: setup.pie,
            board: Stones::default(),
            to_move: Color::Black,
            ply: 0,
            winner: None,
        }
    }

    /// Every legal action with the position it leads to. Placements come first, then `pass`
    /// when there is no placement, then `swap` when offered; nothing once the game is won.
    pub fn successors(&self) -> Vec<(Action, RefPosition)> {
        if self.winner.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for c in 0..self.n {
            for r in 0..self.n {
                if let Some(board) = place(self.game, self.n, &self.board, (c, r), self.to_move) {
                    let winner = winning_chain(self.game, self.n, &board).map(|(w, _)| w);
                    let next = RefPosition {
                        board,
                        to_move: self.to_move.opponent(),
                        ply: self.ply + 1,
                        winner,
                        ..self.clone()
                    };
                    out.push((Action::Place(Point::new(c, r)), next));
                }
            }
        }
        if out.is_empty() {
            let next = RefPosition {
                to_move: self.to_move.opponent(),
                ply: self.ply + 1,
                ..self.clone()
            };
            out.push((Action::Pass, next));
        }
        if self.pie && self.ply == 1 {
            // The players exchange colours; the board stays and White is to move again.
            let next = RefPosition {
                ply: self.ply + 1,
                ..self.clone()
            };
            out.push((Action::Swap, next));
        }
        out
    }
}
