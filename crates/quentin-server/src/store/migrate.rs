//! `quentin serve migrate --from DIR/server.db --to URL`: a community moves from its SQLite
//! store to a PostgreSQL database, every row as it is (numbers, times, the games' moves, the
//! moderation's sanctions and audit log, the tournaments, the messages), in one transaction;
//! then the rows of each table are counted on both sides.

use std::path::Path;

use anyhow::{Context as _, Result, bail};
use rusqlite::{Connection, OpenFlags};

use super::Sqlite;
use super::postgres::{self, Postgres, UNBOUNDED};
use super::tables::{self, Kind};
use crate::report::say;

/// The tables copied are those [`tables::copied`] gives, in its order (the players before
/// what names them, the games before their moves and the tournaments' pairings, a tournament
/// before its entrants and pairings). Left out: `tournament_directors`, a lease (which process
/// directs a tournament, until when), not the community's: the SQLite server that held it is
/// stopped, and the first process on the database takes the direction from the rows as after
/// any director's death. PostgreSQL's own tables (`owners`, `processes`, `presence`) start
/// empty for the same reason.
/// The tables whose `id` PostgreSQL generates (`BIGSERIAL`): after the copy each sequence
/// goes on from the last number SQLite gave, so that the next player, challenge, audit row,
/// tournament, pairing or message gets a fresh one.
const NUMBERED: [&str; 6] = [
    "players",
    "challenges",
    "audit",
    "tournaments",
    "tournament_pairings",
    "messages",
];

/// Copies the store `from` into the database `to`, which must hold none of a community's rows
/// yet (no players, challenges, games, sanctions, audit log, tournaments or messages).
///
/// # Errors
/// A store that cannot be read or is in use by a server, a database that cannot be reached or
/// is not empty, counts that differ after the copy (then nothing is kept).
pub fn migrate(from: &Path, to: &str) -> Result<()> {
    if !from.is_file() {
        bail!(
            "{} is not a server's store (a file DIR/server.db)",
            from.display()
        );
    }
    // Brings the file to the current version, and refuses what is not a store.
    drop(Sqlite::open(from)?);
    if let Some(dir) = from.parent() {
        let lock = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.join("lock"));
        if let Ok(lock) = lock
            && lock.try_lock().is_err()
        {
            bail!(
                "a quentin serve is running on {}: stop it first, so that nothing changes \
                 during the copy",
                dir.display()
            );
        }
    }
    let source = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .with_context(|| format!("cannot open {}", from.display()))?;
    let what = postgres::shown_url(to);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let counts = runtime.block_on(copy(&source, to, &what))?;
    for (table, n) in tables::copied().zip(counts) {
        say(format_args!("{}: {n} rows copied", table.name));
    }
    say(format_args!(
        "{} is copied into {what}: start the servers with --database",
        from.display()
    ));
    Ok(())
}

/// The rows inserted by one statement: a round trip to the database for each 500 rows rather
/// than each row (at most 15 columns: 7,500 parameters, under PostgreSQL's 65,535).
const BATCH: usize = 500;

/// A column's value as it crosses: SQLite's integers stand for PostgreSQL's booleans where
/// the table says so.
enum Value {
    Int(Option<i64>),
    Bool(bool),
    Real(f64),
    Text(Option<String>),
}

/// Each table's columns, and how each crosses ([`tables::TABLES`]).
fn columns(table: &str) -> &'static [(&'static str, Kind)] {
    tables::named(table).map_or(&[], |t| t.columns)
}

/// A table's columns, quoted, for a statement.
fn column_list(table: &str) -> String {
    let names: Vec<String> = columns(table)
        .iter()
        .map(|(c, _)| format!("\"{c}\""))
        .collect();
    names.join(", ")
}

/// The rows of a table that are the community's: `meta`'s `version` is each store's own (the
/// database keeps its own, never overwritten).
fn which_rows(table: &str) -> &'static str {
    if table == "meta" {
        " WHERE key <> 'version'"
    } else {
        ""
    }
}

fn read(source: &Connection, table: &str) -> Result<Vec<Vec<Value>>> {
    let cols = columns(table);
    let mut statement = source.prepare(&format!(
        "SELECT {} FROM {table}{}",
        column_list(table),
        which_rows(table)
    ))?;
    let mut rows = statement.query([])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let mut row = Vec::with_capacity(cols.len());
        for (i, (_, kind)) in cols.iter().enumerate() {
            row.push(match kind {
                Kind::Int => Value::Int(r.get(i)?),
                Kind::Bool => Value::Bool(r.get::<_, i64>(i)? != 0),
                Kind::Real => Value::Real(r.get(i)?),
                Kind::Text => Value::Text(r.get(i)?),
            });
        }
        out.push(row);
    }
    Ok(out)
}

