//! PostgreSQL's writer: a task of the server's runtime that takes the hub's jobs and awaits
//! the database's client directly, no thread waiting in between. The changes that arrived
//! together go to one group commit ([`super::batch`]), and each is answered only after its
//! commit; a question (integrity, puzzles) is answered after the changes sent before it.

use super::Postgres;
use crate::metrics::metrics;
use crate::store::Change;
use crate::store::writer::{Job, Writer, all_failed, answer, changes_of, gather};

impl Postgres {
    /// Starts the store's writer, a task of the runtime this is called in, over this store.
    #[must_use]
    pub fn writer(self) -> Writer {
        let (writer, queue) = Writer::new();
        tokio::spawn(run(self, queue));
        writer
    }
}

async fn run(store: Postgres, mut queue: tokio::sync::mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = queue.recv().await {
        let batch = gather(first, &mut queue);
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
