//! The store's own thread: it takes changes from any session, commits those that arrived
//! together in one transaction with one sync (group commit), and only then runs what each
//! change's sender asked to happen once it is on disk. Tokio's workers never wait for the disk.

use std::sync::mpsc;
use std::thread;

use anyhow::{Result, anyhow};

use super::super::metrics::metrics;
use super::{Applied, Backend, Change, StoreDown};

/// The most changes one transaction takes.
const MOST_A_BATCH: usize = 512;

/// What runs on the store's thread once a change is committed, or failed.
pub type Done = Box<dyn FnOnce(Result<Applied>) + Send>;

enum Job {
    Change(Change, Done),
    Integrity(Box<dyn FnOnce(Result<String>) + Send>),
    Close(Box<dyn FnOnce() + Send>),
}

/// The way to the store's thread.
pub struct Writer {
    jobs: mpsc::Sender<Job>,
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
        let (jobs, queue) = mpsc::channel();
        thread::Builder::new()
            .name("quentin-store".to_string())
            .spawn(move || run(backend, &queue))?;
        Ok(Writer {
            jobs,
            #[cfg(test)]
            sent: std::sync::atomic::AtomicUsize::new(0),
        })
    }

    /// Sends `change` to be committed; `done` runs on the store's thread with its outcome,
    /// after the commit. `done` gets an error at once when the store has closed.
    pub fn send(&self, change: Change, done: Done) {
        #[cfg(test)]
        self.sent.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        metrics().store_queue.inc();
        if let Err(mpsc::SendError(job)) = self.jobs.send(Job::Change(change, done))
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
        if let Err(mpsc::SendError(job)) = self.jobs.send(Job::Integrity(done))
            && let Job::Integrity(done) = job
        {
            done(Err(anyhow!("the store is closed")));
        }
    }

    /// Closes the store once every change sent before is committed; `done` runs after.
    pub fn close(&self, done: Box<dyn FnOnce() + Send>) {
        if let Err(mpsc::SendError(job)) = self.jobs.send(Job::Close(done))
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

fn run(mut backend: Box<dyn Backend>, queue: &mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        // Whatever came while the last batch was being written goes into this one.
        let mut batch = vec![first];
        while batch.len() < MOST_A_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let changes: Vec<&Change> = batch
            .iter()
            .filter_map(|job| match job {
                Job::Change(change, _) => Some(change),
                _ => None,
            })
            .collect();
        let mut outcomes = if changes.is_empty() {
            Vec::new()
        } else {
            let timer = metrics().commit_seconds.start_timer();
            let committed = backend.commit(&changes);
            timer.observe_duration();
            match committed {
                Ok(outcomes) => outcomes,
                Err(e) => {
                    let e = format!("{e:#}");
                    changes
                        .iter()
                        .map(|_| Err(anyhow::Error::new(StoreDown(e.clone()))))
                        .collect()
                }
            }
        }
        .into_iter();
        let mut close = None;
        for job in batch {
            match job {
                Job::Change(change, done) => {
                    let outcome = outcomes
                        .next()
                        .unwrap_or_else(|| Err(anyhow!("the store gave no outcome")));
                    metrics().store_queue.dec();
                    if outcome.is_ok() {
                        counted(&change);
                    }
                    // A panic in what follows a commit costs that change's answer, not the
                    // store's thread.
                    let _ =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| done(outcome)));
                }
                Job::Integrity(done) => done(backend.integrity()),
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
