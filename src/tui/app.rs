//! The interface as a state machine: [`App::handle`] takes one terminal event and says what the
//! run loop must do next ([`Effect`]). No terminal, no files: the tests drive it with key and
//! mouse events.
//!
//! The app keeps the whole line of play: every position from the start, the actions between them
//! and how many of them are on the board now. Undo steps back along that line and redo forward;
//! a new action cuts the undone ones off. The record always holds the actions on the board.
//!
//! Quint's moves take several keys (select a piece, its destination, the pieces to take): that
//! part of the machine is in its `quint` module.

pub(crate) mod quint;

use std::path::{Path, PathBuf};

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::record::{self, Record};
use crate::report::capitalised;
use crate::rules::{Action, Color, Game, Point, Position, Setup, SetupError};

use super::render::{BoardStyle, Geometry};

pub use quint::{Pick, capturable, cells_text, dropping, reachable};

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

/// What the run loop must do after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum Effect {
    /// Only the screen changed.
    None,
    /// The line of play changed: save the record.
    Save,
    /// A new game began (after a win, or playing on from a replay): save it to a new record
    /// file and tell the app its path.
    NewRecord,
    /// Leave the program.
    Quit,
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
    let white_first = position.game() == Game::Quint;
    player(color, position.swapped() != white_first)
}

