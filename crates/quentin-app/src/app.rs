//! The interface as a state machine, with one way in and one way out: [`App::step`] takes one
//! [`Input`] (an event at the terminal, the search's news, the server's game, the frame drawn)
//! and gives back what the front end must do ([`Effect`]s: save, search, send, quit, in the
//! order asked). No terminal, no files: the tests drive it with key and mouse events.
//!
//! The app keeps the whole line of play: every position from the start, the actions between them
//! and how many of them are on the board now. Undo steps back along that line and redo forward;
//! a new action cuts the undone ones off. The record always holds the actions on the board.
//!
//! Quint's moves take several keys (select a piece, its destination, the pieces to take): that
//! part of the machine is in its `quint` module.

pub(crate) mod computer;
pub(crate) mod course;
mod keys;
mod names;
pub(crate) mod online;
mod playing;
mod proof;
pub(crate) mod puzzle;
pub(crate) mod quint;
mod review;
mod state;
mod text;
mod typed;
mod variation;

use std::path::{Path, PathBuf};

use crate::game_line::GameLine;
use crate::record::{self, Players, Record};
use crate::rules::{Action, Color, Game, Point, Position, Setup, SetupError};

use super::input::Event;
use super::layout::Geometry;
use super::search_handle::{SearchNews, SearchOrder};

pub use computer::{Hint, Job, Versus, chance};
pub use course::LevelState;
pub use online::{Finish, Online, Request, edges};
pub use puzzle::{HINT_CHOICES, PuzzleNews, PuzzleStanding, PuzzleState, goal_text, hint_area};
pub use review::{REVIEW_PLAYOUTS, Why};
use state::{Analysis, Computer, Help, Notes, OnlineSeat, Review, Screen, Seats};

pub use quint::{Pick, capturable, cells_text, dropping, reachable};
pub use text::{KONOBI_TIP, count, dimensions, refusal_text, removals_text, wins_text};

/// Whether the app plays a game or steps through a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Two people play at one keyboard.
    Play,
    /// A saved record is shown, one position at a time.
    Replay,
}

/// How the board is drawn: the terminal's abilities and the player's wishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Draw with ASCII characters only (`--ascii`).
    pub ascii: bool,
    /// Use colours (off when `NO_COLOR` is set).
    pub color: bool,
}

impl Look {
    /// Unicode glyphs and colours: the normal look.
    pub const FULL: Look = Look {
        ascii: false,
        color: true,
    };

    /// The look the environment asks for: colours unless `NO_COLOR` is set to something.
    #[must_use]
    pub fn from_env(ascii: bool) -> Look {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Look {
            ascii,
            color: !no_color,
        }
    }
}

/// What the app asks of its front end, in the order asked: the one way out of the app. Each
/// call of [`App::step`] gives them back; the front end carries them out in that order.
#[derive(Clone, Debug, PartialEq)]
#[must_use]
pub enum Effect {
    /// Nothing: what a key that only changes the screen gives inside the app (never in the
    /// outbox).
    None,
    /// The line of play changed: save the record.
    Save,
    /// A new game began (after a win, or playing on from a replay): save it to a new record
    /// file and tell the app its path.
    NewRecord,
    /// Leave the program.
    Quit,
    /// Give the terminal back and stop, as Ctrl-Z does in a shell (`fg` takes it back).
    Suspend,
    /// Start or stop the search the front end runs for the app.
    Search(SearchOrder),
    /// Send this to the server (an online game).
    Send(Request),
    /// A puzzle's attempt ended, or the player asks for the next puzzle (the puzzle mode).
    Puzzle(PuzzleNews),
    /// Leave this game, whose record is saved, for the puzzles of this game (a local game's
    /// `P`; the terminal's front end opens them).
    Puzzles(Game),
}

/// What a front end tells the app: the one way in. Both front ends (the terminal loop and a
/// session of the network server) call [`App::step`] with these, in the same order: the news
/// first (the search's, or the server's game), then the frame drawn, then each event.
#[derive(Clone, Debug)]
pub enum Input {
    /// Something happened at the player's terminal.
    Event(Event),
    /// The latest news of the search the front end runs (before every frame, while the app
    /// has a computer behind it).
    Search(SearchNews),
    /// The server's game as committed: its actions, and its state beside the board (an online
    /// game, whenever the server says it changed and before every frame).
    Server(Vec<Action>, Box<Online>),
    /// A frame was drawn: where things are now, for mouse clicks and scrolling.
    Drawn(Geometry),
}

/// How a message is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// News: an action played, a pass announced.
    Info,
    /// Something was refused: an illegal point, a key that does nothing now.
    Refusal,
}

/// The last message in the side panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The words.
    pub text: String,
    /// How to show them.
    pub tone: Tone,
}

