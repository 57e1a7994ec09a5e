//! The moderation ledger's statements on SQLite ([`crate::store::ledger`]): a connection of its
//! own to the store's file (WAL lets it read beside the hub's; writes take turns, waiting up
//! to the busy timeout). Its calls wait: the ledger runs them on a thread that may.

use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

use anyhow::{Context as _, Result};
use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, TransactionBehavior};

use crate::ids::{Moment, PlayerId};
use crate::store::ledger::{
    AuditRow, AuditTail, BanRow, ChallengeOpen, Decision, GameOver, HELD, HOLDS, NameFacts,
    NameFree, NameHeld, Named, Need, PlayerFacts, PlayerList, PlayerNamed, Sanction, SanctionRows,
    TournamentStatus, Write,
};

/// The store's file, on the ledger's connection.
pub struct LedgerFile(Mutex<Connection>);

/// A [`Need`] read on SQLite.
pub trait Read: Need {
    /// The facts, read in `tx`.
    ///
    /// # Errors
    /// A failing store, or a value not of its column's type.
    fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts>;
}

impl LedgerFile {
    /// The ledger's connection to the store at `path`, which must exist at the current
    /// version (opened by the store's `Sqlite::open` first).
    ///
    /// # Errors
    /// A file that cannot be opened.
    pub fn open(path: &Path) -> Result<LedgerFile> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .with_context(|| format!("cannot open the store {}", path.display()))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.busy_timeout(super::BUSY_WAIT)?;
        Ok(LedgerFile(Mutex::new(conn)))
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads what `need` asks, lets `decide` decide, and makes its writes: one transaction,
    /// committed only when `decide` did not refuse. Blocking.
    ///
    /// # Errors
    /// A failing store: nothing is kept.
    pub fn carry_out<N: Read, T, R>(
        &self,
        need: &N,
        decide: impl FnOnce(N::Facts) -> Decision<T, R>,
    ) -> Result<Result<T, R>> {
        let mut conn = self.conn();
        // The write lock at once (not upgraded from a read later, which SQLite may refuse as
        // busy): nothing changes between the reading and the writing.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let facts = need.read(&tx)?;
        match decide(facts) {
            Err(why) => {
                tx.rollback()?;
                Ok(Err(why))
            }
            Ok(plan) => {
                for w in &plan.writes {
                    write(&tx, w)?;
                }
                tx.commit()?;
                Ok(Ok(plan.answer))
            }
        }
    }

    /// The sanctions' rows, read together. Blocking.
    ///
    /// # Errors
    /// A failing store, or a value not of its column's type.
    pub fn sanctions(&self) -> Result<SanctionRows> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let mut bans = Vec::new();
        {
            let mut statement = tx.prepare("SELECT player, reason, ends FROM bans")?;
            let mut rows = statement.query([])?;
            while let Some(r) = rows.next()? {
                bans.push(BanRow {
                    player: r.get(0)?,
                    reason: r.get(1)?,
                    ends: r.get(2)?,
                });
            }
        }
        let ids = |table: &str| -> Result<Vec<PlayerId>> {
            column(&tx, &format!("SELECT player FROM {table}"), [])
        };
        let whoms = |what: &str| -> Result<Vec<String>> {
            column(&tx, "SELECT whom FROM audit WHERE what = ?1", [what])
        };
        let rows = SanctionRows {
            bans,
            marked: ids("marks")?,
            renamed: ids("renames")?,
            operators: ids("operators")?,
            aborted: whoms("abort")?,
            cancelled: whoms("cancel")?,
            held: {
                let mut statement = tx.prepare(HOLDS)?;
                let rows = statement.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
                rows.collect::<Result<_, _>>()?
            },
            last: tx.query_row("SELECT COALESCE(MAX(id), 0) FROM audit", [], |r| r.get(0))?,
        };
        tx.commit()?;
        Ok(rows)
    }

    /// The rows of the audit log after number `last`, in order. Blocking.
    ///
    /// # Errors
    /// A failing store, or a value not of its column's type.
    pub fn since(&self, last: i64) -> Result<Vec<AuditRow>> {
        audit_rows(
            &self.conn(),
            "SELECT id, at, who, what, whom, why FROM audit WHERE id > ?1 ORDER BY id",
            [last],
        )
    }

    /// Deletes the logins kept from before `before`: how many. Blocking.
    ///
    /// # Errors
    /// A failing store.
    pub fn prune_logins(&self, before: Moment) -> Result<u64> {
        let n = self
            .conn()
            .execute("DELETE FROM logins WHERE at < ?1", [before])?;
        Ok(n as u64)
    }

    /// Keeps a login of `key` from `address` at `at`. Blocking.
    ///
    /// # Errors
    /// A failing store.
    pub fn login(&self, key: &str, address: &str, at: Moment) -> Result<()> {
        self.conn().execute(
            "INSERT INTO logins(key, address, at) VALUES (?1, ?2, ?3)",
            rusqlite::params![key, address, at],
        )?;
        Ok(())
    }

    /// The messages `player` has not seen yet, oldest first, now marked seen. Blocking.
    ///
    /// # Errors
    /// A failing store, or a value not of its column's type.
    pub fn messages(&self, player: PlayerId) -> Result<Vec<String>> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut found: Vec<(i64, String)> = Vec::new();
        {
            let mut statement = tx.prepare(
                "SELECT id, text FROM messages WHERE player = ?1 AND seen = 0 ORDER BY id",
            )?;
            let mut rows = statement.query([player])?;
            while let Some(r) = rows.next()? {
                found.push((r.get(0)?, r.get(1)?));
            }
        }
        if let Some((last, _)) = found.last() {
            tx.execute(
                "UPDATE messages SET seen = 1 WHERE player = ?1 AND seen = 0 AND id <= ?2",
                rusqlite::params![player, *last],
            )?;
        }
        tx.commit()?;
        Ok(found.into_iter().map(|(_, text)| text).collect())
    }
}

