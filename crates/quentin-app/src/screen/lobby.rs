//! The lobby: who is online, the open challenges, the player's games, the games being played
//! (to watch), recent results and the leaderboards; the form of a new challenge and the
//! tournaments' screen. Plain data and a pure drawing: the driver fills its [`Board`] from the
//! server's hub and carries out what it asks. The form of a new challenge is in
//! `crates/quentin-app/src/screen/lobby/form.rs`, the tournaments' screen in
//! `crates/quentin-app/src/screen/lobby/tournaments.rs`, the drawing in
//! `crates/quentin-app/src/screen/lobby/draw.rs`.

mod draw;
mod form;
mod tournaments;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{Screen, Step};
use crate::input::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use form::Form;
use quentin_record::spec::Spec;

/// An open challenge, as the lobby lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    /// Its number.
    pub id: i64,
    /// The challenger's number.
    pub by: i64,
    /// The challenger's name.
    pub by_name: String,
    /// The challenger's rating, as shown (`1612`, `1500?`).
    pub by_rating: String,
    /// What it asks for: the game, who moves first, the clock, rated or not, for whom.
    pub spec: Spec,
}

/// A game one can open, as the lobby lists it: its number and its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// Its number.
    pub id: i64,
    /// What the lobby says of it (`#12 quentin vs bob: your turn, 4:58`).
    pub text: String,
    /// Whether it goes on (no result yet).
    pub going: bool,
}

/// A tournament, as the tournaments' screen lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// Its number.
    pub id: i64,
    /// Its line in the list.
    pub summary: String,
    /// Its page: its terms, its status, the standings' header, one line a player, then the
    /// crosstable and its games.
    pub table: Vec<String>,
    /// How many players its table lists.
    pub players: usize,
}

/// What the lobby shows, as the driver gave it.
#[derive(Clone, Debug, Default)]
pub struct Board {
    /// The host's message of the day, its lines.
    pub motd: Vec<String>,
    /// Players online, each with a rating (`alice Quentin 1612`, `bob new`).
    pub online: Vec<String>,
    /// Open challenges: the player's own and those made to them, and the newest others.
    pub challenges: Vec<Challenge>,
    /// The open challenges left out of [`Board::challenges`].
    pub more_challenges: usize,
    /// This player's games.
    pub mine: Vec<GameLine>,
    /// Games under way that others play (to watch).
    pub live: Vec<GameLine>,
    /// Games that ended last, a line each.
    pub recent: Vec<String>,
    /// The best players, a line each.
    pub leaders: Vec<String>,
    /// The best puzzle ratings, a line each.
    pub puzzle_leaders: Vec<String>,
    /// The tournaments not cancelled, newest first.
    pub tournaments: Vec<Tournament>,
}

/// What a key in the lobby asks of the driver.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// Nothing beyond a redraw.
    Nothing,
    /// Accept challenge `id`.
    Accept(i64),
    /// Withdraw one's challenge `id`.
    Withdraw(i64),
    /// Open game `id` (one's own, or to watch).
    Open(i64),
    /// Open the game where it is the player's move whose clock runs out soonest (`n`).
    Next,
    /// Say the player's vacation days left (`v`), or take one day ahead (`V`).
    Vacation(Option<u32>),
    /// Make this challenge.
    Challenge(Spec),
    /// Open the puzzles.
    Puzzles,
    /// Open the course (`l`).
    Course,
    /// Make the tournament these words describe (`tournament create`'s words); the driver
    /// answers with [`Lobby::tournament_words`].
    CreateTournament(String),
    /// Join tournament `id`.
    JoinTournament(i64),
    /// Withdraw from tournament `id`.
    WithdrawTournament(i64),
    /// Start tournament `id` now (its creator's).
    StartTournament(i64),
    /// Leave the server.
    Quit,
    /// Open the operators' screen (for operators only).
    Operators,
}

/// Where the lobby goes when it is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Leave the server.
    Quit,
    /// The puzzles.
    Puzzles,
    /// The course.
    Course,
    /// The operators' screen.
    Operators,
    /// Game `id`.
    Open(i64),
}

/// A line one can select.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Item {
    Challenge(i64, bool),
    Game(i64),
}

/// Where the lobby's selectable lines (the lists' lines, or the form's fields) were drawn, for
/// reading mouse clicks.
#[derive(Clone, Debug, Default, PartialEq)]
struct Rows {
    /// The columns the lines span.
    columns: std::ops::Range<u16>,
    /// The screen row of each line shown, with its number among the selectable lines.
    lines: Vec<(u16, usize)>,
}

