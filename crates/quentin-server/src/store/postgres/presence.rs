//! Who is online on which process, on PostgreSQL (`presence`), and the forgetting of the
//! processes that died. The cluster (`crates/quentin-server/src/cluster/lease.rs`) writes it
//! when it changes and reads the others' when told.

use std::collections::HashMap;

use anyhow::Result;
use tokio_postgres::{Client, GenericClient};

use super::LEASE_MS;
use crate::ids::PlayerId;

/// Writes who is online on `process`: each player and their sessions there, in place of what
/// was written before.
///
/// # Errors
/// A database that cannot be reached.
pub async fn write(client: &mut Client, process: &str, here: &[(PlayerId, usize)]) -> Result<()> {
    let tx = client.transaction().await?;
    tx.execute("DELETE FROM presence WHERE process = $1", &[&process])
        .await?;
    let players: Vec<PlayerId> = here.iter().map(|(p, _)| *p).collect();
    let sessions: Vec<i64> = here.iter().map(|(_, n)| *n as i64).collect();
    tx.execute(
        "INSERT INTO presence(process, player, sessions)
         SELECT $1, player, n FROM unnest($2::BIGINT[], $3::BIGINT[]) AS t(player, n)",
        &[&process, &players, &sessions],
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The players online on processes other than `process`, and their sessions there.
///
/// # Errors
/// A database that cannot be reached.
pub async fn elsewhere(
    client: &impl GenericClient,
    process: &str,
) -> Result<HashMap<PlayerId, usize>> {
    let rows = client
        .query(
            "SELECT player, sum(sessions)::BIGINT FROM presence WHERE process <> $1
             GROUP BY player",
            &[&process],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| {
            (
                r.get::<_, PlayerId>(0),
                usize::try_from(r.get::<_, i64>(1)).unwrap_or(0),
            )
        })
        .filter(|(_, n)| *n > 0)
        .collect())
}

/// Forgets who was online on the processes whose lease ran out, and the processes long dead:
/// how many players' presence went.
///
/// # Errors
/// A database that cannot be reached.
pub async fn clear_the_dead(client: &impl GenericClient) -> Result<u64> {
    let gone = client
        .execute(
            "DELETE FROM presence WHERE process NOT IN
                 (SELECT id FROM processes WHERE expires >= quentin_now())",
            &[],
        )
        .await?;
    client
        .execute(
            "DELETE FROM processes WHERE expires < quentin_now() - $1",
            &[&LEASE_MS],
        )
        .await?;
    Ok(gone)
}
