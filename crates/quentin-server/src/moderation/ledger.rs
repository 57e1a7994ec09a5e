//! The ledger: the sanctions and the audit log in the store (tables `operators`, `bans`,
//! `marks`, `renames`, `audit`, `logins`; SQLite's and PostgreSQL's alike), read and written
//! beside the hub's writer. Every order is one transaction: its rows and its line of the audit
//! log together; a refused order writes nothing.
//!
//! What an order does and what it answers is decided here, once for both stores, on typed
//! facts: each order names what it needs to know (a [`Need`] of `store::ledger`), the store
//! reads it in the order's transaction, the order's decision here turns it into a refusal or
//! a [`Plan`] (its rows, its audit line, its answer), and the store writes the plan and
//! commits. The statements are the store's: `crates/quentin-server/src/store/sqlite/ledger.rs`
//! (blocking, on a thread that may wait) and `crates/quentin-server/src/store/postgres/ledger.rs`
//! (awaiting a client of the pool).

mod messages;
mod players;
#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use anyhow::Result;
use deadpool_postgres::Pool;

use super::{AuditRow, Ban, Order, OrderRefusal, Sanctions};
use crate::ids::{ChallengeId, GameId, Moment, PlayerId, TournamentId};
use crate::store::ledger::{
    AuditLine, AuditTail, ChallengeOpen, Flag, GameOver, NameFacts, NameFree, NameHeld, Named,
    Plan, PlayerNamed, Sanction, SanctionRows, TournamentStatus, Write,
};
use crate::store::postgres::ledger as pg;
use crate::store::sqlite::ledger::{self as lite, LedgerFile};
use crate::tournament::Status;

/// The ledger's decision on the facts: a plan, or why the order is refused.
type Decision<T> = crate::store::ledger::Decision<T, OrderRefusal>;

/// The ledger of one store.
#[derive(Clone)]
pub struct Ledger {
    store: Store,
}

/// The store the ledger is in.
#[derive(Clone)]
enum Store {
    /// The SQLite file, on a connection of the ledger's own; its calls wait, on tokio's
    /// blocking threads.
    Sqlite(Arc<LedgerFile>),
    /// The PostgreSQL database, through the process's pool; its calls are awaited.
    Postgres(Pool),
}

/// Who did an order, when it did not come from a player: the host's `quentin serve admin`.
pub const HOST: &str = "host";

/// The placeholder name of a player renamed by an operator, until they pick one: no player
/// can register it (a `.` is not allowed in names).
#[must_use]
pub fn placeholder(player: PlayerId) -> String {
    format!("renamed.{player}")
}

/// The most rows of the audit log `log` shows.
const LOG_LINES: i64 = 200;

/// Who gave an order, which, and when: what its line of the audit log says besides whom.
#[derive(Clone, Debug)]
struct Stamp {
    by: String,
    what: &'static str,
    now: Moment,
}

impl Stamp {
    /// The order's line of the audit log.
    fn line(&self, whom: &str, why: &str) -> Write {
        Write::Audit(AuditLine {
            at: self.now,
            who: self.by.clone(),
            what: self.what.to_string(),
            whom: whom.to_string(),
            why: why.to_string(),
        })
    }

    /// A plan of `writes` then the order's line of the audit log about `whom`, answering
    /// `answer`.
    fn plan(&self, mut writes: Vec<Write>, whom: &str, why: &str, answer: String) -> Plan<String> {
        writes.push(self.line(whom, why));
        Plan { writes, answer }
    }
}

/// The player found, or the refusal of the order naming `name`.
fn found(facts: Option<(Named, bool)>, name: &str) -> Result<(Named, bool), OrderRefusal> {
    facts.ok_or_else(|| OrderRefusal::NoPlayer(name.to_string()))
}

impl Ledger {
    /// The ledger of the SQLite store at `path`, which must exist at the current version
    /// (opened by the store's `Sqlite::open` first).
    ///
    /// # Errors
    /// A file that cannot be opened.
    pub fn sqlite(path: &Path) -> Result<Ledger> {
        Ok(Ledger {
            store: Store::Sqlite(Arc::new(LedgerFile::open(path)?)),
        })
    }

