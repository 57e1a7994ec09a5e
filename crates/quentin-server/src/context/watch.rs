//! A process's side of moderation: an operator's order carried out (in the ledger, then in
//! this process's memory at once), and the ledger read again every half second for the orders
//! given elsewhere (another process on the database, or `quentin serve admin`), each row of
//! the audit log that is new applied to the memory once.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::context::Context;
use crate::hub::Hub;
use crate::ids::{ChallengeId, GameId, Millis, Moment};
use crate::moderation::ledger::placeholder;
use crate::moderation::{AuditRow, Ledger, Order, OrderRefusal};

/// How often the ledger is read again.
pub const EVERY: Duration = Duration::from_millis(500);

/// How often the logins older than `--keep-logins` are deleted (by the server's clock).
const PRUNE_EVERY: Millis = Millis(3_600_000);
/// A refused login is kept at most once in this time from one network block.
const REFUSED_EVERY: Millis = Millis(60_000);
/// The default of `--keep-logins`, in days.
pub const KEEP_LOGINS_DAYS: u32 = 90;

/// The ledger, and one reading of it at a time.
pub struct Moderation {
    ledger: Ledger,
    turn: tokio::sync::Mutex<()>,
    /// How long a login is kept.
    keep_logins: Millis,
    /// When the logins were last pruned.
    pruned: Mutex<Option<Moment>>,
    /// When a refused login of each network block was last kept.
    refused: Mutex<HashMap<IpAddr, Moment>>,
}

impl Moderation {
    /// Moderation over `ledger`, keeping the logins [`KEEP_LOGINS_DAYS`] days.
    #[must_use]
    pub fn new(ledger: Ledger) -> Moderation {
        Moderation {
            ledger,
            turn: tokio::sync::Mutex::new(()),
            keep_logins: days(KEEP_LOGINS_DAYS),
            pruned: Mutex::new(None),
            refused: Mutex::new(HashMap::new()),
        }
    }

    /// The same, keeping the logins `days` days (`--keep-logins`).
    #[must_use]
    pub fn keeping_logins(mut self, days_kept: u32) -> Moderation {
        self.keep_logins = days(days_kept);
        self
    }

    /// Whether a refused login from `address` at `now` is to be kept: the first of its network
    /// block in a minute.
    pub fn keep_refused(&self, address: IpAddr, now: Moment) -> bool {
        let block = crate::gate::block_of(address);
        let mut last = self.refused.lock().unwrap_or_else(PoisonError::into_inner);
        // The blocks not heard from in a minute are forgotten: the map stays small.
        last.retain(|_, at| now - *at < REFUSED_EVERY);
        if last.contains_key(&block) {
            return false;
        }
        last.insert(block, now);
        true
    }

    /// Deletes the logins older than `--keep-logins`, once an hour of the server's clock.
    ///
    /// # Errors
    /// A store that cannot delete them (tried again at the next reading).
    pub async fn prune(&self, now: Moment) -> anyhow::Result<()> {
        {
            let last = self.pruned.lock().unwrap_or_else(PoisonError::into_inner);
            if last.is_some_and(|at| now - at < PRUNE_EVERY) {
                return Ok(());
            }
        }
        let gone = self.ledger.prune_logins(now - self.keep_logins).await?;
        *self.pruned.lock().unwrap_or_else(PoisonError::into_inner) = Some(now);
        if gone > 0 {
            tracing::info!(
                "deleted {gone} logins older than {} days",
                self.keep_logins.0 / 86_400_000
            );
        }
        Ok(())
    }

    /// The ledger.
    #[must_use]
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Reads the sanctions at the server's start (what the audit log holds is in the store's
    /// rows already), and ends the games they end.
    ///
    /// # Errors
    /// A store that cannot be read.
    pub async fn start(&self, hub: &Hub, now: Moment) -> anyhow::Result<()> {
        let _turn = self.turn.lock().await;
        hub.set_sanctions(Arc::new(self.ledger.sanctions().await?));
        hub.end_sanctioned(now).await;
        Ok(())
    }

