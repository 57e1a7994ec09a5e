//! The way from the hub to the store: a queue of jobs (changes, questions, the close) that the
//! backend's own writer takes, the changes that arrived together committed in one transaction
//! with one sync (group commit), and only then runs what each change's sender asked to happen
//! once it is on disk. Tokio's workers never wait for the disk. Each backend has its writer:
//! SQLite's is a thread of its own ([`Writer::start`], here), PostgreSQL's a task that awaits
//! its client (`crates/quentin-server/src/store/postgres/writer.rs`).

use std::thread;

use anyhow::{Result, anyhow};
use tokio::sync::mpsc;

use super::puzzles::{PuzzleFound, PuzzleQuery};
use super::{Applied, Backend, Change, StoreDown};
use crate::metrics::metrics;

/// The most changes one transaction takes.
const MOST_A_BATCH: usize = 512;

/// What runs on the store's thread once a change is committed, or failed.
pub type Done = Box<dyn FnOnce(Result<Applied>) + Send>;

/// What a writer is asked to do.
pub(super) enum Job {
    Change(Change, Done),
    Integrity(Box<dyn FnOnce(Result<String>) + Send>),
    Puzzles(PuzzleQuery, Box<dyn FnOnce(Result<PuzzleFound>) + Send>),
    Close(Box<dyn FnOnce() + Send>),
}

/// The way to the store's thread.
pub struct Writer {
    jobs: mpsc::UnboundedSender<Job>,
    /// Changes sent so far, for the tests to wait on.
    #[cfg(test)]
    sent: std::sync::atomic::AtomicUsize,
}

impl Writer {
    /// Starts the store's thread over `backend`.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn start(backend: Box<dyn Backend>) -> Result<Writer> {
        let (writer, queue) = Writer::new();
        thread::Builder::new()
            .name("quentin-store".to_string())
            .spawn(move || run(backend, queue))?;
        Ok(writer)
    }

    /// A writer, and the queue its backend's writer takes the jobs from.
    pub(super) fn new() -> (Writer, mpsc::UnboundedReceiver<Job>) {
        let (jobs, queue) = mpsc::unbounded_channel();
        let writer = Writer {
            jobs,
            #[cfg(test)]
            sent: std::sync::atomic::AtomicUsize::new(0),
        };
        (writer, queue)
    }

    /// Sends `change` to be committed; `done` runs on the store's thread with its outcome,
    /// after the commit. `done` gets an error at once when the store has closed.
    pub fn send(&self, change: Change, done: Done) {
        #[cfg(test)]
        self.sent.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        metrics().store_queue.inc();
        if let Err(mpsc::error::SendError(job)) = self.jobs.send(Job::Change(change, done))
            && let Job::Change(_, done) = job
        {
            metrics().store_queue.dec();
            done(Err(anyhow!("the store is closed")));
        }
    }

    /// Changes sent so far.
    #[cfg(test)]
    pub(crate) fn sent(&self) -> usize {
        self.sent.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Asks for the store's integrity check; `done` gets the answer.
    pub fn integrity(&self, done: Box<dyn FnOnce(Result<String>) + Send>) {
        if let Err(mpsc::error::SendError(job)) = self.jobs.send(Job::Integrity(done))
            && let Job::Integrity(done) = job
        {
            done(Err(anyhow!("the store is closed")));
        }
    }

    /// Asks the store `query` about puzzles (after the changes sent before); `done` gets the
    /// answer.
    pub fn puzzles(&self, query: PuzzleQuery, done: Box<dyn FnOnce(Result<PuzzleFound>) + Send>) {
        if let Err(mpsc::error::SendError(job)) = self.jobs.send(Job::Puzzles(query, done))
            && let Job::Puzzles(_, done) = job
        {
            done(Err(anyhow!("the store is closed")));
        }
    }

    /// Closes the store once every change sent before is committed; `done` runs after.
    pub fn close(&self, done: Box<dyn FnOnce() + Send>) {
        if let Err(mpsc::error::SendError(job)) = self.jobs.send(Job::Close(done))
            && let Job::Close(done) = job
        {
            done();
        }
    }
}

/// Counts a committed change in the metrics: a move, a game's end.
fn counted(change: &Change) {
    if let Change::AddAction { action, end, .. } = change {
        if action.is_some() {
            metrics().moves.inc();
        }
        if end.is_some() {
            metrics().games_finished.inc();
        }
    }
}

/// The jobs to take together: `first`, and whatever came while the last batch was being
/// written, up to [`MOST_A_BATCH`].
pub(super) fn gather(first: Job, queue: &mut mpsc::UnboundedReceiver<Job>) -> Vec<Job> {
    let mut batch = vec![first];
    while batch.len() < MOST_A_BATCH {
        match queue.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    batch
}

/// The changes of `batch`, in order.
pub(super) fn changes_of(batch: &[Job]) -> Vec<&Change> {
    batch
        .iter()
        .filter_map(|job| match job {
            Job::Change(change, _) => Some(change),
            _ => None,
        })
        .collect()
}

/// Each of `n` changes' outcome when their transaction as a whole failed with `e`.
pub(super) fn all_failed(n: usize, e: &anyhow::Error) -> Vec<Result<Applied>> {
    let e = format!("{e:#}");
    (0..n)
        .map(|_| Err(anyhow::Error::new(StoreDown(e.clone()))))
        .collect()
}

/// Tells `change`'s sender its `outcome` (none: the store gave none), after its commit.
pub(super) fn answer(change: &Change, done: Done, outcome: Option<Result<Applied>>) {
    let outcome = outcome.unwrap_or_else(|| Err(anyhow!("the store gave no outcome")));
    metrics().store_queue.dec();
    if outcome.is_ok() {
        counted(change);
    }
    // A panic in what follows a commit costs that change's answer, not the writer.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| done(outcome)));
}

/// The store's thread, over a backend whose calls wait.
fn run(mut backend: Box<dyn Backend>, mut queue: mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = queue.blocking_recv() {
        let batch = gather(first, &mut queue);
        let changes = changes_of(&batch);
        let outcomes = if changes.is_empty() {
            Vec::new()
        } else {
            let timer = metrics().commit_seconds.start_timer();
            let committed = backend.commit(&changes);
            timer.observe_duration();
            committed.unwrap_or_else(|e| all_failed(changes.len(), &e))
        };
        let mut outcomes = outcomes.into_iter();
        let mut close = None;
        for job in batch {
            match job {
                Job::Change(change, done) => answer(&change, done, outcomes.next()),
                Job::Integrity(done) => done(backend.integrity()),
                Job::Puzzles(query, done) => done(backend.puzzles(&query)),
                Job::Close(done) => close = Some(done),
            }
        }
        if let Some(done) = close {
            drop(backend);
            done();
            return;
        }
    }
}
