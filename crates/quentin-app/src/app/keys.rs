//! Keys and the mouse: what each event does to the app.

use crate::input::{
    Event, KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind,
};

use crate::commands::{self, Command};
use crate::rules::{Action, Game};

use super::{App, Effect, Mode, WHEEL_LINES};

impl App {
    pub(super) fn scroll(&mut self, down: bool, lines: usize) {
        let rows = self.screen.geometry.list_rows.max(1);
        let top = self.list_top(rows);
        self.screen.list_top = Some(if down {
            top + lines
        } else {
            top.saturating_sub(lines)
        });
    }

    /// Handles one terminal event.
    pub(crate) fn handle(&mut self, event: &Event) -> Effect {
        match event {
            Event::Key(key) if key.kind == KeyEventKind::Press => self.key(*key),
            Event::Mouse(mouse) => self.mouse(*mouse),
            _ => Effect::None,
        }
    }

    fn key(&mut self, key: KeyEvent) -> Effect {
        if let Some(effect) = self.prompt_key(key) {
            return effect;
        }
        if let Some(effect) = self.ways_key(key) {
            return effect;
        }
        if let Some(effect) = self.stages_key(key) {
            return effect;
        }
        // What the key asks, from the one table of keys; a key it does not bind still closes
        // the help and counts as ignored on a hidden board.
        let command = commands::command(key);
        match command {
            Some(Command::Quit) if key.code != KeyCode::Esc => return Effect::Quit,
            Some(Command::Suspend) => return Effect::Suspend,
            Some(Command::Help) => {
                self.help.open = !self.help.open;
                self.help.scroll = 0;
                return Effect::None;
            }
            _ if self.help.open && command.is_some_and(|c| self.scroll_help(c)) => {
                return Effect::None;
            }
            // Esc closes the help as it closes any dialog; only q and Ctrl-C quit from it.
            _ if self.help.open => {
                self.help.open = false;
                return Effect::None;
            }
            // Nothing may act on a board the player cannot see.
            Some(Command::Quit) if self.screen.geometry.hidden => return Effect::Quit,
            _ if self.screen.geometry.hidden => {
                self.screen.ignored_keys += 1;
                return Effect::None;
            }
            // A line shown: its keys step through it; any other returns, then acts.
            Some(c) if self.variation.is_some() => {
                return match self.variation_key(c) {
                    Some(effect) => effect,
                    None => self.key(key),
                };
            }
            Some(Command::Type) => {
                self.open_prompt();
                return Effect::None;
            }
            Some(Command::Quit) if self.quint_cancel() => return Effect::None,
            Some(Command::Quit) => return Effect::Quit,
            Some(Command::PageUp) => {
                self.scroll(
                    false,
                    self.screen.geometry.list_rows.saturating_sub(1).max(1),
                );
                return Effect::None;
            }
            Some(Command::PageDown) => {
                self.scroll(
                    true,
                    self.screen.geometry.list_rows.saturating_sub(1).max(1),
                );
                return Effect::None;
            }
            _ => {}
        }
        let Some(command) = command else {
            return Effect::None;
        };
        match self.mode {
            Mode::Play => self.play_key(command),
            Mode::Replay => self.replay_key(command),
        }
    }

    /// Scrolls the help with the arrows, `j`/`k`, PgUp/PgDn, Home/End; false for any other key.
    fn scroll_help(&mut self, command: Command) -> bool {
        let help = self.screen.geometry.help;
        let page = help.rows.saturating_sub(1).max(1);
        let top = self.help.scroll.min(help.max_scroll);
        self.help.scroll = match command {
            Command::Up => top.saturating_sub(1),
            Command::Down => top + 1,
            Command::PageUp => top.saturating_sub(page),
            Command::PageDown => top + page,
            Command::First => 0,
            Command::Last => help.max_scroll,
            _ => return false,
        }
        .min(help.max_scroll);
        true
    }

