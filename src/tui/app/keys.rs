//! Keys and the mouse: what each event does to the app.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::rules::{Action, Game};

use super::{App, Effect, Mode, WHEEL_LINES};

impl App {
    pub(super) fn scroll(&mut self, down: bool, lines: usize) {
        let rows = self.geometry.list_rows.max(1);
        let top = self.list_top(rows);
        self.list_top = Some(if down {
            top + lines
        } else {
            top.saturating_sub(lines)
        });
    }

    /// Handles one terminal event.
    pub fn handle(&mut self, event: &Event) -> Effect {
        match event {
            Event::Key(key) if key.kind == KeyEventKind::Press => self.key(*key),
            Event::Mouse(mouse) => self.mouse(*mouse),
            _ => Effect::None,
        }
    }

    fn key(&mut self, key: KeyEvent) -> Effect {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('q') => return Effect::Quit,
            KeyCode::Char('c') if ctrl => return Effect::Quit,
            KeyCode::Char('z') if ctrl => return Effect::Suspend,
            KeyCode::Char('?') => {
                self.help = !self.help;
                self.help_scroll = 0;
                return Effect::None;
            }
            _ if self.help && self.scroll_help(key.code) => return Effect::None,
            // Esc closes the help as it closes any dialog; only q and Ctrl-C quit from it.
            _ if self.help => {
                self.help = false;
                return Effect::None;
            }
            // Nothing may act on a board the player cannot see.
            KeyCode::Esc if self.geometry.hidden => return Effect::Quit,
            _ if self.geometry.hidden => {
                self.ignored_keys += 1;
                return Effect::None;
            }
            KeyCode::Esc if self.quint_cancel() => return Effect::None,
            KeyCode::Esc => return Effect::Quit,
            KeyCode::PageUp => {
                self.scroll(false, self.geometry.list_rows.saturating_sub(1).max(1));
                return Effect::None;
            }
            KeyCode::PageDown => {
                self.scroll(true, self.geometry.list_rows.saturating_sub(1).max(1));
                return Effect::None;
            }
            _ => {}
        }
        match self.mode {
            Mode::Play => self.play_key(key.code),
            Mode::Replay => self.replay_key(key.code),
        }
    }

    /// Scrolls the help with the arrows, `j`/`k`, PgUp/PgDn, Home/End; false for any other key.
    fn scroll_help(&mut self, code: KeyCode) -> bool {
        let help = self.geometry.help;
        let page = help.rows.saturating_sub(1).max(1);
        let top = self.help_scroll.min(help.max_scroll);
        self.help_scroll = match code {
            KeyCode::Up | KeyCode::Char('k') => top.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => top + 1,
            KeyCode::PageUp => top.saturating_sub(page),
            KeyCode::PageDown => top + page,
            KeyCode::Home | KeyCode::Char('g') => 0,
            KeyCode::End | KeyCode::Char('G') => help.max_scroll,
            _ => return false,
        }
        .min(help.max_scroll);
        true
    }

    fn play_key(&mut self, code: KeyCode) -> Effect {
        if matches!(code, KeyCode::Enter | KeyCode::Char(' ' | 's' | 'x')) && self.busy() {
            return Effect::None;
        }
        if self.setup().game == Game::Quint
            && let Some(effect) = self.quint_key(code)
        {
            return effect;
        }
        let over = self.position().is_over();
        match code {
            KeyCode::Left | KeyCode::Char('h') if over => {
                return self.review(self.current.saturating_sub(1));
            }
            KeyCode::Home | KeyCode::Char('g') if over => return self.review(0),
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(0, 1),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(0, -1),
            KeyCode::Enter | KeyCode::Char(' ') => return self.act(Action::Place(self.cursor)),
            KeyCode::Char('s') => return self.act(Action::Swap),
            KeyCode::Char('u') => return self.take_back(),
            KeyCode::Char('r') => return self.bring_back(),
            KeyCode::Char('n') => return self.new_game(),
            KeyCode::Char('t') => return self.ask_hint(),
            KeyCode::Char('a') => return self.toggle_analysis(),
            _ => {}
        }
        Effect::None
    }

    fn replay_key(&mut self, code: KeyCode) -> Effect {
        match code {
            KeyCode::Left | KeyCode::Char('h') => self.go_to(self.current.saturating_sub(1)),
            KeyCode::Right | KeyCode::Char('l') => self.go_to(self.current + 1),
            KeyCode::Home | KeyCode::Char('g') => self.go_to(0),
            KeyCode::End | KeyCode::Char('G') => self.go_to(self.actions.len()),
            KeyCode::Char('p') => return self.play_on(),
            KeyCode::Char('t') => return self.ask_hint(),
            KeyCode::Char('a') => return self.toggle_analysis(),
            KeyCode::Char('n') if self.reviewing => return self.new_game(),
            KeyCode::Enter | KeyCode::Char(' ' | 's' | 'u' | 'r' | 'n') => {
                self.warn("This is a replay: press p to play on from the shown position.");
            }
            _ => {}
        }
        Effect::None
    }

    fn mouse(&mut self, mouse: MouseEvent) -> Effect {
        if self.geometry.hidden {
            return Effect::None;
        }
        match mouse.kind {
            MouseEventKind::ScrollUp => self.scroll(false, WHEEL_LINES),
            MouseEventKind::ScrollDown => self.scroll(true, WHEEL_LINES),
            // A click anywhere closes the help, and does nothing else.
            MouseEventKind::Down(MouseButton::Left) if self.help => self.help = false,
            MouseEventKind::Moved | MouseEventKind::Down(MouseButton::Left) => {
                let Some(point) = self.geometry.point_at(mouse.column, mouse.row) else {
                    return Effect::None;
                };
                self.cursor = point;
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
        if let Some(p) = board.step(self.cursor, (dc, dr)) {
            self.cursor = p;
        }
    }
}
