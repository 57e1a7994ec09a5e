//! A tournament's change decided once, for both stores, as the moderation ledger decides an
//! order (`crate::store::ledger`): [`need`] names the facts the change needs, each backend
//! reads them in the change's transaction ([`Facts`]; on PostgreSQL under the tournament
//! row's lock), [`decide`] gives the typed writes and the answer, and the backend carries out
//! the writes in its own SQL (SQLite in `crate::store::tournaments::apply`, PostgreSQL in
//! `crate::store::postgres::tournaments`). The rule of each change is here alone.

use anyhow::{Result, anyhow};

mod statements;

pub use statements::{counted, statements};

use super::{EntrantRow, Paired, Round, TournamentChange};
use crate::ids::{GameId, Moment, PlayerId};
use crate::store::{Applied, GameRow};
use crate::tournament::Status;

/// What a change needs read before it is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Nothing: the change is written as it is.
    Nothing,
    /// The tournament's status, its row locked until the commit, so that the joins, leaves,
    /// entrants' changes, starts and cancels of every process come one after the other.
    Status,
    /// Its status (locked), its entrants in the order they joined, and its count of pairings.
    Entrants,
}

/// What a backend read for a change, in its transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The tournament's status.
    pub status: Status,
    /// Its entrants in the order they joined ([`Need::Entrants`]; else empty).
    pub entrants: Vec<EntrantRow>,
    /// How many pairings it has ([`Need::Entrants`]; else 0).
    pub pairings: usize,
}

/// A write of a tournament's change, carried out by each backend in its own SQL.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// A new tournament, open: its number is the change's answer.
    Create {
        /// Who made it.
        by: PlayerId,
        /// Its settings' words.
        settings: String,
        /// When it was made.
        created: Moment,
        /// When it is to start.
        starts: Moment,
    },
    /// A new entrant, after the others.
    Join(PlayerId),
    /// An entrant gone before the start, as if they had never joined.
    Remove(PlayerId),
    /// An entrant withdrawn from the pairings to come.
    Withdraw(PlayerId),
    /// An entrant's state.
    Entrant(EntrantRow),
    /// The tournament's status, and when it started (none: left as it is).
    Status {
        /// The status.
        status: Status,
        /// When it started.
        started: Option<Moment>,
    },
    /// A bye.
    Bye {
        /// The round.
        round: i64,
        /// Who.
        player: PlayerId,
    },
    /// A game of a round begins (it takes a challenge's number, as every game does) and is
    /// written as a pairing; its number is part of the answer.
    Game {
        /// The round.
        round: i64,
        /// The game (its `id` is not read).
        game: GameRow,
    },
    /// Every entrant is left a message, read at their next login if they are away.
    Message {
        /// When.
        at: Moment,
        /// What.
        text: String,
    },
}

/// What the change gives once its writes are made.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// [`Applied::Done`].
    Done,
    /// [`Applied::Id`]: the new tournament's number.
    Created,
    /// [`Applied::Id`]: the number of the one game begun.
    Game,
    /// [`Applied::Ids`]: the numbers of the games begun, in order.
    Games,
    /// [`Applied::Paired`]: the entrants read, and the round written with its games' numbers.
    Paired(Vec<EntrantRow>, Option<Round>),
    /// Refused, nothing written: this.
    Refused(Applied),
}

/// A change decided: its writes, in order, and its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The writes.
    pub writes: Vec<Write>,
    /// The answer.
    pub answer: Answer,
}

impl Decision {
    fn done(writes: Vec<Write>) -> Decision {
        Decision {
            writes,
            answer: Answer::Done,
        }
    }

    fn refused(applied: Applied) -> Decision {
        Decision {
            writes: Vec::new(),
            answer: Answer::Refused(applied),
        }
    }

    /// The change's outcome, once its writes gave the new tournament's number (`created`) and
    /// the numbers of its games (`games`, in the order of the writes).
    ///
    /// # Errors
    /// When a number the answer needs was not given.
    pub fn applied(self, created: Option<i64>, games: Vec<GameId>) -> Result<Applied> {
        Ok(match self.answer {
            Answer::Done => Applied::Done,
            Answer::Created => {
                Applied::Id(created.ok_or_else(|| anyhow!("a tournament without a number"))?)
            }
            Answer::Game => Applied::Id(
                games
                    .first()
                    .ok_or_else(|| anyhow!("a pairing without its game"))?
                    .0,
            ),
            Answer::Games => Applied::Ids(games),
            Answer::Paired(entrants, mut round) => {
                if let Some(round) = &mut round {
                    for ((_, game), id) in round.games.iter_mut().zip(games) {
                        game.id = id;
                    }
                }
                Applied::Paired(Paired { entrants, round })
            }
            Answer::Refused(applied) => applied,
        })
    }
}

/// What `change` needs read before it is decided.
#[must_use]
pub fn need(change: &TournamentChange) -> Need {
    match change {
        TournamentChange::Create(_)
        | TournamentChange::Status { .. }
        | TournamentChange::Pair { .. }
        | TournamentChange::Round { .. }
        | TournamentChange::Bye { .. }
        | TournamentChange::Direct(_) => Need::Nothing,
        TournamentChange::Leave { .. }
        | TournamentChange::Entrant { .. }
        | TournamentChange::Cancel { .. } => Need::Status,
        TournamentChange::Join { .. } | TournamentChange::Paired { .. } => Need::Entrants,
    }
}

