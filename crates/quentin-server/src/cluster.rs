//! Several `quentin serve` processes on one PostgreSQL database (docs/server.md). Each process
//! keeps a copy of everything in its hub, as one process does; what is committed anywhere
//! reaches the others through the database's notification channel (LISTEN/NOTIFY), and they
//! read it back ([`follow`]). A game has one owner at a time, the process that holds its lease
//! in `owners` and renews it each second ([`lease`]): only the owner checks and commits the
//! game's commands and runs its clock; the others pass commands to it on the same channel and
//! wait for its answer. When an owner dies its leases run out, and any other process takes its
//! games over, charging nobody's clock for the time between the owner's last renewal and the
//! takeover.

mod follow;
mod lease;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use anyhow::{Result, anyhow};
use deadpool_postgres::Pool;
use tokio::sync::{Notify, mpsc, oneshot};

use super::Context;
use super::hub::{GameCommand, Outcome, Owner, PeerFuture, Peers, Refusal};
use super::store::StoreDown;
use super::store::postgres::{CHANNEL, LEASE_MS, games, pool_error};
use crate::note::{Answer, Note};

/// How long a command passed to a game's owner waits for its answer before the owner is
/// looked up again.
const ANSWER_WAIT: Duration = Duration::from_millis(2_500);

/// How long a command on a challenge or game this process has not heard of waits for the
/// database to be asked ([`Peers::look_up`]) before it is answered as things are.
const LOOK_WAIT: Duration = Duration::from_secs(5);

/// This process among the others on the database.
pub struct Cluster {
    /// Its name: in `owners`, `processes`, `presence` and every notification.
    pub name: String,
    pool: Pool,
    /// How its own connections are made (the notifications', the lease's, the presence's).
    config: tokio_postgres::Config,
    /// Each running game's owner, as last read or told.
    owners: Mutex<HashMap<i64, String>>,
    /// Commands passed to other processes, waiting for their answers.
    pending: Mutex<HashMap<u64, (i64, oneshot::Sender<Answer>)>>,
    next: AtomicU64,
    /// Notifications to send, sent together by one task.
    outbox: mpsc::UnboundedSender<String>,
    /// Told when the players online here change.
    presence: Notify,
    /// Look-ups for the following task ([`follow`]).
    looks: OnceLock<mpsc::UnboundedSender<follow::Heard>>,
    ctx: OnceLock<Weak<Context>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A connection of the cluster's own, outside the pool, made again when it is lost: the
/// lease's renewals and the presence never wait for a pooled connection behind moves and
/// takeovers, nor a move for them.
struct Own {
    config: tokio_postgres::Config,
    /// Run on each new connection (tighter bounds than the pool's, or none).
    setup: &'static str,
    client: Option<tokio_postgres::Client>,
}

impl Own {
    fn new(config: tokio_postgres::Config, setup: &'static str) -> Own {
        Own {
            config,
            setup,
            client: None,
        }
    }

    /// The connection, made again if it was lost or [`Own::drop_it`] was called.
    async fn client(&mut self) -> Result<&mut tokio_postgres::Client> {
        if self
            .client
            .as_ref()
            .is_none_or(tokio_postgres::Client::is_closed)
        {
            self.client = None;
            let (client, connection) = self.config.connect(tokio_postgres::NoTls).await?;
            tokio::spawn(connection);
            if !self.setup.is_empty() {
                client.batch_execute(self.setup).await?;
            }
            self.client = Some(client);
        }
        self.client
            .as_mut()
            .ok_or_else(|| anyhow!("no connection to the database"))
    }

    /// Forgets the connection (one that did not answer in time): the next use makes another.
    fn drop_it(&mut self) {
        self.client = None;
    }
}

impl Cluster {
    /// Joins the processes on `pool`'s database as `name`:
    /// starts following the others, renewing its leases and sending its notifications. The
    /// hub of `ctx` passes game commands through the cluster from now on.
    ///
    /// # Errors
    /// A database that cannot be reached.
    pub async fn join(
        ctx: &Arc<Context>,
        pool: Pool,
        config: tokio_postgres::Config,
        name: String,
    ) -> Result<Arc<Cluster>> {
        let (outbox, queue) = mpsc::unbounded_channel();
        let cluster = Arc::new(Cluster {
            name,
            pool,
            config,
            owners: Mutex::new(HashMap::new()),
            pending: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            outbox,
            presence: Notify::new(),
            looks: OnceLock::new(),
            ctx: OnceLock::new(),
        });
        let _ = cluster.ctx.set(Arc::downgrade(ctx));
        lease::measure_skew(&cluster, ctx).await?;
        let mut renewing = Own::new(cluster.config.clone(), lease::RENEWAL_BOUNDS);
        lease::renew(&cluster, &mut renewing).await?;
        lease::read_owners(&cluster).await?;
        ctx.hub.join(cluster.clone());
        let _ = cluster.looks.set(follow::start(cluster.clone()).await?);
        tokio::spawn(send(cluster.clone(), queue));
        tokio::spawn(lease::renewals(cluster.clone(), renewing));
        tokio::spawn(lease::run(cluster.clone()));
        tokio::spawn(lease::presence(
            cluster.clone(),
            Own::new(cluster.config.clone(), ""),
        ));
        // What was committed before the listening began is read once.
        follow::resync_all(&cluster, ctx).await?;
        tracing::info!(process = %cluster.name, "joined the other server processes on the database");
        Ok(cluster)
    }

