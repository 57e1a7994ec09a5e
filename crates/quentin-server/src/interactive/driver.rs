//! The one loop that runs every screen of a player's terminal: the game (played, watched, a
//! puzzle), the lobby with its challenge form and tournaments, the operators' screen, a
//! notice, the pick of a name. A screen is the app crate's ([`AppScreen`]): plain state that
//! takes events and draws itself. What the server does around it is its [`Glue`]: what the
//! hub has, given to the screen before each frame; what wakes it besides the player's keys;
//! the hub's work it asks for; where the session goes when it is left.

use std::time::Duration;

use tokio::sync::watch;
use tokio::time::{Instant, Interval};

use quentin_app::input::Event;
use quentin_app::screen::{Screen as AppScreen, Step};

use super::Screen;
use crate::channel::Inbox;

/// What to do with the screen before the next wait.
pub(super) enum Refresh<D> {
    /// Draw it.
    Draw,
    /// Nothing it shows has changed: no frame.
    Skip,
    /// Leave it, the session going on to this.
    Leave(D),
}

/// What wakes a screen besides the player's input.
#[derive(Default)]
pub(super) struct Wake<'a> {
    /// The hub's news of what the screen shows.
    pub news: Option<&'a mut watch::Receiver<u64>>,
    /// The moment, from now, when the text of a clock on it changes.
    pub change_in: Option<Duration>,
    /// The beat of something drawn on one (a review's search).
    pub beat: Option<&'a mut Interval>,
}

/// What the server does around one screen.
pub(super) trait Glue {
    /// The screen.
    type Screen: AppScreen;
    /// Where the session goes when the screen is left.
    type Done;

    /// The screen, to feed and to draw.
    fn screen(&mut self) -> &mut Self::Screen;

    /// Where the session goes when the client has gone.
    fn gone(&self) -> Self::Done;

    /// Before each frame: what the hub has now, given to the screen.
    async fn refresh(&mut self) -> Refresh<Self::Done> {
        Refresh::Draw
    }

    /// Just after a frame was drawn.
    fn drawn(&mut self) {}

    /// What wakes the screen besides the player's input (nothing, unless said).
    fn wake(&mut self) -> Wake<'_> {
        Wake::default()
    }

    /// After a wait with no event (`quiet`): the moment before which the next frame is not
    /// drawn, and not before the client has taken the last one; `None` to draw at once.
    fn settle(&mut self, quiet: bool) -> Option<Instant> {
        let _ = quiet;
        None
    }

    /// After a wait, whether it was the clock alone that woke the screen.
    fn woke(&mut self, clock_only: bool) {
        let _ = clock_only;
    }

    /// An event the glue takes before the screen sees it: where the session goes, if it
    /// leaves on it.
    fn before(&mut self, event: &Event) -> Option<Self::Done> {
        let _ = event;
        None
    }

    /// Carries out what the screen asked; where the session goes, if it leaves the screen.
    async fn act(&mut self, ask: <Self::Screen as AppScreen>::Ask) -> Option<Self::Done>;

    /// Where the session goes when the screen is left with `outcome`.
    fn left(&mut self, outcome: <Self::Screen as AppScreen>::Outcome) -> Self::Done;
}

/// Runs the screen of `glue` on the player's terminal until it is left or the client goes:
/// refreshed and drawn, then the wait for input or news, then each event handled in order,
/// what each asks carried out before the next is read (a move typed just before `q` still
/// reaches the server).
pub(super) async fn drive<G: Glue>(glue: &mut G, term: &mut Screen, input: &mut Inbox) -> G::Done {
    loop {
        match glue.refresh().await {
            Refresh::Leave(done) => return done,
            Refresh::Skip => {}
            Refresh::Draw => {
                let screen = glue.screen();
                if !term.draw(|area, buf| screen.draw(area, buf)).await {
                    return glue.gone();
                }
                glue.drawn();
            }
        }
        let wake = glue.wake();
        let Some((mut events, clock)) =
            term.wait(input, wake.news, wake.change_in, wake.beat).await
        else {
            return glue.gone();
        };
        if let Some(not_before) = glue.settle(events.is_empty()) {
            let Some(typed) = term.settle(input, not_before).await else {
                return glue.gone();
            };
            events = typed;
        }
        glue.woke(clock && events.is_empty());
        if let Some(done) = handle(glue, events).await {
            return done;
        }
    }
}

/// Gives `events` to the screen of `glue` one by one, what each asks carried out before the
/// next is handled; where the session goes if the screen is left.
pub(super) async fn handle<G: Glue>(glue: &mut G, events: Vec<Event>) -> Option<G::Done> {
    for event in events {
        if let Some(done) = glue.before(&event) {
            return Some(done);
        }
        match glue.screen().handle(&event) {
            Step::Stay => {}
            Step::Ask(ask) => {
                if let Some(done) = glue.act(ask).await {
                    return Some(done);
                }
            }
            Step::Leave(outcome) => return Some(glue.left(outcome)),
        }
    }
    None
}