/// Decides `change` on `facts` (what [`need`] named, read in the change's transaction; none
/// when it named nothing). A director's lease ([`TournamentChange::Direct`]) writes nothing
/// here: each backend holds it in its own way.
///
/// # Errors
/// When the facts the change needs were not given.
pub fn decide(change: &TournamentChange, facts: Option<Facts>) -> Result<Decision> {
    let facts = || facts.ok_or_else(|| anyhow!("a tournament's change decided without its facts"));
    Ok(match change {
        TournamentChange::Create(t) => Decision {
            writes: vec![Write::Create {
                by: t.by,
                settings: t.settings.words(),
                created: t.created,
                starts: t.starts,
            }],
            answer: Answer::Created,
        },
        TournamentChange::Join { player, max, .. } => join(facts()?, *player, *max),
        TournamentChange::Leave { player, .. } => match facts()?.status {
            // Before the start, as if never joined; once running (another process may have
            // started it before this one heard), withdrawn from the pairings to come.
            Status::Open => Decision::done(vec![Write::Remove(*player)]),
            Status::Running => Decision::done(vec![Write::Withdraw(*player)]),
            status => Decision::refused(Applied::Status(status)),
        },
        TournamentChange::Entrant { entrant, .. } => {
            // After a round being paired, or before it and read by it.
            facts()?;
            Decision::done(vec![Write::Entrant(*entrant)])
        }
        TournamentChange::Status { status, at, .. } => Decision::done(vec![Write::Status {
            status: *status,
            started: (*status == Status::Running).then_some(*at),
        }]),
        TournamentChange::Pair { round, game, .. } => Decision {
            writes: vec![Write::Game {
                round: *round,
                game: game.clone(),
            }],
            answer: Answer::Game,
        },
        TournamentChange::Round { byes, games, .. } => Decision {
            writes: round_writes(byes, games),
            answer: Answer::Games,
        },
        TournamentChange::Bye { round, player, .. } => Decision::done(vec![Write::Bye {
            round: *round,
            player: *player,
        }]),
        TournamentChange::Cancel {
            at, text, running, ..
        } => cancel(facts()?.status, *at, text, *running),
        TournamentChange::Paired {
            start, known, plan, ..
        } => paired(facts()?, *start, *known, |entrants| (plan.0)(entrants)),
        TournamentChange::Direct(_) => Decision::done(Vec::new()),
    })
}

/// A join: to an open tournament only (a start on another process came first, or waits for
/// the join and pairs it), and within its most entrants, counted under the row's lock.
fn join(facts: Facts, player: PlayerId, max: i64) -> Decision {
    if facts.status != Status::Open {
        return Decision::refused(Applied::Status(facts.status));
    }
    if i64::try_from(facts.entrants.len()).map_or(true, |n| n >= max) {
        return Decision::refused(Applied::Taken);
    }
    Decision::done(vec![Write::Join(player)])
}

/// A cancel: of an open tournament (or, by an operator, a running one), or none, the
/// tournament left as it is: a start and a cancel exclude each other.
fn cancel(status: Status, at: Moment, text: &str, running: bool) -> Decision {
    if !(status == Status::Open || (running && status == Status::Running)) {
        return Decision::refused(Applied::Status(status));
    }
    Decision::done(vec![
        Write::Status {
            status: Status::Cancelled,
            started: None,
        },
        Write::Message {
            at,
            text: text.to_string(),
        },
    ])
}

/// A round paired from the entrants as the store holds them: the status as expected (`open`
/// to start it at `start`, `running` otherwise) and every pairing known to the hub, else
/// nothing written; then the hub's `plan` of the round from the entrants, written whole.
fn paired(
    facts: Facts,
    start: Option<Moment>,
    known: usize,
    plan: impl FnOnce(&[EntrantRow]) -> Option<Round>,
) -> Decision {
    let expected = if start.is_some() {
        Status::Open
    } else {
        Status::Running
    };
    if facts.status != expected {
        return Decision::refused(Applied::Status(facts.status));
    }
    if facts.pairings != known {
        return Decision::refused(Applied::Taken);
    }
    let Some(round) = plan(&facts.entrants) else {
        return Decision {
            writes: Vec::new(),
            answer: Answer::Paired(facts.entrants, None),
        };
    };
    let mut writes = Vec::new();
    if let Some(at) = start {
        writes.push(Write::Status {
            status: Status::Running,
            started: Some(at),
        });
    }
    writes.extend(round_writes(&round.byes, &round.games));
    Decision {
        writes,
        answer: Answer::Paired(facts.entrants, Some(round)),
    }
}

/// A round's writes: its byes, then its games.
fn round_writes(byes: &[(i64, PlayerId)], games: &[(i64, GameRow)]) -> Vec<Write> {
    let byes = byes
        .iter()
        .map(|&(round, player)| Write::Bye { round, player });
    let games = games.iter().map(|(round, game)| Write::Game {
        round: *round,
        game: game.clone(),
    });
    byes.chain(games).collect()
}

#[cfg(test)]
mod tests;
