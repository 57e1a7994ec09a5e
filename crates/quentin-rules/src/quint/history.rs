//! The positions of a Quint game that can still come back, for the repetition rule.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use super::Key;

/// How many positions the newest stretch holds before it is frozen and shared.
const STRETCH: usize = 64;

/// The positions since the last drop or capture, each with the number of times it has come in
/// that stretch of the game.
///
/// The newest few are the position's own, in a list; older ones are frozen in layers shared by
/// every position that follows them (a clone copies at most a stretch and a few pointers), each
/// layer a map from a position to how many times it had come at its last time in that layer.
/// Layers are merged as a binary counter carries: two layers of the same size become one of
/// twice the size, so that a history of n positions has at most log2(n / 64) + 1 layers, and
/// each position is copied into a larger layer at most that many times. Looking a position up
/// reads the list, then each layer from the newest: logarithmic in the length of the game, where
/// reading the whole list back made a long game's replay quadratic.
#[derive(Default)]
pub(super) struct History {
    /// The newest positions, oldest first, with their counts.
    recent: Vec<(Key, usize)>,
    /// The frozen layers, oldest (and largest) first.
    layers: Vec<Arc<Layer>>,
    /// How many times the newest position has come.
    newest: usize,
}

/// Positions frozen together: each with its count at its last time among them.
struct Layer {
    counts: Counts,
    /// How many positions went into it.
    size: usize,
}

impl History {
    /// Forgets every position: after a drop or a capture none of them can come back.
    /// The list keeps its room: the drops of a playout clear it on every turn.
    pub(super) fn clear(&mut self) {
        self.recent.clear();
        self.layers.clear();
        self.newest = 0;
    }

    /// How many times `key` had come at its last time, if it came.
    fn last(&self, key: &Key) -> Option<usize> {
        if let Some(&(_, seen)) = self.recent.iter().rev().find(|(k, _)| k == key) {
            return Some(seen);
        }
        self.layers
            .iter()
            .rev()
            .find_map(|layer| layer.counts.get(key).copied())
    }

    /// Adds `key` as the newest position: it has come once more than at its last time.
    pub(super) fn push(&mut self, key: Key) {
        let seen = self.last(&key).unwrap_or(0) + 1;
        if self.recent.len() == self.recent.capacity() {
            // Room for the whole stretch at once, where growing by doubling would allocate
            // again and again.
            self.recent.reserve_exact(STRETCH - self.recent.len());
        }
        self.recent.push((key, seen));
        self.newest = seen;
        if self.recent.len() < STRETCH {
            return;
        }
        // Later entries overwrite earlier ones: each key keeps its last count.
        let counts: Counts = self.recent.drain(..).collect();
        let mut layer = Layer {
            counts,
            size: STRETCH,
        };
        while let Some(older) = self.layers.last().filter(|l| l.size == layer.size) {
            let mut merged = older.counts.clone();
            merged.extend(layer.counts);
            layer = Layer {
                counts: merged,
                size: older.size * 2,
            };
            self.layers.pop();
        }
        self.layers.push(Arc::new(layer));
    }

    /// How many times the newest position has come (0 when there is none).
    pub(super) fn seen(&self) -> usize {
        self.newest
    }

    /// How many positions it holds.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.recent.len() + self.layers.iter().map(|l| l.size).sum::<usize>()
    }

    /// How many frozen layers it has.
    #[cfg(test)]
    pub(super) fn layers(&self) -> usize {
        self.layers.len()
    }
}

// A clone keeps room for the whole stretch: a playout plays on a clone, and should not
// allocate as its positions come.
impl Clone for History {
    fn clone(&self) -> History {
        let mut recent = Vec::with_capacity(STRETCH);
        recent.extend_from_slice(&self.recent);
        History {
            recent,
            layers: self.layers.clone(),
            newest: self.newest,
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

/// A map from a position to its count, hashed by [`KeyHasher`].
type Counts = HashMap<Key, usize, BuildHasherDefault<KeyHasher>>;

/// A hasher for positions: a multiply and a rotation a word (as rustc's FxHash does), where
/// the standard SipHash, built to resist chosen keys, took a third of a long replay. A hostile
/// record cannot aim at it: its positions are the rules' own, each at most twice in a map before
/// the game is drawn, and a collision costs a comparison, not a wrong answer.
#[derive(Default)]
struct KeyHasher(u64);

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    fn key(n: u64) -> Key {
        Key {
            pieces: [n, n.rotate_left(17)],
            in_hand: [0, 0],
            to_move: if n.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            },
        }
    }

    /// Over a long walk among a few hundred positions, every count is the number of times the
    /// position has come so far, as a plain count says, and clones share what they can.
    #[test]
    fn counts_are_the_times_each_position_came_across_every_layer() {
        let mut history = History::default();
        let mut times: HashMap<u64, usize> = HashMap::new();
        let mut x: u64 = 0x1234_5678;
        let mut kept = Vec::new();
        for step in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let n = x % 700;
            history.push(key(n));
            let count = times.entry(n).or_insert(0);
            *count += 1;
            assert_eq!(history.seen(), *count, "step {step}");
            if step % 997 == 0 {
                kept.push((history.clone(), *count));
            }
        }
        assert_eq!(history.len(), 20_000);
        // 20,000 positions: 312 full stretches, whose binary digits are the layers.
        assert_eq!(history.layers(), (20_000 / STRETCH).count_ones() as usize);
        // The clones kept along the way still say what they said.
        for (clone, count) in kept {
            assert_eq!(clone.seen(), count);
        }
        history.clear();
        history.push(key(3));
        assert_eq!(history.seen(), 1);
    }
}
