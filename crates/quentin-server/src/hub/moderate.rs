//! What the operators' orders do to the hub's memory (the store already holds them: the
//! ledger wrote them, `src/server/moderation`): the sanctions in force, which sessions and
//! logins read; a name, ratings or challenges changed in the store; and the games this
//! process owns that a ban or an abort ends.
//!
//! The `Hub` methods here: `sanctions`, `watch_sanctions`, `set_sanctions`, `game_over`,
//! `player_named`, `renamed`, `ratings_reset`, `challenges_closed`, `end_sanctioned`.

use std::sync::Arc;

use tokio::sync::watch;

use super::play::Stop;
use super::{Hub, Owner};
use crate::ids::{ChallengeId, GameId, Moment, PlayerId, Seat};
use crate::moderation::Sanctions;
use crate::tournament::Cancelled;
use quentin_record::game_end::{Aborted, How};

impl Hub {
    /// The sanctions in force, as last read from the ledger.
    #[must_use]
    pub fn sanctions(&self) -> Arc<Sanctions> {
        self.sanctions.borrow().clone()
    }

    /// News of the sanctions: each session watches for a ban of its player.
    #[must_use]
    pub fn watch_sanctions(&self) -> watch::Receiver<Arc<Sanctions>> {
        self.sanctions.subscribe()
    }

    /// The sanctions read from the ledger now.
    pub fn set_sanctions(&self, sanctions: Arc<Sanctions>) {
        self.sanctions.send_replace(sanctions);
    }

    /// Whether game `id` is over (or is not here).
    #[must_use]
    pub fn game_over(&self, id: GameId) -> bool {
        self.lock()
            .games
            .get(&id)
            .is_none_or(|g| g.row.result.is_some())
    }

    /// The number of the player named `name` (in any case).
    #[must_use]
    pub fn player_named(&self, name: &str) -> Option<PlayerId> {
        self.lock().names.get(&name.to_ascii_lowercase()).copied()
    }

    /// Player `id` is now named `name` (a rename, or the new name they picked).
    pub fn renamed(&self, id: PlayerId, name: &str) {
        let mut inner = self.lock();
        let Some(player) = inner.players.get_mut(&id) else {
            return;
        };
        let old = std::mem::replace(&mut player.name, name.to_string());
        inner.names.remove(&old.to_ascii_lowercase());
        inner.names.insert(name.to_ascii_lowercase(), id);
        inner.lobby_changed();
    }

    /// Player `id`'s ratings are back to the start.
    pub fn ratings_reset(&self, id: PlayerId) {
        let mut inner = self.lock();
        if let Some(player) = inner.players.get_mut(&id) {
            player.ratings.clear();
        }
        inner.lobby_changed();
    }

    /// Challenge `id` was closed in the store; or, with `by`, every challenge of that player.
    pub fn challenges_closed(&self, id: Option<ChallengeId>, by: Option<PlayerId>) {
        let mut inner = self.lock();
        inner
            .challenges
            .retain(|n, c| Some(*n) != id && Some(c.by) != by);
        inner.lobby_changed();
    }

    /// Ends the games that this process owns and the sanctions end: those of a banned player
    /// (lost on forfeit, or aborted before the second move) and those an operator aborted.
    /// Each is tried once here; one that cannot be ended now is tried at the next reading.
    pub async fn end_sanctioned(&self, now: Moment) {
        let sanctions = self.sanctions();
        // The tournaments an operator cancelled, by the process that directs each.
        let ordered: Vec<crate::tournament::TournamentId> = {
            let inner = self.lock();
            sanctions
                .cancels
                .iter()
                .copied()
                .filter(|id| {
                    inner
                        .tournaments
                        .get(id)
                        .is_some_and(|t| t.status.under_way())
                })
                .collect()
        };
        for id in ordered {
            if !self.directs(id).await {
                continue;
            }
            let why = Cancelled::ByOperator(id);
            if let Err(e) = self.cancelled(id, &why, now, true).await {
                tracing::warn!(tournament = %id, "cannot cancel the tournament: {e}");
            }
        }
        let cancelled: std::collections::HashSet<GameId> = self
            .cancelled_games(&sanctions.cancels)
            .into_iter()
            .collect();
        let due: Vec<(GameId, Stop)> = {
            let inner = self.lock();
            inner
                .games
                .values()
                .filter(|g| g.row.result.is_none())
                .filter(|g| {
                    self.peers
                        .get()
                        .is_none_or(|p| p.owner(g.row.id) == Owner::Me)
                })
                .filter_map(|g| {
                    if sanctions.aborts.contains(&g.row.id) || cancelled.contains(&g.row.id) {
                        return Some((g.row.id, Stop::Aborted(Aborted::ByOperator)));
                    }
                    let banned = Seat::BOTH
                        .into_iter()
                        .find(|s| sanctions.ban_of(g.row.players[*s], now).is_some())?;
                    Some(if g.row.actions.len() < 2 {
                        (g.row.id, Stop::Aborted(Aborted::ByOperator))
                    } else {
                        // Lost on forfeit: the banned player's opponent wins.
                        (g.row.id, Stop::Won(banned.other(), How::Forfeit))
                    })
                })
                .collect()
        };
        for (id, stop) in due {
            let Ok(turn) = self.lock().live(id).map(|g| g.turn.clone()) else {
                continue;
            };
            let turn = turn.lock_owned().await;
            // Ended meanwhile (a move, a resignation): nothing to do.
            if self
                .lock()
                .live(id)
                .map_or(true, |g| g.row.result.is_some())
            {
                continue;
            }
            tracing::info!(game = %id, ?stop, "an operator's order ends a game");
            if let Err(e) = self.end(vec![turn], id, stop, now).await {
                tracing::warn!(
                    game = %id,
                    "cannot end the game for an operator's order: {e}"
                );
            }
        }
    }
}
