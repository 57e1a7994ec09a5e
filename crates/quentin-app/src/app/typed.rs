//! Typing a move (issue 60): `:` opens a one-line prompt on any board; a point's name (`c3`),
//! `swap`, `pass` or a Quint step (`h2-h3`, with its captures `h2-h3xh4`) and Enter play it as
//! the cursor and Enter would, through the same keys' paths (a game, a replay, a puzzle, the
//! course, online), or say why not. Esc closes the prompt. Useful for fast players and screen
//! readers, and the way the tests drive the boards.

use crate::commands::Command;
use crate::input::{KeyCode, KeyEvent, KeyModifiers};
use crate::rules::{Action, Game, ParseActionError, Point};

use super::quint::{Pick, dropping};
use super::text::dimensions;
use super::{App, Effect, Mode};

/// The longest text the prompt takes (a step with four captures is 17 characters).
const MAX_TYPED: usize = 24;

impl App {
    /// The text typed at the move prompt, while it is open.
    #[must_use]
    pub fn prompt(&self) -> Option<&str> {
        self.screen.prompt.as_deref()
    }

    /// Opens the move prompt (`:`).
    pub(super) fn open_prompt(&mut self) {
        self.screen.prompt = Some(String::new());
    }

    /// A key while the prompt is open: a character typed, Backspace, Enter plays, Esc closes.
    /// `None` for a key the prompt leaves to the rest of the app (Ctrl-C, Ctrl-Z).
    pub(super) fn prompt_key(&mut self, key: KeyEvent) -> Option<Effect> {
        let text = self.screen.prompt.as_mut()?;
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return None;
        }
        match key.code {
            KeyCode::Esc => self.screen.prompt = None,
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Enter => {
                let typed = std::mem::take(text);
                self.screen.prompt = None;
                return Some(self.typed(typed.trim()));
            }
            KeyCode::Char(c) if !c.is_control() && text.chars().count() < MAX_TYPED => {
                text.push(c);
            }
            _ => {}
        }
        Some(Effect::None)
    }

    /// Plays the typed `text` as the cursor and Enter would, or says why not.
    fn typed(&mut self, text: &str) -> Effect {
        if text.is_empty() {
            return Effect::None;
        }
        let game = self.setup().game;
        let action = match Action::parse(text) {
            Ok(action) => action,
            Err(ParseActionError::NotAnAction) => {
                self.warn(format!(
                    "{text:?} is not a move: type {}.",
                    game.action_examples()
                ));
                return Effect::None;
            }
            Err(why) => {
                self.warn(format!("{text:?} is not a move: {why}."));
                return Effect::None;
            }
        };
        let board = self.position().board();
        if let Some(p) = action.points().find(|&p| !board.contains(p)) {
            let size = dimensions(self.position().size(), self.look());
            self.warn(format!("{p} is not a point of this {size} board."));
            return Effect::None;
        }
        match action {
            Action::Place(p) => {
                self.screen.cursor = p;
                self.command(Command::Play)
            }
            Action::Swap => self.command(Command::Swap),
            Action::Pass | Action::Step { .. } if self.mode == Mode::Replay => {
                self.command(Command::Play)
            }
            Action::Pass => {
                if self.busy() {
                    return Effect::None;
                }
                self.act(Action::Pass)
            }
            Action::Step { from, to, captures } => {
                self.typed_step(game, from, to, captures.is_empty(), action)
            }
        }
    }

    /// A typed step: with its captures named, played as it is; without, as the cursor would
    /// (select `from`, then `to`, which asks for the captures when the step can take any).
    fn typed_step(
        &mut self,
        game: Game,
        from: Point,
        to: Point,
        bare: bool,
        action: Action,
    ) -> Effect {
        if self.busy() {
            return Effect::None;
        }
        if game != Game::Quint || dropping(self.position()) || !bare || self.position().is_over() {
            // The rules say why a step is refused here, as for any action.
            return self.act(action);
        }
        self.screen.pick = Pick::Nothing;
        self.screen.cursor = from;
        let effect = self.command(Command::Play);
        if self.screen.pick != Pick::Piece(from) {
            return effect;
        }
        self.emit(effect);
        self.screen.cursor = to;
        self.command(Command::Play)
    }

    /// What a key's `command` does in the present mode.
    pub(super) fn command(&mut self, command: Command) -> Effect {
        match self.mode {
            Mode::Play => self.play_key(command),
            Mode::Replay => self.replay_key(command),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::quint::Pick;
    use crate::app::quint::tests::three_captures;
    use crate::app::tests::{effect_of, key, press};
    use crate::app::{App, Effect, Input};
    use crate::input::KeyCode;

    fn last_token(app: &App) -> String {
        app.record_text().lines().last().unwrap_or("").to_string()
    }

    #[test]
    fn a_typed_quint_step_asks_for_its_captures_as_the_cursor_does() {
        let mut app = three_captures();
        press(&mut app, ":c4-c5\n");
        assert!(
            matches!(app.pick(), Pick::Captures { .. }),
            "{:?}",
            app.message()
        );
        assert_eq!(app.prompt(), None);
        // Enter takes every marked piece, as after the cursor's step.
        assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
        assert_eq!(last_token(&app), "c4-c5xb5xc6xd5");
    }

    #[test]
    fn a_typed_step_with_its_captures_plays_at_once_and_esc_closes_the_prompt() {
        let mut app = three_captures();
        assert_eq!(effect_of(&mut app, ":c4-c5xc6\n"), Effect::Save);
        assert_eq!(last_token(&app), "c4-c5xc6");
        press(&mut app, ":d5");
        assert_eq!(app.prompt(), Some("d5"));
        let _ = app.step(Input::Event(key(KeyCode::Esc)));
        assert_eq!(app.prompt(), None);
    }
}