/// The first column of the rows `sql` selects.
fn column<T: rusqlite::types::FromSql>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<T>> {
    let mut statement = conn.prepare(sql)?;
    let mut rows = statement.query(params)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(r.get(0)?);
    }
    Ok(out)
}

fn audit_rows(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<AuditRow>> {
    let mut statement = conn.prepare(sql)?;
    let mut rows = statement.query(params)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(AuditRow {
            id: r.get(0)?,
            at: r.get(1)?,
            who: r.get(2)?,
            what: r.get(3)?,
            whom: r.get(4)?,
            why: r.get(5)?,
        });
    }
    Ok(out)
}

/// Whether `player` holds `sanction`'s row.
fn holds(conn: &Connection, sanction: Sanction, player: PlayerId) -> Result<bool> {
    let sql = format!("SELECT player FROM {} WHERE player = ?1", sanction.table());
    Ok(conn
        .query_row(&sql, [player], |r| r.get::<_, i64>(0))
        .optional()?
        .is_some())
}

fn named(conn: &Connection, name: &str) -> Result<Option<Named>> {
    Ok(conn
        .query_row(
            "SELECT id, name FROM players WHERE lower(name) = lower(?1)",
            [name],
            |r| {
                Ok(Named {
                    id: r.get(0)?,
                    name: r.get(1)?,
                })
            },
        )
        .optional()?)
}

impl Read for PlayerNamed {
    fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        let Some(p) = named(tx, &self.name)? else {
            return Ok(None);
        };
        let holds = match self.holding {
            Some(sanction) => holds(tx, sanction, p.id)?,
            None => false,
        };
        Ok(Some((p, holds)))
    }
}

impl Read for GameOver {
    fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        Ok(tx
            .query_row("SELECT result FROM games WHERE id = ?1", [self.0], |r| {
                r.get::<_, Option<String>>(0)
            })
            .optional()?
            .map(|result| result.is_some()))
    }
}

impl Read for TournamentStatus {
    fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        let word: Option<String> = tx
            .query_row(
                "SELECT status FROM tournaments WHERE id = ?1",
                [self.0],
                |r| r.get(0),
            )
            .optional()?;
        word.map(|word| crate::store::ledger::status_of(self.0, &word))
            .transpose()
    }
}

impl Read for ChallengeOpen {
    fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        Ok(tx
            .query_row("SELECT open FROM challenges WHERE id = ?1", [self.0], |r| {
                r.get::<_, bool>(0)
            })
            .optional()?
            .unwrap_or(false))
    }
}

