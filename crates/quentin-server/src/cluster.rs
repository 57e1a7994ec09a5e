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

pub(crate) use follow::READING;
mod lease;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use anyhow::Result;
use deadpool_postgres::Pool;
use tokio::sync::{Notify, mpsc, oneshot};

use super::hub::{GameCommand, Outcome, Owner, PeerFuture, Peers, Refusal};
use super::store::postgres::lease::Takeover;
use super::store::postgres::{self as pg, Own, pool_error, relay, unreachable};
use crate::context::Context;
use crate::ids::{GameId, PlayerId};
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
    owners: Mutex<HashMap<GameId, String>>,
    /// Commands passed to other processes, waiting for their answers.
    pending: Mutex<HashMap<u64, (GameId, oneshot::Sender<Answer>)>>,
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
        let mut renewing = Own::new(cluster.config.clone(), pg::lease::RENEWAL_BOUNDS);
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

    fn set_owner(&self, id: GameId, owner: Option<String>) {
        let mut owners = lock(&self.owners);
        match owner {
            Some(owner) => owners.insert(id, owner),
            None => owners.remove(&id),
        };
    }

    /// Takes game `id` over if nobody holds a live lease on it: whether this process owns it
    /// after. The mover's clock is charged only up to the old owner's last renewal.
    async fn take_over(&self, id: GameId) -> Result<bool> {
        Ok(
            match pg::lease::take_over(&self.pool, id, &self.name).await? {
                Takeover::NoGame | Takeover::Missed => false,
                Takeover::Over => {
                    self.set_owner(id, None);
                    false
                }
                Takeover::Held(owner) => {
                    let mine = owner == self.name;
                    self.set_owner(id, Some(owner));
                    mine
                }
                Takeover::Taken { from, rows } => {
                    self.set_owner(id, Some(self.name.clone()));
                    if let Some(ctx) = self.ctx() {
                        let _ = ctx.hub.mirror_games(rows);
                    }
                    tracing::info!(game = %id, %from, "took the game over");
                    true
                }
            },
        )
    }
}

impl Peers for Cluster {
    fn owner(&self, id: GameId) -> Owner {
        match lock(&self.owners).get(&id) {
            Some(owner) if *owner == self.name => Owner::Me,
            Some(owner) => Owner::Other(owner.clone()),
            None => Owner::Nobody,
        }
    }

    fn forward<'a>(
        &'a self,
        owner: &'a str,
        player: PlayerId,
        id: GameId,
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

    fn settle(&self, id: GameId) -> PeerFuture<'_, bool> {
        Box::pin(async move {
            match self.take_over(id).await {
                Ok(_) => true,
                Err(e) => {
                    tracing::warn!(game = %id, "cannot read or take the game's lease: {e:#}");
                    !unreachable(&e)
                }
            }
        })
    }

    fn look_up(&self, id: GameId) -> PeerFuture<'_, ()> {
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

    fn started(&self, id: GameId) {
        self.set_owner(id, Some(self.name.clone()));
    }

    fn hold(&self, id: GameId) -> PeerFuture<'_, Result<(), String>> {
        Box::pin(async move {
            let held = pg::lease::hold(&self.config, &self.name, id)
                .await
                .map_err(|e| format!("{e:#}"))?;
            // Kept open until the database ends it (its idle-in-transaction timeout).
            tokio::spawn(held);
            Ok(())
        })
    }
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
            relay::notify_all(&**client, &notes).await
        };
        if let Err(e) = sent.await {
            tracing::error!(
                "cannot tell the other server processes ({} notes lost): {e:#}",
                notes.len()
            );
        }
    }
}
