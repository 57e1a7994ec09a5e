//! What `tournament create KIND GAME [size N] [pie on|off] clock C [rated|casual] [rounds R]
//! [minutes M] [round-days D] [start-in MINUTES] [min P] [max P]` asks for, read and checked: a
//! setting that makes no sense (no rounds, more rounds than the players can play without
//! meeting twice, an arena by correspondence, a minimum above the maximum, a set round time for
//! anything but a Swiss by correspondence) is refused saying why.

use std::fmt;

use crate::ids::{Millis, Moment};
use crate::spec::{First, Spec, TimeControl, shown};

/// The three kinds of tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Everyone plays everyone, once or twice.
    RoundRobin,
    /// A fixed number of rounds, each pairing players of nearest score who have not met.
    Swiss,
    /// For a fixed time, whoever finishes a game is paired again at once (live only).
    Arena,
}

impl Kind {
    /// `roundrobin`, `swiss` or `arena`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::RoundRobin => "roundrobin",
            Kind::Swiss => "swiss",
            Kind::Arena => "arena",
        }
    }

    /// Reads [`Kind::name`].
    #[must_use]
    pub fn from_name(text: &str) -> Option<Kind> {
        [Kind::RoundRobin, Kind::Swiss, Kind::Arena]
            .into_iter()
            .find(|k| k.name() == text)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The most players a tournament takes.
pub const MAX_PLAYERS: u32 = 64;
/// The longest an arena lasts, in minutes (12 hours).
pub const MAX_ARENA_MINUTES: u32 = 720;
/// The latest a tournament may start, in minutes from its creation (30 days).
pub const MAX_START_IN: u32 = 30 * 24 * 60;
/// When a tournament starts, in minutes from its creation, if its creator says nothing.
pub const DEFAULT_START_IN: u32 = 60;
/// The most days a Swiss round by correspondence may be given (`round-days`).
pub const MAX_ROUND_DAYS: u32 = 60;

/// A tournament's terms, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Round robin, Swiss or arena.
    pub kind: Kind,
    /// The games' terms: the game and its setup, the clock, rated or casual (the first move is
    /// the director's to give, and nobody is named).
    pub spec: Spec,
    /// A Swiss tournament's rounds; how many times everyone meets everyone in a round robin
    /// (1 or 2); 0 for an arena.
    pub rounds: u32,
    /// How long an arena lasts, in minutes; 0 for the others.
    pub minutes: u32,
    /// A Swiss by correspondence: round R starts at the latest (R - 1) × this many days after
    /// the tournament's start, sooner when the round before has ended; 0: when it has ended.
    pub round_days: u32,
    /// Minutes from the creation to the start.
    pub start_in: u32,
    /// The fewest players it starts with.
    pub min: u32,
    /// The most players it takes.
    pub max: u32,
}

