//! Moderation: what an operator orders (ban, rename, abort, close, reset, mark, and the lists
//! that help decide), the same words in the bot protocol and in `quentin serve admin`
//! ([`Order::parse`]); the sanctions in force ([`Sanctions`]), which every server process keeps
//! a copy of; and the [`ledger`] that writes them, with the audit log, in the store.
//!
//! A running server reads the ledger again when one of its operators orders something, and
//! every half second besides (`crate::context::watch`): an order given on another process, or by the host's
//! `quentin serve admin` while the server runs, takes effect within a second.

pub mod ledger;
mod refusal;

use crate::ids::{ChallengeId, GameId, Moment, PlayerId, TournamentId};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;

pub use crate::store::ledger::AuditRow;
pub use ledger::Ledger;
pub use refusal::{BAN_USAGE, NOT_AN_OPERATOR, OrderRefusal, Usage};

/// What an operator orders: the words after `? not an operator` is answered to a player who
/// is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// `ban NAME [until YYYY-MM-DD] REASON...`.
    Ban {
        /// The player.
        name: String,
        /// The day the ban ends (ms since the epoch, midnight UTC); `None`: for good.
        until: Option<Moment>,
        /// Why, shown to the player at each login.
        reason: String,
    },
    /// `unban NAME`.
    Unban(String),
    /// `rename NAME`: a new name to pick at the next login.
    Rename(String),
    /// `abort GAME`: ended, unrated.
    Abort(GameId),
    /// `close CHALLENGE`.
    Close(ChallengeId),
    /// `reset NAME`: every rating back to the start.
    Reset(String),
    /// `mark NAME`: their games from now on are played unrated.
    Mark(String),
    /// `unmark NAME`.
    Unmark(String),
    /// `players [NAME]`.
    Players(Option<String>),
    /// `log`.
    Log,
    /// `tournament cancel ID`: the tournament cancelled, its games under way aborted.
    CancelTournament(TournamentId),
    /// `free NAME`: a name an operator took from a player (`rename`) given back, for anyone to
    /// take again.
    Free(String),
    /// `op NAME` (the host's `quentin serve admin` only).
    Op(String),
    /// `deop NAME` (the host's `quentin serve admin` only).
    Deop(String),
}

/// The first words of the orders, as the bot protocol tells them from a player's commands
/// (`abort` apart: a player's own abort, unless an operator's of a game not theirs).
pub const ORDER_WORDS: [&str; 10] = [
    "ban", "unban", "rename", "free", "close", "reset", "mark", "unmark", "players", "log",
];

/// An operator's text (a ban's reason) as it is stored and shown: a tab a space, every other
/// control character (a terminal's escapes, a NUL) left out, the ends trimmed. The same on
/// both stores, whatever the text came through (a bot's line, `quentin serve admin`'s words).
#[must_use]
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .to_string()
}

/// How an operator's `abort` is written (the bot protocol's answer to one with more words).
pub const ABORT_USAGE: &str = "abort GAME";

impl Order {
    /// The order of `words`, or how to write it.
    ///
    /// # Errors
    /// Unknown words, a missing name or number, a bad date.
    pub fn parse(words: &[&str]) -> Result<Order, Usage> {
        let name = |usage: &'static str| match words {
            [_, name] => Ok((*name).to_string()),
            _ => Err(Usage::Write(usage)),
        };
        let number = |usage: &'static str| match words {
            [_, n] => n.parse::<i64>().map_err(|_| Usage::BadNumber(usage)),
            _ => Err(Usage::Write(usage)),
        };
        Ok(match words.first().copied().unwrap_or_default() {
            "ban" => {
                let Some(name) = words.get(1) else {
                    return Err(Usage::Write(BAN_USAGE));
                };
                let (until, reason) = match words.get(2..) {
                    Some(["until", date, reason @ ..]) => (Some(day(date)?), reason),
                    Some(reason) => (None, reason),
                    None => (None, &[][..]),
                };
                let reason = printable(&reason.join(" "));
                if reason.is_empty() {
                    return Err(Usage::BanNeedsReason);
                }
                Order::Ban {
                    name: (*name).to_string(),
                    until,
                    reason,
                }
            }
            "unban" => Order::Unban(name("unban NAME")?),
            "rename" => Order::Rename(name("rename NAME")?),
            "free" => Order::Free(name("free NAME")?),
            "abort" => Order::Abort(GameId(number(ABORT_USAGE)?)),
            "close" => Order::Close(ChallengeId(number("close CHALLENGE")?)),
            "reset" => Order::Reset(name("reset NAME")?),
            "mark" => Order::Mark(name("mark NAME")?),
            "unmark" => Order::Unmark(name("unmark NAME")?),
            "players" => match words {
                [_] => Order::Players(None),
                [_, name] => Order::Players(Some((*name).to_string())),
                _ => return Err(Usage::Write("players [NAME]")),
            },
            "log" if words.len() == 1 => Order::Log,
            "log" => return Err(Usage::LogTakesNothing),
            "tournament" => match words {
                [_, "cancel", id] => Order::CancelTournament(
                    super::tournament::TournamentId::parse(id)
                        .ok_or_else(|| Usage::BadTournament((*id).to_string()))?,
                ),
                _ => return Err(Usage::Write("tournament cancel ID")),
            },
            "op" => Order::Op(name("op NAME")?),
            "deop" => Order::Deop(name("deop NAME")?),
            other => return Err(Usage::Unknown(other.to_string())),
        })
    }

    /// The order's word, as the audit log says what was done.
    #[must_use]
    pub fn word(&self) -> &'static str {
        match self {
            Order::Ban { .. } => "ban",
            Order::Unban(_) => "unban",
            Order::Rename(_) => "rename",
            Order::Free(_) => "free",
            Order::Abort(_) => "abort",
            Order::Close(_) => "close",
            Order::Reset(_) => "reset",
            Order::Mark(_) => "mark",
            Order::Unmark(_) => "unmark",
            Order::Players(_) => "players",
            Order::Log => "log",
            Order::CancelTournament(_) => "cancel",
            Order::Op(_) => "op",
            Order::Deop(_) => "deop",
        }
    }
}

