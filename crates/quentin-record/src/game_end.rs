//! How a game ended, as a type: who won, how, or why it was aborted; and the seats of a game's
//! two players ([`Seat`]). The server and the app's screens of an online game both read these
//! types (the server keeps them, the screens say them). The server's store keeps an ending as
//! two words (`result`, `reason`) and this module is the one place where they are written and
//! read ([`GameEnd::words`], [`GameEnd::from_words`]): the server's hub, views, tournaments and
//! bot protocol and the app's result line match on the type, so a new kind of ending is a new
//! variant the compiler makes every reader handle, not a word some reader does not know.
//!
//! A word this version does not know is refused when the store is read (the game's row is
//! damaged, or written by a newer version): a new ending comes with a schema step, so that an
//! older process refuses to start on the store rather than misread the game.

use std::fmt;
use std::ops::{Index, IndexMut};

use quentin_rules::{Color, Ending, Position};

use crate::game_line::seat_of;

/// A player's place in a game: who moves first, or second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seat {
    /// Player 1, who moves first.
    First,
    /// Player 2.
    Second,
}

impl Seat {
    /// Both, in order.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// The other seat.
    #[must_use]
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 0 or 1: the seat's place in a pair and in the rules' player numbers.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }

    /// The first seat with no action of its own after `actions` actions (the first two are
    /// each seat's first): in a game aborted for it, the one that made no first move.
    #[must_use]
    pub fn first_idle(actions: usize) -> Seat {
        if actions == 0 {
            Seat::First
        } else {
            Seat::Second
        }
    }

    /// The seat at place `index` of a pair, if 0 or 1.
    #[must_use]
    pub fn from_index(index: usize) -> Option<Seat> {
        match index {
            0 => Some(Seat::First),
            1 => Some(Seat::Second),
            _ => None,
        }
    }

    /// The seat that plays `color` in `position` (the first two actions may swap them).
    #[must_use]
    pub fn of(position: &Position, color: Color) -> Seat {
        if seat_of(position, color) == 0 {
            Seat::First
        } else {
            Seat::Second
        }
    }
}

impl<T> Index<Seat> for [T; 2] {
    type Output = T;

    fn index(&self, seat: Seat) -> &T {
        &self[seat.index()]
    }
}

impl<T> IndexMut<Seat> for [T; 2] {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self[seat.index()]
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// `by` won.
    Won {
        /// The winner's colour at the end of the game.
        by: Color,
        /// How.
        how: How,
    },
    /// Neither won: a draw by the rules.
    Drawn(Draw),
    /// Nobody won and nothing is rated.
    Aborted(Aborted),
}

/// How a game was won: by one of the rules' winning endings, or off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A chain joined the winner's two edges (Quentin, Konobi, Brique).
    Connection,
    /// Five in a row, exactly (Quint).
    Quint,
    /// The opponent has no piece left (Quint).
    NoPieceLeft,
    /// The opponent, to move, has no legal action (Quint).
    NoLegalAction,
    /// The opponent ran out of time.
    Time,
    /// The opponent resigned (or withdrew from the tournament at once).
    Resignation,
    /// The opponent was banned by an operator during the game.
    Forfeit,
}

/// How the rules drew a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// The position came for the third time (Quint).
    Repetition,
}

/// Why a game was aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aborted {
    /// A player aborted it before both had moved (or, outside a tournament, resigned or left
    /// before the other had moved): the seat that did, where known (rows written before
    /// schema version 9 do not say).
    Asked(Option<Seat>),
    /// A player made no first move (ran out of time, or resigned, before it).
    NoFirstMove,
    /// A rated game ended by resignation, time or leaving with too few actions to rate.
    TooShort,
    /// An operator aborted it.
    ByOperator,
}

/// The stored words of an ending this version does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEnd {
    /// The `result` word.
    pub result: String,
    /// The `reason` word.
    pub reason: String,
}

impl fmt::Display for UnknownEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the ending ({}, {}) is not one this version knows (a damaged row, or one written by \
             a newer version)",
            self.result, self.reason
        )
    }
}

impl std::error::Error for UnknownEnd {}

/// The `result` word of an aborted game.
const ABORTED: &str = "aborted";
/// The `result` word of a draw.
const DRAW: &str = "draw";

/// Every way of winning, for reading its word back.
const HOWS: [How; 7] = [
    How::Connection,
    How::Quint,
    How::NoPieceLeft,
    How::NoLegalAction,
    How::Time,
    How::Resignation,
    How::Forfeit,
];

/// Every draw, for reading its word back.
const DRAWS: [Draw; 1] = [Draw::Repetition];

/// Every abort, for reading its word back.
const ABORTS: [Aborted; 6] = [
    Aborted::Asked(None),
    Aborted::Asked(Some(Seat::First)),
    Aborted::Asked(Some(Seat::Second)),
    Aborted::NoFirstMove,
    Aborted::TooShort,
    Aborted::ByOperator,
];

/// The word of a rules ending, as the bot protocol and the records say it.
#[must_use]
pub fn ending_word(ending: Ending) -> &'static str {
    match ending {
        Ending::Connection => "connection",
        Ending::Quint => "quint",
        Ending::NoPieceLeft => "no-piece-left",
        Ending::NoLegalAction => "no-legal-action",
        Ending::ThirdRepetition => "repetition",
    }
}

