//! Group commit on PostgreSQL, as the SQLite store's writer does: the moves that arrive
//! together, of different games, commit in one transaction (one round of statements and one
//! flush of the log for all of them), each game's lease still checked inside it and every move
//! answered only after the commit. Anything else (a game's end with its ratings, a new game, a
//! takeback, a player, a challenge) keeps a transaction of its own, as do two changes of one
//! game in one batch; they run beside the batch on the pool's other connections.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use anyhow::{Result, anyhow};
use deadpool_postgres::Pool;
use tokio::task::JoinSet;

use super::changes::Step;
use super::commit::{commit_one, down};
use super::{lease, pool_error, relay};
use crate::ids::GameId;
use crate::store::{Applied, Change, LeaseLost, StoreDown};

/// The move `change` is, when it may share a transaction: an action that neither ends its
/// game nor moves a rating.
fn plain(change: &Change) -> Option<Step> {
    match change {
        Change::AddAction {
            game,
            index,
            action: Some(action),
            left,
            at,
            end: None,
            ratings,
            ..
        } if ratings.is_empty() => Some(Step {
            game: *game,
            index: *index,
            action: Some(*action),
            left: *left,
            at: *at,
        }),
        _ => None,
    }
}

/// The game a change is of, if any.
fn game_of(change: &Change) -> Option<GameId> {
    match change {
        Change::AddAction { game, .. } | Change::TakeBack { game, .. } => Some(*game),
        Change::StartGame(row) => Some(row.id),
        _ => None,
    }
}

/// What is told each change's outcome (by its place in the batch) as soon as it is known.
pub(super) type Told = Arc<dyn Fn(usize, Result<Applied>) + Send + Sync>;

