//! The processes' notifications on PostgreSQL: sent on the channel [`CHANNEL`] (inside a
//! change's transaction, delivered on its commit, or on their own), heard on a connection of
//! their own (LISTEN), and what a process reads to catch up with everything at once. What the
//! notes say is `crates/quentin-server/src/note.rs`'s; what the cluster does with them is
//! `crates/quentin-server/src/cluster/follow.rs`'s.

use std::time::Instant;

use anyhow::Result;
use tokio_postgres::{AsyncMessage, Client, GenericClient, NoTls};

use crate::ids::{ChallengeId, GameId, PlayerId};
use crate::note::Note;

use super::CHANNEL;

/// Tells the other processes `note`, from `process`: at the commit when `client` is in a
/// transaction.
///
/// # Errors
/// A database that cannot be reached.
pub async fn notify(client: &impl GenericClient, process: &str, note: &Note) -> Result<()> {
    client
        .execute(
            "SELECT pg_notify($1, $2)",
            &[&CHANNEL, &note.payload(process)],
        )
        .await?;
    Ok(())
}

/// Sends the notifications `payloads` (notes' payloads) in one statement.
///
/// # Errors
/// A database that cannot be reached.
pub async fn notify_all(client: &impl GenericClient, payloads: &[String]) -> Result<()> {
    client
        .execute(
            "SELECT pg_notify($1, note) FROM unnest($2::TEXT[]) AS note",
            &[&CHANNEL, &payloads],
        )
        .await?;
    Ok(())
}

/// A listening connection made as `config` says: each notification's payload goes to `heard`,
/// with when it came, until the connection ends (then its task ends). The client given back
/// keeps the connection open.
///
/// # Errors
/// A database that cannot be reached.
pub async fn listen(
    config: &tokio_postgres::Config,
    heard: impl Fn(String, Instant) + Send + 'static,
) -> Result<(tokio::task::JoinHandle<()>, Client)> {
    let (client, mut connection) = config.connect(NoTls).await?;
    let task = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    heard(n.payload().to_string(), Instant::now());
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::error!("the database's notifications: {e}");
                    return;
                }
                None => return,
            }
        }
    });
    client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
    Ok((task, client))
}

/// The numbers of everything there is, for a process that reads everything again.
#[derive(Debug, Default)]
pub struct Everything {
    /// Every player.
    pub players: Vec<PlayerId>,
    /// The open challenges.
    pub challenges: Vec<ChallengeId>,
    /// Every game.
    pub games: Vec<GameId>,
    /// Every tournament.
    pub tournaments: Vec<crate::tournament::TournamentId>,
    /// Each leased game and its owner.
    pub owners: Vec<(GameId, String)>,
}

/// The numbers of everything there is.
///
/// # Errors
/// A database that cannot be reached.
pub async fn everything(client: &impl GenericClient) -> Result<Everything> {
    let ids = async |sql: &str| -> Result<Vec<i64>> {
        Ok(client
            .query(sql, &[])
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect())
    };
    Ok(Everything {
        players: ids("SELECT id FROM players")
            .await?
            .into_iter()
            .map(PlayerId)
            .collect(),
        challenges: ids("SELECT id FROM challenges WHERE open")
            .await?
            .into_iter()
            .map(ChallengeId)
            .collect(),
        games: ids("SELECT id FROM games")
            .await?
            .into_iter()
            .map(GameId)
            .collect(),
        tournaments: ids("SELECT id FROM tournaments")
            .await?
            .into_iter()
            .map(crate::tournament::TournamentId)
            .collect(),
        owners: owners(client).await?,
    })
}

/// Who owns what: each leased game and its owner.
///
/// # Errors
/// A database that cannot be reached.
pub async fn owners(client: &impl GenericClient) -> Result<Vec<(GameId, String)>> {
    Ok(client
        .query("SELECT game, process FROM owners", &[])
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect())
}
