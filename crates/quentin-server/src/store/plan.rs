//! The players', challenges' and games' changes decided once, for both stores, as the
//! moderation ledger decides an order (`crate::store::ledger`) and as a tournament's change is
//! decided (`crate::store::tournaments::plan`): [`need`] names the facts a change needs, each
//! backend reads them in the change's transaction ([`Facts`]; PostgreSQL locks what it reads),
//! [`decide`] gives the typed writes and the answer, and the backend carries out the writes
//! in its own SQL (`crate::store::sqlite`, `crate::store::postgres::commit`). The puzzles'
//! and the tournaments' changes are decided in their own modules.
//!
//! What is a dialect's and not a rule stays with the backend: PostgreSQL's leases on the games
//! (a move is written only by the game's owner) and its notifications to the other processes,
//! and the heartbeat and forgiven downtime, which several processes do not keep
//! (docs/server.md): PostgreSQL carries out [`Write::Heartbeat`] and [`Write::Forgive`] as
//! nothing.

use anyhow::{Result, anyhow};

mod statements;

pub use statements::statements;

use super::course::Solved;
use super::{Applied, ChallengeRow, Change, GameRow, RatingRow, Stale};
use crate::ids::{ChallengeId, GameId, Millis, Moment, PlayerId};
use crate::size_class::RatingKey;
use quentin_rules::Action;

/// What a change needs read before it is decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Need {
    /// Whether this challenge is still open.
    pub open: Option<ChallengeId>,
    /// When this game's turn began, as the store holds it.
    pub turn: Option<GameId>,
    /// These players' ratings (player 1's first) at this game and size class: the rows are
    /// locked until the commit, so that two games of one player ending at once on two
    /// processes both count, one after the other.
    pub ratings: Option<([PlayerId; 2], RatingKey)>,
    /// The vacation days this player took in this year (locked until the commit: two days
    /// taken at once on two processes count one after the other).
    pub vacation: Option<(PlayerId, i32)>,
}

/// What a backend read for a change, in its transaction: what its [`Need`] named.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Facts {
    /// Whether the challenge is open.
    pub open: Option<bool>,
    /// When the game's turn began.
    pub turn: Option<Moment>,
    /// The ratings, player 1's first; a player without a row has a new player's
    /// ([`RatingRow::default`]).
    pub ratings: Option<[RatingRow; 2]>,
    /// The vacation days taken (0 without a row).
    pub vacation: Option<u32>,
}

/// A write of a change, carried out by each backend in its own SQL.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// A new player, unless the name (in any case) or the key is taken: its number, or none.
    Player {
        /// The key's fingerprint.
        key: String,
        /// The name.
        name: String,
        /// When.
        at: Moment,
    },
    /// A new open challenge: its number.
    Challenge(ChallengeRow),
    /// A challenge closed.
    Close(ChallengeId),
    /// A game begins (its number is its challenge's).
    Game(GameRow),
    /// A game's action.
    Move {
        /// The game.
        game: GameId,
        /// Its number, from 0.
        index: usize,
        /// The action.
        action: Action,
        /// When.
        at: Moment,
    },
    /// A game's clocks, and when its turn began.
    Clocks {
        /// The game.
        game: GameId,
        /// The clocks.
        left: [Millis; 2],
        /// When the turn began.
        at: Moment,
    },
    /// A game's end, in the store's words.
    End {
        /// The game.
        game: GameId,
        /// The result's word.
        result: String,
        /// The reason's word.
        reason: String,
        /// When.
        at: Moment,
    },
    /// A player's rating at a game and size class.
    Rating(PlayerId, RatingKey, RatingRow),
    /// A game's actions from number `from` on, taken back.
    Unmove {
        /// The game.
        game: GameId,
        /// The first action taken back.
        from: usize,
    },
    /// The server is alive at this time.
    Heartbeat(Moment),
    /// Every unfinished game's turn starts this much later.
    Forgive(Millis),
    /// A level of the course solved: its row, or its stars raised when better than those kept.
    Course(Solved),
    /// The vacation days a player took in a year, now `taken`.
    Vacation {
        /// The player.
        player: PlayerId,
        /// The year.
        year: i32,
        /// The days taken in all.
        taken: u32,
    },
    /// A message left to a player, read at their next lobby or `messages`.
    Message {
        /// The player.
        player: PlayerId,
        /// When.
        at: Moment,
        /// The words.
        text: String,
    },
    /// A player's runs of the unrated puzzles: each best raised when higher, the puzzle
    /// attempted counted as shown to the block.
    PuzzleBests(super::bests::Runs),
}

/// What the change gives once its writes are made.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// [`Applied::Done`].
    Done,
    /// [`Applied::Id`], the number the one write that gives one gave, or [`Applied::Taken`]
    /// when it gave none.
    Added,
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

    /// The change's outcome, once its writes gave `added` (the new row's number, when a write
    /// gives one).
    #[must_use]
    pub fn applied(self, added: Option<i64>) -> Applied {
        let rated: Vec<_> = self
            .writes
            .into_iter()
            .filter_map(|w| match w {
                Write::Rating(player, key, row) => Some((player, key, row)),
                _ => None,
            })
            .collect();
        match self.answer {
            Answer::Added => added.map_or(Applied::Taken, Applied::Id),
            Answer::Refused(applied) => applied,
            Answer::Done if rated.is_empty() => Applied::Done,
            Answer::Done => Applied::Rated(rated),
        }
    }
}

