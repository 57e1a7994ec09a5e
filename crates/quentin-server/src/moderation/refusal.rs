//! Why an operator's order is refused, typed as the players' refusals are
//! (`crate::refusal::Refusal`): the console, the bot protocol and `quentin serve admin` can tell
//! one refusal from another, and each says it in the same words ([`OrderRefusal`]'s
//! `Display`, the words after `?`).

use std::fmt;

use crate::ids::Moment;
use crate::refusal::Refusal;
use crate::spec::shown;
use crate::store::ledger::Sanction;
use crate::tournament::{Status, TournamentId};

/// Why an order is refused: its words are no order, or the ledger refused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderRefusal {
    /// The session's player is not an operator.
    NotAnOperator,
    /// The words are not an order: how to write one.
    Usage(Usage),
    /// No player has that name.
    NoPlayer(String),
    /// The player (their name) does not hold the sanction the order lifts.
    NotHeld(String, Sanction),
    /// A ban until a day that has begun.
    BanDayBegun(Moment),
    /// A ban without a reason (whatever way the order came).
    BanWithoutReason,
    /// The player (their name) has a new name to pick already.
    RenamedAlready(String),
    /// No such game.
    NoGame,
    /// The game is over.
    GameOver,
    /// No such tournament.
    NoTournament(TournamentId),
    /// The tournament is not under way: its status.
    TournamentIs(TournamentId, Status),
    /// The name is not held by an operator.
    NameNotHeld(String),
    /// No such open challenge.
    NoChallenge,
    /// A new name another player has, or an operator holds.
    NameTaken,
    /// A new name an operator took from this very player.
    NameTakenFromYou,
    /// A new name that is not a name.
    BadName,
    /// The store could not save the order.
    NotSaved,
}

/// How an order's words go wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Usage {
    /// Words missing or too many: the order as it is written (`unban NAME`).
    Write(&'static str),
    /// Not a number where the order (as it is written) takes one.
    BadNumber(&'static str),
    /// A ban with no reason.
    BanNeedsReason,
    /// Not a date (the words given).
    BadDate(String),
    /// `log` with words after it.
    LogTakesNothing,
    /// Not a tournament's number (the word given).
    BadTournament(String),
    /// No such order (the word given).
    Unknown(String),
}

/// What a player who is not an operator is told, for any order.
pub const NOT_AN_OPERATOR: &str = "not an operator";

/// How `ban` is written.
pub const BAN_USAGE: &str = "ban NAME [until YYYY-MM-DD] REASON...";

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Usage::Write(usage) => f.write_str(usage),
            Usage::BadNumber(usage) => write!(f, "bad number: {usage}"),
            Usage::BanNeedsReason => write!(f, "a ban needs a reason: {BAN_USAGE}"),
            Usage::BadDate(text) => write!(f, "bad date {}: write YYYY-MM-DD", shown(text)),
            Usage::LogTakesNothing => f.write_str("log takes no words after it"),
            Usage::BadTournament(text) => {
                write!(f, "bad tournament number {}: say t1, t2...", shown(text))
            }
            Usage::Unknown(word) => write!(
                f,
                "unknown order {}: ban, unban, rename, free, abort, close, reset, mark, unmark, \
                 players, log, tournament cancel, op, deop",
                shown(word)
            ),
        }
    }
}

