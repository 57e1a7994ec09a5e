//! The form of a new challenge in the lobby: the game, size, pie rule, who moves first, the
//! clock, rated or casual, and perhaps one opponent; its keys and its lines.

use quentin_record::spec::{First, Spec, TimeControl};
use quentin_rules::{Game, Setup};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use crate::input::{KeyCode, KeyEvent};

/// The clocks the form offers.
const CLOCKS: [TimeControl; 10] = [
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
    // Little Golem's: 10 days in the bank, a day and a half more after each move.
    TimeControl::Bank {
        hours: 240,
        increment: 36,
    },
];

/// The fields of the challenge form, in order.
const FIELDS: [&str; 7] = [
    "Game", "Size", "Pie rule", "First", "Clock", "Rated", "Opponent",
];

/// A new challenge being filled in.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Form {
    field: usize,
    spec: Spec,
    clock: usize,
    opponent: String,
    /// A clock typed on the clock's field (`7+3`, `2d`, a bank's `240+36h`), instead of one of
    /// [`CLOCKS`].
    typed_clock: Option<String>,
    /// Why the server refused the challenge the form made, shown under it when it opens
    /// again with what was typed.
    refused: Option<String>,
}

impl Form {
    pub(super) fn new() -> Form {
        Form {
            field: 0,
            spec: Spec::new(Game::Quentin),
            clock: 3,
            opponent: String::new(),
            typed_clock: None,
            refused: None,
        }
    }

    /// The form of the challenge made last, to make another like it: the same settings, on
    /// its first field, for anybody (lichess's form remembers its settings too).
    pub(super) fn again(&self) -> Form {
        Form {
            field: 0,
            spec: Spec {
                to: None,
                ..self.spec.clone()
            },
            clock: self.clock,
            opponent: String::new(),
            typed_clock: self.typed_clock.clone(),
            refused: None,
        }
    }

    /// The form again, as it was, with why its challenge was refused; on the opponent's field
    /// when the name was the fault.
    pub(super) fn refused(mut self, why: String, name: bool) -> Form {
        if name {
            self.field = FIELDS.len() - 1;
        }
        self.refused = Some(why);
        self
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
                // From a typed clock, the presets go on from the one shown before it.
                if self.typed_clock.take().is_none() {
                    self.clock = turn(self.clock, CLOCKS.len());
                }
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
            4 => match &self.typed_clock {
                Some(text) => {
                    format!("{text}_  (type MINUTES+INCREMENT, DAYSd, or a bank HOURS+HOURSh)")
                }
                None => format!("{}  (or type one: 7+3, 2d, 240+36h)", self.spec.clock),
            },
            5 => if self.spec.rated { "rated" } else { "casual" }.to_string(),
            _ if self.opponent.is_empty() => "anybody (type a name)".to_string(),
            _ => self.opponent.clone(),
        }
    }

    /// A key; `false` when it ends the form (Enter makes the challenge, Esc drops it).
    pub(super) fn key(&mut self, key: KeyEvent) -> bool {
        match key.code {
            KeyCode::Esc | KeyCode::Enter => return false,
            KeyCode::Up | KeyCode::BackTab => self.field = self.field.saturating_sub(1),
            KeyCode::Char('k') if self.field < 6 => self.field = self.field.saturating_sub(1),
            KeyCode::Down | KeyCode::Tab => self.field = (self.field + 1).min(FIELDS.len() - 1),
            KeyCode::Char('j') if self.field < 6 => self.field += 1,
            KeyCode::Left => self.change(-1),
            // A bank's `h` ends a clock being typed (`240+36h`); alone it is Left.
            KeyCode::Char('h') if self.field == 4 && self.typing() => {
                if let Some(text) = &mut self.typed_clock
                    && text.len() < 8
                {
                    text.push('h');
                }
            }
            KeyCode::Char('h') if self.field < 6 => self.change(-1),
            KeyCode::Right | KeyCode::Char(' ' | 'l') if self.field < 6 => self.change(1),
            KeyCode::Backspace if self.field == 6 => {
                self.opponent.pop();
            }
            KeyCode::Backspace if self.field == 4 => {
                if let Some(text) = &mut self.typed_clock {
                    text.pop();
                }
            }
            KeyCode::Char(c)
                if self.field == 4 && (c.is_ascii_digit() || matches!(c, '+' | 'd')) =>
            {
                let text = self.typed_clock.get_or_insert_with(String::new);
                if text.len() < 8 {
                    text.push(c);
                }
            }
            KeyCode::Char(c)
                if self.field == 6
                    && self.opponent.len() < 20
                    && (c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
            {
                self.opponent.push(c);
            }
            _ => {}
        }
        true
    }

    /// Whether a clock is being typed: some of it typed already.
    fn typing(&self) -> bool {
        self.typed_clock.as_ref().is_some_and(|t| !t.is_empty())
    }

    /// The challenge the form shows, or why its typed clock is not one.
    pub(super) fn spec(&self) -> Result<Spec, String> {
        let mut spec = self.spec.clone();
        if let Some(text) = self.typed_clock.as_deref().filter(|t| !t.is_empty()) {
            spec.clock = if let Some(days) = text.strip_suffix('d') {
                TimeControl::parse_days(days)?
            } else if let Some(bank) = text.strip_suffix('h') {
                TimeControl::parse_bank(bank)?
            } else {
                TimeControl::parse_live(text)?
            };
        }
        spec.to = (!self.opponent.is_empty()).then(|| self.opponent.clone());
        Ok(spec)
    }

    /// The form again on its clock's field, saying why the typed clock was refused.
    pub(super) fn bad_clock(mut self, why: String) -> Form {
        self.field = 4;
        self.refused = Some(why);
        self
    }

    /// Moves to the field `by` fields away.
    pub(super) fn step(&mut self, by: isize) {
        self.field = self.field.saturating_add_signed(by).min(FIELDS.len() - 1);
    }

    /// A click on `field`: it becomes the field, or, when it is already, its value changes as
    /// Right changes it.
    pub(super) fn click(&mut self, field: usize) {
        if field == self.field {
            self.change(1);
        } else {
            self.field = field.min(FIELDS.len() - 1);
        }
    }

    /// The form's lines, and the line of each field among them.
    pub(super) fn lines(&self) -> (Vec<Line<'static>>, impl Iterator<Item = usize>) {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let mut lines = vec![
            Line::styled("New challenge", bold),
            Line::from("Up/Down (j/k, Tab): a field   Left/Right (h/l): change it"),
            Line::from("Enter: make the challenge   Esc: cancel"),
            Line::default(),
        ];
        for (i, name) in FIELDS.iter().enumerate() {
            let marker = if i == self.field { "> " } else { "  " };
            let style = if i == self.field { bold } else { Style::new() };
            lines.push(Line::styled(
                format!("{marker}{name:<10} {}", self.value(i)),
                style,
            ));
        }
        let fields = lines.len() - FIELDS.len()..lines.len();
        if let Some(why) = &self.refused {
            lines.push(Line::default());
            lines.push(Line::styled(format!("Refused: {why}."), bold));
        }
        (lines, fields)
    }
}