impl Rows {
    /// The selectable line at (`column`, `row`), if one was drawn there.
    fn line_at(&self, column: u16, row: u16) -> Option<usize> {
        if !self.columns.contains(&column) {
            return None;
        }
        self.lines.iter().find(|(r, _)| *r == row).map(|(_, n)| *n)
    }

    /// The rows of `lines` drawn from the top of `area`, each line one row; those below the
    /// area are not shown.
    fn of(area: Rect, lines: impl IntoIterator<Item = (usize, usize)>) -> Rows {
        Rows {
            columns: area.left()..area.right(),
            lines: lines
                .into_iter()
                .filter(|(at, _)| *at < usize::from(area.height))
                .map(|(at, n)| (area.y + at as u16, n))
                .collect(),
        }
    }
}

/// The lobby's state.
#[derive(Clone, Debug, Default)]
pub struct Lobby {
    /// The player's name and number.
    pub me: (i64, String),
    selected: usize,
    form: Option<Form>,
    /// The form of the last challenge made, until the server answers: a refused one opens
    /// again as it was.
    sent: Option<Form>,
    /// The form of the last challenge made: `c` opens the next one like it.
    last: Option<Form>,
    help: bool,
    /// Whether the screen has colours.
    color: bool,
    /// Where the selectable lines were drawn last.
    rows: Rows,
    /// The last message: news or a refusal.
    pub message: Option<(String, bool)>,
    /// What the hub gave last.
    pub board: Board,
    /// The tournament screen, while open.
    tournaments: Option<tournaments::Screen>,
}

impl Lobby {
    /// The lobby of player `me`.
    #[must_use]
    pub fn new(me: (i64, String)) -> Lobby {
        Lobby {
            me,
            color: true,
            ..Lobby::default()
        }
    }

    /// The lobby drawn with colours or without.
    #[must_use]
    pub fn colored(self, color: bool) -> Lobby {
        Lobby { color, ..self }
    }

    /// The driver's answer to [`Ask::CreateTournament`]: `Ok` when the words make a
    /// tournament (their line closes), or why not (the line stays, saying why).
    pub fn tournament_words(&mut self, made: Result<(), String>) {
        if let Some(screen) = &mut self.tournaments {
            screen.words(made);
        }
    }

    fn items(&self) -> Vec<Item> {
        let b = &self.board;
        b.challenges
            .iter()
            .map(|c| Item::Challenge(c.id, c.by == self.me.0))
            .chain(b.mine.iter().map(|g| Item::Game(g.id)))
            .chain(b.live.iter().map(|g| Item::Game(g.id)))
            .collect()
    }

    /// Says `text`; a refusal when `refused`.
    pub fn say(&mut self, text: impl Into<String>, refused: bool) {
        self.message = Some((text.into(), refused));
    }

    /// The server refused the challenge just made, saying `why`: its form opens again as it
    /// was, `why` under it (on the opponent's field when `name` is the fault).
    pub fn challenge_refused(&mut self, why: String, name: bool) {
        match self.sent.take() {
            Some(form) => self.form = Some(form.refused(why, name)),
            None => self.say(why, true),
        }
    }

    /// Handles one terminal event.
    pub fn handle(&mut self, event: &Event) -> Ask {
        // A message answers the key before: the next key or click takes it away.
        if matches!(
            event,
            Event::Key(_)
                | Event::Mouse(MouseEvent {
                    kind: MouseEventKind::Down(_),
                    ..
                })
        ) {
            self.message = None;
        }
        match event {
            Event::Key(key) if key.kind == KeyEventKind::Press => self.key(*key),
            Event::Mouse(mouse) => self.mouse(*mouse),
            _ => Ask::Nothing,
        }
    }