    /// The ledger of the PostgreSQL store of `pool`, already at the current version.
    #[must_use]
    pub fn postgres(pool: Pool) -> Ledger {
        Ledger {
            store: Store::Postgres(pool),
        }
    }

    /// Reads `need` in a transaction, lets `decide` decide on it, and writes its plan in the
    /// same transaction: the plan's answer, or the refusal (nothing written).
    async fn carry_out<N, T>(
        &self,
        need: N,
        decide: impl FnOnce(N::Facts) -> Decision<T> + Send + 'static,
    ) -> Result<Result<T, OrderRefusal>>
    where
        N: lite::Read + pg::Read,
        T: Send + 'static,
    {
        match &self.store {
            Store::Sqlite(file) => {
                let file = file.clone();
                tokio::task::spawn_blocking(move || file.carry_out(&need, decide)).await?
            }
            Store::Postgres(pool) => pg::carry_out(pool, &need, decide).await,
        }
    }

    /// Carries out `order` of `by` at `now` in the store: its answer (`Ok`: the lines after
    /// `=`, `Err`: why it is refused, said after `?`).
    ///
    /// # Errors
    /// A failing store: nothing of the order is kept.
    pub async fn order(
        &self,
        by: &str,
        order: &Order,
        now: Moment,
    ) -> Result<Result<String, OrderRefusal>> {
        let s = Stamp {
            by: by.to_string(),
            what: order.word(),
            now,
        };
        let player = |name: &String, holding: Option<Sanction>| PlayerNamed {
            name: name.clone(),
            holding,
        };
        match order.clone() {
            Order::Ban {
                name,
                until,
                reason,
            } => {
                self.carry_out(player(&name, None), move |p| {
                    ban(&s, found(p, &name)?.0, until, reason)
                })
                .await
            }
            Order::Unban(name) => self.lift(s, name, Sanction::Ban).await,
            Order::Mark(name) => self.put(s, name, Flag::Mark).await,
            Order::Unmark(name) => self.lift(s, name, Sanction::Mark).await,
            Order::Op(name) => self.put(s, name, Flag::Operator).await,
            Order::Deop(name) => self.lift(s, name, Sanction::Operator).await,
            Order::Rename(name) => {
                self.carry_out(player(&name, None), move |p| rename(&s, found(p, &name)?.0))
                    .await
            }
            Order::Free(name) => {
                self.carry_out(NameHeld(name.clone()), move |held| free(&s, &name, held))
                    .await
            }
            Order::Abort(id) => {
                self.carry_out(GameOver(id), move |over| abort(&s, id, over))
                    .await
            }
            Order::CancelTournament(id) => {
                self.carry_out(TournamentStatus(id), move |status| cancel(&s, id, status))
                    .await
            }
            Order::Close(id) => {
                self.carry_out(ChallengeOpen(id), move |open| close(&s, id, open))
                    .await
            }
            Order::Reset(name) => {
                self.carry_out(player(&name, None), move |p| {
                    let p = found(p, &name)?.0;
                    Ok(s.plan(vec![Write::ResetRatings(p.id)], &p.name, "", String::new()))
                })
                .await
            }
            Order::Players(name) => self.players(name, now).await,
            Order::Log => {
                self.carry_out(AuditTail(LOG_LINES), |rows| {
                    Ok(Plan {
                        writes: Vec::new(),
                        answer: rows
                            .iter()
                            .map(AuditRow::line)
                            .collect::<Vec<_>>()
                            .join("\n"),
                    })
                })
                .await
            }
        }
    }

    /// `unban`, `unmark`, `deop`: the player's row of `sanction` deleted, refused when they
    /// have none.
    async fn lift(
        &self,
        s: Stamp,
        name: String,
        sanction: Sanction,
    ) -> Result<Result<String, OrderRefusal>> {
        let need = PlayerNamed {
            name: name.clone(),
            holding: Some(sanction),
        };
        self.carry_out(need, move |p| {
            let (p, holds) = found(p, &name)?;
            if !holds {
                return Err(OrderRefusal::NotHeld(p.name, sanction));
            }
            let player = p.id;
            Ok(s.plan(
                vec![Write::Lift { sanction, player }],
                &p.name,
                "",
                String::new(),
            ))
        })
        .await
    }

