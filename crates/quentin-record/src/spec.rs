//! What a challenge asks for: the game and its setup, who moves first, the time control, rated
//! or casual, and perhaps one opponent. Parsed from the bot protocol's words and built by the
//! lobby's form, the same values either way.

use std::fmt;

use quentin_rules::{Game, Setup};

/// How long the players may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A live game: `minutes` for the whole game, `increment` seconds more after each move.
    Live {
        /// Minutes each player starts with.
        minutes: u32,
        /// Seconds added after each of the player's moves.
        increment: u32,
    },
    /// A correspondence game: `days` for each move.
    Days(u32),
    /// A correspondence game with a time bank, as Little Golem's: `hours` in the bank at the
    /// start, `increment` hours added after each move, the bank never more than `hours`.
    Bank {
        /// Hours in the bank at the start, and the most it ever holds after a move.
        hours: u32,
        /// Hours added after each of the player's moves.
        increment: u32,
    },
}

/// The most hours a time bank holds: 2000 (83 days 8 hours).
pub const MAX_BANK_HOURS: u32 = 2000;

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 86_400_000;

/// `9d 12h`, `10d`, `12h`: hours as days and hours, as the screens show a bank.
#[must_use]
pub fn days_and_hours(hours: u32) -> String {
    match (hours / 24, hours % 24) {
        (0, h) => format!("{h}h"),
        (d, 0) => format!("{d}d"),
        (d, h) => format!("{d}d {h}h"),
    }
}

impl TimeControl {
    /// The clock a new game starts with, in milliseconds, for each player.
    #[must_use]
    pub fn start_ms(self) -> i64 {
        match self {
            TimeControl::Live { minutes, .. } => i64::from(minutes) * 60_000,
            TimeControl::Days(days) => i64::from(days) * DAY_MS,
            TimeControl::Bank { hours, .. } => i64::from(hours) * HOUR_MS,
        }
    }

    /// Whether the game is by correspondence (days a move, or a time bank): played slowly,
    /// in no bound of live games, and given vacation days.
    #[must_use]
    pub fn correspondence(self) -> bool {
        !matches!(self, TimeControl::Live { .. })
    }

    /// Below how many milliseconds a running clock is low on time: a tenth of the start, from
    /// 10 to 30 seconds for a live clock (10 s at 1+0, 30 s at 10+5).
    #[must_use]
    pub fn low_ms(self) -> i64 {
        match self {
            TimeControl::Live { .. } => (self.start_ms() / 10).clamp(10_000, 30_000),
            TimeControl::Days(_) | TimeControl::Bank { .. } => self.start_ms() / 10,
        }
    }

    /// How long each player has for their first move before the game is aborted: 30 s, or a
    /// tenth of a live game's time when that is shorter; a day by correspondence (a bank's
    /// too).
    #[must_use]
    pub fn first_move_ms(self) -> i64 {
        match self {
            TimeControl::Live { .. } => (self.start_ms() / 10).min(30_000),
            TimeControl::Days(_) | TimeControl::Bank { .. } => DAY_MS,
        }
    }

    /// The clock of a player who has just moved with `left` milliseconds on it.
    #[must_use]
    pub fn after_move_ms(self, left: i64) -> i64 {
        match self {
            TimeControl::Live { increment, .. } => left + i64::from(increment) * 1000,
            // Each move has its days afresh.
            TimeControl::Days(_) => self.start_ms(),
            // The increment added, the bank capped at its start (vacation days given above it
            // are capped too once the player moves).
            TimeControl::Bank { increment, .. } => {
                (left + i64::from(increment) * HOUR_MS).min(self.start_ms())
            }
        }
    }

