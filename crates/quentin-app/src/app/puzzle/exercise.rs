//! One of the player's own mistakes as a puzzle ([`crate::mistakes`]): the position before it,
//! a better move to find, judged by the answers the review's search found good there.

use crate::mistakes::Mistake;
use crate::rules::{Action, Color};

use super::super::text::join;
use super::super::{App, Look};

/// What judges an exercise.
#[derive(Clone, Debug)]
pub(in crate::app) struct Exercise {
    /// The moves judged right.
    answers: Vec<Action>,
    /// The mistake played in the game.
    played: Action,
}

impl Exercise {
    /// What it asks: `Black to move: find a better move than a1 (your mistake)`.
    pub(in crate::app) fn goal(&self, side: Color) -> String {
        format!(
            "{} to move: find a better move than {} (your mistake in a game)",
            side.capitalised(),
            self.played
        )
    }
}

impl App {
    /// The exercise of one of the player's own mistakes, its side to move.
    ///
    /// # Errors
    /// When its line does not replay.
    pub fn mistake(mistake: &Mistake, look: Look) -> Result<App, String> {
        let mut app = App::puzzle(mistake.puzzle(), look)?;
        if let Some(seat) = app.puzzle.as_mut() {
            seat.exercise = Some(Exercise {
                answers: mistake.answers.clone(),
                played: mistake.played,
            });
        }
        app.info(format!(
            "In your game you played {} here. Find a better move: t gives a hint, v the \
             search's choice.",
            mistake.played
        ));
        Ok(app)
    }

    /// The player's legal `action` in an exercise: right when the search judged it good.
    pub(super) fn exercise_act(&mut self, action: Action) {
        let Some(seat) = self.puzzle.as_ref() else {
            return;
        };
        let Some(exercise) = seat.exercise.as_ref() else {
            return;
        };
        let right = exercise.answers.contains(&action);
        let played = exercise.played;
        let best = seat.puzzle.solution.first().copied();
        let others: Vec<Action> = exercise
            .answers
            .iter()
            .copied()
            .filter(|&a| a != action)
            .collect();
        let _ = self.play_action(action);
        self.puzzle_over(right);
        let text = if right {
            let also = if others.is_empty() {
                String::new()
            } else {
                format!(" (as good: {})", join(&others))
            };
            format!(
                "Right: the search judges {action} as good as its best{also}. n gives the next."
            )
        } else if played == action {
            format!(
                "That is the move you played in the game. The search preferred {}. v shows it, \
                 n gives the next.",
                best.map_or(String::new(), |b| b.to_string())
            )
        } else {
            format!(
                "Not better: the search judges {action} more than a few percent worse than {}. \
                 v shows it, n gives the next.",
                best.map_or(String::new(), |b| b.to_string())
            )
        };
        if right {
            self.info(text);
        } else {
            self.warn(text);
        }
    }
}
