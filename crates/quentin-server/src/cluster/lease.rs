//! Each second: this process says it is alive and renews the leases on its games, reads who
//! owns what, takes over the games whose owner's lease ran out, and clears the presence of the
//! processes that died. Now and then it measures how far the database's clock is from its own,
//! so that every process reads the one time of the database. And it writes who is online here
//! whenever that changes.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;

use super::{Cluster, lock};
use crate::context::Context;
use crate::hub::Peers as _;
use crate::ids::{GameId, Millis};
use crate::note::Note;
use crate::store::postgres::{self as pg, Own, pool_error};

/// Seconds between two measures of the clocks' skew.
const SKEW_EVERY: u32 = 30;

/// Measures how far the database's clock is ahead of this machine's (half a round trip's
/// error at most) and sets the server's clock by it.
///
/// # Errors
/// A database that cannot be reached.
pub(super) async fn measure_skew(cluster: &Cluster, ctx: &Context) -> Result<()> {
    let client = cluster.pool.get().await.map_err(|e| pool_error(&e))?;
    let mut best: Option<(Millis, Millis)> = None;
    for _ in 0..3 {
        let before = ctx.clock.local();
        let db = pg::lease::now(&**client).await?;
        let after = ctx.clock.local();
        let trip = after - before;
        if best.is_none_or(|(t, _)| trip < t) {
            // The database's time at the middle of the trip, against this machine's.
            best = Some((trip, db - (before + trip.half())));
        }
    }
    if let Some((_, skew)) = best {
        ctx.clock.set_skew(skew);
    }
    Ok(())
}

/// How long one round of renewals may take before its connection is given up and made again
/// (a database gone without a word).
const RENEWAL_WAIT: Duration = Duration::from_millis(2_000);

/// Says this process is alive and renews its leases that have not run out, on the renewals'
/// own connection. A lease that ran out is not renewed: the game is taken over, by another
/// process or by this one, and the takeover charges nobody for the time the lease was out
/// (a frozen process, a database that could not be reached).
///
/// # Errors
/// A database that cannot be reached.
pub(super) async fn renew(cluster: &Cluster, own: &mut Own) -> Result<()> {
    let listen = cluster.name.split('/').next().unwrap_or("");
    pg::lease::renew(own.client().await?, &cluster.name, listen).await
}

/// The renewals' loop, each second, on a connection and a task of their own: never behind a
/// takeover, a move or a pool's queue.
pub(super) async fn renewals(cluster: Arc<Cluster>, mut own: Own) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if cluster.ctx().is_none() {
            return;
        }
        match tokio::time::timeout(RENEWAL_WAIT, renew(&cluster, &mut own)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                own.drop_it();
                tracing::error!(
                    "cannot renew this process's leases (tried again in a second): {e:#}"
                );
            }
            Err(_) => {
                own.drop_it();
                tracing::error!(
                    "the database did not answer this process's renewal in time (tried again \
                     in a second, on a new connection)"
                );
            }
        }
    }
}

/// Reads who owns what.
///
/// # Errors
/// A database that cannot be reached.
pub(super) async fn read_owners(cluster: &Cluster) -> Result<()> {
    let client = cluster.pool.get().await.map_err(|e| pool_error(&e))?;
    let rows = pg::relay::owners(&**client).await?;
    // Added to what the notifications told, never cleared: a game that started after this
    // read keeps the owner its news named.
    let mut owners = lock(&cluster.owners);
    for (game, process) in rows {
        owners.insert(game, process);
    }
    Ok(())
}

/// Takes over the running games that nobody owns any more.
async fn take_over_orphans(cluster: &Cluster) -> Result<()> {
    let orphans: Vec<GameId> = {
        let client = cluster.pool.get().await.map_err(|e| pool_error(&e))?;
        pg::lease::orphans(&**client).await?
    };
    // One game that cannot be taken now (a lock held: a move in flight, a frozen process's
    // transaction) holds up none of the others; it is tried again at the next round.
    for id in orphans {
        if let Err(e) = cluster.take_over(id).await {
            if pg::lease::is_locked(&e) {
                tracing::debug!(game = %id, "the game is locked: taken over at a later round");
            } else {
                tracing::warn!(game = %id, "cannot take the game over: {e:#}");
            }
        }
    }
    Ok(())
}

/// Forgets the processes whose lease ran out, and who was online on them.
async fn clear_the_dead(cluster: &Cluster) -> Result<()> {
    let client = cluster.pool.get().await.map_err(|e| pool_error(&e))?;
    let gone = pg::presence::clear_the_dead(&**client).await?;
    if gone > 0 {
        cluster.note(Note::Online);
    }
    Ok(())
}

/// The takeovers' loop, each second, for as long as the server runs: reads who owns what,
/// takes over the games whose lease ran out, forgets the dead. A failing second is logged
/// and the next one tries again. The leases are renewed apart ([`renewals`]); a process that
/// cannot renew for [`LEASE_MS`] loses its games to the others (or takes them over again
/// itself), and its writes find that out (each checks the lease's expiry).
pub(super) async fn run(cluster: Arc<Cluster>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut n: u32 = 0;
    loop {
        tick.tick().await;
        n = n.wrapping_add(1);
        let Some(ctx) = cluster.ctx() else { return };
        let second = async {
            read_owners(&cluster).await?;
            take_over_orphans(&cluster).await?;
            clear_the_dead(&cluster).await?;
            if n.is_multiple_of(SKEW_EVERY) {
                measure_skew(&cluster, &ctx).await?;
            }
            Ok::<_, anyhow::Error>(())
        };
        if let Err(e) = second.await {
            tracing::error!(
                "cannot take over the games whose lease ran out (tried again in a second): {e:#}"
            );
        }
    }
}

/// Writes who is online here whenever that changes (and every ten seconds, in case a write
/// failed), and tells the others.
pub(super) async fn presence(cluster: Arc<Cluster>, mut own: Own) {
    loop {
        let _ = tokio::time::timeout(Duration::from_secs(10), cluster.presence.notified()).await;
        let Some(ctx) = cluster.ctx() else { return };
        let here = ctx.hub.online_here();
        let write = async { pg::presence::write(own.client().await?, &cluster.name, &here).await };
        match write.await {
            Ok(()) => cluster.note(Note::Online),
            Err(e) => {
                own.drop_it();
                tracing::error!("cannot write who is online here: {e:#}");
            }
        }
    }
}