impl Order {
    /// What the order did, said when its answer is empty (`quentin serve admin` prints it).
    #[must_use]
    pub fn done(&self) -> String {
        match self {
            Order::Ban {
                name,
                until: Some(until),
                reason,
            } => format!("banned {name} until {}: {reason}", date(*until)),
            Order::Ban { name, reason, .. } => format!("banned {name}: {reason}"),
            Order::Unban(name) => format!("unbanned {name}"),
            Order::Rename(name) => format!("renamed {name}"),
            Order::Free(name) => format!("freed the name {name}: anyone may take it"),
            Order::Abort(id) => format!("aborted game {id}"),
            Order::Close(id) => format!("closed challenge {id}"),
            Order::Reset(name) => format!("reset the ratings of {name}"),
            Order::Mark(name) => format!("marked {name}: their games are played unrated"),
            Order::Unmark(name) => format!("unmarked {name}"),
            Order::Players(_) => "no players".to_string(),
            Order::Log => "the audit log is empty".to_string(),
            Order::CancelTournament(id) => format!("cancelled tournament {id}"),
            Order::Op(name) => format!("{name} is an operator"),
            Order::Deop(name) => format!("{name} is no longer an operator"),
        }
    }
}

/// The milliseconds since the epoch of `YYYY-MM-DD`'s midnight, UTC.
///
/// # Errors
/// Not such a date.
pub fn day(text: &str) -> Result<Moment, Usage> {
    let bad = || Usage::BadDate(text.to_string());
    let parts: Vec<&str> = text.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return Err(bad());
    };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return Err(bad());
    }
    let (y, m, d) = (
        y.parse::<i32>().map_err(|_| bad())?,
        m.parse::<u8>().map_err(|_| bad())?,
        d.parse::<u8>().map_err(|_| bad())?,
    );
    let month = time::Month::try_from(m).map_err(|_| bad())?;
    let date = time::Date::from_calendar_date(y, month, d).map_err(|_| bad())?;
    Ok(Moment(date.midnight().assume_utc().unix_timestamp() * 1000))
}

/// `YYYY-MM-DD` of `at`, UTC.
#[must_use]
pub fn date(at: Moment) -> String {
    match time::OffsetDateTime::from_unix_timestamp(at.0.div_euclid(1000)) {
        Ok(t) => format!("{:04}-{:02}-{:02}", t.year(), u8::from(t.month()), t.day()),
        Err(_) => "?".to_string(),
    }
}

/// `YYYY-MM-DD HH:MM:SS` of `at`, UTC.
#[must_use]
pub fn moment(at: Moment) -> String {
    match time::OffsetDateTime::from_unix_timestamp(at.0.div_euclid(1000)) {
        Ok(t) => format!(
            "{} {:02}:{:02}:{:02}",
            date(at),
            t.hour(),
            t.minute(),
            t.second()
        ),
        Err(_) => "?".to_string(),
    }
}

/// A ban in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ban {
    /// Why.
    pub reason: String,
    /// When it ends (ms since the epoch), if it does.
    pub until: Option<Moment>,
}

impl fmt::Display for Ban {
    /// What a banned player is told at login, and when their sessions are closed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "you are banned from this server: {}", self.reason)?;
        if let Some(until) = self.until {
            write!(f, " (until {})", date(until))?;
        }
        Ok(())
    }
}

