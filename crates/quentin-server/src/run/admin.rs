//! `quentin serve admin WORDS...`: the host's orders, against the store itself (the SQLite file
//! in the data directory, or the PostgreSQL database), whether the server runs or not. The
//! words are the operators' (and `op NAME`, `deop NAME`); the audit log says `host` did it. A
//! running server reads the order within a second; a stopped one at its start. Besides the
//! orders, `tournaments` and `tournament ID` print the tournaments' tables from the store's
//! rows, as the bot protocol's words of the same names do.

use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};

use crate::bot::tournament;
use crate::hub::Hub;
use crate::ids::Moment;
use crate::moderation::ledger::HOST;
use crate::moderation::{Ledger, Order, OrderRefusal};
use crate::present::tournament_summary;
use crate::store::Sqlite;
use crate::store::postgres::{self, Postgres};
use crate::tournament::TournamentId;

/// Carries out the order of `words` on the store of `data` (`DIR/server.db`) or of
/// `database`: what to print (the answer's lines).
///
/// # Errors
/// Words that are no order, a store that cannot be opened, or the order refused (its reason).
pub fn admin(data: &Path, database: Option<&str>, words: &[String]) -> Result<String> {
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let now = Moment(i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .context("the machine's clock is before 1970")?
            .as_millis(),
    )?);
    // The tournaments' tables, as the bot protocol's `tournaments` and `tournament ID`.
    let table = match words.as_slice() {
        ["tournaments"] => Some(None),
        ["tournament", id] => Some(Some(TournamentId::parse(id).ok_or_else(|| {
            anyhow!(
                "{}",
                crate::moderation::Usage::BadTournament((*id).to_string())
            )
        })?)),
        _ => None,
    };
    let order = match table {
        Some(_) => None,
        None => Some(Order::parse(&words).map_err(|usage| anyhow!("{usage}"))?),
    };
    // What the order did, printed when its answer says nothing: the host sees it was done.
    let done = order.as_ref().map(Order::done);
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
            let store = Sqlite::open(&path)?;
            match (order, table) {
                (Some(order), _) => {
                    drop(store);
                    let ledger = Ledger::sqlite(&path)?;
                    // The ledger's calls on SQLite run on a thread that may wait: a runtime
                    // of this command's own lends it one.
                    runtime()?.block_on(ledger.order(HOST, &order, now))?
                }
                (None, table) => tournaments(Hub::read_only(store, now)?, table.flatten(), now),
            }
        }
        Some(url) => {
            let runtime = runtime()?;
            let what = postgres::shown_url(url);
            let (pool, store) = runtime.block_on(async {
                let config = postgres::config(url, "admin")?;
                let pool = postgres::pool(config, 2).await?;
                let store = Postgres::open(pool.clone(), "admin", &what).await?;
                Ok::<_, anyhow::Error>((pool, store))
            })?;
            match (order, table) {
                (Some(order), _) => {
                    drop(store);
                    runtime.block_on(Ledger::postgres(pool).order(HOST, &order, now))?
                }
                (None, table) => tournaments(
                    runtime.block_on(Hub::read_only_postgres(store, now))?,
                    table.flatten(),
                    now,
                ),
            }
        }
    };
    match (answer.map_err(|why| anyhow!("{why}"))?, done) {
        (said, Some(done)) if said.is_empty() => Ok(done),
        (said, _) => Ok(said),
    }
}

/// A runtime for this command's calls to the store (no server's runtime runs it).
fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("cannot start a runtime for the store")
}

/// `tournaments` (with no `id`) or `tournament ID`, as the bot protocol answers them, from
/// the store's rows.
fn tournaments(hub: Hub, id: Option<TournamentId>, now: Moment) -> Result<String, OrderRefusal> {
    match id {
        None => Ok(hub
            .tournaments(now)
            .iter()
            .map(tournament_summary)
            .collect::<Vec<_>>()
            .join("\n")),
        Some(id) => hub
            .tournament(id, now)
            .map(|view| tournament::lines(&view).join("\n"))
            .ok_or(OrderRefusal::NoTournament(id)),
    }
}