    pub(super) fn play_key(&mut self, command: Command) -> Effect {
        if let Some(effect) = self.online_key(command) {
            return effect;
        }
        if let Some(effect) = self.puzzle_key(command) {
            return effect;
        }
        if let Some(effect) = self.course_key(command) {
            return effect;
        }
        if matches!(
            command,
            Command::Play | Command::Select | Command::Swap | Command::Capture
        ) && self.busy()
        {
            return Effect::None;
        }
        if self.setup().game == Game::Quint
            && let Some(effect) = self.quint_key(command)
        {
            return effect;
        }
        let over = self.position().is_over();
        match command {
            Command::Left if over => return self.review(self.current().saturating_sub(1)),
            Command::First if over => return self.review(0),
            Command::Left => self.move_cursor(-1, 0),
            Command::Right => self.move_cursor(1, 0),
            Command::Up => self.move_cursor(0, 1),
            Command::Down => self.move_cursor(0, -1),
            Command::Play | Command::Select => return self.act(Action::Place(self.screen.cursor)),
            Command::Swap => return self.act(Action::Swap),
            Command::Undo => return self.take_back(),
            Command::Redo => return self.bring_back(),
            Command::NewGame => return self.new_game(),
            Command::Puzzles => self.emit(Effect::Puzzles(self.setup().game)),
            Command::Hint => return self.ask_hint(),
            Command::Analysis => return self.toggle_analysis(),
            Command::Proof => return self.toggle_proof(),
            Command::Review => return self.start_review(),
            Command::Why => return self.show_why(),
            Command::Mistakes => return self.learn_mistakes(),
            Command::NextMark | Command::PreviousMark => {
                self.warn("m and M jump between the marked actions of a review: v starts one.");
            }
            _ => {}
        }
        Effect::None
    }

    pub(super) fn replay_key(&mut self, command: Command) -> Effect {
        if let Some(effect) = self.online_replay_key(command) {
            return effect;
        }
        match command {
            Command::Left => self.go_to(self.current().saturating_sub(1)),
            Command::Right => self.go_to(self.current() + 1),
            Command::First => self.go_to(0),
            Command::Last => self.go_to(self.line.actions().len()),
            Command::PlayOn => return self.play_on(),
            Command::Hint => return self.ask_hint(),
            Command::Analysis => return self.toggle_analysis(),
            Command::Proof => return self.toggle_proof(),
            Command::Review => return self.start_review(),
            Command::Why => return self.show_why(),
            Command::Mistakes => return self.learn_mistakes(),
            Command::NextMark => return self.jump_to_mark(false),
            Command::PreviousMark => return self.jump_to_mark(true),
            Command::NewGame if self.review.looking_over => return self.new_game(),
            Command::Play
            | Command::Select
            | Command::Swap
            | Command::Undo
            | Command::Redo
            | Command::NewGame => {
                self.warn("This is a replay: press p to play on from the shown position.");
            }
            _ => {}
        }
        Effect::None
    }

    fn mouse(&mut self, mouse: MouseEvent) -> Effect {
        if self.screen.geometry.hidden {
            return Effect::None;
        }
        match mouse.kind {
            MouseEventKind::ScrollUp => self.scroll(false, WHEEL_LINES),
            MouseEventKind::ScrollDown => self.scroll(true, WHEEL_LINES),
            // A click anywhere closes the help, and does nothing else.
            MouseEventKind::Down(MouseButton::Left) if self.help.open => self.help.open = false,
            MouseEventKind::Moved | MouseEventKind::Down(MouseButton::Left) => {
                let Some(point) = self.screen.geometry.point_at(mouse.column, mouse.row) else {
                    return Effect::None;
                };
                self.screen.cursor = point;
                if mouse.kind == MouseEventKind::Down(MouseButton::Left) && self.variation.is_some()
                {
                    self.warn("This line is only shown: w or Esc goes back.");
                    return Effect::None;
                }
                if mouse.kind == MouseEventKind::Down(MouseButton::Left)
                    && self.mode == Mode::Play
                    && !self.busy()
                {
                    if self.setup().game == Game::Quint {
                        return self.quint_click(point);
                    }
                    return self.act(Action::Place(point));
                }
            }
            _ => {}
        }
        Effect::None
    }

    pub(super) fn move_cursor(&mut self, dc: isize, dr: isize) {
        let board = self.position().board();
        if let Some(p) = board.step(self.screen.cursor, (dc, dr)) {
            self.screen.cursor = p;
        }
    }
}