/// The person playing `color`: 1 for the one who moved first, 2 for the other; a swap exchanges
/// them.
#[must_use]
pub fn player(color: Color, swapped: bool) -> u8 {
    match (color, swapped) {
        (Color::Black, false) | (Color::White, true) => 1,
        (Color::Black, true) | (Color::White, false) => 2,
    }
}

/// The person playing `color` in `position`'s game: 1 for the one who moved first (Black, but
/// White in Quint), 2 for the other; a swap exchanges them.
#[must_use]
pub fn player_of(position: &Position, color: Color) -> u8 {
    let white_first = position.game().first_color() == Color::White;
    player(color, position.swapped() != white_first)
}

/// The state of the interface: events and the search's news in, effects and search orders out.
/// Each concern keeps its own part (`app/state.rs`).
#[derive(Clone, Debug)]
pub struct App {
    /// The line of play: its positions, its actions (undone ones included), the shown one.
    line: GameLine,
    /// Play or replay.
    mode: Mode,
    /// Where the record is saved, once it is.
    record_path: Option<PathBuf>,
    /// What the board and the panel show, and where they are on the screen.
    screen: Screen,
    /// The panel's message and tip.
    notes: Notes,
    /// The help overlay.
    help: Help,
    /// Who plays, and their names.
    seats: Seats,
    /// The computer's search.
    computer: Computer,
    /// The live analysis and the hints.
    analysis: Analysis,
    /// Looking the game over, and its review.
    review: Review,
    /// The seat at a game on a server.
    online: OnlineSeat,
    /// The puzzle being solved, in the puzzle mode.
    puzzle: Option<Box<puzzle::PuzzleSeat>>,
    /// The level being learnt, in the course.
    course: Option<Box<course::CourseSeat>>,
    /// A line shown instead of the line of play for a while: a threat, a refutation.
    variation: Option<Box<variation::Variation>>,
    /// The proof browser.
    proof: proof::ProofView,
    /// What the app asks of its front end, until the step that asked gives it back.
    outbox: Vec<Effect>,
}

/// The app is plain data: it holds no search, no terminal and nothing shared, so any front end can
/// drive it from any thread (the network server runs one for each session, in async tasks).
const _: () = {
    const fn send<T: Send + 'static>() {}
    send::<App>();
};

/// How many lines a mouse wheel step scrolls the action list.
const WHEEL_LINES: usize = 3;

/// How many forced passes may follow one another before the app stops passing by itself (two
/// would mean neither side can place a stone; the rules make that impossible, but a loop of
/// passes must never hang the interface).
const MAX_AUTO_PASSES: usize = 2;

impl App {
    /// A new game from `setup`.
    ///
    /// # Errors
    /// When the setup is invalid.
    pub fn new(setup: Setup, look: Look) -> Result<App, SetupError> {
        let start = setup.start()?;
        Ok(App::from_line(GameLine::new(start), Mode::Play, look))
    }

    /// The record shown after its first `at` actions (all of them when `at` is larger), to step
    /// through.
    #[must_use]
    pub fn replay(record: &Record, at: usize, look: Look) -> App {
        let mut app = App::from_line(record.line(), Mode::Replay, look);
        app.seats.players = record.players().clone();
        app.go_to(at);
        app.info("Replay: Left/Right step, Home/End jump, p plays on from the shown position.");
        app
    }

    /// The game of `record`, ready to play on after its last action.
    #[must_use]
    pub fn resume(record: &Record, look: Look) -> App {
        let mut app = App::replay(record, usize::MAX, look);
        app.mode = Mode::Play;
        let n = app.current();
        app.info(format!(
            "Resumed after {n} action{}; new actions are added to the same record.",
            if n == 1 { "" } else { "s" }
        ));
        app
    }

    fn from_line(line: GameLine, mode: Mode, look: Look) -> App {
        let size = line.start().size();
        App {
            line,
            mode,
            record_path: None,
            screen: Screen {
                cursor: Point::new(size / 2, size / 2),
                pick: Pick::Nothing,
                list_top: None,
                geometry: Geometry::default(),
                look,
                ignored_keys: 0,
                prompt: None,
            },
            notes: Notes::default(),
            help: Help::default(),
            seats: Seats {
                versus: Versus::PEOPLE,
                players: Players::default(),
            },
            computer: Computer::default(),
            analysis: Analysis::default(),
            review: Review::default(),
            online: OnlineSeat::default(),
            puzzle: None,
            course: None,
            variation: None,
            proof: proof::ProofView::default(),
            outbox: Vec::new(),
        }
    }