impl Settings {
    /// Reads the words after `tournament create`.
    ///
    /// # Errors
    /// The reason, in words: an unknown or missing word, or settings that make no sense.
    pub fn parse(words: &[&str]) -> Result<Settings, String> {
        let (kind, rest) = words
            .split_first()
            .ok_or_else(|| "say which kind: roundrobin, swiss or arena".to_string())?;
        let kind = Kind::from_name(&kind.to_ascii_lowercase())
            .ok_or_else(|| format!("unknown kind {}: roundrobin, swiss or arena", shown(kind)))?;
        let mut game_words: Vec<String> = Vec::new();
        let (mut rounds, mut minutes, mut start_in, mut min, mut max) =
            (None, None, None, None, None);
        let mut round_days = None;
        let mut clock = false;
        let mut rest = rest.iter();
        if let Some(game) = rest.next() {
            game_words.push((*game).to_string());
        }
        while let Some(word) = rest.next() {
            let lower = word.to_ascii_lowercase();
            let mut number = |name: &str, low: u32, high: u32| -> Result<Option<u32>, String> {
                let value = rest.next().ok_or_else(|| format!("{name} needs a value"))?;
                value
                    .parse()
                    .ok()
                    .filter(|n| (low..=high).contains(n))
                    .map(Some)
                    .ok_or_else(|| format!("bad {name} {}: from {low} to {high}", shown(value)))
            };
            match lower.as_str() {
                "rounds" => rounds = number("rounds", 1, MAX_PLAYERS)?,
                "minutes" => minutes = number("minutes", 1, MAX_ARENA_MINUTES)?,
                "round-days" => round_days = number("round-days", 1, MAX_ROUND_DAYS)?,
                "start-in" => start_in = number("start-in", 0, MAX_START_IN)?,
                "min" => min = number("min", 2, MAX_PLAYERS)?,
                "max" => max = number("max", 2, MAX_PLAYERS)?,
                "clock" => {
                    let value = rest
                        .next()
                        .ok_or_else(|| "clock needs a value".to_string())?;
                    clock = true;
                    if value.contains('+') {
                        game_words.extend(["clock".to_string(), (*value).to_string()]);
                    } else {
                        // `clock 3` or `clock 3d`: days a move.
                        let days = value.strip_suffix(['d', 'D']).unwrap_or(value);
                        game_words.extend(["days".to_string(), days.to_string()]);
                    }
                }
                "days" | "bank" => {
                    clock = true;
                    game_words.push(lower);
                }
                "first" | "to" => {
                    return Err(format!(
                        "{lower} is not a tournament's: the director gives the first moves and \
                         pairs the players"
                    ));
                }
                _ => game_words.push((*word).to_string()),
            }
        }
        let game_words: Vec<&str> = game_words.iter().map(String::as_str).collect();
        let mut spec = Spec::parse(&game_words)?;
        if !clock {
            return Err("say the clock: clock 10+5 (live), clock 3d (days a move) or bank 240+36 (a time bank)".to_string());
        }
        spec.first = First::Random;
        let settings = Settings {
            kind,
            spec,
            rounds: match kind {
                Kind::RoundRobin => rounds.unwrap_or(1),
                Kind::Swiss => rounds.ok_or_else(|| {
                    "say how many rounds a Swiss tournament has: rounds R".to_string()
                })?,
                Kind::Arena => {
                    if rounds.is_some() {
                        return Err(
                            "an arena has no rounds: say how long it lasts, minutes M".to_string()
                        );
                    }
                    0
                }
            },
            minutes: match (kind, minutes) {
                (Kind::Arena, Some(m)) => m,
                (Kind::Arena, None) => {
                    return Err("say how long the arena lasts: minutes M".to_string());
                }
                (_, Some(_)) => {
                    return Err(format!("minutes is an arena's length: a {kind} has rounds"));
                }
                (_, None) => 0,
            },
            round_days: round_days.unwrap_or(0),
            start_in: start_in.unwrap_or(DEFAULT_START_IN),
            min: 0,
            max: max.unwrap_or(MAX_PLAYERS),
        };
        Settings {
            min: min.unwrap_or_else(|| settings.fewest()),
            ..settings
        }
        .checked()
    }

    /// The fewest players the kind and its rounds need.
    fn fewest(&self) -> u32 {
        match self.kind {
            // A Swiss of R rounds needs R + 1 players for nobody to meet twice.
            Kind::Swiss => (self.rounds + 1).max(2),
            Kind::RoundRobin | Kind::Arena => 2,
        }
    }

    /// The settings, if they make sense.
    fn checked(self) -> Result<Settings, String> {
        match self.kind {
            Kind::RoundRobin if self.rounds > 2 => {
                return Err(format!(
                    "rounds {}: a round robin is played once or twice (rounds 1 or 2); each \
                     time everyone meets everyone",
                    self.rounds
                ));
            }
            Kind::Swiss if self.rounds >= self.max => {
                return Err(format!(
                    "rounds {} with at most {} players: more rounds than a round robin of them \
                     has ({})",
                    self.rounds,
                    self.max,
                    self.max - 1
                ));
            }
            Kind::Swiss if self.min < self.fewest() => {
                return Err(format!(
                    "min {}: {} rounds need at least {} players for nobody to meet twice",
                    self.min,
                    self.rounds,
                    self.fewest()
                ));
            }
            _ if self.round_days > 0 && self.kind != Kind::Swiss => {
                return Err(format!(
                    "round-days is a Swiss's: a {} sets no time for its rounds",
                    self.kind
                ));
            }
            Kind::Swiss if self.round_days > 0 && !self.correspondence() => {
                return Err(
                    "round-days is for a Swiss by correspondence (clock 3d): a live round starts \
                     when the last game before it ends"
                        .to_string(),
                );
            }
            Kind::Arena if self.spec.clock.correspondence() => {
                return Err(
                    "an arena is live: say clock MINUTES+INCREMENT, not days a move".to_string(),
                );
            }
            _ => {}
        }
        if self.min > self.max {
            return Err(format!(
                "min {} is more than max {}: nobody could start it",
                self.min, self.max
            ));
        }
        Ok(self)
    }

