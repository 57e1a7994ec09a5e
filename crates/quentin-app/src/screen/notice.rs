//! A notice: text shown until a key comes.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::{Screen, Step};
use crate::input::Event;

/// Text shown until a key comes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    text: String,
}

impl Notice {
    /// A notice of `text`.
    #[must_use]
    pub fn new(text: impl Into<String>) -> Notice {
        Notice { text: text.into() }
    }
}

impl Screen for Notice {
    type Ask = std::convert::Infallible;
    type Outcome = ();

    fn handle(&mut self, event: &Event) -> Step<Self::Ask, ()> {
        match event {
            Event::Key(_) => Step::Leave(()),
            _ => Step::Stay,
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer) {
        Paragraph::new(self.text.clone())
            .wrap(Wrap { trim: false })
            .render(area, buf);
    }
}

#[cfg(test)]
mod tests;
