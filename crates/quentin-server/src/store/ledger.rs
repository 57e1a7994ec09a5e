//! The moderation ledger's rows (tables `operators`, `bans`, `marks`, `renames`, `audit`,
//! `logins`, `messages`), typed, as the ledger (`crates/quentin-server/src/moderation/ledger.rs`)
//! reads and writes them; each backend's statements are beside it
//! (`crates/quentin-server/src/store/sqlite/ledger.rs`, synchronous, on a thread that may
//! wait; `crates/quentin-server/src/store/postgres/ledger.rs`, awaiting a client of the pool).
//!
//! An order is one transaction on either backend: what it needs is read (a [`Need`], whose
//! [`Need::Facts`] each backend reads with its own statements), the ledger decides on those
//! facts (a refusal, or a [`Plan`]: its [`Write`]s, its line of the audit log among them, and
//! its answer), the writes are made, and the transaction commits. A refused order writes
//! nothing. Every value is read as its column's type: a wrong one is an error, never a 0 or an
//! empty word.

use crate::ids::{ChallengeId, GameId, Moment, PlayerId, TournamentId};
use crate::store::sql::{Sql, values};
use crate::tournament::Status;
/// A player as the store names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// Their number.
    pub id: PlayerId,
    /// Their name, as they wrote it.
    pub name: String,
}

/// A sanction that is one row of its table per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sanction {
    /// `bans`.
    Ban,
    /// `marks`: their games from now on unrated.
    Mark,
    /// `operators`.
    Operator,
}

impl Sanction {
    /// Its table.
    #[must_use]
    pub fn table(self) -> &'static str {
        match self {
            Sanction::Ban => "bans",
            Sanction::Mark => "marks",
            Sanction::Operator => "operators",
        }
    }
}

/// A sanction that is nothing but its row: what `mark` and `op` put.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// `marks`.
    Mark,
    /// `operators`.
    Operator,
}

impl From<Flag> for Sanction {
    fn from(flag: Flag) -> Sanction {
        match flag {
            Flag::Mark => Sanction::Mark,
            Flag::Operator => Sanction::Operator,
        }
    }
}

/// A line of the audit log to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditLine {
    /// When (ms since the epoch).
    pub at: Moment,
    /// Who did it.
    pub who: String,
    /// What: the order's word.
    pub what: String,
    /// Whom.
    pub whom: String,
    /// Why, or empty.
    pub why: String,
}

/// A row of the audit log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditRow {
    /// Its number.
    pub id: i64,
    /// When (ms since the epoch).
    pub at: Moment,
    /// Who did it: an operator's name, or `host` (`quentin serve admin`).
    pub who: String,
    /// What: the order's word.
    pub what: String,
    /// Whom: a player's name, `game N` or `challenge N`.
    pub whom: String,
    /// Why (a ban's reason, the end date), or empty.
    pub why: String,
}

/// A row of `bans`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BanRow {
    /// The player.
    pub player: PlayerId,
    /// Why.
    pub reason: String,
    /// When it ends (ms since the epoch), if it does.
    pub ends: Option<Moment>,
}

/// The sanctions' rows, read together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SanctionRows {
    /// Every ban, ended ones too.
    pub bans: Vec<BanRow>,
    /// The marked players.
    pub marked: Vec<PlayerId>,
    /// The players renamed by an operator, who must pick a new name.
    pub renamed: Vec<PlayerId>,
    /// The players the store names operators.
    pub operators: Vec<PlayerId>,
    /// Whom each `abort` of the audit log names (`game N`).
    pub aborted: Vec<String>,
    /// Whom each `cancel` of the audit log names (`tournament tN`).
    pub cancelled: Vec<String>,
    /// Each `rename` (whom: the name taken) and `free` (whom: the name freed) of the audit
    /// log, its word and whom, in order.
    pub held: Vec<(String, String)>,
    /// The number of the audit log's last row (0: none).
    pub last: i64,
}

