//! A tournament's games as their players meet them: which tournament and round a game is of
//! (its screen says so, and offers no rematch), the live tournament games of a player that
//! their terminal takes them to, and the timer of a tournament game's first move, started
//! when the game is shown to the player who makes it.
//!
//! The `Hub` methods here: `in_tournament`, `live_tournament_games`, `shown`, `shown_here`.

use super::{GameCommand, Hub, Inner, Refusal};
use crate::ids::{GameId, Moment, PlayerId};
use crate::store::Change;
use crate::tournament::{Kind, Status, TournamentId};

/// Where a game stands in a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InTournament {
    /// The tournament.
    pub id: TournamentId,
    /// Its round (an arena's: the game's number in it).
    pub round: u32,
    /// Whether the tournament is an arena (whose games have no rounds to speak of).
    pub arena: bool,
}

impl std::fmt::Display for InTournament {
    /// `tournament t7, round 2`, `arena t7`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.arena {
            write!(f, "arena {}", self.id)
        } else {
            write!(f, "tournament {}, round {}", self.id, self.round)
        }
    }
}

impl Inner {
    /// The tournament game `id` is of, if any.
    pub(crate) fn in_tournament(&self, id: GameId) -> Option<InTournament> {
        self.tournaments.values().find_map(|t| {
            let p = t.pairings.iter().find(|p| p.game == Some(id))?;
            let arena = t.settings.kind == Kind::Arena;
            Some(InTournament {
                id: t.id,
                round: u32::try_from(p.round).unwrap_or(0),
                arena,
            })
        })
    }
}

impl Hub {
    /// The tournament game `id` is of, if any.
    #[must_use]
    pub fn in_tournament(&self, id: GameId) -> Option<InTournament> {
        self.lock().in_tournament(id)
    }

    /// The tournament games of `player` under way with a live clock, oldest first: those a
    /// terminal takes its player to.
    #[must_use]
    pub fn live_tournament_games(&self, player: PlayerId) -> Vec<(GameId, InTournament)> {
        let inner = self.lock();
        inner
            .tournaments
            .values()
            .filter(|t| t.status == Status::Running)
            .flat_map(|t| t.pairings.iter().filter_map(|p| p.game))
            .filter(|g| {
                inner.games.get(g).is_some_and(|l| {
                    l.row.result.is_none()
                        && l.row.players.contains(&player)
                        && !l.row.clock.correspondence()
                })
            })
            .filter_map(|g| Some((g, inner.in_tournament(g)?)))
            .collect()
    }

    /// Game `id` is shown to `player`: in a tournament game whose first move is theirs to
    /// make, its timer starts now, once (a player taken to the game from another screen, or
    /// told of it in another game, has the whole of it). Nothing for any other game.
    ///
    /// # Errors
    /// Not one's game, over; a store that cannot save.
    pub async fn shown(&self, player: PlayerId, id: GameId, now: Moment) -> Result<(), Refusal> {
        let fresh = {
            let inner = self.lock();
            let game = inner.live(id)?;
            let seat = game.seat_going_on(player)?;
            inner.in_tournament(id).is_some()
                && game.first_move_pending() == Some(seat)
                && !game.shown[seat]
        };
        if !fresh {
            return Ok(());
        }
        self.act(player, id, GameCommand::Shown, now)
            .await
            .map(|_| ())
    }

    pub(super) async fn shown_here(
        &self,
        player: PlayerId,
        id: GameId,
        now: Moment,
    ) -> Result<(), Refusal> {
        let (turn, seat) = self.seat(player, id).await?;
        let (index, left) = {
            let inner = self.lock();
            let game = inner.live(id)?;
            let fresh = inner.in_tournament(id).is_some()
                && game.first_move_pending() == Some(seat)
                && !game.shown[seat]
                && !game.flagged(now);
            if !fresh {
                return Ok(());
            }
            (game.row.actions.len(), game.row.left)
        };
        // The turn starts now: a takeback of nothing, the clocks as they are (a first move
        // runs no clock), on both stores and on every process.
        let change = Change::TakeBack {
            game: id,
            index,
            left,
            at: now,
        };
        self.commit(change, vec![turn], move |inner, _| {
            if let Some(game) = inner.games.get_mut(&id) {
                game.row.turn_since = now;
                game.shown[seat] = true;
                game.told();
            }
            Ok(())
        })
        .await
    }
}