/// Commits `changes`, this process's (`process`), and gives their outcomes in their order:
/// the plain moves of games named once in the batch in one transaction, every other change in
/// one of its own, side by side.
pub(super) async fn commit_all(
    pool: Pool,
    process: Arc<str>,
    changes: Vec<Change>,
) -> Vec<Result<Applied>> {
    let n = changes.len();
    let outcomes: Arc<Mutex<Vec<Option<Result<Applied>>>>> =
        Arc::new(Mutex::new((0..n).map(|_| None).collect()));
    let told: Told = {
        let outcomes = outcomes.clone();
        Arc::new(move |at, outcome| {
            if let Some(slot) = lock(&outcomes).get_mut(at) {
                *slot = Some(outcome);
            }
        })
    };
    commit_each(pool, process, changes, told).await;
    let outcomes = std::mem::take(&mut *lock(&outcomes));
    outcomes
        .into_iter()
        .map(|o| o.unwrap_or_else(|| Err(anyhow!("the store gave no outcome"))))
        .collect()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// [`commit_all`], each change's outcome told as soon as it is known: a change that waits
/// (for a lock another process holds, say) holds up no other's answer. The moves written
/// together wait for no lock: one that meets one fails the group at once, and each is then
/// written alone.
pub(super) async fn commit_each(pool: Pool, process: Arc<str>, changes: Vec<Change>, told: Told) {
    let mut named: HashMap<GameId, usize> = HashMap::new();
    for game in changes.iter().filter_map(game_of) {
        *named.entry(game).or_default() += 1;
    }
    let (mut together, mut alone) = (Vec::new(), Vec::new());
    for (at, change) in changes.iter().enumerate() {
        match plain(change) {
            Some(step) if named.get(&step.game) == Some(&1) => together.push((at, step)),
            _ => alone.push(at),
        }
    }
    // One move is a batch of one: its own transaction says the same in the same statements.
    if together.len() < 2 {
        alone.extend(together.drain(..).map(|(at, _)| at));
    }
    let mut tasks = JoinSet::new();
    let single = |tasks: &mut JoinSet<_>, at: usize| {
        let (pool, process, change) = (pool.clone(), process.clone(), changes[at].clone());
        let told = told.clone();
        tasks.spawn(async move { told(at, commit_one(&pool, &process, &change).await) });
    };
    for &at in &alone {
        single(&mut tasks, at);
    }
    if !together.is_empty() {
        let steps: Vec<Step> = together.iter().map(|&(_, step)| step).collect();
        match commit_steps(&pool, &process, &steps).await {
            Ok(each) => {
                for ((at, _), outcome) in together.iter().zip(each) {
                    told(*at, outcome);
                }
            }
            Err(e) if e.is::<StoreDown>() => {
                let e = format!("{e:#}");
                for (at, _) in &together {
                    told(*at, Err(StoreDown(e.clone()).into()));
                }
            }
            // Something the database refused in one of them (a move's row there already, a
            // lease that ran out while the batch was written): each alone, for its own verdict.
            Err(e) => {
                tracing::debug!(
                    error = format!("{e:#}"),
                    "a batch of moves retried one by one"
                );
                for (at, _) in &together {
                    single(&mut tasks, *at);
                }
            }
        }
    }
    while let Some(done) = tasks.join_next().await {
        if let Err(e) = done {
            tracing::error!(error = %e, "a commit's task failed");
        }
    }
}

/// The moves `steps`, of different games, in one transaction: those whose game's lease this
/// process holds are written, told and [`Applied::Done`]; the others [`LeaseLost`]. An error
/// fails them all (nothing of the batch is written).
async fn commit_steps(pool: &Pool, process: &str, steps: &[Step]) -> Result<Vec<Result<Applied>>> {
    let written = async {
        let mut client = pool
            .get()
            .await
            .map_err(|e| StoreDown(format!("{:#}", pool_error(&e))))?;
        let tx = client.transaction().await?;
        // A lock met (a frozen process's open transaction on one of the games) fails the
        // group at once: each move is then written alone, and only its own game waits.
        tx.batch_execute("SET LOCAL lock_timeout = 200").await?;
        let games: Vec<GameId> = steps.iter().map(|s| s.game).collect();
        // The leases, held (as `owned` holds one) until the commit.
        let held = lease::owned_of(&tx, process, &games).await?;
        let live: Vec<&Step> = steps.iter().filter(|s| held.contains(&s.game)).collect();
        if !live.is_empty() {
            let column = |f: fn(&Step) -> i64| live.iter().map(|s| f(s)).collect::<Vec<i64>>();
            let game: Vec<GameId> = live.iter().map(|s| s.game).collect();
            let (index, at) = (column(|s| s.index as i64), column(|s| s.at.0));
            let (left1, left2) = (column(|s| s.left[0].0), column(|s| s.left[1].0));
            let actions: Vec<String> = live
                .iter()
                .map(|s| s.action.map(|a| a.to_string()).unwrap_or_default())
                .collect();
            tx.execute(
                "INSERT INTO moves(game, idx, action, at)
                 SELECT * FROM unnest($1::BIGINT[], $2::BIGINT[], $3::TEXT[], $4::BIGINT[])",
                &[&game, &index, &actions, &at],
            )
            .await?;
            tx.execute(
                "UPDATE games AS g SET left1 = v.left1, left2 = v.left2, turn_since = v.at
                 FROM unnest($1::BIGINT[], $2::BIGINT[], $3::BIGINT[], $4::BIGINT[])
                     AS v(id, left1, left2, at)
                 WHERE g.id = v.id",
                &[&game, &left1, &left2, &at],
            )
            .await?;
            // The fence: no lease ran out meanwhile (a process frozen between statements).
            let still = lease::still_held(&tx, process, &game).await?;
            if still != live.len() as i64 {
                return Err(anyhow!("a lease ran out while its batch was written"));
            }
            let notes: Vec<String> = live
                .iter()
                .map(|s| s.note(false).payload(process))
                .collect();
            relay::notify_all(&*tx, &notes).await?;
        }
        tx.commit().await?;
        Ok(steps
            .iter()
            .map(|s| {
                if held.contains(&s.game) {
                    Ok(Applied::Done)
                } else {
                    Err(LeaseLost(s.game).into())
                }
            })
            .collect())
    };
    written.await.map_err(down)
}
