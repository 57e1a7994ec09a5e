//! The moderation ledger's statements on PostgreSQL ([`crate::store::ledger`]): each call
//! awaits a client of the process's pool, no thread waiting in between. An order's rows that
//! it decides on (a sanction's row, a challenge) are locked when read, until it commits.

use std::future::Future;

use anyhow::Result;
use deadpool_postgres::{Object, Pool};
use tokio_postgres::{IsolationLevel, Row, Transaction};

use super::pool_error;
use crate::ids::{Moment, PlayerId};
use crate::store::ledger::{
    AuditRow, AuditTail, BanRow, ChallengeOpen, Decision, GameOver, HELD, HOLDS, NameFacts,
    NameFree, NameHeld, Named, Need, PlayerFacts, PlayerList, PlayerNamed, Sanction, SanctionRows,
    TournamentStatus, Write,
};

/// A [`Need`] read on PostgreSQL.
pub trait Read: Need {
    /// The facts, read in `tx`.
    ///
    /// # Errors
    /// A failing database, or a value not of its column's type.
    fn read(&self, tx: &Transaction<'_>) -> impl Future<Output = Result<Self::Facts>> + Send;
}

async fn client(pool: &Pool) -> Result<Object> {
    pool.get().await.map_err(|e| pool_error(&e))
}

/// Reads what `need` asks, lets `decide` decide, and makes its writes: one transaction,
/// committed only when `decide` did not refuse.
///
/// # Errors
/// A failing database: nothing is kept.
pub async fn carry_out<N: Read, T, R>(
    pool: &Pool,
    need: &N,
    decide: impl FnOnce(N::Facts) -> Decision<T, R>,
) -> Result<Result<T, R>> {
    let mut client = client(pool).await?;
    let tx = client.transaction().await?;
    let facts = need.read(&tx).await?;
    match decide(facts) {
        Err(why) => {
            tx.rollback().await?;
            Ok(Err(why))
        }
        Ok(plan) => {
            for w in &plan.writes {
                write(&tx, w).await?;
            }
            tx.commit().await?;
            Ok(Ok(plan.answer))
        }
    }
}

/// The sanctions' rows, read together (one snapshot of the database).
///
/// # Errors
/// A failing database, or a value not of its column's type.
pub async fn sanctions(pool: &Pool) -> Result<SanctionRows> {
    let mut client = client(pool).await?;
    let tx = client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?;
    let mut bans = Vec::new();
    for r in tx
        .query("SELECT player, reason, ends FROM bans", &[])
        .await?
    {
        bans.push(BanRow {
            player: r.try_get(0)?,
            reason: r.try_get(1)?,
            ends: r.try_get(2)?,
        });
    }
    let rows = SanctionRows {
        bans,
        marked: column(&tx, "SELECT player FROM marks", &[]).await?,
        renamed: column(&tx, "SELECT player FROM renames", &[]).await?,
        operators: column(&tx, "SELECT player FROM operators", &[]).await?,
        aborted: column(&tx, "SELECT whom FROM audit WHERE what = 'abort'", &[]).await?,
        cancelled: column(&tx, "SELECT whom FROM audit WHERE what = 'cancel'", &[]).await?,
        held: tx
            .query(HOLDS, &[])
            .await?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_>>()?,
        last: tx
            .query_one("SELECT COALESCE(MAX(id), 0) FROM audit", &[])
            .await?
            .try_get(0)?,
    };
    tx.commit().await?;
    Ok(rows)
}

/// The rows of the audit log after number `last`, in order.
///
/// # Errors
/// A failing database, or a value not of its column's type.
pub async fn since(pool: &Pool, last: i64) -> Result<Vec<AuditRow>> {
    let client = client(pool).await?;
    client
        .query(
            "SELECT id, at, who, what, whom, why FROM audit WHERE id > $1 ORDER BY id",
            &[&last],
        )
        .await?
        .iter()
        .map(audit_row)
        .collect()
}

/// Deletes the logins kept from before `before`: how many.
///
/// # Errors
/// A failing database.
pub async fn prune_logins(pool: &Pool, before: Moment) -> Result<u64> {
    Ok(client(pool)
        .await?
        .execute("DELETE FROM logins WHERE at < $1", &[&before])
        .await?)
}

/// Keeps a login of `key` from `address` at `at`.
///
/// # Errors
/// A failing database.
pub async fn login(pool: &Pool, key: &str, address: &str, at: Moment) -> Result<()> {
    client(pool)
        .await?
        .execute(
            "INSERT INTO logins(key, address, at) VALUES ($1, $2, $3)",
            &[&key, &address, &at],
        )
        .await?;
    Ok(())
}

/// The messages `player` has not seen yet, oldest first, now marked seen.
///
/// # Errors
/// A failing database, or a value not of its column's type.
pub async fn messages(pool: &Pool, player: PlayerId) -> Result<Vec<String>> {
    let mut client = client(pool).await?;
    let tx = client.transaction().await?;
    let mut found: Vec<(i64, String)> = Vec::new();
    for r in tx
        .query(
            "SELECT id, text FROM messages WHERE player = $1 AND seen = 0 ORDER BY id",
            &[&player],
        )
        .await?
    {
        found.push((r.try_get(0)?, r.try_get(1)?));
    }
    if let Some((last, _)) = found.last() {
        tx.execute(
            "UPDATE messages SET seen = 1 WHERE player = $1 AND seen = 0 AND id <= $2",
            &[&player, last],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(found.into_iter().map(|(_, text)| text).collect())
}

/// The first column of the rows `sql` selects.
async fn column<T>(
    tx: &Transaction<'_>,
    sql: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<Vec<T>>
where
    T: for<'a> tokio_postgres::types::FromSql<'a>,
{
    tx.query(sql, params)
        .await?
        .iter()
        .map(|r| Ok(r.try_get(0)?))
        .collect()
}

fn audit_row(r: &Row) -> Result<AuditRow> {
    Ok(AuditRow {
        id: r.try_get(0)?,
        at: r.try_get(1)?,
        who: r.try_get(2)?,
        what: r.try_get(3)?,
        whom: r.try_get(4)?,
        why: r.try_get(5)?,
    })
}

/// Whether `player` holds `sanction`'s row; locked until the transaction ends when `lock`.
async fn holds(
    tx: &Transaction<'_>,
    sanction: Sanction,
    player: PlayerId,
    lock: bool,
) -> Result<bool> {
    let sql = format!(
        "SELECT player FROM {} WHERE player = $1{}",
        sanction.table(),
        if lock { " FOR UPDATE" } else { "" }
    );
    Ok(tx.query_opt(&sql, &[&player]).await?.is_some())
}

async fn named(tx: &Transaction<'_>, name: &str) -> Result<Option<Named>> {
    match tx
        .query_opt(
            "SELECT id, name FROM players WHERE lower(name) = lower($1)",
            &[&name],
        )
        .await?
    {
        None => Ok(None),
        Some(r) => Ok(Some(Named {
            id: r.try_get(0)?,
            name: r.try_get(1)?,
        })),
    }
}

impl Read for PlayerNamed {
    async fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        let Some(p) = named(tx, &self.name).await? else {
            return Ok(None);
        };
        let holds = match self.holding {
            Some(sanction) => holds(tx, sanction, p.id, true).await?,
            None => false,
        };
        Ok(Some((p, holds)))
    }
}

impl Read for GameOver {
    async fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        match tx
            .query_opt("SELECT result FROM games WHERE id = $1", &[&self.0])
            .await?
        {
            None => Ok(None),
            Some(r) => Ok(Some(r.try_get::<_, Option<String>>(0)?.is_some())),
        }
    }
}

impl Read for TournamentStatus {
    async fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        match tx
            .query_opt("SELECT status FROM tournaments WHERE id = $1", &[&self.0])
            .await?
        {
            None => Ok(None),
            Some(r) => Ok(Some(crate::store::ledger::status_of(
                self.0,
                &r.try_get::<_, String>(0)?,
            )?)),
        }
    }
}

impl Read for ChallengeOpen {
    async fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        match tx
            .query_opt(
                "SELECT open FROM challenges WHERE id = $1 FOR UPDATE",
                &[&self.0],
            )
            .await?
        {
            None => Ok(false),
            Some(r) => Ok(r.try_get(0)?),
        }
    }
}