    /// `mark`, `op`: the player's row of `flag` put.
    async fn put(
        &self,
        s: Stamp,
        name: String,
        flag: Flag,
    ) -> Result<Result<String, OrderRefusal>> {
        let need = PlayerNamed {
            name: name.clone(),
            holding: None,
        };
        self.carry_out(need, move |p| {
            let p = found(p, &name)?.0;
            let (player, at) = (p.id, s.now);
            Ok(s.plan(
                vec![Write::Put { flag, player, at }],
                &p.name,
                "",
                String::new(),
            ))
        })
        .await
    }

    /// The sanctions in force and the last row of the audit log.
    ///
    /// # Errors
    /// A failing store, or a value not of its column's type.
    pub async fn sanctions(&self) -> Result<Sanctions> {
        let rows = match &self.store {
            Store::Sqlite(file) => {
                let file = file.clone();
                tokio::task::spawn_blocking(move || file.sanctions()).await??
            }
            Store::Postgres(pool) => pg::sanctions(pool).await?,
        };
        Ok(sanctions_of(rows))
    }

    /// The rows of the audit log after number `last`, in order.
    ///
    /// # Errors
    /// A failing store, or a value not of its column's type.
    pub async fn since(&self, last: i64) -> Result<Vec<AuditRow>> {
        match &self.store {
            Store::Sqlite(file) => {
                let file = file.clone();
                tokio::task::spawn_blocking(move || file.since(last)).await?
            }
            Store::Postgres(pool) => pg::since(pool, last).await,
        }
    }

    /// Keeps a login of `key` from `address` at `at`, for `players`.
    ///
    /// # Errors
    /// A failing store.
    pub async fn login(&self, key: &str, address: &str, at: Moment) -> Result<()> {
        match &self.store {
            Store::Sqlite(file) => {
                let (file, key, address) = (file.clone(), key.to_string(), address.to_string());
                tokio::task::spawn_blocking(move || file.login(&key, &address, at)).await?
            }
            Store::Postgres(pool) => pg::login(pool, key, address, at).await,
        }
    }

    /// Deletes the logins kept from before `before`: how many.
    ///
    /// # Errors
    /// A failing store.
    pub async fn prune_logins(&self, before: Moment) -> Result<u64> {
        match &self.store {
            Store::Sqlite(file) => {
                let file = file.clone();
                tokio::task::spawn_blocking(move || file.prune_logins(before)).await?
            }
            Store::Postgres(pool) => pg::prune_logins(pool, before).await,
        }
    }

    /// `player`, renamed by an operator, picks `name`: kept, and said in the audit log.
    ///
    /// # Errors
    /// A failing store; inside, a name taken (the refusal).
    pub async fn pick_name(
        &self,
        player: PlayerId,
        name: &str,
        now: Moment,
    ) -> Result<Result<(), OrderRefusal>> {
        let need = NameFree {
            player,
            name: name.to_string(),
        };
        let name = name.to_string();
        self.carry_out(need, move |facts| pick(player, &name, now, facts))
            .await
    }
}

/// `ban`: the ban in place of any, the player's open challenges closed (the processes drop
/// them from memory on reading the audit line).
fn ban(s: &Stamp, p: Named, until: Option<Moment>, reason: String) -> Decision<String> {
    if let Some(until) = until
        && until <= s.now
    {
        return Err(OrderRefusal::BanDayBegun(until));
    }
    // Stripped here too, whatever way the order came: only printable text is stored.
    let reason = super::printable(&reason);
    if reason.is_empty() {
        return Err(OrderRefusal::BanWithoutReason);
    }
    let why = match until {
        Some(until) => format!("{reason} (until {})", super::date(until)),
        None => reason.clone(),
    };
    let writes = vec![
        Write::Ban {
            player: p.id,
            reason,
            ends: until,
            at: s.now,
        },
        Write::CloseChallengesOf(p.id),
    ];
    Ok(s.plan(writes, &p.name, &why, String::new()))
}

/// `rename`: a placeholder name until the player picks one; the answer is the placeholder.
fn rename(s: &Stamp, p: Named) -> Decision<String> {
    let new = placeholder(p.id);
    if p.name == new {
        return Err(OrderRefusal::RenamedAlready(p.name));
    }
    let writes = vec![
        Write::Name {
            player: p.id,
            name: new.clone(),
        },
        Write::Renamed {
            player: p.id,
            old: p.name.clone(),
            at: s.now,
        },
    ];
    let why = format!("{new} until a new name is picked");
    Ok(s.plan(writes, &p.name, &why, new))
}