/// The last number SQLite gave a row of `table` (0 when none): the highest `id`, or higher
/// still the one `sqlite_sequence` keeps for an `AUTOINCREMENT` table (a row given a number
/// and then rolled back or deleted), so that no number is given twice.
fn last_number(source: &Connection, table: &str) -> Result<i64> {
    // Every store has `sqlite_sequence`: its first step makes `challenges` AUTOINCREMENT.
    let last: Option<i64> = source.query_row(
        &format!(
            "SELECT max(n) FROM (SELECT max(id) AS n FROM {table}
                                 UNION ALL SELECT seq FROM sqlite_sequence WHERE name = ?1)"
        ),
        [table],
        |r| r.get(0),
    )?;
    Ok(last.unwrap_or(0))
}

/// The rows of `table` in the database (those [`which_rows`] names).
async fn count(tx: &tokio_postgres::Transaction<'_>, table: &str) -> Result<i64> {
    Ok(tx
        .query_one(
            &format!("SELECT count(*) FROM {table}{}", which_rows(table)),
            &[],
        )
        .await?
        .get(0))
}

async fn copy(source: &Connection, to: &str, what: &str) -> Result<Vec<i64>> {
    let pool = postgres::pool(postgres::config(to, "migrate")?, 2).await?;
    // Makes the tables, at the current version.
    drop(Postgres::open(pool.clone(), "migrate", what).await?);
    let mut client = pool.get().await.map_err(|e| postgres::pool_error(&e))?;
    let tx = client.transaction().await?;
    // One long transaction, which waits on the SQLite file between its statements: none of
    // the bounds meant for the servers' short ones (postgres::SESSION_BOUNDS).
    tx.batch_execute(UNBOUNDED).await?;
    // A community's rows already there would clash with the copied ones (the same numbers,
    // the same players). Not refused: `meta` (the database's version), the shipped puzzles a
    // server adds at its start, and `logins`, which a test login to a server started on the
    // empty database leaves (of a key, not a player; kept beside the copied ones).
    for table in tables::copied().map(|t| t.name) {
        if matches!(table, "meta" | "puzzles" | "logins") {
            continue;
        }
        let n = count(&tx, table).await?;
        if n > 0 {
            bail!("{what} already holds {table} ({n}): migrate into an empty database");
        }
    }
    // The shipped puzzles a server may have added at its start make way for the store's, with
    // their ratings (no attempt can be at them: the database has no players).
    tx.execute("DELETE FROM puzzles", &[]).await?;
    let mut counts = Vec::new();
    for table in tables::copied().map(|t| t.name) {
        counts.push(copy_table(&tx, source, table).await?);
    }
    // New rows number on from the copied ones.
    for table in NUMBERED {
        let last = last_number(source, table)
            .with_context(|| format!("cannot read the last number of {table}"))?;
        // setval(…, n, true): the next is n + 1; (…, 1, false): the next is 1.
        let (value, called) = if last > 0 { (last, true) } else { (1, false) };
        tx.execute(
            "SELECT setval(pg_get_serial_sequence($1, 'id'), $2, $3)",
            &[&table, &value, &called],
        )
        .await
        .with_context(|| format!("cannot number {table}'s next rows"))?;
    }
    tx.commit().await?;
    Ok(counts)
}

/// Copies `table`'s rows from `source` in `tx`, `BATCH` rows a statement: how many, checked
/// against the store's count.
async fn copy_table(
    tx: &tokio_postgres::Transaction<'_>,
    source: &Connection,
    table: &'static str,
) -> Result<i64> {
    let before = count(tx, table).await?;
    let rows = read(source, table).with_context(|| format!("cannot read {table}"))?;
    let conflict = if table == "meta" {
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    } else {
        ""
    };
    // The statement that inserts `n` rows at once.
    let insert = |n: usize| {
        let width = columns(table).len();
        let values: Vec<String> = (0..n)
            .map(|r| {
                let marks: Vec<String> =
                    (1..=width).map(|c| format!("${}", r * width + c)).collect();
                format!("({})", marks.join(", "))
            })
            .collect();
        format!(
            "INSERT INTO {table}({}) VALUES {}{conflict}",
            column_list(table),
            values.join(", ")
        )
    };
    let full = tx.prepare(&insert(BATCH)).await?;
    for chunk in rows.chunks(BATCH) {
        let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = chunk
            .iter()
            .flatten()
            .map(|v| match v {
                Value::Int(v) => v as &(dyn tokio_postgres::types::ToSql + Sync),
                Value::Bool(v) => v,
                Value::Real(v) => v,
                Value::Text(v) => v,
            })
            .collect();
        let statement = if chunk.len() == BATCH {
            full.clone()
        } else {
            tx.prepare(&insert(chunk.len())).await?
        };
        tx.execute(&statement, &params)
            .await
            .with_context(|| format!("cannot copy the rows of {table}"))?;
    }
    let source_count = rows.len() as i64;
    let copied = count(tx, table).await? - before;
    if copied != source_count {
        bail!(
            "{table}: {source_count} rows in the store, {copied} in the database: nothing is kept"
        );
    }
    Ok(copied)
}
