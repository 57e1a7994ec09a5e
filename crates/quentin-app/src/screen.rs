//! One contract for every screen a front end shows: the game, the lobby, the challenge form,
//! a notice, the pick of a name. A screen is plain state: it takes the app's own input events
//! one by one, says what its driver must do about each ([`Step`]), and draws itself into a
//! ratatui buffer of any size. It knows no terminal, no network and no server: the driver (the
//! SSH server's session, `crates/quentin-server/src/interactive/driver.rs`) reads the events,
//! carries out what the screen asks, gives it back what it needs, and draws it.
//!
//! Adding a screen: a type that implements [`Screen`], its `Ask` what it needs from outside
//! (the hub's answer to a name, a challenge to make) and its `Outcome` what it ends with; the
//! driver's glue for it on the server's side. No loop of its own.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::input::Event;

pub mod console;
mod game;
pub mod lobby;
pub mod name;
pub mod notice;

/// What a screen asks of its driver after an event.
#[derive(Clone, Debug, PartialEq)]
pub enum Step<A, O> {
    /// Nothing beyond drawing it again.
    Stay,
    /// Carry out this, then go on with the screen (which the driver may tell of the answer).
    Ask(A),
    /// The screen is done: leave it with this outcome.
    Leave(O),
}

/// A screen: plain state fed the app's input events and drawn into a buffer.
pub trait Screen {
    /// What the screen asks its driver to carry out (the hub's work, on a server).
    type Ask;
    /// What the screen ends with.
    type Outcome;

    /// Handles one event.
    fn handle(&mut self, event: &Event) -> Step<Self::Ask, Self::Outcome>;

    /// Draws the screen into `area` of `buf`. Mutable: a screen may remember where it drew
    /// things (for the mouse).
    fn draw(&mut self, area: Rect, buf: &mut Buffer);
}

/// What a test sees of a screen drawn at `width`×`height`: its rows as text, trailing spaces
/// cut.
#[cfg(test)]
pub(crate) fn shown(screen: &mut impl Screen, width: u16, height: u16) -> String {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    screen.draw(area, &mut buf);
    (0..height)
        .map(|y| {
            let row: String = (0..width).map(|x| buf[(x, y)].symbol()).collect();
            row.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
