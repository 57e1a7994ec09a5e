//! What the server tells its host, and how nothing in the background dies unheard: its lines on
//! the standard output and its reports on the standard error, neither of which can stop the
//! server when nobody reads them (a closed pipe, a full disk); and tasks whose panic is caught
//! and reported instead of ending in silence.

use std::any::Any;
use std::fmt::Display;
use std::future::Future;
use std::io::Write as _;

/// Prints `line` on the standard output for the host; a failed write is reported, and the
/// server goes on (its reader may have gone: `quentin serve | head`).
pub fn say(line: impl Display) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        report(format_args!("cannot write to the standard output: {e}"));
    }
}

/// Reports `what` in the host's log, as an error (on the standard error, where a failed write
/// is dropped, since there is nowhere else to say it: `run::start_log`).
pub fn report(what: impl Display) {
    tracing::error!("{what}");
}

/// The message a panic carried.
#[must_use]
pub fn panic_message(panic: &(dyn Any + Send)) -> &str {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s
    } else {
        "a panic"
    }
}

/// Runs `work` as a task of its own and waits for it; a panic in it is caught and reported as
/// a failure of `what`. Whether it finished without one.
pub async fn survive<F>(what: impl Display, work: F) -> bool
where
    F: Future<Output = ()> + Send + 'static,
{
    match tokio::spawn(work).await {
        Ok(()) => true,
        Err(e) => {
            if e.is_panic() {
                report(format_args!(
                    "{what} failed: {}",
                    panic_message(&*e.into_panic())
                ));
            }
            false
        }
    }
}

/// Spawns `session` as a task of its own; a panic in it ends that task only, is reported as a
/// failure of `what`, and then runs `after` (which closes the session's channel).
pub fn spawn_supervised<F, A>(what: String, session: F, after: impl FnOnce() -> A + Send + 'static)
where
    F: Future<Output = ()> + Send + 'static,
    A: Future<Output = ()> + Send + 'static,
{
    let task = tokio::spawn(session);
    tokio::spawn(async move {
        if let Err(e) = task.await
            && e.is_panic()
        {
            report(format_args!(
                "{what} failed and was closed: {}",
                panic_message(&*e.into_panic())
            ));
            after().await;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panic_in_surviving_work_is_caught_and_said() {
        assert!(survive("a tick", async {}).await);
        assert!(!survive("a tick", async { panic!("boom") }).await);
        let panic = std::panic::catch_unwind(|| panic!("{} left", 3)).unwrap_err();
        assert_eq!(panic_message(&*panic), "3 left");
        let panic = std::panic::catch_unwind(|| std::panic::panic_any(7)).unwrap_err();
        assert_eq!(panic_message(&*panic), "a panic");
    }
}