/// What `change` needs read before it is decided.
#[must_use]
pub fn need(change: &Change) -> Need {
    match change {
        Change::CloseChallenge(id) => Need {
            open: Some(*id),
            ..Need::default()
        },
        Change::StartGame(game) => Need {
            open: Some(game.id.challenge()),
            ..Need::default()
        },
        Change::AddAction {
            game,
            ratings,
            since,
            ..
        } => Need {
            turn: since.map(|_| *game),
            ratings: rated(ratings),
            ..Need::default()
        },
        Change::Vacation(take) => Need {
            vacation: Some((take.player, take.year)),
            ..Need::default()
        },
        _ => Need::default(),
    }
}

/// The two players and the class of a rated game's ratings (player 1's first), none when the
/// game is not rated.
fn rated(ratings: &[(PlayerId, RatingKey, RatingRow)]) -> Option<([PlayerId; 2], RatingKey)> {
    match ratings {
        [(p1, key, _), (p2, _, _), ..] => Some(([*p1, *p2], *key)),
        _ => None,
    }
}

/// Decides `change` on `facts` (what [`need`] named, read in the change's transaction).
///
/// # Errors
/// [`Stale`] for an end on time judged from a turn the store no longer holds (a takeover that
/// forgave an outage moved it on: the game goes on); an error when the facts the change needs
/// were not given, or for a change decided in a module of its own.
pub fn decide(change: &Change, facts: &Facts) -> Result<Decision> {
    let missing = || anyhow!("a change decided without its facts");
    Ok(match change {
        Change::AddPlayer { key, name, at } => Decision {
            writes: vec![Write::Player {
                key: key.clone(),
                name: name.clone(),
                at: *at,
            }],
            answer: Answer::Added,
        },
        Change::AddChallenge(c) => Decision {
            writes: vec![Write::Challenge(c.clone())],
            answer: Answer::Added,
        },
        // Accepted or withdrawn meanwhile (on another process): nothing written.
        Change::CloseChallenge(id) => match facts.open.ok_or_else(missing)? {
            true => Decision::done(vec![Write::Close(*id)]),
            false => refused(Applied::Taken),
        },
        Change::StartGame(game) => match facts.open.ok_or_else(missing)? {
            true => Decision::done(vec![
                Write::Close(game.id.challenge()),
                Write::Game(game.clone()),
            ]),
            false => refused(Applied::Taken),
        },
        Change::AddAction { .. } => action(change, facts)?,
        Change::TakeBack {
            game,
            index,
            left,
            at,
        } => Decision::done(vec![
            Write::Unmove {
                game: *game,
                from: *index,
            },
            Write::Clocks {
                game: *game,
                left: *left,
                at: *at,
            },
        ]),
        Change::Beat(at) => Decision::done(vec![Write::Heartbeat(*at)]),
        Change::Forgive(by) => Decision::done(vec![Write::Forgive(*by)]),
        Change::Course(solved) => {
            if !(1..=3).contains(&solved.stars) {
                anyhow::bail!("a course level solved with {} stars", solved.stars);
            }
            Decision::done(vec![Write::Course(solved.clone())])
        }
        Change::Vacation(take) => vacation(take, facts.vacation.ok_or_else(missing)?),
        // The game's turn goes on from when it began: only its clocks change.
        Change::MoreTime { game, left, since } => Decision::done(vec![Write::Clocks {
            game: *game,
            left: *left,
            at: *since,
        }]),
        Change::PuzzleBests(runs) => Decision::done(vec![Write::PuzzleBests(runs.clone())]),
        Change::AddPuzzles(_) | Change::Attempt(_) | Change::Tournament(_) => {
            anyhow::bail!("a change decided in a module of its own")
        }
    })
}

/// Vacation days taken, when the player has that many left of the year's allowance: their
/// count raised, a message left to each player told; else nothing ([`Applied::Taken`]).
fn vacation(take: &super::vacation::Take, taken: u32) -> Decision {
    if take.days == 0 || taken.saturating_add(take.days) > take.allowance {
        return refused(Applied::Taken);
    }
    let mut writes = vec![Write::Vacation {
        player: take.player,
        year: take.year,
        taken: taken + take.days,
    }];
    writes.extend(take.told.iter().map(|(player, text)| Write::Message {
        player: *player,
        at: take.at,
        text: text.clone(),
    }));
    Decision::done(writes)
}

fn refused(applied: Applied) -> Decision {
    Decision {
        writes: Vec::new(),
        answer: Answer::Refused(applied),
    }
}

/// A game's step: its action, its clocks, its end, and the ratings computed from the store's
/// rows (one function for both stores, `crate::rating::after_game`).
fn action(change: &Change, facts: &Facts) -> Result<Decision> {
    let Change::AddAction {
        game,
        index,
        action,
        left,
        at,
        end,
        winner,
        ratings,
        since,
    } = change
    else {
        anyhow::bail!("not a game's step");
    };
    if let Some(since) = since {
        let turn = facts
            .turn
            .ok_or_else(|| anyhow!("a step decided without its turn"))?;
        if turn != *since {
            return Err(Stale(*game).into());
        }
    }
    let mut writes = Vec::new();
    if let Some(action) = action {
        writes.push(Write::Move {
            game: *game,
            index: *index,
            action: *action,
            at: *at,
        });
    }
    writes.push(Write::Clocks {
        game: *game,
        left: *left,
        at: *at,
    });
    if let Some((result, reason)) = end.as_ref().map(|e| e.words()) {
        writes.push(Write::End {
            game: *game,
            result: result.to_string(),
            reason: reason.to_string(),
            at: *at,
        });
    }
    if let Some((players, key)) = rated(ratings) {
        let before = facts
            .ratings
            .ok_or_else(|| anyhow!("a rated end decided without the ratings"))?;
        let after = crate::rating::after_game(before, *winner);
        for (player, row) in players.into_iter().zip(after) {
            writes.push(Write::Rating(player, key, row));
        }
    }
    Ok(Decision::done(writes))
}

#[cfg(test)]
mod tests;