    /// Whether the games are by correspondence (days a move).
    #[must_use]
    pub fn correspondence(&self) -> bool {
        self.spec.clock.correspondence()
    }

    /// When round `round` (from 1) starts at the latest, for a tournament started at
    /// `started`: with `round-days`, (round - 1) × that many days after the start; without,
    /// none (when the round before has ended).
    #[must_use]
    pub fn round_due(&self, started: Moment, round: u32) -> Option<Moment> {
        (self.round_days > 0).then(|| {
            started + Millis::days(i64::from(round.saturating_sub(1)) * i64::from(self.round_days))
        })
    }

    /// The rounds a tournament of `players` players has (an arena's: none fixed, 0).
    #[must_use]
    pub fn rounds_for(&self, players: u32) -> u32 {
        match self.kind {
            Kind::RoundRobin => super::roundrobin::rounds(players as usize) as u32 * self.rounds,
            Kind::Swiss => self.rounds,
            Kind::Arena => 0,
        }
    }

    /// Reads what [`Settings::words`] wrote (the store's column).
    ///
    /// # Errors
    /// The reason, in words.
    pub fn from_stored(text: &str) -> Result<Settings, String> {
        Settings::parse(&text.split_whitespace().collect::<Vec<_>>())
    }

    /// The words [`Settings::parse`] reads back to these settings (what the store keeps).
    #[must_use]
    pub fn words(&self) -> String {
        let setup = &self.spec.setup;
        let mut words = format!("{} {}", self.kind, setup.game);
        if setup.game.piece_options().is_empty() {
            words += &format!(
                " size {} pie {}",
                setup.size,
                if setup.pie { "on" } else { "off" }
            );
        } else {
            words += &format!(" pieces {}", setup.pieces);
        }
        words += &match self.spec.clock {
            TimeControl::Live { minutes, increment } => format!(" clock {minutes}+{increment}"),
            TimeControl::Days(days) => format!(" clock {days}d"),
            TimeControl::Bank { hours, increment } => format!(" bank {hours}+{increment}"),
        };
        words += if self.spec.rated { " rated" } else { " casual" };
        match self.kind {
            Kind::Arena => words += &format!(" minutes {}", self.minutes),
            _ => words += &format!(" rounds {}", self.rounds),
        }
        if self.round_days > 0 {
            words += &format!(" round-days {}", self.round_days);
        }
        words += &format!(
            " start-in {} min {} max {}",
            self.start_in, self.min, self.max
        );
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Settings, String> {
        Settings::parse(&line.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn the_bot_protocols_words_make_settings() {
        let swiss =
            parse("swiss quentin size 7 pie off clock 3+2 casual rounds 4 min 6 max 9").unwrap();
        assert_eq!(swiss.kind, Kind::Swiss);
        assert_eq!(swiss.spec.setup.size, 7);
        assert!(!swiss.spec.setup.pie);
        assert_eq!(
            swiss.spec.clock,
            TimeControl::Live {
                minutes: 3,
                increment: 2
            }
        );
        assert!(!swiss.spec.rated);
        assert_eq!((swiss.rounds, swiss.min, swiss.max), (4, 6, 9));
        assert_eq!(swiss.start_in, DEFAULT_START_IN);
        let rr = parse("roundrobin konobi clock 3d rounds 2 start-in 0").unwrap();
        assert_eq!(rr.spec.clock, TimeControl::Days(3));
        assert!(rr.correspondence());
        assert_eq!(rr.rounds_for(5), 10);
        assert_eq!(rr.rounds_for(4), 6);
        let arena = parse("arena brique clock 1+0 minutes 30").unwrap();
        assert_eq!((arena.minutes, arena.rounds, arena.min), (30, 0, 2));
        let set = parse("swiss quentin clock 2d rounds 3 round-days 7").unwrap();
        assert_eq!(set.round_due(Moment(1000), 1), Some(Moment(1000)));
        assert_eq!(
            set.round_due(Moment(1000), 3),
            Some(Moment(1000) + Millis::days(14))
        );
        assert_eq!(swiss.round_due(Moment(1000), 3), None);
        // A Swiss without a minimum needs one more player than it has rounds.
        assert_eq!(parse("swiss quentin clock 1+1 rounds 4").unwrap().min, 5);
    }

    #[test]
    fn a_time_bank_is_a_correspondence_clock_and_round_trips_through_the_store() {
        let bank = parse("swiss quentin bank 240+36 rounds 3 round-days 7").unwrap();
        assert_eq!(
            bank.spec.clock,
            TimeControl::Bank {
                hours: 240,
                increment: 36
            }
        );
        assert!(bank.correspondence());
        assert_eq!(Settings::from_stored(&bank.words()), Ok(bank));
        assert!(parse("arena quentin bank 240+36 minutes 30").is_err());
        assert!(parse("swiss quentin bank 3000+1 rounds 3").is_err());
    }

    #[test]
    fn settings_round_trip_through_their_words() {
        for line in [
            "swiss quentin size 7 pie off clock 3+2 casual rounds 4 min 6 max 9",
            "roundrobin konobi clock 3 rounds 2",
            "arena brique clock 1+0 minutes 30 start-in 5",
            "swiss quint pieces 15 clock 2d rounds 3",
            "swiss quentin clock 3d rounds 4 round-days 10",
        ] {
            let settings = parse(line).unwrap();
            assert_eq!(
                Settings::from_stored(&settings.words()),
                Ok(settings),
                "{line}"
            );
        }
    }

    #[test]
    fn absurd_settings_are_refused_saying_why() {
        for (line, why) in [
            ("", "say which kind"),
            ("knockout quentin clock 1+0", "unknown kind knockout"),
            ("swiss chess clock 1+0 rounds 3", "unknown game chess"),
            ("swiss quentin rounds 3", "say the clock"),
            ("swiss quentin clock 1+0", "how many rounds"),
            ("swiss quentin clock 1+0 rounds 0", "bad rounds 0: from 1"),
            (
                "swiss quentin clock 1+0 rounds 9 max 8",
                "more rounds than a round robin",
            ),
            (
                "swiss quentin clock 1+0 rounds 4 min 3",
                "at least 5 players",
            ),
            ("roundrobin quentin clock 1+0 rounds 3", "once or twice"),
            (
                "roundrobin quentin clock 1+0 min 9 max 4",
                "min 9 is more than max 4",
            ),
            ("arena quentin clock 3d minutes 20", "an arena is live"),
            ("arena quentin clock 3+0", "how long the arena lasts"),
            (
                "arena quentin clock 3+0 minutes 9 rounds 2",
                "an arena has no rounds",
            ),
            (
                "swiss quentin clock 3+0 rounds 2 minutes 9",
                "minutes is an arena's",
            ),
            (
                "swiss quentin clock 3+0 rounds 2 first me",
                "first is not a tournament's",
            ),
            ("swiss quentin clock 3+0 rounds 2 min 1", "bad min 1"),
            ("swiss quentin clock 3+0 rounds 2 max 65", "bad max 65"),
            ("swiss quentin clock 3+0 rounds", "rounds needs a value"),
            ("arena quentin clock 3+0 minutes 9999", "bad minutes 9999"),
            (
                "swiss quentin clock 3+0 rounds 2 start-in x",
                "bad start-in x",
            ),
            ("swiss quentin clock 3+0 rounds 2 size 99", "size"),
            (
                "swiss quentin clock 3+0 rounds 2 round-days 3",
                "round-days is for a Swiss by correspondence",
            ),
            (
                "roundrobin quentin clock 3d round-days 3",
                "round-days is a Swiss's",
            ),
            (
                "swiss quentin clock 3d rounds 2 round-days 0",
                "bad round-days 0: from 1 to 60",
            ),
        ] {
            let error = parse(line).unwrap_err();
            assert!(error.contains(why), "{line}: {error}");
        }
    }
}
