//! The server's store: what the hub keeps on disk. The hub sees a [`Writer`] only: everything
//! read once at the start, then changes ([`Change`]) sent to the backend's own writer, which
//! commits those that arrive together in one transaction with one sync, and answers each only
//! after its commit; nobody waits for the disk on tokio's workers. Two backends, each with the
//! writer that suits it: [`Sqlite`], one file in the data directory (the default), behind the
//! [`Backend`] trait, whose calls wait, on a thread of its own ([`Writer::start`]); and
//! [`Postgres`], a database that several server processes share (`--database URL`), whose
//! writer is a task that awaits its client ([`Postgres::writer`]). Every PostgreSQL statement
//! is under `crates/quentin-server/src/store/postgres/`.

pub mod backup;
pub mod bests;
pub mod course;
pub mod ledger;
pub(crate) mod migrate;
pub mod plan;
pub mod postgres;
pub mod puzzles;
mod rows;
mod schema;
pub(crate) mod sql;
pub(crate) mod sqlite;
pub mod tables;
pub mod tournaments;
pub mod vacation;
mod writer;

use std::fmt;

use anyhow::Result;

use quentin_rules::{Action, Setup};

use super::ids::{ChallengeId, GameId, PlayerId, Seat};
use super::size_class::RatingKey;
use super::spec::{First, TimeControl};
use crate::ids::{Millis, Moment};
use crate::tournament::Status;
use quentin_record::game_end::GameEnd;

pub use postgres::Postgres;
pub use schema::VERSION;
pub use sqlite::Sqlite;
pub use tournaments::{
    EntrantRow, Paired, PairingRow, Plan, Round, TournamentChange, TournamentRow,
};
pub use writer::Writer;

/// A change of a game refused because this process's lease on the game is gone or has run
/// out (several processes on one database): another process owns the game now, or will at
/// its next round. The player is told the game is moving, not that nothing can be saved.
#[derive(Debug)]
pub struct LeaseLost(pub GameId);

impl fmt::Display for LeaseLost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: this server process's lease on it is gone or ran out",
            self.0
        )
    }
}

impl std::error::Error for LeaseLost {}

/// The store as a whole failed a batch (a transaction that could not begin or commit, a
/// database that cannot be reached), not one change of it: every change of the batch fails
/// with this, and the player is told the store cannot be reached.
#[derive(Debug)]
pub struct StoreDown(pub String);

impl fmt::Display for StoreDown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the store cannot be reached: {}", self.0)
    }
}

impl std::error::Error for StoreDown {}

/// An end on time refused because the turn it was judged from is no longer the store's: a
/// takeover forgave an outage meanwhile (several processes on one database), and the clock
/// has time left. The end is judged again, from the game as it is now.
#[derive(Debug)]
pub struct Stale(pub GameId);

impl fmt::Display for Stale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: its turn was moved on (an outage forgiven) since it was judged out of time",
            self.0
        )
    }
}

impl std::error::Error for Stale {}

/// A player's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// The player's number.
    pub id: PlayerId,
    /// The name they chose.
    pub name: String,
    /// Their SSH key's SHA-256 fingerprint.
    pub key: String,
}

/// A rating as the store keeps it ([`crate::rating`], below the store, defines it).
pub use crate::rating::RatingRow;

/// A game's row, and its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Its number (the challenge's).
    pub id: GameId,
    /// The game and its setup.
    pub setup: Setup,
    /// Player 1 (who moves first) and player 2.
    pub players: [PlayerId; 2],
    /// The time control.
    pub clock: TimeControl,
    /// Whether it counts for the ratings.
    pub rated: bool,
    /// Milliseconds left on each player's clock, at `turn_since`.
    pub left: [Millis; 2],
    /// When the turn of the player to move began (ms since the epoch, server time).
    pub turn_since: Moment,
    /// The actions played.
    pub actions: Vec<Action>,
    /// How it ended, once over.
    pub result: Option<GameEnd>,
    /// When it ended.
    pub ended: Option<Moment>,
}

