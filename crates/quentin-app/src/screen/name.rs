//! The pick of a name, at the first login with a new key or after the operators took the
//! player's name away: the name typed, checked by the driver (the hub takes it or says why
//! not).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::{Screen, Step};
use crate::input::{Event, KeyCode, KeyEventKind, KeyModifiers};

/// The longest name.
const LONGEST: usize = 20;

/// A name being typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamePick {
    /// Whether the operators took the player's name away (else the key is new).
    renamed: bool,
    name: String,
    /// Why the last name was refused.
    said: String,
}

/// What the pick of a name ends with when the player leaves without one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoName;

impl NamePick {
    /// The pick of a new key's name, or, when `renamed`, of a new name for a player whose
    /// name the operators took away.
    #[must_use]
    pub fn new(renamed: bool) -> NamePick {
        NamePick {
            renamed,
            ..NamePick::default()
        }
    }

    /// Says `text` under the name (why the name asked for was refused).
    pub fn say(&mut self, text: impl Into<String>) {
        self.said = text.into();
    }
}

impl Screen for NamePick {
    /// The name typed, for the driver to take.
    type Ask = String;
    type Outcome = NoName;

    fn handle(&mut self, event: &Event) -> Step<String, NoName> {
        let Event::Key(k) = event else {
            return Step::Stay;
        };
        if k.kind != KeyEventKind::Press {
            return Step::Stay;
        }
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        match k.code {
            KeyCode::Char('c') if ctrl => return Step::Leave(NoName),
            KeyCode::Esc => return Step::Leave(NoName),
            KeyCode::Enter => return Step::Ask(self.name.clone()),
            KeyCode::Backspace => {
                self.name.pop();
            }
            // Ctrl-L, Ctrl-A and the like are keys, not letters of the name.
            KeyCode::Char(_) if ctrl || k.modifiers.contains(KeyModifiers::ALT) => {}
            KeyCode::Char(c)
                if self.name.len() < LONGEST
                    && (c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
            {
                self.name.push(c);
            }
            KeyCode::Char(_) => self.said = "Letters, digits, - and _ only.".to_string(),
            _ => {}
        }
        Step::Stay
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer) {
        let text = vec![
            Line::from(if self.renamed {
                "The server's operators took your name away: pick a new one."
            } else {
                "Welcome to quentin. This key is new here: pick a name."
            }),
            Line::from("2 to 20 letters, digits, - and _; Enter to take it, Esc to leave."),
            Line::default(),
            Line::from(format!("Name: {}_", self.name)),
            Line::default(),
            Line::from(self.said.clone()),
        ];
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .render(area, buf);
    }
}

#[cfg(test)]
mod tests;