    /// Reads `10+5` (minutes and increment) or `3d` / `3` with `days` (see [`Spec::parse`]).
    ///
    /// # Errors
    /// The reason, in words.
    pub fn parse_live(text: &str) -> Result<TimeControl, String> {
        let (m, i) = text.split_once('+').ok_or_else(|| {
            format!(
                "bad clock {}: say MINUTES+INCREMENT, e.g. 10+5",
                shown(text)
            )
        })?;
        let minutes: u32 = m
            .parse()
            .ok()
            .filter(|m| (1..=180).contains(m))
            .ok_or_else(|| "bad clock: minutes from 1 to 180".to_string())?;
        let increment: u32 = i
            .parse()
            .ok()
            .filter(|i| *i <= 180)
            .ok_or_else(|| "bad clock: an increment from 0 to 180 seconds".to_string())?;
        Ok(TimeControl::Live { minutes, increment })
    }

    /// Reads a number of days a move, 1 to 30.
    ///
    /// # Errors
    /// The reason, in words.
    pub fn parse_days(text: &str) -> Result<TimeControl, String> {
        text.parse()
            .ok()
            .filter(|d| (1..=30).contains(d))
            .map(TimeControl::Days)
            .ok_or_else(|| "bad days: from 1 to 30 a move".to_string())
    }

    /// Reads a bank's `HOURS+INCREMENT` (`240+36`): 1 to [`MAX_BANK_HOURS`] hours, an
    /// increment of at most the bank.
    ///
    /// # Errors
    /// The reason, in words.
    pub fn parse_bank(text: &str) -> Result<TimeControl, String> {
        let (h, i) = text
            .split_once('+')
            .ok_or_else(|| format!("bad bank {}: say HOURS+INCREMENT, e.g. 240+36", shown(text)))?;
        let hours: u32 = h
            .parse()
            .ok()
            .filter(|h| (1..=MAX_BANK_HOURS).contains(h))
            .ok_or_else(|| format!("bad bank: from 1 to {MAX_BANK_HOURS} hours"))?;
        let increment: u32 =
            i.parse().ok().filter(|i| *i <= hours).ok_or_else(|| {
                format!("bad bank: an increment from 0 to {hours} hours (the bank)")
            })?;
        Ok(TimeControl::Bank { hours, increment })
    }

    /// The words of the bot protocol that ask for it: `clock 10+5`, `days 3`, `bank 240+36`.
    #[must_use]
    pub fn words(self) -> String {
        match self {
            TimeControl::Live { minutes, increment } => format!("clock {minutes}+{increment}"),
            TimeControl::Days(d) => format!("days {d}"),
            TimeControl::Bank { hours, increment } => format!("bank {hours}+{increment}"),
        }
    }

    /// The words the store keeps and [`TimeControl::from_stored`] reads back.
    #[must_use]
    pub fn stored(self) -> String {
        match self {
            TimeControl::Live { minutes, increment } => format!("{minutes}+{increment}"),
            TimeControl::Days(d) => format!("{d}d"),
            TimeControl::Bank { hours, increment } => format!("{hours}+{increment}h"),
        }
    }

    /// Reads what [`TimeControl::stored`] wrote.
    #[must_use]
    pub fn from_stored(text: &str) -> Option<TimeControl> {
        if let Some(days) = text.strip_suffix('d') {
            TimeControl::parse_days(days).ok()
        } else if let Some(bank) = text.strip_suffix('h') {
            TimeControl::parse_bank(bank).ok()
        } else {
            TimeControl::parse_live(text).ok()
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Live { minutes, increment } => write!(f, "{minutes}+{increment}"),
            TimeControl::Days(1) => f.write_str("1 day a move"),
            TimeControl::Days(d) => write!(f, "{d} days a move"),
            TimeControl::Bank { hours, increment } => write!(
                f,
                "bank {} +{}",
                days_and_hours(*hours),
                days_and_hours(*increment)
            ),
        }
    }
}

/// Who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// The one who made the challenge.
    Me,
    /// The one who accepts it.
    You,
    /// Drawn when the game starts.
    Random,
}

