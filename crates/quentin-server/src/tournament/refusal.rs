//! Why the hub refuses a tournament request, as a type; its words (after `? ` in the bot
//! protocol, on the lobby's screen in a terminal) are written at the edge, by
//! [`Display`](std::fmt::Display).

use std::fmt;

use super::{Status, TournamentId};
use crate::refusal::Refusal;

/// A tournament request refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentRefusal {
    /// No tournament of that number.
    NoSuch(TournamentId),
    /// The creator has this one open or running already: one at a time.
    OneAtATime(TournamentId),
    /// Joined too late: the tournament's status (`running`, `over`...).
    TooLateToJoin(TournamentId, Status),
    /// Joined already.
    AlreadyIn(TournamentId),
    /// Full, at this many players.
    Full(TournamentId, usize),
    /// Not an entrant.
    NotIn(TournamentId),
    /// Withdrawn already.
    AlreadyWithdrawn(TournamentId),
    /// Not open (to start) or not under way (to withdraw from): its status.
    Status(TournamentId, Status),
    /// The player holds every place of live play (live games and live tournaments, at most
    /// this many at once).
    TooManyLive(TournamentId, usize),
    /// Paused or resumed, and not an arena under way.
    NotARunningArena(TournamentId),
    /// Paused or resumed by one not playing in it.
    NotPlaying(TournamentId),
    /// Started by one not its creator.
    NotYours(TournamentId),
    /// Cancelled by one not its creator (and no operator).
    NotYoursToCancel(TournamentId),
    /// Cancelled by its creator once under way: an operator's now.
    RunningCancel(TournamentId),
    /// Started with too few players: the least it needs, and how many joined.
    TooFew(TournamentId, usize, usize),
    /// The store refused or failed.
    Store(Refusal),
}

impl fmt::Display for TournamentRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TournamentRefusal::NoSuch(id) => write!(f, "no tournament {id}"),
            TournamentRefusal::OneAtATime(id) => {
                write!(f, "you have a tournament not over yet, {id}: one at a time")
            }
            TournamentRefusal::TooLateToJoin(id, status) => {
                write!(f, "tournament {id} is {status}: too late to join")
            }
            TournamentRefusal::AlreadyIn(id) => write!(f, "you are in tournament {id} already"),
            TournamentRefusal::Full(id, most) => {
                write!(f, "tournament {id} is full ({most} players)")
            }
            TournamentRefusal::NotIn(id) => write!(f, "you are not in tournament {id}"),
            TournamentRefusal::AlreadyWithdrawn(id) => {
                write!(f, "you have withdrawn from tournament {id}")
            }
            TournamentRefusal::Status(id, status) => write!(f, "tournament {id} is {status}"),
            TournamentRefusal::TooManyLive(id, most) => write!(
                f,
                "cannot join {id}: you have {most} live games and tournaments under way, the \
                 most at once (correspondence apart)"
            ),
            TournamentRefusal::NotARunningArena(id) => {
                write!(f, "tournament {id} is not a running arena")
            }
            TournamentRefusal::NotPlaying(id) => {
                write!(f, "you are not playing in tournament {id}")
            }
            TournamentRefusal::NotYours(id) => write!(f, "tournament {id} is not yours to start"),
            TournamentRefusal::NotYoursToCancel(id) => {
                write!(f, "tournament {id} is not yours to cancel")
            }
            TournamentRefusal::RunningCancel(id) => write!(
                f,
                "tournament {id} is running: only an operator may cancel it now"
            ),
            TournamentRefusal::TooFew(id, min, joined) => write!(
                f,
                "tournament {id} needs {min} players to start; {joined} joined"
            ),
            TournamentRefusal::Store(refusal) => write!(f, "{refusal}"),
        }
    }
}

impl std::error::Error for TournamentRefusal {}

impl From<Refusal> for TournamentRefusal {
    fn from(refusal: Refusal) -> TournamentRefusal {
        TournamentRefusal::Store(refusal)
    }
}
