//! `quentin serve admin WORDS...`: the host's orders, against the store itself (the SQLite file
//! in the data directory, or the PostgreSQL database), whether the server runs or not. The
//! words are the operators' (and `op NAME`, `deop NAME`); the audit log says `host` did it. A
//! running server reads the order within a second; a stopped one at its start.

use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};

use super::super::store::Sqlite;
use super::super::store::postgres::{self, Postgres};
use super::ledger::HOST;
use super::{Ledger, Order};

/// Carries out the order of `words` on the store of `data` (`DIR/server.db`) or of
/// `database`: what to print (the answer's lines).
///
/// # Errors
/// Words that are no order, a store that cannot be opened, or the order refused (its reason).
pub fn admin(data: &Path, database: Option<&str>, words: &[String]) -> Result<String> {
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let order = Order::parse(&words).map_err(|why| anyhow!(why))?;
    let now = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .context("the machine's clock is before 1970")?
            .as_millis(),
    )?;
    let answer = match database {
        None => {
            let path = data.join("server.db");
            if !path.exists() {
                bail!(
                    "no store at {}: give the server's --data DIR, or --database URL",
                    path.display()
                );
            }
            // Opened once as the server opens it: checked, and brought to this version.
            drop(Sqlite::open(&path)?);
            Ledger::sqlite(&path)?.order_now(HOST, &order, now)?
        }
        Some(url) => {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .context("cannot start a runtime for the database")?;
            let what = postgres::shown_url(url);
            let pool = runtime.block_on(async {
                let config = postgres::config(url, "admin")?;
                let pool = postgres::pool(config, 2).await?;
                drop(Postgres::open(pool.clone(), "admin", &what).await?);
                Ok::<_, anyhow::Error>(pool)
            })?;
            Ledger::postgres(pool, runtime.handle().clone()).order_now(HOST, &order, now)?
        }
    };
    answer.map_err(|why| anyhow!(why))
}