    /// Reads the ledger again: when the audit log has rows this process has not seen, the
    /// sanctions are read again and each row applied to the memory.
    ///
    /// # Errors
    /// A store that cannot be read (tried again at the next reading).
    pub async fn refresh(&self, hub: &Hub, now: Moment) -> anyhow::Result<()> {
        let _turn = self.turn.lock().await;
        let rows = self.ledger.since(hub.sanctions().last).await?;
        if rows.is_empty() {
            return Ok(());
        }
        let mut sanctions = self.ledger.sanctions().await?;
        // Only the rows read are taken as seen: one written since is read next time.
        sanctions.last = rows.last().map_or(sanctions.last, |r| r.id);
        for row in &rows {
            apply(hub, row);
        }
        hub.set_sanctions(Arc::new(sanctions));
        hub.end_sanctioned(now).await;
        Ok(())
    }

    /// Carries out `order` of `by` (an operator's name): in the ledger, then in this process.
    /// The answer's text (`Ok`: after `=`), or why it is refused (`Err`: said after `?`).
    pub async fn order(
        &self,
        ctx: &Context,
        by: &str,
        order: &Order,
    ) -> Result<String, OrderRefusal> {
        let now = ctx.clock.now();
        let answer = match self.ledger.order(by, order, now).await {
            Ok(answer) => answer,
            Err(e) => {
                tracing::error!("the ledger cannot save an operator's order: {e:#}");
                return Err(OrderRefusal::NotSaved);
            }
        };
        if answer.is_ok() && !matches!(order, Order::Players(_) | Order::Log) {
            tracing::info!(operator = %by, order = order.word(), "an operator's order");
            if let Err(e) = self.refresh(&ctx.hub, now).await {
                tracing::warn!("cannot read the ledger again: {e:#}");
            }
            // An abort answered once the game is over (its owner may be another process).
            if let Order::Abort(id) = order {
                over(&ctx.hub, *id).await;
            }
        }
        answer
    }
}

/// `n` days.
fn days(n: u32) -> Millis {
    Millis(i64::from(n) * 86_400_000)
}

/// Returns once game `id` is over, or after a few seconds.
async fn over(hub: &Hub, id: GameId) {
    let Ok(mut news) = hub.watch_game(id) else {
        return;
    };
    let ended = || hub.game_over(id);
    let _ = tokio::time::timeout(Duration::from_secs(3), async {
        while !ended() {
            if news.changed().await.is_err() {
                break;
            }
        }
    })
    .await;
}

/// What a row of the audit log changes in the memory (the store holds it already).
fn apply(hub: &Hub, row: &AuditRow) {
    let number = |prefix: &str| row.whom.strip_prefix(prefix)?.parse::<i64>().ok();
    match row.what.as_str() {
        "ban" => {
            if let Some(id) = hub.player_named(&row.whom) {
                hub.challenges_closed(None, Some(id));
            }
        }
        "rename" => {
            if let Some(id) = hub.player_named(&row.whom) {
                hub.renamed(id, &placeholder(id));
            }
        }
        "new-name" => {
            if let Some(id) = hub.player_named(&row.whom) {
                hub.renamed(id, &row.who);
            }
        }
        "reset" => {
            if let Some(id) = hub.player_named(&row.whom) {
                hub.ratings_reset(id);
            }
        }
        "close" => {
            if let Some(id) = number("challenge ") {
                hub.challenges_closed(Some(ChallengeId(id)), None);
            }
        }
        _ => {}
    }
}

/// Reads the ledger again every [`EVERY`] until the server stops.
pub async fn run(ctx: Arc<Context>) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut stop = ctx.stop.subscribe();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stop.wait_for(|s| *s) => return,
        }
        if let Err(e) = ctx.moderation.refresh(&ctx.hub, ctx.clock.now()).await {
            tracing::warn!("cannot read the operators' ledger (tried again): {e:#}");
        }
        if let Err(e) = ctx.moderation.prune(ctx.clock.now()).await {
            tracing::warn!("cannot delete the old logins (tried again): {e:#}");
        }
    }
}