/// What the store holds of one player, for the operators' `players`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerFacts {
    /// Their number.
    pub id: PlayerId,
    /// Their name.
    pub name: String,
    /// Their key's fingerprint.
    pub key: String,
    /// Their games.
    pub games: i64,
    /// Those of their games that were aborted.
    pub aborts: i64,
    /// Whether the store names them an operator.
    pub operator: bool,
    /// Whether they are marked.
    pub marked: bool,
    /// Whether an operator renamed them and they have not picked a name yet.
    pub renamed: bool,
    /// Their ban's end, when they have a row in `bans` (`Some(None)`: for good).
    pub ban: Option<Option<Moment>>,
    /// The addresses of their latest logins, the latest first (at most 5).
    pub addresses: Vec<String>,
    /// Asked about them alone: the names of the others who logged in from those addresses,
    /// address by address, each address's by name (a name may come again).
    pub others: Vec<String>,
}

/// What picking a new name needs to know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameFacts {
    /// Whether another player has that name (in any case).
    pub taken: bool,
    /// The player's name before an operator renamed them, if the store keeps it.
    pub old: Option<String>,
    /// Whether an operator took that name from a player and has not freed it.
    pub held: bool,
}

/// Something an order needs to know, read in its transaction before it decides. Each backend
/// reads every implementor with its own statements.
pub trait Need: Send + Sync + 'static {
    /// What is read.
    type Facts: Send + 'static;
}

/// The player named `name` (in any case), and whether they hold `holding`'s row (which, on
/// PostgreSQL, stays locked until the order ends).
#[derive(Clone, Debug)]
pub struct PlayerNamed {
    /// The name asked.
    pub name: String,
    /// The sanction to look for.
    pub holding: Option<Sanction>,
}

impl Need for PlayerNamed {
    /// The player, if one has that name, and whether they hold the sanction asked.
    type Facts = Option<(Named, bool)>;
}

/// Game `0`: `None` when there is none, else whether it is over.
#[derive(Clone, Copy, Debug)]
pub struct GameOver(pub GameId);

impl Need for GameOver {
    type Facts = Option<bool>;
}

/// Whether an operator took the name `0` from a player (`rename`) and has not freed it.
#[derive(Clone, Debug)]
pub struct NameHeld(pub String);

impl Need for NameHeld {
    type Facts = bool;
}

/// The audit log's statement that finds whether a name is held, the same on both stores (`?1`
/// the name; PostgreSQL's `$1`): the last `rename` or `free` of that name, a `rename`.
pub const HELD: &str = "SELECT what FROM audit WHERE what IN ('rename', 'free') \
                        AND lower(whom) = lower(?1) ORDER BY id DESC LIMIT 1";

/// Every `rename` and `free` of the audit log, in order.
pub const HOLDS: &str = "SELECT what, whom FROM audit WHERE what IN ('rename', 'free') ORDER BY id";

/// Tournament `0`'s status, if there is one.
#[derive(Clone, Copy, Debug)]
pub struct TournamentStatus(pub TournamentId);

impl Need for TournamentStatus {
    type Facts = Option<Status>;
}

/// A tournament's status as the store keeps it (its word), read.
///
/// # Errors
/// A word this version does not know.
pub fn status_of(tournament: TournamentId, word: &str) -> anyhow::Result<Status> {
    Status::from_word(word).ok_or_else(|| {
        anyhow::anyhow!("tournament {tournament}: a status this version does not know: {word:?}")
    })
}

/// Whether challenge `0` is there and open (on PostgreSQL, locked until the order ends).
#[derive(Clone, Copy, Debug)]
pub struct ChallengeOpen(pub ChallengeId);

impl Need for ChallengeOpen {
    type Facts = bool;
}

/// The facts of the player named `name` (`None` when nobody has that name), or of the
/// `most` newest players, the newest first.
#[derive(Clone, Debug)]
pub struct PlayerList {
    /// One player's name, or all.
    pub name: Option<String>,
    /// How many at most, all asked.
    pub most: i64,
}

impl Need for PlayerList {
    type Facts = Option<Vec<PlayerFacts>>;
}

/// The last `0` rows of the audit log, in order.
#[derive(Clone, Copy, Debug)]
pub struct AuditTail(pub i64);

impl Need for AuditTail {
    type Facts = Vec<AuditRow>;
}

/// Player `player`, renamed by an operator, asks for `name`.
#[derive(Clone, Debug)]
pub struct NameFree {
    /// The player.
    pub player: PlayerId,
    /// The name they ask for.
    pub name: String,
}

impl Need for NameFree {
    type Facts = NameFacts;
}

