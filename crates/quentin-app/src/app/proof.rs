//! The proof browser (`b`): on a board that a shipped book solves, in a local game or a
//! replay, the panel shows what the book proves about the shown position: the proven move of
//! the side to move, or that it loses whatever it plays (then, for the reply the player picks,
//! the winner's next proven move), with the positions the proof holds from there. It follows
//! every move and step until `b` turns it off. Never in an online game, a puzzle or the course.

use crate::rules::{Action, Position};
use crate::search::book::{self, Proof};

use super::{App, Effect, count};

/// The most positions the walk that counts a proof checks, so that a key answers at once
/// (the proofs of the first moves of the 5×5 boards hold more).
const COUNT_CAP: usize = 20_000;

/// The browser's state: on or off, and the text of the position it was worked out for.
#[derive(Clone, Debug, Default)]
pub(super) struct ProofView {
    on: bool,
    /// The actions of the position the text is about.
    shown: Option<Vec<Action>>,
    text: Option<String>,
}

impl App {
    /// `b`: turns the proof browser on or off.
    pub(super) fn toggle_proof(&mut self) -> Effect {
        if self.online_state().is_some() || self.puzzle.is_some() || self.course.is_some() {
            self.warn("The proof browser works in a local game or a replay, not here.");
            return Effect::None;
        }
        self.proof = ProofView {
            on: !self.proof.on,
            ..ProofView::default()
        };
        if self.proof.on {
            self.follow_proof();
        } else {
            self.info("Proof browser off.");
        }
        Effect::None
    }

    /// Works the browser's text out again when the shown position changed.
    pub(super) fn follow_proof(&mut self) {
        if !self.proof.on {
            return;
        }
        let shown = &self.actions()[..self.current()];
        if self.proof.shown.as_deref() == Some(shown) {
            return;
        }
        self.proof.shown = Some(shown.to_vec());
        self.proof.text = Some(proof_text(self.position()));
    }

    /// What the proof browser says of the shown position, while it is on.
    #[must_use]
    pub fn proof_text(&self) -> Option<&str> {
        self.proof.text.as_deref()
    }
}

/// The browser's words for `pos`.
fn proof_text(pos: &Position) -> String {
    let board = format!(
        "{} {}×{}, pie rule {}",
        pos.game().title(),
        pos.size(),
        pos.size(),
        if pos.setup().pie { "on" } else { "off" }
    );
    if book::shipped::for_position(pos).is_none() {
        return format!(
            "Proof: no book ships for {board}; the solved boards are {} (b: off).",
            solved_boards()
        );
    }
    if pos.is_over() {
        return "Proof: the game is over (b: off).".to_string();
    }
    let Some(Proof {
        mover,
        action,
        positions,
    }) = book::proven(pos, COUNT_CAP)
    else {
        return format!(
            "Proof: the book of {board} does not cover this position (it left the proven \
             strategy); step back to a position it covers."
        );
    };
    let held = match positions {
        Some(n) => format!("{} positions", count(u64::try_from(n).unwrap_or(u64::MAX))),
        None => format!(
            "more than {} positions",
            count(u64::try_from(COUNT_CAP).unwrap_or(u64::MAX))
        ),
    };
    match action {
        Some(a) => format!(
            "Proof: {a} wins for {} (to move), proven by the book of {board}; the proof \
             holds {held} from here.",
            mover.capitalised()
        ),
        None => format!(
            "Proof: {} to move loses whatever it plays (the book of {board}); after each \
             reply the browser shows {}'s proven answer. The proof holds {held} from here.",
            mover.capitalised(),
            mover.opponent().capitalised()
        ),
    }
}

/// The boards the shipped books solve, by game: `Quentin 3×3 to 5×5, ...`.
fn solved_boards() -> String {
    let mut by_game: Vec<(String, Vec<usize>)> = Vec::new();
    for (game, size, _) in book::shipped::boards() {
        let name = game.title().to_string();
        match by_game.iter_mut().find(|(g, _)| *g == name) {
            Some((_, sizes)) if !sizes.contains(&size) => sizes.push(size),
            Some(_) => {}
            None => by_game.push((name, vec![size])),
        }
    }
    let parts: Vec<String> = by_game
        .into_iter()
        .map(|(game, sizes)| {
            let (low, high) = (sizes[0], sizes[sizes.len() - 1]);
            if low == high {
                format!("{game} {low}×{low}")
            } else {
                format!("{game} {low}×{low} to {high}×{high}")
            }
        })
        .collect();
    parts.join(", ")
}
