//! The tournaments' rows: each tournament with its settings (the words of
//! `tournament create`), its entrants in the order they joined, and every round's pairings with
//! their games (whose results are the games' own, in `games`). Enough for a director started
//! afresh to go on where the last one stopped. SQLite's statements are here and in `apply.rs`
//! beside it; PostgreSQL's are in `crates/quentin-server/src/store/postgres/tournaments.rs`,
//! with every other of its statements.

use std::fmt;
use std::sync::Arc;

use anyhow::Result;

mod apply;
pub mod plan;

pub use apply::apply_sqlite;

use super::{ChallengeRow, Damaged, GameRow};
use crate::ids::{ChallengeId, GameId, Moment, PlayerId};
use crate::spec::First;
use crate::tournament::{Settings, Status, TournamentId};

/// The tables of the schema step that brings tournaments, on SQLite.
pub const SQLITE_STEP: &str = "
CREATE TABLE tournaments(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    by INTEGER NOT NULL, settings TEXT NOT NULL, created INTEGER NOT NULL,
    starts INTEGER NOT NULL, status TEXT NOT NULL, started INTEGER);
CREATE TABLE tournament_entrants(
    tournament INTEGER NOT NULL, player INTEGER NOT NULL, seq INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL DEFAULT 0, strikes INTEGER NOT NULL DEFAULT 0,
    paused INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY(tournament, player));
CREATE TABLE tournament_pairings(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament INTEGER NOT NULL, round INTEGER NOT NULL, first INTEGER NOT NULL,
    second INTEGER, game INTEGER);
CREATE TABLE tournament_directors(
    tournament INTEGER PRIMARY KEY, process TEXT NOT NULL, expires INTEGER NOT NULL);
";

/// The schema step after the tournaments': the messages to players (a tournament cancelled),
/// kept until read, on SQLite.
pub const SQLITE_MESSAGES_STEP: &str = "
CREATE TABLE messages(
    id INTEGER PRIMARY KEY AUTOINCREMENT, player INTEGER NOT NULL, at INTEGER NOT NULL,
    text TEXT NOT NULL, seen INTEGER NOT NULL DEFAULT 0);
CREATE INDEX messages_player ON messages(player, seen);
";

/// The schema step that counts each tournament's changes (its `version`), on SQLite
/// (PostgreSQL's is `crate::store::postgres::tournaments::POSTGRES_VERSION_STEP`). It also
/// brings the words of an abort that name who asked it (`by-first`, `by-second`:
/// `crate::game_end`), which an older version would not read.
pub const SQLITE_VERSION_STEP: &str = "
ALTER TABLE tournaments ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
";

/// A tournament's row, with its entrants and pairings: the tournament as one typed aggregate,
/// its settings read once from the store's words and its status a [`Status`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its number.
    pub id: TournamentId,
    /// Who made it.
    pub by: PlayerId,
    /// Its settings (the store keeps the words of `tournament create`, [`Settings::words`]).
    pub settings: Settings,
    /// When it was made (ms since the epoch).
    pub created: Moment,
    /// When it is to start.
    pub starts: Moment,
    /// Where it stands.
    pub status: Status,
    /// When it started.
    pub started: Option<Moment>,
    /// How many changes the store has made to it (its entrants and pairings included): a
    /// process's copy is replaced only by rows at least as new ([`TournamentRow::newer_than`]),
    /// so that a read begun before this process's own change cannot undo it.
    pub version: i64,
    /// The entrants, in the order they joined.
    pub entrants: Vec<EntrantRow>,
    /// The pairings, round by round, in the order they were made.
    pub pairings: Vec<PairingRow>,
}

/// An entrant of a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    /// Who.
    pub player: PlayerId,
    /// Withdrawn during the tournament (by choice, or after two games lost without a move).
    pub withdrawn: bool,
    /// Games lost without a move.
    pub strikes: i64,
    /// Paused (in an arena: not paired until they come back).
    pub paused: bool,
}

/// A pairing of a round: a game, or a bye (no second player, no game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairingRow {
    /// The round (an arena's: the game's number in the tournament).
    pub round: i64,
    /// Who moves first, or has the bye.
    pub first: PlayerId,
    /// Who moves second.
    pub second: Option<PlayerId>,
    /// The game.
    pub game: Option<GameId>,
}