/// The state of the interface.
#[derive(Clone, Debug)]
pub struct App {
    /// Every position of the line of play: `positions[i]` follows the first `i` actions.
    positions: Vec<Position>,
    /// The line of play, undone actions included.
    actions: Vec<Action>,
    /// How many actions are on the board; the rest can be redone.
    current: usize,
    cursor: Point,
    mode: Mode,
    message: Option<Message>,
    help: bool,
    look: Look,
    record_path: Option<PathBuf>,
    /// The first entry shown in the action list, when the player scrolled it; `None` follows
    /// the current action.
    list_top: Option<usize>,
    /// The screen geometry of the last render, for mouse clicks.
    geometry: Geometry,
    /// Quint's selection in the move phase.
    pick: Pick,
}

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
        Ok(App::from_line(vec![start], Vec::new(), Mode::Play, look))
    }

    /// The record shown after its first `at` actions (all of them when `at` is larger), to step
    /// through.
    #[must_use]
    pub fn replay(record: &Record, at: usize, look: Look) -> App {
        let actions = record.actions().to_vec();
        let positions = (0..=actions.len()).map(|n| record.position_at(n)).collect();
        let mut app = App::from_line(positions, actions, Mode::Replay, look);
        app.go_to(at);
        app.info("Replay: Left/Right step, Home/End jump, p plays on from the shown position.");
        app
    }

    fn from_line(positions: Vec<Position>, actions: Vec<Action>, mode: Mode, look: Look) -> App {
        let size = positions.first().map_or(1, Position::size);
        let current = actions.len();
        App {
            positions,
            actions,
            current,
            cursor: Point::new(size / 2, size / 2),
            mode,
            message: None,
            help: false,
            look,
            record_path: None,
            list_top: None,
            geometry: Geometry::default(),
            pick: Pick::Nothing,
        }
    }

    /// The position on the board.
    #[must_use]
    pub fn position(&self) -> &Position {
        // ok: `positions` holds one more entry than there are actions, and `current` counts
        // actions, so the index is always in range.
        &self.positions[self.current]
    }

    /// The position after the first `n` actions of the line of play (the current one when `n`
    /// is beyond it).
    #[must_use]
    pub fn position_at(&self, n: usize) -> &Position {
        self.positions.get(n).unwrap_or_else(|| self.position())
    }

    /// The setup of the game.
    #[must_use]
    pub fn setup(&self) -> Setup {
        self.position().setup()
    }

    /// The whole line of play, undone actions included.
    #[must_use]
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// How many actions are on the board.
    #[must_use]
    pub fn current(&self) -> usize {
        self.current
    }

    /// The last action on the board.
    #[must_use]
    pub fn last_action(&self) -> Option<Action> {
        self.current.checked_sub(1).map(|i| self.actions[i])
    }

    /// The point of the last placement on the board, to mark it.
    #[must_use]
    pub fn last_placement(&self) -> Option<Point> {
        self.actions[..self.current]
            .iter()
            .rev()
            .find_map(|a| a.point())
    }

    /// The cursor.
    #[must_use]
    pub fn cursor(&self) -> Point {
        self.cursor
    }

    /// Play or replay.
    #[must_use]
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The last message.
    #[must_use]
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// Whether the help overlay is open.
    #[must_use]
    pub fn help_open(&self) -> bool {
        self.help
    }

    /// How to draw.
    #[must_use]
    pub fn look(&self) -> Look {
        self.look
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

    /// Remembers the geometry of the screen just drawn, for mouse clicks and scrolling.
    pub fn set_geometry(&mut self, geometry: Geometry) {
        self.geometry = geometry;
    }

    /// The record of the actions on the board.
    #[must_use]
    pub fn record_text(&self) -> String {
        record::write(self.setup(), &self.actions[..self.current])
    }

    /// Shows a refusal or a failure (of the app, or outside it, such as saving).
    pub fn warn(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: text.into(),
            tone: Tone::Refusal,
        });
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: text.into(),
            tone: Tone::Info,
        });
    }

    /// The first entry of the action list to show in `rows` lines: where the player scrolled
    /// it, or else around the current action.
    #[must_use]
    pub fn list_top(&self, rows: usize) -> usize {
        let len = self.actions.len();
        let last_top = len.saturating_sub(rows);
        match self.list_top {
            Some(top) => top.min(last_top),
            None => self.current.saturating_sub(1 + rows / 2).min(last_top),
        }
    }

    fn scroll(&mut self, down: bool, lines: usize) {
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
            KeyCode::Esc if !self.help && self.quint_cancel() => return Effect::None,
            KeyCode::Char('q') | KeyCode::Esc => return Effect::Quit,
            KeyCode::Char('c') if ctrl => return Effect::Quit,
            KeyCode::Char('?') => {
                self.help = !self.help;
                return Effect::None;
            }
            _ if self.help => {
                self.help = false;
                return Effect::None;
            }
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

    fn play_key(&mut self, code: KeyCode) -> Effect {
        if self.setup().game == Game::Quint
            && let Some(effect) = self.quint_key(code)
        {
            return effect;
        }
        match code {
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(0, 1),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(0, -1),
            KeyCode::Enter | KeyCode::Char(' ') => return self.act(Action::Place(self.cursor)),
            KeyCode::Char('s') => return self.act(Action::Swap),
            KeyCode::Char('u') => return self.undo(),
            KeyCode::Char('r') => return self.redo(),
            KeyCode::Char('n') => return self.new_game(),
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
            KeyCode::Enter | KeyCode::Char(' ' | 's' | 'u' | 'r' | 'n') => {
                self.warn("This is a replay: press p to play on from the shown position.");
            }
            _ => {}
        }
        Effect::None
    }

    fn mouse(&mut self, mouse: MouseEvent) -> Effect {
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
                if mouse.kind == MouseEventKind::Down(MouseButton::Left) && self.mode == Mode::Play
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

    fn move_cursor(&mut self, dc: isize, dr: isize) {
        let board = self.position().board();
        if let Some(p) = board.step(self.cursor, (dc, dr)) {
            self.cursor = p;
        }
    }

    /// Plays `action` for the side to move, then any forced passes; refuses an illegal action
    /// with the rules' reason and changes nothing.
    fn act(&mut self, action: Action) -> Effect {
        let position = self.position();
        if position.is_over() {
            self.warn("The game is over: n starts a new game, u takes back the last action.");
            return Effect::None;
        }
        let Some(mover) = position.to_move() else {
            return Effect::None;
        };
        let effect = match position.preview(action) {
            Ok(effect) => effect,
            Err(reason) => {
                let what = match action {
                    Action::Swap => "swap".to_string(),
                    other => format!("play {other}"),
                };
                self.warn(format!("{} cannot {what}: {reason}.", capitalised(mover)));
                return Effect::None;
            }
        };
        let mut next = position.clone();
        if let Err(reason) = next.play(action) {
            // The preview said it was legal; the rules would have to contradict themselves.
            self.warn(format!(
                "{} cannot play {action}: {reason}.",
                capitalised(mover)
            ));
            return Effect::None;
        }
        let mut text = match action {
            Action::Swap => format!(
                "Swap: the players exchange colours; Player {} now plays White.",
                player(Color::White, true)
            ),
            Action::Pass => format!("{} passes.", capitalised(mover)),
            Action::Step { .. } => format!("{} played {action}.", capitalised(mover)),
            Action::Place(p) => {
                let mut filled = [0usize; 2];
                for (_, color) in effect.fills() {
                    filled[color.index()] += 1;
                }
                let unit = BoardStyle::of(position.game()).unit();
                let removing = removals_text(&effect)
                    .map(|r| format!(", removing {r}"))
                    .unwrap_or_default();
                format!(
                    "{} played {p}{}{removing}.",
                    capitalised(mover),
                    fills_text(filled, unit)
                )
            }
        };
        self.push(action, next);
        self.pass_if_forced(&mut text);
        if let Some(why) = quint::ending(self.position()) {
            text.push(' ');
            text.push_str(&why);
        }
        if let Some(outcome) = self.position().outcome()
            && let Some(winner) = outcome.winner()
        {
            text.push_str(&format!(
                " {} wins (Player {}).",
                capitalised(winner),
                player_of(self.position(), winner)
            ));
        }
        self.info(text);
        Effect::Save
    }

    /// Plays the pass of a side that has no legal placement, announcing it in `text`.
    fn pass_if_forced(&mut self, text: &mut String) {
        for _ in 0..MAX_AUTO_PASSES {
            let position = self.position();
            let Some(stuck) = position.to_move() else {
                return;
            };
            if position.legal_actions() != [Action::Pass] {
                return;
            }
            let mut next = position.clone();
            if next.play(Action::Pass).is_err() {
                return;
            }
            text.push_str(&format!(
                " {} has no legal placement and passes.",
                capitalised(stuck)
            ));
            self.push(Action::Pass, next);
        }
    }

    /// Puts `action`, leading to `next`, after the current action; undone actions are dropped.
    fn push(&mut self, action: Action, next: Position) {
        self.actions.truncate(self.current);
        self.positions.truncate(self.current + 1);
        self.actions.push(action);
        self.positions.push(next);
        self.current += 1;
        self.list_top = None;
        self.pick = Pick::Nothing;
    }

    /// Whether action number `n` (from 1) is a pass. Passes are only ever forced, so the app
    /// played it by itself right after the action that forced it.
    fn is_pass(&self, n: usize) -> bool {
        n > 0 && self.actions.get(n - 1) == Some(&Action::Pass)
    }

    fn undo(&mut self) -> Effect {
        if self.current == 0 {
            self.warn("Nothing to undo.");
            return Effect::None;
        }
        let mut undone = Vec::new();
        // A forced pass goes with the action that forced it: undoing only the pass would give
        // the turn back to a side that must pass again at once.
        loop {
            self.current -= 1;
            undone.push(self.actions[self.current]);
            if !self.is_pass(self.current + 1) || self.current == 0 {
                break;
            }
        }
        undone.reverse();
        self.list_top = None;
        self.pick = Pick::Nothing;
        self.info(format!("Undone: {}. r redoes.", join(&undone)));
        Effect::Save
    }

    fn redo(&mut self) -> Effect {
        if self.current == self.actions.len() {
            self.warn("Nothing to redo.");
            return Effect::None;
        }
        let mut redone = vec![self.actions[self.current]];
        self.current += 1;
        while self.current < self.actions.len() && self.is_pass(self.current + 1) {
            redone.push(self.actions[self.current]);
            self.current += 1;
        }
        self.list_top = None;
        self.pick = Pick::Nothing;
        self.info(format!("Redone: {}.", join(&redone)));
        Effect::Save
    }

    fn new_game(&mut self) -> Effect {
        if !self.position().is_over() {
            self.warn("n starts a new game once this one is won.");
            return Effect::None;
        }
        let setup = self.setup();
        let start = self.positions[0].clone();
        *self = App::from_line(vec![start], Vec::new(), Mode::Play, self.look);
        self.info(format!(
            "New game of {} on {}.",
            setup.game.title(),
            dimensions(setup.size, self.look)
        ));
        Effect::NewRecord
    }

    fn go_to(&mut self, n: usize) {
        self.current = n.min(self.actions.len());
        self.list_top = None;
    }

    fn play_on(&mut self) -> Effect {
        if self.position().is_over() {
            self.warn(
                "The game is over here: step back (Left) to play on from an earlier position.",
            );
            return Effect::None;
        }
        self.actions.truncate(self.current);
        self.positions.truncate(self.current + 1);
        self.mode = Mode::Play;
        self.record_path = None;
        self.list_top = None;
        let mut text = format!(
            "Playing on after action {} into a new record; the replayed file is left as it was.",
            self.current
        );
        self.pass_if_forced(&mut text);
        self.info(text);
        Effect::NewRecord
    }
}

/// `13×13`, or `13x13` in ASCII.
#[must_use]
pub fn dimensions(size: usize, look: Look) -> String {
    let times = if look.ascii { 'x' } else { '×' };
    format!("{size}{times}{size}")
}

/// `a1, pass` for a message.
fn join(actions: &[Action]) -> String {
    actions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `, filling 3 points with black and 1 with white` (nothing when nothing is filled); `unit`
/// names what is filled, `point` or `square`.
fn fills_text(filled: [usize; 2], unit: &str) -> String {
    let points = |n: usize| {
        if n == 1 {
            unit.to_string()
        } else {
            format!("{unit}s")
        }
    };
    match filled {
        [0, 0] => String::new(),
        [b, 0] => format!(", filling {b} {} with black", points(b)),
        [0, w] => format!(", filling {w} {} with white", points(w)),
        [b, w] => format!(", filling {b} {} with black and {w} with white", points(b)),
    }
}

/// The stones an action would remove, such as `white c3 and d4` (`None` when it removes none).
/// Only the mover's opponent ever loses stones.
#[must_use]
pub fn removals_text(effect: &crate::rules::Effect) -> Option<String> {
    let removed: Vec<(Point, Color)> = effect.removals().collect();
    let &(_, color) = removed.first()?;
    let points: Vec<String> = removed.iter().map(|(p, _)| p.to_string()).collect();
    let points = match points.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => points.join(""),
    };
    Some(format!("{color} {points}"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::Game;
    use crossterm::event::KeyEventState;

    /// A new game of Quentin on `size`×`size`, pie rule as asked.
    pub(crate) fn game(size: usize, pie: bool) -> App {
        after_with(Look::FULL, size, pie, "")
    }

    /// `game(size, pie)` after the actions of `moves` (record tokens), each one legal.
    pub(crate) fn after(size: usize, pie: bool, moves: &str) -> App {
        after_with(Look::FULL, size, pie, moves)
    }

    /// [`after`], drawn with `look`.
    pub(crate) fn after_with(look: Look, size: usize, pie: bool, moves: &str) -> App {
        played(Game::Quentin, look, size, pie, moves)
    }

    /// A game of `game` on `size`×`size`, drawn with `look`, after the actions of `moves`.
    pub(crate) fn played(game: Game, look: Look, size: usize, pie: bool, moves: &str) -> App {
        let setup = Setup {
            size,
            pie,
            ..Setup::new(game)
        };
        let mut app = App::new(setup, look).unwrap();
        for token in moves.split_whitespace() {
            let action = Action::parse(token).unwrap();
            assert_eq!(app.act(action), Effect::Save, "{token}: {:?}", app.message);
        }
        app
    }

    pub(crate) fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    /// Presses each key of `keys`, ignoring what the app asks for.
    pub(crate) fn press(app: &mut App, keys: &str) {
        let _ = effect_of(app, keys);
    }

    /// Presses each key of `keys`: a character, or `<` `>` `^` `v` for the arrows and `\n`
    /// for Enter. Returns the last effect.
    pub(crate) fn effect_of(app: &mut App, keys: &str) -> Effect {
        let mut effect = Effect::None;
        for c in keys.chars() {
            let code = match c {
                '<' => KeyCode::Left,
                '>' => KeyCode::Right,
                '^' => KeyCode::Up,
                'v' => KeyCode::Down,
                '\n' => KeyCode::Enter,
                c => KeyCode::Char(c),
            };
            effect = app.handle(&key(code));
        }
        effect
    }

    fn p(name: &str) -> Point {
        Point::parse(name).unwrap()
    }

    fn text(app: &App) -> &str {
        app.message().map_or("", |m| m.text.as_str())
    }

    #[test]
    fn the_cursor_starts_at_the_centre_and_stops_at_the_edges() {
        let mut app = game(5, true);
        assert_eq!(app.cursor(), p("c3"));
        press(&mut app, "hhhhh");
        assert_eq!(app.cursor(), p("a3"));
        press(&mut app, "kkkkk");
        assert_eq!(app.cursor(), p("a5"));
        press(&mut app, ">>>>>>>vvvvvvv");
        assert_eq!(app.cursor(), p("e1"));
        press(&mut app, "<^");
        assert_eq!(app.cursor(), p("d2"));
        press(&mut app, "jl");
        assert_eq!(app.cursor(), p("e1"));
    }

    #[test]
    fn enter_and_space_play_at_the_cursor_and_ask_for_a_save() {
        let mut app = game(5, false);
        assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
        assert_eq!(effect_of(&mut app, "l "), Effect::Save);
        assert_eq!(
            app.actions(),
            [Action::Place(p("c3")), Action::Place(p("d3"))]
        );
        assert_eq!(app.record_text(), "game quentin\nsize 5\npie off\nc3\nd3\n");
        assert_eq!(app.last_placement(), Some(p("d3")));
    }

    #[test]
    fn only_key_presses_count() {
        let mut app = game(5, false);
        let mut release = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        release.state = KeyEventState::NONE;
        assert_eq!(app.handle(&Event::Key(release)), Effect::None);
        assert!(app.actions().is_empty());
    }

    #[test]
    fn an_illegal_point_shows_the_reason_and_changes_nothing() {
        // RULES.md: White b3 is diagonal to c4 while b4 and c3 are empty.
        let mut app = after(5, false, "a1 c4 e3");
        press(&mut app, "h");
        assert_eq!(app.cursor(), p("b3"));
        let before = app.record_text();
        assert_eq!(effect_of(&mut app, "\n"), Effect::None);
        assert_eq!(app.record_text(), before);
        assert_eq!(
            text(&app),
            "White cannot play b3: b3 and c4 are diagonal with no shared white neighbour."
        );
        assert_eq!(app.message().unwrap().tone, Tone::Refusal);
        press(&mut app, "lk");
        assert_eq!(effect_of(&mut app, " "), Effect::None);
        assert_eq!(
            text(&app),
            "White cannot play c4: c4 is occupied by a white stone."
        );
        assert_eq!(app.record_text(), before);
    }

    #[test]
    fn swap_is_offered_once_and_the_players_follow_it() {
        let mut app = game(5, true);
        assert_eq!(effect_of(&mut app, "s"), Effect::None);
        assert!(
            text(&app).starts_with("Black cannot swap"),
            "{}",
            text(&app)
        );
        press(&mut app, "\n");
        assert_eq!(effect_of(&mut app, "s"), Effect::Save);
        let position = app.position();
        assert!(position.swapped());
        assert_eq!(position.to_move(), Some(Color::White));
        assert_eq!(player(Color::White, position.swapped()), 1);
        assert_eq!(
            text(&app),
            "Swap: the players exchange colours; Player 1 now plays White."
        );
        assert_eq!(effect_of(&mut app, "s"), Effect::None);
    }

    #[test]
    fn undo_and_redo_go_all_the_way_swaps_included() {
        let mut app = after(5, true, "c3 swap b2 e5");
        for n in (0..4).rev() {
            assert_eq!(effect_of(&mut app, "u"), Effect::Save);
            assert_eq!(app.current(), n);
        }
        assert_eq!(effect_of(&mut app, "u"), Effect::None);
        assert_eq!(text(&app), "Nothing to undo.");
        assert_eq!(app.record_text(), "game quentin\nsize 5\npie on\n");
        press(&mut app, "rr");
        assert_eq!(app.current(), 2);
        assert!(app.position().swapped());
        assert_eq!(
            app.record_text(),
            "game quentin\nsize 5\npie on\nc3\nswap\n"
        );
        // A new action drops the undone ones.
        press(&mut app, "hh\n");
        assert_eq!(app.actions().len(), 3);
        assert_eq!(effect_of(&mut app, "r"), Effect::None);
        assert_eq!(text(&app), "Nothing to redo.");
    }

    /// Black has no legal placement after these 14 actions (found by random play on 5×5).
    const BEFORE_PASS: &str = "e2 c1 d5 a3 d1 c5 c3 d3 a4 e4 c2 a5 a1";

    #[test]
    fn a_forced_pass_is_announced_played_and_undone_with_its_cause() {
        let mut app = after(5, false, BEFORE_PASS);
        app.cursor = p("b2");
        assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
        assert_eq!(
            text(&app),
            "White played b2, filling 2 points with white. Black has no legal placement and \
             passes."
        );
        assert_eq!(app.actions().last(), Some(&Action::Pass));
        assert_eq!(app.position().to_move(), Some(Color::White));
        assert!(app.record_text().ends_with("b2\npass\n"));
        press(&mut app, "u");
        assert_eq!(app.current(), 13);
        assert_eq!(text(&app), "Undone: b2, pass. r redoes.");
        press(&mut app, "r");
        assert_eq!(app.current(), 15);
        assert_eq!(text(&app), "Redone: b2, pass.");
    }

    #[test]
    fn a_win_is_announced_and_n_starts_a_new_game() {
        let mut app = after(3, false, "b2 a1 b1 c1");
        assert_eq!(effect_of(&mut app, "n"), Effect::None);
        assert_eq!(text(&app), "n starts a new game once this one is won.");
        app.cursor = p("b3");
        assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
        assert_eq!(text(&app), "Black played b3. Black wins (Player 1).");
        assert!(app.position().is_over());
        assert_eq!(effect_of(&mut app, "h\n"), Effect::None);
        assert!(text(&app).starts_with("The game is over"));
        assert_eq!(effect_of(&mut app, "n"), Effect::NewRecord);
        assert!(app.actions().is_empty());
        assert_eq!(app.record_text(), "game quentin\nsize 3\npie off\n");
    }

    #[test]
    fn help_opens_closes_and_quitting_works_from_anywhere() {
        let mut app = game(5, true);
        press(&mut app, "?");
        assert!(app.help_open());
        // Any other key closes the help without acting.
        assert_eq!(effect_of(&mut app, "\n"), Effect::None);
        assert!(!app.help_open());
        assert!(app.actions().is_empty());
        press(&mut app, "??");
        assert!(!app.help_open());
        press(&mut app, "?");
        assert_eq!(effect_of(&mut app, "q"), Effect::Quit);
        assert_eq!(app.handle(&key(KeyCode::Esc)), Effect::Quit);
        let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert_eq!(app.handle(&ctrl_c), Effect::Quit);
    }

    fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Event {
        Event::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    }

    #[test]
    fn the_mouse_points_and_clicks_on_the_last_drawn_board() {
        use super::super::render::{BoardGeometry, BoardStyle};
        let mut app = game(5, false);
        let click = MouseEventKind::Down(MouseButton::Left);
        // Before any drawing there is no board to click on.
        assert_eq!(app.handle(&mouse(click, 10, 10)), Effect::None);
        let board = BoardGeometry {
            x: 10,
            y: 4,
            size: 5,
            style: BoardStyle::Points,
        };
        app.set_geometry(Geometry {
            board: Some(board),
            list_rows: 5,
            ..Geometry::default()
        });
        assert_eq!(board.cell(p("a5")), (10, 4));
        assert_eq!(
            app.handle(&mouse(MouseEventKind::Moved, 12, 8)),
            Effect::None
        );
        assert_eq!(app.cursor(), p("b1"));
        // Between two points is no point.
        assert_eq!(app.handle(&mouse(click, 13, 8)), Effect::None);
        assert_eq!(app.handle(&mouse(click, 18, 4)), Effect::Save);
        assert_eq!(app.actions(), [Action::Place(p("e5"))]);
        assert_eq!(app.handle(&mouse(click, 20, 4)), Effect::None);
        assert_eq!(app.handle(&mouse(click, 10, 9)), Effect::None);
        // With the help open, a click only closes it.
        press(&mut app, "?");
        assert_eq!(app.handle(&mouse(click, 10, 4)), Effect::None);
        assert!(!app.help_open());
        assert_eq!(app.actions().len(), 1);
    }

    #[test]
    fn replay_steps_jumps_and_plays_on_into_a_new_record() {
        let record = Record::parse("size 5\nc3 swap b2 e5 a5\n").unwrap();
        let mut app = App::replay(&record, usize::MAX, Look::FULL);
        assert_eq!(app.mode(), Mode::Replay);
        assert_eq!(app.current(), 5);
        press(&mut app, "<<");
        assert_eq!(app.current(), 3);
        assert_eq!(app.handle(&key(KeyCode::Home)), Effect::None);
        assert_eq!(app.current(), 0);
        press(&mut app, "<");
        assert_eq!(app.current(), 0);
        assert_eq!(app.handle(&key(KeyCode::End)), Effect::None);
        assert_eq!(app.current(), 5);
        press(&mut app, ">");
        assert_eq!(app.current(), 5);
        press(&mut app, "<<<");
        // Playing is refused in a replay, and says how to play on.
        assert_eq!(effect_of(&mut app, "\n"), Effect::None);
        assert!(text(&app).contains("press p"));
        assert_eq!(effect_of(&mut app, "p"), Effect::NewRecord);
        assert_eq!(app.mode(), Mode::Play);
        assert_eq!(
            app.record_text(),
            "game quentin\nsize 5\npie on\nc3\nswap\n"
        );
        assert_eq!(effect_of(&mut app, "j\n"), Effect::Save);
        assert_eq!(app.actions().len(), 3);
    }

    #[test]
    fn replay_can_open_at_any_action() {
        let record = Record::parse("size 5\nc3 swap b2\n").unwrap();
        let app = App::replay(&record, 1, Look::FULL);
        assert_eq!(app.current(), 1);
        assert_eq!(app.position().ply(), 1);
    }

    #[test]
    fn the_action_list_follows_the_current_action_unless_scrolled() {
        let mut app = after(9, false, "a1 c1 e1 g1 i1 a3 c3 e3 g3 i3 a5 c5");
        app.set_geometry(Geometry {
            board: None,
            list_rows: 4,
            ..Geometry::default()
        });
        assert_eq!(app.list_top(4), 8);
        let _ = app.handle(&key(KeyCode::PageUp));
        assert_eq!(app.list_top(4), 5);
        let _ = app.handle(&mouse(MouseEventKind::ScrollUp, 0, 0));
        assert_eq!(app.list_top(4), 2);
        for _ in 0..3 {
            let _ = app.handle(&key(KeyCode::PageDown));
        }
        assert_eq!(app.list_top(4), 8);
        press(&mut app, "uuuuuuuu");
        assert_eq!(app.list_top(4), 1);
    }
}