    fn key(&mut self, key: KeyEvent) -> Ask {
        let ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl_c {
            return Ask::Quit;
        }
        if self.help {
            self.help = false;
            return Ask::Nothing;
        }
        if let Some(form) = &mut self.form {
            if form.key(key) {
                return Ask::Nothing;
            }
            let ask = match (key.code, form.spec()) {
                (KeyCode::Esc, _) => Ask::Nothing,
                (_, Ok(spec)) => Ask::Challenge(spec),
                (_, Err(why)) => {
                    // A typed clock that is not one: the form stays, saying why.
                    self.form = self.form.take().map(|f| f.bad_clock(why));
                    return Ask::Nothing;
                }
            };
            self.sent = self.form.take().filter(|_| ask != Ask::Nothing);
            if let Some(sent) = &self.sent {
                self.last = Some(sent.again());
            }
            return ask;
        }
        if let Some(screen) = &mut self.tournaments {
            return match screen.key(key, &self.board.tournaments) {
                Some(ask) => ask,
                None => {
                    self.tournaments = None;
                    Ask::Nothing
                }
            };
        }
        match key.code {
            KeyCode::Char('t') => self.tournaments = Some(tournaments::Screen::default()),
            KeyCode::Up | KeyCode::Char('k') => self.step(-1),
            KeyCode::Down | KeyCode::Char('j') => self.step(1),
            KeyCode::Char('c') => {
                self.form = Some(self.last.as_ref().map_or_else(Form::new, Form::again));
            }
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('p') => return Ask::Puzzles,
            KeyCode::Char('n') => return Ask::Next,
            KeyCode::Char('v') => return Ask::Vacation(None),
            KeyCode::Char('V') => return Ask::Vacation(Some(1)),
            KeyCode::Char('l') => return Ask::Course,
            KeyCode::Char('o') => return Ask::Operators,
            KeyCode::Char('q') | KeyCode::Esc => return Ask::Quit,
            KeyCode::Char('d') => match self.items().get(self.selected) {
                Some(Item::Challenge(id, true)) => return Ask::Withdraw(*id),
                _ => self.say("d withdraws a challenge of yours: select one first.", true),
            },
            KeyCode::Enter | KeyCode::Char(' ') => return self.open(),
            _ => {}
        }
        Ask::Nothing
    }

    /// The mouse, as in a game: a click on a line selects it, a click on the selected line does
    /// what Enter does, and the wheel moves the selection. A click anywhere closes the help.
    fn mouse(&mut self, mouse: MouseEvent) -> Ask {
        let click = mouse.kind == MouseEventKind::Down(MouseButton::Left);
        if self.help {
            self.help &= !click;
            return Ask::Nothing;
        }
        let line = self.rows.line_at(mouse.column, mouse.row);
        if let Some(form) = &mut self.form {
            match (mouse.kind, line) {
                (MouseEventKind::ScrollUp, _) => form.step(-1),
                (MouseEventKind::ScrollDown, _) => form.step(1),
                (_, Some(field)) if click => form.click(field),
                _ => {}
            }
            return Ask::Nothing;
        }
        match (mouse.kind, line) {
            (MouseEventKind::ScrollUp, _) => self.step(-1),
            (MouseEventKind::ScrollDown, _) => self.step(1),
            (_, Some(n)) if click && n == self.selected => return self.open(),
            (_, Some(n)) if click => self.selected = n,
            _ => {}
        }
        Ask::Nothing
    }

    /// Moves the selection `by` lines, within the list.
    fn step(&mut self, by: isize) {
        let last = self.items().len().saturating_sub(1);
        self.selected = self.selected.min(last).saturating_add_signed(by).min(last);
    }

    /// What Enter does on the selected line.
    fn open(&mut self) -> Ask {
        let items = self.items();
        self.selected = self.selected.min(items.len().saturating_sub(1));
        match items.get(self.selected) {
            Some(Item::Challenge(_, true)) => {
                self.say("That is your own challenge: d withdraws it.", true);
            }
            Some(Item::Challenge(id, false)) => return Ask::Accept(*id),
            Some(Item::Game(id)) => return Ask::Open(*id),
            None => self.say("Nothing to open: c makes a challenge.", true),
        }
        Ask::Nothing
    }
}

impl Screen for Lobby {
    type Ask = Ask;
    type Outcome = Exit;

    fn handle(&mut self, event: &Event) -> Step<Ask, Exit> {
        match Lobby::handle(self, event) {
            Ask::Nothing => Step::Stay,
            Ask::Quit => Step::Leave(Exit::Quit),
            Ask::Puzzles => Step::Leave(Exit::Puzzles),
            Ask::Course => Step::Leave(Exit::Course),
            Ask::Operators => Step::Leave(Exit::Operators),
            Ask::Open(id) => Step::Leave(Exit::Open(id)),
            ask => Step::Ask(ask),
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer) {
        self.rows = self.drawn(area, buf);
    }
}

#[cfg(test)]
mod tests;