/// The sanctions in force, as the ledger last said: a copy in each process.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sanctions {
    /// The bans, by player (ended ones too, until unbanned: [`Sanctions::ban_of`] checks).
    pub bans: HashMap<PlayerId, Ban>,
    /// The marked players: their games from now on are played unrated.
    pub marked: HashSet<PlayerId>,
    /// The players renamed by an operator, who must pick a new name.
    pub renamed: HashSet<PlayerId>,
    /// The players the store names operators (`quentin serve admin op NAME`).
    pub operators: HashSet<PlayerId>,
    /// The names operators took from players (`rename`), in lower case: held from everyone
    /// until an operator frees them (`free NAME`).
    pub held: HashSet<String>,
    /// The games an operator ordered aborted (those still going on are ended by their owner).
    pub aborts: BTreeSet<GameId>,
    /// The tournaments an operator ordered cancelled (cancelled by their director, their
    /// games under way aborted by their owners).
    pub cancels: BTreeSet<crate::tournament::TournamentId>,
    /// The number of the last row of the audit log.
    pub last: i64,
}

impl Sanctions {
    /// The ban of `player` in force at `now`, if any.
    #[must_use]
    pub fn ban_of(&self, player: PlayerId, now: Moment) -> Option<&Ban> {
        self.bans
            .get(&player)
            .filter(|b| b.until.is_none_or(|until| now < until))
    }
}

// A row of the audit log is the store's type; how `log` shows it is moderation's.
impl AuditRow {
    /// The row as `log` shows it: `YYYY-MM-DD HH:MM:SS WHO WHAT WHOM[: WHY]`.
    #[must_use]
    pub fn line(&self) -> String {
        let mut line = format!(
            "{} {} {} {}",
            moment(self.at),
            self.who,
            self.what,
            self.whom
        );
        if !self.why.is_empty() {
            line.push_str(": ");
            line.push_str(&self.why);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Millis;

    #[test]
    fn the_orders_are_read_from_their_words() {
        assert_eq!(
            Order::parse(&["ban", "alice", "until", "2030-01-02", "rude", "words"]),
            Ok(Order::Ban {
                name: "alice".into(),
                until: Some(day("2030-01-02").unwrap()),
                reason: "rude words".into()
            })
        );
        assert_eq!(
            Order::parse(&["ban", "alice", "spam"]),
            Ok(Order::Ban {
                name: "alice".into(),
                until: None,
                reason: "spam".into()
            })
        );
        assert!(
            Order::parse(&["ban", "alice"])
                .unwrap_err()
                .to_string()
                .contains("reason")
        );
        assert!(
            Order::parse(&["ban", "alice", "until", "2030-13-01", "x"])
                .unwrap_err()
                .to_string()
                .contains("bad date")
        );
        assert_eq!(Order::parse(&["abort", "12"]), Ok(Order::Abort(GameId(12))));
        assert_eq!(
            Order::parse(&["close", "3"]),
            Ok(Order::Close(ChallengeId(3)))
        );
        assert_eq!(Order::parse(&["players"]), Ok(Order::Players(None)));
        assert_eq!(Order::parse(&["log"]), Ok(Order::Log));
        assert_eq!(
            Order::parse(&["unmark", "bob"]),
            Ok(Order::Unmark("bob".into()))
        );
        assert!(Order::parse(&["abort", "x"]).is_err());
        assert!(Order::parse(&["reset"]).is_err());
        assert!(Order::parse(&["frobnicate"]).is_err());
        assert_eq!(
            Order::parse(&["tournament", "cancel", "t3"]),
            Ok(Order::CancelTournament(TournamentId(3)))
        );
        assert!(
            Order::parse(&["tournament", "cancel", "3"])
                .unwrap_err()
                .to_string()
                .contains("bad tournament number")
        );
    }

    #[test]
    fn a_ban_says_why_and_until_when_and_ends_on_its_day() {
        let until = day("2030-01-02").unwrap();
        assert_eq!(date(until), "2030-01-02");
        assert_eq!(moment(until + Millis(61_000)), "2030-01-02 00:01:01");
        let ban = Ban {
            reason: "rude words".into(),
            until: Some(until),
        };
        assert_eq!(
            ban.to_string(),
            "you are banned from this server: rude words (until 2030-01-02)"
        );
        let mut sanctions = Sanctions::default();
        sanctions.bans.insert(PlayerId(7), ban);
        assert!(sanctions.ban_of(PlayerId(7), until - Millis(1)).is_some());
        assert!(sanctions.ban_of(PlayerId(7), until).is_none());
        assert!(sanctions.ban_of(PlayerId(8), Moment(0)).is_none());
    }
}