/// A change of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub enum TournamentChange {
    /// A new tournament ([`super::Applied::Id`]); its entrants and pairings are not read.
    Create(TournamentRow),
    /// `player` joins.
    Join {
        /// The tournament.
        tournament: TournamentId,
        /// Who.
        player: PlayerId,
        /// The most entrants it takes: a join past them is refused ([`super::Applied::Taken`]),
        /// checked in the join's own statement against the entrants the store holds.
        max: i64,
    },
    /// `player` leaves before the start.
    Leave {
        /// The tournament.
        tournament: TournamentId,
        /// Who.
        player: PlayerId,
    },
    /// An entrant's state during the tournament.
    Entrant {
        /// The tournament.
        tournament: TournamentId,
        /// The entrant and their state.
        entrant: EntrantRow,
    },
    /// The tournament starts, ends or is cancelled.
    Status {
        /// The tournament.
        tournament: TournamentId,
        /// Running, over or cancelled.
        status: Status,
        /// When.
        at: Moment,
    },
    /// The tournament is cancelled, and each entrant is left message `text` (read at their
    /// next login if they are away).
    Cancel {
        /// The tournament.
        tournament: TournamentId,
        /// When.
        at: Moment,
        /// What each entrant is told.
        text: String,
        /// Whether a running tournament may be cancelled (an operator's order); else only an
        /// open one. A tournament the store holds otherwise is left as it is
        /// ([`super::Applied::Status`]): a start and a cancel exclude each other.
        running: bool,
    },
    /// A game of round `round` begins: its number ([`super::Applied::Id`]; the row's `id` is
    /// not read).
    Pair {
        /// The tournament.
        tournament: TournamentId,
        /// The round.
        round: i64,
        /// The game.
        game: GameRow,
    },
    /// Pairings written whole or not at all (a round, or an arena's games paired at once):
    /// the byes, then the games begun, each in its round ([`super::Applied::Ids`]: the games'
    /// numbers, in order; the rows' `id`s are not read).
    Round {
        /// The tournament.
        tournament: TournamentId,
        /// Each bye's round and player.
        byes: Vec<(i64, PlayerId)>,
        /// Each game's round and row.
        games: Vec<(i64, GameRow)>,
    },
    /// `player` has a bye in `round`.
    Bye {
        /// The tournament.
        tournament: TournamentId,
        /// The round.
        round: i64,
        /// Who.
        player: PlayerId,
    },
    /// A round paired from the entrants as the store holds them, in the transaction that
    /// writes it: the tournament's row locked (a join, a withdrawal or another start on
    /// another process waits for it, or is read by it), its status checked (`open` to start
    /// it, `running` otherwise) and its count of pairings (`known`: the hub paired from all of
    /// them), then its entrants read and given to `plan`, whose round is written whole
    /// ([`super::Applied::Paired`]: the entrants read and the round written, none when `plan`
    /// gave none and nothing was written). A status not as expected gives
    /// [`super::Applied::Status`] (the store's), pairings the hub has not read
    /// [`super::Applied::Taken`]; nothing is written then.
    Paired {
        /// The tournament.
        tournament: TournamentId,
        /// When it starts with this round (from `open` to `running`); none: it is running.
        start: Option<Moment>,
        /// How many pairings the hub knows of it.
        known: usize,
        /// The hub's pairing of the round from the entrants.
        plan: Plan,
    },
    /// This process takes or renews its lease on directing the tournament, for as long as a
    /// game's owner's lease lasts: [`super::Applied::Done`], or [`super::Applied::Taken`] while another
    /// process holds it (several processes on one database; one alone always holds it).
    Direct(TournamentId),
}

impl TournamentChange {
    /// The tournament it changes (none for a new one: its number comes with the commit).
    #[must_use]
    pub fn tournament(&self) -> Option<TournamentId> {
        match self {
            TournamentChange::Create(_) => None,
            TournamentChange::Join { tournament, .. }
            | TournamentChange::Leave { tournament, .. }
            | TournamentChange::Entrant { tournament, .. }
            | TournamentChange::Status { tournament, .. }
            | TournamentChange::Pair { tournament, .. }
            | TournamentChange::Bye { tournament, .. }
            | TournamentChange::Round { tournament, .. }
            | TournamentChange::Cancel { tournament, .. }
            | TournamentChange::Paired { tournament, .. }
            | TournamentChange::Direct(tournament) => Some(*tournament),
        }
    }
}

/// The tournament `change` changed, once it gave `applied`: none for a director's lease, which
/// is no change of the tournament, nor for a new one not written.
#[must_use]
pub fn changed(change: &TournamentChange, applied: &super::Applied) -> Option<TournamentId> {
    match (change, applied) {
        (TournamentChange::Direct(_), _) => None,
        (TournamentChange::Create(_), super::Applied::Id(id)) => Some(TournamentId(*id)),
        _ => change.tournament(),
    }
}

/// Pairings to write together: the byes, then the games begun, each with its round.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Round {
    /// Each bye's round and player.
    pub byes: Vec<(i64, PlayerId)>,
    /// Each game's round and row (its `id` is the game's number once written).
    pub games: Vec<(i64, GameRow)>,
}

/// The hub's pairing of a round from a tournament's entrants (in the order they joined, as
/// the store holds them in the transaction that writes the round), or none: nothing to write.
/// The store calls it and writes what it gives; it decides nothing itself.
#[derive(Clone)]
pub struct Plan(pub Arc<PlanFn>);

/// What a [`Plan`] calls.
pub type PlanFn = dyn Fn(&[EntrantRow]) -> Option<Round> + Send + Sync;

impl fmt::Debug for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Plan")
    }
}

impl PartialEq for Plan {
    fn eq(&self, other: &Plan) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What a [`TournamentChange::Paired`] did: the entrants as the store holds them, and the
/// round it wrote (its games with their numbers), none when the plan gave none.
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// The entrants, in the order they joined.
    pub entrants: Vec<EntrantRow>,
    /// The round written.
    pub round: Option<Round>,
}

