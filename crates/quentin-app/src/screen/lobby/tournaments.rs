//! The lobby's tournament screen (`t`): the tournaments, the selected one's table (its status,
//! standings and games, in the bot protocol's lines), joining and withdrawing, and a new one
//! made from the words of `tournament create` (which the driver reads).

use ratatui::style::{Color as Tint, Style};
use ratatui::text::Line;

use super::{Ask, Tournament};
use crate::input::{KeyCode, KeyEvent};

/// The longest line of words typed for a new tournament.
const MOST_TYPED: usize = 200;

/// How many of the selected tournament's games the screen shows: the last ones.
const GAMES_SHOWN: usize = 12;

/// The tournament screen's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Screen {
    selected: usize,
    /// The words of a new tournament, while typed.
    typing: Option<String>,
    /// Why the words typed make no tournament.
    error: Option<String>,
    /// Whether the help is open (`?`).
    help: bool,
}

/// What `?` shows on the tournament screen.
const HELP: [&str; 9] = [
    "Tournament keys:",
    "  Up/Down  select a tournament",
    "  Enter    join the selected one (before its start)",
    "  w        leave it (before its start), or withdraw from its next rounds",
    "  s        start it now (its creator, once enough have joined)",
    "  n        make one: its words as the bot protocol's tournament create",
    "  t, q     back to the lobby; ? closes this help",
    "When a round pairs you, your game opens at once (a bell rings); in another game,",
    "you are told, and o opens it. Its first move is timed from when it is shown to you.",
];

impl Screen {
    /// Handles a key: what it asks of the session, or `None` when it leaves the screen.
    pub fn key(&mut self, key: KeyEvent, tournaments: &[Tournament]) -> Option<Ask> {
        if let Some(typed) = &mut self.typing {
            match key.code {
                KeyCode::Esc => {
                    self.typing = None;
                    self.error = None;
                }
                KeyCode::Backspace => {
                    typed.pop();
                }
                KeyCode::Char(c)
                    if typed.len() < MOST_TYPED && (c == ' ' || c.is_ascii_graphic()) =>
                {
                    typed.push(c);
                }
                KeyCode::Enter => return Some(Ask::CreateTournament(typed.clone())),
                _ => {}
            }
            return Some(Ask::Nothing);
        }
        let selected = tournaments.get(self.selected).map(|t| t.id);
        if self.help {
            self.help = false;
            if !matches!(key.code, KeyCode::Char('t' | 'q')) {
                return Some(Ask::Nothing);
            }
        }
        match key.code {
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('s') => {
                return Some(selected.map_or(Ask::Nothing, Ask::StartTournament));
            }
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(tournaments.len().saturating_sub(1));
            }
            KeyCode::Char('n') => self.typing = Some(String::new()),
            KeyCode::Enter | KeyCode::Char(' ') => {
                return Some(selected.map_or(Ask::Nothing, Ask::JoinTournament));
            }
            KeyCode::Char('w') => {
                return Some(selected.map_or(Ask::Nothing, Ask::WithdrawTournament));
            }
            KeyCode::Char('t' | 'q') | KeyCode::Esc => return None,
            _ => {}
        }
        Some(Ask::Nothing)
    }

    /// What the driver made of the words typed: `Ok` closes their line, an error stays under
    /// it.
    pub fn words(&mut self, made: Result<(), String>) {
        match made {
            Ok(()) => {
                self.typing = None;
                self.error = None;
            }
            Err(why) => self.error = Some(why),
        }
    }

    /// The screen's lines; `tint` colours a style when colours are on.
    pub fn lines(
        &self,
        tournaments: &[Tournament],
        message: Option<&(String, bool)>,
        tint: impl Fn(Tint) -> Style,
    ) -> Vec<Line<'static>> {
        let mut lines = vec![Line::from(
            "Tournaments: Enter join, w leave, s start, n new, ? help, t back",
        )];
        if self.help {
            lines.push(Line::from(""));
            lines.extend(HELP.iter().map(|l| Line::from(*l)));
            return lines;
        }
        if let Some((text, refused)) = message {
            let tinted = tint(if *refused { Tint::Red } else { Tint::Green });
            lines.push(Line::styled(text.clone(), tinted));
        }
        if let Some(typed) = &self.typing {
            lines.push(Line::from(""));
            lines.push(Line::from(
                "New tournament: KIND GAME [size N] [pie on|off] clock C [rated|casual]",
            ));
            lines.push(Line::from(
                "  [rounds R] [minutes M] [start-in MINUTES] [min P] [max P]  (Enter makes it, Esc)",
            ));
            lines.push(Line::from(format!("> {typed}_")));
            if let Some(why) = &self.error {
                lines.push(Line::styled(why.clone(), tint(Tint::Red)));
            }
            return lines;
        }
        lines.push(Line::from(""));
        if tournaments.is_empty() {
            lines.push(Line::from("No tournament yet: n makes one."));
        }
        for (i, t) in tournaments.iter().enumerate() {
            let mark = if i == self.selected { "> " } else { "  " };
            lines.push(Line::from(format!("{mark}{}", t.summary)));
        }
        if let Some(t) = tournaments.get(self.selected) {
            lines.push(Line::from(""));
            let all = t.table.clone();
            // Its terms, its status and the standings' header, then a line a player.
            let players = 3 + t.players;
            let games = all.len() - players;
            for (n, line) in all.into_iter().enumerate() {
                // The status, every player, and the last games.
                if n < players || n >= players + games.saturating_sub(GAMES_SHOWN) {
                    lines.push(Line::from(line));
                }
            }
        }
        lines
    }
}
