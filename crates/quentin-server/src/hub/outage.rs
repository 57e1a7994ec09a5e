//! Outages of the store charged to nobody: while the heartbeat cannot be written (a failing or
//! full disk, a store that cannot be reached), no game is ended on time, and once it can be
//! again, every running clock is moved on by the time since the last heartbeat written, as
//! the server's start does for the time it was down. (Several processes on one database keep
//! no heartbeat: a lease that ran out is taken over, and the takeover forgives the same way.)
//!
//! The `Hub` methods here: `store_down`, `beaten`.

use tokio::sync::oneshot;

use super::{Hub, Refusal};
use crate::ids::{Millis, Moment};
use crate::report::report;
use crate::store::Change;

impl Hub {
    /// Whether the store could not be written at the last heartbeat: the clocks stand still
    /// (no game ends on time) until it can.
    pub(super) fn store_down(&self) -> bool {
        self.lock().down_since.is_some()
    }

    /// The heartbeat of `now` sent as `beat`: its outcome noted, and once the store is back
    /// after an outage, the outage forgiven to every running game.
    pub(super) async fn beaten(&self, beat: oneshot::Receiver<Result<(), Refusal>>, now: Moment) {
        let written = beat.await.unwrap_or(Err(Refusal::NotSaved));
        let since = {
            let mut inner = self.lock();
            match written {
                // A heartbeat refused alone (the store works): the clocks run on.
                Err(refusal) if refusal != Refusal::Unreachable => {
                    drop(inner);
                    report(format_args!(
                        "cannot write the heartbeat (tried again at the next tick): {refusal}"
                    ));
                    return;
                }
                Err(_) => {
                    let last = inner.last_beat;
                    inner.down_since.get_or_insert(last);
                    drop(inner);
                    report(format_args!(
                        "cannot write the heartbeat (tried again at the next tick): the clocks \
                         stand still until it can"
                    ));
                    return;
                }
                Ok(()) => {
                    inner.last_beat = now;
                    inner.down_since.take()
                }
            }
        };
        let Some(since) = since else { return };
        let by = (now - since).max(Millis(0));
        let forgiven = self
            .commit(Change::Forgive(by), Vec::new(), move |inner, _| {
                for game in inner.games.values_mut() {
                    if game.row.result.is_none() {
                        game.row.turn_since += by;
                        game.told();
                    }
                }
                Ok(())
            })
            .await;
        match forgiven {
            Ok(()) => tracing::warn!(
                seconds = by.whole_seconds(),
                "the store can be written again: the time it could not is charged to nobody"
            ),
            // Tried again at the next tick, from the same moment.
            Err(_) => {
                self.lock().down_since.get_or_insert(since);
            }
        }
    }
}
