//! Committing changes on PostgreSQL: each change in a transaction of its own, with the lease
//! of its game checked inside it and its notifications sent on commit. A game's change is
//! carried out in `changes.rs`, a tournament's in `tournaments.rs`, a puzzle's in `puzzles.rs`.

use anyhow::Result;
use deadpool_postgres::Pool;
use tokio_postgres::Transaction;

use crate::store::{Applied, Change, StoreDown};

use super::changes::{Outcome, planned};
use super::{pool_error, relay};

/// Applies one change in `tx`: its outcome, and what to tell the other processes.
async fn apply(tx: &Transaction<'_>, process: &str, change: &Change) -> Result<Outcome> {
    match change {
        Change::AddPuzzles(rows) => Ok((super::puzzles::add(tx, rows).await?, Vec::new())),
        Change::Attempt(attempt) => Ok((super::puzzles::attempt(tx, attempt).await?, Vec::new())),
        Change::Tournament(change) => super::tournaments::apply(tx, process, change).await,
        change => planned(tx, process, change).await,
    }
}

/// One change in a transaction of its own, with its notifications. A database that cannot be
/// reached (no connection, one lost, the pool's wait over) fails it with [`StoreDown`].
pub(super) async fn commit_one(pool: &Pool, process: &str, change: &Change) -> Result<Applied> {
    let committed = async {
        let mut client = pool
            .get()
            .await
            .map_err(|e| StoreDown(format!("{:#}", pool_error(&e))))?;
        commit_on(&mut client, process, change).await
    };
    committed.await.map_err(down)
}

/// An error of the database's connection (closed, lost, not the database's own verdict on a
/// statement) as [`StoreDown`]; any other as it is.
pub(super) fn down(e: anyhow::Error) -> anyhow::Error {
    let lost = e
        .downcast_ref::<tokio_postgres::Error>()
        .is_some_and(|e| e.is_closed() || e.as_db_error().is_none());
    if lost {
        StoreDown(format!("{e:#}")).into()
    } else {
        e
    }
}

async fn commit_on(
    client: &mut deadpool_postgres::Object,
    process: &str,
    change: &Change,
) -> Result<Applied> {
    let tx = client.transaction().await?;
    let (applied, notes) = apply(&tx, process, change).await?;
    for note in notes {
        relay::notify(&*tx, process, &note).await?;
    }
    tx.commit().await?;
    Ok(applied)
}