impl Read for AuditTail {
    fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        audit_rows(
            tx,
            "SELECT id, at, who, what, whom, why FROM
                 (SELECT id, at, who, what, whom, why FROM audit ORDER BY id DESC LIMIT ?1)
             ORDER BY id",
            [self.0],
        )
    }
}

/// Whether an operator took `name` from a player and has not freed it.
fn held(tx: &Transaction<'_>, name: &str) -> Result<bool> {
    let last: Option<String> = tx.query_row(HELD, [name], |r| r.get(0)).optional()?;
    Ok(last.as_deref() == Some("rename"))
}

impl Read for NameHeld {
    fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        held(tx, &self.0)
    }
}

impl Read for NameFree {
    fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        Ok(NameFacts {
            taken: named(tx, &self.name)?.is_some(),
            held: held(tx, &self.name)?,
            old: tx
                .query_row(
                    "SELECT old FROM renames WHERE player = ?1",
                    [self.player],
                    |r| r.get(0),
                )
                .optional()?,
        })
    }
}

impl Read for PlayerList {
    fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        let mut players: Vec<(PlayerId, String, String)> = Vec::new();
        let keep = |r: &rusqlite::Row<'_>| -> rusqlite::Result<(PlayerId, String, String)> {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        };
        match &self.name {
            Some(name) => {
                let Some(p) = named(tx, name)? else {
                    return Ok(None);
                };
                players.push(tx.query_row(
                    "SELECT id, name, key FROM players WHERE id = ?1",
                    [p.id],
                    keep,
                )?);
            }
            None => {
                let mut statement =
                    tx.prepare("SELECT id, name, key FROM players ORDER BY id DESC LIMIT ?1")?;
                let mut rows = statement.query([self.most])?;
                while let Some(r) = rows.next()? {
                    players.push(keep(r)?);
                }
            }
        }
        let mut out = Vec::with_capacity(players.len());
        for (id, name, key) in players {
            out.push(facts_of(tx, id, name, key, self.name.is_some())?);
        }
        Ok(Some(out))
    }
}

/// What `players` says of one player; with the others of their addresses when `others`.
fn facts_of(
    conn: &Connection,
    id: PlayerId,
    name: String,
    key: String,
    others: bool,
) -> Result<PlayerFacts> {
    let count = |sql: &str| -> Result<i64> { Ok(conn.query_row(sql, [id], |r| r.get(0))?) };
    let games = count("SELECT COUNT(*) FROM games WHERE player1 = ?1 OR player2 = ?1")?;
    let aborts = count(
        "SELECT COUNT(*) FROM games WHERE (player1 = ?1 OR player2 = ?1) AND result = 'aborted'",
    )?;
    let ban = conn
        .query_row("SELECT ends FROM bans WHERE player = ?1", [id], |r| {
            r.get::<_, Option<Moment>>(0)
        })
        .optional()?;
    let addresses: Vec<String> = column(
        conn,
        "SELECT address, MAX(at) AS last FROM logins WHERE key = ?1
         GROUP BY address ORDER BY last DESC LIMIT 5",
        [key.as_str()],
    )?;
    let mut seen = Vec::new();
    if others {
        for address in &addresses {
            seen.extend(column::<String>(
                conn,
                "SELECT DISTINCT p.name FROM logins l JOIN players p ON p.key = l.key
                 WHERE l.address = ?1 AND p.id <> ?2 ORDER BY p.name",
                rusqlite::params![address, id],
            )?);
        }
    }
    Ok(PlayerFacts {
        id,
        games,
        aborts,
        operator: holds(conn, Sanction::Operator, id)?,
        marked: holds(conn, Sanction::Mark, id)?,
        renamed: conn
            .query_row("SELECT player FROM renames WHERE player = ?1", [id], |r| {
                r.get::<_, i64>(0)
            })
            .optional()?
            .is_some(),
        ban,
        addresses,
        others: seen,
        name,
        key,
    })
}

/// Makes `w` in `tx`.
fn write(tx: &Transaction<'_>, w: &Write) -> Result<()> {
    for sql in crate::store::ledger::statements(w) {
        crate::store::sqlite::changes::run(tx, &sql)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