impl How {
    /// The stored word (a rules ending's as [`ending_word`] says it).
    fn word(self) -> &'static str {
        match self {
            How::Connection => ending_word(Ending::Connection),
            How::Quint => ending_word(Ending::Quint),
            How::NoPieceLeft => ending_word(Ending::NoPieceLeft),
            How::NoLegalAction => ending_word(Ending::NoLegalAction),
            How::Time => "time",
            How::Resignation => "resignation",
            How::Forfeit => "forfeit",
        }
    }

    /// The way of winning whose stored word is `word`.
    fn from_word(word: &str) -> Option<How> {
        HOWS.into_iter().find(|h| h.word() == word)
    }
}

impl Draw {
    /// The stored word.
    fn word(self) -> &'static str {
        match self {
            Draw::Repetition => ending_word(Ending::ThirdRepetition),
        }
    }
}

/// A winner and an ending of the rules that no result holds: a win by repetition, a draw by
/// a connection. The rules never give one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImpossibleEnd {
    /// The winner the rules named, if any.
    pub winner: Option<Color>,
    /// The ending.
    pub ending: Ending,
}

impl fmt::Display for ImpossibleEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(by) => write!(f, "a win of {} by {}", by.name(), ending_word(self.ending)),
            None => write!(f, "a draw by {}", ending_word(self.ending)),
        }
    }
}

impl std::error::Error for ImpossibleEnd {}

impl Aborted {
    /// The stored word.
    fn word(self) -> &'static str {
        match self {
            Aborted::Asked(None) => "by-player",
            Aborted::Asked(Some(Seat::First)) => "by-first",
            Aborted::Asked(Some(Seat::Second)) => "by-second",
            Aborted::NoFirstMove => "no-first-move",
            Aborted::TooShort => "too-short",
            Aborted::ByOperator => "by-operator",
        }
    }
}

impl GameEnd {
    /// The end the rules gave the game, `ending` with `winner` (`None`: a draw).
    ///
    /// # Errors
    /// A winner with a drawing ending, or none with a winning one.
    pub fn by_rules(winner: Option<Color>, ending: Ending) -> Result<GameEnd, ImpossibleEnd> {
        let how = match ending {
            Ending::Connection => Ok(How::Connection),
            Ending::Quint => Ok(How::Quint),
            Ending::NoPieceLeft => Ok(How::NoPieceLeft),
            Ending::NoLegalAction => Ok(How::NoLegalAction),
            Ending::ThirdRepetition => Err(Draw::Repetition),
        };
        match (winner, how) {
            (Some(by), Ok(how)) => Ok(GameEnd::Won { by, how }),
            (None, Err(draw)) => Ok(GameEnd::Drawn(draw)),
            _ => Err(ImpossibleEnd { winner, ending }),
        }
    }

    /// The stored words: `("black", "connection")`, `("white", "time")`, `("draw",
    /// "repetition")`, `("aborted", "no-first-move")`.
    #[must_use]
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            GameEnd::Won { by, how } => (by.name(), how.word()),
            GameEnd::Drawn(draw) => (DRAW, draw.word()),
            GameEnd::Aborted(why) => (ABORTED, why.word()),
        }
    }

    /// The ending stored as `result` and `reason`.
    ///
    /// # Errors
    /// Words this version does not know.
    pub fn from_words(result: &str, reason: &str) -> Result<GameEnd, UnknownEnd> {
        let read = match result {
            ABORTED => ABORTS
                .into_iter()
                .find(|a| a.word() == reason)
                .map(GameEnd::Aborted),
            DRAW => DRAWS
                .into_iter()
                .find(|d| d.word() == reason)
                .map(GameEnd::Drawn),
            _ => [Color::Black, Color::White]
                .into_iter()
                .find(|c| c.name() == result)
                .zip(How::from_word(reason))
                .map(|(by, how)| GameEnd::Won { by, how }),
        };
        read.ok_or_else(|| UnknownEnd {
            result: result.to_string(),
            reason: reason.to_string(),
        })
    }

    /// The winner's colour, if one won.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            GameEnd::Won { by, .. } => Some(by),
            GameEnd::Drawn(_) | GameEnd::Aborted(_) => None,
        }
    }

    /// Whether the game was aborted (nothing rated).
    #[must_use]
    pub fn aborted(self) -> bool {
        matches!(self, GameEnd::Aborted(_))
    }

    /// The result in the bot protocol's words: `B+ connection`, `W+ time`, `0 repetition`,
    /// `aborted no-first-move`.
    #[must_use]
    pub fn bot_words(self) -> String {
        let (_, reason) = match self {
            // Programs read one word for a player's abort, whoever asked it.
            GameEnd::Aborted(Aborted::Asked(_)) => (ABORTED, "by-player"),
            _ => self.words(),
        };
        let score = match self {
            GameEnd::Won {
                by: Color::Black, ..
            } => "B+",
            GameEnd::Won {
                by: Color::White, ..
            } => "W+",
            GameEnd::Drawn(_) => "0",
            GameEnd::Aborted(_) => ABORTED,
        };
        format!("{score} {reason}")
    }
}

#[cfg(test)]
mod tests;