/// A challenge's row.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    /// Its number, which the game keeps.
    pub id: ChallengeId,
    /// Who made it.
    pub by: PlayerId,
    /// The game and its setup.
    pub setup: Setup,
    /// Who moves first, from the challenger's side (stored as `me`, `you` or `random`).
    pub first: First,
    /// The time control.
    pub clock: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The only player who may accept it.
    pub to: Option<PlayerId>,
}

/// A row the server cannot use: the game or challenge stays out of play, and the host is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damaged {
    /// `game` or `challenge`.
    pub kind: &'static str,
    /// Its number.
    pub id: i64,
    /// What is wrong with it.
    pub why: String,
}

impl fmt::Display for Damaged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} is damaged: {}", self.kind, self.id, self.why)
    }
}

/// Everything the store holds, read once at the server's start.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    /// Every player.
    pub players: Vec<PlayerRow>,
    /// Every player's rating at each game and board-size class they have one for.
    pub ratings: Vec<(PlayerId, RatingKey, RatingRow)>,
    /// The open challenges, oldest first.
    pub challenges: Vec<ChallengeRow>,
    /// Every game with its actions, by number.
    pub games: Vec<GameRow>,
    /// The rows that could not be read.
    pub damaged: Vec<Damaged>,
    /// The last time the running server said it was alive (ms since the epoch).
    pub heartbeat: Option<Moment>,
    /// Every tournament, with its entrants and pairings.
    pub tournaments: Vec<TournamentRow>,
}

/// A change to the store. Each is all or nothing; the changes of one batch share a
/// transaction, and a change that fails leaves the others of its batch alone.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A new player ([`Applied::Id`]), unless the name (in any case) or the key is taken
    /// ([`Applied::Taken`]).
    AddPlayer {
        /// The key's fingerprint.
        key: String,
        /// The name.
        name: String,
        /// When.
        at: Moment,
    },
    /// A new open challenge: [`Applied::Id`], its number (the row's `id` is not read).
    AddChallenge(ChallengeRow),
    /// A challenge withdrawn.
    CloseChallenge(ChallengeId),
    /// The game of challenge `id` begins and the challenge closes.
    StartGame(GameRow),
    /// Action number `index` (from 0) of game `game`, or none (an end by resignation or time),
    /// with the clocks after it, its end when it ended the game, and the ratings that changed.
    AddAction {
        /// The game.
        game: GameId,
        /// The action's number, from 0.
        index: usize,
        /// The action.
        action: Option<Action>,
        /// The clocks after it.
        left: [Millis; 2],
        /// When.
        at: Moment,
        /// How it ended, when it ended the game.
        end: Option<GameEnd>,
        /// The seat that won, when it ended the game (`None`: a draw, or no end).
        winner: Option<Seat>,
        /// The players' new ratings, each at the game and board-size class it is kept for,
        /// as the hub computed them from its memory (player 1's first). A store that other
        /// processes share computes them again from its own rows ([`Applied::Rated`]).
        ratings: Vec<(PlayerId, RatingKey, RatingRow)>,
        /// For an end on time: the start of the turn it was judged from. The end is written
        /// only while the store holds that start: a takeover that forgave an outage moved it
        /// on, and the game goes on ([`Stale`]).
        since: Option<Moment>,
    },
    /// The actions of game `game` from number `index` on taken back, with the clocks after.
    TakeBack {
        /// The game.
        game: GameId,
        /// The first action taken back.
        index: usize,
        /// The clocks after.
        left: [Millis; 2],
        /// When.
        at: Moment,
    },
    /// The server is alive at this time.
    Beat(Moment),
    /// Every unfinished game's turn starts this many milliseconds later: the time the server
    /// was down is charged to nobody.
    Forgive(Millis),
    /// The puzzles the store does not hold yet, by id ([`puzzles`]); those it holds keep
    /// their ratings.
    AddPuzzles(Vec<puzzles::PuzzleRow>),
    /// A player's attempt at a puzzle, solved or failed: [`Applied::Attempted`], the ratings
    /// moved when it is the player's first at the puzzle, computed from the store's own rows.
    Attempt(puzzles::Attempt),
    /// A change of a tournament; [`TournamentChange::Create`] and [`TournamentChange::Pair`]
    /// give [`Applied::Id`].
    Tournament(TournamentChange),
    /// A level of the course solved: its stars kept, or raised when better than those kept
    /// ([`course`]).
    Course(course::Solved),
    /// Vacation days taken by a player ([`vacation`]): done, or [`Applied::Taken`] when they
    /// have fewer left (nothing written).
    Vacation(vacation::Take),
    /// A player's vacation given to game `game`: its clocks now `left`, its turn still begun
    /// at `since` (written by the game's owner only, as a move is).
    MoreTime {
        /// The game.
        game: GameId,
        /// The clocks after.
        left: [Millis; 2],
        /// When its turn began (unchanged).
        since: Moment,
    },
    /// An attempt in a player's Streak or Storm: each best raised when the run's is higher,
    /// the puzzle counted as shown to the player's network block ([`bests`]).
    PuzzleBests(bests::Runs),
}