impl Read for AuditTail {
    async fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        tx.query(
            "SELECT id, at, who, what, whom, why FROM
                 (SELECT id, at, who, what, whom, why FROM audit ORDER BY id DESC LIMIT $1) AS last
             ORDER BY id",
            &[&self.0],
        )
        .await?
        .iter()
        .map(audit_row)
        .collect()
    }
}

/// Whether an operator took `name` from a player and has not freed it.
async fn held(tx: &Transaction<'_>, name: &str) -> Result<bool> {
    let last: Option<String> = match tx.query_opt(&HELD.replace("?1", "$1"), &[&name]).await? {
        None => None,
        Some(r) => Some(r.try_get(0)?),
    };
    Ok(last.as_deref() == Some("rename"))
}

impl Read for NameHeld {
    async fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        held(tx, &self.0).await
    }
}

impl Read for NameFree {
    async fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        let old = match tx
            .query_opt("SELECT old FROM renames WHERE player = $1", &[&self.player])
            .await?
        {
            None => None,
            Some(r) => Some(r.try_get(0)?),
        };
        Ok(NameFacts {
            taken: named(tx, &self.name).await?.is_some(),
            held: held(tx, &self.name).await?,
            old,
        })
    }
}

impl Read for PlayerList {
    async fn read(&self, tx: &Transaction<'_>) -> Result<Self::Facts> {
        let rows = match &self.name {
            Some(name) => {
                let Some(p) = named(tx, name).await? else {
                    return Ok(None);
                };
                tx.query("SELECT id, name, key FROM players WHERE id = $1", &[&p.id])
                    .await?
            }
            None => {
                tx.query(
                    "SELECT id, name, key FROM players ORDER BY id DESC LIMIT $1",
                    &[&self.most],
                )
                .await?
            }
        };
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let (id, name, key) = (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
            out.push(facts_of(tx, id, name, key, self.name.is_some()).await?);
        }
        Ok(Some(out))
    }
}