    fn ctx(&self) -> Option<Arc<Context>> {
        self.ctx.get().and_then(Weak::upgrade)
    }

    fn set_owner(&self, id: i64, owner: Option<String>) {
        let mut owners = lock(&self.owners);
        match owner {
            Some(owner) => owners.insert(id, owner),
            None => owners.remove(&id),
        };
    }

    /// Takes game `id` over if nobody holds a live lease on it: whether this process owns it
    /// after. The mover's clock is charged only up to the old owner's last renewal.
    async fn take_over(&self, id: i64) -> Result<bool> {
        let mut client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreDown(format!("{:#}", pool_error(&e))))?;
        // Most often somebody holds a live lease: read without a lock.
        let now = client
            .query_opt(
                "SELECT o.process, o.expires < quentin_now(), g.result IS NOT NULL
                 FROM games g LEFT JOIN owners o ON o.game = g.id WHERE g.id = $1",
                &[&id],
            )
            .await?;
        let Some(now) = now else {
            return Ok(false);
        };
        if now.get::<_, bool>(2) {
            client
                .execute("DELETE FROM owners WHERE game = $1", &[&id])
                .await?;
            self.set_owner(id, None);
            return Ok(false);
        }
        if let (Some(owner), Some(false)) = (
            now.get::<_, Option<String>>(0),
            now.get::<_, Option<bool>>(1),
        ) {
            let mine = owner == self.name;
            self.set_owner(id, Some(owner));
            return Ok(mine);
        }
        // The lease ran out, or there is none: taken in a transaction that locks the lease
        // first and then the game, in the order a move's own transaction locks them. It never
        // waits for a lock (`NOWAIT`): a move in flight, or a frozen process's transaction,
        // holds the game until it ends (the database ends a transaction left idle: see
        // `SESSION_BOUNDS`), and the next round tries again. Only a lease that ran out is
        // locked: a live one is never held up by a takeover.
        let tx = client.transaction().await?;
        let lease = tx
            .query_opt(
                "SELECT process, renewed FROM owners
                 WHERE game = $1 AND expires < quentin_now() FOR UPDATE NOWAIT",
                &[&id],
            )
            .await?;
        if lease.is_none()
            && let Some(row) = tx
                .query_opt("SELECT process FROM owners WHERE game = $1", &[&id])
                .await?
        {
            // Renewed or taken meanwhile.
            let owner: String = row.get(0);
            let mine = owner == self.name;
            self.set_owner(id, Some(owner));
            return Ok(mine);
        }
        let game = tx
            .query_one(
                "SELECT turn_since, result IS NOT NULL FROM games WHERE id = $1 FOR UPDATE NOWAIT",
                &[&id],
            )
            .await?;
        if game.get::<_, bool>(1) {
            return Ok(false);
        }
        let turn_since: i64 = game.get(0);
        let (old, renewed) = match lease {
            Some(row) => (row.get::<_, String>(0), row.get::<_, i64>(1)),
            // Never owned here (a store moved from SQLite): its server's last heartbeat.
            None => (
                "-".to_string(),
                tx.query_opt("SELECT value FROM meta WHERE key = 'alive'", &[])
                    .await?
                    .map_or(turn_since, |r| r.get(0)),
            ),
        };
        let taken = tx
            .execute(
                "INSERT INTO owners(game, process, taken, renewed, expires)
                 VALUES ($1, $2, quentin_now(), quentin_now(), quentin_now() + $3)
                 ON CONFLICT (game) DO UPDATE SET process = excluded.process,
                     taken = excluded.taken, renewed = excluded.renewed,
                     expires = excluded.expires
                 WHERE owners.expires < quentin_now()",
                &[&id, &self.name, &LEASE_MS],
            )
            .await?;
        if taken == 0 {
            return Ok(false);
        }
        // The time the mover had used while the old owner lived is kept; the rest is
        // forgiven.
        tx.execute(
            "UPDATE games SET turn_since =
                 (SELECT taken FROM owners WHERE game = $1) - GREATEST(0, $2 - turn_since)
             WHERE id = $1",
            &[&id, &renewed],
        )
        .await?;
        tx.execute(
            "SELECT pg_notify($1, $2)",
            &[&CHANNEL, &Note::Game(id).payload(&self.name)],
        )
        .await?;
        tx.commit().await?;
        self.set_owner(id, Some(self.name.clone()));
        let rows = games(&**client, &[id], &mut Vec::new()).await?;
        if let Some(ctx) = self.ctx() {
            let _ = ctx.hub.mirror_games(rows);
        }
        tracing::info!(game = id, from = %old, "took the game over");
        Ok(true)
    }
}

