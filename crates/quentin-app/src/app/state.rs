//! The app's state, one struct for each concern, so that each part of the machine reads and
//! changes its own: what the screen shows, the messages, the help, who plays, the computer's
//! search, the analysis and hints, the review of a game, the online seat. The line of play
//! itself is a [`crate::game_line::GameLine`].

use crate::layout::Geometry;
use crate::record::Players;
use crate::rules::Point;
use crate::search_handle::SearchNews;

use super::computer::{Hint, Search, Versus};
use super::online::Online;
use super::quint::Pick;
use super::review::GameReview;
use super::{Look, Message};

/// What the board and the panel show, and where they are on the screen.
#[derive(Clone, Debug)]
pub(super) struct Screen {
    /// The point the keys move over the board.
    pub(super) cursor: Point,
    /// Quint's selection in the move phase.
    pub(super) pick: Pick,
    /// The first entry shown in the action list, when the player scrolled it; `None` follows
    /// the current action.
    pub(super) list_top: Option<usize>,
    /// The screen geometry of the last frame, for mouse clicks.
    pub(super) geometry: Geometry,
    /// How the board is drawn.
    pub(super) look: Look,
    /// Keys ignored while the window is too small for the board, counted for the player (and
    /// so that what typed keys did can always be read back from the screen).
    pub(super) ignored_keys: usize,
    /// The text typed at the move prompt (`:`), while it is open.
    pub(super) prompt: Option<String>,
}

impl Screen {
    /// After the line of play moved (an action, undo, redo, the server's news): the action list
    /// follows the current action again, and Quint's selection is dropped.
    pub(super) fn follow_line(&mut self) {
        self.list_top = None;
        self.pick = Pick::Nothing;
    }
}

/// The panel's words: the last message and Konobi's first-time tip.
#[derive(Clone, Debug, Default)]
pub(super) struct Notes {
    /// The last message.
    pub(super) message: Option<Message>,
    /// Konobi's first-time tip, while it shows (not the computer's hint).
    pub(super) tip: Option<&'static str>,
    /// Whether that tip was shown already: it shows once a session.
    pub(super) tip_given: bool,
}

/// The help overlay.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Help {
    /// Whether it is shown.
    pub(super) open: bool,
    /// How many lines it is scrolled down.
    pub(super) scroll: usize,
}

/// Who plays, and the names the record gives them.
#[derive(Clone, Debug)]
pub(super) struct Seats {
    /// Who plays what: the computer's players, its level and time.
    pub(super) versus: Versus,
    /// The `player1`/`player2` texts shown and recorded.
    pub(super) players: Players,
}

/// The computer behind the app: the search its front end runs for it.
#[derive(Clone, Debug, Default)]
pub(super) struct Computer {
    /// Whether a computer stands behind the app (its front end runs the search).
    pub(super) behind: bool,
    /// The search under way or just ended.
    pub(super) search: Option<Search>,
    /// What the search said last, not yet read by a tick.
    pub(super) news: Option<SearchNews>,
}

/// The live analysis and the hints.
#[derive(Clone, Debug, Default)]
pub(super) struct Analysis {
    /// Whether the live analysis is on.
    pub(super) on: bool,
    /// Whether a hint was asked for and not found yet.
    pub(super) hint_wanted: bool,
    /// The last hint found.
    pub(super) hint: Option<Hint>,
}

/// Looking a game over, and its review.
#[derive(Clone, Debug, Default)]
pub(super) struct Review {
    /// Whether the replay is of the game just finished here, looked over (`n` then starts a
    /// new game).
    pub(super) looking_over: bool,
    /// The review of the game, under way or done.
    pub(super) game: Option<GameReview>,
}

/// The seat at a game on a server.
#[derive(Clone, Debug, Default)]
pub(super) struct OnlineSeat {
    /// The game as the server holds it, when this is an online game.
    pub(super) game: Option<Online>,
    /// Whether `R` was just pressed once: a second press resigns.
    pub(super) resign_asked: bool,
}