/// A row the ledger writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// The player's ban, in place of any they had.
    Ban {
        /// The player.
        player: PlayerId,
        /// Why.
        reason: String,
        /// When it ends, if it does.
        ends: Option<Moment>,
        /// When it was ordered.
        at: Moment,
    },
    /// The player's row of `flag`, put anew.
    Put {
        /// Mark or operator.
        flag: Flag,
        /// The player.
        player: PlayerId,
        /// When.
        at: Moment,
    },
    /// The player's row of the sanction, deleted.
    Lift {
        /// Which.
        sanction: Sanction,
        /// The player.
        player: PlayerId,
    },
    /// The player's open challenges, closed.
    CloseChallengesOf(PlayerId),
    /// The challenge, closed.
    CloseChallenge(ChallengeId),
    /// The player's name.
    Name {
        /// The player.
        player: PlayerId,
        /// The name.
        name: String,
    },
    /// The player's row in `renames`, in place of any: their name before.
    Renamed {
        /// The player.
        player: PlayerId,
        /// Their name before.
        old: String,
        /// When.
        at: Moment,
    },
    /// The player's row in `renames`, deleted: they picked a name.
    NamePicked(PlayerId),
    /// Every rating of the player, deleted.
    ResetRatings(PlayerId),
    /// A line of the audit log.
    Audit(AuditLine),
}

/// What an order does: its writes, in order, and its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<T> {
    /// The rows written, its audit line among them.
    pub writes: Vec<Write>,
    /// What the order answers.
    pub answer: T,
}

/// The ledger's decision on the facts: a plan, or a refusal `R` (nothing written), typed by
/// the decider (`crate::moderation::OrderRefusal`).
pub type Decision<T, R> = Result<Plan<T>, R>;

/// The statements that make `write`, stated once for both stores (`crate::store::sql`).
#[must_use]
pub fn statements(write: &Write) -> Vec<Sql> {
    let delete = |sanction: Sanction, player: PlayerId| {
        let text = match sanction {
            Sanction::Ban => "DELETE FROM bans WHERE player = $1",
            Sanction::Mark => "DELETE FROM marks WHERE player = $1",
            Sanction::Operator => "DELETE FROM operators WHERE player = $1",
        };
        Sql::new(text, values![player])
    };
    match write {
        Write::Ban {
            player,
            reason,
            ends,
            at,
        } => vec![
            delete(Sanction::Ban, *player),
            Sql::new(
                "INSERT INTO bans(player, reason, ends, at) VALUES ($1, $2, $3, $4)",
                values![*player, reason.as_str(), *ends, *at],
            ),
        ],
        Write::Put { flag, player, at } => {
            let text = match flag {
                Flag::Mark => "INSERT INTO marks(player, at) VALUES ($1, $2)",
                Flag::Operator => "INSERT INTO operators(player, at) VALUES ($1, $2)",
            };
            vec![
                delete(Sanction::from(*flag), *player),
                Sql::new(text, values![*player, *at]),
            ]
        }
        Write::Lift { sanction, player } => vec![delete(*sanction, *player)],
        Write::CloseChallengesOf(player) => vec![Sql::new(
            "UPDATE challenges SET open = FALSE WHERE \"by\" = $1 AND open = TRUE",
            values![*player],
        )],
        Write::CloseChallenge(id) => vec![Sql::new(
            "UPDATE challenges SET open = FALSE WHERE id = $1 AND open = TRUE",
            values![*id],
        )],
        Write::Name { player, name } => vec![Sql::new(
            "UPDATE players SET name = $1 WHERE id = $2",
            values![name.as_str(), *player],
        )],
        Write::Renamed { player, old, at } => vec![
            Sql::new("DELETE FROM renames WHERE player = $1", values![*player]),
            Sql::new(
                "INSERT INTO renames(player, old, at) VALUES ($1, $2, $3)",
                values![*player, old.as_str(), *at],
            ),
        ],
        Write::NamePicked(player) => vec![Sql::new(
            "DELETE FROM renames WHERE player = $1",
            values![*player],
        )],
        Write::ResetRatings(player) => vec![Sql::new(
            "DELETE FROM ratings WHERE player = $1",
            values![*player],
        )],
        Write::Audit(line) => vec![Sql::new(
            "INSERT INTO audit(at, who, what, whom, why) VALUES ($1, $2, $3, $4, $5)",
            values![
                line.at,
                line.who.as_str(),
                line.what.as_str(),
                line.whom.as_str(),
                line.why.as_str()
            ],
        )],
    }
}