/// The challenge a tournament's game takes its number from, closed as the game starts.
#[must_use]
pub fn challenge_of(game: &GameRow) -> ChallengeRow {
    ChallengeRow {
        id: ChallengeId(0),
        by: game.players[0],
        setup: game.setup,
        first: First::Me,
        clock: game.clock,
        rated: game.rated,
        to: Some(game.players[1]),
    }
}

/// A tournament's row as the store holds it: its settings and status as words, read into a
/// [`TournamentRow`] once, here ([`Stored::typed`]), for both stores.
pub(super) struct Stored {
    pub id: TournamentId,
    pub by: PlayerId,
    pub settings: String,
    pub created: Moment,
    pub starts: Moment,
    pub status: String,
    pub started: Option<Moment>,
    pub version: i64,
}

impl Stored {
    /// The row typed, or what is wrong with it: settings or a status this version cannot
    /// read (a damaged row, or one a newer version wrote).
    fn typed(self) -> Result<TournamentRow, Damaged> {
        let damaged = |why: String| Damaged {
            kind: "tournament",
            id: self.id.0,
            why,
        };
        let settings = Settings::from_stored(&self.settings)
            .map_err(|why| damaged(format!("its settings ({}): {why}", self.settings)))?;
        let status = Status::from_word(&self.status).ok_or_else(|| {
            damaged(format!(
                "its status {:?} is not one this version knows",
                self.status
            ))
        })?;
        Ok(TournamentRow {
            id: self.id,
            by: self.by,
            settings,
            created: self.created,
            starts: self.starts,
            status,
            started: self.started,
            version: self.version,
            entrants: Vec::new(),
            pairings: Vec::new(),
        })
    }
}

/// The rows of `stored` typed, with their entrants and pairings; those that cannot be read
/// are left out and named in `damaged`.
pub(super) fn typed(
    stored: Vec<Stored>,
    entrants: Vec<(TournamentId, EntrantRow)>,
    pairings: Vec<(TournamentId, PairingRow)>,
    damaged: &mut Vec<Damaged>,
) -> Vec<TournamentRow> {
    let mut out = Vec::with_capacity(stored.len());
    for row in stored {
        match row.typed() {
            Ok(row) => out.push(row),
            Err(bad) => damaged.push(bad),
        }
    }
    attach(&mut out, entrants, pairings);
    out
}

/// Every tournament on SQLite, or only `only`; those that cannot be read are named in
/// `damaged`.
///
/// # Errors
/// When the file cannot be read.
pub fn load_sqlite(
    conn: &rusqlite::Connection,
    only: Option<TournamentId>,
    damaged: &mut Vec<Damaged>,
) -> Result<Vec<TournamentRow>> {
    // -1 names no tournament: every one.
    let only = only.map_or(-1, |t| t.0);
    let stored: Vec<Stored> = conn
        .prepare(
            "SELECT id, by, settings, created, starts, status, started, version FROM tournaments
             WHERE ?1 = -1 OR id = ?1 ORDER BY id",
        )?
        .query_map([only], |r| {
            Ok(Stored {
                id: r.get(0)?,
                by: r.get(1)?,
                settings: r.get(2)?,
                created: r.get(3)?,
                starts: r.get(4)?,
                status: r.get(5)?,
                started: r.get(6)?,
                version: r.get(7)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let entrants: Vec<(TournamentId, EntrantRow)> = conn
        .prepare(
            "SELECT tournament, player, withdrawn, strikes, paused FROM tournament_entrants
             WHERE ?1 = -1 OR tournament = ?1 ORDER BY tournament, seq",
        )?
        .query_map([only], |r| {
            Ok((
                r.get(0)?,
                EntrantRow {
                    player: r.get(1)?,
                    withdrawn: r.get(2)?,
                    strikes: r.get(3)?,
                    paused: r.get(4)?,
                },
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let pairings: Vec<(TournamentId, PairingRow)> = conn
        .prepare(
            "SELECT tournament, round, first, second, game FROM tournament_pairings
             WHERE ?1 = -1 OR tournament = ?1 ORDER BY tournament, id",
        )?
        .query_map([only], |r| {
            Ok((
                r.get(0)?,
                PairingRow {
                    round: r.get(1)?,
                    first: r.get(2)?,
                    second: r.get(3)?,
                    game: r.get(4)?,
                },
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(typed(stored, entrants, pairings, damaged))
}

fn attach(
    tournaments: &mut [TournamentRow],
    entrants: Vec<(TournamentId, EntrantRow)>,
    pairings: Vec<(TournamentId, PairingRow)>,
) {
    for (t, entrant) in entrants {
        if let Some(row) = tournaments.iter_mut().find(|r| r.id == t) {
            row.entrants.push(entrant);
        }
    }
    for (t, pairing) in pairings {
        if let Some(row) = tournaments.iter_mut().find(|r| r.id == t) {
            row.pairings.push(pairing);
        }
    }
}
