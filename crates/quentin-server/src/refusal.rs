//! Why the hub refuses a request, as a type; its words (after `? ` in the bot protocol, on the
//! screen in a terminal) are written at the edge, by [`Display`](std::fmt::Display).

use crate::ids::{ChallengeId, GameId, Millis};
use std::fmt;

use quentin_rules::{Illegal, SetupError};

use crate::spec::shown;

/// A request refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A name not of 2 to 20 letters, digits, `-` and `_`.
    BadName,
    /// A name somebody has (in any case).
    NameTaken,
    /// The key has a name already.
    KeyHasName(String),
    /// The key has its most sessions open.
    TooManySessions(usize),
    /// The player has their most challenges open.
    TooManyChallenges(usize),
    /// Too many challenges and accepts this minute.
    TooFast(usize),
    /// Too many live games under way.
    TooManyLiveGames(usize),
    /// Held from rated games this many milliseconds more, for games left without a move.
    Held(Millis),
    /// A challenge to oneself.
    ChallengeYourself,
    /// A challenge to a name nobody has.
    NoSuchPlayer(String),
    /// No open challenge of that number.
    NoSuchChallenge(ChallengeId),
    /// Somebody else's challenge, withdrawn.
    NotYourChallenge,
    /// One's own challenge, accepted.
    OwnChallenge,
    /// A challenge to another player, accepted.
    ForSomebodyElse,
    /// A setup the rules cannot start.
    BadSetup(SetupError),
    /// No game of that number.
    NoSuchGame(GameId),
    /// A game the store holds damaged: out of play.
    Damaged(GameId),
    /// A game of others.
    NotYourGame,
    /// A game over.
    GameOver,
    /// The game ended now: the player to move had no time left.
    TimeRanOut,
    /// The other player's turn.
    NotYourTurn,
    /// An action the rules refuse.
    Illegal(Illegal),
    /// A takeback in a rated game.
    RatedNoTakeback,
    /// A rematch of a tournament's game: the tournament pairs its games.
    TournamentNoRematch,
    /// A takeback asked by one who has made no action.
    NothingToTakeBack,
    /// An abort after both players have made a first move.
    TooLateToAbort,
    /// A rematch of a game not over.
    NotOver,
    /// The store could not save it (the host's log says why).
    NotSaved,
    /// The game's server process is gone and another has not taken it over yet.
    Moving,
    /// The game's server process holds the game (its lease is renewed) but has not answered
    /// in time: a database slow to save. The command may yet be done.
    Slow,
    /// The store as a whole cannot be written or reached (a failing disk, a database away):
    /// nothing is saved, and no clock runs, until it can.
    Unreachable,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::TooFast(most) => write!(
                f,
                "too many challenges and accepts: at most {most} a minute"
            ),
            Refusal::TooManyLiveGames(most) => write!(
                f,
                "too many live games under way: at most {most} at once (correspondence games apart; \
                 each live tournament you are in counts as one)"
            ),
            Refusal::Held(ms) => write!(
                f,
                "held from rated games for {} more minutes: games left without a move; casual games are open",
                (ms.0 + 59_999) / 60_000
            ),
            Refusal::BadName => f.write_str("bad name: 2 to 20 letters, digits, - and _"),
            Refusal::NameTaken => f.write_str("name taken"),
            Refusal::KeyHasName(name) => write!(f, "this key is already {name}"),
            Refusal::TooManySessions(most) => {
                write!(f, "too many sessions: at most {most} for one key")
            }
            Refusal::TooManyChallenges(most) => {
                write!(f, "too many open challenges: at most {most}")
            }
            Refusal::ChallengeYourself => f.write_str("you cannot challenge yourself"),
            Refusal::NoSuchPlayer(name) => write!(f, "no player named {}", shown(name)),
            Refusal::NoSuchChallenge(_) => f.write_str("no such challenge"),
            Refusal::NotYourChallenge => f.write_str("not your challenge"),
            Refusal::OwnChallenge => f.write_str("that is your own challenge"),
            Refusal::ForSomebodyElse => f.write_str("that challenge is for somebody else"),
            Refusal::BadSetup(why) => write!(f, "that game cannot start: {why}"),
            Refusal::NoSuchGame(_) => f.write_str("no such game"),
            Refusal::Damaged(id) => write!(
                f,
                "game {id} is damaged in the server's store and out of play: the host can repair it"
            ),
            Refusal::NotYourGame => f.write_str("not your game"),
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::TimeRanOut => f.write_str("the game is over: time ran out"),
            Refusal::NotYourTurn => f.write_str("not your turn"),
            Refusal::Illegal(why) => write!(f, "illegal move: {why}"),
            Refusal::RatedNoTakeback => f.write_str("a rated game has no takebacks"),
            Refusal::TournamentNoRematch => {
                f.write_str("a tournament game has no rematch: the tournament pairs its games")
            }
            Refusal::NothingToTakeBack => f.write_str("nothing to take back"),
            Refusal::TooLateToAbort => {
                f.write_str("both players have moved: the game can no longer be aborted")
            }
            Refusal::NotOver => f.write_str("the game is not over"),
            Refusal::NotSaved => f.write_str("the server cannot save now: try again later"),
            Refusal::Unreachable => {
                f.write_str("the server's store cannot be reached now: try again later")
            }
            Refusal::Moving => f.write_str(
                "the game is moving to another server process: try again in a few seconds",
            ),
            Refusal::Slow => f.write_str(
                "the game's server process has not answered in time (the server is slow): \
                 your command may yet be done, as wait and games will tell",
            ),
        }
    }
}

impl std::error::Error for Refusal {}
