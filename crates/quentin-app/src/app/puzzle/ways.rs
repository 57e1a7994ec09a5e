//! The ways of taking the puzzles, chosen on the puzzle screen (issue 60), not only by the
//! command line's flags: `o` lists them in the panel, a digit picks one (a difficulty, Streak,
//! Storm, one's failed puzzles again, the next theme or any), Esc closes the list. The front
//! end hears the choice ([`PuzzleNews::Choose`]) and opens the next puzzle that way.

use crate::input::{KeyCode, KeyEvent, KeyModifiers};
use crate::puzzle_modes::CHOICES;

use super::super::{App, Effect};
use super::PuzzleNews;

impl App {
    /// `o` in a puzzle: the list of the ways, until a digit or Esc.
    pub(in crate::app) fn open_ways(&mut self) {
        let Some(seat) = self.puzzle.as_mut() else {
            return;
        };
        seat.choosing = true;
        let listed: Vec<String> = CHOICES
            .iter()
            .map(|(key, _, name)| format!("{key} {name}"))
            .collect();
        self.info(format!(
            "Take the puzzles: {} (1 to 3 rated); Esc closes.",
            listed.join(", ")
        ));
    }

    /// Whether the list of the ways is open.
    #[must_use]
    pub fn choosing_way(&self) -> bool {
        self.puzzle.as_ref().is_some_and(|s| s.choosing)
    }

    /// A key while the list is open: a digit chooses, Esc (or any other key) closes it.
    /// `None` when the list is not open, or for Ctrl's keys (Ctrl-C still quits).
    pub(in crate::app) fn ways_key(&mut self, key: KeyEvent) -> Option<Effect> {
        if !self.choosing_way() || key.modifiers.contains(KeyModifiers::CONTROL) {
            return None;
        }
        if let Some(seat) = self.puzzle.as_mut() {
            seat.choosing = false;
        }
        let chosen = match key.code {
            KeyCode::Char(c) => CHOICES.iter().find(|(k, _, _)| *k == c),
            _ => None,
        };
        match chosen {
            Some(&(_, choice, _)) => Some(Effect::Puzzle(PuzzleNews::Choose(choice))),
            None => {
                self.info("The puzzles go on as they were.");
                Some(Effect::None)
            }
        }
    }
}
