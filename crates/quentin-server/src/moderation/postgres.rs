//! The ledger's transactions on the PostgreSQL store: a connection of the process's pool,
//! driven from a thread that may wait (the ledger's calls run on tokio's blocking threads, or
//! on `quentin serve admin`'s own).

use std::sync::Arc;

use anyhow::Result;
use deadpool_postgres::{Object, Pool};
use tokio::runtime::Handle;
use tokio_postgres::types::{ToSql, Type};

use super::super::store::postgres::pool_error;
use super::ledger::{Ledger, Store, Tx, Value};

/// The database, through the process's pool.
struct Postgres {
    pool: Pool,
    handle: Handle,
}

impl Ledger {
    /// The ledger of the PostgreSQL store of `pool`, already at the current version; its
    /// calls wait on `handle`'s runtime.
    #[must_use]
    pub fn postgres(pool: Pool, handle: Handle) -> Ledger {
        Ledger::new(Arc::new(Postgres { pool, handle }))
    }
}

/// A transaction on one of the pool's connections: rolled back when dropped uncommitted.
struct PgTx {
    client: Object,
    handle: Handle,
    open: bool,
}

impl Store for Postgres {
    fn begin(&self, _write: bool) -> Result<Box<dyn Tx + '_>> {
        let client = self
            .handle
            .block_on(self.pool.get())
            .map_err(|e| pool_error(&e))?;
        self.handle.block_on(client.batch_execute("BEGIN"))?;
        Ok(Box::new(PgTx {
            client,
            handle: self.handle.clone(),
            open: true,
        }))
    }
}

impl Drop for PgTx {
    fn drop(&mut self) {
        if self.open {
            let _ = self.handle.block_on(self.client.batch_execute("ROLLBACK"));
        }
    }
}

fn params(values: &[Value]) -> Vec<Box<dyn ToSql + Sync + Send>> {
    values
        .iter()
        .map(|v| -> Box<dyn ToSql + Sync + Send> {
            match v {
                Value::Int(n) => Box::new(*n),
                Value::Text(t) => Box::new(t.clone()),
                Value::Null => Box::new(None::<i64>),
            }
        })
        .collect()
}

impl Tx for PgTx {
    fn query(&mut self, sql: &str, values: &[Value]) -> Result<Vec<Vec<Value>>> {
        let owned = params(values);
        let refs: Vec<&(dyn ToSql + Sync)> = owned
            .iter()
            .map(|p| p.as_ref() as &(dyn ToSql + Sync))
            .collect();
        let rows = self.handle.block_on(self.client.query(sql, &refs))?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let mut values = Vec::with_capacity(row.len());
            for (i, column) in row.columns().iter().enumerate() {
                let t = column.type_();
                values.push(if *t == Type::INT8 {
                    row.try_get::<_, Option<i64>>(i)?
                        .map_or(Value::Null, Value::Int)
                } else if *t == Type::INT4 {
                    row.try_get::<_, Option<i32>>(i)?
                        .map_or(Value::Null, |n| Value::Int(n.into()))
                } else if *t == Type::BOOL {
                    row.try_get::<_, Option<bool>>(i)?
                        .map_or(Value::Null, |b| Value::Int(b.into()))
                } else {
                    row.try_get::<_, Option<String>>(i)?
                        .map_or(Value::Null, Value::Text)
                });
            }
            out.push(values);
        }
        Ok(out)
    }

    fn execute(&mut self, sql: &str, values: &[Value]) -> Result<u64> {
        let owned = params(values);
        let refs: Vec<&(dyn ToSql + Sync)> = owned
            .iter()
            .map(|p| p.as_ref() as &(dyn ToSql + Sync))
            .collect();
        Ok(self.handle.block_on(self.client.execute(sql, &refs))?)
    }

    fn commit(mut self: Box<Self>) -> Result<()> {
        self.handle.block_on(self.client.batch_execute("COMMIT"))?;
        self.open = false;
        Ok(())
    }
}