impl First {
    /// `me`, `you` or `random`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            First::Me => "me",
            First::You => "you",
            First::Random => "random",
        }
    }

    /// Reads [`First::name`].
    #[must_use]
    pub fn from_name(text: &str) -> Option<First> {
        [First::Me, First::You, First::Random]
            .into_iter()
            .find(|f| f.name() == text)
    }
}

/// A challenge's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The game and its setup.
    pub setup: Setup,
    /// Who moves first.
    pub first: First,
    /// The time control.
    pub clock: TimeControl,
    /// Whether the result counts for the ratings.
    pub rated: bool,
    /// The one player who may accept it, by name; anybody when `None`.
    pub to: Option<String>,
}

/// The clock of a challenge that names none.
pub const DEFAULT_CLOCK: TimeControl = TimeControl::Live {
    minutes: 10,
    increment: 5,
};

impl Spec {
    /// A rated challenge of `game` with its usual setup, the first move drawn, 10+5.
    #[must_use]
    pub fn new(game: Game) -> Spec {
        Spec {
            setup: Setup::new(game),
            first: First::Random,
            clock: DEFAULT_CLOCK,
            rated: true,
            to: None,
        }
    }

    /// Reads the bot protocol's `GAME [size N] [pie on|off] [pieces N] [first me|you|random]
    /// [clock M+I | days D | bank H+I] [rated|casual] [to NAME]`.
    ///
    /// # Errors
    /// The reason, in words.
    pub fn parse(words: &[&str]) -> Result<Spec, String> {
        let (name, mut rest) = words
            .split_first()
            .ok_or_else(|| "say which game: quentin, konobi, brique or quint".to_string())?;
        let game = Game::from_name(&name.to_ascii_lowercase())
            .ok_or_else(|| format!("unknown game {}", shown(name)))?;
        let mut spec = Spec::new(game);
        while let Some((word, after)) = rest.split_first() {
            rest = after;
            let mut value = || {
                let (v, after) = rest
                    .split_first()
                    .ok_or_else(|| format!("{word} needs a value"))?;
                rest = after;
                Ok::<&str, String>(v)
            };
            match word.to_ascii_lowercase().as_str() {
                "size" => {
                    spec.setup.size = value()?
                        .parse()
                        .map_err(|_| "bad size: a number".to_string())?;
                }
                "pie" => {
                    spec.setup.pie = match value()? {
                        "on" => true,
                        "off" => false,
                        _ => return Err("pie on or pie off".to_string()),
                    }
                }
                "pieces" => {
                    spec.setup.pieces = value()?
                        .parse()
                        .map_err(|_| "bad pieces: a number".to_string())?;
                }
                "first" => {
                    spec.first = First::from_name(value()?)
                        .ok_or_else(|| "first me, first you or first random".to_string())?;
                }
                "clock" => spec.clock = TimeControl::parse_live(value()?)?,
                "days" => spec.clock = TimeControl::parse_days(value()?)?,
                "bank" => spec.clock = TimeControl::parse_bank(value()?)?,
                "rated" => spec.rated = true,
                "casual" => spec.rated = false,
                "to" => spec.to = Some(value()?.to_string()),
                _ => return Err(format!("unknown word {}", shown(word))),
            }
        }
        if game == Game::Quint {
            spec.setup.pie = false;
        }
        spec.setup.start().map_err(|e| e.to_string())?;
        Ok(spec)
    }

    /// The terms in words: `quentin 9x9 pie on, 10+5, rated`.
    #[must_use]
    pub fn summary(&self) -> String {
        let setup = &self.setup;
        let board = if setup.game.piece_options().is_empty() {
            format!(
                "{} {}x{} pie {}",
                setup.game,
                setup.size,
                setup.size,
                if setup.pie { "on" } else { "off" }
            )
        } else {
            format!("{} {} pieces", setup.game, setup.pieces)
        };
        format!(
            "{board}, {}, {}",
            self.clock,
            if self.rated { "rated" } else { "casual" }
        )
    }
}

/// A word from a client, safe to print anywhere: control characters escaped, at most 40
/// characters.
#[must_use]
pub fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests;
