//! Who is at a game: its players' sessions on the server (counted by [`Hub::enter`] and
//! [`Hub::leave`]) and the screens that watch it. A change of either is news of the game, so
//! that its players see the opponent leave or come back and the watchers counted: a player's
//! at once, the watchers' count at the next second's tick ([`Hub::tell_watchers`]), so that a
//! crowd coming to watch one game costs each screen one frame a second, not one a newcomer.
//!
//! The `Hub` methods here: `watching`, `watching_unnamed`, `tell_watchers`.

use std::sync::{Arc, Mutex};

use super::{Hub, Inner, lock};
use crate::ids::{GameId, PlayerId};

/// A game screen that watches a game it is no player of; counted out when dropped.
pub struct Watching {
    memory: Arc<Mutex<Inner>>,
    id: GameId,
}

impl Hub {
    /// Counts a screen of `viewer` on game `id` in, when `viewer` is none of its players:
    /// the game's watchers, until the guard is dropped.
    #[must_use]
    pub fn watching(&self, id: GameId, viewer: PlayerId) -> Option<Watching> {
        let mut inner = self.lock();
        let game = inner.games.get_mut(&id)?;
        if game.row.players.contains(&viewer) {
            return None;
        }
        game.watchers += 1;
        Some(Watching {
            memory: self.memory.clone(),
            id,
        })
    }

    /// Counts a screen of nobody logged in (a web page) on game `id` in, as [`Hub::watching`]
    /// does.
    #[must_use]
    pub fn watching_unnamed(&self, id: GameId) -> Option<Watching> {
        let mut inner = self.lock();
        inner.games.get_mut(&id)?.watchers += 1;
        Some(Watching {
            memory: self.memory.clone(),
            id,
        })
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        if let Some(game) = lock(&self.memory).games.get_mut(&self.id) {
            game.watchers = game.watchers.saturating_sub(1);
        }
    }
}

impl Hub {
    /// Tells each game whose count of watchers changed since it was last told (once a second,
    /// by the clock's tick).
    pub fn tell_watchers(&self) {
        for game in self.lock().games.values_mut() {
            if game.watchers != game.watchers_told {
                game.watchers_told = game.watchers;
                game.told();
            }
        }
    }
}

impl Inner {
    /// Tells `player`'s unfinished games that their connection changed.
    pub(super) fn presence_changed(&self, player: PlayerId) {
        for game in self.games.values() {
            if game.row.result.is_none() && game.row.players.contains(&player) {
                game.told();
            }
        }
    }
}