    /// The position on the board.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.line.position()
    }

    /// The position after the first `n` actions of the line of play (after all of them when
    /// `n` is beyond it).
    #[must_use]
    pub fn position_at(&self, n: usize) -> &Position {
        self.line.position_at(n)
    }

    /// The setup of the game.
    #[must_use]
    pub fn setup(&self) -> Setup {
        self.position().setup()
    }

    /// The whole line of play, undone actions included.
    #[must_use]
    pub fn actions(&self) -> &[Action] {
        self.line.actions()
    }

    /// How many actions are on the board.
    #[must_use]
    pub fn current(&self) -> usize {
        self.line.shown()
    }

    /// The last action on the board.
    #[must_use]
    pub fn last_action(&self) -> Option<Action> {
        self.line.last_played()
    }

    /// The point of the last placement on the board, to mark it.
    #[must_use]
    pub fn last_placement(&self) -> Option<Point> {
        self.line.played().iter().rev().find_map(|a| a.point())
    }

    /// The cursor.
    #[must_use]
    pub fn cursor(&self) -> Point {
        self.screen.cursor
    }

    /// Play or replay.
    #[must_use]
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The last message.
    #[must_use]
    pub fn message(&self) -> Option<&Message> {
        self.notes.message.as_ref()
    }

    /// Whether the help overlay is open.
    #[must_use]
    pub fn help_open(&self) -> bool {
        self.help.open
    }

    /// A tip for a newcomer shown under the last message, such as why Konobi refuses most
    /// diagonal moves.
    #[must_use]
    pub fn tip(&self) -> Option<&'static str> {
        self.notes.tip
    }

    /// How many lines the help overlay is scrolled down (the drawing shows no more than its
    /// last line at the bottom).
    #[must_use]
    pub fn help_scroll(&self) -> usize {
        self.help.scroll
    }

    /// How many keys were ignored since the window became too small for the board.
    #[must_use]
    pub fn ignored_keys(&self) -> usize {
        self.screen.ignored_keys
    }

    /// How to draw.
    #[must_use]
    pub fn look(&self) -> Look {
        self.screen.look
    }

    /// Where the record is saved, once the run loop said so.
    #[must_use]
    pub fn record_path(&self) -> Option<&Path> {
        self.record_path.as_deref()
    }

    /// Tells the app where its record is saved (shown in the help overlay).
    pub fn set_record_path(&mut self, path: PathBuf) {
        self.record_path = Some(path);
    }

    /// Takes one input and gives back what the app asks of its front end, in order (the
    /// search's orders and the server's requests as they were asked, then what the input
    /// itself calls for).
    pub fn step(&mut self, input: Input) -> Vec<Effect> {
        let effect = match input {
            Input::Event(event) => self.handle(&event),
            Input::Search(news) => {
                self.searched(news);
                self.tick()
            }
            Input::Server(actions, online) => {
                self.close_variation();
                self.sync_online(&actions, *online);
                self.forced_pass();
                Effect::None
            }
            Input::Drawn(geometry) => {
                self.set_geometry(geometry);
                Effect::None
            }
        };
        self.follow_proof();
        self.emit(effect);
        std::mem::take(&mut self.outbox)
    }

    /// Puts `effect` in the outbox (nothing for [`Effect::None`]).
    pub(crate) fn emit(&mut self, effect: Effect) {
        if effect != Effect::None {
            self.outbox.push(effect);
        }
    }

    /// Remembers the geometry of the screen just drawn, for mouse clicks and scrolling.
    pub(crate) fn set_geometry(&mut self, geometry: Geometry) {
        if !geometry.hidden {
            self.screen.ignored_keys = 0;
        }
        self.screen.geometry = geometry;
    }

    /// The record of the actions on the board.
    #[must_use]
    pub fn record_text(&self) -> String {
        record::write_players(self.setup(), &self.seats.players, self.line.played())
    }

    /// Shows a refusal or a failure (of the app, or outside it, such as saving).
    pub fn warn(&mut self, text: impl Into<String>) {
        self.notes.tip = None;
        self.notes.message = Some(Message {
            text: text.into(),
            tone: Tone::Refusal,
        });
    }

    /// Shows news: what happened, what the keys do now.
    pub fn info(&mut self, text: impl Into<String>) {
        self.notes.tip = None;
        self.notes.message = Some(Message {
            text: text.into(),
            tone: Tone::Info,
        });
    }

    /// The first entry of the action list to show in `rows` lines: where the player scrolled
    /// it, or else around the current action; never in the setup of a course level or a
    /// puzzle, which the list does not show as moves.
    #[must_use]
    pub fn list_top(&self, rows: usize) -> usize {
        let given = self.given();
        let len = self.line.actions().len();
        let last_top = len.saturating_sub(rows).max(given);
        let top = match self.screen.list_top {
            Some(top) => top.min(last_top),
            None => self.current().saturating_sub(1 + rows / 2).min(last_top),
        };
        top.max(given)
    }

    /// How many actions of the line set up the position given (a course level's, a
    /// puzzle's): nobody played them, so the action list starts after them. 0 in a game.
    #[must_use]
    pub fn given(&self) -> usize {
        if self.variation.is_some() {
            0
        } else if let Some(seat) = &self.course {
            seat.level.actions.len()
        } else {
            self.puzzle.as_ref().map_or(0, |seat| seat.start)
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