/// `abort GAME`: said in the audit log (its owner ends the game on reading it); `over`:
/// `None` when there is no such game.
fn abort(s: &Stamp, id: GameId, over: Option<bool>) -> Decision<String> {
    match over {
        None => Err(OrderRefusal::NoGame),
        Some(true) => Err(OrderRefusal::GameOver),
        Some(false) => Ok(s.plan(Vec::new(), &format!("game {id}"), "", String::new())),
    }
}

/// `tournament cancel ID`: said in the audit log (its director cancels it on reading it).
fn cancel(s: &Stamp, id: TournamentId, status: Option<Status>) -> Decision<String> {
    match status {
        None => Err(OrderRefusal::NoTournament(id)),
        Some(status) if !status.under_way() => Err(OrderRefusal::TournamentIs(id, status)),
        Some(_) => Ok(s.plan(Vec::new(), &format!("tournament {id}"), "", String::new())),
    }
}

/// `free NAME`: a name an operator took (`rename`) given back, said in the audit log (the
/// processes drop it from the names they hold on reading it).
fn free(s: &Stamp, name: &str, held: bool) -> Decision<String> {
    if !held {
        return Err(OrderRefusal::NameNotHeld(name.to_string()));
    }
    Ok(s.plan(Vec::new(), name, "", String::new()))
}

/// `close CHALLENGE`: an open challenge closed.
fn close(s: &Stamp, id: ChallengeId, open: bool) -> Decision<String> {
    if !open {
        return Err(OrderRefusal::NoChallenge);
    }
    Ok(s.plan(
        vec![Write::CloseChallenge(id)],
        &format!("challenge {id}"),
        "",
        String::new(),
    ))
}

/// A renamed `player` picks `name` at `now`: kept unless taken, said in the audit log as
/// theirs.
fn pick(player: PlayerId, name: &str, now: Moment, facts: NameFacts) -> Decision<()> {
    if facts.taken {
        return Err(OrderRefusal::NameTaken);
    }
    let old = facts.old.unwrap_or_else(|| placeholder(player));
    if old.eq_ignore_ascii_case(name) {
        return Err(OrderRefusal::NameTakenFromYou);
    }
    if facts.held {
        return Err(OrderRefusal::NameTaken);
    }
    let s = Stamp {
        by: name.to_string(),
        what: "new-name",
        now,
    };
    let writes = vec![
        Write::Name {
            player,
            name: name.to_string(),
        },
        Write::NamePicked(player),
        s.line(&placeholder(player), &format!("was {old}")),
    ];
    Ok(Plan { writes, answer: () })
}

/// The sanctions in force, from their rows.
fn sanctions_of(rows: SanctionRows) -> Sanctions {
    Sanctions {
        bans: rows
            .bans
            .into_iter()
            .map(|b| {
                let ban = Ban {
                    reason: b.reason,
                    until: b.ends,
                };
                (b.player, ban)
            })
            .collect(),
        marked: rows.marked.into_iter().collect(),
        renamed: rows.renamed.into_iter().collect(),
        operators: rows.operators.into_iter().collect(),
        aborts: rows
            .aborted
            .iter()
            .filter_map(|whom| whom.strip_prefix("game ")?.parse().ok().map(GameId))
            .collect(),
        cancels: rows
            .cancelled
            .iter()
            .filter_map(|whom| whom.strip_prefix("tournament t")?.parse().ok())
            .map(crate::tournament::TournamentId)
            .collect(),
        held: held_names(&rows.held),
        last: rows.last,
    }
}

/// The names held, from the audit log's `rename` and `free` lines in order: each name taken
/// by a `rename` until a `free` of it.
fn held_names(rows: &[(String, String)]) -> std::collections::HashSet<String> {
    let mut held = std::collections::HashSet::new();
    for (what, whom) in rows {
        let name = whom.to_ascii_lowercase();
        if what == "rename" {
            held.insert(name);
        } else {
            held.remove(&name);
        }
    }
    held
}
