//! The game's app as a screen: an event steps it, its effects are what it asks of the driver
//! (requests to send, a search to run, leaving the game: [`Effect::Quit`]), carried out in
//! order; it is drawn by the game's renderer, which tells it where things are for the mouse.
//! Its other inputs (the server's game, the search's news) the driver steps it with as ever.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{Screen, Step};
use crate::app::{App, Effect, Input};
use crate::input::Event;
use crate::render;

impl Screen for App {
    /// The effects of one event, in order; [`Effect::Quit`] among them leaves the game once
    /// those before it are carried out.
    type Ask = Vec<Effect>;
    /// Never: the game is left by its effects, in order with the rest.
    type Outcome = std::convert::Infallible;

    fn handle(&mut self, event: &Event) -> Step<Vec<Effect>, Self::Outcome> {
        let effects = self.step(Input::Event(event.clone()));
        if effects.is_empty() {
            Step::Stay
        } else {
            Step::Ask(effects)
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer) {
        let geometry = render::draw(self, area, buf);
        self.set_geometry(geometry);
    }
}
