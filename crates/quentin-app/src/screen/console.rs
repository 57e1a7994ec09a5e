//! A console: a title and a line of usage, a text (a list, an answer) above, and on the last
//! two rows what the last command came to and the command line being typed. Enter gives the
//! line to the driver; Esc goes back. The server's operators' screen is one.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::{Screen, Step};
use crate::input::{Event, KeyCode, KeyEventKind, KeyModifiers};

/// The longest command line typed.
const MAX_LINE: usize = 200;

/// A command line under a text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Console {
    title: String,
    usage: String,
    /// The text shown above the command line.
    text: String,
    /// What the last command came to.
    said: String,
    /// The command line being typed.
    line: String,
}

/// Where a console is left for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// Back to the screen before (Esc).
    Back,
    /// Away altogether (Ctrl-C).
    Quit,
}

impl Console {
    /// A console titled `title`, with a line of `usage` under it.
    #[must_use]
    pub fn new(title: impl Into<String>, usage: impl Into<String>) -> Console {
        Console {
            title: title.into(),
            usage: usage.into(),
            ..Console::default()
        }
    }

    /// Shows `text` above the command line.
    pub fn show(&mut self, text: impl Into<String>) {
        self.text = text.into();
    }

    /// Says what the last command came to, just above the command line.
    pub fn say(&mut self, said: impl Into<String>) {
        self.said = said.into();
    }
}

impl Screen for Console {
    /// A command line given (not blank).
    type Ask = String;
    type Outcome = Leave;

    fn handle(&mut self, event: &Event) -> Step<String, Leave> {
        let Event::Key(k) = event else {
            return Step::Stay;
        };
        if k.kind != KeyEventKind::Press {
            return Step::Stay;
        }
        let (ctrl, alt) = (
            k.modifiers.contains(KeyModifiers::CONTROL),
            k.modifiers.contains(KeyModifiers::ALT),
        );
        match k.code {
            KeyCode::Char('c') if ctrl => return Step::Leave(Leave::Quit),
            KeyCode::Esc => return Step::Leave(Leave::Back),
            KeyCode::Enter if !self.line.trim().is_empty() => {
                return Step::Ask(std::mem::take(&mut self.line));
            }
            KeyCode::Backspace => {
                self.line.pop();
            }
            KeyCode::Char(_) if ctrl || alt => {}
            KeyCode::Char(c) if self.line.len() < MAX_LINE && !c.is_control() => self.line.push(c),
            _ => {}
        }
        Step::Stay
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer) {
        // The command line and the last answer on the last two rows; the rest above.
        let low = area.height.min(2);
        let top = Rect {
            height: area.height - low,
            ..area
        };
        let bottom = Rect {
            y: area.y + top.height,
            height: low,
            ..area
        };
        let mut lines = vec![
            Line::from(self.title.clone()),
            Line::from(self.usage.clone()),
            Line::default(),
        ];
        lines.extend(self.text.lines().map(|l| Line::from(l.to_string())));
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(top, buf);
        let prompt = format!("> {}_", self.line);
        Paragraph::new(vec![Line::from(self.said.clone()), Line::from(prompt)]).render(bottom, buf);
    }
}

#[cfg(test)]
mod tests;
