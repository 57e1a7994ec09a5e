//! Tournaments: round robins, Swiss tournaments and arenas, as a pure model with no I/O. The
//! hub's director (elsewhere) keeps a tournament's entrants and games in the store, asks this
//! model whom to pair next, and turns its standings into the bot protocol's lines.
//!
//! - [`settings`]: what `tournament create ...` asks for, checked.
//! - [`roundrobin`]: everyone meets everyone, by the circle method.
//! - [`swiss`]: a fixed number of rounds, each pairing nearest scores who have not met.
//! - [`arena`]: for a fixed time, whoever is free is paired at once; streaks double points.
//! - [`standings`]: points, tie-breaks and the crosstable.
//!
//! docs/server.md says which of the FIDE Dutch system's rules the Swiss pairing keeps.

pub mod arena;
pub mod arena_score;
pub mod cancelled;
pub mod refusal;
pub mod roundrobin;
pub mod settings;
pub mod standings;
pub mod swiss;

use std::fmt;

pub use cancelled::Cancelled;
pub use refusal::TournamentRefusal;
pub use settings::{Kind, Settings};

pub use crate::ids::TournamentId;

/// Where a tournament stands: the store keeps it as a word ([`Status::word`]), read back once
/// ([`Status::from_word`]); everything else matches on the type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Taking entrants, before its start.
    Open,
    /// Started: its rounds are being played.
    Running,
    /// Its last game ended.
    Over,
    /// Cancelled (too few entrants at the start, by its creator, or by an operator).
    Cancelled,
}

impl Status {
    /// The word the store and the bot protocol use.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Over => "over",
            Status::Cancelled => "cancelled",
        }
    }

    /// Open or running: not yet over nor cancelled.
    #[must_use]
    pub fn under_way(self) -> bool {
        matches!(self, Status::Open | Status::Running)
    }

    /// Reads [`Status::word`]'s words.
    #[must_use]
    pub fn from_word(word: &str) -> Option<Status> {
        [
            Status::Open,
            Status::Running,
            Status::Over,
            Status::Cancelled,
        ]
        .into_iter()
        .find(|s| s.word() == word)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A player in a tournament: the player's number in the store.
pub type Player = crate::ids::PlayerId;

/// How a tournament game ended, seen from the player who moved first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The first player won (`1-0`).
    FirstWon,
    /// The second player won (`0-1`).
    SecondWon,
    /// Nobody won (Quint's third repetition, `1/2-1/2`).
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            GameResult::FirstWon => "1-0",
            GameResult::SecondWon => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Reads [`GameResult::word`].
    #[must_use]
    pub fn from_word(text: &str) -> Option<GameResult> {
        [
            GameResult::FirstWon,
            GameResult::SecondWon,
            GameResult::Draw,
        ]
        .into_iter()
        .find(|r| r.word() == text)
    }

    /// The half points `player` scored, who moved first when `first`.
    #[must_use]
    pub fn halves_for(self, first: bool) -> u32 {
        match (self, first) {
            (GameResult::Draw, _) => 1,
            (GameResult::FirstWon, true) | (GameResult::SecondWon, false) => 2,
            _ => 0,
        }
    }
}

/// One pairing of a round: two players (the first moves first), or a bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pairing {
    /// A game: `first` moves first.
    Game {
        /// Who moves first.
        first: Player,
        /// Who moves second.
        second: Player,
    },
    /// A round off for `player`, worth a point in a Swiss tournament.
    Bye(Player),
}

impl Pairing {
    /// Whether `player` is in it.
    #[must_use]
    pub fn has(&self, player: Player) -> bool {
        match *self {
            Pairing::Game { first, second } => first == player || second == player,
            Pairing::Bye(p) => p == player,
        }
    }
}

/// A game or bye of a tournament so far, and its result once known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The round (from 1; an arena numbers its games in the order they began).
    pub round: u32,
    /// Who plays whom.
    pub pairing: Pairing,
    /// The result; `None` while the game goes on (a bye has none).
    pub result: Option<GameResult>,
}

impl Played {
    /// Whether `a` and `b` met in it.
    #[must_use]
    pub fn met(&self, a: Player, b: Player) -> bool {
        match self.pairing {
            Pairing::Game { first, second } => {
                (first == a && second == b) || (first == b && second == a)
            }
            Pairing::Bye(_) => false,
        }
    }

    /// `player`'s opponent, if it was a game of theirs.
    #[must_use]
    pub fn opponent_of(&self, player: Player) -> Option<Player> {
        match self.pairing {
            Pairing::Game { first, second } if first == player => Some(second),
            Pairing::Game { first, second } if second == player => Some(first),
            _ => None,
        }
    }
}

/// Half points written as points: `3`, `2.5`.
#[must_use]
pub fn points(halves: u32) -> String {
    if halves.is_multiple_of(2) {
        (halves / 2).to_string()
    } else {
        format!("{}.5", halves / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tournament_numbers_are_written_with_a_t_and_read_back() {
        assert_eq!(TournamentId(7).to_string(), "t7");
        assert_eq!(TournamentId::parse("t7"), Some(TournamentId(7)));
        assert_eq!(TournamentId::parse("T12"), Some(TournamentId(12)));
        for bad in ["7", "t", "t0", "t-1", "tx", "t+3"] {
            assert_eq!(TournamentId::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn results_and_points_read_as_written() {
        for r in [
            GameResult::FirstWon,
            GameResult::SecondWon,
            GameResult::Draw,
        ] {
            assert_eq!(GameResult::from_word(r.word()), Some(r));
        }
        assert_eq!(GameResult::FirstWon.halves_for(true), 2);
        assert_eq!(GameResult::FirstWon.halves_for(false), 0);
        assert_eq!(GameResult::Draw.halves_for(false), 1);
        assert_eq!(points(6), "3");
        assert_eq!(points(5), "2.5");
    }
}
