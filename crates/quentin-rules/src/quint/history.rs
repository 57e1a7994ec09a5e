//! The positions of a Quint game that can still come back, for the repetition rule.

use std::fmt;
use std::sync::Arc;

use super::Key;

/// How many positions the newest stretch holds before it is frozen and shared.
const STRETCH: usize = 64;

/// The positions since the last drop or capture, each with the number of times it has come in
/// that stretch of the game. The newest few are the position's own; older ones are frozen in
/// stretches shared by every position that follows them, so that a clone copies at most a
/// stretch, not the whole list: a replay can keep every position of a long game, and a search
/// can copy positions freely. Looking back reads memory in order, as a list in one piece would.
#[derive(Clone, Default)]
pub(super) struct History {
    /// The newest positions, oldest first.
    recent: Vec<(Key, usize)>,
    /// The stretches before them, newest first.
    frozen: Option<Arc<Stretch>>,
}

/// A full stretch of positions, oldest first, and the stretches before it.
struct Stretch {
    entries: Box<[(Key, usize)]>,
    older: Option<Arc<Stretch>>,
}

impl History {
    /// Forgets every position: after a drop or a capture none of them can come back.
    pub(super) fn clear(&mut self) {
        *self = History::default();
    }

    /// Adds `key` as the newest position. How many times it has come is one more than at its
    /// last time, found by looking back no further than that.
    pub(super) fn push(&mut self, key: Key) {
        let last = |entries: &[(Key, usize)]| {
            entries
                .iter()
                .rev()
                .find(|(k, _)| *k == key)
                .map(|&(_, seen)| seen)
        };
        let mut before = last(&self.recent);
        let mut stretch = self.frozen.as_deref();
        while before.is_none()
            && let Some(s) = stretch
        {
            before = last(&s.entries);
            stretch = s.older.as_deref();
        }
        self.recent.push((key, before.unwrap_or(0) + 1));
        if self.recent.len() == STRETCH {
            let entries = std::mem::take(&mut self.recent).into_boxed_slice();
            let older = self.frozen.take();
            self.frozen = Some(Arc::new(Stretch { entries, older }));
        }
    }

    /// How many times the newest position has come (0 when there is none).
    pub(super) fn seen(&self) -> usize {
        let newest = self.recent.last().or_else(|| {
            self.frozen
                .as_deref()
                .and_then(|stretch| stretch.entries.last())
        });
        newest.map_or(0, |&(_, seen)| seen)
    }

    /// How many positions it holds.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        let frozen = std::iter::successors(self.frozen.as_deref(), |s| s.older.as_deref());
        self.recent.len() + frozen.map(|s| s.entries.len()).sum::<usize>()
    }
}

impl Drop for History {
    /// Lets go of the stretches one at a time, rather than each through the next one's drop,
    /// nested as deep as the list is long.
    fn drop(&mut self) {
        let mut next = self.frozen.take();
        while let Some(stretch) = next {
            next = match Arc::try_unwrap(stretch) {
                Ok(mut alone) => alone.older.take(),
                // Still shared with another position, which keeps the rest.
                Err(_) => None,
            };
        }
    }
}

impl fmt::Debug for History {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("History")
            .field("newest_seen", &self.seen())
            .finish_non_exhaustive()
    }
}
