//! What the two players of a game agree on, or one may do before both have moved: a takeback
//! (asked by one, agreed by the other, in casual games), an abort before both have made a
//! first move, and a rematch once the game is over.
//!
//! The `Hub` methods here: `takeback`, `takeback_here`, `decline_takeback`, `decline_here`,
//! `abort`, `abort_here`, `rematch`, `start_rematch`, `decline_rematch`, `rematch_started`,
//! `mirror_rematch`.

use super::play::Stop;
use super::{GameCommand, Hub, Live, Refusal};
use crate::ids::{GameId, Moment, PlayerId, Seat};
use crate::note::Note;
use crate::spec::{First, Spec};
use crate::store::Change;
use quentin_record::game_end::Aborted;
use quentin_record::game_line::GameLine;

/// What asking for a rematch gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rematch {
    /// Offered: the other player has to ask too.
    Offered,
    /// Both asked: the new game's number.
    Started(GameId),
    /// The other player declined.
    Declined,
}

impl Hub {
    /// `player` asks to take back their last action (and the opponent's reply after it, if
    /// any), or agrees to the other's asking; in casual games only. Whether the actions were
    /// taken back.
    ///
    /// # Errors
    /// A rated game, nothing to take back, not one's game, a store that cannot save.
    pub async fn takeback(
        &self,
        player: PlayerId,
        id: GameId,
        now: Moment,
    ) -> Result<bool, Refusal> {
        self.act(player, id, GameCommand::TakeBack, now)
            .await
            .map(|outcome| outcome == super::Outcome::TakenBack)
    }

    pub(super) async fn takeback_here(
        &self,
        player: PlayerId,
        id: GameId,
        now: Moment,
    ) -> Result<bool, Refusal> {
        let (turn, seat) = self.seat(player, id).await?;
        let (keep, left, position) = {
            let mut inner = self.lock();
            let game = inner.games.get_mut(&id).ok_or(Refusal::NoSuchGame(id))?;
            if game.row.rated {
                return Err(Refusal::RatedNoTakeback);
            }
            if game.takeback.is_none_or(|asker| asker == seat) {
                if game.takeback_len(seat) == 0 {
                    return Err(Refusal::NothingToTakeBack);
                }
                // Only asked: nothing to save; the other processes are told.
                game.takeback = Some(seat);
                game.told();
                drop(inner);
                self.note(Note::Takeback {
                    game: id,
                    seat: Some(seat),
                });
                return Ok(false);
            }
            // Agreed: the asker's last action goes, and whatever followed it.
            let asker = seat.other();
            let keep = game.row.actions.len() - game.takeback_len(asker);
            let start = game.row.setup.start().map_err(Refusal::BadSetup)?;
            let position = GameLine::play_out(start, &game.row.actions[..keep])
                .map_err(|(_, illegal)| Refusal::Illegal(illegal))?;
            (keep, game.left_at(now), position)
        };
        let change = Change::TakeBack {
            game: id,
            index: keep,
            left,
            at: now,
        };
        self.commit(change, vec![turn], move |inner, _| {
            if let Some(game) = inner.games.get_mut(&id) {
                game.row.actions.truncate(keep);
                game.position = position;
                game.row.left = left;
                game.row.turn_since = now;
                game.takeback = None;
                game.told();
            }
            Ok(true)
        })
        .await
    }

    /// `player` declines the other's takeback request.
    ///
    /// # Errors
    /// Not in the game, a game over.
    pub async fn decline_takeback(
        &self,
        player: PlayerId,
        id: GameId,
        now: Moment,
    ) -> Result<(), Refusal> {
        self.act(player, id, GameCommand::Decline, now)
            .await
            .map(|_| ())
    }