/// What `players` says of one player; with the others of their addresses when `others`.
async fn facts_of(
    tx: &Transaction<'_>,
    id: PlayerId,
    name: String,
    key: String,
    others: bool,
) -> Result<PlayerFacts> {
    let games: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM games WHERE player1 = $1 OR player2 = $1",
            &[&id],
        )
        .await?
        .try_get(0)?;
    let aborts: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM games WHERE (player1 = $1 OR player2 = $1)
             AND result = 'aborted'",
            &[&id],
        )
        .await?
        .try_get(0)?;
    let ban = match tx
        .query_opt("SELECT ends FROM bans WHERE player = $1", &[&id])
        .await?
    {
        None => None,
        Some(r) => Some(r.try_get::<_, Option<Moment>>(0)?),
    };
    let addresses: Vec<String> = column(
        tx,
        "SELECT address, MAX(at) AS last FROM logins WHERE key = $1
         GROUP BY address ORDER BY last DESC LIMIT 5",
        &[&key],
    )
    .await?;
    let mut seen = Vec::new();
    if others {
        for address in &addresses {
            seen.extend(
                column::<String>(
                    tx,
                    "SELECT DISTINCT p.name FROM logins l JOIN players p ON p.key = l.key
                     WHERE l.address = $1 AND p.id <> $2 ORDER BY p.name",
                    &[address, &id],
                )
                .await?,
            );
        }
    }
    let renamed = tx
        .query_opt("SELECT player FROM renames WHERE player = $1", &[&id])
        .await?
        .is_some();
    Ok(PlayerFacts {
        id,
        games,
        aborts,
        operator: holds(tx, Sanction::Operator, id, false).await?,
        marked: holds(tx, Sanction::Mark, id, false).await?,
        renamed,
        ban,
        addresses,
        others: seen,
        name,
        key,
    })
}

/// Makes `w` in `tx`.
async fn write(tx: &Transaction<'_>, w: &Write) -> Result<()> {
    for sql in crate::store::ledger::statements(w) {
        super::changes::run(tx, &sql).await?;
    }
    Ok(())
}