impl Peers for Cluster {
    fn owner(&self, id: i64) -> Owner {
        match lock(&self.owners).get(&id) {
            Some(owner) if *owner == self.name => Owner::Me,
            Some(owner) => Owner::Other(owner.clone()),
            None => Owner::Nobody,
        }
    }

    fn forward<'a>(
        &'a self,
        owner: &'a str,
        player: i64,
        id: i64,
        command: GameCommand,
    ) -> PeerFuture<'a, Option<Result<Outcome, Refusal>>> {
        Box::pin(async move {
            let request = self.next.fetch_add(1, Ordering::Relaxed);
            let (answer, answered) = oneshot::channel();
            lock(&self.pending).insert(request, (id, answer));
            self.note(Note::Ask {
                to: owner.to_string(),
                request,
                player,
                game: id,
                command: Some(command),
            });
            let answer = tokio::time::timeout(ANSWER_WAIT, answered).await;
            lock(&self.pending).remove(&request);
            let answer = answer.ok()?.ok()?;
            // The answer comes after the game's news (PostgreSQL delivers notifications in
            // the order of their commits), and after the game is read back when its news had
            // to be: the player sees their own command in this process's copy at once.
            Some(match answer {
                Answer::Given(given) => given,
                Answer::Recheck => {
                    // The owner found it illegal: this copy of the game says why.
                    let checked = self.ctx().map(|ctx| ctx.hub.check(player, id, command));
                    match checked {
                        Some(Err(refusal)) => Err(refusal),
                        _ => Err(Refusal::NotYourTurn),
                    }
                }
            })
        })
    }

    fn settle(&self, id: i64) -> PeerFuture<'_, bool> {
        Box::pin(async move {
            match self.take_over(id).await {
                Ok(_) => true,
                Err(e) => {
                    tracing::warn!(game = id, "cannot read or take the game's lease: {e:#}");
                    !unreachable(&e)
                }
            }
        })
    }

    fn look_up(&self, id: i64) -> PeerFuture<'_, ()> {
        Box::pin(async move {
            let Some(looks) = self.looks.get() else {
                return;
            };
            let (done, read) = oneshot::channel();
            if looks.send(follow::Heard::Look(id, done)).is_ok() {
                let _ = tokio::time::timeout(LOOK_WAIT, read).await;
            }
        })
    }

    fn note(&self, note: Note) {
        let _ = self.outbox.send(note.payload(&self.name));
    }

    fn presence_changed(&self) {
        self.presence.notify_one();
    }

    fn started(&self, id: i64) {
        self.set_owner(id, Some(self.name.clone()));
    }

    #[cfg(feature = "test-hooks")]
    fn hold(&self, id: i64) -> PeerFuture<'_, Result<(), String>> {
        Box::pin(async move {
            let held = async {
                let client = self.pool.get().await.map_err(|e| pool_error(&e))?;
                client.batch_execute("BEGIN").await?;
                super::store::postgres::owned(&**client, &self.name, id).await?;
                Ok::<_, anyhow::Error>(client)
            }
            .await
            .map_err(|e| format!("{e:#}"))?;
            // Kept open until the database ends it (its idle-in-transaction timeout).
            tokio::spawn(async move {
                while !held.is_closed() {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            });
            Ok(())
        })
    }
}

/// Whether `e` says the database cannot be reached (no connection to be had, one lost), not
/// that it refused something.
fn unreachable(e: &anyhow::Error) -> bool {
    e.downcast_ref::<StoreDown>().is_some()
        || e.downcast_ref::<tokio_postgres::Error>()
            .is_some_and(|e| e.is_closed() || e.as_db_error().is_none())
}

/// Sends the queued notifications, all that are waiting in one statement.
async fn send(cluster: Arc<Cluster>, mut queue: mpsc::UnboundedReceiver<String>) {
    while let Some(first) = queue.recv().await {
        let mut notes = vec![first];
        while let Ok(more) = queue.try_recv() {
            notes.push(more);
        }
        let sent = async {
            let client = cluster.pool.get().await.map_err(|e| pool_error(&e))?;
            client
                .execute(
                    "SELECT pg_notify($1, note) FROM unnest($2::TEXT[]) AS note",
                    &[&CHANNEL, &notes],
                )
                .await?;
            Ok::<_, anyhow::Error>(())
        };
        if let Err(e) = sent.await {
            tracing::error!(
                "cannot tell the other server processes ({} notes lost): {e:#}",
                notes.len()
            );
        }
    }
}
