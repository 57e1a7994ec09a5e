//! PostgreSQL's writer: a task of the server's runtime that takes the hub's jobs and awaits
//! the database's client directly, no thread waiting in between. The changes that arrived
//! together go to one group commit ([`super::batch`]), and each is answered only after its
//! commit; a question (integrity, puzzles) is answered after the changes sent before it.

use std::sync::{Arc, Mutex, PoisonError};

use deadpool_postgres::Pool;

use super::Postgres;
use super::batch::{Told, commit_each};
use crate::metrics::metrics;
use crate::store::Change;
use crate::store::writer::{Done, Job, Writer, all_failed, answer, changes_of, gather};

impl Postgres {
    /// Starts the store's writer, a task of the runtime this is called in, over this store.
    #[must_use]
    pub fn writer(self) -> Writer {
        let (writer, queue) = Writer::new();
        tokio::spawn(run(self, queue));
        writer
    }
}

/// Batches whose commits may be under way at once.
const MOST_IN_FLIGHT: usize = 8;

/// Takes the jobs. A batch of changes only is committed on a task of its own, and the next
/// batch is taken at once: a change that waits (for a lock a frozen process holds, say) holds
/// up its own answer and nobody else's. Two changes of one game are never in flight together:
/// the hub sends a game's next change only once the one before is answered (its turn), and
/// likewise the tournaments' and the ratings' changes. A question or the close waits for every
/// batch in flight, so that it comes after the changes sent before it.
async fn run(store: Postgres, mut queue: tokio::sync::mpsc::UnboundedReceiver<Job>) {
    let mut flying = tokio::task::JoinSet::new();
    while let Some(first) = queue.recv().await {
        while flying.try_join_next().is_some() {}
        let batch = gather(first, &mut queue);
        if batch.iter().all(|job| matches!(job, Job::Change(..))) {
            while flying.len() >= MOST_IN_FLIGHT {
                flying.join_next().await;
            }
            let (pool, process) = store.parts();
            flying.spawn(committed(pool, process, batch));
            continue;
        }
        while flying.join_next().await.is_some() {}
        let changes: Vec<Change> = changes_of(&batch).into_iter().cloned().collect();
        let outcomes = if changes.is_empty() {
            Vec::new()
        } else {
            let n = changes.len();
            let timer = metrics().commit_seconds.start_timer();
            let committed = store.commit_all(changes).await;
            timer.observe_duration();
            committed.unwrap_or_else(|e| all_failed(n, &e))
        };
        let mut outcomes = outcomes.into_iter();
        let mut close = None;
        for job in batch {
            match job {
                Job::Change(change, done) => answer(&change, done, outcomes.next()),
                Job::Integrity(done) => done(store.integrity().await),
                Job::Puzzles(query, done) => done(store.puzzles(&query).await),
                Job::Close(done) => close = Some(done),
            }
        }
        if let Some(done) = close {
            drop(store);
            done();
            return;
        }
    }
}

/// Commits the changes of `batch` (changes only), each answered as soon as its own outcome is
/// known.
async fn committed(pool: Pool, process: Arc<str>, batch: Vec<Job>) {
    let mut changes = Vec::with_capacity(batch.len());
    let mut waiting: Vec<Option<(Change, Done)>> = Vec::with_capacity(batch.len());
    for job in batch {
        if let Job::Change(change, done) = job {
            changes.push(change.clone());
            waiting.push(Some((change, done)));
        }
    }
    let waiting = Arc::new(Mutex::new(waiting));
    let told: Told = {
        let waiting = waiting.clone();
        Arc::new(move |at, outcome| {
            let job = waiting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_mut(at)
                .and_then(Option::take);
            if let Some((change, done)) = job {
                answer(&change, done, Some(outcome));
            }
        })
    };
    let timer = metrics().commit_seconds.start_timer();
    commit_each(pool, process, changes, told).await;
    timer.observe_duration();
    // Every change is told by now; one that was not gets "no outcome".
    let left: Vec<(Change, Done)> = waiting
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter_mut()
        .filter_map(Option::take)
        .collect();
    for (change, done) in left {
        answer(&change, done, None);
    }
}
