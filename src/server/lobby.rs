//! The lobby: who is online, the open challenges, the player's games, the games being played
//! (to watch), recent results and the leaderboard; and the form of a new challenge. Plain data
//! and a pure drawing, as the game's app and renderer are; the session feeds it.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding, Paragraph, Widget, Wrap};

use crate::rules::{Game, Setup};
use crate::tui::render::clock_text;

use super::hub::{ChallengeView, GameView, Standing};
use super::spec::{First, Spec, TimeControl};

/// What the lobby shows, as the hub gave it.
#[derive(Clone, Debug, Default)]
pub struct Board {
    /// Players online.
    pub online: Vec<String>,
    /// Open challenges.
    pub challenges: Vec<ChallengeView>,
    /// This player's games.
    pub mine: Vec<GameView>,
    /// Games under way.
    pub live: Vec<GameView>,
    /// Games that ended last.
    pub recent: Vec<GameView>,
    /// The best players.
    pub leaders: Vec<Standing>,
}

/// What a key in the lobby asks of the session.
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
    /// Make this challenge.
    Challenge(Spec),
    /// Leave the server.
    Quit,
}

/// A line one can select.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Item {
    Challenge(i64, bool),
    Game(i64),
}

/// The clocks the form offers.
const CLOCKS: [TimeControl; 9] = [
    TimeControl::Live {
        minutes: 1,
        increment: 0,
    },
    TimeControl::Live {
        minutes: 3,
        increment: 2,
    },
    TimeControl::Live {
        minutes: 5,
        increment: 3,
    },
    TimeControl::Live {
        minutes: 10,
        increment: 5,
    },
    TimeControl::Live {
        minutes: 15,
        increment: 10,
    },
    TimeControl::Live {
        minutes: 30,
        increment: 0,
    },
    TimeControl::Days(1),
    TimeControl::Days(3),
    TimeControl::Days(7),
];

/// The fields of the challenge form, in order.
const FIELDS: [&str; 7] = [
    "Game", "Size", "Pie rule", "First", "Clock", "Rated", "Opponent",
];

/// A new challenge being filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    field: usize,
    spec: Spec,
    clock: usize,
    opponent: String,
}

impl Form {
    fn new() -> Form {
        Form {
            field: 0,
            spec: Spec::new(Game::Quentin),
            clock: 3,
            opponent: String::new(),
        }
    }

    fn change(&mut self, step: isize) {
        let spec = &mut self.spec;
        let turn = |i: usize, n: usize| (i as isize + step).rem_euclid(n as isize) as usize;
        match self.field {
            0 => {
                let i = Game::ALL
                    .iter()
                    .position(|g| *g == spec.setup.game)
                    .unwrap_or(0);
                spec.setup = Setup::new(Game::ALL[turn(i, Game::ALL.len())]);
            }
            1 => {
                let game = spec.setup.game;
                if game.piece_options().is_empty() {
                    let sizes = game.sizes();
                    let n = spec.setup.size as isize + step;
                    spec.setup.size =
                        n.clamp(*sizes.start() as isize, *sizes.end() as isize) as usize;
                } else {
                    let options = game.piece_options();
                    let i = options
                        .iter()
                        .position(|p| *p == spec.setup.pieces)
                        .unwrap_or(0);
                    spec.setup.pieces = options[turn(i, options.len())];
                }
            }
            2 if spec.setup.game.has_pie() => spec.setup.pie = !spec.setup.pie,
            3 => {
                let all = [First::Random, First::Me, First::You];
                let i = all.iter().position(|f| *f == spec.first).unwrap_or(0);
                spec.first = all[turn(i, all.len())];
            }
            4 => {
                self.clock = turn(self.clock, CLOCKS.len());
                spec.clock = CLOCKS[self.clock];
            }
            5 => spec.rated = !spec.rated,
            _ => {}
        }
    }

