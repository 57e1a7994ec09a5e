//! A line shown on the board for a while without touching the line of play (issue 60): a
//! defence puzzle's threat played out, a reviewed action's refutation. `w` opens it where there
//! is one; the arrows (or `u`, `r`, Home, End) step through it, `w` or Esc returns to where
//! the player was, exactly as it was. Any other key returns too, and then does what it does.
//!
//! The shown line takes the place of the line of play while it is open, so that the board, the
//! action list and the stepping are the ones of every line; the line of play waits aside and is
//! never cut, saved or searched meanwhile (the app shows a replay).

use crate::commands::Command;
use crate::game_line::GameLine;

use super::text::join;
use super::{App, Effect, Mode};

/// The line shown instead of the line of play.
#[derive(Clone, Debug)]
pub(super) struct Variation {
    /// The line of play, as it was, and its mode.
    saved: (GameLine, Mode),
    /// The first position of the shown line that belongs to it: stepping goes no further back.
    from: usize,
    /// What it is, for the panel: `White's threat, were Black to pass`.
    what: String,
}

impl App {
    /// Shows `line` from its position `from`, `what` saying what it is; the line of play waits
    /// aside until the player returns.
    pub(super) fn show_variation(&mut self, mut line: GameLine, from: usize, what: String) {
        self.close_variation();
        line.go_to(from);
        let saved = std::mem::replace(&mut self.line, line);
        self.variation = Some(Box::new(Variation {
            saved: (saved, self.mode),
            from,
            what,
        }));
        self.mode = Mode::Replay;
        self.screen.follow_line();
        self.say_variation();
    }

    /// What the shown line is, while one is shown instead of the line of play.
    #[must_use]
    pub fn variation(&self) -> Option<&str> {
        self.variation.as_ref().map(|v| v.what.as_str())
    }

    /// Puts the line of play back, as it was.
    pub(super) fn close_variation(&mut self) -> bool {
        let Some(variation) = self.variation.take() else {
            return false;
        };
        let (line, mode) = variation.saved;
        self.line = line;
        self.mode = mode;
        self.screen.follow_line();
        true
    }

    /// The keys while a line is shown: stepping, and returning; `None` for a key that first
    /// returns and then does what it does.
    pub(super) fn variation_key(&mut self, command: Command) -> Option<Effect> {
        let variation = self.variation.as_ref()?;
        let (from, len) = (variation.from, self.line.actions().len());
        let here = self.line.shown();
        let to = match command {
            Command::Right | Command::Redo => (here + 1).min(len),
            Command::Left | Command::Undo => here.saturating_sub(1).max(from),
            Command::First => from,
            Command::Last => len,
            Command::Why | Command::Quit => {
                self.close_variation();
                self.info("Back where you were.");
                return Some(Effect::None);
            }
            _ => {
                self.close_variation();
                return None;
            }
        };
        self.line.go_to(to);
        self.screen.follow_line();
        self.say_variation();
        Some(Effect::None)
    }

    /// The panel's message while a line is shown: what it is, how far it has come.
    fn say_variation(&mut self) {
        let Some(variation) = self.variation.as_ref() else {
            return;
        };
        let line = &self.line.actions()[variation.from..];
        let done = self.line.shown() - variation.from;
        let played = join(&line[..done]);
        let step = if done == 0 {
            format!("{} actions: → steps through them", line.len())
        } else {
            format!("{done} of {}: {played}", line.len())
        };
        let end = match self.line.position().winner() {
            Some(w) if done == line.len() => format!(" ({} wins)", w.capitalised()),
            _ => String::new(),
        };
        let text = format!(
            "{}: {step}{end}. ← → step, w or Esc goes back.",
            variation.what
        );
        self.info(text);
    }
}