impl Change {
    /// The game it changes, if one: for the host's log lines about it.
    #[must_use]
    pub fn game(&self) -> Option<GameId> {
        match self {
            Change::AddAction { game, .. }
            | Change::TakeBack { game, .. }
            | Change::MoreTime { game, .. } => Some(*game),
            Change::StartGame(row) if row.id != GameId(0) => Some(row.id),
            _ => None,
        }
    }
}

/// What a committed change gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Applied {
    /// Done.
    Done,
    /// Done: the new row's number.
    Id(i64),
    /// Done: the new rows' numbers, in order (a tournament round's games).
    Ids(Vec<GameId>),
    /// Not done: the name or key is taken.
    Taken,
    /// Done: the end of a rated game, with the ratings the store computed from its own rows.
    Rated(Vec<(PlayerId, RatingKey, RatingRow)>),
    /// Done: an attempt at a puzzle, and what it did to the ratings.
    Attempted(puzzles::Rated),
    /// Done: a round paired from the entrants the store holds (or none, as the plan said).
    Paired(Paired),
    /// Not done: a tournament's status in the store is this, not the one the change needs
    /// (joined or started once it was no longer open: another process moved it on).
    Status(Status),
    /// A change of a tournament (what it gave), with the tournament's rows as the store holds
    /// them after it, read in its transaction: the hub replaces its copy with them.
    Tournament(Box<Applied>, Box<TournamentRow>),
}

impl Applied {
    /// `applied` of a tournament's change, with the tournament's rows after it, if read.
    #[must_use]
    pub fn tournament(applied: Applied, row: Option<TournamentRow>) -> Applied {
        match row {
            Some(row) => Applied::Tournament(Box::new(applied), Box::new(row)),
            None => applied,
        }
    }

    /// What the change gave, without the rows a tournament's change brings back.
    #[must_use]
    pub fn plain(self) -> Applied {
        match self {
            Applied::Tournament(applied, _) => *applied,
            applied => applied,
        }
    }

    /// Whether the change wrote anything: not refused, and not a round with nothing to pair.
    #[must_use]
    pub fn wrote(&self) -> bool {
        !matches!(
            self,
            Applied::Taken | Applied::Status(_) | Applied::Paired(Paired { round: None, .. })
        )
    }
}

/// A store whose calls wait (SQLite, and the tests' own), driven by [`Writer::start`]'s thread.
pub trait Backend: Send + 'static {
    /// Everything, at the server's start. A row the server cannot read is named in
    /// [`Loaded::damaged`] and left out, not an error.
    ///
    /// # Errors
    /// When the store cannot be read at all.
    fn load(&mut self) -> Result<Loaded>;

    /// Commits `changes` in one transaction: on disk, every change kept, before it returns.
    /// Each change's outcome, in order; a change that failed is undone and the others kept.
    ///
    /// # Errors
    /// When the transaction as a whole fails: then none of it is kept.
    fn commit(&mut self, changes: &[&Change]) -> Result<Vec<Result<Applied>>>;

    /// The answer to a question about puzzles, from the rows as they are now.
    ///
    /// # Errors
    /// When the store cannot be read.
    fn puzzles(&mut self, query: &puzzles::PuzzleQuery) -> Result<puzzles::PuzzleFound>;

    /// A check of the whole store: `ok` when sound.
    ///
    /// # Errors
    /// When the store cannot be read.
    fn integrity(&mut self) -> Result<String>;
}

#[cfg(test)]
mod tests;