    fn value(&self, field: usize) -> String {
        let setup = &self.spec.setup;
        match field {
            0 => setup.game.title().to_string(),
            1 if setup.game.piece_options().is_empty() => format!("{0}×{0}", setup.size),
            1 => format!("{} pieces", setup.pieces),
            2 if !setup.game.has_pie() => "none in this game".to_string(),
            2 => if setup.pie { "on" } else { "off" }.to_string(),
            3 => match self.spec.first {
                First::Me => "me".to_string(),
                First::You => "my opponent".to_string(),
                First::Random => "drawn at random".to_string(),
            },
            4 => self.spec.clock.to_string(),
            5 => if self.spec.rated { "rated" } else { "casual" }.to_string(),
            _ if self.opponent.is_empty() => "anybody (type a name)".to_string(),
            _ => self.opponent.clone(),
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
    help: bool,
    /// The last message: news or a refusal.
    pub message: Option<(String, bool)>,
    /// What the hub gave last.
    pub board: Board,
}

impl Lobby {
    /// The lobby of player `me`.
    #[must_use]
    pub fn new(me: (i64, String)) -> Lobby {
        Lobby {
            me,
            ..Lobby::default()
        }
    }

    fn items(&self) -> Vec<Item> {
        let b = &self.board;
        b.challenges
            .iter()
            .map(|c| Item::Challenge(c.id, c.by == self.me.0))
            .chain(b.mine.iter().map(|g| Item::Game(g.id)))
            .chain(
                b.live
                    .iter()
                    .filter(|g| g.seat(self.me.0).is_none())
                    .map(|g| Item::Game(g.id)),
            )
            .collect()
    }

    /// Says `text`; a refusal when `refused`.
    pub fn say(&mut self, text: impl Into<String>, refused: bool) {
        self.message = Some((text.into(), refused));
    }

    /// Handles one terminal event.
    pub fn handle(&mut self, event: &Event) -> Ask {
        let Event::Key(key) = event else {
            return Ask::Nothing;
        };
        if key.kind != KeyEventKind::Press {
            return Ask::Nothing;
        }
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
            if let Some(ask) = Self::form_key(form, *key) {
                return ask;
            }
            let ask = match key.code {
                KeyCode::Esc => Ask::Nothing,
                _ => Ask::Challenge(Self::spec_of(form)),
            };
            self.form = None;
            return ask;
        }
        let items = self.items();
        self.selected = self.selected.min(items.len().saturating_sub(1));
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(items.len().saturating_sub(1));
            }
            KeyCode::Char('c') => self.form = Some(Form::new()),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('q') | KeyCode::Esc => return Ask::Quit,
            KeyCode::Char('d') => match items.get(self.selected) {
                Some(Item::Challenge(id, true)) => return Ask::Withdraw(*id),
                _ => self.say("d withdraws a challenge of yours: select one first.", true),
            },
            KeyCode::Enter | KeyCode::Char(' ') => match items.get(self.selected) {
                Some(Item::Challenge(_, true)) => {
                    self.say("That is your own challenge: d withdraws it.", true);
                }
                Some(Item::Challenge(id, false)) => return Ask::Accept(*id),
                Some(Item::Game(id)) => return Ask::Open(*id),
                None => self.say("Nothing to open: c makes a challenge.", true),
            },
            _ => {}
        }
        Ask::Nothing
    }

    /// A key in the form; `None` when it ends it (Enter makes the challenge, Esc drops it).
    fn form_key(form: &mut Form, key: KeyEvent) -> Option<Ask> {
        match key.code {
            KeyCode::Esc | KeyCode::Enter => return None,
            KeyCode::Up | KeyCode::BackTab => form.field = form.field.saturating_sub(1),
            KeyCode::Char('k') if form.field < 6 => form.field = form.field.saturating_sub(1),
            KeyCode::Down | KeyCode::Tab => form.field = (form.field + 1).min(FIELDS.len() - 1),
            KeyCode::Char('j') if form.field < 6 => form.field += 1,
            KeyCode::Left => form.change(-1),
            KeyCode::Char('h') if form.field < 6 => form.change(-1),
            KeyCode::Right | KeyCode::Char(' ' | 'l') if form.field < 6 => form.change(1),
            KeyCode::Backspace if form.field == 6 => {
                form.opponent.pop();
            }
            KeyCode::Char(c)
                if form.field == 6
                    && form.opponent.len() < 20
                    && (c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
            {
                form.opponent.push(c);
            }
            _ => {}
        }
        Some(Ask::Nothing)
    }

    fn spec_of(form: &Form) -> Spec {
        let mut spec = form.spec.clone();
        spec.to = (!form.opponent.is_empty()).then(|| form.opponent.clone());
        spec
    }

    /// Draws the lobby into `area`.
    pub fn draw(&self, area: Rect, buf: &mut Buffer, color: bool) {
        let tint = |t: Tint| {
            if color {
                Style::new().fg(t)
            } else {
                Style::new()
            }
        };
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let block = Block::new()
            .borders(Borders::ALL)
            .padding(Padding::horizontal(1))
            .title(format!(" quentin server: {} ", self.me.1));
        let inner = block.inner(area);
        block.render(area, buf);
        let mut lines: Vec<Line> = Vec::new();
        if self.help {
            for text in HELP {
                lines.push(Line::from(*text));
            }
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .render(inner, buf);
            return;
        }
        if let Some(form) = &self.form {
            lines.push(Line::styled("New challenge", bold));
            lines.push(Line::from(
                "Up/Down (j/k, Tab): a field   Left/Right (h/l): change it   Enter: make it   Esc: cancel",
            ));
            lines.push(Line::default());
            for (i, name) in FIELDS.iter().enumerate() {
                let marker = if i == form.field { "> " } else { "  " };
                let style = if i == form.field { bold } else { Style::new() };
                lines.push(Line::styled(
                    format!("{marker}{name:<10} {}", form.value(i)),
                    style,
                ));
            }
            Paragraph::new(lines).render(inner, buf);
            return;
        }
        let b = &self.board;
        lines.push(Line::from(format!(
            "Online ({}): {}",
            b.online.len(),
            b.online.join(", ")
        )));
        if let Some((text, refused)) = &self.message {
            let style = if *refused {
                tint(Tint::Red)
            } else {
                tint(Tint::Green)
            };
            lines.push(Line::styled(text.clone(), style));
        }
        let mut n = 0;
        let selected = self.selected;
        let mut item = |text: String, lines: &mut Vec<Line>| {
            let here = n == selected;
            n += 1;
            let style = if here {
                bold.add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            lines.push(Line::from(vec![
                Span::raw(if here { "> " } else { "  " }),
                Span::styled(text, style),
            ]));
        };
        lines.push(Line::styled(
            "Open challenges (Enter accepts, c makes one)",
            bold,
        ));
        for c in &b.challenges {
            let to =
                c.to.as_ref()
                    .map(|t| format!(" for {t}"))
                    .unwrap_or_default();
            let spec = Spec {
                setup: c.setup,
                first: First::from_name(&c.first).unwrap_or(First::Random),
                clock: c.clock,
                rated: c.rated,
                to: None,
            };
            item(
                format!("#{} {} by {}{to}", c.id, spec.summary(), c.by_name),
                &mut lines,
            );
        }
        lines.push(Line::styled("Your games (Enter opens)", bold));
        for g in &b.mine {
            let seat = g.seat(self.me.0).unwrap_or(0);
            let state = match (&g.result, g.to_move) {
                (Some(_), _) => g.result_words().unwrap_or_default(),
                (None, Some(s)) if s == seat => format!("your turn, {}", clock_text(g.left[seat])),
                _ => "their turn".to_string(),
            };
            item(
                format!(
                    "#{} {} vs {}: {state}",
                    g.id,
                    g.setup.game,
                    g.names[1 - seat]
                ),
                &mut lines,
            );
        }
        lines.push(Line::styled("Being played now (Enter watches)", bold));
        for g in b.live.iter().filter(|g| g.seat(self.me.0).is_none()) {
            item(
                format!(
                    "#{} {} {} vs {}, {} actions",
                    g.id,
                    g.setup.game,
                    g.names[0],
                    g.names[1],
                    g.actions.len()
                ),
                &mut lines,
            );
        }
        lines.push(Line::styled("Recent results", bold));
        for g in &b.recent {
            lines.push(Line::from(format!(
                "  #{} {}: {}",
                g.id,
                g.setup.game,
                g.result_text().unwrap_or_default()
            )));
        }
        lines.push(Line::styled("Leaderboard", bold));
        for s in &b.leaders {
            lines.push(Line::from(format!(
                "  {:<8} {:<20} {} ±{} ({} games)",
                s.game.name(),
                s.name,
                s.rating,
                s.deviation * 2,
                s.games
            )));
        }
        lines.push(Line::default());
        lines.push(Line::from(
            "Up/Down select  Enter accept/open/watch  c challenge  d withdraw  ? help  q quit",
        ));
        Paragraph::new(lines).render(inner, buf);
    }
}

const HELP: &[&str] = &[
    "The lobby",
    "",
    "Up, Down, j, k     select a line",
    "Enter, Space       accept the challenge, open your game, or watch a game",
    "c                  make a challenge (a form: the game, size, pie rule, who moves",
    "                   first, the clock, rated or casual, and perhaps one opponent)",
    "d                  withdraw your challenge",
    "?                  this help (any key closes it)",
    "q, Esc, Ctrl-C     leave the server",
    "",
    "In a game: the game's keys (? lists them); R twice resigns, u asks for a takeback",
    "in a casual game, q comes back here. Your games wait for you when you leave.",
    "`ssh -p PORT HOST record ID` prints a game's record.",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> Event {
        Event::Key(code.into())
    }

    #[test]
    fn the_form_makes_the_challenge_it_shows() {
        let mut lobby = Lobby::new((1, "alice".to_string()));
        assert_eq!(lobby.handle(&key(KeyCode::Char('c'))), Ask::Nothing);
        // Konobi, 10x10, pie off, first me, 1 day a move, casual, for bob.
        let keys = [
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Char('b'),
            KeyCode::Char('o'),
            KeyCode::Char('!'),
            KeyCode::Char('b'),
        ];
        for k in keys {
            assert_eq!(lobby.handle(&key(k)), Ask::Nothing);
        }
        let Ask::Challenge(spec) = lobby.handle(&key(KeyCode::Enter)) else {
            panic!("Enter makes the challenge");
        };
        assert_eq!(spec.summary(), "konobi 10x10 pie off, 1 day a move, casual");
        assert_eq!(spec.first, First::Me);
        assert_eq!(spec.to.as_deref(), Some("bob"));
    }

    #[test]
    fn it_draws_in_any_size_without_a_panic() {
        let lobby = Lobby::new((1, "alice".to_string()));
        for (w, h) in [(0, 0), (1, 1), (5, 3), (80, 24), (400, 150)] {
            let area = Rect::new(0, 0, w, h);
            let mut buf = Buffer::empty(area);
            lobby.draw(area, &mut buf, true);
        }
    }
}