impl fmt::Display for OrderRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderRefusal::NotAnOperator => f.write_str(NOT_AN_OPERATOR),
            OrderRefusal::Usage(usage) => usage.fmt(f),
            OrderRefusal::NoPlayer(name) => write!(f, "no player named {}", shown(name)),
            OrderRefusal::NotHeld(name, sanction) => {
                let none = match sanction {
                    Sanction::Ban => "is not banned",
                    Sanction::Mark => "is not marked",
                    Sanction::Operator => "is not an operator",
                };
                write!(f, "{name} {none}")
            }
            OrderRefusal::BanDayBegun(until) => write!(
                f,
                "a ban until {} would ban nobody: that day has begun (UTC); give a day to come",
                super::date(*until)
            ),
            OrderRefusal::BanWithoutReason => f.write_str("a ban needs a reason"),
            OrderRefusal::RenamedAlready(name) => {
                write!(f, "{name} has a new name to pick already")
            }
            OrderRefusal::NoGame => f.write_str("no such game"),
            OrderRefusal::GameOver => f.write_str("the game is over"),
            OrderRefusal::NoTournament(id) => write!(f, "no tournament {id}"),
            OrderRefusal::TournamentIs(id, status) => write!(f, "tournament {id} is {status}"),
            OrderRefusal::NameNotHeld(name) => write!(
                f,
                "the name {} is not held: only a name an operator took with rename is",
                shown(name)
            ),
            OrderRefusal::NoChallenge => f.write_str("no such challenge"),
            OrderRefusal::NameTaken => f.write_str("name taken"),
            OrderRefusal::NameTakenFromYou => f.write_str(
                "an operator took that name from you: pick another (only an operator can free it)",
            ),
            OrderRefusal::BadName => Refusal::BadName.fmt(f),
            OrderRefusal::NotSaved => Refusal::NotSaved.fmt(f),
        }
    }
}

impl From<Usage> for OrderRefusal {
    fn from(usage: Usage) -> OrderRefusal {
        OrderRefusal::Usage(usage)
    }
}

impl std::error::Error for OrderRefusal {}

#[cfg(test)]
mod tests {
    use super::{OrderRefusal, Usage};
    use crate::ids::Moment;
    use crate::store::ledger::Sanction;
    use crate::tournament::{Status, TournamentId};

    /// The words of every refusal, byte for byte as the orders said them when they were
    /// strings: the bot protocol's and `serve admin`'s words do not move.
    #[test]
    fn each_refusal_says_the_words_it_always_said() {
        let said = [
            (OrderRefusal::NotAnOperator, "not an operator"),
            (Usage::Write("unban NAME").into(), "unban NAME"),
            (
                Usage::BadNumber("abort GAME").into(),
                "bad number: abort GAME",
            ),
            (
                Usage::BanNeedsReason.into(),
                "a ban needs a reason: ban NAME [until YYYY-MM-DD] REASON...",
            ),
            (
                Usage::BadDate("2026-13-01".into()).into(),
                "bad date 2026-13-01: write YYYY-MM-DD",
            ),
            (Usage::LogTakesNothing.into(), "log takes no words after it"),
            (
                Usage::BadTournament("x".into()).into(),
                "bad tournament number x: say t1, t2...",
            ),
            (
                Usage::Unknown("kick".into()).into(),
                "unknown order kick: ban, unban, rename, free, abort, close, reset, mark, \
                 unmark, players, log, tournament cancel, op, deop",
            ),
            (OrderRefusal::NoPlayer("eve".into()), "no player named eve"),
            (
                OrderRefusal::NotHeld("ann".into(), Sanction::Operator),
                "ann is not an operator",
            ),
            (
                OrderRefusal::BanDayBegun(Moment(0)),
                "a ban until 1970-01-01 would ban nobody: that day has begun (UTC); give a day \
                 to come",
            ),
            (OrderRefusal::BanWithoutReason, "a ban needs a reason"),
            (
                OrderRefusal::RenamedAlready("renamed.4".into()),
                "renamed.4 has a new name to pick already",
            ),
            (OrderRefusal::NoGame, "no such game"),
            (OrderRefusal::GameOver, "the game is over"),
            (
                OrderRefusal::NoTournament(TournamentId(3)),
                "no tournament t3",
            ),
            (
                OrderRefusal::TournamentIs(TournamentId(3), Status::Over),
                "tournament t3 is over",
            ),
            (
                OrderRefusal::NameNotHeld("bob".into()),
                "the name bob is not held: only a name an operator took with rename is",
            ),
            (OrderRefusal::NoChallenge, "no such challenge"),
            (OrderRefusal::NameTaken, "name taken"),
        ];
        for (refusal, words) in said {
            assert_eq!(refusal.to_string(), words, "{refusal:?}");
        }
    }
}
