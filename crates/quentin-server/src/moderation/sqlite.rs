//! The ledger's transactions on the SQLite store: a connection of its own to the store's file
//! (WAL lets it read beside the hub's; writes take turns, waiting up to the busy timeout).

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use anyhow::{Context as _, Result};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};

use super::ledger::{Ledger, Store, Tx, Value};

/// The store's file, on the ledger's connection.
struct Sqlite(Mutex<Connection>);

impl Ledger {
    /// The ledger of the SQLite store at `path`, which must exist at the current version
    /// (opened by the store's `Sqlite::open` first).
    ///
    /// # Errors
    /// A file that cannot be opened.
    pub fn sqlite(path: &Path) -> Result<Ledger> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .with_context(|| format!("cannot open the store {}", path.display()))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.busy_timeout(Duration::from_secs(5))?;
        Ok(Ledger::new(Arc::new(Sqlite(Mutex::new(conn)))))
    }
}

/// A transaction on the ledger's connection, which it holds: rolled back when dropped
/// uncommitted.
struct SqliteTx<'a> {
    conn: MutexGuard<'a, Connection>,
    open: bool,
}

impl Store for Sqlite {
    fn begin(&self, write: bool) -> Result<Box<dyn Tx + '_>> {
        let conn = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // A write takes the lock at once (not upgraded from a read later, which SQLite may
        // refuse as busy); a read takes none.
        conn.execute_batch(if write { "BEGIN IMMEDIATE" } else { "BEGIN" })?;
        Ok(Box::new(SqliteTx { conn, open: true }))
    }
}

impl Drop for SqliteTx<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

fn params(values: &[Value]) -> Vec<rusqlite::types::Value> {
    values
        .iter()
        .map(|v| match v {
            Value::Int(n) => rusqlite::types::Value::Integer(*n),
            Value::Text(t) => rusqlite::types::Value::Text(t.clone()),
            Value::Null => rusqlite::types::Value::Null,
        })
        .collect()
}

impl Tx for SqliteTx<'_> {
    fn query(&mut self, sql: &str, values: &[Value]) -> Result<Vec<Vec<Value>>> {
        let mut statement = self.conn.prepare(sql)?;
        let columns = statement.column_count();
        let mut rows = statement.query(rusqlite::params_from_iter(params(values)))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let mut values = Vec::with_capacity(columns);
            for i in 0..columns {
                values.push(match row.get_ref(i)? {
                    ValueRef::Integer(n) => Value::Int(n),
                    ValueRef::Real(x) => Value::Int(x as i64),
                    ValueRef::Text(t) | ValueRef::Blob(t) => {
                        Value::Text(String::from_utf8_lossy(t).into_owned())
                    }
                    ValueRef::Null => Value::Null,
                });
            }
            out.push(values);
        }
        Ok(out)
    }

    fn execute(&mut self, sql: &str, values: &[Value]) -> Result<u64> {
        Ok(self
            .conn
            .execute(sql, rusqlite::params_from_iter(params(values)))? as u64)
    }

    fn commit(mut self: Box<Self>) -> Result<()> {
        self.conn.execute_batch("COMMIT")?;
        self.open = false;
        Ok(())
    }
}