    pub(super) fn decline_here(&self, player: PlayerId, id: GameId) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let seat = inner.live(id)?.seat_going_on(player)?;
        let game = inner.games.get_mut(&id).ok_or(Refusal::NoSuchGame(id))?;
        if game.takeback.is_some_and(|asker| asker != seat) {
            game.takeback = None;
            game.told();
            drop(inner);
            self.note(Note::Takeback {
                game: id,
                seat: None,
            });
        }
        Ok(())
    }

    /// `player` aborts game `id`: either player may, until both have made a first move. No
    /// one wins and it is not rated.
    ///
    /// # Errors
    /// Both have moved, not one's game, a game over, a store that cannot save.
    pub async fn abort(&self, player: PlayerId, id: GameId, now: Moment) -> Result<(), Refusal> {
        self.act(player, id, GameCommand::Abort, now)
            .await
            .map(|_| ())
    }

    pub(super) async fn abort_here(
        &self,
        player: PlayerId,
        id: GameId,
        now: Moment,
    ) -> Result<(), Refusal> {
        let (turn, seat) = self.seat(player, id).await?;
        if self.lock().live(id)?.row.actions.len() >= 2 {
            return Err(Refusal::TooLateToAbort);
        }
        tracing::info!(game = %id, %player, "a player aborts a game");
        self.end(
            vec![turn],
            id,
            Stop::Aborted(Aborted::Asked(Some(seat))),
            now,
        )
        .await
    }

    /// `player` asks for a rematch of finished game `id` (the same terms, the first move the
    /// other way round), or accepts the other's offer: the new game starts once both have
    /// asked. Asked at once on two processes, each offer reaches the other process, and the
    /// one that took the second seat's offer starts the game ([`Hub::mirror_rematch`]).
    ///
    /// # Errors
    /// A game not over, not one's game, a store that cannot save.
    pub async fn rematch(
        &self,
        player: PlayerId,
        id: GameId,
        now: Moment,
    ) -> Result<Rematch, Refusal> {
        {
            let mut inner = self.lock();
            let game = inner.live(id)?;
            let seat = game.seat_of_player(player)?;
            if game.row.result.is_none() {
                return Err(Refusal::NotOver);
            }
            if inner.in_tournament(id).is_some() {
                return Err(Refusal::TournamentNoRematch);
            }
            let game = inner.games.get_mut(&id).ok_or(Refusal::NoSuchGame(id))?;
            if let Some(next) = game.rematch_game {
                return Ok(Rematch::Started(next));
            }
            if game.rematch_starting {
                return Ok(Rematch::Offered);
            }
            if game.rematch.is_none_or(|by| by == seat) {
                game.rematch = Some(seat);
                game.rematch_here = Some(seat);
                game.rematch_declined = false;
                game.told();
                drop(inner);
                self.note(Note::Rematch {
                    game: id,
                    seat: Some(seat),
                });
                return Ok(Rematch::Offered);
            }
            game.rematch_starting = true;
        }
        self.start_rematch(id, now).await
    }

    /// Starts the rematch of game `id`, both players having asked: a challenge of the second
    /// player's to the first, accepted at once (the store's way to a new game number, on
    /// every backend). Called once per game on one process ([`Live::rematch_starting`]).
    ///
    /// # Errors
    /// A store that cannot save; a refusal of the new game (the fair-play limits).
    pub(crate) async fn start_rematch(&self, id: GameId, now: Moment) -> Result<Rematch, Refusal> {
        let started = async {
            let (spec, players) = {
                let inner = self.lock();
                let game = inner.live(id)?;
                let spec = Spec {
                    setup: game.row.setup,
                    // The one who moved second now moves first.
                    first: First::Me,
                    clock: game.row.clock,
                    rated: game.row.rated,
                    to: None,
                };
                (spec, game.row.players)
            };
            let (by, to) = (players[1], players[0]);
            let to_name = self.lock().name_of(to);
            let challenge = self
                .challenge(
                    by,
                    &Spec {
                        to: Some(to_name),
                        ..spec
                    },
                    now,
                )
                .await?;
            let (next, _) = self.accept(to, challenge, now).await?;
            Ok(next)
        };
        let started: Result<GameId, Refusal> = started.await;
        match started {
            Ok(next) => {
                self.rematch_started(id, next);
                self.note(Note::RematchStarted { game: id, next });
                Ok(Rematch::Started(next))
            }
            Err(refusal) => {
                if let Some(game) = self.lock().games.get_mut(&id) {
                    game.rematch_starting = false;
                }
                Err(refusal)
            }
        }
    }

    /// `player` declines the other's offer of a rematch of game `id`.
    ///
    /// # Errors
    /// Not one's game, or no such game.
    pub fn decline_rematch(&self, player: PlayerId, id: GameId) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let seat = inner.live(id)?.seat_of_player(player)?;
        let game = inner.live(id)?;
        if game.rematch.is_some_and(|by| by != seat) {
            let game = inner.games.get_mut(&id).ok_or(Refusal::NoSuchGame(id))?;
            game.rematch = None;
            game.rematch_declined = true;
            game.told();
            drop(inner);
            self.note(Note::Rematch {
                game: id,
                seat: None,
            });
        }
        Ok(())
    }

    /// Game `id`'s rematch started as game `next` (here, or on another process).
    pub(crate) fn rematch_started(&self, id: GameId, next: GameId) {
        let mut inner = self.lock();
        if let Some(game) = inner.games.get_mut(&id) {
            game.rematch = None;
            game.rematch_game = Some(next);
            game.told();
        }
    }

    /// Who offers a rematch of game `id` (a seat), or nobody since the offer was declined
    /// (`None`), as another process said. Whether this process is to start the rematch now
    /// ([`Hub::start_rematch`]): the other seat asked here at the same time, and this is the
    /// process that took the second seat's offer (the process of the first seat's waits for
    /// the news of the game), so that both offers crossing give one game.
    #[must_use]
    pub(crate) fn mirror_rematch(&self, id: GameId, offer: Option<Seat>) -> bool {
        let mut inner = self.lock();
        let Some(game) = inner.games.get_mut(&id) else {
            return false;
        };
        if let (Some(mine), Some(theirs)) = (game.rematch_here, offer)
            && mine != theirs
        {
            game.told();
            if mine == Seat::Second && !game.rematch_starting && game.rematch_game.is_none() {
                game.rematch_starting = true;
                return true;
            }
            return false;
        }
        if offer.is_none() {
            game.rematch_here = None;
        }
        game.rematch_declined = offer.is_none() && game.rematch.is_some();
        game.rematch = offer;
        game.told();
        false
    }
}

impl Live {
    /// The seat of `player`, over or not.
    ///
    /// # Errors
    /// Not one's game.
    pub(crate) fn seat_of_player(&self, player: PlayerId) -> Result<Seat, Refusal> {
        Seat::BOTH
            .into_iter()
            .find(|s| self.row.players[*s] == player)
            .ok_or(Refusal::NotYourGame)
    }

    /// What asking for a rematch has given so far, for a seat waiting on its offer.
    pub(crate) fn rematch_state(&self) -> Option<Rematch> {
        match (self.rematch_game, self.rematch, self.rematch_declined) {
            (Some(next), ..) => Some(Rematch::Started(next)),
            (None, None, true) => Some(Rematch::Declined),
            (None, Some(_), _) => Some(Rematch::Offered),
            (None, None, false) => None,
        }
    }
}
