//! What a new placement knows before its first playout (a prior, as MoHex's knowledge at
//! expansion): virtual AMAF results, more of them won near the stone placed last. In the
//! connection games most good replies are close to the opponent's last stone (a block, a cut,
//! a link); the AMAF statistics learn that only after many playouts, the prior at once. The
//! virtual results wash out as real ones come: they weigh as many AMAF results do.
//!
//! Quentin's placements start with the share learned for their local pattern instead
//! ([`patterns`]: the eight points around, and whether the placement is near the last stone),
//! the near and far shares being those of the average pattern.
//!
//! Measured by matches against the same search without it (docs/engine-strength.md); Quint has
//! none (its drops and steps have their own tactics, and nearness was not measured there).

use quentin_rules::{Board, Color, Game, Point};

use crate::patterns::{self, Table};

/// A game's prior.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Prior {
    /// Virtual AMAF playouts a new placement starts with.
    pub(crate) playouts: u32,
    /// Their share won for a placement within `reach` of the stone placed last.
    pub(crate) near: f32,
    /// Their share won for any other placement.
    pub(crate) far: f32,
    /// How far "near" reaches, in steps of a king: the square of side `2 * reach + 1` around
    /// the stone.
    pub(crate) reach: usize,
    /// The most virtual AMAF results a new placement inherits from the same placement at its
    /// grandparent ([`super::Tree::inherit_amaf`]).
    pub(crate) inherit: u32,
    /// The learned shares by local pattern ([`patterns`]), in place of `near` and `far`.
    pub(crate) patterns: Option<&'static Table>,
    /// The most visits a node waits for before it is expanded, in place of the shared
    /// [`Params::expand_after`](super::Params) (at full strength, as the rest of the prior).
    pub(crate) expand_after: u32,
}

impl Prior {
    /// The prior of `game`, `None` for a game without one.
    pub(crate) fn of(game: Game) -> Option<Prior> {
        // Quentin and Brique alike, but for what Quentin inherits: nothing (107-93 at 5,000
        // playouts and 51-49 at equal time, where Brique and Konobi gained about +60), and its
        // learned patterns with expansion after 24 visits (162-138 at equal time; see
        // docs/engine-strength.md).
        let brique = Prior {
            playouts: 20,
            near: 0.65,
            far: 0.45,
            reach: 1,
            inherit: 20,
            patterns: None,
            expand_after: 48,
        };
        match game {
            Game::Quentin => Some(Prior {
                inherit: 0,
                patterns: Some(patterns::quentin()),
                expand_after: 24,
                ..brique
            }),
            Game::Brique => Some(brique),
            Game::Konobi => Some(Prior {
                near: 0.6,
                reach: 2,
                ..brique
            }),
            Game::Quint => None,
        }
    }

    /// The share of virtual wins of a placement of `mover` at `point` of `board` when the
    /// stone placed last is at `last` (`None`: none known, every placement is far).
    pub(crate) fn share(
        &self,
        board: &Board,
        point: Point,
        mover: Option<Color>,
        last: Option<Point>,
    ) -> f32 {
        let near = last.is_some_and(|l| {
            l.col().abs_diff(point.col()) <= self.reach
                && l.row().abs_diff(point.row()) <= self.reach
        });
        match (self.patterns, mover) {
            (Some(table), Some(mover)) => table.share(patterns::key(board, point, mover), near),
            _ if near => self.near,
            _ => self.far,
        }
    }
}
