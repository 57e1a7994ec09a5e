//! The lobby: who is online, the open challenges, the player's games, the games being played
//! (to watch), recent results and the leaderboard; and the form of a new challenge. Plain data
//! and a pure drawing, as the game's app and renderer are; the session feeds it. The form of a
//! new challenge is in `crates/quentin-server/src/lobby/form.rs`, the tournament screen in
//! `crates/quentin-server/src/lobby/tournaments.rs`.

mod form;
mod tournaments;

use quentin_app::input::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding, Paragraph, Widget, Wrap};

use quentin_app::render::clock_text;

use super::hub::{ChallengeView, GameView, Standing, TournamentView, shown_rating};
use super::spec::{First, Spec};
use super::store::RatingRow;
use super::tournament::{Settings, TournamentId};
use form::Form;

/// What the lobby shows, as the hub gave it.
#[derive(Clone, Debug, Default)]
pub struct Board {
    /// The host's message of the day, its lines.
    pub motd: Vec<String>,
    /// Players online, each with a rating (`alice Quentin 1612`, `bob new`).
    pub online: Vec<String>,
    /// Open challenges: the player's own and those made to them, and the newest others.
    pub challenges: Vec<ChallengeView>,
    /// The open challenges left out of [`Board::challenges`].
    pub more_challenges: usize,
    /// This player's games.
    pub mine: Vec<GameView>,
    /// Games under way.
    pub live: Vec<GameView>,
    /// Games that ended last.
    pub recent: Vec<GameView>,
    /// The best players.
    pub leaders: Vec<Standing>,
    /// The best puzzle ratings, names first, provisional ones left off.
    pub puzzle_leaders: Vec<(String, RatingRow)>,
    /// The tournaments not cancelled, newest first.
    pub tournaments: Vec<TournamentView>,
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
    /// Open the puzzles.
    Puzzles,
    /// Make this tournament.
    CreateTournament(Settings),
    /// Join tournament `id`.
    JoinTournament(TournamentId),
    /// Withdraw from tournament `id`.
    WithdrawTournament(TournamentId),
    /// Leave the server.
    Quit,
    /// Open the operators' screen (for operators only).
    Operators,
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
pub struct Rows {
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

    /// Remembers where the lines were drawn, for the mouse.
    pub fn set_rows(&mut self, rows: Rows) {
        self.rows = rows;
    }

    /// Draws the lobby into `area`; where its selectable lines are, for
    /// [`set_rows`](Lobby::set_rows).
    pub fn draw(&self, area: Rect, buf: &mut Buffer, color: bool) -> Rows {
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
            return Rows::default();
        }
        if let Some(form) = &self.form {
            let (lines, fields) = form.lines();
            Paragraph::new(lines).render(inner, buf);
            return Rows::of(inner, fields.enumerate().map(|(n, at)| (at, n)));
        }
        if let Some(screen) = &self.tournaments {
            let lines = screen.lines(&self.board.tournaments, self.message.as_ref(), tint);
            Paragraph::new(lines).render(inner, buf);
            return Rows::default();
        }
        let b = &self.board;
        for text in &b.motd {
            lines.push(Line::styled(text.clone(), tint(Tint::Cyan)));
        }
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
        // The line of each selectable one, in order.
        let mut at: Vec<usize> = Vec::new();
        let selected = self.selected;
        let mut item = |text: String, lines: &mut Vec<Line>| {
            let here = at.len() == selected;
            at.push(lines.len());
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
            // Who moves first, from the reader's side: the challenger plays against
            // `acceptor`, anyone else is the acceptor.
            let first = match spec.first {
                First::Me if c.by == self.me.0 => "you move first".to_string(),
                First::Me => format!("{} moves first", c.by_name),
                First::You if c.by == self.me.0 => "they move first".to_string(),
                First::You => "you move first".to_string(),
                First::Random => "first mover drawn".to_string(),
            };
            item(
                format!(
                    "#{} {} by {} {}{to}, {first}",
                    c.id,
                    spec.summary(),
                    c.by_name,
                    c.by_rating
                ),
                &mut lines,
            );
        }
        if b.more_challenges > 0 {
            lines.push(Line::raw(format!(
                "  and {} older open challenges (the bot protocol's challenges lists them all)",
                b.more_challenges
            )));
        }
        lines.push(Line::styled("Your games (Enter opens)", bold));
        for g in &b.mine {
            let seat = g.seat(self.me.0).unwrap_or(0);
            let state = match (&g.result, g.to_move) {
                (Some(_), _) => g.result_for(seat).unwrap_or_default(),
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
                    "#{} {} {} vs {}, {} action{}",
                    g.id,
                    g.setup.game,
                    g.names[0],
                    g.names[1],
                    g.actions.len(),
                    if g.actions.len() == 1 { "" } else { "s" }
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
                "  {:<8} {:<5} {:<20} {:>5} RD {} ({} game{})",
                s.game.name(),
                s.class.to_string(),
                s.name,
                shown_rating(s.rating, s.provisional),
                s.deviation,
                s.games,
                if s.games == 1 { "" } else { "s" }
            )));
        }
        lines.push(Line::styled("Puzzle leaderboard (p solves puzzles)", bold));
        for (name, r) in &b.puzzle_leaders {
            lines.push(Line::from(format!(
                "  {name:<20} {:>5} RD {} ({} puzzle{})",
                r.rating.round() as i64,
                r.deviation.round() as i64,
                r.games,
                if r.games == 1 { "" } else { "s" }
            )));
        }
        // The footer stays on the last row; the rest scrolls to keep the selected line shown.
        let footer =
            Line::from("Up/Down  Enter open  c challenge  d withdraw  p puzzles  ? help  q quit");
        let rows = usize::from(inner.height).saturating_sub(1);
        let chosen = at.get(selected).copied().unwrap_or(0);
        let top = (chosen + 2)
            .saturating_sub(rows)
            .min(lines.len().saturating_sub(rows));
        let mut shown: Vec<Line> = lines.into_iter().skip(top).take(rows).collect();
        shown.resize(rows, Line::default());
        shown.push(footer);
        Paragraph::new(shown).render(inner, buf);
        let visible = at
            .into_iter()
            .enumerate()
            .filter(|(_, at)| (top..top + rows).contains(at))
            .map(|(n, at)| (at - top, n));
        Rows::of(inner, visible)
    }
}

const HELP: &[&str] = &[
    "The lobby",
    "",
    "Up, Down, j, k     select a line (the mouse wheel too)",
    "Enter, Space       accept the challenge, open your game, or watch a game",
    "click              select a line; a click on the selected line is Enter",
    "c                  make a challenge (a form: the game, size, pie rule, who moves",
    "                   first, the clock, rated or casual, and perhaps one opponent)",
    "d                  withdraw your challenge",
    "p                  puzzles, each near your puzzle rating (n the next, q back here)",
    "o                  the operators' screen (for the server's operators only)",
    "t                  tournaments: make one (n), join (Enter), withdraw (w), standings",
    "?                  this help (any key closes it)",
    "q, Esc, Ctrl-C     leave the server",
    "",
    "In a game: the game's keys (? lists them); R twice resigns, u asks for a takeback",
    "in a casual game, q comes back here. Your games wait for you when you leave.",
    "`ssh -p PORT HOST record ID` prints a game's record.",
];

#[cfg(test)]
mod tests;
